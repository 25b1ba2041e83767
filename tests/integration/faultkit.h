/* faultkit.h: helpers for the fault-injection tests (tests/integration/test_faults_*.c).
 *
 * Starts private helper processes next to the shared topology so that the faults a test
 * injects hit only its own requests: tests/topology/faultproxy.py in front of moto (or any
 * upstream), and a private Braket stand-in (tests/topology/braket_standin.py) that knows the
 * topology's credentials. Talks to their control APIs with byoc's own HTTP client.
 * Header-only (static functions): each integration test is one source file. */
#ifndef BYOC_TEST_FAULTKIT_H
#define BYOC_TEST_FAULTKIT_H

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "core/buf.h"
#include "core/err.h"
#include "net/http.h"

extern char **environ;

typedef struct fk_proc {
    pid_t pid;
    int port;
    char url[64];
} fk_proc;

static inline void fk_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* A loopback port nobody listens on right now. */
static inline int fk_free_port(void)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) != 0 || getsockname(s, (struct sockaddr *)&a, &len) != 0) {
        perror("fk_free_port");
        exit(1);
    }
    int port = ntohs(a.sin_port);
    close(s);
    return port;
}

static const char *fk_python(void)
{
    const char *p = getenv("BYOC_TEST_PYTHON");
    return p && *p ? p : "python3";
}

/* One HTTP exchange with a control API; returns the parsed JSON reply (NULL on failure). */
static json_t *fk_http_json(const char *method, const char *url, const char *body, long *status_out)
{
    byoc_http_req req = {0};
    req.method = method;
    req.url = url;
    byoc_http_opts opts = {.no_proxy = true, .timeout_ms = 30000};
    req.opts = &opts;
    if (body) {
        req.body = body;
        req.body_len = strlen(body);
        byoc_headers_add(&req.headers, "Content-Type", "application/json");
    }
    byoc_http_resp resp;
    memset(&resp, 0, sizeof resp);
    byoc_err err;
    byoc_err_clear(&err);
    json_t *out = NULL;
    if (byoc_http_do(&req, &resp, &err) == 0) {
        if (status_out)
            *status_out = resp.status;
        out = json_loadb(resp.body.data ? resp.body.data : "", resp.body.len, 0, NULL);
        if (resp.status >= 300)
            fprintf(stderr, "control %s %s: HTTP %ld %s\n", method, url, resp.status, byoc_buf_str(&resp.body));
    } else if (status_out) {
        *status_out = 0;
    }
    byoc_http_resp_clear(&resp);
    byoc_headers_clear(&req.headers);
    return out;
}

/* POST body to url; true on a 2xx. */
static inline bool fk_post(const char *url, const char *body)
{
    long status = 0;
    json_t *j = fk_http_json("POST", url, body, &status);
    json_decref(j);
    return status >= 200 && status < 300;
}

static inline bool fk_wait_health(const char *url)
{
    for (int i = 0; i < 200; i++) {
        long status = 0;
        json_t *j = fk_http_json("GET", url, NULL, &status);
        json_decref(j);
        if (status == 200)
            return true;
        fk_sleep_ms(100);
    }
    return false;
}

static inline pid_t fk_spawn(char *const argv[])
{
    pid_t pid;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        fprintf(stderr, "cannot start %s: %s\n", argv[0], strerror(rc));
        exit(1);
    }
    return pid;
}

static inline void fk_stop(fk_proc *p)
{
    if (p->pid > 0) {
        kill(p->pid, SIGTERM);
        waitpid(p->pid, NULL, 0);
        p->pid = 0;
    }
}

/* faultproxy.py in front of upstream ("http://127.0.0.1:45100" or "unix:///path"). */
static inline void fk_proxy_start(fk_proc *p, const char *upstream)
{
    char script[4096], listen[64];
    snprintf(script, sizeof script, "%s/tests/topology/faultproxy.py", check_source_dir());
    p->port = fk_free_port();
    snprintf(listen, sizeof listen, "127.0.0.1:%d", p->port);
    char *argv[] = {(char *)fk_python(), script, "--upstream", (char *)upstream, "--listen", listen, NULL};
    p->pid = fk_spawn(argv);
    snprintf(p->url, sizeof p->url, "http://127.0.0.1:%d", p->port);
    char health[128];
    snprintf(health, sizeof health, "%s/_faultproxy/health", p->url);
    if (!fk_wait_health(health)) {
        fprintf(stderr, "faultproxy did not come up on %s\n", p->url);
        exit(1);
    }
}

