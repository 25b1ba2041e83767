/* byoc init: scaffolds a BYOC project from a recipe (byoc/scaffold.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/scaffold.h"
#include "verbs.h"

int verb_init(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    enum { OPT_RECIPE = 256, OPT_LANGUAGE, OPT_ARCH, OPT_GPU, OPT_BASE, OPT_FORCE, OPT_NO_GIT };
    static const struct option opts[] = {
        {"recipe", required_argument, NULL, OPT_RECIPE},
        {"language", required_argument, NULL, OPT_LANGUAGE},
        {"arch", required_argument, NULL, OPT_ARCH},
        {"gpu", no_argument, NULL, OPT_GPU},
        {"base", required_argument, NULL, OPT_BASE},
        {"force", no_argument, NULL, OPT_FORCE},
        {"no-git", no_argument, NULL, OPT_NO_GIT},
        {NULL, 0, NULL, 0},
    };
    byoc_init_options o = {.language = BYOC_LANG_PYTHON, .arch = BYOC_ARCH_AMD64, .git = true};
    bool recipe_given = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        switch (c) {
        case OPT_RECIPE:
            if (byoc_recipe_parse(optarg, &o.recipe) != 0 || o.recipe == BYOC_RECIPE_PREBUILT)
                return byoc_cli_usage(err, "--recipe", "'%s' is not a recipe; valid: extend-prebuilt, custom-base",
                                      optarg);
            recipe_given = true;
            break;
        case OPT_LANGUAGE:
            if (byoc_language_parse(optarg, &o.language) != 0)
                return byoc_cli_usage(err, "--language", "'%s' is not supported; valid: python, julia, rust, cpp",
                                      optarg);
            break;
        case OPT_ARCH:
            if (byoc_arch_parse(optarg, &o.arch) != 0)
                return byoc_cli_usage(err, "--arch", "'%s' is not supported; valid: amd64, arm64", optarg);
            break;
        case OPT_GPU: o.gpu = true; break;
        case OPT_BASE: o.base_image = optarg; break;
        case OPT_FORCE: o.force = true; break;
        case OPT_NO_GIT: o.git = false; break;
        case ':': return byoc_cli_usage(err, argv[optind - 1], "needs a value");
        default: return byoc_cli_usage(err, "init", "unknown flag '%s' (see byoc init --help)", argv[optind - 1]);
        }
    }
    if (argc - optind > 1)
        return byoc_cli_usage(err, "init", "takes one directory (got '%s' and '%s')", argv[optind], argv[optind + 1]);
    o.dir = optind < argc ? argv[optind] : g->project_dir;
    if (!recipe_given) /* recipe 1 when it can work, else recipe 2 */
        o.recipe = o.language == BYOC_LANG_PYTHON && o.arch == BYOC_ARCH_AMD64 ? BYOC_RECIPE_EXTEND_PREBUILT
                                                                               : BYOC_RECIPE_CUSTOM_BASE;
    o.region = g->region;
    if (!o.region)
        o.region = getenv("AWS_REGION") && *getenv("AWS_REGION") ? getenv("AWS_REGION") : getenv("AWS_DEFAULT_REGION");
    byoc_init_result res;
    if (byoc_init_project(&o, &res, err) != 0) {
        byoc_init_result_free(&res);
        return byoc_err_exit_code(err->kind);
    }
    if (g->json) {
        byoc_cli_print_json(byoc_init_result_to_json(&res));
    } else {
        printf("Scaffolded %s (%s, %s, %s) in %s:\n", byoc_recipe_name(o.recipe), byoc_language_name(o.language),
               byoc_arch_name(o.arch), o.gpu ? "CUDA" : "CPU", o.dir);
        for (size_t i = 0; i < res.files.n; i++)
            printf("  %s\n", res.files.v[i]);
        if (res.git_created)
            printf("git: new repository, first commit %.12s\n", res.commit);
        else if (res.git_note)
            printf("git: %s\n", res.git_note);
        printf("Next: byoc lint %s && byoc build %s\n", o.dir, o.dir);
    }
    byoc_init_result_free(&res);
    return 0;
}
