/* Secret redaction (core/log.h, core/err.h): every registered secret is gone from
 * log lines, the debug log file and error messages, in full, whatever else is
 * registered: overlapping secrets, one secret inside another, repeated and
 * adjacent occurrences, secrets cut by a message's length limit, and from
 * several threads at once. The debug log is 0600 in a 0700 directory. */
#include "check.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/err.h"
#include "core/log.h"

static char *redacted(const char *s)
{
    return byoc_redact_dup(s);
}

/* No run of `min` or more characters of secret appears in s. */
static int leaks_part(const char *s, const char *secret, size_t min)
{
    size_t n = strlen(secret);
    for (size_t i = 0; i + min <= n; i++) {
        char part[256];
        snprintf(part, sizeof part, "%.*s", (int)min, secret + i);
        if (strstr(s, part))
            return 1;
    }
    return 0;
}

static void test_basics(void)
{
    byoc_secret_clear_all();
    char *r = redacted("nothing registered");
    CHECK_STR(r, "nothing registered");
    free(r);

    byoc_secret_register("short");           /* below BYOC_SECRET_MIN_LEN: ignored */
    byoc_secret_register(NULL);
    byoc_secret_register("");
    r = redacted("a short word");
    CHECK_STR(r, "a short word");
    free(r);

    byoc_secret_register("wJalrXUtnFEMI/K7MDENG");
    byoc_secret_register("wJalrXUtnFEMI/K7MDENG"); /* twice is once */
    r = redacted("key=wJalrXUtnFEMI/K7MDENG; again wJalrXUtnFEMI/K7MDENG.");
    CHECK_STR(r, "key=***; again ***.");
    free(r);
    r = redacted("wJalrXUtnFEMI/K7MDENGwJalrXUtnFEMI/K7MDENG");
    CHECK_STR(r, "***");
    free(r);
    r = byoc_redact_dup(NULL);
    CHECK_STR(r, "");
    free(r);
    char empty[1] = "";
    byoc_redact_inplace(empty);
    CHECK_STR(empty, "");
    byoc_redact_inplace(NULL);

    byoc_secret_clear_all();
    r = redacted("wJalrXUtnFEMI/K7MDENG");
    CHECK_STR(r, "wJalrXUtnFEMI/K7MDENG");
    free(r);
}

static void test_overlaps(void)
{
    byoc_secret_clear_all();
    /* two secrets that overlap in the text */
    byoc_secret_register("abcdefgh1234");
    byoc_secret_register("1234wxyz5678");
    char *r = redacted("<abcdefgh1234wxyz5678>");
    CHECK_STR(r, "<***>");
    CHECK(!leaks_part(r, "abcdefgh1234", 4) && !leaks_part(r, "1234wxyz5678", 4));
    free(r);

    /* a short secret registered first that is the start of a longer one */
    byoc_secret_clear_all();
    byoc_secret_register("secret12");
    byoc_secret_register("secret1234567890");
    r = redacted("token secret1234567890 and secret12 alone");
    CHECK_STR(r, "token *** and *** alone");
    free(r);

    /* and the other way round: the long one first */
    byoc_secret_clear_all();
    byoc_secret_register("XYZsecret-inner-partXYZ");
    byoc_secret_register("secret-inner-part");
    r = redacted("[XYZsecret-inner-partXYZ][secret-inner-part]");
    CHECK_STR(r, "[***][***]");
    free(r);

    /* many secrets (a credentials file of 300,000 profiles): registering is
     * not a scan of all the ones before (minutes, past the unit timeout) */
    byoc_secret_clear_all();
    char many[40];
    for (int round = 0; round < 2; round++) /* the second round registers nothing new */
        for (int i = 0; i < 300000; i++) {
            snprintf(many, sizeof many, "secret-key-%06d", i);
            byoc_secret_register(many);
        }
    r = redacted("first secret-key-000000 last secret-key-299999 and secret-key-0299990 not secret-key-300000");
    CHECK_STR(r, "first *** last *** and ***0 not secret-key-300000");
    free(r);

    /* overlapping occurrences of one secret */
    byoc_secret_clear_all();
    byoc_secret_register("aaaaaa");
    r = redacted("xaaaaaaaaay");
    CHECK_STR(r, "x***y");
    free(r);
    byoc_secret_clear_all();
}

