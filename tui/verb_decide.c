/* byoc decide: the BYOC-necessity wizard as a command. Scans the project,
 * applies --answer overrides, runs the rules (byoc/decide.h) and prints the
 * verdict, the recipe and the reasons, or one JSON document with --json. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "byoc/decide.h"
#include "byoc/scan.h"
#include "core/buf.h"
#include "verbs.h"

static const char *recipe_text(byoc_recipe r)
{
    switch (r) {
    case BYOC_RECIPE_PREBUILT: return "a prebuilt Braket image + requirements.txt in the source directory";
    case BYOC_RECIPE_EXTEND_PREBUILT: return "recipe 1: FROM a prebuilt Braket image, add software";
    default: return "recipe 2: a public base + sagemaker-training + byoc's entry point";
    }
}

static void print_text(const byoc_decision *d, const byoc_answers *a, const byoc_scan *s, const char *dir)
{
    printf("BYOC %s. Use %s: %s.\n\n", d->verdict == BYOC_VERDICT_NOT_NEEDED ? "is not needed"
                                       : d->verdict == BYOC_VERDICT_RECOMMENDED ? "is recommended"
                                                                                : "is required",
           byoc_recipe_name(d->recipe), recipe_text(d->recipe));
    printf("Why:\n");
    for (size_t i = 0; i < d->n_reasons; i++)
        printf("  [%s] %s\n", d->reasons[i].rule, d->reasons[i].text);
    printf("\nAnswers (change any with --answer KEY=VALUE):\n");
    const byoc_question *q = byoc_questions();
    for (int i = 0; i < BYOC_Q_COUNT; i++) {
        const byoc_answer *ans = &a->a[i];
        printf("  %-17s %-20s %-8s%s%s%s\n", q[i].key, *ans->value ? ans->value : "(any)",
               byoc_answer_source_name(ans->source), ans->evidence ? " (" : "", ans->evidence ? ans->evidence : "",
               ans->evidence ? ")" : "");
    }
    if (s && s->missing.n) {
        printf("\nPackages the prebuilt image lacks:");
        for (size_t i = 0; i < s->missing.n; i++)
            printf(" %s", s->missing.v[i]);
        printf("\n");
    }
    if (s && (s->notes.n || s->secrets.n || s->truncated)) {
        printf("\nNotes:\n");
        for (size_t i = 0; i < s->secrets.n; i++)
            printf("  %s: remove it from the file\n", s->secrets.v[i]);
        for (size_t i = 0; i < s->notes.n; i++)
            printf("  %s\n", s->notes.v[i]);
        if (s->truncated)
            printf("  the scan stopped at its limits (%zu files); answer what it missed\n", s->files_seen);
    }
    if (d->recipe != BYOC_RECIPE_PREBUILT)
        printf("\nNext: byoc init %s --recipe %s --language %s --arch %s%s\n", dir, byoc_recipe_name(d->recipe),
               byoc_language_name(d->language), byoc_arch_name(d->arch), d->gpu ? " --gpu" : "");
    else
        printf("\nNext: run the job on a prebuilt image (no --image-uri), with any missing packages in the\n"
               "source directory's requirements.txt.\n");
}

int verb_decide(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    enum { OPT_SCAN = 256, OPT_ANSWER, OPT_NO_SCAN };
    static const struct option opts[] = {
        {"scan", required_argument, NULL, OPT_SCAN},
        {"answer", required_argument, NULL, OPT_ANSWER},
        {"no-scan", no_argument, NULL, OPT_NO_SCAN},
        {NULL, 0, NULL, 0},
    };
    const char *scan_dir = g->project_dir;
    bool scan = true;
    byoc_strv assignments = BYOC_STRV_INIT;
    int c, rc = 0;
    opterr = 0;
    while (rc == 0 && (c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        switch (c) {
        case OPT_SCAN: scan_dir = optarg; break;
        case OPT_ANSWER: byoc_strv_push(&assignments, optarg); break;
        case OPT_NO_SCAN: scan = false; break;
        case ':': rc = byoc_cli_usage(err, argv[optind - 1], "needs a value"); break;
        default: rc = byoc_cli_usage(err, "decide", "unknown flag '%s' (see byoc decide --help)", argv[optind - 1]);
        }
    }
    if (rc == 0 && optind < argc)
        rc = byoc_cli_usage(err, "decide", "unexpected argument '%s' (the directory goes with --scan)", argv[optind]);
    byoc_answers answers;
    byoc_answers_init(&answers);
    /* Validate the user's answers before scanning: bad input is exit 2 and nothing else happens. */
    for (size_t i = 0; rc == 0 && i < assignments.n; i++)
        if (byoc_answer_assign(&answers, assignments.v[i], err) != 0)
            rc = 2;
    byoc_scan s;
    memset(&s, 0, sizeof s);
    bool scanned = false;
    if (rc == 0 && scan) {
        if (byoc_scan_project(scan_dir, &s, err) != 0) {
            rc = byoc_err_exit_code(err->kind);
        } else {
            scanned = true;
            byoc_scan_apply(&s, &answers);
        }
    }
    if (rc == 0) {
        byoc_decision d;
        byoc_decide(&answers, &d);
        if (g->json) {
            json_t *doc = byoc_decision_to_json(&d, &answers);
            json_object_set_new(doc, "detected", scanned ? byoc_scan_to_json(&s) : json_object());
            byoc_cli_print_json(doc);
        } else {
            print_text(&d, &answers, scanned ? &s : NULL, scan_dir);
        }
        byoc_decision_free(&d);
    }
    if (scanned)
        byoc_scan_free(&s);
    byoc_answers_free(&answers);
    byoc_strv_free(&assignments);
    return rc;
}
