#include "byoc/jobref.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws/braket.h"
#include "aws/pager.h"
#include "byoc/jobs_page.h"
#include "core/buf.h"
#include "core/jsonprint.h"
#include "core/log.h"
#include "core/utf8.h"

/* ---- references ----------------------------------------------------------------- */

static bool all_digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return false;
    return n > 0;
}

/* arn:<partition>:braket:<region>:<12 digits>:job/<id>, or local:job/<name> (local mode). */
static bool byoc_jobref_is_arn(const char *s)
{
    if (!s)
        return false;
    if (strncmp(s, "local:job/", 10) == 0)
        return s[10] != '\0';
    if (strncmp(s, "arn:aws", 7) != 0)
        return false;
    /* arn:aws[a-z-]*:braket:<region>:<12 digits>:job/<id> */
    const char *p = s + 7;
    while (*p && *p != ':') {
        if (!(islower((unsigned char)*p) || *p == '-'))
            return false;
        p++;
    }
    if (strncmp(p, ":braket:", 8) != 0)
        return false;
    p += 8;
    const char *region = p;
    while (*p && *p != ':') {
        if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '-'))
            return false;
        p++;
    }
    if (p == region || *p != ':')
        return false;
    const char *account = ++p;
    p = strchr(p, ':');
    if (!p || p - account != 12 || !all_digits(account, 12))
        return false;
    return strncmp(p + 1, "job/", 4) == 0 && p[5] != '\0';
}

/* 1-50 of [A-Za-z0-9-], starting and ending alphanumeric (the service's rule). */
static bool byoc_jobref_is_name(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > BYOC_JOB_NAME_MAX || s[0] == '-' || s[n - 1] == '-')
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '-')
            return false;
    return true;
}

static bool refused_filter(const byoc_err *err, const char *filter)
{
    return strcmp(err->code, "ValidationException") == 0 && strstr(err->message, filter) != NULL;
}

typedef struct arns {
    char **v;
    size_t n;
} arns;

/* Add the ARN of every job in jobs named exactly name. */
static void arns_add_matches(arns *a, const json_t *jobs, const char *name)
{
    size_t i;
    json_t *j;
    json_array_foreach(jobs, i, j)
    {
        const char *jn = json_string_value(json_object_get(j, "jobName"));
        const char *arn = json_string_value(json_object_get(j, "jobArn"));
        if (!jn || !arn || strcmp(jn, name) != 0)
            continue;
        bool dup = false;
        for (size_t k = 0; k < a->n; k++)
            dup |= strcmp(a->v[k], arn) == 0;
        if (dup)
            continue;
        a->v = byoc_xrealloc(a->v, (a->n + 1) * sizeof *a->v);
        a->v[a->n++] = byoc_xstrdup(arn);
    }
}

static void arns_free(arns *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
}

int byoc_jobref_resolve(byoc_aws_client *c, byoc_task *t, const char *ref, char **arn, byoc_err *err)
{
    *arn = NULL;
    if (byoc_jobref_is_arn(ref)) {
        *arn = byoc_xstrdup(ref);
        return 0;
    }
    if (!byoc_jobref_is_name(ref))
        return byoc_err_set(err, BYOC_E_USAGE, "JOB",
                            "'%s' is neither a job ARN (arn:aws:braket:<region>:<account>:job/...) nor a job name "
                            "(1-50 letters, digits and hyphens)",
                            ref);
    arns found = {0};
    json_t *filters = json_array();
    json_array_append_new(filters, byoc_braket_job_filter("jobName", "EQUAL", &ref, 1));
    json_t *jobs = NULL;
    int rc = byoc_braket_search_jobs_all(c, t, filters, 10, &jobs, err);
    json_decref(filters);
    bool scanned = false;
    if (rc != 0 && refused_filter(err, "jobName")) {
        byoc_log(BYOC_LOG_INFO, "SearchJobs refused the jobName filter; scanning the %d most recent jobs",
                 BYOC_JOBREF_SCAN_MAX);
        byoc_err_clear(err);
        scanned = true;
        rc = byoc_braket_search_jobs_all(c, t, NULL, BYOC_JOBREF_SCAN_MAX, &jobs, err);
    }
    if (rc != 0)
        return -1;
    arns_add_matches(&found, jobs, ref);
    json_decref(jobs);
    if (found.n == 1) {
        *arn = found.v[0];
        found.v[0] = NULL;
        found.n = 0;
    } else if (found.n == 0) {
        const char *region = byoc_aws_client_region(c);
        char among[64] = "";
        if (scanned)
            snprintf(among, sizeof among, " (among the %d most recent jobs)", BYOC_JOBREF_SCAN_MAX);
        rc = byoc_err_set(err, BYOC_E_FAILED, "JOB",
                          "no job named '%s' in %s%s; check the name and --region, or pass the ARN", ref,
                          region ? region : "this region", among);
    } else {
        byoc_buf list = BYOC_BUF_INIT;
        for (size_t i = 0; i < found.n && i < 5; i++)
            byoc_buf_printf(&list, "%s%s", i ? ", " : "", found.v[i]);
        rc = byoc_err_set(err, BYOC_E_FAILED, "JOB", "%zu jobs are named '%s' (%s): pass the ARN", found.n, ref,
                          byoc_buf_str(&list));
        byoc_buf_clear(&list);
    }
    arns_free(&found);
    return rc;
}

