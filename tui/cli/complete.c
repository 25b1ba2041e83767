#include "complete.h"

#include <ctype.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "aws/client.h"
#include "aws/ini.h"
#include "byoc/jobref.h"
#include "byoc/localjobs.h"
#include "cli.h"
#include "cli_doc.h"
#include "core/buf.h"
#include "docker/engine.h"
#include "docker/images.h"
#include "aws/ecr.h"

/* A whole completion, lookups included, never takes longer than this. */
#define DEADLINE_SECONDS 3

/* One flag as the verb table writes it: "--tag T", "-t, --tag REF", "--local". */
typedef struct flag_spec {
    char name[48];    /* "--tag" */
    char shrt[4];     /* "-t" or "" */
    char value[64];   /* "REF", "python|julia", or "" when the flag takes none */
} flag_spec;

typedef void (*spec_fn)(const flag_spec *f, void *ud);

static bool flag_char(char c) { return isalnum((unsigned char)c) || c == '-'; }

/* Every flag in s (a synopsis, or one option line of a --help text). */
static void scan_flags(const char *s, size_t n, spec_fn fn, void *ud)
{
    char pending_short[4] = "";
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '-' || (i > 0 && s[i - 1] != ' ' && s[i - 1] != '[' && s[i - 1] != ','))
            continue;
        size_t j = i + 1;
        bool is_long = j < n && s[j] == '-';
        if (is_long)
            j++;
        if (j >= n || !isalpha((unsigned char)s[j]))
            continue;
        size_t start = i;
        while (j < n && flag_char(s[j]))
            j++;
        if (!is_long) {   /* "-t, --tag": remember -t for the long flag that follows */
            if (j - start == 2 && j < n && s[j] == ',')
                memcpy(pending_short, s + start, 2), pending_short[2] = '\0';
            i = j;
            continue;
        }
        flag_spec f = {{0}, {0}, {0}};
        snprintf(f.name, sizeof f.name, "%.*s", (int)(j - start), s + start);
        snprintf(f.shrt, sizeof f.shrt, "%s", pending_short);
        pending_short[0] = '\0';
        /* a value follows after exactly one blank: "--tag REF"; two blanks start the description */
        if (j + 1 < n && s[j] == ' ' && s[j + 1] != ' ' && s[j + 1] != '-' && s[j + 1] != '[' &&
            s[j + 1] != '(' && s[j + 1] != '|') {
            size_t k = j + 1;
            while (k < n && s[k] != ' ' && s[k] != ']' && s[k] != ',' && s[k] != ')')
                k++;
            snprintf(f.value, sizeof f.value, "%.*s", (int)(k - j - 1), s + j + 1);
        } else if (j + 1 < n && s[j] == '=') {
            size_t k = j + 1;
            while (k < n && s[k] != ' ' && s[k] != ']')
                k++;
            snprintf(f.value, sizeof f.value, "%.*s", (int)(k - j - 1), s + j + 1);
        }
        fn(&f, ud);
        i = j;
    }
}

static const byoc_verb *verb_named(const char *name)
{
    for (const byoc_verb *v = byoc_verbs; name && v->name; v++)
        if (strcmp(v->name, name) == 0)
            return v;
    return NULL;
}

/* The flags of a verb: its synopsis, and the lines of its --help that start with a flag.
 * preflight takes run's flags too ("[run flags]"). */
static void verb_specs(const byoc_verb *v, spec_fn fn, void *ud)
{
    scan_flags(v->args, strlen(v->args), fn, ud);
    for (const char *p = v->help; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        size_t ind = 0;
        while (ind < n && p[ind] == ' ')
            ind++;
        if (ind > 0 && ind < n && p[ind] == '-')
            scan_flags(p, n, fn, ud);
        p = nl ? nl + 1 : p + n;
    }
    if (strcmp(v->name, "preflight") == 0)
        verb_specs(verb_named("run"), fn, ud);
}

