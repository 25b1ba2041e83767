/* byoc init: scaffolds a BYOC project (byoc/scaffold.h). Without flags it scaffolds what
 * byoc decide concludes for the directory (scan + --answer); flags override each part. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/decide.h"
#include "byoc/scaffold.h"
#include "byoc/scan.h"
#include "core/buf.h"
#include "core/files.h"
#include "verbs.h"

typedef struct given {
    bool recipe, language, arch, gpu, python;
} given;

/* Fill what the flags left open from the decision for the directory. */
static int apply_decision(byoc_init_options *o, const given *gv, const byoc_strv *answers, byoc_decision *d,
                          json_t **decided, byoc_err *err)
{
    byoc_answers a;
    byoc_answers_init(&a);
    for (size_t i = 0; i < answers->n; i++)
        if (byoc_answer_assign(&a, answers->v[i], err) != 0) {
            byoc_answers_clear(&a);
            return -1;
        }
    if (byoc_path_is_dir(o->dir)) {
        byoc_scan s;
        if (byoc_scan_project(o->dir, &s, err) != 0) {
            byoc_answers_clear(&a);
            return -1;
        }
        byoc_scan_apply(&s, &a);
        byoc_scan_clear(&s);
    }
    byoc_decide(&a, d);
    *decided = byoc_decision_to_json(d, &a);
    byoc_answers_clear(&a);
    if (!gv->language)
        o->language = d->language;
    if (!gv->arch)
        o->arch = d->arch;
    if (!gv->gpu)
        o->gpu = d->gpu;
    if (!gv->python && *d->python && o->language == BYOC_LANG_PYTHON)
        o->python = d->python;
    o->private_deps = d->private_deps;
    if (!gv->recipe) {
        bool prebuilt_fits = o->language == BYOC_LANG_PYTHON && o->arch == BYOC_ARCH_AMD64 &&
                             (!o->python || !strcmp(o->python, BYOC_PREBUILT_PYTHON));
        o->recipe = d->recipe == BYOC_RECIPE_CUSTOM_BASE || !prebuilt_fits ? BYOC_RECIPE_CUSTOM_BASE
                                                                            : BYOC_RECIPE_EXTEND_PREBUILT;
    }
    return 0;
}

static void print_list(const char *title, const byoc_strv *v)
{
    if (!v->n)
        return;
    printf("%s\n", title);
    for (size_t i = 0; i < v->n; i++)
        printf("  %s\n", v->v[i]);
}