char *byoc_jobref_region(const char *region, const char *ref)
{
    if (region)
        return byoc_xstrdup(region);
    if (!ref || !byoc_jobref_is_arn(ref) || strncmp(ref, "arn:", 4) != 0)
        return NULL;
    char *arn_region = byoc_braket_arn_region(ref);
    if (!*arn_region) {
        free(arn_region);
        return NULL;
    }
    return arn_region;
}

int byoc_jobref_open(const char *profile, const char *region, const char *ref, byoc_task *t, byoc_aws_client **c,
                     char **arn, byoc_err *err)
{
    *c = NULL;
    *arn = NULL;
    char *in_region = byoc_jobref_region(region, ref);
    byoc_aws_config_opts o = {.profile = profile, .region = in_region};
    int rc = byoc_aws_client_new(&o, c, err);
    free(in_region);
    if (rc != 0)
        return -1;
    if (byoc_jobref_resolve(*c, t, ref, arn, err) != 0) {
        byoc_aws_client_free(*c);
        *c = NULL;
        return -1;
    }
    return 0;
}

/* ---- the job list ------------------------------------------------------------------ */

static const char *const STATUSES[] = {"QUEUED", "RUNNING", "COMPLETED", "FAILED", "CANCELLING", "CANCELLED"};

bool byoc_job_status_valid(const char *s)
{
    for (size_t i = 0; s && i < sizeof STATUSES / sizeof *STATUSES; i++)
        if (strcmp(s, STATUSES[i]) == 0)
            return true;
    return false;
}

/* The reply's own string (shared, not copied: a listing makes one per field of every job). */
static json_t *string_or_null(json_t *v)
{
    return json_is_string(v) ? json_incref(v) : json_null();
}

json_t *byoc_job_summary_json(const json_t *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "job_arn", string_or_null(json_object_get(s, "jobArn")));
    json_object_set_new(o, "job_name", string_or_null(json_object_get(s, "jobName")));
    json_object_set_new(o, "status", string_or_null(json_object_get(s, "status")));
    json_object_set_new(o, "created", string_or_null(json_object_get(s, "createdAt")));
    json_object_set_new(o, "device", string_or_null(json_object_get(s, "device")));
    return o;
}

static bool status_wanted(const byoc_job_query *q, const char *status)
{
    if (!q->n_statuses)
        return true;
    for (size_t i = 0; i < q->n_statuses; i++)
        if (status && strcmp(q->statuses[i], status) == 0)
            return true;
    return false;
}

/* Page through SearchJobs, handing each page's jobs that pass the local status
 * check to on_page, up to max in all; *given counts what on_page was handed. */
static int list_pages(byoc_aws_client *c, byoc_task *t, json_t *filters, const byoc_job_query *q, size_t max,
                      byoc_jobs_page_fn on_page, void *ud, size_t *given, byoc_err *err)
{
    byoc_aws_pager pager;
    byoc_aws_pager_init(&pager, "SearchJobs");
    json_t *kept = json_array();
    int rc = 0;
    for (;;) {
        /* with a local filter a page may keep few jobs: always ask for full pages */
        size_t left = max - *given;
        int size = filters || !q->n_statuses ? (left > 100 ? 100 : (int)left) : 100;
        byoc_aws_response reply;
        rc = byoc_braket_search_jobs_reply(c, t, filters, size, pager.token, &reply, err);
        byoc_jobs_page page = {0};
        if (rc == 0)
            rc = byoc_jobs_page_parse(reply.body.data, reply.body.len, left, &page, err);
        byoc_aws_response_clear(&reply);
        if (rc != 0)
            break;
        size_t i;
        json_t *j;
        json_array_foreach(page.summaries, i, j)
        {
            if (*given + json_array_size(kept) >= max)
                break;
            if (status_wanted(q, json_string_value(json_object_get(j, "status"))))
                json_array_append(kept, j);
        }
        *given += json_array_size(kept);
        int more = byoc_aws_pager_next(&pager, *given < max ? page.next_token : NULL, err);
        byoc_jobs_page_clear(&page);
        if (json_array_size(kept)) {
            rc = on_page(kept, ud, err);
            json_array_clear(kept);
        }
        if (rc == 0 && more < 0)
            rc = -1;
        if (rc != 0 || more == 0)
            break;
        if (byoc_task_cancelled(t)) {
            rc = byoc_err_set(err, BYOC_E_CANCELLED, "jobs", "cancelled");
            break;
        }
    }
    byoc_aws_pager_clear(&pager);
    json_decref(kept);
    return rc;
}

