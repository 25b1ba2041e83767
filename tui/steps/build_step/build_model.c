#include "build_model.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/shellword.h"
#include "core/buf.h"
#include "core/str.h"
#include "docker/reference.h"

void tui_build_settings_clear(tui_build_settings *s)
{
    free(s->context);
    free(s->dockerfile);
    byoc_strv_clear(&s->tags);
    byoc_strv_clear(&s->build_args);
    free(s->target);
    free(s->platform);
    free(s->network);
    memset(s, 0, sizeof *s);
}

void tui_build_split_words(const char *text, byoc_strv *out)
{
    byoc_sw_words(text ? text : "", '\\', NULL, NULL, out);
}

char *tui_build_join_words(const char *const *words, size_t n)
{
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_puts(&b, "");
    for (size_t i = 0; i < n; i++) {
        const char *w = words[i];
        if (i)
            byoc_buf_putc(&b, ' ');
        bool plain = *w != '\0';
        for (const char *p = w; *p && plain; p++)
            plain = !isspace((unsigned char)*p) && *p != '"' && *p != '\'' && *p != '\\';
        if (plain) {
            byoc_buf_puts(&b, w);
            continue;
        }
        byoc_buf_putc(&b, '"');
        for (const char *p = w; *p; p++) {
            if (*p == '"' || *p == '\\')
                byoc_buf_putc(&b, '\\');
            byoc_buf_putc(&b, *p);
        }
        byoc_buf_putc(&b, '"');
    }
    return byoc_buf_steal(&b);
}

/* ---- the form ---- */

/* Each field is checked the way `byoc build` checks the flag it stands for. */
static bool check_flags(const byoc_build_flags *f, char *msg, size_t size)
{
    byoc_err err;
    if (byoc_build_flags_check(f, &err) == 0)
        return true;
    snprintf(msg, size, "%.*s", (int)size - 1, err.message);
    return false;
}

static bool check_words(const tui_field *field, const char *value, char *msg, size_t size)
{
    byoc_strv w = BYOC_STRV_INIT;
    tui_build_split_words(value, &w);
    byoc_build_flags f = {0};
    if (strcmp(field->key, "tags") == 0) {
        f.tags = (const char *const *)w.v;
        f.n_tags = w.n;
    } else {
        f.build_args = (const char *const *)w.v;
        f.n_build_args = w.n;
    }
    bool ok = check_flags(&f, msg, size);
    byoc_strv_clear(&w);
    return ok;
}

static bool check_field(const tui_form *f, const tui_field *field, const char *value, char *msg, size_t size,
                        void *ud)
{
    (void)f;
    (void)ud;
    const char *k = field->key;
    if (strcmp(k, "tags") == 0 || strcmp(k, "build_args") == 0)
        return check_words(field, value, msg, size);
    byoc_build_flags fl = {0};
    if (strcmp(k, "target") == 0)
        fl.target = value;
    else if (strcmp(k, "platform") == 0)
        fl.platform = value;
    return check_flags(&fl, msg, size);
}

static const char *const networks[] = {"default", "none", "host"};

void tui_build_form_build(tui_form *f)
{
    size_t i;
    i = tui_form_add_text(f, "context", "Context", ".", true, NULL, NULL);
    tui_form_set_help(f, i, "directory sent to the engine, from the project");
    i = tui_form_add_text(f, "dockerfile", "Dockerfile", "Dockerfile", true, NULL, NULL);
    tui_form_set_help(f, i, "path from the project directory");
    i = tui_form_add_text(f, "tags", "Tags", "", false, check_field, NULL);
    tui_form_set_help(f, i, "repository:tag ... (space-separated)");
    i = tui_form_add_text(f, "build_args", "Build args", "", false, check_field, NULL);
    tui_form_set_help(f, i, "KEY=VALUE ... (space-separated, quote spaces)");
    i = tui_form_add_text(f, "target", "Target stage", "", false, check_field, NULL);
    tui_form_set_help(f, i, "the last stage");
    i = tui_form_add_text(f, "platform", "Platform", "", false, check_field, NULL);
    tui_form_set_help(f, i, "the engine's (e.g. linux/amd64)");
    tui_form_add_choice(f, "network", "Network for RUN", networks, 3, 0);
    tui_form_add_toggle(f, "no_cache", "No cache", false);
    tui_form_add_toggle(f, "lint", "Lint first", true);
}

