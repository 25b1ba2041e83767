#include "byoc/lint.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/contract.h"
#include "byoc/dockerfile.h"
#include "byoc/recipe.h"
#include "byoc/tokens.h"
#include "core/buf.h"
#include "core/files.h"

#define CODE_DIR BYOC_CONTRACT_CODE_DIR

void byoc_lint_add(byoc_lint_result *r, byoc_lint_severity sev, const char *rule, const char *file, int line,
                   const char *fmt, ...)
{
    r->items = byoc_grow_for_one(r->items, r->n, sizeof *r->items);
    byoc_finding *f = &r->items[r->n++];
    f->severity = sev;
    f->rule = rule;
    f->file = byoc_xstrdup(file ? file : "");
    f->line = line;
    byoc_buf b = BYOC_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    byoc_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    f->message = byoc_buf_steal(&b);
    if (sev == BYOC_LINT_ERROR)
        r->n_errors++;
}

void byoc_lint_result_clear(byoc_lint_result *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->items[i].file);
        free(r->items[i].message);
    }
    free(r->items);
    memset(r, 0, sizeof *r);
}

const char *byoc_lint_severity_name(byoc_lint_severity s)
{
    return s == BYOC_LINT_ERROR ? "error" : s == BYOC_LINT_WARNING ? "warning" : "info";
}

const byoc_finding *byoc_lint_find(const byoc_lint_result *r, const char *rule)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->items[i].rule, rule))
            return &r->items[i];
    return NULL;
}

static int cmp_finding(const void *x, const void *y)
{
    const byoc_finding *a = x, *b = y;
    int c = strcmp(a->file, b->file);
    if (c)
        return c;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->severity != b->severity)
        return a->severity < b->severity ? -1 : 1;
    return strcmp(a->rule, b->rule);
}

void byoc_lint_sort(byoc_lint_result *r)
{
    if (r->n > 1)
        qsort(r->items, r->n, sizeof *r->items, cmp_finding);
}

json_t *byoc_lint_to_json(const byoc_lint_result *r)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < r->n; i++) {
        const byoc_finding *f = &r->items[i];
        json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:i, s:s}", "severity",
                                             byoc_lint_severity_name(f->severity), "rule", f->rule, "file",
                                             f->file, "line", f->line, "message", f->message));
    }
    return json_pack("{s:o}", "findings", arr);
}

/* ---- the Dockerfile rules ---------------------------------------------- */

typedef struct {
    const byoc_dockerfile *df;
    const byoc_lint_config *cfg;
    byoc_lint_result *out;
    const char *file;
    int chain[64];          /* stages of the final image, root first */
    int n_chain;
    const byoc_df_stage *final;
    const char *root;       /* the image the final stage builds on */
    bool custom;            /* custom base (not a prebuilt Braket image) */
} lint_ctx;

static void build_chain(lint_ctx *c)
{
    int rev[64], n = 0;
    for (int s = (int)c->df->n_stages - 1; s >= 0 && n < 64; s = c->df->stages[s].base_stage) {
        rev[n++] = s;
        if (c->df->stages[s].base_stage >= s)
            break; /* cannot happen (bases are earlier stages); guards against a loop */
    }
    for (int i = 0; i < n; i++)
        c->chain[i] = rev[n - 1 - i];
    c->n_chain = n;
}

/* Call fn for every instruction of the final image, root stage first. */
#define FOR_CHAIN(c, in)                                                                                     \
    for (int ci_ = 0; ci_ < (c)->n_chain; ci_++)                                                            \
        for (size_t ii_ = (c)->df->stages[(c)->chain[ci_]].first_instr,                                      \
                    ie_ = ii_ + (c)->df->stages[(c)->chain[ci_]].n_instrs;                                   \
             ii_ < ie_ && ((in) = &(c)->df->instrs[ii_], 1); ii_++)

static bool is_kw(const byoc_df_instr *in, const char *kw)
{
    return strcmp(in->keyword, kw) == 0;
}

static bool text_has(const byoc_df_instr *in, const char *needle)
{
    if (strstr(in->original, needle))
        return true;
    for (size_t i = 0; i < in->n_heredocs; i++)
        if (strstr(in->heredocs[i].body, needle))
            return true;
    return false;
}