static void global_specs(spec_fn fn, void *ud)
{
    for (const byoc_doc_item *f = byoc_doc_flags; f->name; f++)
        scan_flags(f->name, strlen(f->name), fn, ud);
}

struct find_ctx {
    const char *word;
    flag_spec found;
    bool ok;
};

static void find_one(const flag_spec *f, void *ud)
{
    struct find_ctx *c = ud;
    if (!c->ok && (strcmp(f->name, c->word) == 0 || (f->shrt[0] && strcmp(f->shrt, c->word) == 0))) {
        c->found = *f;
        c->ok = true;
    }
}

/* The flag `word` of the verb (or a global flag). */
static bool find_flag(const byoc_verb *v, const char *word, flag_spec *out)
{
    struct find_ctx c = {word, {{0}, {0}, {0}}, false};
    global_specs(find_one, &c);
    if (!c.ok && v)
        verb_specs(v, find_one, &c);
    if (c.ok)
        *out = c.found;
    return c.ok;
}

static void set_choices(byoc_complete_what *w, const char *list, char sep)
{
    w->kind = BYOC_COMPLETE_CHOICES;
    w->n_choices = 0;
    for (const char *p = list; *p && w->n_choices < BYOC_COMPLETE_MAX_CHOICES;) {
        const char *e = strchr(p, sep);
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n > 0 && n < sizeof w->choices[0])
            snprintf(w->choices[w->n_choices++], sizeof w->choices[0], "%.*s", (int)n, p);
        p = e ? e + 1 : p + n;
    }
}

/* What a flag's value (or a positional argument named `value`) is. */
static void value_kind(byoc_complete_what *w, const char *flag, const char *value)
{
    static const struct {
        const char *flag;
        const char *choices;
    } fixed[] = {
        {"--status", "QUEUED RUNNING COMPLETED FAILED CANCELLING CANCELLED"},
        {"--instance-type", "ml.m5.large ml.m5.xlarge ml.c5.xlarge ml.c5.2xlarge ml.g4dn.xlarge ml.p3.2xlarge"},
        {"--network", "none host bridge"},
        {"--platform", "linux/amd64 linux/arm64"},
        {"--distribution", "data_parallel"},
    };
    w->kind = BYOC_COMPLETE_NOTHING;
    if (flag && strcmp(flag, "--profile") == 0)
        w->kind = BYOC_COMPLETE_PROFILES;
    else if (flag && strcmp(flag, "--region") == 0)
        w->kind = BYOC_COMPLETE_REGIONS;
    else if ((flag && strcmp(flag, "--repository") == 0) || strcmp(value, "REPOSITORY") == 0)
        w->kind = BYOC_COMPLETE_REPOS;
    else if (strcmp(value, "REF") == 0)
        w->kind = BYOC_COMPLETE_IMAGES;
    else if (strcmp(value, "JOB") == 0)
        w->kind = BYOC_COMPLETE_JOBS;
    else if (strchr(value, '|'))
        set_choices(w, value, '|');
    for (size_t i = 0; flag && i < sizeof fixed / sizeof *fixed; i++)
        if (strcmp(flag, fixed[i].flag) == 0)
            set_choices(w, fixed[i].choices, ' ');
}

