#include "net/retry.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>

/* ---- configuration ----------------------------------------------------------- */

int byoc_retry_mode_parse(const char *s, byoc_retry_mode *out)
{
    static const struct { const char *name; byoc_retry_mode mode; } modes[] = {
        {"legacy", BYOC_RETRY_LEGACY},
        {"standard", BYOC_RETRY_STANDARD},
        {"adaptive", BYOC_RETRY_ADAPTIVE},
    };
    for (size_t i = 0; s && i < sizeof modes / sizeof modes[0]; i++) {
        if (strcmp(s, modes[i].name) == 0) {
            *out = modes[i].mode;
            return 0;
        }
    }
    return -1;
}

const char *byoc_retry_mode_name(byoc_retry_mode m)
{
    switch (m) {
    case BYOC_RETRY_LEGACY: return "legacy";
    case BYOC_RETRY_ADAPTIVE: return "adaptive";
    case BYOC_RETRY_STANDARD:
    default: return "standard";
    }
}

int byoc_retry_default_attempts(byoc_retry_mode m) { return m == BYOC_RETRY_LEGACY ? 5 : 3; }

static bool parse_attempts(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    while (*end == ' ' || *end == '\t')
        end++;
    if (errno || end == s || *end || v < 1 || v > 1000)
        return false;
    *out = (int)v;
    return true;
}

int byoc_retry_config(const char *profile_mode, const char *profile_max_attempts,
                      byoc_retry_mode *mode, int *max_attempts, byoc_err *err)
{
    const char *env_mode = getenv("AWS_RETRY_MODE");
    const char *env_attempts = getenv("AWS_MAX_ATTEMPTS");
    const char *mode_src = "retry_mode", *mode_val = profile_mode;
    if (env_mode && *env_mode) {
        mode_src = "AWS_RETRY_MODE";
        mode_val = env_mode;
    }
    *mode = BYOC_RETRY_DEFAULT_MODE;
    if (mode_val && *mode_val && byoc_retry_mode_parse(mode_val, mode) != 0)
        return byoc_err_set(err, BYOC_E_USAGE, mode_src,
                            "invalid retry mode \"%s\" (expected legacy, standard or adaptive)",
                            mode_val);

    const char *att_src = "max_attempts", *att_val = profile_max_attempts;
    if (env_attempts && *env_attempts) {
        att_src = "AWS_MAX_ATTEMPTS";
        att_val = env_attempts;
    }
    *max_attempts = byoc_retry_default_attempts(*mode);
    if (att_val && *att_val && !parse_attempts(att_val, max_attempts))
        return byoc_err_set(err, BYOC_E_USAGE, att_src,
                            "invalid max attempts \"%s\" (expected a whole number from 1)", att_val);
    return 0;
}

/* ---- classification ------------------------------------------------------------ */

static bool in_list(const char *code, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(code, *list) == 0)
            return true;
    return false;
}

static const char *const throttling_codes[] = {
    "Throttling", "ThrottlingException", "ThrottledException", "RequestThrottledException",
    "TooManyRequestsException", "ProvisionedThroughputExceededException",
    "TransactionInProgressException", "RequestLimitExceeded", "BandwidthLimitExceeded",
    "LimitExceededException", "RequestThrottled", "SlowDown", "EC2ThrottledException",
    "TOOMANYREQUESTS", /* registry API v2 */
    NULL,
};

static const char *const transient_codes[] = {
    "RequestTimeout", "RequestTimeoutException", "PriorRequestNotComplete", NULL,
};

