/* jobs_args: what the jobs tasks share with their starter (jobs.h): the
 * arguments, with the task's own client reference, and the watch's metrics;
 * and the job reference they resolve, or open for a verb. */
#include "byoc/jobs.h"

#include <stdlib.h>

#include "byoc/jobref.h"
#include "byoc/localjobs.h"
#include "core/str.h"

byoc_jobs_shared *byoc_jobs_shared_new(void)
{
    byoc_jobs_shared *s = byoc_xcalloc(1, sizeof *s);
    atomic_init(&s->refs, 1);
    atomic_init(&s->poke, 0);
    s->metrics = byoc_metrics_new(32, 2000);
    return s;
}

byoc_jobs_shared *byoc_jobs_shared_ref(byoc_jobs_shared *s)
{
    atomic_fetch_add(&s->refs, 1);
    return s;
}

void byoc_jobs_shared_unref(byoc_jobs_shared *s)
{
    if (s && atomic_fetch_sub(&s->refs, 1) == 1) {
        byoc_metrics_free(s->metrics);
        free(s);
    }
}

byoc_jobs_args *byoc_jobs_args_new(byoc_aws_client *c, const char *job)
{
    byoc_jobs_args *a = byoc_xcalloc(1, sizeof *a);
    a->client = c ? byoc_aws_client_ref(c) : NULL;
    a->job = byoc_xstrdup_opt(job);
    return a;
}

byoc_jobs_args *byoc_jobs_args_pooled(byoc_aws_clients *clients, byoc_engines *engines, const char *profile,
                                      const char *region, const char *job)
{
    byoc_jobs_args *a = byoc_jobs_args_new(NULL, job);
    a->engines = engines;
    if (job && byoc_local_job_is_ref(job))
        return a;
    a->clients = clients;
    a->profile = byoc_xstrdup_opt(profile);
    a->region = byoc_jobref_region(region, job);
    return a;
}

void byoc_jobs_args_take_client(byoc_jobs_args *a)
{
    if (a->client || !a->clients)
        return;
    byoc_aws_config_opts o = {.profile = a->profile, .region = a->region};
    byoc_err_clear(&a->client_err);
    byoc_aws_clients_get(a->clients, &o, &a->client, &a->client_err);
}

void byoc_jobs_args_free(void *args)
{
    byoc_jobs_args *a = args;
    if (!a)
        return;
    byoc_aws_client_free(a->client);
    free(a->profile);
    free(a->region);
    free(a->job);
    free(a->dest);
    byoc_jobs_lister_unref(a->lister);
    byoc_jobs_shared_unref(a->shared);
    free(a);
}

int byoc_jobs_resolve(const byoc_jobs_args *a, byoc_task *t, const char *what, char **arn, byoc_err *err)
{
    *arn = NULL;
    if (!a->client) {
        if (a->client_err.kind == BYOC_OK)
            return byoc_err_set(err, BYOC_E_USAGE, what, "no AWS client");
        *err = a->client_err;
        return -1;
    }
    return byoc_jobref_resolve(a->client, t, a->job, arn, err) == 0 ? 0 : -1;
}

int byoc_jobs_open(const char *profile, const char *region, const char *ref, byoc_task *t, byoc_jobs_args **out,
                   byoc_err *err)
{
    *out = NULL;
    if (ref && byoc_local_job_is_ref(ref)) {
        *out = byoc_jobs_args_new(NULL, ref);
        return 0;
    }
    byoc_aws_client *c = NULL;
    char *arn = NULL;
    int rc;
    if (ref) {
        rc = byoc_jobref_open(profile, region, ref, t, &c, &arn, err);
    } else {
        byoc_aws_config_opts o = {.profile = profile, .region = region};
        rc = byoc_aws_client_new(&o, &c, err);
    }
    if (rc != 0)
        return -1;
    *out = byoc_jobs_args_new(c, arn);
    byoc_aws_client_free(c);   /* the args hold their own */
    free(arn);
    return 0;
}
