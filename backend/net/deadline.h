/* deadline: the time bounds byoc puts on HTTP exchanges with services, and
 * the message that says which one ended an exchange.
 *
 * A small call (an API call, a registry manifest) gets an overall deadline:
 * BYOC_API_TIMEOUT seconds (1-3600, default 60). A transfer (an upload or a
 * download of any size) has none but must keep moving: under its floor of
 * bytes per second for BYOC_TRANSFER_STALL seconds (default 60) ends it. */
#ifndef BYOC_NET_DEADLINE_H
#define BYOC_NET_DEADLINE_H

#include "core/err.h"
#include "net/http.h"

/* A setting in seconds from the environment: 1-3600, else fallback (with a warning when set but not that). */
long byoc_net_setting_seconds(const char *name, long fallback);
/* BYOC_API_TIMEOUT in milliseconds. */
long byoc_net_api_deadline_ms(void);
/* BYOC_TRANSFER_STALL in seconds. */
long byoc_net_transfer_stall_s(void);
/* After an exchange that o's deadline or progress floor ended (resp.timed_out): err says which and
 * how to move it (BYOC_E_NET, "network"). Returns -1. */
int byoc_net_timed_out(const byoc_http_opts *o, byoc_err *err);

#endif
