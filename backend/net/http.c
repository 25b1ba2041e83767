#include "net/http.h"
#include "core/log.h"
#include "core/task.h"

#include <ctype.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/crypto.h>

#include "net/libcurl_api.h"

/* Request bodies below this size go out without "Expect: 100-continue": the
 * extra round trip costs more than sending a small body a server rejects. */
#define EXPECT_THRESHOLD (1024 * 1024)
/* When a sink is given but the response is not 2xx, the error body is kept in
 * resp->body (for the caller's error parsing), up to this much. */
#define ERROR_BODY_MAX (1024 * 1024)
#define DEFAULT_CONNECT_TIMEOUT_MS 10000L
#define DEFAULT_LOW_SPEED_TIME_S 60L
#define POOL_MAX 8

/* ---- headers ---------------------------------------------------------------- */

static void headers_push(byoc_headers *h, char *name, char *value)
{
    if (h->len == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 8;
        h->items = byoc_xrealloc(h->items, h->cap * sizeof *h->items);
    }
    h->items[h->len].name = name;
    h->items[h->len].value = value;
    h->len++;
}

void byoc_headers_add(byoc_headers *h, const char *name, const char *value)
{
    headers_push(h, byoc_xstrdup(name), byoc_xstrdup(value ? value : ""));
}

static void headers_delete_at(byoc_headers *h, size_t i)
{
    free(h->items[i].name);
    byoc_free_secret(h->items[i].value);
    memmove(&h->items[i], &h->items[i + 1], (h->len - i - 1) * sizeof *h->items);
    h->len--;
}

void byoc_headers_set(byoc_headers *h, const char *name, const char *value)
{
    bool replaced = false;
    for (size_t i = 0; i < h->len;) {
        if (strcasecmp(h->items[i].name, name) != 0) {
            i++;
            continue;
        }
        if (replaced) {
            headers_delete_at(h, i);
            continue;
        }
        byoc_free_secret(h->items[i].value);
        h->items[i].value = byoc_xstrdup(value ? value : "");
        replaced = true;
        i++;
    }
    if (!replaced)
        byoc_headers_add(h, name, value);
}

const char *byoc_headers_get(const byoc_headers *h, const char *name)
{
    for (size_t i = 0; i < h->len; i++)
        if (strcasecmp(h->items[i].name, name) == 0)
            return h->items[i].value;
    return NULL;
}

void byoc_headers_remove(byoc_headers *h, const char *name)
{
    for (size_t i = 0; i < h->len;) {
        if (strcasecmp(h->items[i].name, name) == 0)
            headers_delete_at(h, i);
        else
            i++;
    }
}

void byoc_headers_clear(byoc_headers *h)
{
    for (size_t i = 0; i < h->len; i++) {
        free(h->items[i].name);
        byoc_free_secret(h->items[i].value);
    }
    free(h->items);
    h->items = NULL;
    h->len = h->cap = 0;
}

/* ---- URL encoding -------------------------------------------------------------- */

char *byoc_url_encode(const char *s, bool keep_slash)
{
    static const char hex[] = "0123456789ABCDEF";
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_reserve(&b, strlen(s));
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (isalnum(*p) || *p == '-' || *p == '_' || *p == '.' || *p == '~' ||
            (keep_slash && *p == '/')) {
            byoc_buf_putc(&b, (char)*p);
        } else {
            char esc[3] = {'%', hex[*p >> 4], hex[*p & 15]};
            byoc_buf_append(&b, esc, 3);
        }
    }
    return byoc_buf_steal(&b);
}

/* ---- global state: DNS/TLS-session share and a pool of idle easy handles --------
 *
 * libcurl keeps live connections inside each easy handle, and its shared
 * connection cache is not safe across concurrent threads. So connection reuse
 * comes from a pool of idle easy handles, each remembering the origin it last
 * talked to: a call takes a handle that already holds a connection to its
 * origin when there is one, and puts it back afterwards. DNS answers and TLS
 * sessions are shared between all handles (that part of libcurl is thread-safe
 * with lock callbacks). */

typedef struct pooled_handle {
    CURL *curl;
    char *origin;
} pooled_handle;

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static bool curl_ready;
static CURLSH *share;
static pthread_mutex_t share_locks[CURL_LOCK_DATA_LAST];
static pooled_handle pool[POOL_MAX]; /* oldest first */
static size_t pool_len;

