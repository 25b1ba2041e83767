/* byoc vendor: the project's private dependencies into its build context (byoc/vendor.h), as a
 * task so that Ctrl-C cancels a clone and leaves nothing of it behind. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "byoc/project.h"
#include "byoc/vendor.h"
#include "cli_task.h"
#include "core/buf.h"
#include "core/files.h"
#include "core/log.h"
#include "verbs.h"

BYOC_TASK_FREE(vendor_result_release, byoc_vendor_result, byoc_vendor_result_clear)

static int vendor_fn(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    byoc_vendor_result *r = byoc_xcalloc(1, sizeof *r);
    if (byoc_vendor_project(arg, t, r, err) != 0) {
        vendor_result_release(r);
        return -1;
    }
    *result = r;
    *result_free = vendor_result_release;
    return 0;
}

static void print_status(void *ud, const byoc_event *ev)
{
    (void)ud;
    if (ev->kind == BYOC_EV_STATUS && ev->text)
        byoc_log(BYOC_LOG_INFO, "%s", ev->text);
}

static json_t *strv_json(const byoc_strv *v)
{
    json_t *a = json_array();
    for (size_t i = 0; i < v->n; i++)
        json_array_append_new(a, json_string(v->v[i]));
    return a;
}

int verb_vendor(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    static const struct option opts[] = {{NULL, 0, NULL, 0}};
    opterr = 0;
    if (getopt_long(argc, argv, "", opts, NULL) != -1)
        return byoc_cli_usage(err, "vendor", "unknown flag '%s' (see byoc vendor --help)", argv[optind - 1]);
    if (argc - optind > 1)
        return byoc_cli_usage(err, "vendor", "takes one directory (got '%s' and '%s')", argv[optind], argv[optind + 1]);
    const char *dir = optind < argc ? argv[optind] : g->project_dir;
    if (!byoc_path_is_dir(dir))
        return byoc_cli_usage(err, "vendor", "%s is not a directory", dir);
    byoc_project proj;
    if (byoc_project_load(&proj, dir, NULL, err) != 0)
        return byoc_err_exit_code(err->kind);
    char *ctx = byoc_path_join(dir, proj.context);
    byoc_project_clear(&proj);
    void *res = NULL;
    int rc = byoc_cli_run_task("vendor", vendor_fn, ctx, free, print_status, NULL, &res, err);
    if (rc != 0)
        return byoc_err_exit_code(err->kind);
    byoc_vendor_result *r = res;
    if (g->json) {
        json_t *doc = json_object();
        json_object_set_new(doc, "vendored", strv_json(&r->vendored));
        json_object_set_new(doc, "kept", strv_json(&r->kept));
        json_object_set_new(doc, "skipped", strv_json(&r->skipped));
        json_object_set_new(doc, "requirements", r->requirements ? json_string(r->requirements) : json_null());
        byoc_cli_print_json(doc);
    } else {
        for (size_t i = 0; i < r->vendored.n; i++)
            printf("vendored %s into " BYOC_VENDOR_DIR "/%s/\n", r->vendored.v[i], r->vendored.v[i]);
        for (size_t i = 0; i < r->kept.n; i++)
            printf("kept " BYOC_VENDOR_DIR "/%s/: already there (remove it to fetch again)\n", r->kept.v[i]);
        for (size_t i = 0; i < r->skipped.n; i++)
            printf("skipped %s\n", r->skipped.v[i]);
        if (r->requirements)
            printf("wrote %s: the image installs from it\n", r->requirements);
        else if (!r->skipped.n)
            printf("no private git dependency in requirements.txt: nothing to vendor\n");
    }
    vendor_result_release(r);
    return 0;
}
