/* localrun_aws: the AWS part of a local run (localrun_aws.h). */
#include "byoc/localrun_aws.h"

#include <errno.h>
#include <string.h>

#include "aws/sts_client.h"
#include "byoc/contract.h"
#include "byoc/jobsubmit.h"
#include "core/log.h"

/* ---- 3. AWS: upload, S3 input channels, credentials ---------------------------------------------- */

static bool needs_aws(const run *r)
{
    if (r->opts->upload || r->opts->with_credentials)
        return true;
    for (size_t i = 0; i < r->spec->n_channels; i++)
        if (lr_is_s3(r->spec->channels[i].location))
            return true;
    return false;
}

/* Source to <code location>/source.tar.gz, as AwsQuantumJob.create puts it. */
static int upload_source(run *r, byoc_err *err)
{
    byoc_task_status(r->t, "finding the account");
    byoc_sts_identity id;
    if (byoc_sts_get_caller_identity(r->aws, r->t, &id, err) != 0)
        return -1;
    char *bucket = byoc_job_default_bucket(r->region, id.account);
    byoc_job_resolved res = {.region = r->region, .bucket = bucket, .timestamp = r->timestamp,
                             .job_name = r->out->job_name, .image_uri = r->spec->image_uri};
    char *code = byoc_job_code_location(r->spec, &res);
    char *to = byoc_xasprintf("%s/source.tar.gz", code);
    r->output_s3 = r->spec->output_s3 ? byoc_xstrdup(r->spec->output_s3) : byoc_job_default_s3(&res, "data");
    char *db = NULL, *dk = NULL;
    int rc = 0;
    if (byoc_s3_parse_uri(to, &db, &dk) != 0)
        rc = byoc_err_set(err, BYOC_E_USAGE, r->spec->code_location ? "--code-location" : "--source-module",
                          "cannot upload to '%s': it must be s3://<bucket>/<key>", to);
    if (rc == 0 && !r->spec->code_location) {
        byoc_task_status(r->t, "checking bucket %s", bucket);
        rc = byoc_job_ensure_bucket(r->aws, r->t, bucket, r->region, err);
    }
    if (rc == 0 && r->archive_path) {
        byoc_task_log(r->t, "uploading source.tar.gz -> %s", to);
        byoc_s3_upload_opts o = {.progress_key = to};
        rc = byoc_s3_upload_file(r->aws, r->t, db, dk, r->archive_path, &o, NULL, err);
    } else if (rc == 0) {
        char *sb = NULL, *sk = NULL;
        if (byoc_s3_parse_uri(r->spec->source_module, &sb, &sk) != 0) {
            rc = byoc_err_set(err, BYOC_E_USAGE, "--source-module", "'%s' is not an s3://bucket/key URI",
                              r->spec->source_module);
        } else if (strcmp(r->spec->source_module, to) != 0) {
            byoc_task_log(r->t, "copying %s -> %s", r->spec->source_module, to);
            rc = byoc_s3_copy_object(r->aws, r->t, sb, sk, db, dk, err);
        }
        free(sb);
        free(sk);
    }
    if (rc == 0)
        r->out->source_uri = byoc_xstrdup(to);
    free(db);
    free(dk);
    free(to);
    free(code);
    free(bucket);
    return rc;
}

static int mkdir_parents(const char *file_path)
{
    char *dir = byoc_xstrdup(file_path);
    char *slash = strrchr(dir, '/');
    int rc = 0;
    if (slash && slash != dir) {
        *slash = '\0';
        rc = byoc_mkdir_p(dir, 0700);
    }
    free(dir);
    return rc;
}

/* An s3:// channel, downloaded as LocalQuantumJob does: a "directory" prefix
 * gives its contents, another prefix paths relative to its parent. */