int byoc_jobs_each_page(byoc_aws_client *c, byoc_task *t, const byoc_job_query *q, byoc_jobs_page_fn on_page,
                        void *ud, byoc_err *err)
{
    size_t max = q->max ? q->max : 100, given = 0;
    json_t *filters = NULL;
    if (q->n_statuses) {
        filters = json_array();
        json_array_append_new(filters,
                              byoc_braket_job_filter("status", "EQUAL", (const char *const *)q->statuses,
                                                     q->n_statuses));
    }
    int rc = list_pages(c, t, filters, q, max, on_page, ud, &given, err);
    /* the service refuses a filter on the first page, before anything was handed out */
    if (rc != 0 && filters && !given && refused_filter(err, "status")) {
        byoc_log(BYOC_LOG_INFO, "SearchJobs refused the status filter; filtering locally");
        byoc_err_clear(err);
        rc = list_pages(c, t, NULL, q, max, on_page, ud, &given, err);
    }
    json_decref(filters);
    return rc;
}

static int append_page(const json_t *page, void *ud, byoc_err *err)
{
    (void)err;
    json_array_extend(ud, (json_t *)page);
    return 0;
}

int byoc_jobs_list(byoc_aws_client *c, byoc_task *t, const byoc_job_query *q, json_t **jobs, byoc_err *err)
{
    *jobs = json_array();
    int rc = byoc_jobs_each_page(c, t, q, append_page, *jobs, err);
    if (rc != 0) {
        json_decref(*jobs);
        *jobs = NULL;
    }
    return rc;
}

/* ---- one job -------------------------------------------------------------------------- */

static void copy_member(const json_t *o, const char *key, char *dst, size_t size)
{
    const char *v = json_string_value(json_object_get(o, key));
    byoc_utf8_copy(dst, size, v);
}

int byoc_job_info_from_json(const json_t *g, byoc_job_info *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    copy_member(g, "jobArn", out->arn, sizeof out->arn);
    copy_member(g, "jobName", out->name, sizeof out->name);
    copy_member(g, "status", out->status, sizeof out->status);
    if (!out->arn[0] || !out->name[0] || !out->status[0])
        return byoc_err_set(err, BYOC_E_FAILED, "braket", "GetJob: the reply lacks jobArn, jobName or status");
    copy_member(json_object_get(g, "deviceConfig"), "device", out->device, sizeof out->device);
    copy_member(g, "failureReason", out->failure_reason, sizeof out->failure_reason);
    copy_member(g, "createdAt", out->created, sizeof out->created);
    copy_member(g, "startedAt", out->started, sizeof out->started);
    copy_member(g, "endedAt", out->ended, sizeof out->ended);
    copy_member(json_object_get(g, "outputDataConfig"), "s3Path", out->output_s3_path, sizeof out->output_s3_path);
    json_t *count = json_object_get(json_object_get(g, "instanceConfig"), "instanceCount");
    out->instance_count = json_is_integer(count) && json_integer_value(count) > 0 ? (int)json_integer_value(count)
                                                                                   : 1;
    json_t *billable = json_object_get(g, "billableDuration");
    out->billable_duration = json_is_integer(billable) ? (long long)json_integer_value(billable) : -1;
    json_t *queue = json_object_get(g, "queueInfo");
    if (json_is_object(queue)) {
        out->has_queue = true;
        copy_member(queue, "queue", out->queue_name, sizeof out->queue_name);
        copy_member(queue, "position", out->queue_position, sizeof out->queue_position);
        if (strcmp(out->queue_position, "None") == 0)
            out->queue_position[0] = '\0';
        copy_member(queue, "message", out->queue_message, sizeof out->queue_message);
    }
    json_t *events = json_object_get(g, "events");
    out->events = json_is_array(events) ? json_deep_copy(events) : json_array();
    return 0;
}

