#include "docker/engines.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/buf.h"
#include "core/fs.h"
#include "core/str.h"

struct byoc_engines {
    pthread_mutex_t lock;
    uint64_t made_from;       /* made_from() when the engine was made */
    byoc_engine *engine;      /* the holder's reference, or NULL */
    size_t made;
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
    pthread_mutex_destroy(&h->lock);
    free(h);
}

/* What engine.c reads to make an engine, as one number (as aws/clients.c
 * keeps it): its variables and, with TLS, the identity of the key files. */
static uint64_t made_from(void)
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
        for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
            char *path = byoc_xasprintf("%s/%s", home_dir ? home_dir : dir, files[i]);
            byoc_buf_printf(&b, "%s ", files[i]);
            byoc_fs_identity(&b, path);
            byoc_buf_putc(&b, '\n');
            free(path);
        }
        free(home_dir);
    }
    uint64_t h = byoc_fnv1a(BYOC_FNV1A_SEED, b.data, b.len);
    byoc_buf_clear(&b);
    return h;
}

int byoc_engines_get(byoc_engines *h, byoc_engine **out, byoc_err *err)
{
    *out = NULL;
    if (!h)
        return byoc_engine_new(out, err);
    /* Made under the lock, so that two tasks asking at once get one engine:
     * making one does no I/O beyond a file check (the negotiation is on first use). */
    pthread_mutex_lock(&h->lock);
    uint64_t now = made_from();
    if (h->engine && h->made_from == now) {
        *out = byoc_engine_ref(h->engine);
        pthread_mutex_unlock(&h->lock);
        return 0;
    }
    byoc_engine *e;
    if (byoc_engine_new(&e, err) != 0) {
        pthread_mutex_unlock(&h->lock);
        return -1;
    }
    byoc_engine_free(h->engine);   /* its holders keep theirs */
    h->engine = e;
    h->made_from = now;
    h->made++;
    *out = byoc_engine_ref(e);
    pthread_mutex_unlock(&h->lock);
    return 0;
}

size_t byoc_engines_made(byoc_engines *h)
{
    pthread_mutex_lock(&h->lock);
    size_t n = h->made;
    pthread_mutex_unlock(&h->lock);
    return n;
}
