/* net/http against a real loopback server (tests/fixtures/http_server.py):
 * plain TCP, a unix socket, HTTPS with a CA made on the fly, and mutual TLS. */
#include "check.h"
#include "core/log.h"
#include "core/task.h"
#include "net/http.h"

#include <jansson.h>
#include <openssl/evp.h>

#include <arpa/inet.h>
#include <ftw.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *tmpdir;
static pid_t server_pid;
static int http_port, https_port, mtls_port;
static char unix_path[512], ca_path[512], client_cert[512], client_key[512];

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static const char *fixture_path(void)
{
    static char path[4096];
    const char *src = getenv("BYOC_SOURCE_DIR");
    if (src && *src) {
        snprintf(path, sizeof path, "%s/tests/fixtures/http_server.py", src);
    } else { /* __FILE__ is <source>/tests/unit/test_http.c */
        snprintf(path, sizeof path, "%s", __FILE__);
        char *cut = strstr(path, "/unit/test_http.c");
        if (cut)
            strcpy(cut, "/fixtures/http_server.py");
    }
    return path;
}

static void copy_field(json_t *root, const char *key, char *dst, size_t size)
{
    const char *s = json_string_value(json_object_get(root, key));
    snprintf(dst, size, "%s", s ? s : "");
}

static int start_server(void)
{
    tmpdir = check_tmpdir();
    if (!tmpdir)
        return -1;
    server_pid = fork();
    if (server_pid == 0) {
        execlp("python3", "python3", fixture_path(), tmpdir, (char *)NULL);
        _exit(127);
    }
    char ready[4096];
    snprintf(ready, sizeof ready, "%s/ready.json", tmpdir);
    for (int i = 0; i < 600; i++) { /* up to 30 s for the certificates and listeners */
        json_t *root = json_load_file(ready, 0, NULL);
        if (root) {
            http_port = (int)json_integer_value(json_object_get(root, "http"));
            https_port = (int)json_integer_value(json_object_get(root, "https"));
            mtls_port = (int)json_integer_value(json_object_get(root, "mtls"));
            copy_field(root, "unix", unix_path, sizeof unix_path);
            copy_field(root, "ca", ca_path, sizeof ca_path);
            copy_field(root, "client_cert", client_cert, sizeof client_cert);
            copy_field(root, "client_key", client_key, sizeof client_key);
            json_decref(root);
            return 0;
        }
        if (waitpid(server_pid, NULL, WNOHANG) == server_pid)
            return -1;
        sleep_ms(50);
    }
    return -1;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void stop_server(void)
{
    if (server_pid > 0) {
        kill(server_pid, SIGTERM);
        waitpid(server_pid, NULL, 0);
    }
    if (tmpdir) {
        nftw(tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        free(tmpdir);
    }
}

static char *url(const char *path)
{
    return byoc_xasprintf("http://127.0.0.1:%d%s", http_port, path);
}

/* One exchange with the given request; returns byoc_http_do's result. */
static int exchange(byoc_http_req *req, byoc_http_resp *resp, byoc_err *err)
{
    memset(resp, 0, sizeof *resp);
    byoc_err_clear(err);
    return byoc_http_do(req, resp, err);
}

static void sha256_hex(const void *p, size_t n, char out[65])
{
    unsigned char md[32];
    unsigned int len = 0;
    EVP_Digest(p, n, md, &len, EVP_sha256(), NULL);
    for (int i = 0; i < 32; i++)
        sprintf(out + 2 * i, "%02x", md[i]);
}

static unsigned char pattern_byte(size_t i) { return (unsigned char)((7 * i + 3) % 256); }

/* ---- cases ------------------------------------------------------------------- */

static void test_headers_and_encoding(void)
{
    byoc_headers h = {0};
    byoc_headers_add(&h, "Content-Type", "text/plain");
    byoc_headers_add(&h, "X-A", "1");
    byoc_headers_add(&h, "x-a", "2");
    CHECK_STR(byoc_headers_get(&h, "content-type"), "text/plain");
    CHECK_STR(byoc_headers_get(&h, "X-A"), "1");
    byoc_headers_set(&h, "X-a", "3");
    CHECK_INT(h.len, 2);
    CHECK_STR(byoc_headers_get(&h, "x-A"), "3");
    byoc_headers_set(&h, "X-New", "n");
    CHECK_STR(byoc_headers_get(&h, "x-new"), "n");
    byoc_headers_remove(&h, "CONTENT-TYPE");
    CHECK(byoc_headers_get(&h, "Content-Type") == NULL);
    CHECK_INT(h.len, 2);
    byoc_headers_clear(&h);
    CHECK_INT(h.len, 0);

    char *e = byoc_url_encode("a b/c~d*e\xc3\xa9-_.", false);
    CHECK_STR(e, "a%20b%2Fc~d%2Ae%C3%A9-_.");
    free(e);
    e = byoc_url_encode("dir/sub dir/f+1", true);
    CHECK_STR(e, "dir/sub%20dir/f%2B1");
    free(e);
    e = byoc_url_encode("", true);
    CHECK_STR(e, "");
    free(e);
}

static void test_get_buffered(void)
{
    char *u = url("/hello");
    byoc_http_req req = {.method = "GET", .url = u};
    byoc_http_resp resp;
    byoc_err err;
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_INT(resp.status, 200);
    CHECK_STR(byoc_buf_str(&resp.body), "hello\n");
    CHECK_STR(byoc_headers_get(&resp.headers, "x-test"), "yes");
    CHECK_STR(byoc_headers_get(&resp.headers, "Content-Length"), "6");
    int multi = 0;
    for (size_t i = 0; i < resp.headers.len; i++)
        if (strcmp(resp.headers.items[i].name, "X-Multi") == 0)
            multi++;
    CHECK_INT(multi, 2);
    byoc_http_resp_clear(&resp);

    req.method = "HEAD";
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_INT(resp.status, 200);
    CHECK_INT(resp.body.len, 0);
    CHECK_STR(byoc_headers_get(&resp.headers, "content-length"), "6");
    byoc_http_resp_clear(&resp);
    free(u);
}

/* A buffered body has a cap (API replies); exactly the cap is fine. */
static void test_max_body(void)
{
    byoc_http_opts o = {.max_body = 4096};
    byoc_http_resp resp;
    byoc_err err;
    char *u = url("/bytes/4096");
    byoc_http_req req = {.method = "GET", .url = u, .opts = &o};
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_INT(resp.body.len, 4096);
    byoc_http_resp_clear(&resp);
    free(u);
    u = url("/bytes/4097");
    req.url = u;
    CHECK_INT(exchange(&req, &resp, &err), -1);
    CHECK_INT(err.kind, BYOC_E_FAILED);
    CHECK(strstr(err.message, "larger than 4096 bytes") != NULL);
    CHECK(resp.body.len <= 4096);
    byoc_http_resp_clear(&resp);
    free(u);
}

static void test_post_buffered(void)
{
    char *u = url("/echo?a=1&b=x%2Fy");
    byoc_http_req req = {.method = "POST", .url = u, .body = "{\"k\":1}", .body_len = 7};
    byoc_headers_add(&req.headers, "Content-Type", "application/json");
    byoc_headers_add(&req.headers, "X-Custom", "custom value");
    byoc_http_resp resp;
    byoc_err err;
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_INT(resp.status, 200);
    CHECK_STR(byoc_buf_str(&resp.body), "{\"k\":1}");
    CHECK_STR(byoc_headers_get(&resp.headers, "X-Method"), "POST");
    CHECK_STR(byoc_headers_get(&resp.headers, "X-Req-Content-Length"), "7");
    CHECK_STR(byoc_headers_get(&resp.headers, "X-Req-Content-Type"), "application/json");
    CHECK_STR(byoc_headers_get(&resp.headers, "X-Req-Custom"), "custom value");
    CHECK_STR(byoc_headers_get(&resp.headers, "X-Req-Expect"), "-");
    CHECK_STR(byoc_headers_get(&resp.headers, "X-Req-Query"), "a=1&b=x%2Fy");
    CHECK(strncmp(byoc_headers_get(&resp.headers, "X-Req-User-Agent"), "byoc/", 5) == 0);
    byoc_http_resp_clear(&resp);
    byoc_headers_set(&req.headers, "X-Custom", "");
    byoc_headers_set(&req.headers, "User-Agent", "tester/1");
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_STR(byoc_headers_get(&resp.headers, "X-Req-Custom"), "");
    CHECK_STR(byoc_headers_get(&resp.headers, "X-Req-User-Agent"), "tester/1");
    byoc_http_resp_clear(&resp);
    byoc_headers_clear(&req.headers);

    /* No body, no Content-Type given: nothing like a form type may be added. */
    req = (byoc_http_req){.method = "POST", .url = u};
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_STR(byoc_headers_get(&resp.headers, "X-Req-Content-Length"), "0");
    CHECK_STR(byoc_headers_get(&resp.headers, "X-Req-Content-Type"), "-");
    byoc_http_resp_clear(&resp);

    req = (byoc_http_req){.method = "DELETE", .url = u};
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_STR(byoc_headers_get(&resp.headers, "X-Method"), "DELETE");
    byoc_http_resp_clear(&resp);

    /* A big in-memory body asks for 100-continue; the server grants it. */
    size_t big = 2u << 20;
    char *data = malloc(big);
    for (size_t i = 0; i < big; i++)
        data[i] = (char)pattern_byte(i);
    char want[65], *sum = want;
    sha256_hex(data, big, want);
    req = (byoc_http_req){.method = "PUT", .url = u, .body = data, .body_len = big};
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_STR(byoc_headers_get(&resp.headers, "X-Req-Expect"), "100-continue");
    CHECK_STR(byoc_headers_get(&resp.headers, "X-Body-Sha256"), sum);
    CHECK_INT(resp.body.len, big);
    byoc_http_resp_clear(&resp);
    free(data);
    free(u);
}

typedef struct gen {
    size_t total, off;
    EVP_MD_CTX *md;
    bool fail_midway;
} gen;

static size_t gen_read(char *dst, size_t n, void *ud)
{
    gen *g = ud;
    if (g->fail_midway && g->off > g->total / 2)
        return (size_t)-1;
    size_t take = g->total - g->off < n ? g->total - g->off : n;
    if (take > 10000)
        take = 10000; /* odd sizes exercise the chunk framing */
    for (size_t i = 0; i < take; i++)
        dst[i] = (char)pattern_byte(g->off + i);
    EVP_DigestUpdate(g->md, dst, take);
    g->off += take;
    return take;
}

static void gen_hex(gen *g, char out[65])
{
    unsigned char md[32];
    unsigned int len = 0;
    EVP_DigestFinal_ex(g->md, md, &len);
    for (int i = 0; i < 32; i++)
        sprintf(out + 2 * i, "%02x", md[i]);
}

static void test_streamed_upload(void)
{
    char *u = url("/echo");
    char want[65], lenbuf[32];
    byoc_http_resp resp;
    byoc_err err;

    for (int known = 0; known < 2; known++) {
        gen g = {.total = (3u << 20) + 12345, .md = EVP_MD_CTX_new()};
        EVP_DigestInit_ex(g.md, EVP_sha256(), NULL);
        byoc_http_req req = {.method = "PUT", .url = u, .body_reader = gen_read, .body_ud = &g,
                             .body_size = known ? (int64_t)g.total : -1};
        CHECK_INT(exchange(&req, &resp, &err), 0);
        gen_hex(&g, want);
        snprintf(lenbuf, sizeof lenbuf, "%zu", g.total);
        CHECK_INT(resp.status, 200);
        CHECK_STR(byoc_headers_get(&resp.headers, "X-Body-Len"), lenbuf);
        CHECK_STR(byoc_headers_get(&resp.headers, "X-Body-Sha256"), want);
        CHECK_STR(byoc_headers_get(&resp.headers, "X-Req-Transfer-Encoding"), known ? "-" : "chunked");
        CHECK_STR(byoc_headers_get(&resp.headers, "X-Req-Content-Length"), known ? lenbuf : "-");
        byoc_http_resp_clear(&resp);
        EVP_MD_CTX_free(g.md);
    }

    /* A small streamed body of known size goes without Expect. */
    gen g = {.total = 100, .md = EVP_MD_CTX_new()};
    EVP_DigestInit_ex(g.md, EVP_sha256(), NULL);
    byoc_http_req req = {.method = "POST", .url = u, .body_reader = gen_read, .body_ud = &g,
                         .body_size = 100};
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_STR(byoc_headers_get(&resp.headers, "X-Req-Expect"), "-");
    CHECK_STR(byoc_headers_get(&resp.headers, "X-Body-Len"), "100");
    byoc_http_resp_clear(&resp);
    EVP_MD_CTX_free(g.md);

    /* The reader fails halfway: the exchange fails, not as a network error. */
    g = (gen){.total = 1u << 20, .md = EVP_MD_CTX_new(), .fail_midway = true};
    EVP_DigestInit_ex(g.md, EVP_sha256(), NULL);
    req = (byoc_http_req){.method = "PUT", .url = u, .body_reader = gen_read, .body_ud = &g,
                          .body_size = -1};
    CHECK_INT(exchange(&req, &resp, &err), -1);
    CHECK_INT(err.kind, BYOC_E_FAILED);
    byoc_http_resp_clear(&resp);
    EVP_MD_CTX_free(g.md);
    free(u);
}

typedef struct sink_state {
    size_t got;
    bool pattern_ok;
    int calls;
    byoc_task *task;   /* report progress here, if set */
} sink_state;

static int check_sink(const char *p, size_t n, void *ud)
{
    sink_state *s = ud;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)p[i] != pattern_byte(s->got + i))
            s->pattern_ok = false;
    s->got += n;
    s->calls++;
    return 0;
}

