/* The Dockerfile parser (byoc/dockerfile.h) on tricky inputs: directives,
 * continuations, heredocs, JSON and shell forms, ARG/ENV substitution,
 * multi-stage builds, and malformed files (diagnostics, never a crash). */
#include <stdlib.h>
#include <string.h>

#include "byoc/dockerfile.h"
#include "core/buf.h"
#include "byoc/shellword.h"
#include "check.h"

static void parse_text(const char *text, byoc_dockerfile *df)
{
    byoc_dockerfile_parse(text, strlen(text), NULL, df);
}

static void parse_fixture(const char *name, const byoc_df_options *opts, byoc_dockerfile *df)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fixtures/dockerfiles/%s", check_source_dir(), name);
    size_t len = 0;
    char *text = check_read_file(path, &len);
    if (!text) {
        check_fail(__FILE__, __LINE__, "cannot read %s", path);
        memset(df, 0, sizeof *df);
        return;
    }
    byoc_dockerfile_parse(text, len, opts, df);
    free(text);
}

static const byoc_df_instr *instr_at(const byoc_dockerfile *df, int line)
{
    for (size_t i = 0; i < df->n_instrs; i++)
        if (df->instrs[i].line == line)
            return &df->instrs[i];
    return NULL;
}

static bool diag_at(const byoc_dockerfile *df, int line, bool error, const char *needle)
{
    for (size_t i = 0; i < df->n_diags; i++)
        if (df->diags[i].line == line && df->diags[i].error == error && strstr(df->diags[i].message, needle))
            return true;
    return false;
}

static void test_escape_directive(void)
{
    byoc_dockerfile df;
    parse_fixture("escape-backtick.Dockerfile", NULL, &df);
    CHECK_INT(df.escape, '`');
    CHECK_STR(df.syntax, "docker/dockerfile:1");
    CHECK_INT(df.n_errors, 0);
    const byoc_df_instr *copy = instr_at(&df, 5);
    CHECK(copy && copy->n_args == 2);
    if (copy)
        CHECK_STR(copy->args[1], "c:\\"); /* a backslash is an ordinary character now */
    const byoc_df_instr *run = instr_at(&df, 6);
    CHECK(run && run->end_line == 7);
    if (run)
        CHECK(strstr(run->original, "dir c:\\") && strstr(run->original, "&& echo done"));
    const byoc_df_instr *env = instr_at(&df, 8);
    CHECK(env && env->n_pairs == 1);
    if (env)
        CHECK_STR(byoc_df_pair_value(env, "DIR"), "C:\\Program Files\\App");
    byoc_dockerfile_clear(&df);

    /* a directive after a comment is an ordinary comment; a bad escape value is reported */
    parse_text("# hello\n# escape=`\nFROM a\nRUN x \\\n  y\n", &df);
    CHECK_INT(df.escape, '\\');
    CHECK(instr_at(&df, 4) && instr_at(&df, 4)->end_line == 5);
    byoc_dockerfile_clear(&df);
    parse_text("# escape=x\nFROM a\n", &df);
    CHECK(diag_at(&df, 1, true, "invalid escape"));
    byoc_dockerfile_clear(&df);
}

static void test_continuations(void)
{
    byoc_dockerfile df;
    parse_fixture("continuations.Dockerfile", NULL, &df);
    CHECK_INT(df.n_errors, 0);
    CHECK_INT(df.n_instrs, 4);
    const byoc_df_instr *apk = instr_at(&df, 3);
    CHECK(apk && apk->end_line == 7);
    if (apk) {
        CHECK(strstr(apk->original, "curl") && strstr(apk->original, "jq"));
        CHECK(strstr(apk->original, "comment") == NULL); /* comment lines inside are dropped */
    }
    const byoc_df_instr *lower = instr_at(&df, 10);
    CHECK(lower != NULL);
    if (lower)
        CHECK_STR(lower->keyword, "RUN");
    byoc_dockerfile_clear(&df);

    /* CRLF line ends, a continuation at the very end of the file */
    parse_text("FROM alpine\r\nRUN echo a \\\r\n    b\r\nRUN echo c \\", &df);
    CHECK_INT(df.n_errors, 0);
    CHECK(instr_at(&df, 2) && instr_at(&df, 2)->end_line == 3);
    CHECK(instr_at(&df, 4) != NULL);
    byoc_dockerfile_clear(&df);
}

