/* localrun_files: the files put into the container (localrun_files.h). */
#include "byoc/localrun_files.h"

#include <string.h>

#include "byoc/jobspec_files.h"
#include "docker/container_files.h"

/* ---- 4. the files put into the container --------------------------------------------------------- */

static void add_json(run *r, const char *path, json_t *doc)
{
    char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    byoc_put_list_add(&r->files, BYOC_PUT_MEM, path, NULL, text, strlen(text));
    free(text);
    json_decref(doc);
}

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
    char *base = byoc_xasprintf("opt/ml/input/data/%s", c->name);
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

static json_t *resource_config(void)
{
    return json_pack("{s:s, s:s, s:s, s:[s], s:[{s:s, s:s, s:[s]}], s:s}", "current_host", "algo-1",
                     "current_instance_type", "local", "current_group_name", "homogeneousCluster", "hosts", "algo-1",
                     "instance_groups", "instance_group_name", "homogeneousCluster", "instance_type", "local", "hosts",
                     "algo-1", "network_interface_name", "eth0");
}

int lr_plan_files(run *r, byoc_err *err)
{
    const byoc_jobspec *s = r->spec;
    byoc_put_list_add_dir(&r->files, "opt/ml/input");
    byoc_put_list_add_dir(&r->files, "opt/ml/input/config");
    json_t *hps = json_object();
    for (size_t i = 0; i < s->n_hyperparameters; i++)
        json_object_set_new(hps, s->hyperparameters[i].key, json_string(s->hyperparameters[i].value));
    add_json(r, "opt/ml/input/config/hyperparameters.json", hps);
    add_json(r, "opt/ml/input/config/resourceconfig.json", resource_config());
    json_t *channels = json_object();
    for (size_t i = 0; i < s->n_channels; i++) {
        json_t *ch = json_pack("{s:s, s:s, s:s}", "TrainingInputMode", "File", "S3DistributionType", "FullyReplicated",
                               "RecordWrapperType", "None");
        if (s->channels[i].content_type)
            json_object_set_new(ch, "ContentType", json_string(s->channels[i].content_type));
        json_object_set_new(channels, s->channels[i].name, ch);
    }
    add_json(r, "opt/ml/input/config/inputdataconfig.json", channels);
    if (r->archive_path) {
        byoc_put_list_add_dir(&r->files, &BYOC_LOCAL_SOURCE_DIR[1]);
        byoc_put_list_add(&r->files, BYOC_PUT_FILE, &BYOC_LOCAL_SOURCE_DIR "/source.tar.gz"[1], r->archive_path, NULL, 0);
    }
    if (s->n_channels)
        byoc_put_list_add_dir(&r->files, "opt/ml/input/data");
    for (size_t i = 0; i < s->n_channels; i++)
        if (!lr_is_s3(s->channels[i].location) && add_local_channel(r, &s->channels[i], err) != 0)
            return -1;
    byoc_put_list_add_dir(&r->files, "opt/ml/model");
    byoc_put_list_add_dir(&r->files, "opt/ml/output");
    byoc_put_list_add_dir(&r->files, "opt/ml/output/data");
    byoc_put_list_add_dir(&r->files, r->checkpoint_dir + 1);
    return 0;
}

int lr_put_files(run *r, const char *id, byoc_err *err)
{
    byoc_task_status(r->t, "putting the job's files into the container");
    return byoc_container_put_list(r->engine, r->t, id, "/", &r->files, r->uid, r->gid, err);
}