static char *path_join_abs(const char *dir, const char *p)
{
    if (p[0] == '/')
        return byoc_xstrdup(p);
    if (!strcmp(p, ".") || !strcmp(p, "./"))
        return byoc_xasprintf("%s/", dir);
    while (p[0] == '.' && p[1] == '/')
        p += 2;
    size_t n = strlen(dir);
    return byoc_xasprintf("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", p);
}

static bool same_dir(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    while (na > 1 && a[na - 1] == '/')
        na--;
    while (nb > 1 && b[nb - 1] == '/')
        nb--;
    return na == nb && strncmp(a, b, na) == 0;
}

/* Does a COPY/ADD put `program` into /opt/ml/code? */
static bool copy_provides(const lint_ctx *c, const byoc_df_instr *in, const char *workdir, const char *program)
{
    if (in->n_args < 2 && !(in->n_args == 1 && in->n_heredocs))
        return false;
    const char *dest = in->args[in->n_args - 1];
    char *abs = path_join_abs(workdir, dest);
    char *want = byoc_xasprintf(CODE_DIR "/%s", program);
    bool ok = same_dir(abs, want);
    if (!ok && same_dir(abs, CODE_DIR)) {
        for (size_t i = 0; i + 1 < in->n_args && !ok; i++) {
            const char *src = in->args[i];
            const char *base = byoc_path_base(src);
            if (*base && fnmatch(base, program, 0) == 0)
                ok = true;
            else if (c->cfg->context_dir && !byoc_df_flag_value(in, "from")) {
                char *dir = byoc_path_join(c->cfg->context_dir, src);
                char *cand = byoc_path_join(dir, program);
                ok = byoc_path_is_dir(dir) && byoc_path_exists(cand);
                free(cand);
                free(dir);
            }
        }
    }
    free(want);
    free(abs);
    return ok;
}

static void rule_entry_point(lint_ctx *c)
{
    const char *program = byoc_df_stage_env(c->final, "SAGEMAKER_PROGRAM");
    int env_line = c->final->line;
    const byoc_df_instr *in;
    FOR_CHAIN(c, in)
    {
        if (is_kw(in, "ENV") && byoc_df_pair_value(in, "SAGEMAKER_PROGRAM"))
            env_line = in->line;
    }
    if (!program) {
        if (c->custom)
            byoc_lint_add(c->out, BYOC_LINT_ERROR, "sagemaker-program", c->file, c->final->line,
                          "custom base without SAGEMAKER_PROGRAM: the job's `train` will not know what to run; add "
                          "ENV SAGEMAKER_PROGRAM=<your entry point script> (copied to " CODE_DIR ")");
        return;
    }
    if (!*program) {
        byoc_lint_add(c->out, BYOC_LINT_ERROR, "sagemaker-program", c->file, env_line,
                      "SAGEMAKER_PROGRAM is empty: it must name the entry point script in " CODE_DIR);
        return;
    }
    if (!c->custom && !strcmp(program, "braket_container.py"))
        return; /* the prebuilt image's own launcher */
    char *workdir = byoc_xstrdup("/");
    bool found = false;
    FOR_CHAIN(c, in)
    {
        if (is_kw(in, "WORKDIR") && in->n_args) {
            char *w = path_join_abs(workdir, in->args[0]);
            free(workdir);
            workdir = w;
        } else if ((is_kw(in, "COPY") || is_kw(in, "ADD")) && copy_provides(c, in, workdir, program)) {
            found = true;
        } else if (is_kw(in, "RUN")) {
            char *want = byoc_xasprintf(CODE_DIR "/%s", program);
            found = found || text_has(in, want);
            free(want);
        }
    }
    free(workdir);
    if (!found)
        byoc_lint_add(c->out, BYOC_LINT_ERROR, "program-not-copied", c->file, env_line,
                      "SAGEMAKER_PROGRAM=%s but nothing copies %s to " CODE_DIR "/: add COPY %s " CODE_DIR "/%s",
                      program, program, program, program);
}