static void test_errors(void)
{
    byoc_secret_clear_all();
    const char *secret = "SessionToken/IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQ";
    byoc_secret_register(secret);
    byoc_err e;
    byoc_err_set(&e, BYOC_E_ENV, "sts", "the service said: token %s is bad", secret);
    CHECK(strstr(e.message, secret) == NULL);
    CHECK(strstr(e.message, "***") != NULL);
    byoc_err_prefix(&e, "profile p (%s)", secret);
    CHECK(strstr(e.message, secret) == NULL);
    CHECK(!leaks_part(e.message, secret, 12));

    /* a secret cut by the message's size limit: not even its start remains */
    char filler[sizeof e.message];
    for (size_t cut = sizeof e.message - 40; cut < sizeof e.message; cut += 3) {
        memset(filler, '.', cut);
        filler[cut] = '\0';
        byoc_err_set(&e, BYOC_E_FAILED, "x", "%s%s", filler, secret);
        if (leaks_part(e.message, secret, 8)) {
            check_fail(__FILE__, __LINE__, "a secret cut at %zu characters leaks its start: ...%s", cut,
                       e.message + (cut > 20 ? cut - 20 : 0));
            break;
        }
        check_passed++;
    }
    /* the same through byoc_err_prefix, cutting the context */
    char ctx[300];
    memset(ctx, '-', 240);
    ctx[240] = '\0';
    byoc_err_set(&e, BYOC_E_FAILED, "x", "old message");
    byoc_err_prefix(&e, "%s%s", ctx, secret);
    CHECK(!leaks_part(e.message, secret, 8));

    char line[2048];
    byoc_err_set(&e, BYOC_E_FAILED, "x", "%s", secret);
    snprintf(e.code, sizeof e.code, "Code");
    CHECK(strstr(byoc_err_format(&e, line, sizeof line), secret) == NULL);
    byoc_secret_clear_all();
}

static void test_log_file(void)
{
    byoc_secret_clear_all();
    char *dir = check_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/state/byoc/debug.log", dir);
    CHECK_INT(byoc_log_init(path, -1, BYOC_LOG_DEBUG), 0);
    const char *secret = "rp0-0123456789abcdefQZ";
    byoc_secret_register(secret);
    byoc_log(BYOC_LOG_DEBUG, "X-Registry-Auth pw=%s for %s", secret, "host");
    byoc_log(BYOC_LOG_ERROR, "%s", secret);
    byoc_log_close();
    size_t len = 0;
    char *text = check_read_file(path, &len);
    CHECK(text != NULL);
    if (text) {
        CHECK(strstr(text, secret) == NULL);
        CHECK(strstr(text, "pw=*** for host") != NULL);
        CHECK(!leaks_part(text, secret, 8));
        free(text);
    }
    struct stat st;
    CHECK_INT(stat(path, &st), 0);
    CHECK_INT(st.st_mode & 0777, 0600);
    snprintf(path, sizeof path, "%s/state/byoc", dir);
    CHECK_INT(stat(path, &st), 0);
    CHECK_INT(st.st_mode & 0777, 0700);
    snprintf(path, sizeof path, "%s/state", dir);
    CHECK_INT(stat(path, &st), 0);
    CHECK_INT(st.st_mode & 0777, 0700);
    /* an existing file with loose modes is tightened */
    snprintf(path, sizeof path, "%s/loose.log", dir);
    FILE *f = fopen(path, "w");
    fclose(f);
    chmod(path, 0644);
    CHECK_INT(byoc_log_init(path, -1, BYOC_LOG_DEBUG), 0);
    byoc_log_close();
    CHECK_INT(stat(path, &st), 0);
    CHECK_INT(st.st_mode & 0777, 0600);
    /* a symlink planted at the log's path is not followed */
    char target[4096];
    snprintf(target, sizeof target, "%s/target", dir);
    snprintf(path, sizeof path, "%s/link.log", dir);
    CHECK_INT(symlink(target, path), 0);
    CHECK(byoc_log_init(path, -1, BYOC_LOG_DEBUG) != 0);
    byoc_log_close();
    CHECK(access(target, F_OK) != 0);
    byoc_log_init(NULL, -1, -1);

    unlink(path);
    snprintf(path, sizeof path, "%s/loose.log", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/state/byoc/debug.log", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/state/byoc", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/state", dir);
    rmdir(path);
    rmdir(dir);
    free(dir);
    byoc_secret_clear_all();
}

static void test_wipe(void)
{
    char buf[32];
    memset(buf, 'S', sizeof buf);
    byoc_wipe(buf, sizeof buf);
    int zero = 1;
    for (size_t i = 0; i < sizeof buf; i++)
        zero &= buf[i] == 0;
    CHECK(zero);
    byoc_free_secret(NULL);
    byoc_free_secret(byoc_xstrdup("secret-to-free"));
}

/* Registering and redacting from several threads: no race, nothing missed. */
static void *worker(void *arg)
{
    int id = (int)(long)arg;
    char secret[64], text[160];
    int bad = 0;
    for (int i = 0; i < 200; i++) {
        snprintf(secret, sizeof secret, "thread-%d-secret-%04d", id, i);
        byoc_secret_register(secret);
        snprintf(text, sizeof text, "before %s after", secret);
        char *r = byoc_redact_dup(text);
        bad += strstr(r, secret) != NULL;
        free(r);
    }
    return (void *)(long)bad;
}

static void test_threads(void)
{
    byoc_secret_clear_all();
    pthread_t t[4];
    for (long i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    long bad = 0;
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(t[i], &r);
        bad += (long)r;
    }
    CHECK_INT(bad, 0);
    byoc_secret_clear_all();
}

int main(void)
{
    byoc_log_init(NULL, -1, -1);
    test_basics();
    test_overlaps();
    test_errors();
    test_log_file();
    test_wipe();
    test_threads();
    return check_done();
}
