/* standin_jobs.h: Braket jobs on the test topology's stand-in (tests/topology/braket_standin.py)
 * and their log lines in moto's CloudWatch Logs, for the tests of the Monitor's jobs module
 * (test_monitor_task.c, test_monitor_model.c): CreateJob with byoc's own signed call, job
 * states moved with the stand-in's control API, log events written with PutLogEvents.
 * Header-only (static functions): each integration test is one source file. */
#ifndef BYOC_TEST_STANDIN_JOBS_H
#define BYOC_TEST_STANDIN_JOBS_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "aws/braket.h"
#include "aws/client.h"
#include "aws/logs.h"
#include "check.h"
#include "net/http.h"

static void print_err(const char *what, const byoc_err *err)
{
    char buf[1024];
    fprintf(stderr, "%s: %s\n", what, byoc_err_format(err, buf, sizeof buf));
}

/* POST the stand-in's control API (no signature). */
static int control_post(const char *path, const char *body)
{
    char url[512];
    snprintf(url, sizeof url, "%s%s", check_env("BYOC_STANDIN_CONTROL"), path);
    byoc_http_req req = {.method = "POST", .url = url, .body = body, .body_len = strlen(body)};
    byoc_headers_add(&req.headers, "Content-Type", "application/json");
    byoc_http_resp resp;
    memset(&resp, 0, sizeof resp);
    byoc_err err;
    int rc = byoc_http_do(&req, &resp, &err);
    long status = resp.status;
    byoc_headers_clear(&req.headers);
    byoc_http_resp_clear(&resp);
    return rc == 0 && status == 200 ? 0 : -1;
}

static int set_status(const char *name, const char *status)
{
    char path[256], body[128];
    snprintf(path, sizeof path, "/jobs/%s/set-status", name);
    snprintf(body, sizeof body, "{\"status\": \"%s\"}", status);
    return control_post(path, body);
}

static char *create_job(byoc_aws_client *c, const char *name, int instances)
{
    json_t *req = json_pack(
        "{s:s, s:s, s:s, s:{s:{s:s, s:s, s:s}, s:{s:s}}, s:{s:s}, s:{s:s, s:i, s:i}, s:{s:s}}", "clientToken", name,
        "jobName", name, "roleArn", "arn:aws:iam::123456789012:role/AmazonBraketJobsExecutionRole",
        "algorithmSpecification", "scriptModeConfig", "entryPoint", "algo.main", "s3Uri",
        "s3://bucket/src/source.tar.gz", "compressionType", "GZIP", "containerImage", "uri",
        "123456789012.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-byoc:latest", "outputDataConfig", "s3Path",
        "s3://bucket/out", "instanceConfig", "instanceType", "ml.m5.large", "volumeSizeInGb", 30, "instanceCount",
        instances, "deviceConfig", "device", "arn:aws:braket:::device/quantum-simulator/amazon/sv1");
    char *arn = NULL;
    byoc_err err;
    if (byoc_braket_create_job(c, NULL, req, &arn, &err) != 0)
        print_err("CreateJob", &err);
    json_decref(req);
    if (arn)
        set_status(name, "RUNNING");
    return arn;
}

static int logs_call(byoc_aws_client *c, const char *op, json_t *body)
{
    char target[64];
    snprintf(target, sizeof target, "Logs_20140328.%s", op);
    json_t *out = NULL;
    byoc_err err;
    int rc = byoc_aws_json_call(c, NULL, BYOC_AWS_LOGS, target, body, &out, &err);
    if (rc && strcmp(err.code, "ResourceAlreadyExistsException") != 0)
        print_err(op, &err);
    json_decref(out);
    json_decref(body);
    return rc;
}

static void put_lines(byoc_aws_client *c, const char *stream, int from, int to, int64_t t0)
{
    json_t *events = json_array();
    char msg[128];
    for (int i = from; i < to; i++) {
        if (i % 2)
            snprintf(msg, sizeof msg, "Metrics - timestamp=%d; loss=%d; iteration_number=%d;", 1700000000 + i,
                     100 - i, i);
        else
            snprintf(msg, sizeof msg, "line %d", i);
        json_array_append_new(events, json_pack("{s:I, s:s}", "timestamp", (json_int_t)(t0 + i), "message", msg));
    }
    logs_call(c, "PutLogEvents",
              json_pack("{s:s, s:s, s:o}", "logGroupName", BYOC_LOGS_BRAKET_JOBS_GROUP, "logStreamName", stream,
                        "logEvents", events));
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A RUNNING one-instance job named name, with an empty log stream (its name into stream) under
 * CloudWatch's Braket jobs group, as a job's first instance writes it. NULL if CreateJob failed. */
static char *create_logged_job(byoc_aws_client *c, const char *name, const char *run_id, char *stream,
                               size_t size)
{
    char *arn = create_job(c, name, 1);
    CHECK(arn != NULL);
    if (!arn)
        return NULL;
    logs_call(c, "CreateLogGroup", json_pack("{s:s}", "logGroupName", BYOC_LOGS_BRAKET_JOBS_GROUP));
    snprintf(stream, size, "%s/%s/algo-1-1700000000", name, run_id);
    logs_call(c, "CreateLogStream",
              json_pack("{s:s, s:s}", "logGroupName", BYOC_LOGS_BRAKET_JOBS_GROUP, "logStreamName", stream));
    return arn;
}

#endif
