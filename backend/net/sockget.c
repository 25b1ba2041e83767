#include "net/sockget.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "core/buf.h"

#define SLICE_MS 50 /* how often a wait looks at the task's cancellation */

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int net_err(byoc_err *err, const char *fmt, const char *arg)
{
    return byoc_err_set(err, BYOC_E_NET, "network", fmt, arg);
}

/* Wait for `events` on fd until the deadline: 1 ready, 0 timed out, -1 cancelled. */
static int wait_for(int fd, short events, long long deadline, byoc_task *t)
{
    for (;;) {
        if (byoc_task_cancelled(t))
            return -1;
        long long left = deadline - now_ms();
        if (left <= 0)
            return 0;
        struct pollfd p = {.fd = fd, .events = events};
        int n = poll(&p, 1, (int)(left < SLICE_MS ? left : SLICE_MS));
        if (n > 0)
            return 1;
        if (n < 0 && errno != EINTR)
            return 1; /* let the read or write that follows say what is wrong */
    }
}

/* A connected non-blocking socket to `sa`, or -1 with *why set (an errno; ETIMEDOUT, ECANCELED). */
static int connect_to(int family, const struct sockaddr *sa, socklen_t len, long long deadline, byoc_task *t,
                      int *why)
{
    int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *why = errno;
        return -1;
    }
    if (connect(fd, sa, len) == 0)
        return fd;
    if (errno != EINPROGRESS) {
        *why = errno;
        close(fd);
        return -1;
    }
    int w = wait_for(fd, POLLOUT, deadline, t);
    int soerr = 0;
    socklen_t sl = sizeof soerr;
    if (w <= 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) != 0 || soerr) {
        *why = w < 0 ? ECANCELED : w == 0 ? ETIMEDOUT : soerr ? soerr : errno;
        close(fd);
        return -1;
    }
    return fd;
}

static int open_socket(const byoc_sockget_req *req, long long deadline, byoc_err *err)
{
    int why = 0, fd = -1;
    const char *where = req->unix_path;
    char hostport[300];
    if (req->unix_path) {
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        if (strlen(req->unix_path) >= sizeof sa.sun_path)
            return net_err(err, "the socket path %s is too long", req->unix_path);
        memcpy(sa.sun_path, req->unix_path, strlen(req->unix_path) + 1);
        fd = connect_to(AF_UNIX, (struct sockaddr *)&sa, sizeof sa, deadline, req->task, &why);
    } else {
        snprintf(hostport, sizeof hostport, "%s:%s", req->host, req->port);
        where = hostport;
        struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res = NULL;
        int rc = getaddrinfo(req->host, req->port, &hints, &res);
        if (rc != 0) {
            byoc_err_set(err, BYOC_E_NET, "network", "cannot resolve %s: %s", req->host, gai_strerror(rc));
            return -1;
        }
        for (struct addrinfo *ai = res; ai && fd < 0 && why != ECANCELED; ai = ai->ai_next)
            fd = connect_to(ai->ai_family, ai->ai_addr, ai->ai_addrlen, deadline, req->task, &why);
        freeaddrinfo(res);
    }
    if (fd >= 0)
        return fd;
    if (why == ECANCELED)
        return byoc_err_set(err, BYOC_E_CANCELLED, "network", "cancelled");
    byoc_err_set(err, BYOC_E_NET, "network", "cannot connect to %s: %s", where,
                 why == ETIMEDOUT ? "no answer in time" : strerror(why));
    return -1;
}

static bool space(char c) { return c == ' ' || c == '\t'; }

/* The head's length including its blank line, or 0 when it is not all there. */
static size_t head_len(const char *p, size_t n)
{
    for (size_t i = 0; i + 3 < n; i++)
        if (memcmp(p + i, "\r\n\r\n", 4) == 0)
            return i + 4;
    return 0;
}

/* Content-Length from a whole head, or -1 when there is none. */
static long long content_length(const char *head, size_t n)
{
    static const char name[] = "\r\ncontent-length:";
    for (size_t i = 0; i + sizeof name - 1 <= n; i++)
        if (strncasecmp(head + i, name, sizeof name - 1) == 0)
            return strtoll(head + i + sizeof name - 1, NULL, 10);
    return -1;
}

