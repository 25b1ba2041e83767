/* deadline: the time bounds byoc puts on HTTP exchanges with services, and
 * the message that says which one ended an exchange.
 *
 * A small call (an API call, a registry manifest) gets an overall deadline:
 * BYOC_API_TIMEOUT seconds (1-3600, default 60), for the whole call: every
 * attempt, the back-off between them and a redirect followed. A transfer (an upload or a
 * download of any size) has none but must keep moving: under its floor of
 * bytes per second for BYOC_TRANSFER_STALL seconds (default 60) ends it. */
#ifndef BYOC_NET_DEADLINE_H
#define BYOC_NET_DEADLINE_H

#include <time.h>

#include "core/err.h"
#include "net/http.h"

/* One call's overall deadline, started before its first attempt. */
typedef struct byoc_net_deadline {
    long total_ms;          /* 0: none */
    struct timespec start;  /* CLOCK_MONOTONIC */
} byoc_net_deadline;

/* BYOC_API_TIMEOUT in milliseconds. */
long byoc_net_api_deadline_ms(void);
/* BYOC_TRANSFER_STALL in seconds. */
long byoc_net_transfer_stall_s(void);
/* Start d now; total_ms 0: no deadline. */
void byoc_net_deadline_start(byoc_net_deadline *d, long total_ms);
/* The milliseconds left (<= 0 once passed); a very large number without a deadline. */
long byoc_net_deadline_left_ms(const byoc_net_deadline *d);
/* Whether waiting ms more (a back-off) would reach the deadline. */
bool byoc_net_deadline_too_late(const byoc_net_deadline *d, long ms);
/* The call ran out of d (an attempt timed out, or no time was left for one more): err says so and how
 * to move it, and after how many attempts when more than one (BYOC_E_NET, "network"). Returns -1. */
int byoc_net_deadline_passed(const byoc_net_deadline *d, int attempts, byoc_err *err);
/* After an exchange that o's deadline or progress floor ended (resp.timed_out): err says which and
 * how to move it (BYOC_E_NET, "network"). Returns -1. */
int byoc_net_timed_out(const byoc_http_opts *o, byoc_err *err);

#endif
