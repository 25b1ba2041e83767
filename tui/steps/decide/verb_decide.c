/* byoc decide: the BYOC-necessity wizard as a command. Scans the project,
 * applies --answer overrides, runs the rules (byoc/decide.h) and prints the
 * verdict, the recipe and the reasons, or one JSON document with --json. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/baked_start.h"
#include "byoc/decide.h"
#include "byoc/measure.h"
#include "byoc/scan.h"
#include "cli_task.h"
#include "core/buf.h"
#include "core/utf8.h"
#include "verbs.h"

static int measure_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    byoc_measurement *m = byoc_xcalloc(1, sizeof *m);
    if (byoc_measure_run(t, arg, m, err) != 0) {
        free(m);
        return -1;
    }
    *result = m;
    *result_free = free; /* only on a result nobody took: the verb frees its fields */
    return 0;
}

/* pip's output and the progress go to stderr: stdout stays the verdict (or the JSON). */
static void print_measure_event(void *ud, const byoc_event *ev)
{
    (void)ud;
    if ((ev->kind == BYOC_EV_LOG || ev->kind == BYOC_EV_STATUS) && ev->text) {
        char *line = byoc_printable_dup(ev->text);
        fprintf(stderr, "%s%s\n", ev->kind == BYOC_EV_LOG ? "  | " : "byoc: ", line);
        free(line);
    }
}

/* The stored figures come from the project's .byoc/measure.json: the project folder is
 * outside text like any other, so the strings pass the printable pass. */
static void print_startup(const byoc_measurement *m, long instances)
{
    char *base = byoc_printable_dup(m->base ? m->base : "?");
    char *at = byoc_printable_dup(m->measured_at ? m->measured_at : "?");
    printf("\nStart-up cost: installing requirements.txt (%ld packages) took %.1f s in %s, measured at %s%s.\n",
           m->packages, m->install_seconds, base, at, m->reused ? ", reused" : "");
    free(base);
    free(at);
    if (m->base_note) {
        char *note = byoc_printable_dup(m->base_note);
        printf("  base: %s\n", note);
        free(note);
    }
    if (instances > 1)
        printf("  every job start pays it on each of %ld instances: %.0f s of instance time per job\n", instances,
               m->install_seconds * (double)instances);
    if (m->size_bytes >= 0)
        printf("  a baked image would add %.1f MB\n", (double)m->size_bytes / 1e6);
    for (size_t i = 0; i < m->failed.n; i++) {
        char *f = byoc_printable_dup(m->failed.v[i]);
        printf("  failed to install: %s\n", f);
        free(f);
    }
}

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
    if (d->recipe != BYOC_RECIPE_PREBUILT) {
        char *cmd = byoc_decision_init_command(d, dir);
        printf("\nNext: %s\n", cmd);
        free(cmd);
    } else
        printf("\nNext: run the job on a prebuilt image (no --image-uri), with any missing packages in the\n"
               "source directory's requirements.txt.\n");
}