static void test_heredocs(void)
{
    byoc_dockerfile df;
    parse_fixture("heredocs.Dockerfile", NULL, &df);
    const byoc_df_instr *run = instr_at(&df, 2);
    CHECK(run && run->n_heredocs == 1 && run->end_line == 5);
    if (run && run->n_heredocs == 1) {
        CHECK_STR(run->heredocs[0].delimiter, "EOF");
        CHECK_STR(run->heredocs[0].body, "apt-get update\necho \"$HOME\"\n");
        CHECK(run->heredocs[0].expand);
        CHECK_INT(run->heredocs[0].line, 3);
    }
    const byoc_df_instr *copy = instr_at(&df, 6);
    CHECK(copy && copy->n_heredocs == 1);
    if (copy && copy->n_heredocs == 1) {
        CHECK_STR(copy->heredocs[0].body, "key = $VALUE\n"); /* <<- strips leading tabs */
        CHECK(copy->heredocs[0].strip_tabs);
        CHECK(!copy->heredocs[0].expand);
        CHECK_STR(copy->args[copy->n_args - 1], "/etc/app.conf");
    }
    const byoc_df_instr *two = instr_at(&df, 9);
    CHECK(two && two->n_heredocs == 2 && two->end_line == 13);
    if (two && two->n_heredocs == 2) {
        CHECK_STR(two->heredocs[0].body, "first\n");
        CHECK_STR(two->heredocs[1].delimiter, "TWO");
        CHECK(!two->heredocs[1].expand);
        CHECK_STR(two->heredocs[1].body, "second $NOT_EXPANDED\n");
    }
    const byoc_df_instr *quoted = instr_at(&df, 14);
    CHECK(quoted && quoted->n_heredocs == 0); /* quoted "<<EOF" and "<<<" are no heredocs */
    CHECK(diag_at(&df, 15, true, "NEVER_CLOSED"));
    CHECK_INT(df.n_errors, 1);
    byoc_dockerfile_clear(&df);

    /* heredocs only on RUN, COPY, ADD */
    parse_text("FROM a\nLABEL x=<<EOF\nRUN true\n", &df);
    CHECK(instr_at(&df, 3) != NULL);
    CHECK_INT(df.n_errors, 0);
    byoc_dockerfile_clear(&df);
}

static void test_forms(void)
{
    byoc_dockerfile df;
    parse_text("FROM a\n"
               "CMD [\"python3\", \"-m\", \"algo\"]\n"
               "ENTRYPOINT ['single', 'quotes']\n"
               "RUN [\"/bin/sh\", \"-c\", \"echo $HOME\"]\n"
               "SHELL [\"/bin/bash\", \"-o\", \"pipefail\", \"-c\"]\n"
               "COPY [\"a b.txt\", \"/dest dir/\"]\n"
               "RUN echo [not json\n",
               &df);
    const byoc_df_instr *cmd = instr_at(&df, 2);
    CHECK(cmd && cmd->json_form && cmd->n_args == 3);
    if (cmd)
        CHECK_STR(cmd->args[2], "algo");
    const byoc_df_instr *ep = instr_at(&df, 3);
    CHECK(ep && !ep->json_form);
    CHECK(diag_at(&df, 3, false, "not a valid JSON array"));
    const byoc_df_instr *run = instr_at(&df, 4);
    CHECK(run && run->json_form);
    if (run)
        CHECK_STR(run->args[2], "echo $HOME"); /* exec form: no substitution */
    const byoc_df_instr *copy = instr_at(&df, 6);
    CHECK(copy && copy->json_form && copy->n_args == 2);
    if (copy)
        CHECK_STR(copy->args[0], "a b.txt");
    CHECK_INT(df.n_errors, 0);
    byoc_dockerfile_clear(&df);
}

static void test_flags(void)
{
    byoc_dockerfile df;
    parse_text("FROM a AS b\n"
               "RUN --mount=type=ssh --mount=type=cache,target=/root/.cache --network=none pip install x\n"
               "COPY --chown=1000:1000 --link --from=b /x /y\n",
               &df);
    const byoc_df_instr *run = instr_at(&df, 2);
    CHECK(run && run->n_flags == 3);
    if (run) {
        CHECK_STR(run->flags[1].value, "type=cache,target=/root/.cache");
        CHECK_STR(byoc_df_flag_value(run, "network"), "none");
        CHECK_STR(run->rest, "pip install x");
    }
    const byoc_df_instr *copy = instr_at(&df, 3);
    CHECK(copy && copy->n_flags == 3);
    if (copy) {
        CHECK_STR(byoc_df_flag_value(copy, "link"), "");
        CHECK(byoc_df_flag_value(copy, "chmod") == NULL);
        CHECK_STR(byoc_df_flag_value(copy, "from"), "b");
    }
    /* --from=b inside stage b refers to itself */
    CHECK(diag_at(&df, 3, true, "its own"));
    byoc_dockerfile_clear(&df);
}