static void test_streamed_download(void)
{
    size_t total = 8u << 20;
    char path[64];
    snprintf(path, sizeof path, "/bytes/%zu", total);
    char *u = url(path);
    sink_state s = {.pattern_ok = true};
    byoc_http_req req = {.method = "GET", .url = u, .sink = check_sink, .sink_ud = &s};
    byoc_http_resp resp;
    byoc_err err;
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_INT(resp.status, 200);
    CHECK_INT(s.got, total);
    CHECK(s.pattern_ok);
    CHECK(s.calls > 1);
    CHECK_INT(resp.body.len, 0);
    byoc_http_resp_clear(&resp);
    free(u);

    /* An error status does not reach the sink: its body is kept for the caller. */
    u = url("/status/404");
    s = (sink_state){.pattern_ok = true};
    req.url = u;
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_INT(resp.status, 404);
    CHECK_INT(s.calls, 0);
    CHECK_STR(byoc_buf_str(&resp.body), "status 404\n");
    byoc_http_resp_clear(&resp);
    free(u);
}

/* A streamed body has the cap too: by Content-Length before the sink sees a byte, else the sink gets
 * at most the cap; exactly the cap is fine. */
static void test_max_body_sink(void)
{
    byoc_http_opts o = {.max_body = 100000};
    const char *paths[] = {"/bytes/100000", "/unsized/100000", "/bytes/100001", "/unsized/400000"};
    for (int i = 0; i < 4; i++) {
        char *u = url(paths[i]);
        sink_state s = {.pattern_ok = true};
        byoc_http_req req = {.method = "GET", .url = u, .opts = &o, .sink = check_sink, .sink_ud = &s};
        byoc_http_resp resp;
        byoc_err err;
        int rc = exchange(&req, &resp, &err);
        if (i < 2) {
            CHECK_INT(rc, 0);
            CHECK_INT(s.got, 100000);
            CHECK(!resp.too_large);
        } else {
            CHECK_INT(rc, -1);
            CHECK_INT(err.kind, BYOC_E_FAILED);
            CHECK(strstr(err.message, "larger than 100000 bytes") != NULL);
            CHECK(resp.too_large);
            CHECK(s.got <= 100000);
            if (i == 2)
                CHECK_INT(s.calls, 0); /* refused by its Content-Length */
        }
        CHECK(s.pattern_ok);
        byoc_http_resp_clear(&resp);
        free(u);
    }
}

