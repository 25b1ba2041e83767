#include "net/deadline.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"

/* A setting in seconds from the environment: 1-3600, else fallback (with a warning when set but not that). */
static long byoc_net_setting_seconds(const char *name, long fallback)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return fallback;
    char *end;
    long n = strtol(v, &end, 10);
    if (*end || n < 1 || n > 3600) {
        byoc_log(BYOC_LOG_WARN, "%s=%s is not a number of seconds from 1 to 3600; using %ld", name, v, fallback);
        return fallback;
    }
    return n;
}

long byoc_net_api_deadline_ms(void)
{
    return byoc_net_setting_seconds("BYOC_API_TIMEOUT", 60) * 1000;
}

long byoc_net_transfer_stall_s(void)
{
    return byoc_net_setting_seconds("BYOC_TRANSFER_STALL", 60);
}

int byoc_net_timed_out(const byoc_http_opts *o, byoc_err *err)
{
    if (o->timeout_ms)
        return byoc_err_set(err, BYOC_E_NET, "network",
                            "no complete reply within %g s (the deadline of an API call; set BYOC_API_TIMEOUT=SECONDS "
                            "to change it)",
                            (double)o->timeout_ms / 1000.0);
    return byoc_err_set(err, BYOC_E_NET, "network",
                        "the transfer stalled: under %ld bytes/s for %ld s (set BYOC_TRANSFER_STALL=SECONDS to change "
                        "it)",
                        o->low_speed_limit > 0 ? o->low_speed_limit : 1L, o->low_speed_time_s);
}

void byoc_net_deadline_start(byoc_net_deadline *d, long total_ms)
{
    d->total_ms = total_ms > 0 ? total_ms : 0;
    clock_gettime(CLOCK_MONOTONIC, &d->start);
}

long byoc_net_deadline_left_ms(const byoc_net_deadline *d)
{
    if (!d->total_ms)
        return LONG_MAX;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long elapsed = (long)(now.tv_sec - d->start.tv_sec) * 1000L + (now.tv_nsec - d->start.tv_nsec) / 1000000L;
    return d->total_ms - elapsed;
}

bool byoc_net_deadline_too_late(const byoc_net_deadline *d, long ms)
{
    return d->total_ms && byoc_net_deadline_left_ms(d) <= ms;
}

int byoc_net_deadline_passed(const byoc_net_deadline *d, int attempts, byoc_err *err)
{
    byoc_err_set(err, BYOC_E_NET, "network",
                 "no complete reply within %g s (the deadline of an API call, retries included; set "
                 "BYOC_API_TIMEOUT=SECONDS to change it)",
                 (double)d->total_ms / 1000.0);
    if (err && attempts > 1) {
        size_t len = strlen(err->message);
        snprintf(err->message + len, sizeof err->message - len, " (gave up after %d attempts)", attempts);
    }
    return -1;
}
