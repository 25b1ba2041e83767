#include "decide_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

static const char *const labels[BYOC_Q_COUNT] = {
    [BYOC_Q_LANGUAGES] = "Languages",
    [BYOC_Q_PYTHON_VERSION] = "Python version",
    [BYOC_Q_MISSING_PACKAGES] = "Missing packages",
    [BYOC_Q_PRIVATE_DEPS] = "Private deps",
    [BYOC_Q_LICENSE_SERVER] = "License server",
    [BYOC_Q_LARGE_STACK] = "Large stack",
    [BYOC_Q_DISTRIBUTE] = "Ship to customers",
    [BYOC_Q_ARCH] = "CPU architecture",
    [BYOC_Q_GPU] = "GPU (CUDA)",
};

const char *tui_decide_label(byoc_question_id q)
{
    return (unsigned)q < BYOC_Q_COUNT ? labels[q] : "";
}

/* A text field's value must be a valid answer: the backend's own check says why not. */
static bool check_answer(const tui_form *f, const tui_field *field, const char *value, char *msg, size_t size,
                         void *ud)
{
    (void)f;
    (void)ud;
    byoc_answers tmp;
    byoc_answers_init(&tmp);
    byoc_err err;
    bool ok = byoc_answer_set(&tmp, field->key, value, BYOC_SRC_USER, NULL, &err) == 0;
    if (!ok)
        snprintf(msg, size, "%s", err.message);
    byoc_answers_clear(&tmp);
    return ok;
}

void tui_decide_form_build(tui_form *f)
{
    const byoc_question *qs = byoc_questions();
    for (int i = 0; i < BYOC_Q_COUNT; i++) {
        const byoc_question *q = &qs[i];
        size_t idx;
        switch (q->type) {
        case BYOC_QT_BOOL:
            tui_form_add_toggle(f, q->key, labels[i], strcmp(q->default_value, "true") == 0);
            break;
        case BYOC_QT_CHOICE: {
            size_t n = 0;
            while (q->choices && q->choices[n])
                n++;
            tui_form_add_choice(f, q->key, labels[i], q->choices, n, 0);
            tui_form_set_value(f, q->key, q->default_value);
            break;
        }
        case BYOC_QT_COUNT:
            tui_form_add_number(f, q->key, labels[i], atoll(q->default_value), 0, 1000000, true);
            break;
        case BYOC_QT_LIST:
            idx = tui_form_add_text(f, q->key, labels[i], q->default_value, true, check_answer, NULL);
            tui_form_set_help(f, idx, "comma-separated: python, cpp, rust, julia, other");
            break;
        default:
            idx = tui_form_add_text(f, q->key, labels[i], q->default_value, false, check_answer, NULL);
            tui_form_set_help(f, idx, "any version");
            break;
        }
    }
}

void tui_decide_form_load(tui_form *f, const byoc_answers *a, bool keep_invalid)
{
    const byoc_question *qs = byoc_questions();
    for (int i = 0; i < BYOC_Q_COUNT; i++) {
        tui_field *fl = tui_form_field(f, qs[i].key);
        if (!fl || (keep_invalid && fl->msg[0]))
            continue;
        const char *v = byoc_answer_str(a, (byoc_question_id)i);
        if (strcmp(tui_form_value(f, qs[i].key), v) != 0)
            tui_form_set_value(f, qs[i].key, v);
        fl->msg[0] = '\0';
    }
}

size_t tui_decide_form_apply(tui_form *f, byoc_answers *a)
{
    size_t changed = 0;
    for (size_t i = 0; i < f->count; i++) {
        tui_field *fl = &f->fields[i];
        const byoc_question *q = byoc_question_find(fl->key);
        if (!q)
            continue;
        const char *v = tui_form_value(f, fl->key);
        if (strcmp(v, byoc_answer_str(a, q->id)) == 0) {
            fl->msg[0] = '\0';
            continue;
        }
        byoc_err err;
        if (byoc_answer_set(a, fl->key, v, BYOC_SRC_USER, NULL, &err) != 0) {
            snprintf(fl->msg, sizeof fl->msg, "%.*s", (int)sizeof fl->msg - 1, err.message);
            fl->touched = true;
            continue;
        }
        fl->msg[0] = '\0';
        changed++;
    }
    return changed;
}

const char *tui_decide_verdict_text(byoc_verdict v)
{
    switch (v) {
    case BYOC_VERDICT_NOT_NEEDED: return "BYOC is not needed";
    case BYOC_VERDICT_RECOMMENDED: return "BYOC is recommended";
    default: return "BYOC is required";
    }
}