static void test_args(void)
{
    byoc_dockerfile df;
    parse_fixture("args.Dockerfile", NULL, &df);
    CHECK_INT(df.n_errors, 0);
    CHECK_STR(df.stages[0].base, "docker.io/library/alpine:3.19");
    const byoc_df_instr *local = instr_at(&df, 6);
    CHECK(local != NULL);
    if (local)
        CHECK_STR(byoc_df_pair_value(local, "LOCAL"), "local-none");
    const byoc_df_instr *env = instr_at(&df, 7);
    CHECK(env && env->n_pairs == 7);
    if (env) {
        CHECK_STR(byoc_df_pair_value(env, "A"), "fallback");  /* ${EMPTY:-x}: empty counts as unset */
        CHECK_STR(byoc_df_pair_value(env, "B"), "");          /* ${EMPTY-x}: set (ARG EMPTY in the stage), empty */
        CHECK_STR(byoc_df_pair_value(env, "C"), "");          /* REGISTRY is global: invisible in the stage */
        CHECK_STR(byoc_df_pair_value(env, "D"), "");
        CHECK_STR(byoc_df_pair_value(env, "E"), "$LITERAL");
        CHECK_STR(byoc_df_pair_value(env, "F"), "quoted local-none");
        CHECK_STR(byoc_df_pair_value(env, "G"), "$escaped");
    }
    const byoc_df_instr *h = instr_at(&df, 8);
    if (h)
        CHECK_STR(byoc_df_pair_value(h, "H"), "fallback");
    const byoc_df_instr *legacy = instr_at(&df, 9);
    if (legacy)
        CHECK_STR(byoc_df_pair_value(legacy, "I"), "fallback with   spaces");
    CHECK(diag_at(&df, 9, false, "legacy"));
    const byoc_df_instr *label = instr_at(&df, 10);
    if (label)
        CHECK_STR(byoc_df_pair_value(label, "com.example.key"), "v 1");
    CHECK(instr_at(&df, 11) && !strcmp(instr_at(&df, 11)->args[0], "/srv/fallback"));
    CHECK(instr_at(&df, 12) && !strcmp(instr_at(&df, 12)->args[0], "1000:1000"));
    CHECK_STR(byoc_df_stage_env(&df.stages[0], "A"), "fallback");
    byoc_dockerfile_clear(&df);

    /* build args override defaults, globally and in stages */
    byoc_kv args[] = {{"TAG", "3.20"}, {"REGISTRY", "registry.local:5000"}};
    byoc_df_options opts = {args, 2, "arm64"};
    parse_fixture("args.Dockerfile", &opts, &df);
    CHECK_STR(df.stages[0].base, "registry.local:5000/library/alpine:3.20");
    if (instr_at(&df, 6))
        CHECK_STR(byoc_df_pair_value(instr_at(&df, 6), "LOCAL"), "local-3.20");
    byoc_dockerfile_clear(&df);

    /* FROM with a variable that has no value is flagged */
    parse_text("ARG IMAGE\nFROM $IMAGE\n", &df);
    CHECK(diag_at(&df, 2, false, "no value"));
    byoc_dockerfile_clear(&df);

    /* the automatic platform args in FROM */
    parse_text("FROM --platform=$BUILDPLATFORM golang AS b\nFROM alpine-${TARGETARCH}\n", &df);
    CHECK_STR(df.stages[0].platform, "linux/amd64");
    CHECK_STR(df.stages[1].base, "alpine-amd64");
    byoc_dockerfile_clear(&df);
}

