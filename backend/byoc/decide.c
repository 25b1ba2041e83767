#include "byoc/decide.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/pyspec.h"
#include "core/buf.h"
#include "core/str.h"
#include "core/strv.h"

static const char *const language_choices[] = {"python", "cpp", "rust", "julia", "other", NULL};
static const char *const arch_choices[] = {"amd64", "arm64", NULL};

static const byoc_question questions[BYOC_Q_COUNT] = {
    {BYOC_Q_LANGUAGES, "languages", BYOC_QT_LIST,
     "Which languages does the job's code use?",
     "The prebuilt images run Python algorithm scripts only; C++, Rust, Julia or other code needs its own container.",
     language_choices, "python"},
    {BYOC_Q_PYTHON_VERSION, "python_version", BYOC_QT_PYSPEC,
     "Which Python version does the code need (a version or specifier, empty for any)?",
     "The prebuilt images ship Python " BYOC_PREBUILT_PYTHON "; another version needs its own container.",
     NULL, ""},
    {BYOC_Q_MISSING_PACKAGES, "missing_packages", BYOC_QT_COUNT,
     "How many public PyPI packages does the job need that the prebuilt image lacks?",
     "Fewer than 10: list them in requirements.txt and the prebuilt image installs them at start; more makes every start slow.",
     NULL, "0"},
    {BYOC_Q_PRIVATE_DEPS, "private_deps", BYOC_QT_BOOL,
     "Does the code depend on private software (private GitHub/GitLab over SSH, a private index)?",
     "The job cannot fetch private code at start; the image should carry it, without SSH keys inside.",
     NULL, "false"},
    {BYOC_Q_LICENSE_SERVER, "license_server", BYOC_QT_BOOL,
     "Does it use licensed software that authenticates against a license server?",
     "An image can carry the license client and the code that authenticates it.",
     NULL, "false"},
    {BYOC_Q_LARGE_STACK, "large_stack", BYOC_QT_BOOL,
     "Does it need a large software stack that the prebuilt images do not include?",
     "Installing it at every job start would dominate start-up time.",
     NULL, "false"},
    {BYOC_Q_DISTRIBUTE, "distribute", BYOC_QT_BOOL,
     "Do you want to ship your SDK or algorithms to customers as an image?",
     "An image in ECR can be shared with named roles and accounts.",
     NULL, "false"},
    {BYOC_Q_ARCH, "arch", BYOC_QT_CHOICE,
     "Which CPU architecture should the image target?",
     "The prebuilt images are x86_64 (amd64); an ARM image needs a custom base.",
     arch_choices, "amd64"},
    {BYOC_Q_GPU, "gpu", BYOC_QT_BOOL,
     "Does the job use a GPU (CUDA)?",
     "A GPU job needs a CUDA base image matching the instance's driver.",
     NULL, "false"},
};

const byoc_question *byoc_questions(void)
{
    return questions;
}

const byoc_question *byoc_question_find(const char *key)
{
    for (int i = 0; i < BYOC_Q_COUNT; i++)
        if (key && strcmp(questions[i].key, key) == 0)
            return &questions[i];
    return NULL;
}

/* "languages, python_version, ..." for error messages. Static. */
static const char *byoc_question_keys(void)
{
    return "languages, python_version, missing_packages, private_deps, license_server, large_stack, "
           "distribute, arch, gpu";
}

const char *byoc_answer_source_name(byoc_answer_source s)
{
    switch (s) {
    case BYOC_SRC_SCANNED: return "scanned";
    case BYOC_SRC_USER: return "user";
    default: return "default";
    }
}

void byoc_answers_init(byoc_answers *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 0; i < BYOC_Q_COUNT; i++) {
        a->a[i].value = byoc_xstrdup(questions[i].default_value);
        a->a[i].source = BYOC_SRC_DEFAULT;
    }
}

void byoc_answers_clear(byoc_answers *a)
{
    for (int i = 0; i < BYOC_Q_COUNT; i++) {
        free(a->a[i].value);
        free(a->a[i].evidence);
    }
    free(a->startup.failed);
    memset(a, 0, sizeof *a);
}

void byoc_answers_set_startup(byoc_answers *a, const byoc_startup *s)
{
    free(a->startup.failed);
    a->startup = *s;
    a->startup.failed = byoc_xstrdup_opt(s->failed);
}

