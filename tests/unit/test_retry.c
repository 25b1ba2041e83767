/* net/retry: configuration, classification, backoff, the retry quota, the
 * adaptive limiter and the cancellable sleep. Randomness and time are injected. */
#include "check.h"
#include "net/retry.h"

#include <curl/curl.h>
#include <stdlib.h>

static double fixed_rng(void *ud) { return *(const double *)ud; }

static void test_modes_and_config(void)
{
    byoc_retry_mode m = BYOC_RETRY_LEGACY;
    CHECK_INT(byoc_retry_mode_parse("standard", &m), 0);
    CHECK_INT(m, BYOC_RETRY_STANDARD);
    CHECK_INT(byoc_retry_mode_parse("adaptive", &m), 0);
    CHECK_INT(m, BYOC_RETRY_ADAPTIVE);
    CHECK_INT(byoc_retry_mode_parse("legacy", &m), 0);
    CHECK_INT(m, BYOC_RETRY_LEGACY);
    CHECK_INT(byoc_retry_mode_parse("Standard", &m), -1);
    CHECK_INT(byoc_retry_mode_parse(NULL, &m), -1);
    CHECK_STR(byoc_retry_mode_name(BYOC_RETRY_ADAPTIVE), "adaptive");
    CHECK_INT(byoc_retry_default_attempts(BYOC_RETRY_LEGACY), 5);
    CHECK_INT(byoc_retry_default_attempts(BYOC_RETRY_STANDARD), 3);

    int attempts = 0;
    byoc_err err;
    unsetenv("AWS_RETRY_MODE");
    unsetenv("AWS_MAX_ATTEMPTS");
    CHECK_INT(byoc_retry_config(NULL, NULL, &m, &attempts, &err), 0);
    CHECK_INT(m, BYOC_RETRY_STANDARD);
    CHECK_INT(attempts, 3);
    CHECK_INT(byoc_retry_config("legacy", NULL, &m, &attempts, &err), 0);
    CHECK_INT(m, BYOC_RETRY_LEGACY);
    CHECK_INT(attempts, 5);
    CHECK_INT(byoc_retry_config("adaptive", "8", &m, &attempts, &err), 0);
    CHECK_INT(m, BYOC_RETRY_ADAPTIVE);
    CHECK_INT(attempts, 8);

    /* The environment wins over the profile, as in the SDKs. */
    setenv("AWS_RETRY_MODE", "legacy", 1);
    setenv("AWS_MAX_ATTEMPTS", "2", 1);
    CHECK_INT(byoc_retry_config("adaptive", "8", &m, &attempts, &err), 0);
    CHECK_INT(m, BYOC_RETRY_LEGACY);
    CHECK_INT(attempts, 2);

    setenv("AWS_MAX_ATTEMPTS", "0", 1);
    CHECK_INT(byoc_retry_config(NULL, NULL, &m, &attempts, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK_STR(err.what, "AWS_MAX_ATTEMPTS");
    setenv("AWS_MAX_ATTEMPTS", "three", 1);
    CHECK_INT(byoc_retry_config(NULL, NULL, &m, &attempts, &err), -1);
    CHECK_STR(err.what, "AWS_MAX_ATTEMPTS");
    unsetenv("AWS_MAX_ATTEMPTS");
    setenv("AWS_RETRY_MODE", "fast", 1);
    CHECK_INT(byoc_retry_config(NULL, NULL, &m, &attempts, &err), -1);
    CHECK_STR(err.what, "AWS_RETRY_MODE");
    unsetenv("AWS_RETRY_MODE");
    CHECK_INT(byoc_retry_config("sometimes", NULL, &m, &attempts, &err), -1);
    CHECK_STR(err.what, "retry_mode");
    CHECK_INT(byoc_retry_config(NULL, "-1", &m, &attempts, &err), -1);
    CHECK_STR(err.what, "max_attempts");
}

static void test_classify(void)
{
    static const char *throttles[] = {
        "Throttling", "ThrottlingException", "ThrottledException", "RequestThrottledException",
        "TooManyRequestsException", "ProvisionedThroughputExceededException",
        "TransactionInProgressException", "RequestLimitExceeded", "BandwidthLimitExceeded",
        "LimitExceededException", "RequestThrottled", "SlowDown", "EC2ThrottledException",
    };
    for (size_t i = 0; i < sizeof throttles / sizeof throttles[0]; i++) {
        CHECK_INT(byoc_retry_classify(0, 400, throttles[i], NULL), BYOC_RETRY_THROTTLING);
        CHECK_INT(byoc_retry_classify(0, 503, throttles[i], "braket"), BYOC_RETRY_THROTTLING);
    }
    CHECK_INT(byoc_retry_classify(0, 400, "LimitExceededException", "ecr"), BYOC_RETRY_NONE);
    CHECK_INT(byoc_retry_classify(0, 400, "LimitExceededException", "ECR"), BYOC_RETRY_NONE);
    CHECK_INT(byoc_retry_classify(0, 429, NULL, NULL), BYOC_RETRY_THROTTLING);

    CHECK_INT(byoc_retry_classify(0, 400, "RequestTimeout", NULL), BYOC_RETRY_TRANSIENT);
    CHECK_INT(byoc_retry_classify(0, 408, "RequestTimeoutException", NULL), BYOC_RETRY_TRANSIENT);
    CHECK_INT(byoc_retry_classify(0, 400, "PriorRequestNotComplete", NULL), BYOC_RETRY_TRANSIENT);
    long transient[] = {500, 502, 503, 504};
    for (size_t i = 0; i < 4; i++)
        CHECK_INT(byoc_retry_classify(0, transient[i], "", NULL), BYOC_RETRY_TRANSIENT);
    long final[] = {200, 204, 301, 400, 401, 403, 404, 409, 501};
    for (size_t i = 0; i < sizeof final / sizeof final[0]; i++)
        CHECK_INT(byoc_retry_classify(0, final[i], NULL, NULL), BYOC_RETRY_NONE);
    CHECK_INT(byoc_retry_classify(0, 400, "ValidationException", NULL), BYOC_RETRY_NONE);
    CHECK_INT(byoc_retry_classify(0, 403, "SignatureDoesNotMatch", "s3"), BYOC_RETRY_NONE);
    /* S3's 200 with an <Error> body counts as a 500. */
    CHECK_INT(byoc_retry_classify(0, 200, "InternalError", "s3"), BYOC_RETRY_TRANSIENT);

    /* Transport failures: status and code are ignored. */
    CHECK_INT(byoc_retry_classify(CURLE_COULDNT_CONNECT, 0, NULL, NULL), BYOC_RETRY_TRANSIENT);
    CHECK_INT(byoc_retry_classify(CURLE_COULDNT_RESOLVE_HOST, 0, NULL, NULL), BYOC_RETRY_TRANSIENT);
    CHECK_INT(byoc_retry_classify(CURLE_GOT_NOTHING, 0, NULL, NULL), BYOC_RETRY_TRANSIENT);
    CHECK_INT(byoc_retry_classify(CURLE_RECV_ERROR, 200, NULL, NULL), BYOC_RETRY_TRANSIENT);
    CHECK_INT(byoc_retry_classify(CURLE_SSL_CONNECT_ERROR, 0, NULL, NULL), BYOC_RETRY_TRANSIENT);
    CHECK_INT(byoc_retry_classify(CURLE_OPERATION_TIMEDOUT, 0, NULL, NULL), BYOC_RETRY_TIMEOUT);
    CHECK_INT(byoc_retry_classify(CURLE_ABORTED_BY_CALLBACK, 0, NULL, NULL), BYOC_RETRY_NONE);
    CHECK_INT(byoc_retry_classify(CURLE_WRITE_ERROR, 200, NULL, NULL), BYOC_RETRY_NONE);
    CHECK_INT(byoc_retry_classify(CURLE_READ_ERROR, 0, NULL, NULL), BYOC_RETRY_NONE);
    CHECK_INT(byoc_retry_classify(CURLE_PEER_FAILED_VERIFICATION, 0, NULL, NULL), BYOC_RETRY_NONE);
    CHECK_INT(byoc_retry_classify(CURLE_URL_MALFORMAT, 0, NULL, NULL), BYOC_RETRY_NONE);
}

static void test_attempts_and_backoff(void)
{
    byoc_retry_quota quota;
    byoc_retry_quota_init(&quota, BYOC_RETRY_QUOTA_CAPACITY);
    byoc_retry_mode mode;
    int attempts;
    byoc_err err;
    setenv("AWS_MAX_ATTEMPTS", "4", 1);
    CHECK_INT(byoc_retry_config(NULL, NULL, &mode, &attempts, &err), 0);
    unsetenv("AWS_MAX_ATTEMPTS");

    double r = 0.5;
    byoc_retry_policy p;
    byoc_retry_policy_init(&p, mode, attempts);
    CHECK_INT(p.max_attempts, 4);
    CHECK(p.quota == byoc_retry_quota_shared());
    CHECK(p.limiter == NULL);
    p.quota = &quota;
    p.rng = fixed_rng;
    p.rng_ud = &r;
    long ms = -1;
    CHECK(byoc_retry_should_retry(&p, 1, BYOC_RETRY_TRANSIENT, &ms));
    CHECK_INT(ms, 500);
    CHECK(byoc_retry_should_retry(&p, 2, BYOC_RETRY_THROTTLING, &ms));
    CHECK_INT(ms, 1000);
    CHECK(byoc_retry_should_retry(&p, 3, BYOC_RETRY_TIMEOUT, &ms));
    CHECK_INT(ms, 2000);
    CHECK(!byoc_retry_should_retry(&p, 4, BYOC_RETRY_TRANSIENT, &ms)); /* 4 attempts made */
    CHECK_INT(ms, 0);
    CHECK(!byoc_retry_should_retry(&p, 1, BYOC_RETRY_NONE, &ms));
    CHECK_INT(byoc_retry_quota_available(&quota), 500 - 5 - 5 - 10);
    byoc_retry_on_success(&p); /* refunds the last retry's cost */
    CHECK_INT(byoc_retry_quota_available(&quota), 500 - 5 - 5);

    /* Backoff: rand * 2^(i-1) s, capped at 20 s. */
    byoc_retry_policy_init(&p, BYOC_RETRY_STANDARD, 10);
    p.rng = fixed_rng;
    p.rng_ud = &r;
    r = 0.0;
    CHECK_INT(byoc_retry_delay_ms(&p, 1), 0);
    CHECK_INT(byoc_retry_delay_ms(&p, 7), 0);
    r = 0.999;
    CHECK_INT(byoc_retry_delay_ms(&p, 1), 999);
    CHECK_INT(byoc_retry_delay_ms(&p, 2), 1998);
    CHECK_INT(byoc_retry_delay_ms(&p, 5), 15984);
    CHECK_INT(byoc_retry_delay_ms(&p, 6), 20000);
    CHECK_INT(byoc_retry_delay_ms(&p, 60), 20000);
    r = 0.25;
    CHECK_INT(byoc_retry_delay_ms(&p, 3), 1000);
    /* The real RNG stays within the bounds. */
    p.rng = NULL;
    bool in_bounds = true;
    for (int i = 0; i < 1000; i++) {
        long d1 = byoc_retry_delay_ms(&p, 1), d4 = byoc_retry_delay_ms(&p, 4);
        long d9 = byoc_retry_delay_ms(&p, 9);
        in_bounds &= d1 >= 0 && d1 < 1000 && d4 >= 0 && d4 < 8000 && d9 >= 0 && d9 <= 20000;
    }
    CHECK(in_bounds);

    /* Legacy: 5 attempts by default and no quota. */
    byoc_retry_policy_init(&p, BYOC_RETRY_LEGACY, 0);
    CHECK_INT(p.max_attempts, 5);
    CHECK(p.quota == NULL);
    int retries = 0;
    for (int a = 1; byoc_retry_should_retry(&p, a, BYOC_RETRY_THROTTLING, &ms); a++)
        retries++;
    CHECK_INT(retries, 4);
    byoc_retry_quota_destroy(&quota);
}

static void test_quota(void)
{
    byoc_retry_quota quota;
    byoc_retry_quota_init(&quota, BYOC_RETRY_QUOTA_CAPACITY);
    byoc_retry_policy p;
    byoc_retry_policy_init(&p, BYOC_RETRY_STANDARD, 1000);
    p.quota = &quota;
    long ms;
    int retries = 0;
    for (int a = 1; byoc_retry_should_retry(&p, a, BYOC_RETRY_TRANSIENT, &ms); a++)
        retries++;
    CHECK_INT(retries, 100); /* 500 / 5 */
    CHECK_INT(byoc_retry_quota_available(&quota), 0);

    /* An exhausted quota refuses retries for every request until successes refill it. */
    byoc_retry_policy other;
    byoc_retry_policy_init(&other, BYOC_RETRY_STANDARD, 3);
    other.quota = &quota;
    CHECK(!byoc_retry_should_retry(&other, 1, BYOC_RETRY_THROTTLING, &ms));
    for (int i = 0; i < 7; i++)
        byoc_retry_on_success(&other); /* no retry: +1 each */
    CHECK_INT(byoc_retry_quota_available(&quota), 7);
    CHECK(byoc_retry_should_retry(&other, 1, BYOC_RETRY_THROTTLING, &ms));
    CHECK(!byoc_retry_should_retry(&other, 2, BYOC_RETRY_TIMEOUT, &ms)); /* needs 10, 2 left */
    CHECK_INT(byoc_retry_quota_available(&quota), 2);
    byoc_retry_on_success(&other);
    CHECK_INT(byoc_retry_quota_available(&quota), 7);

    /* Timeouts cost 10; refunds never exceed the capacity. */
    byoc_retry_quota_destroy(&quota);
    byoc_retry_quota_init(&quota, BYOC_RETRY_QUOTA_CAPACITY);
    byoc_retry_policy_init(&p, BYOC_RETRY_STANDARD, 1000);
    p.quota = &quota;
    retries = 0;
    for (int a = 1; byoc_retry_should_retry(&p, a, BYOC_RETRY_TIMEOUT, &ms); a++)
        retries++;
    CHECK_INT(retries, 50);
    for (int i = 0; i < 600; i++)
        byoc_retry_on_success(&p);
    CHECK_INT(byoc_retry_quota_available(&quota), 500);
    byoc_retry_quota_destroy(&quota);
}

typedef struct fake_clock {
    double now, step;
} fake_clock;

static double tick(void *ud)
{
    fake_clock *c = ud;
    c->now += c->step;
    return c->now;
}

static void test_adaptive(void)
{
    fake_clock clock = {1000.0, 0.0};
    byoc_retry_limiter l;
    byoc_retry_limiter_init(&l, tick, &clock);
    CHECK(!byoc_retry_limiter_enabled(&l));
    for (int i = 0; i < 5; i++)
        CHECK(byoc_retry_limiter_acquire(&l) == 0); /* not enabled: never waits */

    /* Ten requests a second for two seconds, then a throttle. */
    for (int i = 0; i < 20; i++) {
        clock.now += 0.1;
        byoc_retry_limiter_record(&l, false);
    }
    CHECK(!byoc_retry_limiter_enabled(&l));
    clock.now += 0.1;
    byoc_retry_limiter_record(&l, true);
    CHECK(byoc_retry_limiter_enabled(&l));
    double after_throttle = byoc_retry_limiter_rate(&l);
    CHECK(after_throttle > 0.5 && after_throttle < 10);

    /* The bucket holds at most max(rate, 1) tokens: drain it, then a wait is due. */
    double wait = 0;
    for (int i = 0; i < 20 && wait == 0; i++)
        wait = byoc_retry_limiter_acquire(&l);
    CHECK(wait > 0);

    /* Successes over time raise the rate again (CUBIC growth). */
    for (int i = 0; i < 40; i++) {
        clock.now += 0.25;
        byoc_retry_limiter_record(&l, false);
    }
    CHECK(byoc_retry_limiter_rate(&l) > after_throttle);
    byoc_retry_limiter_destroy(&l);

    /* The adaptive policy waits for the limiter before an attempt (time advances
     * on each clock read here, so the wait ends). */
    fake_clock moving = {50.0, 0.0};
    byoc_retry_limiter_init(&l, tick, &moving);
    byoc_retry_policy p;
    byoc_retry_policy_init(&p, BYOC_RETRY_ADAPTIVE, 3);
    CHECK(p.limiter == byoc_retry_limiter_shared());
    p.limiter = &l;
    byoc_retry_quota quota;
    byoc_retry_quota_init(&quota, BYOC_RETRY_QUOTA_CAPACITY);
    p.quota = &quota;
    long ms;
    moving.now += 0.5;
    CHECK(byoc_retry_should_retry(&p, 1, BYOC_RETRY_THROTTLING, &ms));
    CHECK(byoc_retry_limiter_enabled(&l));
    moving.step = 0.2;
    byoc_err err;
    int ok = 0;
    for (int i = 0; i < 5; i++)
        ok += byoc_retry_before_attempt(&p, NULL, &err) == 0;
    CHECK_INT(ok, 5);
    byoc_retry_on_success(&p);
    byoc_retry_limiter_destroy(&l);
    byoc_retry_quota_destroy(&quota);
}

static int sleeper(byoc_task *t, void *arg, void **result, void (**result_free)(void *),
                   byoc_err *err)
{
    int *out = arg;
    out[0] = byoc_retry_sleep(t, 1);
    byoc_task_cancel(t);
    out[1] = byoc_retry_sleep(t, 600000); /* returns at once: cancelled */
    byoc_retry_policy p;
    byoc_retry_policy_init(&p, BYOC_RETRY_STANDARD, 3);
    out[2] = byoc_retry_before_attempt(&p, t, err);
    return 0;
}

static void test_sleep(void)
{
    CHECK_INT(byoc_retry_sleep(NULL, 0), 0);
    CHECK_INT(byoc_retry_sleep(NULL, 5), 0);
    int out[3] = {9, 9, 9};
    byoc_err err;
    CHECK_INT(byoc_task_run_sync("sleep", sleeper, out, NULL, NULL, &err, NULL, NULL), 0);
    CHECK_INT(out[0], 0);
    CHECK_INT(out[1], -1);
    CHECK_INT(out[2], -1);
    CHECK_INT(err.kind, BYOC_E_CANCELLED);
}

int main(void)
{
    test_modes_and_config();
    test_classify();
    test_attempts_and_backoff();
    test_quota();
    test_adaptive();
    test_sleep();
    return check_done();
}