static void share_lock(CURL *h, curl_lock_data data, curl_lock_access access, void *ud)
{
    (void)h, (void)access, (void)ud;
    pthread_mutex_lock(&share_locks[data]);
}

static void share_unlock(CURL *h, curl_lock_data data, void *ud)
{
    (void)h, (void)ud;
    pthread_mutex_unlock(&share_locks[data]);
}

/* libcurl's table: set once, under state_lock, by the first exchange (libcurl_api.h says why
 * it is not linked); read without the lock afterwards, as it never changes again. */
static const byoc_curl_api *cu;

static int ensure_ready_locked(byoc_err *err)
{
    if (curl_ready)
        return 0;
    if (!cu && !(cu = byoc_curl_api_get(err)))
        return -1;
    if (cu->curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return byoc_err_set(err, BYOC_E_NET, "network", "libcurl could not be initialised");
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++)
        pthread_mutex_init(&share_locks[i], NULL);
    share = cu->curl_share_init();
    if (share) {
        cu->curl_share_setopt(share, CURLSHOPT_LOCKFUNC, share_lock);
        cu->curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, share_unlock);
        cu->curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
        cu->curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
    }
    /* From now on a task thread may make TLS calls: each frees OpenSSL's per-thread state as it
     * ends, which OpenSSL's own exit handler misses for a thread that loaded libcurl (LeakSanitizer:
     * byoc build over a TLS engine, which runs as a CLI task). */
    byoc_task_set_thread_end(byoc_http_thread_done);
    curl_ready = true;
    return 0;
}

static int ensure_ready(byoc_err *err)
{
    pthread_mutex_lock(&state_lock);
    int rc = ensure_ready_locked(err);
    pthread_mutex_unlock(&state_lock);
    return rc;
}

int byoc_http_global_init(void)
{
    return ensure_ready(NULL);
}

void byoc_http_global_cleanup(void)
{
    pthread_mutex_lock(&state_lock);
    if (curl_ready) {
        for (size_t i = 0; i < pool_len; i++) {
            cu->curl_easy_cleanup(pool[i].curl);
            free(pool[i].origin);
        }
        pool_len = 0;
        if (share)
            cu->curl_share_cleanup(share);
        share = NULL;
        for (int i = 0; i < CURL_LOCK_DATA_LAST; i++)
            pthread_mutex_destroy(&share_locks[i]);
        cu->curl_global_cleanup();
        curl_ready = false;
    }
    pthread_mutex_unlock(&state_lock);
}

/* A handle for `origin`: a pooled one holding a connection there if any, else a new one; NULL
 * with err set when libcurl cannot be loaded or initialised. */
static CURL *handle_acquire(const char *origin, byoc_err *err)
{
    CURL *curl = NULL;
    pthread_mutex_lock(&state_lock);
    if (ensure_ready_locked(err) != 0) {
        pthread_mutex_unlock(&state_lock);
        return NULL;
    }
    for (size_t i = pool_len; i-- > 0;) {
        if (strcmp(pool[i].origin, origin) == 0) {
            curl = pool[i].curl;
            free(pool[i].origin);
            memmove(&pool[i], &pool[i + 1], (pool_len - i - 1) * sizeof *pool);
            pool_len--;
            break;
        }
    }
    CURLSH *sh = share;
    pthread_mutex_unlock(&state_lock);
    if (!curl) {
        curl = cu->curl_easy_init();
        if (curl && sh)
            cu->curl_easy_setopt(curl, CURLOPT_SHARE, sh);
        if (!curl)
            byoc_err_set(err, BYOC_E_NET, "network", "libcurl could not make a handle");
    }
    return curl;
}

static void handle_release(CURL *curl, const char *origin)
{
    cu->curl_easy_reset(curl); /* options only: live connections, DNS and the share stay */
    CURL *evicted = NULL;
    pthread_mutex_lock(&state_lock);
    if (!curl_ready) {
        evicted = curl;
    } else {
        if (pool_len == POOL_MAX) {
            evicted = pool[0].curl;
            free(pool[0].origin);
            memmove(&pool[0], &pool[1], (POOL_MAX - 1) * sizeof *pool);
            pool_len--;
        }
        pool[pool_len].curl = curl;
        pool[pool_len].origin = byoc_xstrdup(origin);
        pool_len++;
    }
    pthread_mutex_unlock(&state_lock);
    if (evicted)
        cu->curl_easy_cleanup(evicted);
}