char *tui_build_project_dockerfile(const byoc_project *p)
{
    if (p->doc && json_object_get(p->doc, "dockerfile") && p->dockerfile)
        return byoc_xstrdup(p->dockerfile);
    const char *ctx = p->context && *p->context ? p->context : ".";
    if (strcmp(ctx, ".") == 0 || strcmp(ctx, "./") == 0)
        return byoc_xstrdup("Dockerfile");
    size_t n = strlen(ctx);
    return byoc_xasprintf("%.*s/Dockerfile", (int)(n > 1 && ctx[n - 1] == '/' ? n - 1 : n), ctx);
}

char *tui_build_default_tag(const char *project_name, const char *project_dir)
{
    const char *src = project_name && *project_name ? project_name : NULL;
    if (!src && project_dir) {
        const char *slash = strrchr(project_dir, '/');
        src = slash && slash[1] ? slash + 1 : project_dir;
    }
    byoc_buf b = BYOC_BUF_INIT;
    bool dash = false;
    for (const char *p = src ? src : ""; *p; p++) {
        unsigned char c = (unsigned char)tolower((unsigned char)*p);
        if (isalnum(c) && c < 0x80) {
            if (dash && b.len)
                byoc_buf_putc(&b, '-');
            byoc_buf_putc(&b, (char)c);
            dash = false;
        } else {
            dash = true;                /* runs of anything else become one '-' between words */
        }
    }
    if (b.len == 0)
        byoc_buf_puts(&b, "byoc-image");
    byoc_buf_puts(&b, ":latest");
    return byoc_buf_steal(&b);
}

void tui_build_form_load(tui_form *f, const byoc_project *p, const char *default_tag)
{
    tui_form_set_value(f, "context", p->context && *p->context ? p->context : ".");
    char *df = tui_build_project_dockerfile(p);
    tui_form_set_value(f, "dockerfile", df);
    free(df);
    char *tags = p->n_tags ? tui_build_join_words((const char *const *)p->tags, p->n_tags)
                           : byoc_xstrdup(default_tag ? default_tag : "");
    tui_form_set_value(f, "tags", tags);
    free(tags);
    byoc_strv args = BYOC_STRV_INIT;
    for (size_t i = 0; i < p->n_build_args; i++)
        byoc_strv_pushf(&args, "%s=%s", p->build_args[i].key, p->build_args[i].value);
    char *joined = tui_build_join_words((const char *const *)args.v, args.n);
    tui_form_set_value(f, "build_args", joined);
    free(joined);
    byoc_strv_clear(&args);
    for (size_t i = 0; i < f->count; i++)
        f->fields[i].msg[0] = '\0';
}

static char *value_dup(const tui_form *f, const char *key)
{
    const char *v = tui_form_value(f, key);
    return byoc_xstrdup(v ? v : "");
}

void tui_build_settings_from_form(const tui_form *f, tui_build_settings *out)
{
    memset(out, 0, sizeof *out);
    out->context = value_dup(f, "context");
    out->dockerfile = value_dup(f, "dockerfile");
    tui_build_split_words(tui_form_value(f, "tags"), &out->tags);
    tui_build_split_words(tui_form_value(f, "build_args"), &out->build_args);
    out->target = value_dup(f, "target");
    out->platform = value_dup(f, "platform");
    const char *net = tui_form_value(f, "network");
    out->network = byoc_xstrdup(net && strcmp(net, "default") != 0 ? net : "");
    const char *nc = tui_form_value(f, "no_cache"), *lint = tui_form_value(f, "lint");
    out->no_cache = nc && strcmp(nc, "true") == 0;
    out->lint = !lint || strcmp(lint, "true") == 0;
}

static bool set_if_changed(char **field, const char *v)
{
    if (*field && strcmp(*field, v) == 0)
        return false;
    byoc_str_set(field, v);
    return true;
}