static byoc_retry_class classify_transport(int curl_code)
{
    switch ((CURLcode)curl_code) {
    case CURLE_OPERATION_TIMEDOUT:
        return BYOC_RETRY_TIMEOUT;
    /* our own aborts: cancellation, a sink or body reader that gave up */
    case CURLE_ABORTED_BY_CALLBACK:
    case CURLE_WRITE_ERROR:
    case CURLE_READ_ERROR:
    /* deterministic: the same request fails the same way */
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT:
    case CURLE_NOT_BUILT_IN:
    case CURLE_BAD_FUNCTION_ARGUMENT:
    case CURLE_OUT_OF_MEMORY:
    case CURLE_UNKNOWN_OPTION:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_FILESIZE_EXCEEDED:
    case CURLE_LOGIN_DENIED:
    case CURLE_TOO_MANY_REDIRECTS:
        return BYOC_RETRY_NONE;
    default: /* resolve, connect, TLS handshake, reset, nothing received, ... */
        return BYOC_RETRY_TRANSIENT;
    }
}

byoc_retry_class byoc_retry_classify(int curl_code, long http_status, const char *error_code,
                                     const char *service)
{
    if (curl_code != 0)
        return classify_transport(curl_code);
    const char *code = error_code ? error_code : "";
    if (*code && http_status >= 200 && http_status < 300)
        http_status = 500;
    if (*code) {
        if (strcmp(code, "LimitExceededException") == 0 && service && strcasecmp(service, "ecr") == 0)
            return BYOC_RETRY_NONE;
        if (in_list(code, throttling_codes))
            return BYOC_RETRY_THROTTLING;
        if (in_list(code, transient_codes))
            return BYOC_RETRY_TRANSIENT;
    }
    if (http_status == 429)
        return BYOC_RETRY_THROTTLING;
    if (http_status == 500 || http_status == 502 || http_status == 503 || http_status == 504)
        return BYOC_RETRY_TRANSIENT;
    return BYOC_RETRY_NONE;
}

/* ---- retry quota ----------------------------------------------------------------- */

void byoc_retry_quota_init(byoc_retry_quota *q, int capacity)
{
    pthread_mutex_init(&q->lock, NULL);
    q->available = q->capacity = capacity;
}

void byoc_retry_quota_destroy(byoc_retry_quota *q) { pthread_mutex_destroy(&q->lock); }

int byoc_retry_quota_available(byoc_retry_quota *q)
{
    pthread_mutex_lock(&q->lock);
    int n = q->available;
    pthread_mutex_unlock(&q->lock);
    return n;
}

static bool quota_take(byoc_retry_quota *q, int n)
{
    pthread_mutex_lock(&q->lock);
    bool ok = q->available >= n;
    if (ok)
        q->available -= n;
    pthread_mutex_unlock(&q->lock);
    return ok;
}

static void quota_give(byoc_retry_quota *q, int n)
{
    pthread_mutex_lock(&q->lock);
    q->available = q->available + n > q->capacity ? q->capacity : q->available + n;
    pthread_mutex_unlock(&q->lock);
}

static byoc_retry_quota shared_quota = {PTHREAD_MUTEX_INITIALIZER, BYOC_RETRY_QUOTA_CAPACITY,
                                        BYOC_RETRY_QUOTA_CAPACITY};

byoc_retry_quota *byoc_retry_quota_shared(void) { return &shared_quota; }

/* ---- adaptive rate limiter (constants as botocore's adaptive mode) --------------- */

#define CUBIC_SCALE 0.4
#define CUBIC_BETA 0.7
#define BUCKET_MIN_RATE 0.5
#define MAX_RATE_ADJUST_SCALE 2.0
#define RATE_SMOOTHING 0.8
#define RATE_BUCKETS_PER_S 2.0