static void test_statuses(void)
{
    char *u = url("/status/500");
    byoc_http_req req = {.method = "GET", .url = u};
    byoc_http_resp resp;
    byoc_err err;
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_INT(resp.status, 500);
    CHECK_STR(byoc_buf_str(&resp.body), "status 500\n");
    byoc_http_resp_clear(&resp);
    free(u);

    u = url("/redirect");
    req.url = u;
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_INT(resp.status, 301);
    CHECK_STR(byoc_headers_get(&resp.headers, "location"), "/hello");
    CHECK_STR(byoc_buf_str(&resp.body), "moved\n");
    byoc_http_resp_clear(&resp);
    free(u);
}

static int closed_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    bind(fd, (struct sockaddr *)&a, sizeof a);
    getsockname(fd, (struct sockaddr *)&a, &len);
    close(fd);
    return ntohs(a.sin_port);
}

static void test_transport_errors(void)
{
    int port = closed_port();
    char *u = byoc_xasprintf("http://127.0.0.1:%d/x?X-Amz-Signature=querysecret", port);
    byoc_http_req req = {.method = "GET", .url = u};
    byoc_headers_add(&req.headers, "Authorization", "headersecret");
    byoc_http_resp resp;
    byoc_err err;
    CHECK_INT(exchange(&req, &resp, &err), -1);
    CHECK_INT(err.kind, BYOC_E_NET);
    CHECK_INT(resp.status, 0);
    CHECK(resp.curl_code != 0);
    CHECK(strstr(err.message, "127.0.0.1") != NULL);
    CHECK(strstr(err.message, "querysecret") == NULL);
    CHECK(strstr(err.message, "headersecret") == NULL);
    CHECK(strstr(err.message, "/x") == NULL);
    byoc_http_resp_clear(&resp);
    byoc_headers_clear(&req.headers);
    free(u);

    /* A stalled body: the overall timeout and the low-speed limit both end it. */
    u = url("/stall");
    byoc_http_opts o = {.timeout_ms = 1500};
    req = (byoc_http_req){.method = "GET", .url = u, .opts = &o};
    CHECK_INT(exchange(&req, &resp, &err), -1);
    CHECK_INT(err.kind, BYOC_E_NET);
    CHECK_INT(resp.status, 200);
    byoc_http_resp_clear(&resp);
    free(u);
    u = url("/silent");
    req.url = u;
    o = (byoc_http_opts){.low_speed_time_s = 1};
    CHECK_INT(exchange(&req, &resp, &err), -1);
    CHECK_INT(err.kind, BYOC_E_NET);
    byoc_http_resp_clear(&resp);
    free(u);

    /* Bad input is refused before anything is sent. */
    u = url("/hello");
    req = (byoc_http_req){.method = "GET", .url = u};
    byoc_headers_add(&req.headers, "X-Bad", "a\r\nInjected: yes");
    CHECK_INT(exchange(&req, &resp, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    byoc_http_resp_clear(&resp);
    byoc_headers_clear(&req.headers);
    free(u);
    req = (byoc_http_req){.method = "GET", .url = "not a url"};
    CHECK_INT(exchange(&req, &resp, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    byoc_http_resp_clear(&resp);
}

static int stall_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *),
                      byoc_err *err)
{
    (void)result, (void)result_free;
    sink_state s = {.task = t};
    byoc_http_req req = {.method = "GET", .url = arg, .task = t, .sink_ud = &s};
    req.sink = check_sink;
    byoc_http_resp resp = {0};
    byoc_task_progress(t, "stall", 0, -1, "started");
    int rc = byoc_http_do(&req, &resp, err);
    byoc_http_resp_clear(&resp);
    return rc;
}

static void test_cancel(void)
{
    byoc_evq *q = byoc_evq_new();
    char *u = url("/stall");
    byoc_task *t = byoc_task_start(q, "stall", stall_task, u, free);
    byoc_event ev;
    bool saw_error = false, cancelled_sent = false;
    while (!saw_error && byoc_evq_wait(q, 20000)) {
        while (byoc_evq_pop(q, &ev)) {
            if (ev.kind == BYOC_EV_PROGRESS && !cancelled_sent) {
                sleep_ms(300); /* let the transfer get into the stalled body */
                byoc_task_cancel(t);
                cancelled_sent = true;
            } else if (ev.kind == BYOC_EV_ERROR) {
                saw_error = true;
                CHECK_INT(ev.err.kind, BYOC_E_CANCELLED);
            } else if (ev.kind == BYOC_EV_DONE) {
                saw_error = true;
                CHECK(!"the stalled download finished");
            }
            byoc_event_release(&ev);
        }
    }
    CHECK(saw_error);
    byoc_task_release(t);
    byoc_evq_free(q);

    /* Cancelled before starting: nothing is sent. */
    q = byoc_evq_new();
    u = url("/hello");
    t = byoc_task_start(q, "pre", stall_task, u, free);
    byoc_task_cancel(t);
    byoc_task_join(t);
    bool got = false;
    while (byoc_evq_pop(q, &ev)) {
        if (ev.kind == BYOC_EV_ERROR || ev.kind == BYOC_EV_DONE)
            got = true;
        byoc_event_release(&ev);
    }
    CHECK(got);
    byoc_task_release(t);
    byoc_evq_free(q);
}

static int download_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *),
                         byoc_err *err)
{
    for (int i = 0; i < 20; i++) {
        sink_state s = {.pattern_ok = true};
        byoc_http_req req = {.method = "GET", .url = arg, .task = t, .sink = check_sink, .sink_ud = &s};
        byoc_http_resp resp = {0};
        int rc = byoc_http_do(&req, &resp, err);
        long status = resp.status;
        byoc_http_resp_clear(&resp);
        if (rc != 0)
            return rc;
        if (status != 200 || s.got != 100000 || !s.pattern_ok)
            return byoc_err_set(err, BYOC_E_FAILED, "download", "status %ld, %zu bytes", status, s.got);
    }
    return 0;
}

