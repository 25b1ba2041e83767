#include "core/log.h"
#include "core/buf.h"
#include "core/str.h"
#include "core/strmap.h"
#include "core/utf8.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char **secrets;
static size_t nsecrets, capsecrets;
/* An index of secrets (open addressing, slot = index + 1, 0 = empty), so
 * registering the keys of a credentials file with thousands of profiles is
 * not a scan of all the ones before for each. Holds no copy of a secret. */
static size_t *slots, nslots;

static uint64_t secret_hash(const char *s)
{
    return byoc_fnv1a(BYOC_FNV1A_SEED, s, strlen(s));
}

/* The slot holding secret, or the empty slot where it would go. */
static size_t secret_slot(const char *secret, uint64_t h)
{
    size_t i = (size_t)h & (nslots - 1);
    while (slots[i] && strcmp(secrets[slots[i] - 1], secret) != 0)
        i = (i + 1) & (nslots - 1);
    return i;
}

static void reindex(void)
{
    free(slots);
    nslots = nslots ? nslots * 2 : 16;
    slots = byoc_xcalloc(nslots, sizeof *slots);
    for (size_t i = 0; i < nsecrets; i++)
        slots[secret_slot(secrets[i], secret_hash(secrets[i]))] = i + 1;
}
static FILE *log_file;
static int log_stderr_level = BYOC_LOG_WARN;
static int log_file_level = BYOC_LOG_DEBUG;

void byoc_secret_register(const char *secret)
{
    if (!secret || strlen(secret) < BYOC_SECRET_MIN_LEN)
        return;
    uint64_t h = secret_hash(secret);
    pthread_mutex_lock(&lock);
    if ((nsecrets + 1) * 2 > nslots)
        reindex();
    size_t slot = secret_slot(secret, h);
    if (!slots[slot]) {
        if (nsecrets == capsecrets) {
            capsecrets = capsecrets ? capsecrets * 2 : 8;
            secrets = byoc_xrealloc(secrets, capsecrets * sizeof *secrets);
        }
        secrets[nsecrets++] = byoc_xstrdup(secret);
        slots[slot] = nsecrets;
    }
    pthread_mutex_unlock(&lock);
}

void byoc_secret_clear_all(void)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nsecrets; i++)
        byoc_free_secret(secrets[i]);
    free(secrets);
    secrets = NULL;
    nsecrets = capsecrets = 0;
    free(slots);
    slots = NULL;
    nslots = 0;
    pthread_mutex_unlock(&lock);
}

void byoc_redact_inplace(char *s)
{
    if (!s || !*s)
        return;
    /* Mark every byte covered by any occurrence of any secret in the original
     * text first, then replace each marked run: replacing one secret at a time
     * would leave the rest of a secret that overlaps or contains another. */
    size_t len = strlen(s);
    unsigned char *mark = NULL;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nsecrets; i++) {
        size_t n = strlen(secrets[i]);
        for (const char *p = s; (p = strstr(p, secrets[i])) != NULL; p++) {
            if (!mark)
                mark = byoc_xcalloc(len, 1);
            memset(mark + (p - s), 1, n);
        }
    }
    pthread_mutex_unlock(&lock);
    if (!mark)
        return;
    /* Runs are at least BYOC_SECRET_MIN_LEN > 3 bytes long: the text never grows. */
    size_t w = 0;
    for (size_t r = 0; r < len;) {
        if (mark[r]) {
            memcpy(s + w, "***", 3);
            w += 3;
            while (r < len && mark[r])
                r++;
        } else {
            s[w++] = s[r++];
        }
    }
    s[w] = '\0';
    free(mark);
}

char *byoc_redact_dup(const char *s)
{
    char *d = byoc_xstrdup(s ? s : "");
    byoc_redact_inplace(d);
    return d;
}

int byoc_mkdir_p(const char *path, unsigned mode)
{
    char *p = byoc_xstrdup(path);
    int rc = 0;
    for (char *q = p + 1; ; q++) {
        if (*q == '/' || *q == '\0') {
            char c = *q;
            *q = '\0';
            if (mkdir(p, mode) != 0 && errno != EEXIST) {
                rc = -1;
                break;
            }
            *q = c;
            if (!c)
                break;
        }
    }
    free(p);
    return rc;
}

static char *xdg_dir(const char *var, const char *fallback)
{
    const char *x = getenv(var);
    if (x && *x == '/')
        return byoc_xasprintf("%s/byoc", x);
    const char *home = getenv("HOME");
    return byoc_xasprintf("%s/%s/byoc", home && *home ? home : "/tmp", fallback);
}

char *byoc_state_dir(void) { return xdg_dir("XDG_STATE_HOME", ".local/state"); }

int byoc_log_init(const char *path, int stderr_level, int file_level)
{
    byoc_log_close();
    pthread_mutex_lock(&lock);
    log_stderr_level = stderr_level;
    log_file_level = file_level;
    pthread_mutex_unlock(&lock);
    if (!path)
        return 0;
    char *dir = byoc_xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        byoc_mkdir_p(dir, 0700);
    }
    free(dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return -1;
    fchmod(fd, 0600);
    FILE *f = fdopen(fd, "a");
    if (!f) {
        close(fd);
        return -1;
    }
    setvbuf(f, NULL, _IOLBF, 0);
    pthread_mutex_lock(&lock);
    log_file = f;
    pthread_mutex_unlock(&lock);
    return 0;
}

void byoc_log_close(void)
{
    pthread_mutex_lock(&lock);
    if (log_file)
        fclose(log_file);
    log_file = NULL;
    pthread_mutex_unlock(&lock);
}

void byoc_log(byoc_log_level level, const char *fmt, ...)
{
    static const char *names[] = {"error", "warn", "info", "debug"};
    /* The settings are read under the lock (init and close write them there), so
     * a worker logging while the log is reopened sees one state or the other. */
    pthread_mutex_lock(&lock);
    bool wanted = (int)level <= log_stderr_level || (log_file && (int)level <= log_file_level);
    pthread_mutex_unlock(&lock);
    if (!wanted)
        return;
    byoc_buf b = BYOC_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    byoc_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    byoc_redact_inplace(b.data);
    byoc_printable_inplace(b.data); /* one record a line; outside text cannot forge one or drive the terminal */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    pthread_mutex_lock(&lock);
    if ((int)level <= log_stderr_level)
        fprintf(stderr, "byoc: %s: %s\n", names[level], byoc_buf_str(&b));
    if (log_file && (int)level <= log_file_level)
        fprintf(log_file, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ %s %s\n", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                ts.tv_nsec / 1000000, names[level], byoc_buf_str(&b));
    pthread_mutex_unlock(&lock);
    byoc_buf_clear(&b);
}
