/* net/sockget (one HTTP GET over a plain socket, no libcurl) and docker's byoc_engine_probe,
 * against servers written here: a thread answering one connection on a unix socket or on
 * loopback TCP with a canned reply. */
#include "check.h"
#include "docker/engine.h"
#include "net/sockget.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

typedef struct server {
    int listen_fd;
    const char *reply;    /* sent after the request's head; NULL: send nothing, wait for the close */
    char request[512];    /* the head received */
    pthread_t thread;
} server;

static void *serve_one(void *p)
{
    server *s = p;
    int fd = accept(s->listen_fd, NULL, NULL);
    if (fd < 0)
        return NULL;
    size_t got = 0;
    while (got < sizeof s->request - 1 && !strstr(s->request, "\r\n\r\n")) {
        ssize_t n = read(fd, s->request + got, sizeof s->request - 1 - got);
        if (n <= 0)
            break;
        got += (size_t)n;
        s->request[got] = 0;
    }
    if (s->reply) {
        size_t len = strlen(s->reply), sent = 0;
        while (sent < len) {
            ssize_t n = send(fd, s->reply + sent, len - sent, MSG_NOSIGNAL);
            if (n <= 0)
                break;
            sent += (size_t)n;
        }
    } else {
        char sink[64];
        while (read(fd, sink, sizeof sink) > 0) /* until the client gives up */
            ;
    }
    close(fd);
    return NULL;
}

static char sock_path[100]; /* within sun_path */
static char *tmpdir;

static void start_unix(server *s, const char *reply)
{
    memset(s, 0, sizeof *s);
    s->reply = reply;
    unlink(sock_path);
    s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", sock_path);
    CHECK(bind(s->listen_fd, (struct sockaddr *)&sa, sizeof sa) == 0);
    CHECK(listen(s->listen_fd, 4) == 0);
    pthread_create(&s->thread, NULL, serve_one, s);
}

static int start_tcp(server *s, const char *reply)
{
    memset(s, 0, sizeof *s);
    s->reply = reply;
    s->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof sa;
    CHECK(bind(s->listen_fd, (struct sockaddr *)&sa, sizeof sa) == 0);
    CHECK(listen(s->listen_fd, 4) == 0);
    getsockname(s->listen_fd, (struct sockaddr *)&sa, &len);
    pthread_create(&s->thread, NULL, serve_one, s);
    return ntohs(sa.sin_port);
}

static void stop(server *s)
{
    pthread_join(s->thread, NULL);
    close(s->listen_fd);
}

static int get(const char *unix_path, const char *host, const char *port, int timeout_ms, size_t max,
               byoc_http_resp *resp, byoc_err *err)
{
    byoc_sockget_req req = {.unix_path = unix_path, .host = host, .port = port, .path = "/version",
                            .timeout_ms = timeout_ms, .max_reply = max};
    memset(resp, 0, sizeof *resp);
    byoc_err_clear(err);
    return byoc_sockget(&req, resp, err);
}

static void test_unix_content_length(void)
{
    server s;
    start_unix(&s, "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: 13\r\n"
                   "Api-Version:  1.41 \r\n\r\n{\"Version\":1}trailing bytes past the length");
    byoc_http_resp resp;
    byoc_err err;
    CHECK_INT(get(sock_path, NULL, NULL, 5000, 4096, &resp, &err), 0);
    stop(&s);
    CHECK(strncmp(s.request, "GET /version HTTP/1.0\r\n", 23) == 0);
    CHECK(strstr(s.request, "\r\nHost: localhost\r\n") != NULL);
    CHECK(strstr(s.request, "\r\nConnection: close\r\n") != NULL);
    CHECK_INT(resp.status, 200);
    CHECK_STR(byoc_headers_get(&resp.headers, "api-version"), "1.41");
    CHECK_STR(byoc_headers_get(&resp.headers, "Content-Type"), "application/json");
    CHECK_INT(resp.body.len, 13);
    CHECK(resp.body.len == 13 && memcmp(resp.body.data, "{\"Version\":1}", 13) == 0);
    byoc_http_resp_clear(&resp);
}