void byoc_complete_analyse(int n, char **words, byoc_complete_what *w)
{
    memset(w, 0, sizeof *w);
    w->current = n > 0 ? words[n - 1] : "";
    const byoc_verb *verb = NULL;
    const char *verb_name = NULL;
    flag_spec after = {{0}, {0}, {0}};   /* the flag whose value the current word is */
    bool want_value = false;
    for (int i = 0; i < n; i++) {
        const char *a = words[i];
        bool last = i == n - 1;
        if (want_value) {
            if (last)
                break;
            want_value = false;
            if (strcmp(after.name, "--profile") == 0)
                w->profile = a;
            else if (strcmp(after.name, "--region") == 0)
                w->region = a;
            continue;
        }
        if (last)
            break;
        if (a[0] == '-') {
            flag_spec f;
            if (!strchr(a, '=') && find_flag(verb, a, &f) && f.value[0]) {
                after = f;
                want_value = true;
            } else if (strncmp(a, "--profile=", 10) == 0) {
                w->profile = a + 10;
            } else if (strncmp(a, "--region=", 9) == 0) {
                w->region = a + 9;
            }
        } else if (!verb_name) {
            verb_name = a;
            verb = verb_named(a);
        }
    }
    w->verb = verb ? verb->name : NULL;
    if (want_value) {
        value_kind(w, after.name, after.value);
        return;
    }
    if (w->current[0] == '-') {
        w->kind = BYOC_COMPLETE_FLAGS;
        return;
    }
    if (!verb_name) {
        w->kind = BYOC_COMPLETE_VERBS;
        return;
    }
    if (!verb)
        return;
    /* a positional argument: the synopsis's first word when it names one ("REF", "[DIR]", "JOB") */
    char first[48] = "";
    const char *s = verb->args;
    if (*s == '[')
        s++;
    size_t k = 0;
    while (s[k] && s[k] != ' ' && s[k] != ']' && k + 1 < sizeof first)
        first[k] = s[k], k++;
    first[k] = '\0';
    if (first[0] && first[0] != '-')
        value_kind(w, NULL, first);
}

struct flags_out {
    void (*fn)(const char *flag, void *ud);
    void *ud;
    char seen[128][48];
    size_t n;
};

static void emit_flag(const flag_spec *f, void *ud)
{
    struct flags_out *o = ud;
    for (size_t i = 0; i < o->n; i++)
        if (strcmp(o->seen[i], f->name) == 0)
            return;
    if (o->n < sizeof o->seen / sizeof o->seen[0])
        snprintf(o->seen[o->n++], sizeof o->seen[0], "%s", f->name);
    o->fn(f->name, o->ud);
}

size_t byoc_complete_flags(const char *verb, void (*fn)(const char *flag, void *ud), void *ud)
{
    struct flags_out *o = byoc_xcalloc(1, sizeof *o);
    o->fn = fn;
    o->ud = ud;
    global_specs(emit_flag, o);
    const byoc_verb *v = verb_named(verb);
    if (v)
        verb_specs(v, emit_flag, o);
    size_t n = o->n;
    free(o);
    return n;
}

/* ---- printing, and the live lookups ---- */

static void put(const char *cand, void *ud)
{
    const char *prefix = ud;
    if (!cand || !*cand || strncmp(cand, prefix, strlen(prefix)) != 0)
        return;
    for (const char *p = cand; *p; p++)   /* one printable line per candidate, or none */
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return;
    puts(cand);
}

static void local_images(const char *prefix)
{
    byoc_err err;
    byoc_engine *e;
    if (byoc_engine_new(&e, &err) < 0)
        return;
    byoc_image_list l;
    if (byoc_images_list(e, NULL, false, NULL, &l, &err) == 0) {
        for (size_t i = 0; i < l.n; i++)
            for (size_t t = 0; t < l.items[i].n_repo_tags; t++)
                put(l.items[i].repo_tags[t], (void *)prefix);
        byoc_image_list_clear(&l);
    }
    byoc_engine_free(e);
}

static byoc_aws_client *aws_client(const byoc_complete_what *w)
{
    byoc_err err;
    byoc_aws_client *c = NULL;
    byoc_aws_config_opts o = {.profile = w->profile, .region = w->region};
    if (byoc_aws_client_new(&o, &c, &err) != 0)
        return NULL;
    return c;
}

static void ecr_repos(const byoc_complete_what *w)
{
    byoc_aws_client *c = aws_client(w);
    if (!c)
        return;
    byoc_err err;
    byoc_ecr_repository *r;
    size_t n;
    if (byoc_ecr_describe_repositories(c, NULL, NULL, 0, &r, &n, &err) == 0) {
        for (size_t i = 0; i < n; i++)
            put(r[i].name, (void *)w->current);
        byoc_ecr_repositories_free(r, n);
    }
    byoc_aws_client_free(c);
}

