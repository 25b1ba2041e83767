#include "loopback.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"

static void *accept_loop(void *arg)
{
    loopback *lb = arg;
    for (;;) {
        int c = accept(lb->fd, NULL, NULL);
        if (c < 0)
            return NULL;
        lb->fn(c, lb->ud);
        close(c);
    }
}

void loopback_start(loopback *lb, loopback_fn fn, void *ud)
{
    memset(lb, 0, sizeof *lb);
    lb->fn = fn;
    lb->ud = ud;
    lb->fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    CHECK(bind(lb->fd, (struct sockaddr *)&a, sizeof a) == 0);
    socklen_t al = sizeof a;
    getsockname(lb->fd, (struct sockaddr *)&a, &al);
    lb->port = ntohs(a.sin_port);
    CHECK(listen(lb->fd, 8) == 0);
    pthread_create(&lb->thread, NULL, accept_loop, lb);
}

void loopback_stop(loopback *lb)
{
    shutdown(lb->fd, SHUT_RDWR);
    close(lb->fd);
    pthread_join(lb->thread, NULL);
}

size_t loopback_read_request(int conn, char *buf, size_t size)
{
    size_t n = 0;
    ssize_t r;
    buf[0] = '\0';
    while (n < size - 1 && (r = read(conn, buf + n, size - 1 - n)) > 0) {
        n += (size_t)r;
        buf[n] = '\0';
        const char *end = strstr(buf, "\r\n\r\n");
        if (end) {
            const char *cl = strcasestr(buf, "\r\nContent-Length:");
            size_t want = cl && cl < end ? (size_t)strtoul(cl + 17, NULL, 10) : 0;
            if (n >= (size_t)(end - buf) + 4 + want)
                break;
        }
    }
    return n;
}
