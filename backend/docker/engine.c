#include "docker/engine.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/log.h"
#include "core/utf8.h"

#define DEFAULT_HOST "unix:///var/run/docker.sock"
#define OLDEST_API "1.24" /* what an engine without the Api-Version header speaks */

struct byoc_engine {
    char *host;          /* as the user knows it, for messages */
    char *base_url;      /* "http://localhost" for unix sockets */
    char *unix_path;
    char *ca, *cert, *key;
    byoc_http_opts opts;
    char pinned[16];     /* DOCKER_API_VERSION */
    atomic_int refs;     /* byoc_engine_ref; the last free frees */
    pthread_mutex_t lock; /* the negotiation: once, whoever asks first */
    bool connected;
    char api_version[16];
    char server_api_version[16];
};

/* ---- construction ---- */

static int host_error(const char *host, const char *why, byoc_err *err)
{
    return byoc_err_set(err, BYOC_E_ENV, "DOCKER_HOST", "cannot use '%s': %s", host, why);
}

static char *cert_file(const char *dir, const char *name)
{
    return byoc_xasprintf("%s/%s", dir, name);
}

static atomic_ulong made;

unsigned long byoc_engine_count_made(void)
{
    return atomic_load(&made);
}

int byoc_engine_new_host(const char *host, byoc_engine **out, byoc_err *err)
{
    *out = NULL;
    if (!host || !*host)
        host = DEFAULT_HOST;
    byoc_engine *e = byoc_xcalloc(1, sizeof *e);
    atomic_init(&e->refs, 1);
    pthread_mutex_init(&e->lock, NULL);
    e->host = byoc_xstrdup(host);
    const char *tlsv = getenv("DOCKER_TLS_VERIFY"), *tls = getenv("DOCKER_TLS");
    bool verify = tlsv && *tlsv, use_tls = verify || (tls && *tls);
    const char *pin = getenv("DOCKER_API_VERSION");
    if (pin && *pin)
        snprintf(e->pinned, sizeof e->pinned, "%s", pin);

    if (strncmp(host, "unix://", 7) == 0) {
        const char *path = host + 7;
        if (!*path) {
            byoc_engine_free(e);
            return host_error(host, "no socket path", err);
        }
        e->unix_path = byoc_xstrdup(path);
        e->base_url = byoc_xstrdup("http://localhost");
        e->opts.unix_socket = e->unix_path;
    } else if (strncmp(host, "ssh://", 6) == 0 || strncmp(host, "fd://", 5) == 0 ||
               strncmp(host, "npipe://", 8) == 0) {
        byoc_engine_free(e);
        return host_error(host, "byoc speaks to the engine over unix:// or tcp:// only", err);
    } else {
        const char *hp = strncmp(host, "tcp://", 6) == 0 ? host + 6 : host;
        if (strstr(hp, "://")) {
            byoc_engine_free(e);
            return host_error(host, "unknown scheme (use unix:// or tcp://)", err);
        }
        size_t hl = strcspn(hp, "/");
        if (hl == 0) {
            byoc_engine_free(e);
            return host_error(host, "no host name", err);
        }
        char *hostport = byoc_xstrndup(hp, hl);
        const char *rb = strrchr(hostport, ']');
        const char *colon = strrchr(rb ? rb : hostport, ':');
        const char *port_default = use_tls ? "2376" : "2375";
        e->base_url = byoc_xasprintf("%s://%s%s%s", use_tls ? "https" : "http", hostport,
                                     colon ? "" : ":", colon ? "" : port_default);
        free(hostport);
        if (use_tls) {
            const char *dir = getenv("DOCKER_CERT_PATH");
            char *home_dir = NULL;
            if (!dir || !*dir) {
                const char *home = getenv("HOME");
                home_dir = byoc_xasprintf("%s/.docker", home ? home : "");
                dir = home_dir;
            }
            char *ca = cert_file(dir, "ca.pem"), *cert = cert_file(dir, "cert.pem"), *key = cert_file(dir, "key.pem");
            free(home_dir);
            if (verify) {
                if (access(ca, R_OK) != 0) {
                    byoc_err_set(err, BYOC_E_ENV, "DOCKER_CERT_PATH", "cannot read %s: %s", ca, strerror(errno));
                    free(ca), free(cert), free(key);
                    byoc_engine_free(e);
                    return -1;
                }
                e->ca = ca;
            } else {
                free(ca);
                e->opts.insecure_skip_verify = true;
            }
            if (access(cert, R_OK) == 0 && access(key, R_OK) == 0) {
                e->cert = cert;
                e->key = key;
            } else {
                free(cert);
                free(key);
            }
            e->opts.ca_bundle = e->ca;
            e->opts.client_cert = e->cert;
            e->opts.client_key = e->key;
        }
        e->opts.no_proxy = true; /* the CLI does not proxy the engine either when it is local */
    }
    atomic_fetch_add(&made, 1);
    *out = e;
    return 0;
}