bool tui_build_settings_to_project(const tui_build_settings *s, byoc_project *p)
{
    bool changed = set_if_changed(&p->context, s->context);
    char *effective = tui_build_project_dockerfile(p);   /* what an unset "dockerfile" means */
    if (strcmp(effective, s->dockerfile) != 0)
        changed |= set_if_changed(&p->dockerfile, s->dockerfile);
    free(effective);
    bool same_tags = p->n_tags == s->tags.n;
    for (size_t i = 0; same_tags && i < s->tags.n; i++)
        same_tags = strcmp(p->tags[i], s->tags.v[i]) == 0;
    if (!same_tags) {
        for (size_t i = 0; i < p->n_tags; i++)
            free(p->tags[i]);
        free(p->tags);
        p->tags = byoc_xcalloc(s->tags.n + 1, sizeof *p->tags);
        for (size_t i = 0; i < s->tags.n; i++)
            p->tags[i] = byoc_xstrdup(s->tags.v[i]);
        p->n_tags = s->tags.n;
        changed = true;
    }
    /* build args: the form's list, in its order, replaces byoc.json's */
    bool same_args = p->n_build_args == s->build_args.n;
    for (size_t i = 0; same_args && i < s->build_args.n; i++) {
        const char *kv = s->build_args.v[i], *eq = strchr(kv, '=');
        size_t klen = eq ? (size_t)(eq - kv) : strlen(kv);
        same_args = strlen(p->build_args[i].key) == klen && strncmp(p->build_args[i].key, kv, klen) == 0 &&
                    strcmp(p->build_args[i].value, eq ? eq + 1 : "") == 0;
    }
    if (!same_args) {
        for (size_t i = 0; i < p->n_build_args; i++) {
            free(p->build_args[i].key);
            free(p->build_args[i].value);
        }
        p->n_build_args = 0;
        for (size_t i = 0; i < s->build_args.n; i++) {
            const char *kv = s->build_args.v[i], *eq = strchr(kv, '=');
            char *k = eq ? byoc_xstrndup(kv, (size_t)(eq - kv)) : byoc_xstrdup(kv);
            byoc_project_set_build_arg(p, k, eq ? eq + 1 : "");
            free(k);
        }
        changed = true;
    }
    return changed;
}

/* ---- build flags ---- */

void tui_build_flags_of(const tui_build_settings *s, byoc_build_flags *f)
{
    memset(f, 0, sizeof *f);
    f->context = s->context;
    f->dockerfile = s->dockerfile;
    f->tags = (const char *const *)s->tags.v;
    f->n_tags = s->tags.n;
    f->build_args = (const char *const *)s->build_args.v;
    f->n_build_args = s->build_args.n;
    f->replace_project = true;
    f->target = s->target;
    f->platform = s->platform;
    f->network = s->network;
    f->no_cache = s->no_cache;
}

char *tui_build_lint_dockerfile(const char *dockerfile, const char *project_dir)
{
    if (!dockerfile || !*dockerfile)
        return NULL;
    if (dockerfile[0] != '/') {
        if (strncmp(dockerfile, "../", 3) == 0 || strcmp(dockerfile, "..") == 0 || strstr(dockerfile, "/../"))
            return NULL;
        return byoc_xstrdup(strncmp(dockerfile, "./", 2) == 0 ? dockerfile + 2 : dockerfile);
    }
    size_t n = project_dir ? strlen(project_dir) : 0;
    while (n > 1 && project_dir[n - 1] == '/')
        n--;
    if (n && strncmp(dockerfile, project_dir, n) == 0 && dockerfile[n] == '/' && dockerfile[n + 1])
        return byoc_xstrdup(dockerfile + n + 1);
    return NULL;
}

bool tui_build_line_is_error(const char *line)
{
    static const char *const marks[] = {
        "ERROR", "Error response", "error:", "Error:", "returned a non-zero code", "failed to ", "Failed to ",
        "no such file or directory", "not found",
    };
    if (!line)
        return false;
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (strstr(line, marks[i]))
            return true;
    return false;
}