int byoc_sockget_parse(const char *reply, size_t len, byoc_http_resp *resp, byoc_err *err)
{
    size_t hl = head_len(reply, len);
    int major, minor, status;
    if (!hl || sscanf(reply, "HTTP/%d.%d %3d", &major, &minor, &status) != 3 || major != 1 || status < 100)
        return net_err(err, "%s", hl    ? "the reply is not HTTP/1"
                                  : len ? "the reply ended inside its head"
                                        : "the connection closed without a reply");
    long long cl = content_length(reply, hl);
    size_t body = len - hl;
    if (cl >= 0 && (unsigned long long)cl > body)
        return net_err(err, "%s", "the reply ended before its Content-Length");
    if (cl >= 0)
        body = (size_t)cl;
    const char *line = (const char *)memchr(reply, '\n', hl) + 1, *end = reply + hl - 2;
    while (line < end) {
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        const char *stop = eol ? eol : end;
        const char *colon = memchr(line, ':', (size_t)(stop - line));
        if (colon) {
            const char *v = colon + 1, *ve = stop;
            while (v < ve && space(*v))
                v++;
            while (ve > v && (space(ve[-1]) || ve[-1] == '\r'))
                ve--;
            char *name = byoc_xstrndup(line, (size_t)(colon - line)), *value = byoc_xstrndup(v, (size_t)(ve - v));
            byoc_headers_add(&resp->headers, name, value);
            free(name);
            byoc_free_secret(value);
        }
        line = stop + 1;
    }
    resp->status = status;
    byoc_buf_append(&resp->body, reply + hl, body);
    return 0;
}

/* The whole reply is in when the head is and its Content-Length of body after it. */
static bool reply_whole(const byoc_buf *b)
{
    size_t hl = head_len(b->data, b->len);
    long long cl = hl ? content_length(b->data, hl) : -1;
    return cl >= 0 && (unsigned long long)cl <= b->len - hl;
}

static int exchange(int fd, const byoc_sockget_req *req, long long deadline, byoc_buf *in, byoc_err *err)
{
    const char *host = req->host_header ? req->host_header : req->unix_path ? "localhost" : req->host;
    char *out = byoc_xasprintf("GET %s HTTP/1.0\r\nHost: %s\r\nUser-Agent: byoc\r\nConnection: close\r\n\r\n",
                               req->path, host);
    size_t sent = 0, len = strlen(out);
    int rc = 0;
    while (rc == 0 && sent < len) {
        ssize_t n = send(fd, out + sent, len - sent, MSG_NOSIGNAL);
        if (n > 0)
            sent += (size_t)n;
        else if (n < 0 && errno != EAGAIN && errno != EINTR)
            rc = net_err(err, "cannot send the request: %s", strerror(errno));
        else if (n < 0 && errno == EAGAIN) {
            int w = wait_for(fd, POLLOUT, deadline, req->task);
            if (w <= 0)
                rc = w < 0 ? byoc_err_set(err, BYOC_E_CANCELLED, "network", "cancelled")
                           : net_err(err, "%s", "no room to send the request in time");
        }
    }
    free(out);
    char chunk[4096];
    while (rc == 0 && !reply_whole(in)) {
        int w = wait_for(fd, POLLIN, deadline, req->task);
        if (w <= 0)
            return w < 0 ? byoc_err_set(err, BYOC_E_CANCELLED, "network", "cancelled")
                         : net_err(err, "%s", "no whole reply in time");
        ssize_t n = recv(fd, chunk, sizeof chunk, 0);
        if (n == 0)
            break;
        if (n < 0 && errno != EAGAIN && errno != EINTR)
            return net_err(err, "cannot read the reply: %s", strerror(errno));
        if (n < 0)
            continue;
        if (in->len + (size_t)n > req->max_reply) {
            char limit[32];
            snprintf(limit, sizeof limit, "%zu", req->max_reply);
            return net_err(err, "the reply is larger than %s bytes", limit);
        }
        byoc_buf_append(in, chunk, (size_t)n);
    }
    return rc;
}

int byoc_sockget(const byoc_sockget_req *req, byoc_http_resp *resp, byoc_err *err)
{
    long long deadline = now_ms() + req->timeout_ms;
    int fd = open_socket(req, deadline, err);
    if (fd < 0)
        return -1;
    byoc_buf in = BYOC_BUF_INIT;
    int rc = exchange(fd, req, deadline, &in, err);
    close(fd);
    if (rc == 0)
        rc = byoc_sockget_parse(in.data ? in.data : "", in.len, resp, err);
    byoc_buf_clear(&in);
    return rc;
}