int byoc_engine_new(byoc_engine **out, byoc_err *err)
{
    return byoc_engine_new_host(getenv("DOCKER_HOST"), out, err);
}

byoc_engine *byoc_engine_ref(byoc_engine *e)
{
    if (e)
        atomic_fetch_add(&e->refs, 1);
    return e;
}

void byoc_engine_free(byoc_engine *e)
{
    if (!e || atomic_fetch_sub(&e->refs, 1) != 1)
        return;
    pthread_mutex_destroy(&e->lock);
    free(e->host);
    free(e->base_url);
    free(e->unix_path);
    free(e->ca);
    free(e->cert);
    free(e->key);
    free(e);
}

const char *byoc_engine_host(const byoc_engine *e) { return e->host; }
const char *byoc_engine_api_version(const byoc_engine *e) { return e->api_version; }

/* ---- helpers ---- */

void byoc_query_add(byoc_buf *q, const char *key, const char *value)
{
    char *k = byoc_url_encode(key, false), *v = byoc_url_encode(value ? value : "", false);
    byoc_buf_printf(q, "%s%s=%s", q->len ? "&" : "", k, v);
    free(k);
    free(v);
}

void byoc_query_add_int(byoc_buf *q, const char *key, long long value)
{
    char num[32];
    snprintf(num, sizeof num, "%lld", value);
    byoc_query_add(q, key, num);
}

char *byoc_engine_path_escape(const char *name)
{
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_puts(&b, "");
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/:@", *p))
            byoc_buf_putc(&b, (char)*p);
        else
            byoc_buf_printf(&b, "%%%02X", *p);
    }
    return byoc_buf_steal(&b);
}

/* Compare "1.41" style versions. */
static int version_cmp(const char *a, const char *b)
{
    long amaj = strtol(a, NULL, 10), bmaj = strtol(b, NULL, 10);
    const char *ad = strchr(a, '.'), *bd = strchr(b, '.');
    long amin = ad ? strtol(ad + 1, NULL, 10) : 0, bmin = bd ? strtol(bd + 1, NULL, 10) : 0;
    if (amaj != bmaj)
        return amaj < bmaj ? -1 : 1;
    return amin < bmin ? -1 : amin > bmin;
}

/* A readable reason why the unix socket does not answer. */
static void unix_why(const char *path, const char *curl_text, char *why, size_t n)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(why, n, "%s", errno == ENOENT ? "no such socket" : strerror(errno));
        return;
    }
    if (!S_ISSOCK(st.st_mode)) {
        snprintf(why, n, "not a socket");
        return;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (fd >= 0 && strlen(path) < sizeof sa.sun_path) {
        memcpy(sa.sun_path, path, strlen(path) + 1);
        if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
            int ce = errno;
            close(fd);
            if (ce == ECONNREFUSED)
                snprintf(why, n, "connection refused (nothing listens on the socket)");
            else if (ce == EACCES)
                snprintf(why, n, "permission denied (join the docker group or run as root)");
            else
                snprintf(why, n, "%s", strerror(ce));
            return;
        }
    }
    if (fd >= 0)
        close(fd);
    snprintf(why, n, "%s", curl_text && *curl_text ? curl_text : "no answer");
}

static int no_engine(const byoc_engine *e, const char *why, byoc_err *err)
{
    return byoc_err_set(err, BYOC_E_ENV, "engine", "no Docker engine at %s: %s; start dockerd or set DOCKER_HOST",
                        e->host, why);
}

int byoc_engine_unreachable(const byoc_engine *e, const char *why, byoc_err *err)
{
    char plain[300];
    if (e->unix_path)
        unix_why(e->unix_path, why, plain, sizeof plain);
    else
        snprintf(plain, sizeof plain, "%s", why);
    return no_engine(e, plain, err);
}

bool byoc_engine_plain_address(const byoc_engine *e, const char **unix_path, char *host, size_t host_size,
                               char *port, size_t port_size)
{
    *unix_path = e->unix_path;
    if (e->unix_path)
        return true;
    if (strncmp(e->base_url, "http://", 7) != 0)
        return false;
    const char *hp = e->base_url + 7, *colon = strrchr(hp, ':');  /* the port is always there */
    if (!colon)
        return false;
    const char *h = hp, *he = colon;
    if (*h == '[' && he > h && he[-1] == ']')
        h++, he--;
    snprintf(host, host_size, "%.*s", (int)(he - h), h);
    snprintf(port, port_size, "%s", colon + 1);
    return true;
}