int verb_decide(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    enum { OPT_SCAN = 256, OPT_ANSWER, OPT_NO_SCAN, OPT_MEASURE, OPT_MBASE, OPT_MNET, OPT_MAGAIN, OPT_THRESHOLD };
    static const struct option opts[] = {
        {"scan", required_argument, NULL, OPT_SCAN},
        {"answer", required_argument, NULL, OPT_ANSWER},
        {"no-scan", no_argument, NULL, OPT_NO_SCAN},
        {"measure", no_argument, NULL, OPT_MEASURE},
        {"measure-base", required_argument, NULL, OPT_MBASE},
        {"measure-network", required_argument, NULL, OPT_MNET},
        {"measure-again", no_argument, NULL, OPT_MAGAIN},
        {"install-threshold", required_argument, NULL, OPT_THRESHOLD},
        {NULL, 0, NULL, 0},
    };
    const char *scan_dir = g->project_dir;
    bool scan = true, measure = false;
    byoc_measure_opts mo = {0};
    long threshold = 0;
    char *end = NULL;
    byoc_strv assignments = BYOC_STRV_INIT;
    int c, rc = 0;
    opterr = 0;
    while (rc == 0 && (c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        switch (c) {
        case OPT_SCAN: scan_dir = optarg; break;
        case OPT_ANSWER: byoc_strv_push(&assignments, optarg); break;
        case OPT_NO_SCAN: scan = false; break;
        case OPT_MEASURE: measure = true; break;
        case OPT_MBASE: mo.base = optarg; break;
        case OPT_MNET: mo.network_mode = optarg; break;
        case OPT_MAGAIN: mo.again = true; break;
        case OPT_THRESHOLD:
            threshold = strtol(optarg, &end, 10);
            if (!*optarg || *end || threshold <= 0 || threshold > 1000000)
                rc = byoc_cli_usage(err, "--install-threshold", "'%s' is not a number of seconds (1 or more)", optarg);
            break;
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
    byoc_measurement m;
    memset(&m, 0, sizeof m);
    bool have_m = false;
    const char *dir = scan_dir ? scan_dir : ".";
    if (rc == 0 && (mo.base || mo.network_mode || mo.again) && !measure)
        rc = byoc_cli_usage(err, "decide", "--measure-base, --measure-network and --measure-again go with --measure");
    if (rc == 0 && measure) {
        mo.project_dir = dir;
        byoc_aws_config_opts aws = {.profile = g->profile, .region = g->region};
        mo.aws = &aws;
        void *res = NULL;
        char *set_base, *set_network;
        byoc_measure_settings(dir, &mo, &set_base, &set_network);
        int mrc = byoc_cli_run_task("measure", measure_task, &mo, NULL, print_measure_event, NULL, &res, err);
        free(set_base);
        free(set_network);
        if (mrc != 0) {
            rc = byoc_err_exit_code(err->kind);
        } else {
            m = *(byoc_measurement *)res;
            free(res);
            have_m = true;
        }
    } else if (rc == 0 && scan) {
        have_m = byoc_measure_lookup(dir, NULL, &m) == 1;
    }
    /* The other side of the comparison: how soon a baked image of this project speaks. */
    byoc_baked_start baked;
    bool have_baked = rc == 0 && (measure || scan) && byoc_baked_start_lookup(dir, NULL, &baked) == 1;
    long instances = byoc_measure_instance_count(dir);
    if (have_m) {
        byoc_startup st;
        byoc_measurement_startup(&m, instances, threshold ? threshold : byoc_measure_threshold(dir), &st);
        byoc_answers_set_startup(&answers, &st);
        free(st.failed);
    }
    if (rc == 0) {
        byoc_decision d;
        byoc_decide(&answers, &d);
        if (g->json) {
            json_t *doc = byoc_decision_to_json(&d, &answers);
            json_object_set_new(doc, "detected", scanned ? byoc_scan_to_json(&s) : json_object());
            if (have_m || have_baked) {
                json_t *st = have_m ? byoc_measurement_to_json(&m, instances) : json_object();
                json_object_set_new(st, "baked", have_baked ? byoc_baked_start_to_json(&baked) : json_null());
                json_object_set_new(doc, "startup", st);
            }
            byoc_cli_print_json(doc);
        } else {
            print_text(&d, &answers, scanned ? &s : NULL, dir);
            if (have_m)
                print_startup(&m, instances);
            if (have_m || have_baked) {
                char *line = byoc_baked_start_text(have_baked ? &baked : NULL);
                printf("%s%s.\n", have_m ? "  " : "\nStart-up cost: ", line);
                free(line);
            }
        }
        byoc_decision_clear(&d);
    }
    if (scanned)
        byoc_scan_clear(&s);
    byoc_measurement_clear(&m);
    if (have_baked)
        byoc_baked_start_clear(&baked);
    byoc_answers_clear(&answers);
    byoc_strv_clear(&assignments);
    return rc;
}
