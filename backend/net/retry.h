/* retry: the AWS SDKs' retry behaviour, as decisions the caller acts on.
 *
 * Modes (AWS_RETRY_MODE / profile retry_mode):
 *   legacy    5 attempts, no retry quota
 *   standard  3 attempts, a retry quota shared by the process (500 tokens, a
 *             retry costs 5, 10 after a timeout; a success refunds what its
 *             retry took, or adds 1 when it needed none)
 *   adaptive  standard plus a client-side send-rate limiter that slows down
 *             after throttling (CUBIC, as botocore)
 * Max attempts (AWS_MAX_ATTEMPTS / profile max_attempts) count the first try.
 * The delay before retrying after attempt i (1-based) fails is
 * rand[0,1) * 2^(i-1) seconds, at most 20 s.
 *
 * The aws layer signs each attempt itself, so it owns the loop:
 *
 *   byoc_retry_policy p;
 *   byoc_retry_policy_init(&p, mode, max_attempts);
 *   for (int attempt = 1;; attempt++) {
 *       if (byoc_retry_before_attempt(&p, task, err)) return -1;      // cancelled
 *       ...sign, byoc_http_do()...
 *       if (ok) { byoc_retry_on_success(&p); break; }
 *       byoc_retry_class c = byoc_retry_classify(resp.curl_code, resp.status, code, "ecr");
 *       long ms;
 *       if (!byoc_retry_should_retry(&p, attempt, c, &ms)) -> fail with this attempt's error
 *       if (byoc_retry_sleep(task, ms)) -> cancelled
 *   }
 *
 * After each attempt call exactly one of byoc_retry_on_success (2xx) and
 * byoc_retry_should_retry (anything else). Randomness and the clock are
 * injectable so tests are deterministic. */
#ifndef BYOC_NET_RETRY_H
#define BYOC_NET_RETRY_H

#include <pthread.h>
#include <stdbool.h>

#include "core/err.h"
#include "core/task.h"

typedef enum { BYOC_RETRY_LEGACY, BYOC_RETRY_STANDARD, BYOC_RETRY_ADAPTIVE } byoc_retry_mode;

/* What an attempt's outcome means for retrying. */
typedef enum {
    BYOC_RETRY_NONE,       /* success, or a failure retrying cannot fix */
    BYOC_RETRY_TRANSIENT,  /* 500/502/503/504, connection errors, RequestTimeout, ... */
    BYOC_RETRY_TIMEOUT,    /* a transport timeout: transient, but costs more quota */
    BYOC_RETRY_THROTTLING, /* a throttling code, or HTTP 429 */
} byoc_retry_class;

#define BYOC_RETRY_DEFAULT_MODE BYOC_RETRY_STANDARD
#define BYOC_RETRY_MAX_DELAY_MS 20000L
#define BYOC_RETRY_QUOTA_CAPACITY 500
#define BYOC_RETRY_COST 5
#define BYOC_RETRY_TIMEOUT_COST 10

/* "legacy", "standard", "adaptive" (exact, lower case). 0, or -1 if unknown. */
int byoc_retry_mode_parse(const char *s, byoc_retry_mode *out);
const char *byoc_retry_mode_name(byoc_retry_mode m);
int byoc_retry_default_attempts(byoc_retry_mode m); /* legacy 5, else 3 */

/* Resolve mode and attempts as the SDKs do: AWS_RETRY_MODE / AWS_MAX_ATTEMPTS
 * from the environment win over the profile's values (profile_mode,
 * profile_max_attempts: strings as read, NULL if absent), then the defaults
 * (standard; the mode's attempts). A bad value is BYOC_E_USAGE naming the
 * variable or profile key. */
int byoc_retry_config(const char *profile_mode, const char *profile_max_attempts,
                      byoc_retry_mode *mode, int *max_attempts, byoc_err *err);

/* Classify an attempt. curl_code: byoc_http_resp.curl_code (non-zero: a
 * transport failure, status and code are then ignored). http_status and
 * error_code (the service's error code, or NULL/"") describe the response. A
 * 2xx with an error code (S3's 200-with-<Error>) counts as a 500. service
 * (e.g. "ecr", may be NULL) matters for codes whose meaning varies: ECR's
 * LimitExceededException is a quota, not throttling. Cancellation, body
 * reader/sink failures, bad URLs and certificate failures are NONE. */