/* ---- one exchange -------------------------------------------------------------- */

typedef struct xfer {
    const byoc_http_req *req;
    byoc_http_resp *resp;
    CURL *curl;
    size_t mem_off;          /* read position in req->body */
    bool cancelled;          /* the task was cancelled */
    bool sink_failed;        /* the sink asked to stop */
    bool reader_failed;      /* the body reader reported an error */
    bool too_big;            /* the body passed opts->max_body */
    uint64_t sunk;           /* bytes handed to the sink */
} xfer;

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* Collects the headers of the final response: a status line starts a new set,
 * so those of a 100 Continue (or a proxy's CONNECT reply) are dropped. */
static size_t on_header(char *p, size_t size, size_t n, void *ud)
{
    xfer *x = ud;
    size_t len = size * n, l = len;
    byoc_headers *h = &x->resp->headers;
    while (l && is_space(p[l - 1]))
        l--;
    if (l >= 5 && memcmp(p, "HTTP/", 5) == 0) {
        byoc_headers_clear(h);
        return len;
    }
    if (l == 0)
        return len;
    if (p[0] == ' ' || p[0] == '\t') { /* obsolete line folding */
        if (h->len) {
            size_t s = 0;
            while (s < l && is_space(p[s]))
                s++;
            byoc_header *last = &h->items[h->len - 1];
            char *v = byoc_xasprintf("%s %.*s", last->value, (int)(l - s), p + s);
            byoc_free_secret(last->value);
            last->value = v;
        }
        return len;
    }
    const char *colon = memchr(p, ':', l);
    if (!colon)
        return len;
    size_t nl = (size_t)(colon - p);
    while (nl && is_space(p[nl - 1]))
        nl--;
    const char *v = colon + 1;
    while (v < p + l && is_space(*v))
        v++;
    headers_push(h, byoc_xstrndup(p, nl), byoc_xstrndup(v, (size_t)(p + l - v)));
    return len;
}

static size_t on_body(char *p, size_t size, size_t n, void *ud)
{
    xfer *x = ud;
    size_t len = size * n;
    if (x->req->sink) {
        long status = 0;
        cu->curl_easy_getinfo(x->curl, CURLINFO_RESPONSE_CODE, &status);
        if (status >= 200 && status < 300) {
            size_t max = x->req->opts ? x->req->opts->max_body : 0;
            if (max && (x->sunk > max || len > max - x->sunk)) {
                x->too_big = true;
                return 0;
            }
            x->sunk += len;
            if (x->req->sink(p, len, x->req->sink_ud) != 0) {
                x->sink_failed = true;
                return 0;
            }
            return len;
        }
        if (x->resp->body.len >= ERROR_BODY_MAX)
            return len;
        size_t room = ERROR_BODY_MAX - x->resp->body.len;
        byoc_buf_append(&x->resp->body, p, len < room ? len : room);
        return len;
    }
    size_t max = x->req->opts ? x->req->opts->max_body : 0;
    if (max && len > max - (x->resp->body.len < max ? x->resp->body.len : max)) {
        x->too_big = true;
        return 0;
    }
    byoc_buf_append(&x->resp->body, p, len);
    return len;
}

static size_t on_read(char *dst, size_t size, size_t n, void *ud)
{
    xfer *x = ud;
    size_t want = size * n;
    const byoc_http_req *r = x->req;
    if (r->body_reader) {
        size_t got = r->body_reader(dst, want, r->body_ud);
        if (got == (size_t)-1) {
            x->reader_failed = true;
            return CURL_READFUNC_ABORT;
        }
        return got > want ? want : got;
    }
    size_t left = r->body_len - x->mem_off;
    size_t take = left < want ? left : want;
    if (take)
        memcpy(dst, (const char *)r->body + x->mem_off, take);
    x->mem_off += take;
    return take;
}

/* Rewinding lets libcurl resend an in-memory body on a fresh connection when a
 * kept-alive one turns out to be dead. Streamed bodies cannot rewind. */
static int on_seek(void *ud, curl_off_t offset, int origin)
{
    xfer *x = ud;
    if (x->req->body_reader)
        return CURL_SEEKFUNC_CANTSEEK;
    if (origin != SEEK_SET || offset < 0 || (size_t)offset > x->req->body_len)
        return CURL_SEEKFUNC_FAIL;
    x->mem_off = (size_t)offset;
    return CURL_SEEKFUNC_OK;
}

static int on_progress(void *ud, curl_off_t dlt, curl_off_t dln, curl_off_t ult, curl_off_t uln)
{
    (void)dlt, (void)dln, (void)ult, (void)uln;
    xfer *x = ud;
    if (byoc_task_cancelled(x->req->task)) {
        x->cancelled = true;
        return 1;
    }
    return 0;
}

/* origin: "scheme://host:port" (for pooling and messages), or "unix:<path>";
 * path: the URL's path without the query (for the debug log: queries may hold
 * presigned credentials). Returns -1 if the URL does not parse. */
static int url_parts(const char *url, const char *unix_socket, char **origin, char **path)
{
    CURLU *u = cu->curl_url();
    if (!u)
        return -1;
    char *scheme = NULL, *host = NULL, *port = NULL, *p = NULL;
    int rc = -1;
    if (cu->curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
        cu->curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
        cu->curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
        cu->curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) == CURLUE_OK &&
        cu->curl_url_get(u, CURLUPART_PATH, &p, 0) == CURLUE_OK) {
        if (unix_socket)
            *origin = byoc_xasprintf("unix:%s", unix_socket);
        else
            *origin = byoc_xasprintf("%s://%s:%s", scheme, host, port);
        *path = byoc_xstrdup(p);
        rc = 0;
    }
    cu->curl_free(scheme);
    cu->curl_free(host);
    cu->curl_free(port);
    cu->curl_free(p);
    cu->curl_url_cleanup(u);
    return rc;
}

