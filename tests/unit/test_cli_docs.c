/* The command line's documents: the man page carries every verb's synopsis,
 * summary and help, the global flags, environment, files, exit codes and every
 * action of the TUI; the shell completion's analysis finds verbs, flags, a
 * flag's choices and the live kinds (images, repositories, jobs, profiles,
 * regions) where the verb takes them. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action.h"
#include "check.h"
#include "cli.h"
#include "cli_doc.h"
#include "complete.h"
#include "manpage.h"

/* The man page with its escapes undone and every run of blanks, newlines and
 * roff requests made one blank, so a text can be looked for word by word. */
static char *plain_words(const char *roff)
{
    char *out = malloc(strlen(roff) + 2);
    size_t o = 0;
    bool line_start = true, request = false;
    for (const char *p = roff; *p; p++) {
        if (line_start && *p == '.') {   /* a request: drop its name (and a comment whole), keep its text */
            bool comment = p[1] == '\\';
            while (*p && *p != '\n' && (comment || *p != ' '))
                p++;
            if (!*p)
                break;
            request = true;
        }
        line_start = *p == '\n';
        if (*p == '\n')
            request = false;
        if (request && *p == '"')
            continue;
        if (p[0] == '\\' && p[1]) {
            p++;
            if (*p == '-')
                out[o++] = '-';
            else if (*p == 'e')
                out[o++] = '\\';
            else if (*p == 'f' && p[1])
                p++;   /* \fB \fR: font changes */
            continue;  /* \& and the rest: nothing */
        }
        char c = (*p == '\n' || *p == ' ') ? ' ' : *p;
        if (c == ' ' && o && out[o - 1] == ' ')
            continue;
        out[o++] = c;
    }
    out[o] = '\0';
    return out;
}

static char *squeeze(const char *s)
{
    char *out = malloc(strlen(s) + 1);
    size_t o = 0;
    for (; *s; s++) {
        char c = (*s == '\n' || *s == ' ') ? ' ' : *s;
        if (c == ' ' && (o == 0 || out[o - 1] == ' '))
            continue;
        out[o++] = c;
    }
    while (o && out[o - 1] == ' ')
        o--;
    out[o] = '\0';
    return out;
}

static void check_has(const char *page, const char *text)
{
    char *want = squeeze(text);
    if (!strstr(page, want))
        check_fail(__FILE__, __LINE__, "the man page lacks: [%s]", want);
    else
        check_passed++;
    free(want);
}

static void check_items(const char *page, const byoc_doc_item *it)
{
    for (; it->name; it++) {
        check_has(page, it->name);
        check_has(page, it->text);
    }
}

static void man_page(void)
{
    char *roff = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&roff, &len);
    byoc_manpage_write(f);
    fclose(f);
    CHECK(strncmp(roff, ".\\\"", 3) == 0);
    CHECK(strstr(roff, ".TH BYOC 1") != NULL);
    /* no text line starts with a dot or a quote that roff would take for a request */
    for (const char *p = roff; p; p = strchr(p, '\n')) {
        p += *p == '\n';
        if (*p == '\'')
            check_fail(__FILE__, __LINE__, "a line starts with a quote: %.40s", p);
    }
    char *page = plain_words(roff);
    for (const byoc_verb *v = byoc_verbs; v->name; v++) {
        check_has(page, v->args);
        check_has(page, v->summary);
        /* the help's words, in order: the part before the first tagged line is prose */
        check_has(page, v->help);
    }
    check_items(page, byoc_doc_flags);
    check_items(page, byoc_doc_env);
    check_items(page, byoc_doc_files);
    check_items(page, byoc_doc_exit);
    size_t n;
    const tui_action *t = tui_actions(&n);
    for (size_t i = 0; i < n; i++) {
        char keys[96];
        check_has(page, t[i].help);
        check_has(page, tui_action_keys_text(&t[i], keys, sizeof keys));
        check_has(page, tui_ctx_title(t[i].ctx));
    }
    free(page);
    free(roff);
}

static byoc_complete_what analyse(const char *line)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", line);
    char *words[32];
    int n = 0;
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w && n < 31; w = strtok_r(NULL, " ", &save))
        words[n++] = strcmp(w, "_") == 0 ? (char *)"" : w;   /* "_": the empty word under the cursor */
    static char keep[32][64];
    for (int i = 0; i < n; i++) {
        snprintf(keep[i], sizeof keep[i], "%s", words[i]);
        words[i] = keep[i];
    }
    byoc_complete_what w;
    byoc_complete_analyse(n, words, &w);
    return w;
}

struct flag_list {
    char all[4096];
};