/* Several tasks share the handle pool at once. */
static void test_concurrent(void)
{
    enum { N = 6 };
    byoc_evq *q = byoc_evq_new();
    byoc_task *tasks[N];
    for (int i = 0; i < N; i++)
        tasks[i] = byoc_task_start(q, "dl", download_task, url("/bytes/100000"), free);
    int done = 0, failed = 0;
    while (done + failed < N && byoc_evq_wait(q, 60000)) {
        byoc_event ev;
        while (byoc_evq_pop(q, &ev)) {
            if (ev.kind == BYOC_EV_DONE)
                done++;
            else if (ev.kind == BYOC_EV_ERROR) {
                failed++;
                fprintf(stderr, "download task failed: %s\n", ev.err.message);
            }
            byoc_event_release(&ev);
        }
    }
    CHECK_INT(done, N);
    for (int i = 0; i < N; i++)
        byoc_task_release(tasks[i]);
    byoc_evq_free(q);
}

static void test_keepalive(void)
{
    char *stats = url("/stats"), *hello = url("/hello");
    byoc_http_resp resp;
    byoc_err err;
    byoc_http_req req = {.method = "GET", .url = stats};
    CHECK_INT(exchange(&req, &resp, &err), 0);
    char before[64];
    snprintf(before, sizeof before, "%s", byoc_buf_str(&resp.body));
    byoc_http_resp_clear(&resp);
    for (int i = 0; i < 5; i++) {
        req.url = hello;
        CHECK_INT(exchange(&req, &resp, &err), 0);
        byoc_http_resp_clear(&resp);
    }
    req.url = stats;
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_STR(byoc_buf_str(&resp.body), before); /* no new connection was opened */
    byoc_http_resp_clear(&resp);
    free(stats);
    free(hello);
}

