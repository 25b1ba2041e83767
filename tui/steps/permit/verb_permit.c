/* byoc permit: show or edit who may pull from an ECR repository
 * (backend/byoc/permit.h), or check whether a job's execution role can. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "aws/client.h"
#include "byoc/permit.h"
#include "core/buf.h"
#include "core/jsonout.h"
#include "core/jsonprint.h"
#include "verbs.h"

typedef struct {
    const char **v;
    size_t n;
} strlist;

static void sl_add(strlist *l, const char *s)
{
    l->v = byoc_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
    l->v[l->n++] = s;
}

static void print_log(const byoc_event *ev, void *ud)
{
    (void)ud;
    if (ev->kind == BYOC_EV_LOG && ev->text)
        fprintf(stderr, "%s\n", ev->text);
}

/* byoc's JSON writer: it escapes the C1 controls jansson leaves raw (core/jsonout.h) */
static void print_policy(const json_t *policy)
{
    char *text = byoc_json_dumps(policy, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    printf("%s\n", text);
    free(text);
}

static int show_edit(const byoc_globals *g, const byoc_permit_opts *o, const byoc_permit_result *r)
{
    if (g->json) {
        byoc_cli_print_json(byoc_permit_result_json(r, r->changed));
        return 0;
    }
    bool editing = o->n_allow || o->n_revoke;
    if (!editing) {
        if (r->policy)
            print_policy(r->policy);
        else
            fprintf(stderr, "%s has no repository policy (only identities with their own ECR permissions can pull)\n",
                    o->repository);
        return 0;
    }
    if (!r->changed) {
        fprintf(stderr, "The policy of %s needs no change.\n", o->repository);
        return 0;
    }
    fputs(r->diff, stdout);
    if (o->dry_run)
        fprintf(stderr, "Dry run: nothing was sent.\n");
    else if (r->deleted)
        fprintf(stderr, "Deleted the policy of %s (no statement was left).\n", o->repository);
    else
        fprintf(stderr, "Set the policy of %s.\n", o->repository);
    return 0;
}

static int show_check(const byoc_globals *g, const byoc_pull_check *c)
{
    json_t *doc = byoc_pull_check_json(c);
    if (g->json) {
        byoc_cli_print_json(doc);
    } else {
        json_t *shown = byoc_json_printable_copy(doc); /* the reasons quote the services */
        json_decref(doc);
        printf("%s: %s (answered by %s)\n", c->can_pull ? "can pull" : "cannot pull",
               byoc_json_text(json_object_get(shown, "reason"), ""), byoc_json_text(json_object_get(shown, "method"), ""));
        size_t i;
        json_t *ch;
        json_array_foreach(json_object_get(shown, "checks"), i, ch)
            printf("  %-18s %-13s %s\n", byoc_json_text(json_object_get(ch, "method"), ""),
                   byoc_json_text(json_object_get(ch, "result"), ""), byoc_json_text(json_object_get(ch, "detail"), ""));
        json_decref(shown);
    }
    return c->can_pull ? 0 : 1;
}

int verb_permit(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    enum { OPT_ALLOW = 256, OPT_REVOKE, OPT_DRY_RUN, OPT_FORCE, OPT_CHECK };
    static const struct option opts[] = {
        {"allow", required_argument, NULL, OPT_ALLOW},
        {"revoke", required_argument, NULL, OPT_REVOKE},
        {"dry-run", no_argument, NULL, OPT_DRY_RUN},
        {"force", no_argument, NULL, OPT_FORCE},
        {"check", required_argument, NULL, OPT_CHECK},
        {NULL, 0, NULL, 0},
    };
    strlist allow = {0}, revoke = {0};
    byoc_permit_opts o = {0};
    const char *check = NULL;
    int rc = 2, c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        switch (c) {
        case OPT_ALLOW: sl_add(&allow, optarg); break;
        case OPT_REVOKE: sl_add(&revoke, optarg); break;
        case OPT_DRY_RUN: o.dry_run = true; break;
        case OPT_FORCE: o.force = true; break;
        case OPT_CHECK: check = optarg; break;
        case ':':
            rc = byoc_cli_usage(err, argv[optind - 1], "needs a value");
            goto out;
        default:
            rc = byoc_cli_usage(err, "permit", "unknown flag '%s' (see byoc permit --help)", argv[optind - 1]);
            goto out;
        }
    }
    if (argc - optind != 1) {
        rc = argc - optind == 0 ? byoc_cli_usage(err, "permit", "which repository? byoc permit REPOSITORY ...")
                                : byoc_cli_usage(err, "permit", "takes one repository (got '%s' and '%s')",
                                                 argv[optind], argv[optind + 1]);
        goto out;
    }
    if (check && (allow.n || revoke.n || o.dry_run || o.force)) {
        rc = byoc_cli_usage(err, "--check", "checks only; run --allow/--revoke separately");
        goto out;
    }
    o.repository = argv[optind];
    o.allow = allow.v;
    o.n_allow = allow.n;
    o.revoke = revoke.v;
    o.n_revoke = revoke.n;

    byoc_aws_client *client = NULL;
    byoc_aws_config_opts copts = {.profile = g->profile, .region = g->region};
    if (byoc_aws_client_new(&copts, &client, err) != 0) {
        rc = byoc_err_exit_code(err->kind);
        goto out;
    }
    byoc_permit_job *job = byoc_permit_job_new(client, &o, check);
    void *result = NULL;
    void (*result_free)(void *) = NULL;
    int r = byoc_task_run_sync("permit", check ? byoc_permit_check_task : byoc_permit_edit_task, job, &result,
                               &result_free, err, print_log, NULL);
    if (r != 0)
        rc = byoc_err_exit_code(err->kind);
    else
        rc = check ? show_check(g, result) : show_edit(g, &o, result);
    if (result_free)
        result_free(result);
    byoc_permit_job_free(job);
    byoc_aws_client_free(client);
out:
    free(allow.v);
    free(revoke.v);
    return rc;
}