int verb_init(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    enum { OPT_RECIPE = 256, OPT_LANGUAGE, OPT_ARCH, OPT_GPU, OPT_BASE, OPT_FORCE, OPT_NO_GIT, OPT_PYTHON, OPT_ANSWER,
           OPT_EXISTING };
    static const struct option opts[] = {
        {"recipe", required_argument, NULL, OPT_RECIPE},
        {"language", required_argument, NULL, OPT_LANGUAGE},
        {"arch", required_argument, NULL, OPT_ARCH},
        {"gpu", no_argument, NULL, OPT_GPU},
        {"base", required_argument, NULL, OPT_BASE},
        {"force", no_argument, NULL, OPT_FORCE},
        {"no-git", no_argument, NULL, OPT_NO_GIT},
        {"python", required_argument, NULL, OPT_PYTHON},
        {"answer", required_argument, NULL, OPT_ANSWER},
        {"existing", required_argument, NULL, OPT_EXISTING},
        {NULL, 0, NULL, 0},
    };
    byoc_init_options o = {.language = BYOC_LANG_PYTHON, .arch = BYOC_ARCH_AMD64, .git = true};
    given gv = {0};
    byoc_strv answers = BYOC_STRV_INIT;
    byoc_kv *choices = NULL;
    size_t n_choices = 0;
    int c, rc = 0;
    opterr = 0;
    while (rc == 0 && (c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        switch (c) {
        case OPT_RECIPE:
            if (byoc_recipe_parse(optarg, &o.recipe) != 0 || o.recipe == BYOC_RECIPE_PREBUILT)
                rc = byoc_cli_usage(err, "--recipe", "'%s' is not a recipe; valid: extend-prebuilt, custom-base",
                                    optarg);
            gv.recipe = true;
            break;
        case OPT_LANGUAGE:
            if (byoc_language_parse(optarg, &o.language) != 0)
                rc = byoc_cli_usage(err, "--language", "'%s' is not supported; valid: python, julia, rust, cpp",
                                    optarg);
            gv.language = true;
            break;
        case OPT_ARCH:
            if (byoc_arch_parse(optarg, &o.arch) != 0)
                rc = byoc_cli_usage(err, "--arch", "'%s' is not supported; valid: amd64, arm64", optarg);
            gv.arch = true;
            break;
        case OPT_GPU: o.gpu = gv.gpu = true; break;
        case OPT_BASE: o.base_image = optarg; break;
        case OPT_FORCE: o.force = true; break;
        case OPT_NO_GIT: o.git = false; break;
        case OPT_PYTHON: o.python = optarg; gv.python = true; break;
        case OPT_ANSWER: byoc_strv_push(&answers, optarg); break;
        case OPT_EXISTING: {
            const char *eq = strrchr(optarg, '=');
            if (!eq) {
                if (byoc_existing_parse(optarg, &o.existing) != 0)
                    rc = byoc_cli_usage(err, "--existing", "'%s': valid: keep, overwrite, beside, or PATH=CHOICE",
                                        optarg);
                break;
            }
            choices = byoc_xrealloc(choices, (n_choices + 1) * sizeof *choices);
            choices[n_choices].key = byoc_xstrndup(optarg, (size_t)(eq - optarg));
            choices[n_choices++].value = byoc_xstrdup(eq + 1);
            break;
        }
        case ':': rc = byoc_cli_usage(err, argv[optind - 1], "needs a value"); break;
        default: rc = byoc_cli_usage(err, "init", "unknown flag '%s' (see byoc init --help)", argv[optind - 1]);
        }
    }
    if (rc == 0 && argc - optind > 1)
        rc = byoc_cli_usage(err, "init", "takes one directory (got '%s' and '%s')", argv[optind], argv[optind + 1]);
    o.dir = optind < argc ? argv[optind] : g->project_dir;
    o.choices = choices;
    o.n_choices = n_choices;
    o.region = g->region;
    if (!o.region)
        o.region = getenv("AWS_REGION") && *getenv("AWS_REGION") ? getenv("AWS_REGION") : getenv("AWS_DEFAULT_REGION");
    byoc_decision d;
    memset(&d, 0, sizeof d);
    json_t *decided = NULL;
    if (rc == 0 && apply_decision(&o, &gv, &answers, &d, &decided, err) != 0)
        rc = byoc_err_exit_code(err->kind);
    byoc_init_result res;
    memset(&res, 0, sizeof res);
    if (rc == 0 && byoc_init_project(&o, &res, err) != 0)
        rc = byoc_err_exit_code(err->kind);
    if (rc == 0 && g->json) {
        json_t *doc = byoc_init_result_to_json(&res);
        json_object_set_new(doc, "decided", decided);
        decided = NULL;
        byoc_cli_print_json(doc);
    } else if (rc == 0) {
        printf("Scaffolded %s (%s, %s, %s%s%s) in %s", byoc_recipe_name(o.recipe), byoc_language_name(o.language),
               byoc_arch_name(o.arch), o.gpu ? "CUDA" : "CPU", o.python ? ", Python " : "", o.python ? o.python : "",
               o.dir);
        printf(" (decide: %s)\n", byoc_verdict_name(d.verdict));
        if (res.adopted)
            printf("Your code is the job's: source module %s, entry point %s (no sample added)\n", res.source_module,
                   res.entry_point);
        print_list("Written:", &res.files);
        print_list("Kept as they are (--existing overwrite|beside or PATH=CHOICE to change):", &res.kept);
        print_list("byoc's version beside yours:", &res.beside);
        if (res.git_created)
            printf("git: new repository, first commit %.12s\n", res.commit);
        else if (res.git_note)
            printf("git: %s\n", res.git_note);
        printf("Next: byoc lint %s && byoc build %s\n", o.dir, o.dir);
    }
    json_decref(decided);
    byoc_decision_clear(&d);
    byoc_init_result_clear(&res);
    for (size_t i = 0; i < n_choices; i++) {
        free(choices[i].key);
        free(choices[i].value);
    }
    free(choices);
    byoc_strv_clear(&answers);
    return rc;
}