static void add_flag(const char *flag, void *ud)
{
    struct flag_list *l = ud;
    strncat(l->all, flag, sizeof l->all - strlen(l->all) - 2);
    strcat(l->all, " ");
}

static bool verb_has_flag(const char *verb, const char *flag)
{
    struct flag_list l = {""};
    byoc_complete_flags(verb, add_flag, &l);
    char want[64];
    snprintf(want, sizeof want, "%s ", flag);
    return strstr(l.all, want) != NULL;
}

static bool has_choice(const byoc_complete_what *w, const char *c)
{
    for (size_t i = 0; i < w->n_choices; i++)
        if (strcmp(w->choices[i], c) == 0)
            return true;
    return false;
}

static void completion(void)
{
    CHECK_INT(analyse("_").kind, BYOC_COMPLETE_VERBS);
    CHECK_INT(analyse("do").kind, BYOC_COMPLETE_VERBS);
    CHECK_INT(analyse("--json _").kind, BYOC_COMPLETE_VERBS);
    CHECK_INT(analyse("--region eu-west-1 _").kind, BYOC_COMPLETE_VERBS);
    CHECK_INT(analyse("--region _").kind, BYOC_COMPLETE_REGIONS);
    CHECK_INT(analyse("--profile _").kind, BYOC_COMPLETE_PROFILES);
    CHECK_INT(analyse("-").kind, BYOC_COMPLETE_FLAGS);
    byoc_complete_what w = analyse("push --repository _");
    CHECK_INT(w.kind, BYOC_COMPLETE_REPOS);
    CHECK_STR(w.verb, "push");
    CHECK_INT(analyse("push -r _").kind, BYOC_COMPLETE_REPOS);
    CHECK_INT(analyse("push _").kind, BYOC_COMPLETE_IMAGES);
    CHECK_INT(analyse("push myimage --tag v1 --create _").kind, BYOC_COMPLETE_IMAGES);
    CHECK_INT(analyse("images --repository _").kind, BYOC_COMPLETE_REPOS);
    CHECK_INT(analyse("permit _").kind, BYOC_COMPLETE_REPOS);
    CHECK_INT(analyse("status _").kind, BYOC_COMPLETE_JOBS);
    CHECK_INT(analyse("logs --follow _").kind, BYOC_COMPLETE_JOBS);
    CHECK_INT(analyse("cancel _").kind, BYOC_COMPLETE_JOBS);
    CHECK_INT(analyse("results -o out _").kind, BYOC_COMPLETE_JOBS);
    CHECK_INT(analyse("results -o _").kind, BYOC_COMPLETE_NOTHING);   /* a directory: file names */
    CHECK_INT(analyse("init _").kind, BYOC_COMPLETE_NOTHING);
    w = analyse("--profile dev --region=us-west-2 status _");
    CHECK_STR(w.profile, "dev");
    CHECK_STR(w.region, "us-west-2");
    w = analyse("init --recipe _");
    CHECK_INT(w.kind, BYOC_COMPLETE_CHOICES);
    CHECK(has_choice(&w, "extend-prebuilt") && has_choice(&w, "custom-base"));
    w = analyse("init --language j");
    CHECK_STR(w.current, "j");
    CHECK(has_choice(&w, "julia") && has_choice(&w, "cpp"));
    w = analyse("jobs --status _");
    CHECK(has_choice(&w, "RUNNING") && has_choice(&w, "CANCELLED"));
    w = analyse("build --network _");
    CHECK(has_choice(&w, "none") && has_choice(&w, "host"));
    CHECK_INT(analyse("run --job-name _").kind, BYOC_COMPLETE_NOTHING);

    CHECK(verb_has_flag(NULL, "--region") && verb_has_flag(NULL, "--json"));
    CHECK(verb_has_flag("push", "--repository") && verb_has_flag("push", "--scan-on-push"));
    CHECK(verb_has_flag("push", "--kms-key") && verb_has_flag("push", "--region"));
    CHECK(verb_has_flag("run", "--instance-count") && verb_has_flag("run", "--volume-gb"));
    CHECK(verb_has_flag("run", "--copy-checkpoints-from-job") && verb_has_flag("run", "--with-credentials"));
    CHECK(verb_has_flag("preflight", "--smoke") && verb_has_flag("preflight", "--image-uri"));
    CHECK(verb_has_flag("logs", "--follow") && !verb_has_flag("logs", "--local"));
    CHECK(verb_has_flag("build", "--label") && verb_has_flag("build", "--pull"));
    CHECK(!verb_has_flag("jobs", "--follow"));
}

int main(void)
{
    man_page();
    completion();
    return check_done();
}
