/* localrun_run: the helpers every part of a local run uses (localrun_run.h). */
#include "byoc/localrun_run.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

void lr_warn(run *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    byoc_task_log(r->t, "warning: %s", byoc_buf_str(&b));
    byoc_strv_push(&r->out->warnings, byoc_buf_str(&b));
    byoc_buf_clear(&b);
}

void lr_record(run *r)
{
    byoc_local_job *j = &r->record;
    byoc_str_set(&j->name, r->out->job_name);
    if (!j->created)
        byoc_str_set(&j->created, r->created);
    byoc_str_set(&j->image, r->out->image);
    byoc_str_set(&j->image_id, r->out->image_id);
    byoc_str_set(&j->device, r->device);
    byoc_str_set(&j->status, r->out->status ? r->out->status : "RUNNING");
    byoc_str_set(&j->output_dir, r->out->output_dir);
    byoc_str_set(&j->container_id, r->out->container_id);
    byoc_str_set(&j->failure_reason, r->out->failure_reason);
    j->has_exit_code = r->out->has_exit_code;
    j->exit_code = r->out->exit_code;
    j->has_first_output = r->out->has_first_output;
    j->first_output_seconds = r->out->first_output_seconds;
    j->pid = r->out->status ? 0 : (long)getpid();
    if (r->out->status) {
        char now[32];
        byoc_local_job_now(now, sizeof now);
        byoc_str_set(&j->ended, now);
    }
    byoc_err e;
    if (byoc_localjobs_put(r->opts->jobs_file, j, &e) != 0)
        lr_warn(r, "the local job record was not updated: %s", e.message);
}

bool lr_is_s3(const char *s) { return strncasecmp(s, "s3://", 5) == 0 || strncmp(s, "https://", 8) == 0; }


bool lr_safe_relative(const char *rel)
{
    if (!*rel || rel[0] == '/')
        return false;
    for (const char *s = rel; *s;) {
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
            return false;
        s += n + (e ? 1 : 0);
    }
    return true;
}

void lr_add_env(run *r, const char *key, const char *value)
{
    byoc_strv_push_owned(&r->env, byoc_xasprintf("%s=%s", key, value));
}
