#include "aws/clients.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/fs.h"
#include "core/str.h"

extern char **environ;

typedef struct entry {
    char *profile, *region, *config_file, *credentials_file;   /* the key; NULL = as configured */
    uint64_t made_from;                                         /* fingerprint() when made */
    byoc_aws_client *client;                                    /* the pool's reference */
} entry;

struct byoc_aws_clients {
    pthread_mutex_t lock;
    entry *items;
    size_t n;
    size_t made;
};

byoc_aws_clients *byoc_aws_clients_new(void)
{
    byoc_aws_clients *p = byoc_xcalloc(1, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    return p;
}

static void entry_clear(entry *e)
{
    free(e->profile);
    free(e->region);
    free(e->config_file);
    free(e->credentials_file);
    byoc_aws_client_free(e->client);
    memset(e, 0, sizeof *e);
}

void byoc_aws_clients_free(byoc_aws_clients *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        entry_clear(&p->items[i]);
    free(p->items);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

/* What a client for opts is made from, as one number: the two files'
 * identity and every variable that can change the profile, region, endpoints,
 * retries or credentials. Each variable is hashed alone and summed, so that
 * the order of environ does not matter. Only the hash is kept: no secret is stored. */
static uint64_t fingerprint(const byoc_aws_config_opts *opts)
{
    char *config = NULL, *credentials = NULL;
    byoc_aws_config_files(opts, &config, &credentials);
    byoc_buf files = BYOC_BUF_INIT;
    byoc_fs_identity(&files, config);
    byoc_buf_putc(&files, '\n');
    byoc_fs_identity(&files, credentials);
    free(config);
    free(credentials);
    uint64_t env = 0;
    for (char **v = environ; v && *v; v++)
        if (strncmp(*v, "AWS_", 4) == 0 || strncmp(*v, "HOME=", 5) == 0)
            env += byoc_fnv1a(BYOC_FNV1A_SEED, *v, strlen(*v));
    uint64_t h = byoc_fnv1a(BYOC_FNV1A_SEED, files.data, files.len);
    byoc_buf_clear(&files);
    return byoc_fnv1a(h, &env, sizeof env);
}

static bool same(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static entry *find(byoc_aws_clients *p, const byoc_aws_config_opts *o)
{
    for (size_t i = 0; i < p->n; i++) {
        entry *e = &p->items[i];
        if (same(e->profile, o->profile) && same(e->region, o->region) && same(e->config_file, o->config_file) &&
            same(e->credentials_file, o->credentials_file))
            return e;
    }
    return NULL;
}

int byoc_aws_clients_get(byoc_aws_clients *p, const byoc_aws_config_opts *opts, byoc_aws_client **out,
                         byoc_err *err)
{
    *out = NULL;
    if (!p)
        return byoc_aws_client_new(opts, out, err);
    byoc_aws_config_opts none = {0};
    const byoc_aws_config_opts *o = opts ? opts : &none;
    /* Made under the lock, so that two tasks asking at once get one client:
     * making one reads two small files and does no network I/O (credentials
     * are resolved on first use). */
    pthread_mutex_lock(&p->lock);
    uint64_t now = fingerprint(o);
    entry *e = find(p, o);
    if (e && e->made_from == now) {
        *out = byoc_aws_client_ref(e->client);
        pthread_mutex_unlock(&p->lock);
        return 0;
    }
    byoc_aws_client *c;
    if (byoc_aws_client_new(o, &c, err) != 0) {
        pthread_mutex_unlock(&p->lock);
        return -1;
    }
    if (e) {
        byoc_aws_client_free(e->client);   /* its holders keep theirs */
    } else {
        p->items = byoc_xrealloc(p->items, (p->n + 1) * sizeof *p->items);
        e = &p->items[p->n++];
        *e = (entry){byoc_xstrdup_opt(o->profile), byoc_xstrdup_opt(o->region), byoc_xstrdup_opt(o->config_file),
                     byoc_xstrdup_opt(o->credentials_file), 0, NULL};
    }
    e->client = c;
    e->made_from = now;
    p->made++;
    *out = byoc_aws_client_ref(c);
    pthread_mutex_unlock(&p->lock);
    return 0;
}

size_t byoc_aws_clients_made(byoc_aws_clients *p)
{
    pthread_mutex_lock(&p->lock);
    size_t n = p->made;
    pthread_mutex_unlock(&p->lock);
    return n;
}