/* Raw exchange with a full path (no version prefix added). */
static int raw_do(byoc_engine *e, byoc_task *t, const char *method, const char *path_and_query,
                  const byoc_engine_req *r, byoc_http_resp *resp, byoc_err *err)
{
    char *url = byoc_xasprintf("%s%s", e->base_url, path_and_query);
    byoc_http_req req = {.method = method, .url = url, .opts = &e->opts, .task = t};
    char *json_text = NULL;
    if (r && r->headers)
        for (size_t i = 0; i < r->headers->len; i++)
            byoc_headers_add(&req.headers, r->headers->items[i].name, r->headers->items[i].value);
    if (r && r->json) {
        json_text = json_dumps(r->json, JSON_COMPACT);
        req.body = json_text;
        req.body_len = strlen(json_text);
        byoc_headers_set(&req.headers, "Content-Type", "application/json");
    } else if (r && (r->body || r->reader)) {
        req.body = r->body;
        req.body_len = r->body_len;
        req.body_reader = r->reader;
        req.body_ud = r->reader_ud;
        req.body_size = r->reader ? -1 : (int64_t)r->body_len;
        byoc_headers_set(&req.headers, "Content-Type",
                         r->content_type ? r->content_type : "application/octet-stream");
    }
    if (r) {
        req.sink = r->sink;
        req.sink_ud = r->sink_ud;
    }
    int rc = byoc_http_do(&req, resp, err);
    if (json_text)
        byoc_free_secret(json_text);
    byoc_headers_clear(&req.headers);
    free(url);
    if (rc < 0 && err && err->kind == BYOC_E_NET && resp->curl_code == 7 /* CURLE_COULDNT_CONNECT */) {
        char why[256];
        if (e->unix_path)
            unix_why(e->unix_path, resp->curl_error, why, sizeof why);
        else
            snprintf(why, sizeof why, "%s", resp->curl_error);
        no_engine(e, why, err);
    } else if (rc < 0 && err && err->kind == BYOC_E_NET) {
        /* Say whose connection broke: the bare transport error names only an address. */
        /* The query is left out: build args travel there. */
        snprintf(err->what, sizeof err->what, "engine");
        byoc_err_prefix(err, "the connection to the Docker engine at %s broke during %s %.*s", e->host, method,
                        (int)strcspn(path_and_query, "?"), path_and_query);
    }
    return rc;
}

static void copy_header(const byoc_http_resp *resp, const char *name, char *dst, size_t n)
{
    const char *v = byoc_headers_get(&resp->headers, name);
    if (v)
        byoc_utf8_copy(dst, n, v);
}

int byoc_engine_connect(byoc_engine *e, byoc_task *t, byoc_err *err)
{
    pthread_mutex_lock(&e->lock);
    if (e->connected) {
        pthread_mutex_unlock(&e->lock);
        return 0;
    }
    byoc_http_resp resp = {0};
    byoc_err local;
    int rc = raw_do(e, t, "GET", "/_ping", NULL, &resp, &local);
    if (rc < 0) {
        if (local.kind == BYOC_E_NET) {
            char why[300];
            if (e->unix_path)
                unix_why(e->unix_path, resp.curl_error, why, sizeof why);
            else
                snprintf(why, sizeof why, "%s", resp.curl_error);
            no_engine(e, why, &local);
        }
        if (err)
            *err = local;
        byoc_http_resp_clear(&resp);
        pthread_mutex_unlock(&e->lock);
        return -1;
    }
    char server[16] = "";
    copy_header(&resp, "Api-Version", server, sizeof server);
    long status = resp.status;
    byoc_http_resp_clear(&resp);
    if (status != 200 && !server[0]) {
        char why[64];
        snprintf(why, sizeof why, "GET /_ping answered HTTP %ld: not a Docker engine", status);
        no_engine(e, why, err);
        pthread_mutex_unlock(&e->lock);
        return -1;
    }
    if (!server[0]) {
        byoc_http_resp v = {0};
        if (raw_do(e, t, "GET", "/version", NULL, &v, &local) == 0 && v.status == 200) {
            json_t *doc = json_loadb(v.body.data ? v.body.data : "", v.body.len, 0, NULL);
            const char *api = json_string_value(json_object_get(doc, "ApiVersion"));
            if (api)
                snprintf(server, sizeof server, "%s", api);
            json_decref(doc);
        }
        byoc_http_resp_clear(&v);
    }
    if (!server[0])
        snprintf(server, sizeof server, "%s", OLDEST_API);
    snprintf(e->server_api_version, sizeof e->server_api_version, "%s", server);
    if (e->pinned[0])
        snprintf(e->api_version, sizeof e->api_version, "%s", e->pinned);
    else
        snprintf(e->api_version, sizeof e->api_version, "%s",
                 version_cmp(server, BYOC_ENGINE_API_VERSION) < 0 ? server : BYOC_ENGINE_API_VERSION);
    e->connected = true;
    pthread_mutex_unlock(&e->lock);
    byoc_log(BYOC_LOG_DEBUG, "docker: %s speaks API %s, using %s", e->host, server, e->api_version);
    return 0;
}