static void test_unix_socket(void)
{
    byoc_http_opts o = {.unix_socket = unix_path};
    byoc_http_req req = {.method = "GET", .url = "http://localhost/hello", .opts = &o};
    byoc_http_resp resp;
    byoc_err err;
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_INT(resp.status, 200);
    CHECK_STR(byoc_buf_str(&resp.body), "hello\n");
    byoc_http_resp_clear(&resp);

    req = (byoc_http_req){.method = "POST", .url = "http://localhost/echo", .opts = &o,
                          .body = "ping", .body_len = 4};
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_STR(byoc_buf_str(&resp.body), "ping");
    byoc_http_resp_clear(&resp);

    o.unix_socket = "/nonexistent/byoc.sock";
    CHECK_INT(exchange(&req, &resp, &err), -1);
    CHECK_INT(err.kind, BYOC_E_NET);
    CHECK(strstr(err.message, "/nonexistent/byoc.sock") != NULL);
    byoc_http_resp_clear(&resp);
}

static void test_tls(void)
{
    char *u = byoc_xasprintf("https://127.0.0.1:%d/hello", https_port);
    byoc_http_opts o = {.ca_bundle = ca_path};
    byoc_http_req req = {.method = "GET", .url = u, .opts = &o};
    byoc_http_resp resp;
    byoc_err err;
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_INT(resp.status, 200);
    CHECK_STR(byoc_buf_str(&resp.body), "hello\n");
    byoc_http_resp_clear(&resp);

    /* Without our CA the server is not trusted... */
    o = (byoc_http_opts){0};
    CHECK_INT(exchange(&req, &resp, &err), -1);
    CHECK_INT(err.kind, BYOC_E_NET);
    byoc_http_resp_clear(&resp);
    /* ...unless verification is explicitly off. */
    o.insecure_skip_verify = true;
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_INT(resp.status, 200);
    byoc_http_resp_clear(&resp);
    free(u);

    /* Mutual TLS, as for a Docker engine on tcp with DOCKER_TLS_VERIFY. */
    u = byoc_xasprintf("https://localhost:%d/hello", mtls_port);
    o = (byoc_http_opts){.ca_bundle = ca_path, .client_cert = client_cert, .client_key = client_key};
    req.url = u;
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_INT(resp.status, 200);
    byoc_http_resp_clear(&resp);
    o.client_cert = o.client_key = NULL;
    CHECK_INT(exchange(&req, &resp, &err), -1);
    CHECK_INT(err.kind, BYOC_E_NET);
    byoc_http_resp_clear(&resp);
    free(u);
}

