/* loopback: a test's HTTP server on 127.0.0.1, one thread taking one connection at a time.
 * The test says how a connection is served; the server reads the request for it, closes the
 * connection after, and stops when asked. Use:
 *   static void serve_one(int conn, void *ud) { char req[8192]; loopback_read_request(conn, req, sizeof req); ... }
 *   loopback lb;
 *   loopback_start(&lb, serve_one, ud);     ... http://127.0.0.1:<lb.port> ...     loopback_stop(&lb); */
#ifndef BYOC_TEST_LOOPBACK_H
#define BYOC_TEST_LOOPBACK_H

#include <pthread.h>
#include <stddef.h>

typedef void (*loopback_fn)(int conn, void *ud);

typedef struct {
    int fd;
    int port;
    pthread_t thread;
    loopback_fn fn;
    void *ud;
} loopback;

/* Listen on a free port (lb->port) and serve each connection with fn. */
void loopback_start(loopback *lb, loopback_fn fn, void *ud);
/* Stop listening and wait for the connection being served. */
void loopback_stop(loopback *lb);

/* Read a request into buf (NUL-terminated): its head and the body its Content-Length announces,
 * as much as fits. Returns the bytes read; the head is whole when buf holds "\r\n\r\n". */
size_t loopback_read_request(int conn, char *buf, size_t size);

#endif
