/* localrun_files: the files put into the container (localrun_files.h): the
 * contract's (contract.h), and the local input channels' contents. */
#include "byoc/localrun_files.h"

#include <string.h>

#include "byoc/contract.h"
#include "byoc/jobspec_files.h"
#include "docker/container_files.h"

/* ---- 4. the files put into the container --------------------------------------------------------- */

/* A local channel, laid out as the SDK's upload and download would lay it out. */
static int add_local_channel(run *r, const byoc_job_channel *c, byoc_err *err)
{
    char *name = byoc_job_path_name(c->location);
    byoc_job_local_file *files = NULL;
    size_t n = 0;
    char why[600];
    if (byoc_job_local_input_files(c->location, name, &files, &n, why, sizeof why) != 0) {
        free(name);
        return byoc_err_set(err, BYOC_E_USAGE, "--input-data", "%s", why);
    }
    size_t nl = strlen(name);
    bool is_dir = n > 0;
    for (size_t i = 0; i < n && is_dir; i++)
        is_dir = strncmp(files[i].s3_uri, name, nl) == 0 && files[i].s3_uri[nl] == '/';
    char *base = byoc_contract_channel_dir(c->name);
    byoc_put_list_add_dir(&r->files, base);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        const char *rel = files[i].s3_uri + (is_dir ? nl + 1 : 0);
        if (!lr_safe_relative(rel)) {
            lr_warn(r, "skipped %s: it does not make a safe path in the container", files[i].path);
            continue;
        }
        byoc_put_list_add_dir_chain(&r->files, base, rel);
        char *path = byoc_xasprintf("%s/%s", base, rel);
        byoc_put_list_add(&r->files, BYOC_PUT_FILE, path, files[i].path, NULL, 0);
        free(path);
    }
    if (n == 0)
        rc = byoc_err_set(err, BYOC_E_USAGE, "--input-data", "no local file matches '%s'", c->location);
    free(base);
    byoc_job_local_files_free(files, n);
    free(name);
    return rc;
}

/* The contract's environment and files (contract.h), then the contents of the local channels. */
int lr_plan_files(run *r, byoc_err *err)
{
    const byoc_jobspec *s = r->spec;
    byoc_contract_inputs in = {
        .spec = s,
        .job_name = r->out->job_name,
        .source_uri = r->out->source_uri,
        .entry_point = r->entry_point,
        .device = r->device,
        .checkpoint_dir = r->checkpoint_dir,
        .output_s3 = r->output_s3,
        .region = r->region,
        .source_archive = r->archive_path,
    };
    byoc_contract_describe(&in, &r->env, &r->files);
    for (size_t i = 0; i < s->n_channels; i++)
        if (!lr_is_s3(s->channels[i].location) && add_local_channel(r, &s->channels[i], err) != 0)
            return -1;
    return 0;
}

int lr_put_files(run *r, const char *id, byoc_err *err)
{
    byoc_task_status(r->t, "putting the job's files into the container");
    return byoc_container_put_list(r->engine, r->t, id, "/", &r->files, r->uid, r->gid, err);
}