void byoc_answers_copy(byoc_answers *dst, const byoc_answers *src)
{
    for (int i = 0; i < BYOC_Q_COUNT; i++) {
        dst->a[i].value = byoc_xstrdup(src->a[i].value ? src->a[i].value : "");
        dst->a[i].source = src->a[i].source;
        dst->a[i].evidence = byoc_xstrdup_opt(src->a[i].evidence);
    }
    dst->startup = src->startup;
    dst->startup.failed = byoc_xstrdup_opt(src->startup.failed);
}

static char *choices_text(const char *const *choices)
{
    byoc_buf b = BYOC_BUF_INIT;
    for (const char *const *c = choices; *c; c++)
        byoc_buf_printf(&b, "%s%s", c == choices ? "" : ", ", *c);
    return byoc_buf_steal(&b);
}

static bool in_choices(const char *const *choices, const char *v)
{
    for (const char *const *c = choices; *c; c++)
        if (strcmp(*c, v) == 0)
            return true;
    return false;
}

static char *trimmed_lower(const char *s, bool lower)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    char *d = byoc_xstrndup(s, n);
    if (lower)
        for (char *p = d; *p; p++)
            *p = (char)tolower((unsigned char)*p);
    return d;
}

/* Canonical value for q, or NULL with err filled. */
static char *canonical(const byoc_question *q, const char *value, byoc_err *err)
{
    char *v = trimmed_lower(value, q->type != BYOC_QT_PYSPEC);
    switch (q->type) {
    case BYOC_QT_BOOL:
        if (!strcmp(v, "true") || !strcmp(v, "yes") || !strcmp(v, "y") || !strcmp(v, "1") ||
            !strcmp(v, "on")) {
            free(v);
            return byoc_xstrdup("true");
        }
        if (!strcmp(v, "false") || !strcmp(v, "no") || !strcmp(v, "n") || !strcmp(v, "0") ||
            !strcmp(v, "off")) {
            free(v);
            return byoc_xstrdup("false");
        }
        byoc_err_set(err, BYOC_E_USAGE, q->key, "'%s' is not a valid value; valid: true, false", value);
        break;
    case BYOC_QT_COUNT: {
        char *end;
        errno = 0;
        long n = strtol(v, &end, 10);
        if (*v && !*end && errno == 0 && n >= 0 && n <= 1000000) {
            free(v);
            return byoc_xasprintf("%ld", n);
        }
        byoc_err_set(err, BYOC_E_USAGE, q->key, "'%s' is not a valid value; valid: a whole number >= 0",
                     value);
        break;
    }
    case BYOC_QT_CHOICE:
        if (in_choices(q->choices, v))
            return v;
        if (q->id == BYOC_Q_ARCH) {
            byoc_arch a;
            if (byoc_arch_parse(v, &a) == 0) {
                free(v);
                return byoc_xstrdup(byoc_arch_name(a));
            }
        }
        {
            char *c = choices_text(q->choices);
            byoc_err_set(err, BYOC_E_USAGE, q->key, "'%s' is not a valid value; valid: %s", value, c);
            free(c);
        }
        break;
    case BYOC_QT_LIST: {
        byoc_strv items = BYOC_STRV_INIT;
        bool ok = true;
        for (char *save = NULL, *tok = strtok_r(v, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
            if (!strcmp(tok, "c++"))
                tok = "cpp";
            if (!in_choices(q->choices, tok)) {
                char *c = choices_text(q->choices);
                byoc_err_set(err, BYOC_E_USAGE, q->key,
                             "'%s' is not a valid value; valid: a comma-separated list of %s", tok, c);
                free(c);
                ok = false;
                break;
            }
            if (!byoc_strv_contains(&items, tok))
                byoc_strv_push(&items, tok);
        }
        if (ok && items.n == 0) {
            char *c = choices_text(q->choices);
            byoc_err_set(err, BYOC_E_USAGE, q->key, "empty; valid: a comma-separated list of %s", c);
            free(c);
            ok = false;
        }
        char *out = NULL;
        if (ok) {
            /* keep the choices' order so equal sets compare equal */
            byoc_buf b = BYOC_BUF_INIT;
            for (const char *const *c = q->choices; *c; c++)
                if (byoc_strv_contains(&items, *c))
                    byoc_buf_printf(&b, "%s%s", b.len ? "," : "", *c);
            out = byoc_buf_steal(&b);
        }
        byoc_strv_clear(&items);
        free(v);
        return out;
    }
    case BYOC_QT_PYSPEC:
        if (!*v || byoc_pyspec_valid(v))
            return v;
        byoc_err_set(err, BYOC_E_USAGE, q->key,
                     "'%s' is not a valid value; valid: a Python version (3.11) or specifier (>=3.9,<3.12), "
                     "empty for any",
                     value);
        break;
    }
    free(v);
    return NULL;
}

int byoc_answer_set(byoc_answers *a, const char *key, const char *value, byoc_answer_source src,
                    const char *evidence, byoc_err *err)
{
    const byoc_question *q = byoc_question_find(key);
    if (!q)
        return byoc_err_set(err, BYOC_E_USAGE, key ? key : "", "unknown question; valid keys: %s",
                            byoc_question_keys());
    char *v = canonical(q, value ? value : "", err);
    if (!v)
        return -1;
    byoc_answer *ans = &a->a[q->id];
    free(ans->value);
    free(ans->evidence);
    ans->value = v;
    ans->source = src;
    ans->evidence = byoc_xstrdup_opt(evidence);
    return 0;
}

int byoc_answer_assign(byoc_answers *a, const char *kv, byoc_err *err)
{
    const char *eq = strchr(kv, '=');
    if (!eq)
        return byoc_err_set(err, BYOC_E_USAGE, "--answer", "'%s' is not KEY=VALUE; valid keys: %s", kv,
                            byoc_question_keys());
    char *key = trimmed_lower(kv, true);
    key[strcspn(key, "=")] = '\0';
    char *k = trimmed_lower(key, true);
    free(key);
    for (char *p = k; *p; p++)
        if (*p == '-')
            *p = '_';
    int rc = byoc_answer_set(a, k, eq + 1, BYOC_SRC_USER, NULL, err);
    free(k);
    return rc;
}

void byoc_answer_revert(byoc_answers *a, const byoc_answers *base, byoc_question_id q)
{
    byoc_answer *ans = &a->a[q];
    const byoc_answer *from = &base->a[q];
    free(ans->value);
    free(ans->evidence);
    ans->value = byoc_xstrdup(from->value ? from->value : questions[q].default_value);
    ans->source = from->source;
    ans->evidence = byoc_xstrdup_opt(from->evidence);
}

const char *byoc_answer_str(const byoc_answers *a, byoc_question_id q)
{
    return a->a[q].value ? a->a[q].value : "";
}

static bool byoc_answer_bool(const byoc_answers *a, byoc_question_id q)
{
    return strcmp(byoc_answer_str(a, q), "true") == 0;
}

static long byoc_answer_count(const byoc_answers *a, byoc_question_id q)
{
    return strtol(byoc_answer_str(a, q), NULL, 10);
}

static bool byoc_answer_has(const byoc_answers *a, byoc_question_id q, const char *item)
{
    const char *s = byoc_answer_str(a, q);
    size_t n = strlen(item);
    while (*s) {
        size_t m = strcspn(s, ",");
        if (m == n && strncmp(s, item, n) == 0)
            return true;
        s += m;
        if (*s == ',')
            s++;
    }
    return false;
}

const char *byoc_verdict_name(byoc_verdict v)
{
    switch (v) {
    case BYOC_VERDICT_REQUIRED: return "required";
    case BYOC_VERDICT_RECOMMENDED: return "recommended";
    default: return "not-needed";
    }
}

static void add_reason(byoc_decision *d, const char *rule, byoc_verdict effect, bool custom_base,
                       byoc_question_id q, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void add_reason(byoc_decision *d, const char *rule, byoc_verdict effect, bool custom_base,
                       byoc_question_id q, const char *fmt, ...)
{
    d->reasons = byoc_xrealloc(d->reasons, (d->n_reasons + 1) * sizeof *d->reasons);
    byoc_reason *r = &d->reasons[d->n_reasons++];
    r->rule = rule;
    r->effect = effect;
    r->needs_custom_base = custom_base;
    r->question = q;
    byoc_buf b = BYOC_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    byoc_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    r->text = byoc_buf_steal(&b);
}

/* The non-Python languages in the answer, as "C++ and Rust". */
static char *foreign_languages(const byoc_answers *a)
{
    static const char *const keys[] = {"cpp", "rust", "julia", "other"};
    static const char *const names[] = {"C++", "Rust", "Julia", "non-Python"};
    byoc_strv found = BYOC_STRV_INIT;
    for (int i = 0; i < 4; i++)
        if (byoc_answer_has(a, BYOC_Q_LANGUAGES, keys[i]))
            byoc_strv_push(&found, names[i]);
    if (!found.n)
        return NULL;
    byoc_buf b = BYOC_BUF_INIT;
    for (size_t i = 0; i < found.n; i++)
        byoc_buf_printf(&b, "%s%s", i == 0 ? "" : i + 1 == found.n ? " and " : ", ", found.v[i]);
    byoc_strv_clear(&found);
    return byoc_buf_steal(&b);
}

static void decide_language(const byoc_answers *a, byoc_decision *d)
{
    d->language = BYOC_LANG_PYTHON;
    static const struct { const char *key; byoc_language lang; } order[] = {
        {"cpp", BYOC_LANG_CPP}, {"rust", BYOC_LANG_RUST}, {"julia", BYOC_LANG_JULIA}};
    for (size_t i = 0; i < sizeof order / sizeof *order; i++)
        if (byoc_answer_has(a, BYOC_Q_LANGUAGES, order[i].key)) {
            d->language = order[i].lang;
            return;
        }
}

static int by_effect(const void *x, const void *y)
{
    const byoc_reason *a = x, *b = y;
    if (a->effect != b->effect)
        return a->effect > b->effect ? -1 : 1;
    return a->question < b->question ? -1 : a->question > b->question;
}

/* The Python series of the base: the oldest newer than the prebuilt's that the specifier
 * allows (">=3.13" -> 3.13), else the newest older one ("<3.10" -> 3.9). */
static void pick_python(const char *spec, byoc_decision *d)
{
    static const char *const order[] = {"3.13", "3.14", "3.11", "3.10", "3.9", "3.8", NULL};
    for (const char *const *s = order; *s; s++)
        if (byoc_pyspec_allows_series(spec, *s) == 1) {
            snprintf(d->python, sizeof d->python, "%s", *s);
            return;
        }
}

void byoc_decide(const byoc_answers *a, byoc_decision *d)
{
    memset(d, 0, sizeof *d);
    decide_language(a, d);
    d->gpu = byoc_answer_bool(a, BYOC_Q_GPU);
    byoc_arch_parse(byoc_answer_str(a, BYOC_Q_ARCH), &d->arch);

    char *foreign = foreign_languages(a);
    if (foreign) {
        add_reason(d, "non-python", BYOC_VERDICT_REQUIRED, true, BYOC_Q_LANGUAGES,
                   "The job runs %s code: the prebuilt images start Python scripts only, so BYOC is required: "
                   "a public base with the toolchain and an entry point that starts the program by its kind "
                   "(recipe 2).",
                   foreign);
        free(foreign);
    }
    const char *pyv = byoc_answer_str(a, BYOC_Q_PYTHON_VERSION);
    if (*pyv && byoc_pyspec_allows_series(pyv, BYOC_PREBUILT_PYTHON) == 0)
        pick_python(pyv, d);
    d->private_deps = byoc_answer_bool(a, BYOC_Q_PRIVATE_DEPS);
    if (*pyv && byoc_pyspec_allows_series(pyv, BYOC_PREBUILT_PYTHON) == 0)
        add_reason(d, "python-version", BYOC_VERDICT_REQUIRED, true, BYOC_Q_PYTHON_VERSION,
                   "The code needs Python %s but the prebuilt images ship Python " BYOC_PREBUILT_PYTHON
                   ": BYOC is required, on a base with that Python (recipe 2).",
                   pyv);
    if (d->arch == BYOC_ARCH_ARM64)
        add_reason(d, "arch-arm64", BYOC_VERDICT_REQUIRED, true, BYOC_Q_ARCH,
                   "Target CPU arm64: the prebuilt images are x86_64 only, so build on a public arm64 base "
                   "(recipe 2). But an arm64 image cannot run on Braket's job instances, which are all x86_64: "
                   "for jobs build linux/amd64 (byoc build --platform linux/amd64, emulated on an ARM host), and "
                   "keep arm64 for local runs.");
    if (byoc_answer_bool(a, BYOC_Q_LICENSE_SERVER))
        add_reason(d, "license-server", BYOC_VERDICT_RECOMMENDED, false, BYOC_Q_LICENSE_SERVER,
                   "Licensed software that authenticates against a license server: BYOC is recommended, so "
                   "the image carries the license client and the code that authenticates it.");
    if (byoc_answer_bool(a, BYOC_Q_PRIVATE_DEPS))
        add_reason(d, "private-deps", BYOC_VERDICT_RECOMMENDED, false, BYOC_Q_PRIVATE_DEPS,
                   "Private dependencies (private repositories or indexes) cannot be installed when the job "
                   "starts: BYOC is recommended, with them vendored into the build context using your "
                   "ssh-agent (never an SSH key inside the image).");
    long missing = byoc_answer_count(a, BYOC_Q_MISSING_PACKAGES);
    if (byoc_answer_bool(a, BYOC_Q_LARGE_STACK))
        add_reason(d, "large-stack", BYOC_VERDICT_RECOMMENDED, false, BYOC_Q_LARGE_STACK,
                   "A large software stack the prebuilt images lack: BYOC is recommended, so installing it "
                   "does not dominate every job's start-up.");
    const byoc_startup *st = &a->startup;
    long threshold = st->threshold_seconds > 0 ? st->threshold_seconds : BYOC_INSTALL_THRESHOLD_DEFAULT;
    char *paid = NULL;
    if (st->measured)
        paid = st->instance_count > 1
                   ? byoc_xasprintf("on every instance (%ld instances: %.0f s of instance time per job)",
                                    st->instance_count, st->install_seconds * (double)st->instance_count)
                   : byoc_xstrdup("on every instance");
    if (st->measured && st->install_seconds >= (double)threshold)
        add_reason(d, "slow-install", BYOC_VERDICT_RECOMMENDED, false, BYOC_Q_MISSING_PACKAGES,
                   "Installing these %ld packages took %.0f s here: every job start pays it, %s; a baked image "
                   "pays it once, at build. BYOC is recommended (threshold %ld s).",
                   st->packages, st->install_seconds, paid, threshold);
    else if (!st->measured && missing >= BYOC_FEW_PACKAGES)
        add_reason(d, "many-packages", BYOC_VERDICT_RECOMMENDED, false, BYOC_Q_MISSING_PACKAGES,
                   "%ld public packages are missing from the prebuilt image (%d or more): installing them at "
                   "every job start would slow it down; BYOC with them installed in the image is recommended.",
                   missing, BYOC_FEW_PACKAGES);
    if (byoc_answer_bool(a, BYOC_Q_DISTRIBUTE))
        add_reason(d, "distribute", BYOC_VERDICT_RECOMMENDED, false, BYOC_Q_DISTRIBUTE,
                   "You want to ship your SDK or algorithms to customers: BYOC is recommended; share the "
                   "ECR repository with their roles or accounts only.");

    d->verdict = BYOC_VERDICT_NOT_NEEDED;
    bool custom = false;
    for (size_t i = 0; i < d->n_reasons; i++) {
        if (d->reasons[i].effect > d->verdict)
            d->verdict = d->reasons[i].effect;
        custom = custom || d->reasons[i].needs_custom_base;
    }
    d->recipe = custom ? BYOC_RECIPE_CUSTOM_BASE
              : d->verdict == BYOC_VERDICT_NOT_NEEDED ? BYOC_RECIPE_PREBUILT
                                                      : BYOC_RECIPE_EXTEND_PREBUILT;

    if (st->measured && st->install_seconds < (double)threshold)
        add_reason(d, "fast-install", BYOC_VERDICT_NOT_NEEDED, false, BYOC_Q_MISSING_PACKAGES,
                   "Installing these %ld packages took %.0f s here (under the %ld s threshold): every job start "
                   "pays it, %s; a prebuilt image with requirements.txt in the source directory is fine for them.",
                   st->packages, st->install_seconds, threshold, paid);
    if (st->measured && st->failed)
        add_reason(d, "install-failed", BYOC_VERDICT_NOT_NEEDED, false, BYOC_Q_MISSING_PACKAGES,
                   "These requirements failed to install here: %s. A job installing them at start would fail "
                   "after paying for its instances; fix requirements.txt (or install them in an image).",
                   st->failed);
    free(paid);
    if (d->verdict == BYOC_VERDICT_NOT_NEEDED && !st->measured) {
        if (missing > 0)
            add_reason(d, "few-packages", BYOC_VERDICT_NOT_NEEDED, false, BYOC_Q_MISSING_PACKAGES,
                       "%ld public package%s missing (fewer than %d): list %s in requirements.txt in the source "
                       "directory and use a prebuilt image; it installs %s when the job starts. No BYOC.",
                       missing, missing == 1 ? " is" : "s are", BYOC_FEW_PACKAGES, missing == 1 ? "it" : "them",
                       missing == 1 ? "it" : "them");
        else
            add_reason(d, "prebuilt-fits", BYOC_VERDICT_NOT_NEEDED, false, BYOC_Q_MISSING_PACKAGES,
                       "Nothing found that the prebuilt images lack: use a prebuilt image (Python "
                       BYOC_PREBUILT_PYTHON "); no BYOC.");
    }
    if (d->gpu)
        add_reason(d, "gpu", BYOC_VERDICT_NOT_NEEDED, false, BYOC_Q_GPU,
                   d->recipe == BYOC_RECIPE_CUSTOM_BASE
                       ? "GPU: build on a CUDA base image (nvidia/cuda) whose CUDA version the instance's driver "
                         "supports, and run on a GPU instance (ml.p3, ml.g4dn, ml.g6...)."
                       : "GPU: the prebuilt PyTorch and TensorFlow job images carry CUDA 12; use (or extend) one of "
                         "them and run on a GPU instance (ml.p3, ml.g4dn, ml.g6...).");
    if (d->n_reasons > 1)
        qsort(d->reasons, d->n_reasons, sizeof *d->reasons, by_effect);
}

void byoc_decision_clear(byoc_decision *d)
{
    for (size_t i = 0; i < d->n_reasons; i++)
        free(d->reasons[i].text);
    free(d->reasons);
    memset(d, 0, sizeof *d);
}

char *byoc_decision_init_command(const byoc_decision *d, const char *dir)
{
    byoc_buf b = BYOC_BUF_INIT;
    byoc_recipe r = d->recipe == BYOC_RECIPE_PREBUILT ? BYOC_RECIPE_EXTEND_PREBUILT : d->recipe;
    byoc_buf_printf(&b, "byoc init %s --recipe %s --language %s --arch %s", dir, byoc_recipe_name(r),
                    byoc_language_name(d->language), byoc_arch_name(d->arch));
    if (d->gpu)
        byoc_buf_puts(&b, " --gpu");
    if (*d->python && d->language == BYOC_LANG_PYTHON) /* init takes it for Python only */
        byoc_buf_printf(&b, " --python %s", d->python);
    if (d->private_deps)
        byoc_buf_puts(&b, " --answer private_deps=true");
    return byoc_buf_steal(&b);
}

json_t *byoc_decision_to_json(const byoc_decision *d, const byoc_answers *a)
{
    json_t *doc = json_object();
    json_object_set_new(doc, "verdict", json_string(byoc_verdict_name(d->verdict)));
    json_object_set_new(doc, "recipe", json_string(byoc_recipe_name(d->recipe)));
    json_t *reasons = json_array();
    for (size_t i = 0; i < d->n_reasons; i++)
        json_array_append_new(reasons, json_pack("{s:s, s:s, s:s}", "rule", d->reasons[i].rule, "text",
                                                 d->reasons[i].text, "effect",
                                                 byoc_verdict_name(d->reasons[i].effect)));
    json_object_set_new(doc, "reasons", reasons);
    json_t *answers = json_object();
    for (int i = 0; i < BYOC_Q_COUNT; i++) {
        json_t *ans = json_pack("{s:s, s:s}", "value", byoc_answer_str(a, (byoc_question_id)i), "source",
                                byoc_answer_source_name(a->a[i].source));
        if (a->a[i].evidence)
            json_object_set_new(ans, "evidence", json_string(a->a[i].evidence));
        json_object_set_new(answers, questions[i].key, ans);
    }
    json_object_set_new(doc, "answers", answers);
    json_object_set_new(doc, "init",
                        json_pack("{s:s, s:s, s:s, s:b, s:o, s:b}", "recipe",
                                  byoc_recipe_name(d->recipe == BYOC_RECIPE_PREBUILT ? BYOC_RECIPE_EXTEND_PREBUILT
                                                                                     : d->recipe),
                                  "language", byoc_language_name(d->language), "arch", byoc_arch_name(d->arch),
                                  "gpu", d->gpu, "python", *d->python ? json_string(d->python) : json_null(),
                                  "private_deps", d->private_deps));
    return doc;
}