static void test_multistage(void)
{
    byoc_dockerfile df;
    parse_fixture("multistage.Dockerfile", NULL, &df);
    CHECK_INT(df.n_stages, 3);
    CHECK_STR(df.stages[0].name, "build"); /* lower-cased */
    CHECK_STR(df.stages[0].base, "public.ecr.aws/docker/library/python:3.12-slim");
    CHECK_INT(df.stages[1].base_stage, 0);
    CHECK_STR(df.stages[1].name, "test");
    CHECK_STR(byoc_df_stage_env(&df.stages[1], "STAGE"), "build"); /* ENV inherited from the base stage */
    CHECK_INT(df.stages[2].base_stage, -1);
    CHECK_STR(df.stages[2].platform, "linux/amd64");
    CHECK_INT(df.stages[2].n_instrs, 5);
    CHECK(byoc_df_stage_env(&df.stages[2], "STAGE") == NULL);
    CHECK_INT(byoc_df_find_stage(&df, "Build"), 0);
    CHECK_INT(byoc_df_find_stage(&df, "1"), 1);
    CHECK_INT(byoc_df_find_stage(&df, "7"), -1);
    CHECK_INT(byoc_df_find_stage(&df, "nope"), -1);
    CHECK(byoc_df_final_stage(&df) == &df.stages[2]);
    CHECK_STR(byoc_df_stage_root_image(&df, 1), "public.ecr.aws/docker/library/python:3.12-slim");
    const byoc_df_instr *test_arg = instr_at(&df, 9);
    CHECK(test_arg && test_arg->stage == 1);
    CHECK_INT(df.n_errors, 0); /* --from=final is an image name, not a later stage */
    byoc_dockerfile_clear(&df);

    /* a stage is never its own base: in FROM a AS a, a is an image (found by the fuzzer
     * when stage names got an index: the name was registered before the base was looked up) */
    parse_text("FROM a AS a\nFROM a AS b\nFROM x AS c\nFROM c AS C\n", &df);
    CHECK_INT(df.n_stages, 4);
    if (df.n_stages == 4) {
        CHECK_INT(df.stages[0].base_stage, -1);
        CHECK_INT(df.stages[1].base_stage, 0);
        CHECK_INT(df.stages[3].base_stage, 2);
    }
    CHECK(diag_at(&df, 4, true, "duplicate stage name 'c'"));
    byoc_dockerfile_clear(&df);

    parse_text("FROM a AS one\nCOPY --from=two /x /y\nFROM b AS two\nCOPY --from=5 /x /y\n", &df);
    CHECK(diag_at(&df, 2, true, "later stage"));
    CHECK(diag_at(&df, 4, true, "--from=5"));
    byoc_dockerfile_clear(&df);
}

static void test_errors(void)
{
    byoc_dockerfile df;
    parse_fixture("errors.Dockerfile", NULL, &df);
    CHECK(diag_at(&df, 1, true, "before the first FROM"));
    CHECK(diag_at(&df, 2, true, "FROM needs an image"));
    CHECK(diag_at(&df, 3, true, "4 words"));
    CHECK(diag_at(&df, 4, true, "invalid stage name"));
    CHECK(diag_at(&df, 6, true, "duplicate stage name"));
    CHECK(diag_at(&df, 7, true, "unknown instruction 'BOGUS'"));
    CHECK(diag_at(&df, 8, true, "no value"));
    CHECK(diag_at(&df, 9, true, "source and a destination"));
    CHECK(diag_at(&df, 10, true, "JSON form"));
    CHECK(diag_at(&df, 11, false, "JSON"));
    CHECK(diag_at(&df, 12, true, "ONBUILD"));
    CHECK(diag_at(&df, 13, false, "deprecated"));
    CHECK(diag_at(&df, 15, false, "empty continuation"));
    byoc_dockerfile_clear(&df);

    parse_text("", &df);
    CHECK(diag_at(&df, 1, true, "no instructions"));
    byoc_dockerfile_clear(&df);
    parse_text("# only a comment\n\n", &df);
    CHECK(diag_at(&df, 1, true, "no instructions"));
    byoc_dockerfile_clear(&df);
    parse_text("ARG X=1\n", &df);
    CHECK(diag_at(&df, 1, true, "no FROM"));
    byoc_dockerfile_clear(&df);

    static const char binary[] = "\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x02\0>\0";
    byoc_dockerfile_parse(binary, sizeof binary - 1, NULL, &df);
    CHECK_INT(df.n_errors, 1);
    CHECK(diag_at(&df, 1, true, "binary"));
    CHECK_INT(df.n_instrs, 0);
    byoc_dockerfile_clear(&df);

    /* many garbage lines: bounded diagnostics */
    char *junk = malloc(200 * 8 + 1);
    junk[0] = '\0';
    for (int i = 0; i < 200; i++)
        strcat(junk, "garbage\n");
    parse_text(junk, &df);
    CHECK(df.n_diags <= 100);
    CHECK(strstr(df.diags[df.n_diags - 1].message, "not shown") != NULL);
    byoc_dockerfile_clear(&df);
    free(junk);

    /* an unterminated ${ and quotes do not crash */
    parse_text("FROM a\nENV X=${UNCLOSED Y=\"open\nCOPY 'x /y\n", &df);
    CHECK(df.n_instrs == 3);
    byoc_dockerfile_clear(&df);
}