static void test_tcp_until_close(void)
{
    server s;
    int port = start_tcp(&s, "HTTP/1.1 404 Not Found\r\nServer: x\r\n\r\npage not found\n");
    char ps[16];
    snprintf(ps, sizeof ps, "%d", port);
    byoc_http_resp resp;
    byoc_err err;
    CHECK_INT(get(NULL, "127.0.0.1", ps, 5000, 4096, &resp, &err), 0);
    stop(&s);
    CHECK(strstr(s.request, "\r\nHost: 127.0.0.1\r\n") != NULL);
    CHECK_INT(resp.status, 404);
    CHECK_STR(byoc_buf_str(&resp.body), "page not found\n");
    byoc_http_resp_clear(&resp);
}

static void test_failures(void)
{
    byoc_http_resp resp;
    byoc_err err;
    server s;

    start_unix(&s, "HTTP/1.0 200 OK\r\n\r\n0123456789012345678901234567890123456789");
    CHECK_INT(get(sock_path, NULL, NULL, 5000, 32, &resp, &err), -1);
    stop(&s);
    CHECK_INT(err.kind, BYOC_E_NET);
    CHECK(strstr(err.message, "larger than 32 bytes") != NULL);
    byoc_http_resp_clear(&resp);

    start_unix(&s, NULL); /* accepts, never answers: the deadline ends it */
    CHECK_INT(get(sock_path, NULL, NULL, 100, 4096, &resp, &err), -1);
    stop(&s);
    CHECK_INT(err.kind, BYOC_E_NET);
    CHECK(strstr(err.message, "in time") != NULL);
    byoc_http_resp_clear(&resp);

    start_unix(&s, "HTTP/1.0 200 OK\r\nContent-Length: 50\r\n\r\nshort");
    CHECK_INT(get(sock_path, NULL, NULL, 5000, 4096, &resp, &err), -1);
    stop(&s);
    CHECK(strstr(err.message, "before its Content-Length") != NULL);
    byoc_http_resp_clear(&resp);

    unlink(sock_path);
    CHECK_INT(get(sock_path, NULL, NULL, 5000, 4096, &resp, &err), -1);
    CHECK_INT(err.kind, BYOC_E_NET);
    CHECK(strstr(err.message, "cannot connect to") != NULL);
    CHECK(strstr(err.message, sock_path) != NULL);
    byoc_http_resp_clear(&resp);
}

static void test_parse(void)
{
    static const char *const bad[] = {"", "HTTP/1.0 200 OK\r\nA: b\r\n", "SSH-2.0-OpenSSH\r\n\r\n",
                                      "HTTP/2 200\r\n\r\n", "HTTP/1.1 abc\r\n\r\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        byoc_http_resp resp = {0};
        byoc_err err;
        byoc_err_clear(&err);
        CHECK_INT(byoc_sockget_parse(bad[i], strlen(bad[i]), &resp, &err), -1);
        CHECK_INT(err.kind, BYOC_E_NET);
        byoc_http_resp_clear(&resp);
    }
    byoc_http_resp resp = {0};
    byoc_err err;
    const char *ok = "HTTP/1.1 204 No Content\r\nX-Empty:\r\nX-Folded: a b\r\n\r\n";
    CHECK_INT(byoc_sockget_parse(ok, strlen(ok), &resp, &err), 0);
    CHECK_INT(resp.status, 204);
    CHECK_STR(byoc_headers_get(&resp.headers, "X-Empty"), "");
    CHECK_STR(byoc_headers_get(&resp.headers, "x-folded"), "a b");
    CHECK_INT(resp.body.len, 0);
    byoc_http_resp_clear(&resp);
}