byoc_retry_class byoc_retry_classify(int curl_code, long http_status, const char *error_code,
                                     const char *service);

/* The retry quota (standard and adaptive modes). */
typedef struct byoc_retry_quota {
    pthread_mutex_t lock;
    int available, capacity;
} byoc_retry_quota;

void byoc_retry_quota_init(byoc_retry_quota *q, int capacity);
void byoc_retry_quota_destroy(byoc_retry_quota *q);
int byoc_retry_quota_available(byoc_retry_quota *q);
/* The process-wide quota policies use by default (capacity 500). */
byoc_retry_quota *byoc_retry_quota_shared(void);

/* The adaptive mode's client-side rate limiter (botocore's ClientRateLimiter:
 * a token bucket whose fill rate follows CUBIC, enabled by the first throttle). */
typedef struct byoc_retry_limiter {
    pthread_mutex_t lock;
    double (*clock)(void *ud); /* seconds, monotonic; NULL: CLOCK_MONOTONIC */
    void *clock_ud;
    bool enabled;
    /* token bucket */
    double fill_rate, max_capacity, capacity, last_refill;
    bool refilled_once;
    /* CUBIC */
    double w_max, k, last_fail;
    /* measured send rate */
    double measured_rate, last_bucket;
    int count;
} byoc_retry_limiter;

void byoc_retry_limiter_init(byoc_retry_limiter *l, double (*clock)(void *ud), void *clock_ud);
void byoc_retry_limiter_destroy(byoc_retry_limiter *l);
/* Seconds to wait before one more request may be sent (0: now; the token is
 * then taken). Callers normally use byoc_retry_before_attempt instead. */
double byoc_retry_limiter_acquire(byoc_retry_limiter *l);
/* Feed a response (throttled or not) into the rate adjustment. */
void byoc_retry_limiter_record(byoc_retry_limiter *l, bool throttled);
double byoc_retry_limiter_rate(byoc_retry_limiter *l); /* current send rate cap, req/s */
bool byoc_retry_limiter_enabled(byoc_retry_limiter *l);
byoc_retry_limiter *byoc_retry_limiter_shared(void);

/* One logical request's retry state. Make one per request (it is cheap). */
typedef struct byoc_retry_policy {
    byoc_retry_mode mode;
    int max_attempts;             /* including the first; >= 1 */
    byoc_retry_quota *quota;      /* NULL: no quota (legacy) */
    byoc_retry_limiter *limiter;  /* NULL: no rate limiting (legacy, standard) */
    double (*rng)(void *ud);      /* uniform in [0,1); NULL: arc4random */
    void *rng_ud;
    int held;                     /* quota taken by this request's last retry */
    bool retried;
} byoc_retry_policy;

/* Fills p for mode with the shared quota (standard, adaptive) and limiter (adaptive).
 * max_attempts < 1 means the mode's default. */
void byoc_retry_policy_init(byoc_retry_policy *p, byoc_retry_mode mode, int max_attempts);

/* Before sending any attempt: in adaptive mode waits (cancellably) for the
 * rate limiter. Returns 0, or -1 with err = BYOC_E_CANCELLED. */
int byoc_retry_before_attempt(byoc_retry_policy *p, byoc_task *t, byoc_err *err);

/* After attempt number `attempt` (1-based) failed as `c`: true with *delay_ms
 * set if another attempt should be made (attempts left, retryable, quota
 * available, which it then takes). */
bool byoc_retry_should_retry(byoc_retry_policy *p, int attempt, byoc_retry_class c, long *delay_ms);

/* After an attempt succeeded: refunds the quota. */
void byoc_retry_on_success(byoc_retry_policy *p);

/* The backoff for a retry after attempt `attempt` failed, with p's RNG. */
long byoc_retry_delay_ms(const byoc_retry_policy *p, int attempt);

/* Sleep ms milliseconds, waking early when t is cancelled (t may be NULL).
 * Returns 0, or -1 if cancelled. */
int byoc_retry_sleep(byoc_task *t, long ms);

#endif