static void rule_sagemaker_training(lint_ctx *c)
{
    if (!c->custom)
        return;
    const byoc_df_instr *in;
    FOR_CHAIN(c, in)
    {
        if (is_kw(in, "RUN") && (text_has(in, "sagemaker-training") || text_has(in, "sagemaker_training") ||
                                 text_has(in, "/bin/train")))
            return;
        if ((is_kw(in, "COPY") || is_kw(in, "ADD")) && in->n_args >= 2) {
            const char *dest = in->args[in->n_args - 1];
            if (!strcmp(byoc_path_base(dest), "train"))
                return;
            for (size_t i = 0; i + 1 < in->n_args; i++)
                if (!strcmp(byoc_path_base(in->args[i]), "train") && strstr(dest, "bin"))
                    return;
        }
    }
    byoc_lint_add(c->out, BYOC_LINT_ERROR, "sagemaker-training", c->file, c->final->line,
                  "custom base %s without sagemaker-training: the service starts the container with `train`; "
                  "RUN pip install sagemaker-training (it needs gcc), or install a `train` executable on PATH",
                  c->root && *c->root ? c->root : "(unknown)");
}

static void rule_entrypoint(lint_ctx *c)
{
    const byoc_df_instr *last = NULL, *in;
    FOR_CHAIN(c, in)
    {
        if (is_kw(in, "ENTRYPOINT"))
            last = in;
    }
    if (!last || (last->json_form && last->n_args == 0) || (!last->json_form && last->n_args == 0))
        return;
    byoc_lint_add(c->out, BYOC_LINT_WARNING, "custom-entrypoint", c->file, last->line,
                  "ENTRYPOINT is set: the service runs the image with the command `train`, which the ENTRYPOINT "
                  "receives as an argument; remove it, or make it exec \"$@\"");
}

static const char *target_arch(const lint_ctx *c, int *line, bool *from_file)
{
    byoc_arch a;
    *from_file = true;
    *line = c->final->line;
    if (c->final->platform && byoc_arch_parse(c->final->platform, &a) == 0)
        return byoc_arch_name(a);
    if (c->cfg->arch && byoc_arch_parse(c->cfg->arch, &a) == 0) {
        *from_file = false;
        return byoc_arch_name(a);
    }
    if (c->root && (strstr(c->root, "arm64v8/") || strstr(c->root, "aarch64") || strstr(c->root, "-arm64")))
        return "arm64";
    return "amd64";
}

static void rule_arch(lint_ctx *c)
{
    int line;
    bool from_file;
    const char *arch = target_arch(c, &line, &from_file);
    if (strcmp(arch, "arm64") != 0)
        return;
    const char *where = from_file ? c->file : BYOC_PROJECT_FILE;
    if (!from_file)
        line = 0;
    const char *it = c->cfg->instance_type;
    if (it && byoc_instance_type_is_x86(it))
        byoc_lint_add(c->out, BYOC_LINT_ERROR, "arch-instance", where, line,
                      "the image targets arm64 but the job's instance type %s is x86_64: it would fail with "
                      "\"exec format error\"; build for linux/amd64 (byoc build --platform linux/amd64, emulated "
                      "on an ARM host)",
                      it);
    else
        byoc_lint_add(c->out, BYOC_LINT_WARNING, "arch-instance", where, line,
                      "the image targets arm64, which cannot run on Braket's job instances (all x86_64): keep it "
                      "for local runs, and for jobs build linux/amd64 (byoc build --platform linux/amd64, emulated "
                      "on an ARM host)");
}

static void rule_gpu(lint_ctx *c)
{
    const char *it = c->cfg->instance_type;
    bool gpu_instance = byoc_instance_type_has_gpu(it);
    bool cuda = byoc_image_is_cuda(c->root);
    if ((gpu_instance || c->cfg->gpu) && !cuda) {
        char *subject = gpu_instance ? byoc_xasprintf("the GPU instance %s", it)
                                     : byoc_xstrdup("the project uses a GPU (byoc.json gpu)");
        byoc_lint_add(c->out, BYOC_LINT_WARNING, "gpu-base", c->file, c->final->line,
                      "%s but the base image %s has no CUDA: build on a CUDA base (nvidia/cuda) or a Braket GPU "
                      "image (amazon-braket-pytorch-jobs)",
                      subject, c->root && *c->root ? c->root : "(unknown)");
        free(subject);
    } else if (cuda && it && !gpu_instance) {
        byoc_lint_add(c->out, BYOC_LINT_INFO, "gpu-base", c->file, c->final->line,
                      "a CUDA base on the CPU instance %s: the GPU libraries add size and go unused", it);
    }
}