void byoc_job_info_clear(byoc_job_info *j)
{
    if (!j)
        return;
    json_decref(j->events);
    j->events = NULL;
}

void byoc_job_info_printable(byoc_job_info *dst, const byoc_job_info *src)
{
    *dst = *src;
    char *fields[] = {dst->arn, dst->name, dst->status, dst->device, dst->failure_reason, dst->created,
                      dst->started, dst->ended, dst->output_s3_path, dst->queue_name, dst->queue_position,
                      dst->queue_message};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        byoc_printable_inplace(fields[i]);
    dst->events = src->events ? byoc_json_printable_copy(src->events) : json_array();
}

bool byoc_job_info_changed(const byoc_job_info *a, const byoc_job_info *b)
{
    return strcmp(a->status, b->status) != 0 || json_array_size(a->events) != json_array_size(b->events) ||
           strcmp(a->queue_position, b->queue_position) != 0 || strcmp(a->failure_reason, b->failure_reason) != 0;
}

int byoc_job_get(byoc_aws_client *c, byoc_task *t, const char *arn, byoc_job_info *info, byoc_err *err)
{
    json_t *reply = NULL;
    memset(info, 0, sizeof *info);
    if (byoc_braket_get_job(c, t, arn, true, &reply, err) != 0)
        return -1;
    int rc = byoc_job_info_from_json(reply, info, err);
    json_decref(reply);
    return rc;
}

static void set_string_if(json_t *o, const char *key, const char *v)
{
    if (v && *v)
        json_object_set_new(o, key, json_string(v));
}

json_t *byoc_job_status_json(const byoc_job_info *j, json_t *metrics)
{
    json_t *o = json_object();
    json_object_set_new(o, "job_arn", json_string(j->arn));
    json_object_set_new(o, "job_name", json_string(j->name));
    json_object_set_new(o, "status", json_string(j->status));
    json_t *events = json_array();
    size_t i;
    json_t *e;
    json_array_foreach(j->events, i, e)
    {
        json_t *x = json_object();
        json_object_set_new(x, "type", string_or_null(json_object_get(e, "eventType")));
        json_object_set_new(x, "time", string_or_null(json_object_get(e, "timeOfEvent")));
        set_string_if(x, "message", json_string_value(json_object_get(e, "message")));
        json_array_append_new(events, x);
    }
    json_object_set_new(o, "events", events);
    json_object_set_new(o, "failure_reason", j->failure_reason[0] ? json_string(j->failure_reason) : json_null());
    json_object_set_new(o, "metrics", metrics ? metrics : json_object());
    set_string_if(o, "created", j->created);
    set_string_if(o, "started", j->started);
    set_string_if(o, "ended", j->ended);
    set_string_if(o, "device", j->device);
    json_object_set_new(o, "instance_count", json_integer(j->instance_count));
    if (j->has_queue && (j->queue_position[0] || j->queue_message[0])) {
        json_t *q = json_object();
        set_string_if(q, "name", j->queue_name);
        set_string_if(q, "position", j->queue_position);
        set_string_if(q, "message", j->queue_message);
        json_object_set_new(o, "queue", q);
    }
    if (j->billable_duration >= 0)
        json_object_set_new(o, "billable_duration", json_integer(j->billable_duration));
    return o;
}

static int already_ended(const byoc_job_info *j, byoc_err *err)
{
    return byoc_err_set(err, BYOC_E_FAILED, "cancel", "job %s already ended (%s): nothing to cancel", j->name,
                        j->status);
}

int byoc_job_cancel(byoc_aws_client *c, byoc_task *t, const char *arn, char *status, byoc_err *err)
{
    status[0] = '\0';
    byoc_job_info j;
    if (byoc_job_get(c, t, arn, &j, err) != 0)
        return -1;
    int rc;
    if (byoc_braket_status_terminal(j.status)) {
        rc = already_ended(&j, err);
    } else if (byoc_braket_cancel_job(c, t, arn, status, err) == 0) {
        rc = 0;
    } else if (strcmp(err->code, "ConflictException") == 0) {
        /* it ended between our look and the cancel */
        byoc_err conflict = *err;
        byoc_job_info now;
        if (byoc_job_get(c, t, arn, &now, err) == 0 && byoc_braket_status_terminal(now.status))
            rc = already_ended(&now, err);
        else
            *err = conflict, rc = -1;
        byoc_job_info_clear(&now);
    } else {
        rc = -1;
    }
    byoc_job_info_clear(&j);
    return rc;
}