static void test_engine_probe(void)
{
    char host[160];
    snprintf(host, sizeof host, "unix://%s", sock_path);
    byoc_engine *e = NULL;
    byoc_err err;
    byoc_err_clear(&err);
    CHECK_INT(byoc_engine_new_host(host, &e, &err), 0);
    byoc_engine_info info;
    server s;

    start_unix(&s, "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n"
                   "{\"Version\":\"20.10.24+dfsg1\",\"ApiVersion\":\"1.41\",\"MinAPIVersion\":\"1.12\","
                   "\"Os\":\"linux\",\"Arch\":\"amd64\",\"KernelVersion\":\"6.1.0\"}");
    CHECK_INT(byoc_engine_probe(e, NULL, 5000, &info, &err), 0);
    stop(&s);
    CHECK(strncmp(s.request, "GET /version HTTP/1.0\r\n", 23) == 0);
    CHECK_STR(info.server_version, "20.10.24+dfsg1");
    CHECK_STR(info.server_api_version, "1.41");
    CHECK_STR(info.min_api_version, "1.12");
    CHECK_STR(info.os, "linux");
    CHECK_STR(info.arch, "amd64");
    CHECK_STR(info.kernel, "6.1.0");
    CHECK_STR(info.api_version, "");
    CHECK_STR(info.host, host);

    start_unix(&s, "HTTP/1.0 500 Internal Server Error\r\n\r\n{\"message\":\"the engine is broken\"}");
    CHECK_INT(byoc_engine_probe(e, NULL, 5000, &info, &err), -1);
    stop(&s);
    CHECK_INT(err.kind, BYOC_E_FAILED);
    CHECK_INT(err.http_status, 500);
    CHECK_STR(err.message, "the engine is broken");

    start_unix(&s, "HTTP/1.0 200 OK\r\n\r\n[not json");
    CHECK_INT(byoc_engine_probe(e, NULL, 5000, &info, &err), -1);
    stop(&s);
    CHECK_INT(err.kind, BYOC_E_FAILED);

    unlink(sock_path);
    CHECK_INT(byoc_engine_probe(e, NULL, 5000, &info, &err), -1);
    CHECK_INT(err.kind, BYOC_E_ENV);
    CHECK(strstr(err.message, "no Docker engine at") != NULL);
    CHECK(strstr(err.message, "no such socket") != NULL);
    byoc_engine_free(e);

    /* Over TCP (no TLS), the port from the host string. */
    int port = start_tcp(&s, "HTTP/1.0 200 OK\r\nContent-Length: 19\r\n\r\n{\"Version\":\"25.0\"}\n");
    snprintf(host, sizeof host, "tcp://127.0.0.1:%d", port);
    unsetenv("DOCKER_TLS_VERIFY");
    unsetenv("DOCKER_TLS");
    CHECK_INT(byoc_engine_new_host(host, &e, &err), 0);
    CHECK_INT(byoc_engine_probe(e, NULL, 5000, &info, &err), 0);
    stop(&s);
    CHECK_STR(info.server_version, "25.0");
    byoc_engine_free(e);

    /* TLS is the full client's: the probe says so and sends nothing. */
    setenv("DOCKER_TLS", "1", 1);
    CHECK_INT(byoc_engine_new_host("tcp://127.0.0.1:1", &e, &err), 0);
    CHECK_INT(byoc_engine_probe(e, NULL, 5000, &info, &err), 1);
    byoc_engine_free(e);
    unsetenv("DOCKER_TLS");
}

static void test_plain_address(void)
{
    byoc_engine *e = NULL;
    byoc_err err;
    const char *up = "x";
    char host[64], port[16];
    CHECK_INT(byoc_engine_new_host("tcp://[::1]:2399", &e, &err), 0);
    CHECK(byoc_engine_plain_address(e, &up, host, sizeof host, port, sizeof port));
    CHECK(up == NULL);
    CHECK_STR(host, "::1");
    CHECK_STR(port, "2399");
    byoc_engine_free(e);
    CHECK_INT(byoc_engine_new_host("engine.example:2375", &e, &err), 0);
    CHECK(byoc_engine_plain_address(e, &up, host, sizeof host, port, sizeof port));
    CHECK_STR(host, "engine.example");
    CHECK_STR(port, "2375");
    byoc_engine_free(e);
    CHECK_INT(byoc_engine_new_host("unix:///run/x.sock", &e, &err), 0);
    CHECK(byoc_engine_plain_address(e, &up, host, sizeof host, port, sizeof port));
    CHECK_STR(up, "/run/x.sock");
    byoc_engine_free(e);
}

int main(void)
{
    tmpdir = check_tmpdir();
    if (!tmpdir)
        return 1;
    if (strlen(tmpdir) + sizeof "/engine.sock" > sizeof sock_path) {
        fprintf(stderr, "test_sockget: %s is too long a directory for a socket\n", tmpdir);
        return 1;
    }
    snprintf(sock_path, sizeof sock_path, "%s/engine.sock", tmpdir);
    test_unix_content_length();
    test_tcp_until_close();
    test_failures();
    test_parse();
    test_engine_probe();
    test_plain_address();
    unlink(sock_path);
    rmdir(tmpdir);
    free(tmpdir);
    return check_done();
}
