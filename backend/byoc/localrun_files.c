/* localrun_files: the files put into the container (localrun_internal.h). */
#include "byoc/localrun_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "byoc/jobspec_files.h"
#include "core/libarchive_api.h"
#include "docker/containers.h"

/* ---- 4. the files put into the container --------------------------------------------------------- */

void lr_add_item(run *r, item_kind kind, const char *path, const char *host, const char *data, size_t len)
{
    if (kind == ITEM_DIR) {
        if (byoc_strv_contains(&r->item_dirs, path))
            return;
        byoc_strv_push(&r->item_dirs, path);
    }
    r->items = byoc_xrealloc(r->items, (r->n_items + 1) * sizeof *r->items);
    put_item *it = &r->items[r->n_items++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->path = byoc_xstrdup(path);
    it->host = host ? byoc_xstrdup(host) : NULL;
    if (data) {
        it->data = byoc_xstrndup(data, len);
        it->len = len;
    }
}

static void add_dir(run *r, const char *path)
{
    char *p = byoc_xasprintf("%s/", path);
    lr_add_item(r, ITEM_DIR, p, NULL, NULL, 0);
    free(p);
}

/* base/ and every directory between it and rel_file. */
void lr_add_dir_chain(run *r, const char *base, const char *rel_file)
{
    add_dir(r, base);
    for (const char *s = strchr(rel_file, '/'); s; s = strchr(s + 1, '/')) {
        char *d = byoc_xasprintf("%s/%.*s", base, (int)(s - rel_file), rel_file);
        add_dir(r, d);
        free(d);
    }
}

static void add_json(run *r, const char *path, json_t *doc)
{
    char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    lr_add_item(r, ITEM_MEM, path, NULL, text, strlen(text));
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
    add_dir(r, base);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        const char *rel = files[i].s3_uri + (is_dir ? nl + 1 : 0);
        if (!lr_safe_relative(rel)) {
            lr_warn(r, "skipped %s: it does not make a safe path in the container", files[i].path);
            continue;
        }
        lr_add_dir_chain(r, base, rel);
        char *path = byoc_xasprintf("%s/%s", base, rel);
        lr_add_item(r, ITEM_FILE, path, files[i].path, NULL, 0);
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
    add_dir(r, "opt/ml/input");
    add_dir(r, "opt/ml/input/config");
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
        add_dir(r, &BYOC_LOCAL_SOURCE_DIR[1]);
        lr_add_item(r, ITEM_FILE, &BYOC_LOCAL_SOURCE_DIR "/source.tar.gz"[1], r->archive_path, NULL, 0);
    }
    if (s->n_channels)
        add_dir(r, "opt/ml/input/data");
    for (size_t i = 0; i < s->n_channels; i++)
        if (!lr_is_s3(s->channels[i].location) && add_local_channel(r, &s->channels[i], err) != 0)
            return -1;
    add_dir(r, "opt/ml/model");
    add_dir(r, "opt/ml/output");
    add_dir(r, "opt/ml/output/data");
    add_dir(r, r->checkpoint_dir + 1);
    return 0;
}

/* The tar, made by libarchive as curl asks for the body: memory stays at one chunk. */
typedef struct tar_stream {
    const put_item *items;
    size_t n, next;
    struct archive *a;
    byoc_buf out;
    size_t out_pos;
    int fd;
    int64_t left;
    bool done, failed;
    unsigned uid, gid;
    time_t now;
    char error[512];
} tar_stream;

static la_ssize_t tar_write_cb(struct archive *a, void *ud, const void *buf, size_t n)
{
    (void)a;
    tar_stream *ts = ud;
    byoc_buf_append(&ts->out, buf, n);
    return (la_ssize_t)n;
}

static int tar_fail(tar_stream *ts, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int tar_fail(tar_stream *ts, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ts->error, sizeof ts->error, fmt, ap);
    va_end(ap);
    ts->failed = true;
    return -1;
}

