/* measure.h without an engine: what pip's output says failed (or that it had
 * no network), the stored result found by the requirements' content, and the
 * figures handed to the rules; and that a run takes the engine it is given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "aws/sigv4.h"
#include "byoc/measure.h"
#include "check.h"
#include "core/fs.h"
#include "docker/engines.h"

static void test_pip_failures(void)
{
    byoc_strv f = BYOC_STRV_INIT;
    bool net = true;
    byoc_pip_failures("Collecting slowpkg\n  Downloading x.whl\n"
                      "ERROR: Could not find a version that satisfies the requirement badpkg==9.9 (from versions: 1.0)\n"
                      "ERROR: No matching distribution found for badpkg==9.9\n",
                      &f, &net);
    CHECK_INT(f.n, 1);
    CHECK_STR(f.v[0], "badpkg==9.9");
    CHECK(!net);
    byoc_strv_clear(&f);

    /* an sdist whose setup.py raises: pip names no package, the last Collecting does */
    byoc_pip_failures("Collecting okpkg\nCollecting brokenpkg\n  Preparing metadata (setup.py): finished with "
                      "status 'error'\n  error: subprocess-exited-with-error\n\x1b[31merror: "
                      "metadata-generation-failed\x1b[0m\n",
                      &f, &net);
    CHECK_INT(f.n, 1);
    CHECK_STR(f.v[0], "brokenpkg");
    byoc_strv_clear(&f);

    byoc_pip_failures("WARNING: Retrying (Retry(total=4)) after connection broken by 'NewConnectionError(...: "
                      "Failed to establish a new connection: [Errno 101] Network is unreachable')\n"
                      "ERROR: No matching distribution found for numpy\n",
                      &f, &net);
    CHECK(net);
    byoc_strv_clear(&f);
    byoc_pip_failures(NULL, &f, &net);
    CHECK_INT(f.n, 0);
    CHECK(!net);
}

static void write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    CHECK(fp != NULL);
    if (fp) {
        fputs(text, fp);
        fclose(fp);
    }
}

static void test_lookup(void)
{
    char dir[] = "/tmp/byoc-test-measure-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256], sha[65];
    const char *req = "numpy\nscipy\n";
    snprintf(path, sizeof path, "%s/requirements.txt", dir);
    write_file(path, req);
    byoc_measurement m;
    CHECK_INT(byoc_measure_lookup(dir, NULL, &m), 0); /* nothing stored */
    byoc_sha256_hex(req, strlen(req), sha);
    snprintf(path, sizeof path, "%s/.byoc", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/.byoc/measure.json", dir);
    json_t *doc = json_pack(
        "{s:i, s:{s:{s:f, s:i, s:[s], s:s, s:s, s:s, s:s}, s:{s:f, s:i, s:[], s:s, s:s, s:s, s:s}}}", "version",
        1, "results", "a", "install_seconds", 12.5, "packages", 2, "failed", "x\x1b[2Jy", "base", "old",
        "base_id", "sha256:1", "measured_at", "2026-01-01T00:00:00Z", "requirements_sha256", sha, "b",
        "install_seconds", 40.0, "packages", 2, "failed", "base", "new", "base_id", "sha256:2", "measured_at",
        "2026-02-01T00:00:00Z", "requirements_sha256", sha);
    json_dump_file(doc, path, 0);
    json_decref(doc);
    CHECK_INT(byoc_measure_lookup(dir, NULL, &m), 1);
    CHECK_STR(m.base, "new"); /* the newest for this content */
    CHECK(m.reused);
    byoc_startup st;
    byoc_measurement_startup(&m, 3, 0, &st);
    CHECK(st.measured && st.install_seconds == 40.0 && st.instance_count == 3 && st.failed == NULL);
    json_t *j = byoc_measurement_to_json(&m, 3);
    CHECK(json_real_value(json_object_get(j, "seconds_per_job")) == 120.0);
    json_decref(j);
    byoc_measurement_clear(&m);

    /* other content: the stored results do not apply */
    snprintf(path, sizeof path, "%s/requirements.txt", dir);
    write_file(path, "numpy\n");
    CHECK_INT(byoc_measure_lookup(dir, NULL, &m), 0);
    byoc_remove_tree(dir);
}

/* The measurement takes its engine from the holder it is given (the app's), and makes none of
 * its own: here an engine that is not there, so the run stops at connecting. */
static void test_shared_engine(void)
{
    char dir[] = "/tmp/byoc-test-measure-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/requirements.txt", dir);
    write_file(path, "numpy\n");
    snprintf(path, sizeof path, "unix://%s/no-engine.sock", dir);
    setenv("DOCKER_HOST", path, 1);
    byoc_engines *holder = byoc_engines_new();
    unsigned long before = byoc_engine_count_made();
    byoc_measure_opts o = {.project_dir = dir, .engines = holder};
    for (int i = 0; i < 2; i++) {
        byoc_measurement m;
        byoc_err err;
        byoc_err_clear(&err);
        CHECK_INT(byoc_measure_run(NULL, &o, &m, &err), -1);
        CHECK(err.kind != BYOC_OK);
        byoc_measurement_clear(&m);
    }
    CHECK_INT(byoc_engines_made(holder), 1);
    CHECK_INT(byoc_engine_count_made() - before, 1);
    byoc_engines_free(holder);
    unsetenv("DOCKER_HOST");
    byoc_remove_tree(dir);
}

int main(void)
{
    test_pip_failures();
    test_lookup();
    test_shared_engine();
    return check_done();
}