static bool header_text_ok(const char *s)
{
    for (; *s; s++)
        if (*s == '\r' || *s == '\n')
            return false;
    return true;
}

static void slist_free_wiped(struct curl_slist *l)
{
    for (struct curl_slist *i = l; i; i = i->next)
        byoc_wipe(i->data, strlen(i->data));
    cu->curl_slist_free_all(l);
}

/* The request headers as libcurl wants them ("Name: value"; "Name;" sends an
 * empty value), plus "Expect:" (none) for small bodies. NULL list is valid. */
static int build_header_list(const byoc_http_req *req, bool small_upload, struct curl_slist **out,
                             byoc_err *err)
{
    struct curl_slist *list = NULL;
    for (size_t i = 0; i < req->headers.len; i++) {
        const byoc_header *h = &req->headers.items[i];
        if (!h->name[0] || strchr(h->name, ':') || !header_text_ok(h->name) ||
            !header_text_ok(h->value)) {
            slist_free_wiped(list);
            return byoc_err_set(err, BYOC_E_USAGE, "http", "invalid request header name or value (%s)",
                                header_text_ok(h->name) ? h->name : "?");
        }
        char *line = h->value[0] ? byoc_xasprintf("%s: %s", h->name, h->value)
                                 : byoc_xasprintf("%s;", h->name);
        struct curl_slist *next = cu->curl_slist_append(list, line);
        byoc_free_secret(line);
        if (!next) {
            slist_free_wiped(list);
            return byoc_err_set(err, BYOC_E_FAILED, "http", "out of memory building headers");
        }
        list = next;
    }
    if (small_upload && !byoc_headers_get(&req->headers, "Expect")) {
        struct curl_slist *next = cu->curl_slist_append(list, "Expect:");
        if (next)
            list = next;
    }
    *out = list;
    return 0;
}

static void set_method_and_body(CURL *c, const byoc_http_req *req, bool *small_upload)
{
    const char *m = req->method ? req->method : "GET";
    bool has_body = req->body || req->body_reader;
    bool wants_body = has_body || strcmp(m, "POST") == 0 || strcmp(m, "PUT") == 0 ||
                      strcmp(m, "PATCH") == 0;
    *small_upload = false;
    if (strcmp(m, "HEAD") == 0) {
        cu->curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
        return;
    }
    if (!wants_body) {
        if (strcmp(m, "GET") == 0)
            cu->curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
        else
            cu->curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, m);
        return;
    }
    /* Uploads go through the read callback in every case: unlike POSTFIELDS this
     * adds no form Content-Type, which Go servers (dockerd, registry) reject. */
    curl_off_t size = req->body_reader ? (curl_off_t)req->body_size
                                       : (curl_off_t)(req->body ? req->body_len : 0);
    cu->curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
    cu->curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, m);
    cu->curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, size < 0 ? (curl_off_t)-1 : size);
    *small_upload = size >= 0 && size < EXPECT_THRESHOLD;
}