static double monotonic_s(void *ud)
{
    (void)ud;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double limiter_now(const byoc_retry_limiter *l)
{
    return l->clock ? l->clock(l->clock_ud) : monotonic_s(NULL);
}

static double cubic_zero_point(double w_max) { return cbrt(w_max * (1 - CUBIC_BETA) / CUBIC_SCALE); }

static void bucket_refill(byoc_retry_limiter *l, double now)
{
    if (!l->refilled_once) {
        l->refilled_once = true;
        l->last_refill = now;
        return;
    }
    double c = l->capacity + (now - l->last_refill) * l->fill_rate;
    l->capacity = c < l->max_capacity ? c : l->max_capacity;
    l->last_refill = now;
}

static void bucket_set_rate(byoc_retry_limiter *l, double rate, double now)
{
    bucket_refill(l, now);
    l->fill_rate = rate > BUCKET_MIN_RATE ? rate : BUCKET_MIN_RATE;
    l->max_capacity = rate >= 1 ? rate : 1;
    if (l->capacity > l->max_capacity)
        l->capacity = l->max_capacity;
}

void byoc_retry_limiter_init(byoc_retry_limiter *l, double (*clock)(void *ud), void *clock_ud)
{
    memset(l, 0, sizeof *l);
    pthread_mutex_init(&l->lock, NULL);
    l->clock = clock;
    l->clock_ud = clock_ud;
    double now = limiter_now(l);
    l->w_max = 0;
    l->k = cubic_zero_point(0);
    l->last_fail = now;
    l->last_bucket = floor(now);
    bucket_set_rate(l, 1, now);
}

void byoc_retry_limiter_destroy(byoc_retry_limiter *l) { pthread_mutex_destroy(&l->lock); }

double byoc_retry_limiter_acquire(byoc_retry_limiter *l)
{
    pthread_mutex_lock(&l->lock);
    double wait = 0;
    if (l->enabled) {
        bucket_refill(l, limiter_now(l));
        if (l->capacity >= 1)
            l->capacity -= 1;
        else
            wait = (1 - l->capacity) / l->fill_rate;
    }
    pthread_mutex_unlock(&l->lock);
    return wait;
}

/* The send rate measured over half-second buckets, smoothed. */
static double measure_rate(byoc_retry_limiter *l, double now)
{
    double bucket = floor(now * RATE_BUCKETS_PER_S) / RATE_BUCKETS_PER_S;
    l->count++;
    if (bucket > l->last_bucket) {
        double current = l->count / (bucket - l->last_bucket);
        l->measured_rate = current * RATE_SMOOTHING + l->measured_rate * (1 - RATE_SMOOTHING);
        l->count = 0;
        l->last_bucket = bucket;
    }
    return l->measured_rate;
}

void byoc_retry_limiter_record(byoc_retry_limiter *l, bool throttled)
{
    pthread_mutex_lock(&l->lock);
    double now = limiter_now(l);
    double measured = measure_rate(l, now), rate;
    if (!throttled) {
        double dt = now - l->last_fail - l->k;
        rate = CUBIC_SCALE * dt * dt * dt + l->w_max;
    } else {
        double use = measured;
        if (l->enabled && l->fill_rate < use)
            use = l->fill_rate;
        l->w_max = use;
        l->k = cubic_zero_point(use);
        l->last_fail = now;
        rate = use * CUBIC_BETA;
        l->enabled = true;
    }
    double cap = MAX_RATE_ADJUST_SCALE * measured;
    bucket_set_rate(l, rate < cap ? rate : cap, now);
    pthread_mutex_unlock(&l->lock);
}

double byoc_retry_limiter_rate(byoc_retry_limiter *l)
{
    pthread_mutex_lock(&l->lock);
    double r = l->fill_rate;
    pthread_mutex_unlock(&l->lock);
    return r;
}

bool byoc_retry_limiter_enabled(byoc_retry_limiter *l)
{
    pthread_mutex_lock(&l->lock);
    bool e = l->enabled;
    pthread_mutex_unlock(&l->lock);
    return e;
}

static pthread_once_t shared_limiter_once = PTHREAD_ONCE_INIT;
static byoc_retry_limiter shared_limiter;

static void shared_limiter_init(void) { byoc_retry_limiter_init(&shared_limiter, NULL, NULL); }

byoc_retry_limiter *byoc_retry_limiter_shared(void)
{
    pthread_once(&shared_limiter_once, shared_limiter_init);
    return &shared_limiter;
}

/* ---- policy ---------------------------------------------------------------------- */

void byoc_retry_policy_init(byoc_retry_policy *p, byoc_retry_mode mode, int max_attempts)
{
    memset(p, 0, sizeof *p);
    p->mode = mode;
    p->max_attempts = max_attempts >= 1 ? max_attempts : byoc_retry_default_attempts(mode);
    if (mode != BYOC_RETRY_LEGACY)
        p->quota = byoc_retry_quota_shared();
    if (mode == BYOC_RETRY_ADAPTIVE)
        p->limiter = byoc_retry_limiter_shared();
}

int byoc_retry_before_attempt(byoc_retry_policy *p, byoc_task *t, byoc_err *err)
{
    for (;;) {
        if (byoc_task_cancelled(t))
            return byoc_err_set(err, BYOC_E_CANCELLED, "retry", "cancelled");
        if (!p->limiter)
            return 0;
        double wait = byoc_retry_limiter_acquire(p->limiter);
        if (wait <= 0)
            return 0;
        long ms = (long)ceil(wait * 1000);
        if (byoc_retry_sleep(t, ms > 0 ? ms : 1) != 0)
            return byoc_err_set(err, BYOC_E_CANCELLED, "retry", "cancelled");
    }
}

static double default_rng(void *ud)
{
    (void)ud;
    return (double)arc4random() / 4294967296.0;
}

long byoc_retry_delay_ms(const byoc_retry_policy *p, int attempt)
{
    double r = p->rng ? p->rng(p->rng_ud) : default_rng(NULL);
    if (r < 0 || r >= 1)
        r = 0;
    int exp = attempt < 1 ? 0 : attempt - 1;
    double ms = r * 1000.0 * ldexp(1.0, exp > 30 ? 30 : exp);
    return ms > (double)BYOC_RETRY_MAX_DELAY_MS ? BYOC_RETRY_MAX_DELAY_MS : (long)ms;
}

bool byoc_retry_should_retry(byoc_retry_policy *p, int attempt, byoc_retry_class c, long *delay_ms)
{
    if (p->limiter)
        byoc_retry_limiter_record(p->limiter, c == BYOC_RETRY_THROTTLING);
    *delay_ms = 0;
    if (attempt >= p->max_attempts || c == BYOC_RETRY_NONE)
        return false;
    if (p->quota) {
        int cost = c == BYOC_RETRY_TIMEOUT ? BYOC_RETRY_TIMEOUT_COST : BYOC_RETRY_COST;
        if (!quota_take(p->quota, cost))
            return false;
        p->held = cost;
    }
    p->retried = true;
    *delay_ms = byoc_retry_delay_ms(p, attempt);
    return true;
}

void byoc_retry_on_success(byoc_retry_policy *p)
{
    if (p->limiter)
        byoc_retry_limiter_record(p->limiter, false);
    if (p->quota)
        quota_give(p->quota, p->retried ? p->held : 1);
    p->held = 0;
    p->retried = false;
}

int byoc_retry_sleep(byoc_task *t, long ms)
{
    const long slice = 50;
    struct timespec end;
    clock_gettime(CLOCK_MONOTONIC, &end);
    end.tv_sec += ms / 1000;
    end.tv_nsec += (ms % 1000) * 1000000L;
    if (end.tv_nsec >= 1000000000L) {
        end.tv_sec++;
        end.tv_nsec -= 1000000000L;
    }
    for (;;) {
        if (byoc_task_cancelled(t))
            return -1;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long left = (long)(end.tv_sec - now.tv_sec) * 1000 + (end.tv_nsec - now.tv_nsec) / 1000000L;
        if (left <= 0)
            return 0;
        long step = left < slice ? left : slice;
        struct timespec ts = {0, step * 1000000L};
        nanosleep(&ts, NULL);
    }
}