static void rule_base_tags(lint_ctx *c)
{
    for (size_t s = 0; s < c->df->n_stages; s++) {
        const byoc_df_stage *st = &c->df->stages[s];
        if (st->base_stage >= 0 || !*st->base || !strcmp(st->base, "scratch") || strchr(st->base, '$'))
            continue;
        if (strstr(st->base, "@sha256:"))
            continue;
        const char *slash = strrchr(st->base, '/');
        const char *colon = strrchr(slash ? slash : st->base, ':');
        if (!colon)
            byoc_lint_add(c->out, BYOC_LINT_WARNING, "base-latest", c->file, st->line,
                          "FROM %s has no tag: it means :latest, which changes under you; pin a version tag or a "
                          "digest",
                          st->base);
        else if (!strcmp(colon + 1, "latest"))
            byoc_lint_add(c->out, BYOC_LINT_WARNING, "base-latest", c->file, st->line,
                          "FROM %s: :latest changes under you; pin a version tag or a digest (@sha256:...)",
                          st->base);
    }
}

static bool private_key_file(const char *path)
{
    char *data = NULL;
    size_t len = 0;
    byoc_err err;
    if (byoc_file_read(path, 64 * 1024, &data, &len, NULL, &err) != 0)
        return false;
    size_t off;
    const char *what = byoc_token_find(data, len, &off);
    bool key = what && !strcmp(what, "a private key");
    free(data);
    return key;
}

static void rule_secret_copy(lint_ctx *c)
{
    for (size_t i = 0; i < c->df->n_instrs; i++) {
        const byoc_df_instr *in = &c->df->instrs[i];
        if (!is_kw(in, "COPY") && !is_kw(in, "ADD"))
            continue;
        for (size_t k = 0; k + 1 < in->n_args; k++) {
            const char *src = in->args[k];
            while (src[0] == '.' && src[1] == '/')
                src += 2;
            const char *what = byoc_secret_path(src);
            if (!what)
                continue;
            bool maybe_cert = !strcmp(what, "a PEM key or certificate") || !strcmp(what, "a key file");
            if (maybe_cert && c->cfg->context_dir && !byoc_df_flag_value(in, "from")) {
                char *p = byoc_path_join(c->cfg->context_dir, src);
                bool exists = byoc_path_exists(p), key = exists && private_key_file(p);
                free(p);
                if (exists && !key)
                    continue; /* a certificate, not a key */
            }
            byoc_lint_add(c->out, BYOC_LINT_ERROR, "secret-copy", c->file, in->line,
                          "%s copies %s (%s) into the image, where anyone who can pull it can read it; never embed "
                          "keys: use build-time SSH forwarding (RUN --mount=type=ssh) or secrets (--mount=type=secret)",
                          in->keyword, src, what);
        }
    }
}

static void check_value_token(lint_ctx *c, const byoc_df_instr *in, const char *text, const char *what_kind)
{
    size_t off;
    const char *what = byoc_token_find(text, strlen(text), &off);
    if (what)
        byoc_lint_add(c->out, BYOC_LINT_ERROR, "secret-env", c->file, in->line,
                      "%s holds %s in plain text: it stays in the image and its history; pass it at run time or "
                      "with RUN --mount=type=secret",
                      what_kind, what);
}