/* With no CA bundle of its own a handle trusts the system's CAs, and libcurl's default has
 * OpenSSL parse the whole system bundle (about 150 certificates, 1.5 MiB of memory) into every
 * TLS context. The system's hashed CA directory holds the same certificates (Debian's
 * update-ca-certificates writes both) and lets OpenSSL read only the few a chain needs, so the
 * bundle is dropped when libcurl's default directory has hashed certificates in it. */
static pthread_once_t ca_dir_once = PTHREAD_ONCE_INIT;
static bool ca_dir_usable;

static bool is_hash_name(const char *name)
{
    size_t n = strspn(name, "0123456789abcdef");
    return n == 8 && name[8] == '.' && isdigit((unsigned char)name[9]) && !name[10];
}

static void check_ca_dir(void)
{
    CURL *c = cu->curl_easy_init();
    char *dir = NULL;
    if (c && cu->curl_easy_getinfo(c, CURLINFO_CAPATH, &dir) == CURLE_OK && dir) {
        DIR *d = opendir(dir);
        for (struct dirent *e; d && !ca_dir_usable && (e = readdir(d));)
            ca_dir_usable = is_hash_name(e->d_name);
        if (d)
            closedir(d);
    }
    cu->curl_easy_cleanup(c);
}

static void set_transport(CURL *c, const byoc_http_opts *o, bool streaming_response)
{
    byoc_http_opts none = {0};
    if (!o)
        o = &none;
    cu->curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
                     o->connect_timeout_ms > 0 ? o->connect_timeout_ms : DEFAULT_CONNECT_TIMEOUT_MS);
    if (o->timeout_ms > 0)
        cu->curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, o->timeout_ms);
    long low = o->low_speed_time_s;
    if (low == 0 && !streaming_response)
        low = DEFAULT_LOW_SPEED_TIME_S;
    if (o->max_body)
        cu->curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)o->max_body); /* by Content-Length, early */
    if (low > 0) {
        cu->curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, o->low_speed_limit > 0 ? o->low_speed_limit : 1L);
        cu->curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, low);
    }
    if (o->unix_socket)
        cu->curl_easy_setopt(c, CURLOPT_UNIX_SOCKET_PATH, o->unix_socket);
    if (o->no_proxy || o->unix_socket)
        cu->curl_easy_setopt(c, CURLOPT_PROXY, ""); /* "" overrides the proxy variables */
    if (o->ca_bundle) {
        cu->curl_easy_setopt(c, CURLOPT_CAINFO, o->ca_bundle);
    } else {
        pthread_once(&ca_dir_once, check_ca_dir);
        if (ca_dir_usable)
            cu->curl_easy_setopt(c, CURLOPT_CAINFO, NULL); /* the default CAPATH stays */
    }
    if (o->client_cert)
        cu->curl_easy_setopt(c, CURLOPT_SSLCERT, o->client_cert);
    if (o->client_key)
        cu->curl_easy_setopt(c, CURLOPT_SSLKEY, o->client_key);
    if (o->insecure_skip_verify) {
        cu->curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L);
        cu->curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L);
    }
}

static int transfer_failed(const xfer *x, CURLcode rc, const char *errbuf, const char *origin,
                           byoc_err *err)
{
    byoc_http_resp *resp = x->resp;
    resp->curl_code = (int)rc;
    resp->timed_out = rc == CURLE_OPERATION_TIMEDOUT;
    snprintf(resp->curl_error, sizeof resp->curl_error, "%s", errbuf[0] ? errbuf : cu->curl_easy_strerror(rc));
    byoc_redact_inplace(resp->curl_error);
    const char *where = strncmp(origin, "unix:", 5) == 0 ? origin + 5 : origin;
    if (x->cancelled || byoc_task_cancelled(x->req->task)) /* a sink or reader may stop for it too */
        return byoc_err_set(err, BYOC_E_CANCELLED, "network", "%s: cancelled", where);
    if (x->too_big || rc == CURLE_FILESIZE_EXCEEDED) {
        resp->too_large = true;
        return byoc_err_set(err, BYOC_E_FAILED, "network",
                            "%s: the reply is larger than %zu bytes, far more than such a reply needs: refused", where,
                            x->req->opts->max_body);
    }
    if (x->sink_failed)
        return byoc_err_set(err, BYOC_E_FAILED, "network",
                            "%s: the response body could not be consumed", where);
    if (x->reader_failed)
        return byoc_err_set(err, BYOC_E_FAILED, "network", "%s: the request body could not be read",
                            where);
    return byoc_err_set(err, BYOC_E_NET, "network", "%s: %s", where, resp->curl_error);
}

