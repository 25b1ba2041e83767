/* The Engine client against the real dockerd of the test topology: version
 * negotiation and the no-engine error, a build with its events, images
 * (list, inspect, history, tag, remove) and containers (create with env,
 * binds, network, user, working dir, entrypoint/cmd; archive put/get; start,
 * wait, logs demultiplexed; kill; remove). */
#include <archive.h>
#include <archive_entry.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "core/buf.h"
#include "docker/build.h"
#include "docker/containers.h"
#include "docker/engine.h"
#include "docker/images.h"

#define IMAGE "byoc-itest/engine:1"
#define BASE "byoc-test/busybox:1"

static void write_file(const char *dir, const char *rel, const char *content)
{
    char *p = byoc_xasprintf("%s/%s", dir, rel);
    FILE *f = fopen(p, "w");
    if (f) {
        fputs(content, f);
        fclose(f);
    }
    free(p);
}

static void rm_rf(const char *path)
{
    pid_t pid = fork();
    if (pid == 0) {
        execlp("rm", "rm", "-rf", path, (char *)NULL);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
}

static void test_ping(byoc_engine *e)
{
    byoc_engine_info info;
    byoc_err err;
    CHECK_INT(byoc_engine_ping(e, NULL, &info, &err), 0);
    CHECK_STR(info.api_version, "1.41");
    CHECK_STR(info.server_api_version, "1.41");
    CHECK_STR(info.os, "linux");
    CHECK(info.server_version[0] != 0);
    CHECK(info.min_api_version[0] != 0);
    CHECK_INT(byoc_docker_ping(NULL, &info, &err), 0);

    /* a pinned, older version is used as is */
    setenv("DOCKER_API_VERSION", "1.40", 1);
    byoc_engine *old;
    CHECK_INT(byoc_engine_new(&old, &err), 0);
    CHECK_INT(byoc_engine_connect(old, NULL, &err), 0);
    CHECK_STR(byoc_engine_api_version(old), "1.40");
    byoc_image_list l;
    CHECK_INT(byoc_images_list(old, NULL, false, NULL, &l, &err), 0);
    byoc_image_list_clear(&l);
    byoc_engine_free(old);
    unsetenv("DOCKER_API_VERSION");

    /* no engine: exit 3 with the fix */
    byoc_engine *none;
    CHECK_INT(byoc_engine_new_host("unix:///nonexistent/byoc-docker.sock", &none, &err), 0);
    CHECK_INT(byoc_engine_ping(none, NULL, &info, &err), -1);
    CHECK_INT(err.kind, BYOC_E_ENV);
    CHECK_INT(byoc_err_exit_code(err.kind), 3);
    CHECK(strstr(err.message, "no Docker engine at unix:///nonexistent/byoc-docker.sock: no such socket") != NULL);
    CHECK(strstr(err.message, "start dockerd or set DOCKER_HOST") != NULL);
    byoc_engine_free(none);
    CHECK_INT(byoc_engine_new_host("tcp://127.0.0.1:1", &none, &err), 0);
    CHECK_INT(byoc_engine_connect(none, NULL, &err), -1);
    CHECK_INT(err.kind, BYOC_E_ENV);
    byoc_engine_free(none);
}

typedef struct {
    int steps, logs, context_progress;
    bool saw_hello;
} seen;

static void on_event(const byoc_event *ev, void *ud)
{
    seen *s = ud;
    if (ev->kind == BYOC_EV_STATUS && ev->text && strncmp(ev->text, "Step ", 5) == 0)
        s->steps++;
    if (ev->kind == BYOC_EV_LOG) {
        s->logs++;
        if (ev->text && strcmp(ev->text, "hello from RUN") == 0)
            s->saw_hello = true;
    }
    if (ev->kind == BYOC_EV_PROGRESS && ev->key && strcmp(ev->key, "context") == 0)
        s->context_progress++;
}

static char *test_build(byoc_engine *e)
{
    char *dir = check_tmpdir();
    write_file(dir, "Dockerfile",
               "FROM " BASE "\nARG WHO=nobody\nCOPY greeting.txt /greeting.txt\n"
               "RUN echo hello from RUN && echo \"$WHO\" > /who\nCMD [\"cat\", \"/greeting.txt\"]\n");
    write_file(dir, "greeting.txt", "hi\n");
    const char *tags[] = {IMAGE};
    const char *args[] = {"WHO=itest"};
    const char *labels[] = {"org.example.test=1"};
    byoc_build_opts o = {.context_dir = dir, .tags = tags, .n_tags = 1, .build_args = args, .n_build_args = 1,
                         .labels = labels, .n_labels = 1, .network = "none", .no_cache = true};
    byoc_build_job *job = byoc_build_job_new(e, &o);
    seen s = {0};
    void *res = NULL;
    void (*rf)(void *) = NULL;
    byoc_err err;
    int rc = byoc_task_run_sync("build", byoc_build_task, job, &res, &rf, &err, on_event, &s);
    byoc_build_job_free(job);
    CHECK_INT(rc, 0);
    if (rc != 0) {
        fprintf(stderr, "build: %s\n", err.message);
        rm_rf(dir);
        free(dir);
        return NULL;
    }
    byoc_build_result *r = res;
    CHECK(strncmp(r->image_id, "sha256:", 7) == 0);
    CHECK_INT(r->n_tags, 1);
    CHECK_STR(r->tags[0], IMAGE);
    CHECK_INT(r->context_files, 2);
    CHECK(s.steps >= 5);
    CHECK(s.saw_hello);
    CHECK(s.context_progress >= 1);
    char *id = byoc_xstrdup(r->image_id);
    rf(res);

    /* a failing step */
    write_file(dir, "Dockerfile", "FROM " BASE "\nRUN echo failing && exit 3\n");
    byoc_build_result fr;
    byoc_build_opts f = {.context_dir = dir, .network = "none"};
    CHECK_INT(byoc_build_run(e, NULL, &f, &fr, &err), -1);
    CHECK_INT(err.kind, BYOC_E_FAILED);
    CHECK(strstr(err.message, "returned a non-zero code: 3") != NULL);
    /* an engine-side error before output: an unknown stage */
    write_file(dir, "Dockerfile", "FROM " BASE " AS one\nRUN true\n");
    f.target = "two";
    CHECK_INT(byoc_build_run(e, NULL, &f, &fr, &err), -1);
    CHECK_INT(err.kind, BYOC_E_FAILED);
    CHECK(err.http_status == 400 || strstr(err.message, "two") != NULL);
    rm_rf(dir);
    free(dir);
    return id;
}

static void test_images(byoc_engine *e, const char *id)
{
    byoc_err err;
    byoc_image_list l;
    CHECK_INT(byoc_images_list(e, NULL, false, "byoc-itest/engine", &l, &err), 0);
    CHECK_INT(l.n, 1);
    if (l.n == 1) {
        CHECK_STR(l.items[0].id, id);
        CHECK_INT(l.items[0].n_repo_tags, 1);
        CHECK_STR(l.items[0].repo_tags[0], IMAGE);
        CHECK(l.items[0].size > 0 && l.items[0].created > 0);
    }
    byoc_image_row *rows;
    size_t n;
    byoc_image_rows(&l, &rows, &n);
    CHECK_INT(n, 1);
    json_t *doc = byoc_image_rows_json(rows, n);
    json_t *row = json_array_get(json_object_get(doc, "images"), 0);
    CHECK_STR(json_string_value(json_object_get(row, "repository")), "byoc-itest/engine");
    CHECK_STR(json_string_value(json_array_get(json_object_get(row, "tags"), 0)), "1");
    CHECK(json_is_null(json_object_get(row, "digest")));
    CHECK(json_is_integer(json_object_get(row, "size")));
    json_decref(doc);
    byoc_image_rows_free(rows, n);
    byoc_image_list_clear(&l);

    json_t *insp = NULL;
    CHECK_INT(byoc_image_inspect(e, NULL, IMAGE, &insp, &err), 0);
    CHECK_STR(json_string_value(json_object_get(insp, "Id")), id);
    json_t *cfg = json_object_get(insp, "Config");
    CHECK_STR(json_string_value(json_array_get(json_object_get(cfg, "Cmd"), 1)), "/greeting.txt");
    CHECK_STR(json_string_value(json_object_get(json_object_get(cfg, "Labels"), "org.example.test")), "1");
    json_decref(insp);
    CHECK_INT(byoc_image_inspect(e, NULL, "byoc-itest/no-such-image:1", &insp, &err), -1);
    CHECK_INT(err.http_status, 404);
    CHECK(strstr(err.message, "No such image") != NULL);

    byoc_image_history h;
    CHECK_INT(byoc_image_history_get(e, NULL, IMAGE, &h, &err), 0);
    CHECK(h.n >= 5);
    bool saw_run = false;
    for (size_t i = 0; i < h.n; i++)
        if (strstr(h.items[i].created_by, "echo hello from RUN"))
            saw_run = true;
    CHECK(saw_run);
    CHECK_STR(h.items[0].id, id);
    CHECK_INT(h.items[0].n_tags, 1);
    byoc_image_history_clear(&h);

    CHECK_INT(byoc_image_tag(e, NULL, id, "byoc-itest/engine:retag", &err), 0);
    CHECK_INT(byoc_image_tag(e, NULL, IMAGE, "byoc-itest/engine-latest", &err), 0);
    CHECK_INT(byoc_image_tag(e, NULL, IMAGE, "Bad/Name:x", &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK_INT(byoc_image_tag(e, NULL, "byoc-itest/none:1", "byoc-itest/x:1", &err), -1);
    CHECK_INT(err.http_status, 404);
    CHECK_INT(byoc_images_list(e, NULL, false, "byoc-itest/engine*", &l, &err), 0);
    CHECK_INT(l.n, 1);
    if (l.n == 1)
        CHECK_INT(l.items[0].n_repo_tags, 3);
    byoc_image_list_clear(&l);

    byoc_image_removal rep;
    CHECK_INT(byoc_image_remove(e, NULL, "byoc-itest/engine:retag", false, false, &rep, &err), 0);
    CHECK_INT(rep.n_untagged, 1);
    CHECK_STR(rep.untagged[0], "byoc-itest/engine:retag");
    CHECK_INT(rep.n_deleted, 0);
    byoc_image_removal_clear(&rep);
    CHECK_INT(byoc_image_remove(e, NULL, "byoc-itest/engine-latest:latest", false, false, NULL, &err), 0);
    CHECK_INT(byoc_image_remove(e, NULL, "byoc-itest/engine:retag", false, false, NULL, &err), -1);
    CHECK_INT(err.http_status, 404);
}

static int collect_stream(int stream, const char *p, size_t n, void *ud)
{
    byoc_buf *b = ud;
    byoc_buf_printf(b, "%d:", stream);
    byoc_buf_append(b, p, n);
    return 0;
}

static int collect_tar(const char *p, size_t n, void *ud)
{
    byoc_buf_append(ud, p, n);
    return 0;
}

static void small_tar(byoc_buf *out, const char *name, const char *content)
{
    struct archive *a = archive_write_new();
    archive_write_set_format_pax_restricted(a);
    size_t used = 0;
    static char mem[8192];
    archive_write_open_memory(a, mem, sizeof mem, &used);
    struct archive_entry *e = archive_entry_new();
    /* a world-writable directory for the container's unprivileged user */
    archive_entry_set_pathname(e, "work/");
    archive_entry_set_filetype(e, AE_IFDIR);
    archive_entry_set_perm(e, 0777);
    archive_write_header(a, e);
    archive_entry_clear(e);
    archive_entry_set_pathname(e, name);
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, (la_int64_t)strlen(content));
    archive_write_header(a, e);
    archive_write_data(a, content, strlen(content));
    archive_entry_free(e);
    archive_write_close(a);
    archive_write_free(a);
    byoc_buf_append(out, mem, used);
}

static void test_containers(byoc_engine *e)
{
    byoc_err err;
    char *host = check_tmpdir();
    chmod(host, 0755);
    write_file(host, "in.txt", "from the host\n");
    char *bind = byoc_xasprintf("%s:/mnt/host:ro", host);
    const char *cmd[] = {"echo out; echo err >&2; pwd; id -u; echo \"$FOO\"; cat /mnt/host/in.txt; cat /put.txt; "
                         "echo made > made.txt; exit 7"};
    const char *ep[] = {"/bin/sh", "-c"};
    const char *env[] = {"FOO=bar baz"};
    const char *binds[] = {bind};
    const char *labels[] = {"byoc.test=engine"};
    byoc_container_spec s = {.image = BASE, .cmd = cmd, .n_cmd = 1, .entrypoint = ep, .n_entrypoint = 2,
                             .env = env, .n_env = 1, .binds = binds, .n_binds = 1, .labels = labels, .n_labels = 1,
                             .network_mode = "none", .user = "1234:1234", .working_dir = "/work"};
    char *id = NULL;
    CHECK_INT(byoc_container_create(e, NULL, &s, &id, &err), 0);
    if (!id) {
        fprintf(stderr, "create: %s\n", err.message);
        return;
    }
    byoc_buf tar = BYOC_BUF_INIT;
    small_tar(&tar, "put.txt", "put by archive\n");
    CHECK_INT(byoc_container_archive_put(e, NULL, id, "/", NULL, NULL, tar.data, tar.len, &err), 0);
    CHECK_INT(byoc_container_archive_put(e, NULL, id, "/no/such/dir", NULL, NULL, tar.data, tar.len, &err), -1);
    CHECK_INT(err.http_status, 404);
    byoc_buf_clear(&tar);

    json_t *list = NULL;
    json_t *filters = json_pack("{s:[s]}", "label", "byoc.test=engine");
    CHECK_INT(byoc_containers_list(e, NULL, true, filters, &list, &err), 0);
    CHECK_INT(json_array_size(list), 1);
    json_decref(list);

    CHECK_INT(byoc_container_start(e, NULL, id, &err), 0);
    int64_t code = -1;
    CHECK_INT(byoc_container_wait(e, NULL, id, "not-running", &code, &err), 0);
    CHECK_INT(code, 7);

    byoc_buf out = BYOC_BUF_INIT;
    byoc_buf_puts(&out, "");
    byoc_logs_opts lo = {.tty = -1};
    CHECK_INT(byoc_container_logs(e, NULL, id, &lo, collect_stream, &out, &err), 0);
    CHECK(strstr(out.data, "1:out\n") != NULL);
    CHECK(strstr(out.data, "2:err\n") != NULL);
    CHECK(strstr(out.data, "1:/work\n") != NULL);
    CHECK(strstr(out.data, "1:1234\n") != NULL);
    CHECK(strstr(out.data, "1:bar baz\n") != NULL);
    CHECK(strstr(out.data, "1:from the host\n") != NULL);
    CHECK(strstr(out.data, "1:put by archive\n") != NULL);
    byoc_buf_reset(&out);
    lo.no_stdout = true;
    lo.tty = 0;
    CHECK_INT(byoc_container_logs(e, NULL, id, &lo, collect_stream, &out, &err), 0);
    CHECK_STR(out.data, "2:err\n");
    byoc_buf_clear(&out);

    byoc_buf got = BYOC_BUF_INIT;
    CHECK_INT(byoc_container_archive_get(e, NULL, id, "/work", collect_tar, &got, &err), 0);
    struct archive *a = archive_read_new();
    archive_read_support_format_tar(a);
    archive_read_open_memory(a, got.data, got.len);
    struct archive_entry *ae;
    bool made = false;
    while (archive_read_next_header(a, &ae) == ARCHIVE_OK) {
        if (strcmp(archive_entry_pathname(ae), "work/made.txt") == 0) {
            char buf[16] = "";
            archive_read_data(a, buf, sizeof buf - 1);
            made = strcmp(buf, "made\n") == 0;
        }
    }
    archive_read_free(a);
    CHECK(made);
    byoc_buf_clear(&got);
    CHECK_INT(byoc_container_archive_get(e, NULL, id, "/no/such/path", collect_tar, &got, &err), -1);
    CHECK_INT(err.http_status, 404);
    byoc_buf_clear(&got);

    CHECK_INT(byoc_container_remove(e, NULL, id, false, false, &err), 0);
    json_t *insp = NULL;
    CHECK_INT(byoc_container_inspect(e, NULL, id, &insp, &err), -1);
    CHECK_INT(err.http_status, 404);
    free(id);

    /* kill: a TTY container running sleep */
    const char *sleep_cmd[] = {"sleep", "300"};
    byoc_container_spec k = {.image = BASE, .cmd = sleep_cmd, .n_cmd = 2, .network_mode = "none", .tty = true};
    CHECK_INT(byoc_container_create(e, NULL, &k, &id, &err), 0);
    CHECK_INT(byoc_container_start(e, NULL, id, &err), 0);
    CHECK_INT(byoc_container_kill(e, NULL, id, "SIGKILL", &err), 0);
    CHECK_INT(byoc_container_wait(e, NULL, id, NULL, &code, &err), 0);
    CHECK_INT(code, 137);
    CHECK_INT(byoc_container_kill(e, NULL, id, NULL, &err), -1);
    CHECK_INT(err.http_status, 409);
    byoc_buf raw = BYOC_BUF_INIT;
    byoc_logs_opts tty = {.tty = -1};
    CHECK_INT(byoc_container_logs(e, NULL, id, &tty, collect_stream, &raw, &err), 0);
    byoc_buf_clear(&raw);
    CHECK_INT(byoc_container_remove(e, NULL, id, true, true, &err), 0);
    free(id);

    /* an unknown image is a 404, never a pull */
    byoc_container_spec u = {.image = "byoc-itest/no-such-image:1"};
    CHECK_INT(byoc_container_create(e, NULL, &u, &id, &err), -1);
    CHECK_INT(err.http_status, 404);
    json_decref(filters);
    free(bind);
    rm_rf(host);
    free(host);
}

int main(void)
{
    check_env("DOCKER_HOST");
    byoc_http_global_init();
    byoc_engine *e;
    byoc_err err;
    if (byoc_engine_new(&e, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    test_ping(e);
    char *id = test_build(e);
    if (id) {
        test_images(e, id);
        byoc_image_remove(e, NULL, IMAGE, true, false, NULL, &err);
        free(id);
    }
    test_containers(e);
    byoc_engine_free(e);
    byoc_http_global_cleanup();
    return check_done();
}