int byoc_engine_do(byoc_engine *e, byoc_task *t, const byoc_engine_req *r, byoc_http_resp *resp, byoc_err *err)
{
    if (byoc_engine_connect(e, t, err) < 0)
        return -1;
    char *pq = byoc_xasprintf("/v%s%s%s%s", e->api_version, r->path, r->query && *r->query ? "?" : "",
                              r->query && *r->query ? r->query : "");
    int rc = raw_do(e, t, r->method ? r->method : "GET", pq, r, resp, err);
    free(pq);
    return rc;
}

int byoc_engine_check(const byoc_http_resp *resp, const char *what, byoc_err *err)
{
    if ((resp->status >= 200 && resp->status < 300) || resp->status == 304)
        return 0;
    char msg[600] = "";
    json_t *doc = json_loadb(resp->body.data ? resp->body.data : "", resp->body.len, 0, NULL);
    const char *m = json_string_value(json_object_get(doc, "message"));
    if (m) {
        byoc_utf8_copy(msg, sizeof msg, m);
    } else if (resp->body.len) {
        size_t n = resp->body.len < sizeof msg - 1 ? resp->body.len : sizeof msg - 1;
        memcpy(msg, resp->body.data, n);
        msg[n] = 0;
        while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == '\r' || msg[n - 1] == ' '))
            msg[--n] = 0;
    }
    json_decref(doc);
    if (!msg[0])
        snprintf(msg, sizeof msg, "the engine answered HTTP %ld", resp->status);
    byoc_err_set(err, BYOC_E_FAILED, what, "%s", msg);
    if (err)
        err->http_status = (int)resp->status;
    return -1;
}

int byoc_engine_call(byoc_engine *e, byoc_task *t, const char *method, const char *path, const char *query,
                     json_t *body, json_t **out, const char *what, byoc_err *err)
{
    if (out)
        *out = NULL;
    byoc_engine_req r = {.method = method, .path = path, .query = query, .json = body};
    byoc_http_resp resp = {0};
    int rc = byoc_engine_do(e, t, &r, &resp, err);
    if (rc == 0)
        rc = byoc_engine_check(&resp, what, err);
    if (rc == 0 && out && resp.body.len) {
        json_error_t je;
        *out = json_loadb(resp.body.data, resp.body.len, JSON_DECODE_ANY, &je);
        if (!*out)
            rc = byoc_err_set(err, BYOC_E_FAILED, what, "the engine sent malformed JSON: %s", je.text);
    }
    byoc_http_resp_clear(&resp);
    return rc;
}

/* ---- ping ---- */

static void copy_str(const json_t *doc, const char *key, char *dst, size_t n)
{
    const char *v = json_string_value(json_object_get(doc, key));
    if (v)
        byoc_utf8_copy(dst, n, v);
}

void byoc_engine_info_from_version(byoc_engine_info *info, const json_t *version)
{
    copy_str(version, "MinAPIVersion", info->min_api_version, sizeof info->min_api_version);
    copy_str(version, "Version", info->server_version, sizeof info->server_version);
    copy_str(version, "Os", info->os, sizeof info->os);
    copy_str(version, "Arch", info->arch, sizeof info->arch);
    copy_str(version, "KernelVersion", info->kernel, sizeof info->kernel);
}

int byoc_engine_ping(byoc_engine *e, byoc_task *t, byoc_engine_info *info, byoc_err *err)
{
    memset(info, 0, sizeof *info);
    snprintf(info->host, sizeof info->host, "%s", e->host);
    if (byoc_engine_connect(e, t, err) < 0)
        return -1;
    json_t *doc = NULL;
    if (byoc_engine_call(e, t, "GET", "/version", NULL, NULL, &doc, "engine", err) < 0)
        return -1;
    snprintf(info->api_version, sizeof info->api_version, "%s", e->api_version);
    snprintf(info->server_api_version, sizeof info->server_api_version, "%s", e->server_api_version);
    byoc_engine_info_from_version(info, doc);
    json_decref(doc);
    return 0;
}

int byoc_docker_ping(byoc_task *t, byoc_engine_info *info, byoc_err *err)
{
    byoc_engine *e;
    memset(info, 0, sizeof *info);
    if (byoc_engine_new(&e, err) < 0)
        return -1;
    int rc = byoc_engine_ping(e, t, info, err);
    byoc_engine_free(e);
    return rc;
}
