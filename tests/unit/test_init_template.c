/* The asset template language (core/template.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "core/template.h"

static byoc_kv vars[] = {{"NAME", "algo"}, {"GPU", "false"}, {"ARCH", "arm64"}, {"EMPTY", ""}, {"ON", "true"}};

static char *render(const char *text, const char *partials, byoc_err *err)
{
    byoc_template_vars v = {vars, sizeof vars / sizeof *vars, partials};
    char *out = NULL;
    byoc_template_render("t", text, &v, &out, err);
    return out;
}

static void expect(const char *text, const char *want)
{
    byoc_err err;
    char *out = render(text, NULL, &err);
    if (!out)
        check_fail(__FILE__, __LINE__, "'%s': %s", text, err.message);
    else
        CHECK_STR(out, want);
    free(out);
}

static void expect_error(const char *text, const char *needle)
{
    byoc_err err;
    char *out = render(text, NULL, &err);
    CHECK(out == NULL);
    if (!strstr(err.message, needle))
        check_fail(__FILE__, __LINE__, "'%s': error '%s' lacks '%s'", text, err.message, needle);
    free(out);
}

int main(void)
{
    expect("hello {{NAME}} and {{ NAME }}\n", "hello algo and algo\n");
    expect("no newline {{ARCH}}", "no newline arm64");
    expect("a\n{{#if GPU}}\ngpu\n{{#else}}\ncpu\n{{/if}}\nb\n", "a\ncpu\nb\n");
    expect("{{#if !GPU}}\nnot gpu\n{{/if}}\n", "not gpu\n");
    expect("{{#if ARCH=arm64}}\narm\n{{/if}}\n{{#if ARCH=amd64}}\nx86\n{{/if}}\n", "arm\n");
    expect("{{#if EMPTY}}\nno\n{{#else}}\nempty is false\n{{/if}}\n", "empty is false\n");
    expect("{{#if ON}}\n  {{#if GPU}}\n  inner\n  {{#else}}\n  other\n  {{/if}}\n{{/if}}\n", "  other\n");
    expect("{{#if GPU}}\n{{#if ON}}\nhidden\n{{/if}}\n{{/if}}\nshown\n", "shown\n");
    expect("text with {{NAME}}{{ARCH}} together\n", "text with algoarm64 together\n");
    expect_error("{{NOPE}}\n", "unknown variable 'NOPE'");
    expect_error("{{#if NOPE}}\nx\n{{/if}}\n", "unknown variable");
    expect_error("{{#if ON}}\nx\n", "not closed");
    expect_error("{{/if}}\n", "without");
    expect_error("{{#else}}\n", "without");
    expect_error("{{#if ON}}\n{{#else}}\n{{#else}}\n{{/if}}\n", "without");
    expect_error("x {{NAME\n", "without '}}'");
    expect_error("{{#unknown}}\n", "unknown block tag");
    expect_error("{{>partial}}\n", "no partials directory");

    /* partials, with their own variables and a bound on nesting */
    char *dir = check_tmpdir();
    char path[4200];
    snprintf(path, sizeof path, "%s/head.tmpl", dir);
    FILE *f = fopen(path, "w");
    fputs("# {{NAME}}\n{{>tail}}\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/tail.tmpl", dir);
    f = fopen(path, "w");
    fputs("end\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/loop.tmpl", dir);
    f = fopen(path, "w");
    fputs("{{>loop}}\n", f);
    fclose(f);
    byoc_err err;
    char *out = render("{{>head}}\nafter\n", dir, &err);
    CHECK_STR(out, "# algo\nend\nafter\n");
    free(out);
    out = render("{{>loop}}\n", dir, &err);
    CHECK(out == NULL && strstr(err.message, "nested too deeply"));
    out = render("{{>missing}}\n", dir, &err);
    CHECK(out == NULL && strstr(err.message, "missing"));
    out = render("{{>../etc}}\n", dir, &err);
    CHECK(out == NULL);
    for (const char *n = "head.tmpl\0tail.tmpl\0loop.tmpl\0"; *n; n += strlen(n) + 1) {
        snprintf(path, sizeof path, "%s/%s", dir, n);
        unlink(path);
    }
    rmdir(dir);
    free(dir);
    return check_done();
}