int byoc_http_do(const byoc_http_req *req, byoc_http_resp *resp, byoc_err *err)
{
    if (!req->url)
        return byoc_err_set(err, BYOC_E_USAGE, "http", "no URL given");
    if (ensure_ready(err) != 0)
        return -1;
    const byoc_http_opts *o = req->opts;
    char *origin = NULL, *path = NULL;
    if (url_parts(req->url, o ? o->unix_socket : NULL, &origin, &path) != 0)
        return byoc_err_set(err, BYOC_E_USAGE, "http", "invalid URL");
    if (byoc_task_cancelled(req->task)) {
        int rc = byoc_err_set(err, BYOC_E_CANCELLED, "network", "cancelled");
        free(origin);
        free(path);
        return rc;
    }

    bool small_upload;
    struct curl_slist *hdrs = NULL;
    CURL *c = handle_acquire(origin, err);
    if (!c) {
        free(origin);
        free(path);
        return -1; /* err says why */
    }
    set_method_and_body(c, req, &small_upload);
    if (build_header_list(req, small_upload, &hdrs, err) != 0) {
        handle_release(c, origin);
        free(origin);
        free(path);
        return -1;
    }

    xfer x = {.req = req, .resp = resp, .curl = c};
    char errbuf[CURL_ERROR_SIZE] = "";
    cu->curl_easy_setopt(c, CURLOPT_URL, req->url);
    cu->curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    cu->curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    cu->curl_easy_setopt(c, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
    cu->curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    cu->curl_easy_setopt(c, CURLOPT_USERAGENT, "byoc/" BYOC_VERSION); /* a User-Agent header overrides */
    cu->curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    cu->curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdrs);
    cu->curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    cu->curl_easy_setopt(c, CURLOPT_HEADERDATA, &x);
    cu->curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    cu->curl_easy_setopt(c, CURLOPT_WRITEDATA, &x);
    cu->curl_easy_setopt(c, CURLOPT_READFUNCTION, on_read);
    cu->curl_easy_setopt(c, CURLOPT_READDATA, &x);
    cu->curl_easy_setopt(c, CURLOPT_SEEKFUNCTION, on_seek);
    cu->curl_easy_setopt(c, CURLOPT_SEEKDATA, &x);
    cu->curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    cu->curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
    cu->curl_easy_setopt(c, CURLOPT_XFERINFODATA, &x);
    cu->curl_easy_setopt(c, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1L);
    cu->curl_easy_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);
    cu->curl_easy_setopt(c, CURLOPT_BUFFERSIZE, 256L * 1024);
    cu->curl_easy_setopt(c, CURLOPT_UPLOAD_BUFFERSIZE, 256L * 1024);
    set_transport(c, o, req->sink != NULL);

    CURLcode rc = cu->curl_easy_perform(c);
    cu->curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &resp->status);
    curl_off_t micros = 0;
    cu->curl_easy_getinfo(c, CURLINFO_TOTAL_TIME_T, &micros);
    int ret = 0;
    if (rc != CURLE_OK)
        ret = transfer_failed(&x, rc, errbuf, origin, err);
    byoc_log(BYOC_LOG_DEBUG, "http %s %s %s -> %ld%s%s (%.1f ms)", req->method ? req->method : "GET",
             origin, path, resp->status, rc != CURLE_OK ? ", " : "",
             rc != CURLE_OK ? resp->curl_error : "", (double)micros / 1000.0);
    cu->curl_easy_setopt(c, CURLOPT_HTTPHEADER, NULL);
    slist_free_wiped(hdrs);
    handle_release(c, origin);
    free(origin);
    free(path);
    return ret;
}

void byoc_http_resp_clear(byoc_http_resp *resp)
{
    if (!resp)
        return;
    byoc_headers_clear(&resp->headers);
    byoc_buf_clear(&resp->body);
}

void byoc_http_thread_done(void)
{
    OPENSSL_thread_stop();
}
