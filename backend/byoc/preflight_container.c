/* preflight, the runs: the entry point's import from the packed source, tried
 * with the image's own python (no shell needed), and --smoke (the job in local
 * mode with a short time limit). The contract is judged without running
 * anything: preflight_contract.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <sys/stat.h>
#include <stdatomic.h>
#include <time.h>

#include "byoc/localrun.h"
#include "byoc/pyspec.h"
#include "byoc/scan.h"
#include "byoc/preflight_ctx.h"
#include "byoc/source_archive.h"
#include "core/buf.h"
#include "core/utf8.h"
#include "docker/containers.h"
#include "docker/images.h"

#define SRC_DIR "/byoc-preflight/src"
#define PROBE_SOURCE_MAX (1024ull << 20) /* the import probe sends no bigger source */

static const char PY_PROBE[] =
    "import sys, os, re, importlib, signal\n"
    "signal.alarm(30)\n"
    "sys.path.insert(0, '" SRC_DIR "')\n"
    "os.chdir('" SRC_DIR "')\n"
    "mod, _, fn = sys.argv[1].partition(':')\n"
    "try:\n"
    "    m = importlib.import_module(mod)\n"
    "    for part in fn.split('.') if fn else []:\n"
    "        m = getattr(m, part)\n"
    "    print('import=ok')\n"
    "except BaseException as e:\n"
    "    msg = (str(e).splitlines() or [''])[0]\n"
    "    print('import=fail:%s: %s' % (type(e).__name__, msg))\n"
    "missing = []\n"
    "try:\n"
    "    import importlib.metadata as md\n"
    "    for root, dirs, files in os.walk('" SRC_DIR "'):\n"
    "        if 'requirements.txt' not in files: continue\n"
    "        for line in open(os.path.join(root, 'requirements.txt')):\n"
    "            line = line.split('#')[0].strip()\n"
    "            if not line or line.startswith('-'): continue\n"
    "            name = re.split(r'[<>=!~;\\[ @]', line)[0]\n"
    "            try: md.distribution(name)\n"
    "            except Exception: missing.append(name)\n"
    "except ImportError:\n"
    "    pass\n"
    "print('missing=' + ','.join(missing))\n";

typedef struct {
    byoc_buf out;
} collected;

static int collect(int stream, const char *p, size_t n, void *ud)
{
    collected *c = ud;
    if (stream == 1 && c->out.len < (1u << 20))
        byoc_buf_append(&c->out, p, n);
    return 0;
}

/* The value of "key=" in the probe's output, malloc'd, or NULL. */
static char *probe_value(const char *out, const char *key)
{
    size_t kl = strlen(key);
    for (const char *line = out; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > kl && strncmp(line, key, kl) == 0 && line[kl] == '=')
            return byoc_xstrndup(line + kl + 1, len - kl - 1);
        line = end ? end + 1 : NULL;
    }
    return NULL;
}

/* The packed source, streamed from its file into the container (the engine
 * unpacks the gzip): memory stays at one chunk, and a source larger than
 * PROBE_SOURCE_MAX is not sent at all. */
typedef struct {
    FILE *f;
    uint64_t left;   /* bytes the stat promised: a file that grows is cut there */
} source_reader;

static size_t read_source(char *dst, size_t n, void *ud)
{
    source_reader *r = ud;
    if (r->left == 0)
        return 0;
    size_t want = n < r->left ? n : (size_t)r->left;
    size_t got = fread(dst, 1, want, r->f);
    if (got == 0 && ferror(r->f))
        return (size_t)-1;
    r->left -= got;
    return got;
}

static int put_source(pf_ctx *c, byoc_engine *e, const char *id, const char *archive, byoc_err *err)
{
    FILE *f = fopen(archive, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        int rc = byoc_err_set(err, BYOC_E_ENV, "source.tar.gz", "cannot read %s: %s", archive, strerror(errno));
        if (f)
            fclose(f);
        return rc;
    }
    if ((uint64_t)st.st_size > PROBE_SOURCE_MAX) {
        fclose(f);
        return byoc_err_set(err, BYOC_E_USAGE, "source.tar.gz",
                            "the packed source is %lld bytes, more than the import probe sends (%llu)",
                            (long long)st.st_size, (unsigned long long)PROBE_SOURCE_MAX);
    }
    source_reader r = {f, (uint64_t)st.st_size};
    int rc = byoc_container_archive_put(e, c->t, id, SRC_DIR, read_source, &r, NULL, 0, err);
    fclose(f);
    return rc;
}

/* Create, fill, run and remove the throwaway container that tries the import
 * with the image's own python (no shell); *out gets its stdout. */