/* A private Braket stand-in with the topology's credentials. */
static inline void fk_standin_start(fk_proc *p)
{
    char script[4096], port[16], creds[4096];
    snprintf(script, sizeof script, "%s/tests/topology/braket_standin.py", check_source_dir());
    snprintf(creds, sizeof creds, "%s/standin-credentials.json", check_env("BYOC_TOPO_DIR"));
    p->port = fk_free_port();
    snprintf(port, sizeof port, "%d", p->port);
    char *argv[] = {(char *)fk_python(), script, "--port", port, "--account", (char *)check_env("BYOC_TEST_ACCOUNT"),
                    "--credentials-file", creds, NULL};
    p->pid = fk_spawn(argv);
    snprintf(p->url, sizeof p->url, "http://127.0.0.1:%d", p->port);
    char health[128];
    snprintf(health, sizeof health, "%s/_standin/health", p->url);
    if (!fk_wait_health(health)) {
        fprintf(stderr, "the private stand-in did not come up on %s\n", p->url);
        exit(1);
    }
}

/* The proxy's request log: how many requests for op (X-Amz-Target suffix, query Action, or
 * "METHOD /path") arrived after sequence number since, counted once none is in flight;
 * *last gets the newest seq. */
static inline int fk_proxy_count(const fk_proc *p, const char *op, int since, int *last)
{
    char url[256];
    snprintf(url, sizeof url, "%s/_faultproxy/requests?since=%d", p->url, since);
    /* A request is logged when the proxy's handler ends: a stalled one only once the proxy
     * notices the hang-up, which can be after byoc has given up. Wait (10 s at most) until
     * nothing is in flight, so that a count never misses a request byoc already sent. */
    json_t *j = NULL;
    for (int tries = 0; tries < 200; tries++) {
        json_decref(j);
        j = fk_http_json("GET", url, NULL, NULL);
        if (json_integer_value(json_object_get(j, "inflight")) <= 0)
            break;
        fk_sleep_ms(50);
    }
    int n = 0;
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(j, "requests"), i, r) {
        const char *o = json_string_value(json_object_get(r, "op"));
        if (!op || (o && strcmp(o, op) == 0))
            n++;
    }
    if (last)
        *last = (int)json_integer_value(json_object_get(j, "seq"));
    json_decref(j);
    return n;
}

static inline int fk_proxy_seq(const fk_proc *p)
{
    int seq = 0;
    fk_proxy_count(p, NULL, 1 << 30, &seq);
    return seq;
}

static inline bool fk_proxy_rule(const fk_proc *p, const char *rule_json)
{
    char url[128];
    snprintf(url, sizeof url, "%s/_faultproxy/rules", p->url);
    return fk_post(url, rule_json);
}

static inline void fk_proxy_clear(const fk_proc *p)
{
    char url[128];
    snprintf(url, sizeof url, "%s/_faultproxy/rules", p->url);
    json_decref(fk_http_json("DELETE", url, NULL, NULL));
}

/* The stand-in's request log: requests for a Braket operation after seq since. */
static inline int fk_standin_count(const fk_proc *s, const char *operation, int since, int *last)
{
    char url[256];
    snprintf(url, sizeof url, "%s/_standin/requests?since=%d", s->url, since);
    json_t *j = fk_http_json("GET", url, NULL, NULL);
    int n = 0;
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(j, "requests"), i, r) {
        const char *o = json_string_value(json_object_get(r, "operation"));
        if (!operation || (o && strcmp(o, operation) == 0))
            n++;
    }
    if (last)
        *last = (int)json_integer_value(json_object_get(j, "last"));
    json_decref(j);
    return n;
}

static inline bool fk_standin_fault(const fk_proc *s, const char *fault_json)
{
    char url[128];
    snprintf(url, sizeof url, "%s/_standin/faults", s->url);
    return fk_post(url, fault_json);
}

static inline void fk_standin_clear_faults(const fk_proc *s)
{
    char url[128];
    snprintf(url, sizeof url, "%s/_standin/faults", s->url);
    json_decref(fk_http_json("DELETE", url, NULL, NULL));
}

static inline void fk_print_err(const char *what, const byoc_err *err)
{
    char buf[1200];
    fprintf(stderr, "  %s: %s\n", what, byoc_err_format(err, buf, sizeof buf));
}

#endif