static int tar_header(tar_stream *ts, const put_item *it)
{
    const byoc_archive_api *ar = byoc_archive_api_get(NULL); /* loaded by the public entry point */
    struct archive_entry *e = ar->archive_entry_new();
    ar->archive_entry_set_pathname(e, it->path);
    ar->archive_entry_set_uid(e, ts->uid);
    ar->archive_entry_set_gid(e, ts->gid);
    ar->archive_entry_set_mtime(e, ts->now, 0);
    int rc = 0;
    if (it->kind == ITEM_DIR) {
        ar->archive_entry_set_filetype(e, AE_IFDIR);
        ar->archive_entry_set_perm(e, 0755);
    } else if (it->kind == ITEM_MEM) {
        ar->archive_entry_set_filetype(e, AE_IFREG);
        ar->archive_entry_set_perm(e, 0644);
        ar->archive_entry_set_size(e, (la_int64_t)it->len);
    } else {
        ts->fd = open(it->host, O_RDONLY | O_CLOEXEC);
        struct stat st;
        if (ts->fd < 0 || fstat(ts->fd, &st) != 0)
            rc = tar_fail(ts, "%s: %s", it->host, strerror(errno));
        else if (!S_ISREG(st.st_mode))
            rc = tar_fail(ts, "%s: not a regular file", it->host);
        if (rc == 0) {
            ar->archive_entry_set_filetype(e, AE_IFREG);
            ar->archive_entry_set_perm(e, (st.st_mode & 0111) ? 0755 : 0644);
            ar->archive_entry_set_size(e, (la_int64_t)st.st_size);
            ar->archive_entry_set_mtime(e, st.st_mtime, 0);
            ts->left = st.st_size;
        }
    }
    if (rc == 0 && ar->archive_write_header(ts->a, e) != ARCHIVE_OK)
        rc = tar_fail(ts, "tar: %s", ar->archive_error_string(ts->a));
    if (rc == 0 && it->kind == ITEM_MEM && it->len && ar->archive_write_data(ts->a, it->data, it->len) < 0)
        rc = tar_fail(ts, "tar: %s", ar->archive_error_string(ts->a));
    ar->archive_entry_free(e);
    if (rc == 0 && it->kind == ITEM_FILE && ts->left == 0) {
        close(ts->fd);
        ts->fd = -1;
    }
    return rc;
}

static int tar_step(tar_stream *ts)
{
    const byoc_archive_api *ar = byoc_archive_api_get(NULL); /* loaded by the public entry point */
    if (ts->fd >= 0) {
        char buf[CHUNK];
        size_t want = ts->left < (int64_t)sizeof buf ? (size_t)ts->left : sizeof buf;
        ssize_t got = read(ts->fd, buf, want);
        if (got < 0 && errno == EINTR)
            return 0;
        if (got <= 0)
            return tar_fail(ts, "%s: %s", ts->items[ts->next - 1].host,
                            got < 0 ? strerror(errno) : "the file shrank while it was being sent");
        if (ar->archive_write_data(ts->a, buf, (size_t)got) < 0)
            return tar_fail(ts, "tar: %s", ar->archive_error_string(ts->a));
        ts->left -= got;
        if (ts->left == 0) {
            close(ts->fd);
            ts->fd = -1;
        }
        return 0;
    }
    if (ts->next < ts->n)
        return tar_header(ts, &ts->items[ts->next++]);
    if (ar->archive_write_close(ts->a) != ARCHIVE_OK)
        return tar_fail(ts, "tar: %s", ar->archive_error_string(ts->a));
    ts->done = true;
    return 0;
}

static size_t tar_read(char *dst, size_t n, void *ud)
{
    tar_stream *ts = ud;
    while (ts->out.len == ts->out_pos && !ts->done && !ts->failed)
        tar_step(ts);
    if (ts->failed)
        return (size_t)-1;
    size_t avail = ts->out.len - ts->out_pos;
    size_t k = avail < n ? avail : n;
    memcpy(dst, ts->out.data + ts->out_pos, k);
    ts->out_pos += k;
    if (ts->out_pos == ts->out.len) {
        byoc_buf_reset(&ts->out);
        ts->out_pos = 0;
    }
    return k;
}

int lr_put_files(run *r, const char *id, byoc_err *err)
{
    const byoc_archive_api *ar = byoc_archive_api_get(err);
    if (!ar)
        return -1;
    tar_stream ts = {.items = r->items, .n = r->n_items, .fd = -1, .uid = r->uid, .gid = r->gid,
                     .now = time(NULL)};
    ts.a = ar->archive_write_new();
    ar->archive_write_set_format_pax_restricted(ts.a);
    ar->archive_write_set_bytes_in_last_block(ts.a, 1);
    int rc = 0;
    if (ar->archive_write_open(ts.a, &ts, NULL, tar_write_cb, NULL) != ARCHIVE_OK)
        rc = byoc_err_set(err, BYOC_E_FAILED, "tar", "%s", ar->archive_error_string(ts.a));
    if (rc == 0) {
        byoc_task_status(r->t, "putting the job's files into the container");
        rc = byoc_container_archive_put(r->engine, r->t, id, "/", tar_read, &ts, NULL, 0, err);
        if (rc != 0 && ts.failed && err->kind != BYOC_E_CANCELLED)
            byoc_err_set(err, BYOC_E_FAILED, "input", "%s", ts.error);
    }
    if (ts.fd >= 0)
        close(ts.fd);
    ar->archive_write_free(ts.a);
    byoc_buf_free(&ts.out);
    return rc;
}