static int run_probe(pf_ctx *c, byoc_engine *e, const char *python, const char *entry, char **out, byoc_err *err)
{
    char *archive = NULL;
    if (byoc_source_archive_build(c->spec->source_module, c->t, &archive, NULL, err) != 0)
        return -1;
    const char *cmd[] = {python, "-c", PY_PROBE, entry};
    const char *labels[] = {"byoc.preflight=1"};
    byoc_container_spec spec = {
        .image = c->spec->image_uri,
        .cmd = cmd,
        .n_cmd = 4,
        .entrypoint_set = true,
        .n_entrypoint = 0,
        .labels = labels,
        .n_labels = 1,
        .network_mode = "none",
        .working_dir = SRC_DIR,
        .memory = 512ll << 20,
    };
    char *id = NULL;
    int rc = byoc_container_create(e, c->t, &spec, &id, err);
    if (rc == 0 && archive)
        rc = put_source(c, e, id, archive, err);
    int64_t code = 0;
    if (rc == 0)
        rc = byoc_container_start(e, c->t, id, err);
    if (rc == 0)
        rc = byoc_container_wait(e, c->t, id, "not-running", &code, err);
    collected col = {BYOC_BUF_INIT};
    byoc_logs_opts lo = {.no_stderr = true, .tty = 0};
    if (rc == 0)
        rc = byoc_container_logs(e, c->t, id, &lo, collect, &col, err);
    if (id) {
        byoc_err ignored;
        byoc_err_clear(&ignored);
        byoc_container_remove(e, NULL, id, true, true, &ignored);
    }
    *out = rc == 0 ? byoc_buf_steal(&col.out) : NULL;
    byoc_buf_clear(&col.out);
    free(id);
    byoc_source_archive_remove(archive);
    return rc;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void remove_tree(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void code_check(pf_ctx *c, const char *entry, const char *out)
{
    char *imp = probe_value(out, "import");
    char *missing = probe_value(out, "missing");
    char note[600] = "";
    if (missing && *missing)
        snprintf(note, sizeof note, "; requirements.txt packages not in the image (pip installs them at start, "
                                    "and its failures are silent): %s", missing);
    if (!imp)
        pf_add(c, PF_ORD_CODE + 1, "code.entry-point", BYOC_PF_WARN, "check that the image has a working python3",
               "the import of %s could not be tried in the image", entry);
    else if (strcmp(imp, "ok") == 0)
        pf_add(c, PF_ORD_CODE + 1, "code.entry-point", missing && *missing ? BYOC_PF_WARN : BYOC_PF_PASS,
               "add those packages to the image, or check they install offline", "%s imports from the packed source%s",
               entry, note);
    else
        pf_add(c, PF_ORD_CODE + 1, "code.entry-point", BYOC_PF_FAIL,
               "fix the import (module path relative to the source module, its dependencies in the image or "
               "requirements.txt)",
               "%s does not import inside the image: %s%s", entry, imp + 5, note);
    free(imp);
    free(missing);
}

void pf_code_import(pf_ctx *c, byoc_engine *e, const char *python, const char *entry)
{
    byoc_err err;
    byoc_err_clear(&err);
    char *out = NULL;
    if (run_probe(c, e, python, entry, &out, &err) != 0) {
        char line[900];
        byoc_err_format(&err, line, sizeof line);
        pf_add(c, PF_ORD_CODE + 1, "code.entry-point", BYOC_PF_WARN, "check the import by hand (byoc run --local)",
               "the import of %s could not be tried with %s: %s", entry, python, line);
        return;
    }
    code_check(c, entry, out);
    free(out);
}

/* ---- --smoke: the job in local mode (localrun.h) with a short time limit ---- */

typedef struct {
    struct timespec started;  /* the container started (STATUS RUNNING) */
    bool running, got_line;
    double first_line_s;
    char first_line[200];
} smoke_watch;

static double since(const struct timespec *a)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - a->tv_sec) + (double)(now.tv_nsec - a->tv_nsec) / 1e9;
}

static void smoke_event(const byoc_event *ev, void *ud)
{
    smoke_watch *w = ud;
    if (ev->kind == BYOC_EV_STATUS && ev->text && strcmp(ev->text, "RUNNING") == 0 && !w->running) {
        w->running = true;
        clock_gettime(CLOCK_MONOTONIC, &w->started);
    } else if (ev->kind == BYOC_EV_LOG && ev->text && w->running && !w->got_line &&
               strncmp(ev->text, "warning: ", 9) != 0 && strncmp(ev->text, "the job ran longer", 18) != 0) {
        w->got_line = true;
        w->first_line_s = since(&w->started);
        byoc_utf8_copy(w->first_line, sizeof w->first_line, ev->text);
    }
}