static void test_proxy_env(void)
{
    /* The fixture answers proxy-form requests itself, so a closed port behind it still works. */
    char *proxy = byoc_xasprintf("http://127.0.0.1:%d", http_port);
    char *u = byoc_xasprintf("http://127.0.0.1:%d/hello", closed_port());
    char *target = strstr(u, "//") + 2;
    *strchr(target, '/') = '\0';
    char *host = byoc_xstrdup(target);
    *strchr(target, '\0') = '/';
    unsetenv("no_proxy");
    unsetenv("NO_PROXY");
    setenv("http_proxy", proxy, 1);
    byoc_http_opts o = {0};
    byoc_http_req req = {.method = "GET", .url = u, .opts = &o};
    byoc_http_resp resp;
    byoc_err err;
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK_INT(resp.status, 200);
    CHECK_STR(byoc_headers_get(&resp.headers, "X-Proxied"), host);
    byoc_http_resp_clear(&resp);

    o.no_proxy = true;
    CHECK_INT(exchange(&req, &resp, &err), -1);
    CHECK_INT(err.kind, BYOC_E_NET);
    byoc_http_resp_clear(&resp);

    /* A unix socket never goes through the proxy. */
    byoc_http_opts uo = {.unix_socket = unix_path};
    req = (byoc_http_req){.method = "GET", .url = "http://localhost/hello", .opts = &uo};
    CHECK_INT(exchange(&req, &resp, &err), 0);
    CHECK(byoc_headers_get(&resp.headers, "X-Proxied") == NULL);
    byoc_http_resp_clear(&resp);
    unsetenv("http_proxy");
    free(proxy);
    free(u);
    free(host);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    CHECK_INT(byoc_http_global_init(), 0);
    test_headers_and_encoding();
    if (start_server() != 0) {
        CHECK(!"the fixture server started");
        stop_server();
        return check_done();
    }
    test_get_buffered();
    test_post_buffered();
    test_max_body();
    test_max_body_sink();
    test_streamed_upload();
    test_streamed_download();
    test_statuses();
    test_transport_errors();
    test_cancel();
    test_keepalive();
    test_concurrent();
    test_unix_socket();
    test_tls();
    test_proxy_env();
    stop_server();
    byoc_http_global_cleanup();
    return check_done();
}