static const char *vars(void *ctx, const char *name)
{
    (void)ctx;
    if (!strcmp(name, "SET"))
        return "value";
    if (!strcmp(name, "EMPTY"))
        return "";
    return NULL;
}

static void test_shellwords(void)
{
    char *w = byoc_sw_word("a${SET}b$SET\\$SET'$SET'\"$SET\"", strlen("a${SET}b$SET\\$SET'$SET'\"$SET\""), '\\', vars,
                           NULL);
    CHECK_STR(w, "avaluebvalue$SET$SETvalue");
    free(w);
    w = byoc_sw_word("${UNSET:-${SET:+nested}}", 24, '\\', vars, NULL);
    CHECK_STR(w, "nested");
    free(w);
    w = byoc_sw_word("${EMPTY:+x}${EMPTY+y}${UNSET-z}${SET:?msg}$", 43, '\\', vars, NULL);
    CHECK_STR(w, "yzvalue$");
    free(w);
    w = byoc_sw_word("\"a\\\"b\\n\"", 8, '\\', NULL, NULL);
    CHECK_STR(w, "a\"b\\n");
    free(w);
    byoc_strv words = BYOC_STRV_INIT;
    byoc_sw_words("  one 'two three'  \"$SET four\" five\\ six ${SET:-a b}", '\\', vars, NULL, &words);
    CHECK_INT(words.n, 5);
    if (words.n == 5) {
        CHECK_STR(words.v[1], "two three");
        CHECK_STR(words.v[2], "value four");
        CHECK_STR(words.v[3], "five six");
        CHECK_STR(words.v[4], "value");
    }
    byoc_strv_clear(&words);
    CHECK(byoc_sw_has_unset("$UNSET", '\\', vars, NULL));
    CHECK(!byoc_sw_has_unset("${UNSET:-d}$SET", '\\', vars, NULL));
    CHECK(!byoc_sw_has_unset("${SET:-$UNSET}${SET+x}", '\\', vars, NULL)); /* a word not used */
    CHECK(byoc_sw_has_unset("${UNSET:-$UNSET}", '\\', vars, NULL));
    w = byoc_sw_word("${UNSET:-\"}\"}'}'${UNSET:-a\\}b}", 30, '\\', vars, NULL);
    CHECK_STR(w, "}}a}b"); /* a quoted or escaped '}' does not close */
    free(w);
}

/* Nesting is lexed in one pass, and past 64 levels counts as unset: a hostile
 * Dockerfile of a million nested ${A:-...} neither takes quadratic time (hours;
 * ctest's timeout fails it) nor exhausts the stack. */
static void test_deep_nesting(void)
{
    for (int levels = 60; levels <= 70; levels += 10) {
        byoc_buf b = BYOC_BUF_INIT;
        for (int i = 0; i < levels; i++)
            byoc_buf_puts(&b, "${UNSET:-");
        byoc_buf_puts(&b, "x");
        for (int i = 0; i < levels; i++)
            byoc_buf_putc(&b, '}');
        char *w = byoc_sw_word(b.data, b.len, '\\', vars, NULL);
        CHECK_STR(w, levels <= 64 ? "x" : "");
        CHECK(byoc_sw_has_unset(b.data, '\\', vars, NULL) == (levels > 64));
        free(w);
        byoc_buf_clear(&b);
    }
    size_t levels = 200000;
    byoc_buf text = BYOC_BUF_INIT;
    byoc_buf_puts(&text, "FROM a\nARG A\nENV B=");
    for (size_t i = 0; i < levels; i++)
        byoc_buf_puts(&text, "${A:-");
    byoc_buf_putc(&text, 'x');
    for (size_t i = 0; i < levels; i++)
        byoc_buf_putc(&text, '}');
    byoc_buf_puts(&text, " C=${B}\nRUN echo $C\n");
    byoc_dockerfile df;
    parse_text(text.data, &df);
    CHECK_INT(df.n_instrs, 4);
    byoc_dockerfile_clear(&df);
    byoc_buf_clear(&text);
}

