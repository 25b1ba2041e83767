/* braket: the Amazon Braket operations byoc uses (rest-json, SigV4 "braket"),
 * through an aws/client.h client: CreateJob, GetJob (with QueueInfo),
 * CancelJob, SearchJobs, GetDevice, SearchDevices. Replies are returned as
 * the service's JSON objects (jansson); callers json_decref them.
 *
 * Path labels (job and device ARNs) are encoded whole. CreateJob's body
 * carries its clientToken, so the core's retries (same body) are idempotent. */
#ifndef BYOC_AWS_BRAKET_H
#define BYOC_AWS_BRAKET_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "aws/client.h"
#include "core/err.h"
#include "core/task.h"

/* QUEUED RUNNING COMPLETED FAILED CANCELLING CANCELLED */
bool byoc_braket_status_terminal(const char *status);   /* COMPLETED, FAILED, CANCELLED */
bool byoc_braket_status_failed(const char *status);     /* FAILED, CANCELLED */

/* POST /job (201). *job_arn (malloc'd) from the reply. */
int byoc_braket_create_job(byoc_aws_client *c, byoc_task *t, json_t *request, char **job_arn, byoc_err *err);

/* GET /job/{jobArn}[?additionalAttributeNames=QueueInfo]. */
int byoc_braket_get_job(byoc_aws_client *c, byoc_task *t, const char *job_arn, bool queue_info, json_t **out,
                        byoc_err *err);

/* PUT /job/{jobArn}/cancel. status (may be NULL, >= 32 bytes) gets cancellationStatus. */
int byoc_braket_cancel_job(byoc_aws_client *c, byoc_task *t, const char *job_arn, char *status, byoc_err *err);

/* One SearchJobs filter {"name", "operator", "values"}: operator is one of
 * LT LTE EQUAL GT GTE BETWEEN CONTAINS. Append it to a json_array. */
json_t *byoc_braket_job_filter(const char *name, const char *op, const char *const *values, size_t n_values);
/* One SearchDevices filter {"name", "values"}. */
json_t *byoc_braket_device_filter(const char *name, const char *const *values, size_t n_values);

/* POST /jobs: one page. filters: a json array (NULL: []); max_results 0: the
 * service default; next_token may be NULL. *page = {"jobs": [...], "nextToken"?}. */
int byoc_braket_search_jobs(byoc_aws_client *c, byoc_task *t, json_t *filters, int max_results,
                            const char *next_token, json_t **page, byoc_err *err);
/* The same page as its reply, unparsed (0 on a 2xx; *reply to free with byoc_aws_response_clear),
 * for a reader that streams it (byoc/jobs_page.h). */
int byoc_braket_search_jobs_reply(byoc_aws_client *c, byoc_task *t, json_t *filters, int max_results,
                                  const char *next_token, byoc_aws_response *reply, byoc_err *err);
/* Every page, up to max_total jobs (0: all). *jobs = the job summaries, newest first as the service orders them. */
int byoc_braket_search_jobs_all(byoc_aws_client *c, byoc_task *t, json_t *filters, size_t max_total, json_t **jobs,
                                byoc_err *err);

/* GET /device/{deviceArn}. */
int byoc_braket_get_device(byoc_aws_client *c, byoc_task *t, const char *device_arn, json_t **out, byoc_err *err);

/* POST /devices: one page / every page (up to max_total, 0: all). */
int byoc_braket_search_devices(byoc_aws_client *c, byoc_task *t, json_t *filters, int max_results,
                               const char *next_token, json_t **page, byoc_err *err);
int byoc_braket_search_devices_all(byoc_aws_client *c, byoc_task *t, json_t *filters, size_t max_total,
                                   json_t **devices, byoc_err *err);

/* The region field of a Braket ARN (job or device); malloc'd, "" when absent. */
char *byoc_braket_arn_region(const char *arn);

#endif