static void rule_secret_env(lint_ctx *c)
{
    for (size_t i = 0; i < c->df->n_instrs; i++) {
        const byoc_df_instr *in = &c->df->instrs[i];
        bool env = is_kw(in, "ENV"), arg = is_kw(in, "ARG"), label = is_kw(in, "LABEL");
        if (env || arg || label) {
            for (size_t k = 0; k < in->n_pairs; k++) {
                const byoc_df_var *pv = &in->pairs[k];
                char kind[160];
                snprintf(kind, sizeof kind, "%s %s", in->keyword, pv->name);
                if (pv->value)
                    check_value_token(c, in, pv->value, kind);
                if (label || !byoc_secret_var_name(pv->name))
                    continue;
                if (env && pv->value && *pv->value)
                    byoc_lint_add(c->out, BYOC_LINT_ERROR, "secret-env", c->file, in->line,
                                  "ENV %s looks like a secret: ENV values are stored in the image for anyone who "
                                  "can pull it; pass it at run time instead",
                                  pv->name);
                else if (arg)
                    byoc_lint_add(c->out, pv->value && *pv->value ? BYOC_LINT_ERROR : BYOC_LINT_WARNING,
                                  "secret-env", c->file, in->line,
                                  "ARG %s looks like a secret: build args are recorded in the image history; use "
                                  "RUN --mount=type=secret (or ssh) instead",
                                  pv->name);
            }
        } else if (is_kw(in, "RUN")) {
            check_value_token(c, in, in->original, "RUN");
            for (size_t k = 0; k < in->n_heredocs; k++)
                check_value_token(c, in, in->heredocs[k].body, "a RUN heredoc");
        }
    }
}

static void rule_ssh_in_build(lint_ctx *c)
{
    for (size_t i = 0; i < c->df->n_instrs; i++) {
        const byoc_df_instr *in = &c->df->instrs[i];
        if (!is_kw(in, "RUN"))
            continue;
        if (text_has(in, ".ssh/id_") || (text_has(in, "id_rsa") && !text_has(in, "ssh-keygen"))) {
            byoc_lint_add(c->out, BYOC_LINT_ERROR, "ssh-in-build", c->file, in->line,
                          "RUN writes an SSH private key into a layer, where it stays even if deleted later; use "
                          "RUN --mount=type=ssh (BuildKit) or let byoc vendor the repository with your ssh-agent");
            continue;
        }
        bool forwarded = false;
        for (size_t k = 0; k < in->n_flags; k++)
            if (!strcmp(in->flags[k].name, "mount") && in->flags[k].value && strstr(in->flags[k].value, "type=ssh"))
                forwarded = true;
        if (!forwarded && (text_has(in, "git@") || text_has(in, "ssh://")))
            byoc_lint_add(c->out, BYOC_LINT_WARNING, "ssh-in-build", c->file, in->line,
                          "RUN fetches over SSH without SSH forwarding: the build has no key; use RUN "
                          "--mount=type=ssh with BuildKit, or vendor the repository into the build context "
                          "(byoc clones it with your ssh-agent; no key enters the image)");
    }
}

void byoc_lint_dockerfile(const char *text, size_t len, const byoc_lint_config *cfg, byoc_lint_result *out)
{
    const char *file = cfg->dockerfile_name ? cfg->dockerfile_name : "Dockerfile";
    byoc_df_options opts = {cfg->build_args, cfg->n_build_args, cfg->arch};
    byoc_dockerfile df;
    byoc_dockerfile_parse(text, len, &opts, &df);
    for (size_t i = 0; i < df.n_diags; i++)
        byoc_lint_add(out, df.diags[i].error ? BYOC_LINT_ERROR : BYOC_LINT_WARNING, "dockerfile-syntax", file,
                      df.diags[i].line, "%s", df.diags[i].message);
    if (df.n_stages == 0) {
        byoc_dockerfile_clear(&df);
        return;
    }
    lint_ctx c = {&df, cfg, out, file, {0}, 0, NULL, NULL, false};
    build_chain(&c);
    c.final = byoc_df_final_stage(&df);
    c.root = byoc_df_stage_root_image(&df, (int)df.n_stages - 1);
    if (c.root && *c.root && !strchr(c.root, '$'))
        c.custom = !byoc_image_is_prebuilt(c.root);
    else
        c.custom = !(cfg->recipe && !strcmp(cfg->recipe, "extend-prebuilt"));
    if (df.instrs[c.final->first_instr].n_args) { /* FROM without an image is a syntax error already */
        rule_entry_point(&c);
        rule_sagemaker_training(&c);
        rule_entrypoint(&c);
        rule_arch(&c);
        rule_gpu(&c);
    }
    rule_base_tags(&c);
    rule_secret_copy(&c);
    rule_secret_env(&c);
    rule_ssh_in_build(&c);
    byoc_dockerfile_clear(&df);
}