typedef struct {
    const byoc_jobspec *spec;
    const byoc_local_run_opts *opts;
    byoc_local_run_result *result;
    byoc_task *outer;          /* preflight's task: its cancellation stops the smoke run */
    byoc_task *inner;
    atomic_bool stop;
} smoke_arg;

static void *forward_cancel(void *arg)
{
    smoke_arg *a = arg;
    struct timespec nap = {0, 100 * 1000 * 1000};
    while (!atomic_load(&a->stop)) {
        if (byoc_task_cancelled(a->outer)) {
            byoc_task_cancel(a->inner);
            break;
        }
        nanosleep(&nap, NULL);
    }
    return NULL;
}

static int smoke_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    smoke_arg *a = arg;
    *result = NULL;
    *result_free = NULL;
    a->inner = t;
    pthread_t watcher;
    bool watching = a->outer && pthread_create(&watcher, NULL, forward_cancel, a) == 0;
    int rc = byoc_local_run(a->spec, a->opts, t, a->result, err);
    atomic_store(&a->stop, true);
    if (watching)
        pthread_join(watcher, NULL);
    return rc;
}

static void copy_spec_for_smoke(const byoc_jobspec *from, byoc_jobspec *to, int seconds)
{
    byoc_jobspec_init(to);
    json_t *j = byoc_jobspec_to_json(from);
    byoc_err e;
    byoc_err_clear(&e);
    byoc_jobspec_from_json(to, j, &e);
    to->launcher = from->launcher;
    json_decref(j);
    char text[32], ts[24];
    snprintf(text, sizeof text, "%d", seconds);
    byoc_jobspec_set(&to->max_runtime, text);
    byoc_job_timestamp(ts, sizeof ts);
    char *name = byoc_xasprintf("preflight-smoke-%s", ts);
    byoc_jobspec_set(&to->job_name, name);
    free(name);
}

void pf_group_smoke(pf_ctx *c)
{
    int seconds = c->opts->smoke_seconds > 0 ? c->opts->smoke_seconds : 60;
    char tmpl[] = "/tmp/byoc-smoke-XXXXXX";
    char *dir = mkdtemp(tmpl);
    if (!dir) {
        pf_add(c, PF_ORD_SMOKE, "smoke", BYOC_PF_WARN, "make /tmp writable", "no temporary directory for the smoke run");
        return;
    }
    char *jobs_file = byoc_xasprintf("%s/local-jobs.json", dir);
    byoc_jobspec spec;
    copy_spec_for_smoke(c->spec, &spec, seconds);
    byoc_local_run_opts lo = {.aws = c->opts->aws, .output_parent = dir, .jobs_file = jobs_file,
                              .engine = c->opts->engine, .clients = c->opts->clients};
    byoc_local_run_result res;
    memset(&res, 0, sizeof res);
    smoke_arg *a = byoc_xcalloc(1, sizeof *a);
    a->spec = &spec;
    a->opts = &lo;
    a->result = &res;
    a->outer = c->t;
    atomic_init(&a->stop, false);
    smoke_watch w = {0};
    byoc_err err;
    byoc_err_clear(&err);
    void *unused = NULL;
    void (*unused_free)(void *) = NULL;
    int rc = byoc_task_run_sync("smoke", smoke_task, a, &unused, &unused_free, &err, smoke_event, &w);
    free(a);
    char first[300] = "no output line";
    if (w.got_line)
        snprintf(first, sizeof first, "first output line %.1f s after start: \"%s\"", w.first_line_s, w.first_line);
    if (!res.status) {
        char line[900];
        byoc_err_format(&err, line, sizeof line);
        pf_add(c, PF_ORD_SMOKE, "smoke", BYOC_PF_FAIL, "fix what the local run says, then run preflight --smoke again",
               "the local run did not start: %s", line);
    } else if (strcmp(res.status, "COMPLETED") == 0) {
        pf_add(c, PF_ORD_SMOKE, "smoke", BYOC_PF_PASS, NULL, "the job ran locally and COMPLETED; %s", first);
    } else if (res.failure_reason && strncmp(res.failure_reason, "MaxRuntimeExceeded", 18) == 0) {
        pf_add(c, PF_ORD_SMOKE, "smoke", w.got_line ? BYOC_PF_PASS : BYOC_PF_WARN,
               "check why the job prints nothing in its first seconds (byoc run --local)",
               "the job was still running at the smoke limit of %d s; %s", seconds, first);
    } else {
        pf_add(c, PF_ORD_SMOKE, "smoke", BYOC_PF_FAIL, "run it with byoc run --local and fix the failure",
               "the job %s locally: %s; %s", res.status, res.failure_reason ? res.failure_reason : "no reason given",
               first);
    }
    (void)rc;
    byoc_local_run_result_clear(&res);
    byoc_jobspec_clear(&spec);
    remove_tree(dir);
    free(jobs_file);
}