static bool has_diag(const byoc_dockerfile *df, bool error, const char *text)
{
    for (size_t i = 0; i < df->n_diags; i++)
        if (df->diags[i].error == error && strstr(df->diags[i].message, text))
            return true;
    return false;
}

/* Variables and stage names are found through an index, and inherited ENV is
 * copied up to a limit. Each of these took minutes (or gigabytes) when every
 * reference scanned the list: beyond the unit timeout, so a return to that fails. */
static void test_large(void)
{
    enum { N = 100000 };
    byoc_buf text = BYOC_BUF_INIT;
    byoc_buf_puts(&text, "ARG a0=x\n");
    for (int i = 1; i < N; i++)
        byoc_buf_printf(&text, "ARG a%d=${a%d}\n", i, i - 1);
    byoc_buf_printf(&text, "FROM img:${a%d}\n", N - 1);
    byoc_dockerfile df;
    parse_text(text.data, &df);
    CHECK_INT(df.n_global_args, N);
    CHECK_STR(df.n_stages ? df.stages[0].base : "", "img:x");
    CHECK_INT(df.n_errors, 0);
    byoc_dockerfile_clear(&df);

    byoc_buf_clear(&text);
    for (int i = 0; i < N; i++)
        byoc_buf_printf(&text, "FROM x:1 AS s%d\n", i);
    byoc_buf_puts(&text, "COPY --from=s0 /a /b\nCOPY --from=S7 /a /b\n");
    parse_text(text.data, &df);
    CHECK_INT(df.n_stages, N);
    CHECK_INT(df.n_errors, 0);
    CHECK_INT(byoc_df_find_stage(&df, "s99999"), N - 1);
    byoc_dockerfile_clear(&df);

    /* one instruction with N flags, one with N pairs */
    byoc_buf_clear(&text);
    byoc_buf_puts(&text, "FROM x:1\nCOPY");
    for (int i = 0; i < N; i++)
        byoc_buf_printf(&text, " --chown=%d", i);
    byoc_buf_puts(&text, " a b\nENV");
    for (int i = 0; i < N; i++)
        byoc_buf_printf(&text, " e%d=%d", i, i);
    byoc_buf_putc(&text, '\n');
    parse_text(text.data, &df);
    CHECK_INT(df.n_instrs, 3);
    if (df.n_instrs == 3) {
        CHECK_INT(df.instrs[1].n_flags, N);
        CHECK_INT(df.instrs[1].n_args, 2);
        CHECK_INT(df.instrs[2].n_pairs, N);
        CHECK_STR(byoc_df_pair_value(&df.instrs[2], "e99999"), "99999");
    }
    byoc_dockerfile_clear(&df);

    /* a chain of stages, each adding an ENV to its base's */
    enum { CHAIN = 2000 };
    byoc_buf_clear(&text);
    byoc_buf_puts(&text, "FROM x:1 AS s0\n");
    for (int i = 0; i < CHAIN; i++)
        byoc_buf_printf(&text, "ENV e%d=%d\nFROM s%d AS s%d\n", i, i, i, i + 1);
    parse_text(text.data, &df);
    CHECK_INT(df.n_stages, CHAIN + 1);
    size_t copied = 0;
    for (size_t i = 0; i < df.n_stages; i++)
        copied += df.stages[i].n_env;
    CHECK(copied <= 100000 + CHAIN);
    CHECK(has_diag(&df, false, "stages inherit more than 100000 ENV variables"));
    CHECK_STR(byoc_df_stage_env(&df.stages[400], "e0"), "0"); /* inherited while under the limit */
    CHECK_STR(byoc_df_stage_env(&df.stages[400], "e399"), "399");
    byoc_dockerfile_clear(&df);
    byoc_buf_clear(&text);
}

int main(void)
{
    test_escape_directive();
    test_continuations();
    test_heredocs();
    test_forms();
    test_flags();
    test_args();
    test_multistage();
    test_errors();
    test_shellwords();
    test_deep_nesting();
    test_large();
    return check_done();
}