static int download_channel(run *r, const byoc_job_channel *c, byoc_err *err)
{
    char *bucket = NULL, *prefix = NULL;
    if (byoc_s3_parse_uri(c->location, &bucket, &prefix) != 0)
        return byoc_err_set(err, BYOC_E_USAGE, "--input-data", "'%s' is not an s3://bucket/key URI", c->location);
    byoc_s3_object *objs = NULL;
    size_t n = 0;
    byoc_task_status(r->t, "listing %s", c->location);
    int rc = byoc_s3_list_objects(r->aws, r->t, bucket, prefix, 0, &objs, &n, err);
    size_t plen = strlen(prefix);
    bool is_dir = plen && prefix[plen - 1] == '/';
    if (!is_dir) {
        is_dir = true;
        for (size_t i = 0; i < n && is_dir; i++)
            is_dir = strncmp(objs[i].key, prefix, plen) == 0 && objs[i].key[plen] == '/';
    }
    const char *slash = strrchr(prefix, '/');
    size_t top = is_dir ? plen : (slash ? (size_t)(slash - prefix) : 0);
    size_t found = 0;
    char *base = byoc_contract_channel_dir(c->name);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const char *k = objs[i].key;
        size_t kl = strlen(k);
        if (kl && k[kl - 1] == '/')
            continue;
        const char *rel = k + top;
        while (*rel == '/')
            rel++;
        if (!lr_safe_relative(rel)) {
            lr_warn(r, "skipped s3://%s/%s: its key does not make a safe path in the container", bucket, k);
            continue;
        }
        char *local = byoc_xasprintf("%s/%s/%s", r->stage_dir, c->name, rel);
        if (mkdir_parents(local) != 0) {
            rc = byoc_err_set(err, BYOC_E_ENV, "input data", "cannot create a directory for %s: %s", local,
                              strerror(errno));
        } else {
            byoc_task_log(r->t, "downloading s3://%s/%s", bucket, k);
            rc = byoc_s3_get_object_to_file(r->aws, r->t, bucket, k, local, NULL, err); /* the disk bounds it */
        }
        if (rc == 0) {
            byoc_put_list_add_dir_chain(&r->files, base, rel);
            char *path = byoc_xasprintf("%s/%s", base, rel);
            byoc_put_list_add(&r->files, BYOC_PUT_FILE, path, local, NULL, 0);
            free(path);
            found++;
        }
        free(local);
    }
    if (rc == 0 && found == 0)
        rc = byoc_err_set(err, BYOC_E_USAGE, "--input-data", "no data found for channel %s under %s", c->name,
                          c->location);
    free(base);
    byoc_s3_objects_free(objs, n);
    free(bucket);
    free(prefix);
    return rc;
}

static int pass_credentials(run *r, byoc_err *err)
{
    byoc_aws_creds creds = {0};
    byoc_aws_creds_info info;
    byoc_task_status(r->t, "reading AWS credentials");
    if (byoc_aws_client_credentials(r->aws, r->t, &creds, &info, err) != 0)
        return -1;
    lr_add_env(r, "AWS_ACCESS_KEY_ID", creds.access_key_id);
    lr_add_env(r, "AWS_SECRET_ACCESS_KEY", creds.secret_access_key);
    if (creds.session_token)
        lr_add_env(r, "AWS_SESSION_TOKEN", creds.session_token);
    if (creds.expiration) {
        char when[40];
        struct tm tm;
        gmtime_r(&creds.expiration, &tm);
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
        lr_warn(r, "the AWS credentials passed to the job are temporary and expire at %s; the job cannot renew them",
             when);
    }
    byoc_aws_creds_clear(&creds);
    return 0;
}

int lr_aws_phase(run *r, byoc_err *err)
{
    bool needed = needs_aws(r);
    byoc_err quiet;
    if (byoc_aws_clients_get(r->opts->clients, &r->opts->aws, &r->aws, needed ? err : &quiet) != 0)
        return needed ? -1 : 0; /* a plain local run needs no AWS configuration */
    const char *region = byoc_aws_client_region(r->aws);
    r->region = region ? byoc_xstrdup(region) : NULL;
    if (!needed)
        return 0;
    if (!r->region && (r->opts->upload || r->opts->with_credentials))
        return byoc_err_set(err, BYOC_E_ENV, "region",
                            "no AWS region: pass --region or set AWS_REGION or the profile's region");
    int rc = 0;
    if (r->opts->upload)
        rc = upload_source(r, err);
    for (size_t i = 0; rc == 0 && i < r->spec->n_channels; i++) {
        const byoc_job_channel *c = &r->spec->channels[i];
        if (!lr_is_s3(c->location))
            continue;
        if (!r->stage_dir) {
            const char *tmp = getenv("TMPDIR");
            r->stage_dir = byoc_xasprintf("%s/byoc-local-XXXXXX", tmp && *tmp ? tmp : "/tmp");
            if (!mkdtemp(r->stage_dir)) {
                rc = byoc_err_set(err, BYOC_E_ENV, "input data", "cannot create a temporary directory: %s",
                                  strerror(errno));
                byoc_str_set(&r->stage_dir, NULL);
                break;
            }
        }
        rc = download_channel(r, c, err);
    }
    if (rc == 0 && r->opts->with_credentials)
        rc = pass_credentials(r, err);
    return rc;
}
