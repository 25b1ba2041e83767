/* fuzz_dockerfile: the Dockerfile parser (byoc/dockerfile.h) and the BYOC
 * lint rules on top of it (byoc/lint.h, without a build context).
 * Input: one byte steers options (build args, arch, recipe, GPU, instance
 * type), the rest is the Dockerfile. Parsing never fails; every line number
 * lies inside the text; stage references are in range. */
#include <jansson.h>

#include "byoc/dockerfile.h"
#include "byoc/lint.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

static int count_lines(const uint8_t *p, size_t n)
{
    int lines = 1;
    for (size_t i = 0; i < n; i++)
        if (p[i] == '\n')
            lines++;
    return lines;
}

static void check_parse(const byoc_dockerfile *df, int lines)
{
    for (size_t i = 0; i < df->n_instrs; i++) {
        const byoc_df_instr *in = &df->instrs[i];
        FUZZ_ASSERT(in->keyword && in->original && in->rest);
        FUZZ_ASSERT(in->line >= 1 && in->line <= in->end_line && in->end_line <= lines);
        FUZZ_ASSERT(in->stage >= -1 && (in->stage < 0 || (size_t)in->stage < df->n_stages));
        for (size_t k = 0; k < in->n_args; k++)
            FUZZ_ASSERT(in->args[k] != NULL);
        for (size_t k = 0; k < in->n_flags; k++)
            FUZZ_ASSERT(in->flags[k].name != NULL);
        for (size_t k = 0; k < in->n_pairs; k++)
            FUZZ_ASSERT(in->pairs[k].name != NULL);
        for (size_t k = 0; k < in->n_heredocs; k++)
            FUZZ_ASSERT(in->heredocs[k].delimiter && in->heredocs[k].body);
        byoc_df_flag_value(in, "from");
        byoc_df_pair_value(in, "PATH");
    }
    for (size_t s = 0; s < df->n_stages; s++) {
        const byoc_df_stage *st = &df->stages[s];
        FUZZ_ASSERT(st->base != NULL);
        FUZZ_ASSERT(st->base_stage >= -1 && st->base_stage < (int)s);
        FUZZ_ASSERT(st->first_instr < df->n_instrs && st->first_instr + st->n_instrs <= df->n_instrs);
        byoc_df_stage_env(st, "SAGEMAKER_PROGRAM");
        byoc_df_stage_root_image(df, (int)s);
    }
    size_t errors = 0;
    for (size_t i = 0; i < df->n_diags; i++) {
        FUZZ_ASSERT(df->diags[i].message != NULL);
        FUZZ_ASSERT(df->diags[i].line >= 0 && df->diags[i].line <= lines);
        errors += df->diags[i].error;
    }
    FUZZ_ASSERT(errors == df->n_errors);
    FUZZ_ASSERT(df->escape == '\\' || df->escape == '`');
    byoc_df_final_stage(df);
    byoc_df_find_stage(df, "build");
    byoc_df_find_stage(df, "0");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    unsigned opt = fuzz_byte(&in);
    byoc_kv args[] = {{"BASE", "busybox:1"}, {"PY", "3.10"}, {"", ""}};
    byoc_df_options o = {.build_args = (opt & 1) ? args : NULL,
                         .n_build_args = (opt & 1) ? 3 : 0,
                         .target_arch = (opt & 2) ? "arm64" : NULL};
    byoc_dockerfile df;
    byoc_dockerfile_parse((const char *)in.p, in.n, &o, &df);
    check_parse(&df, count_lines(in.p, in.n));
    byoc_dockerfile_clear(&df);

    static const char *const recipes[] = {NULL, "extend-prebuilt", "custom-base", "prebuilt"};
    byoc_lint_config cfg = {.recipe = recipes[(opt >> 2) & 3],
                            .arch = (opt & 16) ? "arm64" : "amd64",
                            .gpu = (opt & 32) != 0,
                            .instance_type = (opt & 64) ? "ml.g4dn.xlarge" : ((opt & 128) ? "ml.m5.large" : NULL),
                            .context_dir = NULL,
                            .dockerfile_name = "Dockerfile",
                            .build_args = o.build_args,
                            .n_build_args = o.n_build_args};
    byoc_lint_result r;
    memset(&r, 0, sizeof r);
    byoc_lint_dockerfile((const char *)in.p, in.n, &cfg, &r);
    byoc_lint_sort(&r);
    for (size_t i = 0; i < r.n; i++)
        FUZZ_ASSERT(r.items[i].rule && r.items[i].message);
    json_t *j = byoc_lint_to_json(&r);
    FUZZ_ASSERT(j != NULL);
    char *dump = json_dumps(j, 0);
    FUZZ_ASSERT(dump != NULL);
    free(dump);
    json_decref(j);
    byoc_lint_result_clear(&r);
    return 0;
}
