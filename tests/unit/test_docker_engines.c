/* docker/engines: the holder hands out one engine while the environment stays
 * the same, a fresh one when DOCKER_HOST (or a TLS setting) changes (the old
 * reference stays usable), or a TLS key file is replaced, an error each time for
 * an unusable DOCKER_HOST, and the same engine to several threads at once. No
 * engine is contacted. */
#include "check.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "core/buf.h"
#include "docker/engines.h"

static byoc_engine *get(byoc_engines *h)
{
    byoc_engine *e = NULL;
    byoc_err err;
    byoc_err_clear(&err);
    if (byoc_engines_get(h, &e, &err) != 0)
        fprintf(stderr, "get: %s\n", err.message);
    return e;
}

static void same_and_refresh(void)
{
    setenv("DOCKER_HOST", "unix:///tmp/byoc-test-a.sock", 1);
    byoc_engines *h = byoc_engines_new();
    byoc_engine *a = get(h), *b = get(h);
    CHECK(a && a == b);
    CHECK_STR(byoc_engine_host(a), "unix:///tmp/byoc-test-a.sock");

    setenv("DOCKER_HOST", "tcp://127.0.0.1:1", 1);
    byoc_engine *c = get(h);
    CHECK(c && c != a);
    CHECK_STR(byoc_engine_host(c), "tcp://127.0.0.1:1");
    CHECK_STR(byoc_engine_host(a), "unix:///tmp/byoc-test-a.sock");   /* the old reference is still good */
    byoc_engine *d = get(h);
    CHECK(d == c);

    /* a TLS setting counts too */
    setenv("DOCKER_TLS", "1", 1);
    byoc_engine *tls = get(h);
    CHECK(tls && tls != c);
    unsetenv("DOCKER_TLS");
    byoc_engine *back = get(h);
    CHECK(back && back != tls);
    CHECK_INT(byoc_engines_made(h), 4);   /* a, c, tls, back */

    /* an unusable DOCKER_HOST is an error on every get, never a kept engine */
    setenv("DOCKER_HOST", "ssh://somewhere", 1);
    for (int i = 0; i < 2; i++) {
        byoc_engine *bad = (byoc_engine *)1;
        byoc_err err;
        byoc_err_clear(&err);
        CHECK(byoc_engines_get(h, &bad, &err) == -1 && bad == NULL);
        CHECK_INT(err.kind, BYOC_E_ENV);
        CHECK_STR(err.what, "DOCKER_HOST");
    }
    setenv("DOCKER_HOST", "tcp://127.0.0.1:1", 1);
    byoc_engine *again = get(h);
    CHECK(again != NULL);

    /* the holder goes first: what was handed out stays valid */
    byoc_engine_free(b);
    byoc_engine_free(d);
    byoc_engines_free(h);
    CHECK_STR(byoc_engine_host(a), "unix:///tmp/byoc-test-a.sock");
    CHECK_STR(byoc_engine_host(again), "tcp://127.0.0.1:1");
    byoc_engine_free(a);
    byoc_engine_free(c);
    byoc_engine_free(tls);
    byoc_engine_free(back);
    byoc_engine_free(again);

    /* a NULL holder makes an engine each time */
    byoc_engine *lone = get(NULL), *lone2 = get(NULL);
    CHECK(lone && lone2 && lone != lone2);
    byoc_engine_free(lone);
    byoc_engine_free(lone2);
}

static void write_file(const char *path, const char *text, time_t mtime)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    struct timeval tv[2] = {{mtime, 0}, {mtime, 0}};
    utimes(path, tv);
}

/* With TLS the key files' identity is part of what an engine was made from: a renewed
 * certificate gets a fresh engine, an unchanged one the same. */
static void tls_files(void)
{
    char *dir = check_tmpdir();
    char *ca = byoc_xasprintf("%s/ca.pem", dir);
    setenv("DOCKER_HOST", "tcp://127.0.0.1:2376", 1);
    setenv("DOCKER_TLS", "1", 1);
    setenv("DOCKER_CERT_PATH", dir, 1);
    byoc_engines *h = byoc_engines_new();
    byoc_engine *first = get(h), *same = get(h);
    CHECK(first && first == same);
    write_file(ca, "not a certificate, and not read by the holder\n", 1000000);
    byoc_engine *with_ca = get(h);
    CHECK(with_ca && with_ca != first);
    byoc_engine *again = get(h);
    CHECK(again == with_ca);
    write_file(ca, "renewed\n", 2000000);
    byoc_engine *renewed = get(h);
    CHECK(renewed && renewed != with_ca);
    CHECK_INT(byoc_engines_made(h), 3);
    byoc_engines_free(h);
    byoc_engine_free(first);
    byoc_engine_free(same);
    byoc_engine_free(with_ca);
    byoc_engine_free(again);
    byoc_engine_free(renewed);
    unsetenv("DOCKER_TLS");
    unsetenv("DOCKER_CERT_PATH");
    check_rm_tree(dir);
    free(ca);
    free(dir);
}

#define THREADS 8
#define ROUNDS 200

typedef struct {
    byoc_engines *h;
    byoc_engine *first;
    int bad;
} worker_arg;

static void *worker(void *arg)
{
    worker_arg *w = arg;
    for (int i = 0; i < ROUNDS; i++) {
        byoc_engine *e = get(w->h);
        if (!e || !byoc_engine_host(e))
            w->bad++;
        else if (i == 0)
            w->first = byoc_engine_ref(e);
        byoc_engine_free(e);
    }
    return NULL;
}

static void threads(void)
{
    setenv("DOCKER_HOST", "unix:///tmp/byoc-test-b.sock", 1);
    byoc_engines *h = byoc_engines_new();
    pthread_t th[THREADS];
    worker_arg w[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker_arg){.h = h};
        pthread_create(&th[i], NULL, worker, &w[i]);
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < THREADS; i++) {
        CHECK_INT(w[i].bad, 0);
        CHECK(w[i].first && w[i].first == w[0].first);
    }
    byoc_engines_free(h);
    for (int i = 0; i < THREADS; i++)
        byoc_engine_free(w[i].first);
}

int main(void)
{
    static const char *const vars[] = {"DOCKER_TLS_VERIFY", "DOCKER_TLS", "DOCKER_CERT_PATH", "DOCKER_API_VERSION"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        unsetenv(vars[i]);
    same_and_refresh();
    tls_files();
    threads();
    return check_done();
}