static void job_names(const byoc_complete_what *w)
{
    byoc_err err;
    byoc_local_jobs local = {0};
    if (byoc_localjobs_load(NULL, &local, &err) == 0) {
        for (size_t i = 0; i < local.n && i < 50; i++) {
            char *arn = byoc_local_job_arn(local.items[i].name);
            put(arn, (void *)w->current);
            free(arn);
        }
        byoc_local_jobs_clear(&local);
    }
    byoc_aws_client *c = aws_client(w);
    if (!c)
        return;
    byoc_job_query q = {.max = 50};
    json_t *jobs;
    if (byoc_jobs_list(c, NULL, &q, &jobs, &err) == 0) {
        size_t i;
        json_t *j;
        json_array_foreach(jobs, i, j)
            put(json_string_value(json_object_get(j, "job_name")), (void *)w->current);
        json_decref(jobs);
    }
    byoc_aws_client_free(c);
}

static void profiles_in(const char *env, const char *home_rel, bool config_file, const char *prefix)
{
    const char *path = getenv(env);
    char *owned = NULL;
    if (!path || !*path) {
        const char *home = getenv("HOME");
        if (!home || !*home)
            return;
        path = owned = byoc_xasprintf("%s/%s", home, home_rel);
    }
    byoc_ini ini;
    bool found = false;
    byoc_err err;
    if (byoc_ini_load(path, &ini, &found, &err) == 0) {
        for (size_t i = 0; found && i < ini.len; i++) {
            const char *s = ini.sections[i].name;
            if (!config_file)
                put(s, (void *)prefix);
            else if (strcmp(s, "default") == 0)
                put(s, (void *)prefix);
            else if (strncmp(s, "profile ", 8) == 0)
                put(s + 8, (void *)prefix);
        }
        byoc_ini_clear(&ini);
    }
    free(owned);
}

static void print_flag(const char *flag, void *ud) { put(flag, ud); }

int byoc_complete_main(int n, char **words)
{
    /* A completion that hangs would hang the shell: past the deadline the process ends,
     * printing nothing. */
    signal(SIGALRM, SIG_DFL);
    alarm(DEADLINE_SECONDS);
    setenv("AWS_MAX_ATTEMPTS", "1", 1);
    char *empty[] = {(char *)""};
    if (n <= 0)
        n = 1, words = empty;
    byoc_complete_what w;
    byoc_complete_analyse(n, words, &w);
    void *cur = (void *)w.current;
    switch (w.kind) {
    case BYOC_COMPLETE_NOTHING:
        break;
    case BYOC_COMPLETE_VERBS:
        for (const byoc_verb *v = byoc_verbs; v->name; v++)
            put(v->name, cur);
        break;
    case BYOC_COMPLETE_FLAGS:
        byoc_complete_flags(w.verb, print_flag, cur);
        break;
    case BYOC_COMPLETE_CHOICES:
        for (size_t i = 0; i < w.n_choices; i++)
            put(w.choices[i], cur);
        break;
    case BYOC_COMPLETE_IMAGES:
        local_images(w.current);
        break;
    case BYOC_COMPLETE_REPOS:
        ecr_repos(&w);
        break;
    case BYOC_COMPLETE_JOBS:
        job_names(&w);
        break;
    case BYOC_COMPLETE_PROFILES:
        profiles_in("AWS_CONFIG_FILE", ".aws/config", true, w.current);
        profiles_in("AWS_SHARED_CREDENTIALS_FILE", ".aws/credentials", false, w.current);
        break;
    case BYOC_COMPLETE_REGIONS: {
        static const char *const regions[] = {"us-east-1", "us-east-2", "us-west-1", "us-west-2", "eu-west-1",
                                              "eu-west-2", "eu-west-3", "eu-central-1", "eu-north-1",
                                              "ap-northeast-1", "ap-southeast-1", "ap-southeast-2", NULL};
        for (size_t i = 0; regions[i]; i++)
            put(regions[i], cur);
        break;
    }
    }
    fflush(stdout);
    return 0;
}