tui_style tui_decide_verdict_style(byoc_verdict v)
{
    switch (v) {
    case BYOC_VERDICT_NOT_NEEDED: return TUI_STY_OK;
    case BYOC_VERDICT_RECOMMENDED: return TUI_STY_WARN;
    default: return TUI_STY_LABEL_FOCUS;
    }
}

static const char *tui_decide_recipe_text(byoc_recipe r)
{
    switch (r) {
    case BYOC_RECIPE_PREBUILT: return "a prebuilt Braket image + requirements.txt in the source directory";
    case BYOC_RECIPE_EXTEND_PREBUILT: return "recipe 1: FROM a prebuilt Braket image, add software";
    default: return "recipe 2: a public base + sagemaker-training + byoc's entry point";
    }
}

char *tui_decide_init_command(const byoc_decision *d, const char *dir)
{
    return byoc_xasprintf("byoc init %s --recipe %s --language %s --arch %s%s", dir && *dir ? dir : ".",
                          byoc_recipe_name(d->recipe), byoc_language_name(d->language), byoc_arch_name(d->arch),
                          d->gpu ? " --gpu" : "");
}

const char *tui_decide_source(const byoc_answers *a, byoc_question_id q)
{
    return byoc_answer_source_name(a->a[q].source);
}

static void styled(tui_page *p, tui_style sty)
{
    if (p->count)
        p->items[p->count - 1].style = sty;
}

void tui_decide_page_fill(tui_page *p, const byoc_decision *d, const byoc_scan *scan, const char *project_dir,
                          const char *scaffold_key)
{
    tui_page_text(p, tui_decide_verdict_style(d->verdict), tui_decide_verdict_text(d->verdict));
    char *recipe = byoc_xasprintf("%s: %s", byoc_recipe_name(d->recipe), tui_decide_recipe_text(d->recipe));
    tui_page_kv(p, "Recipe", recipe);
    free(recipe);
    tui_page_blank(p);
    tui_page_heading(p, "Why");
    for (size_t i = 0; i < d->n_reasons; i++) {
        char *line = byoc_xasprintf("[%s] %s", d->reasons[i].rule, d->reasons[i].text);
        tui_page_bullet(p, line);
        free(line);
    }
    tui_page_blank(p);
    tui_page_heading(p, "Next");
    if (d->recipe == BYOC_RECIPE_PREBUILT) {
        tui_page_bullet(p, "Nothing to build: list the packages in requirements.txt in the source directory "
                           "and create the job with a prebuilt image (5 Run).");
    } else {
        char *cmd = tui_decide_init_command(d, project_dir);
        char *line = byoc_xasprintf("%s scaffolds this: the Dockerfile and files of %s (%s)", scaffold_key,
                                    byoc_recipe_name(d->recipe), cmd);
        tui_page_bullet(p, line);
        free(line);
        free(cmd);
        tui_page_bullet(p, "Then 2 Build lints and builds the image.");
    }
    if (!scan)
        return;
    tui_page_blank(p);
    tui_page_heading(p, "What the scan found");
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_printf(&b, "%zu file%s looked at", scan->files_seen, scan->files_seen == 1 ? "" : "s");
    if (scan->dockerfile)
        byoc_buf_printf(&b, "; a Dockerfile (%s)%s%s", scan->dockerfile, scan->dockerfile_base ? " FROM " : "",
                        scan->dockerfile_base ? scan->dockerfile_base : "");
    if (scan->project_file)
        byoc_buf_puts(&b, "; byoc.json");
    tui_page_bullet(p, byoc_buf_str(&b));
    byoc_buf_reset(&b);
    if (scan->missing.n) {
        byoc_buf_puts(&b, "Packages the prebuilt image lacks:");
        for (size_t i = 0; i < scan->missing.n; i++)
            byoc_buf_printf(&b, " %s", scan->missing.v[i]);
        tui_page_bullet(p, byoc_buf_str(&b));
        byoc_buf_reset(&b);
    }
    for (size_t i = 0; i < scan->private_deps.n; i++) {
        char *line = byoc_xasprintf("Private: %s", scan->private_deps.v[i]);
        tui_page_bullet(p, line);
        free(line);
    }
    for (size_t i = 0; i < scan->secrets.n; i++) {
        char *line = byoc_xasprintf("%s: remove it from the file", scan->secrets.v[i]);
        tui_page_bullet(p, line);
        styled(p, TUI_STY_ERROR);
        free(line);
    }
    for (size_t i = 0; i < scan->notes.n; i++)
        tui_page_bullet(p, scan->notes.v[i]);
    if (scan->truncated) {
        byoc_buf_printf(&b, "The scan stopped at its limits (%zu files): answer what it missed.", scan->files_seen);
        tui_page_bullet(p, byoc_buf_str(&b));
        styled(p, TUI_STY_WARN);
    }
    byoc_buf_clear(&b);
}
