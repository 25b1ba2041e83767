#include "docker/engines.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/buf.h"

struct byoc_engines {
    pthread_mutex_t lock;
    char *made_from;          /* made_from() when the engine was made */
    byoc_engine *engine;      /* the holder's reference, or NULL */
};

byoc_engines *byoc_engines_new(void)
{
    byoc_engines *h = byoc_xcalloc(1, sizeof *h);
    pthread_mutex_init(&h->lock, NULL);
    return h;
}

void byoc_engines_free(byoc_engines *h)
{
    if (!h)
        return;
    byoc_engine_free(h->engine);
    free(h->made_from);
    pthread_mutex_destroy(&h->lock);
    free(h);
}

static void add_file(byoc_buf *b, const char *dir, const char *name)
{
    char *path = byoc_xasprintf("%s/%s", dir, name);
    struct stat st;
    if (stat(path, &st) == 0)
        byoc_buf_printf(b, "%s %llu %llu %lld %lld.%09ld\n", name, (unsigned long long)st.st_dev,
                        (unsigned long long)st.st_ino, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                        st.st_mtim.tv_nsec);
    else
        byoc_buf_printf(b, "%s -\n", name);
    free(path);
}

/* What engine.c reads to make an engine, as one string (no secret among them:
 * the key files are named by their identity, not read). */
static char *made_from(void)
{
    static const char *const vars[] = {"DOCKER_HOST", "DOCKER_TLS_VERIFY", "DOCKER_TLS", "DOCKER_CERT_PATH",
                                       "DOCKER_API_VERSION", "HOME"};
    byoc_buf b = BYOC_BUF_INIT;
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        byoc_buf_printf(&b, "%s%s%s\n", vars[i], v ? "=" : "", v ? v : "");
    }
    const char *tlsv = getenv("DOCKER_TLS_VERIFY"), *tls = getenv("DOCKER_TLS");
    if ((tlsv && *tlsv) || (tls && *tls)) {
        const char *dir = getenv("DOCKER_CERT_PATH"), *home = getenv("HOME");
        char *home_dir = dir && *dir ? NULL : byoc_xasprintf("%s/.docker", home ? home : "");
        static const char *const files[] = {"ca.pem", "cert.pem", "key.pem"};
        for (size_t i = 0; i < sizeof files / sizeof *files; i++)
            add_file(&b, home_dir ? home_dir : dir, files[i]);
        free(home_dir);
    }
    return byoc_buf_steal(&b);
}

int byoc_engines_get(byoc_engines *h, byoc_engine **out, byoc_err *err)
{
    *out = NULL;
    if (!h)
        return byoc_engine_new(out, err);
    /* Made under the lock, so that two tasks asking at once get one engine:
     * making one does no I/O beyond a file check (the negotiation is on first use). */
    pthread_mutex_lock(&h->lock);
    char *now = made_from();
    if (h->engine && strcmp(h->made_from, now) == 0) {
        *out = byoc_engine_ref(h->engine);
        pthread_mutex_unlock(&h->lock);
        free(now);
        return 0;
    }
    byoc_engine *e;
    if (byoc_engine_new(&e, err) != 0) {
        pthread_mutex_unlock(&h->lock);
        free(now);
        return -1;
    }
    byoc_engine_free(h->engine);   /* its holders keep theirs */
    free(h->made_from);
    h->engine = e;
    h->made_from = now;
    *out = byoc_engine_ref(e);
    pthread_mutex_unlock(&h->lock);
    return 0;
}
