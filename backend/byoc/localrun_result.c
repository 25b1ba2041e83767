/* localrun_result: a local run's result (localrun_result.h). */
#include "byoc/localrun_result.h"

#include <stdlib.h>
#include <string.h>

void byoc_local_run_result_clear(byoc_local_run_result *r)
{
    if (!r)
        return;
    free(r->job_name);
    free(r->job_arn);
    free(r->image);
    free(r->image_id);
    free(r->container_id);
    free(r->status);
    free(r->failure_reason);
    free(r->output_dir);
    free(r->log_path);
    free(r->source_uri);
    byoc_strv_clear(&r->warnings);
    byoc_strv_clear(&r->not_copied);
    byoc_job_problems_clear(&r->problems);
    memset(r, 0, sizeof *r);
}

json_t *byoc_local_run_result_json(const byoc_local_run_result *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "job_arn", r->job_arn ? json_string(r->job_arn) : json_null());
    json_object_set_new(o, "job_name", r->job_name ? json_string(r->job_name) : json_null());
    json_object_set_new(o, "status", r->status ? json_string(r->status) : json_null());
    json_object_set_new(o, "output_dir", r->output_dir ? json_string(r->output_dir) : json_null());
    json_object_set_new(o, "exit_code", r->has_exit_code ? json_integer(r->exit_code) : json_null());
    if (r->failure_reason)
        json_object_set_new(o, "failure_reason", json_string(r->failure_reason));
    json_object_set_new(o, "image", r->image ? json_string(r->image) : json_null());
    json_object_set_new(o, "log", r->log_path ? json_string(r->log_path) : json_null());
    json_object_set_new(o, "source_uri", r->source_uri ? json_string(r->source_uri) : json_null());
    json_object_set_new(o, "first_output_seconds",
                        r->has_first_output ? json_real(r->first_output_seconds) : json_null());
    json_t *w = json_array();
    for (size_t i = 0; i < r->warnings.n; i++)
        json_array_append_new(w, json_string(r->warnings.v[i]));
    json_object_set_new(o, "warnings", w);
    json_t *nc = json_array();
    for (size_t i = 0; i < r->not_copied.n; i++)
        json_array_append_new(nc, json_string(r->not_copied.v[i]));
    json_object_set_new(o, "not_copied", nc);
    return o;
}
