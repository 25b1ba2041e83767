/* Validation of a job spec before anything is sent. Rules come from the
 * Braket API model (botocore braket 2019-09-01), the developer guide and the
 * SDK; each message names the rule. The model's patterns are Java regexes
 * matched against the whole value: those without lookarounds run through
 * POSIX regcomp (anchored, after refusing Java line terminators, which '.'
 * does not match); the job name, which needs lookarounds, is checked by hand. */
#include "byoc/jobspec.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "byoc/jobspec_files.h"
#include "core/buf.h"

const char *const byoc_job_instance_types[] = {
    "ml.t3.large",      "ml.t3.xlarge",     "ml.t3.2xlarge",    "ml.m4.xlarge",     "ml.m4.2xlarge",
    "ml.m4.4xlarge",    "ml.m4.10xlarge",   "ml.m4.16xlarge",   "ml.m5.large",      "ml.m5.xlarge",
    "ml.m5.2xlarge",    "ml.m5.4xlarge",    "ml.m5.12xlarge",   "ml.m5.24xlarge",   "ml.c4.xlarge",
    "ml.c4.2xlarge",    "ml.c4.4xlarge",    "ml.c4.8xlarge",    "ml.c5.xlarge",     "ml.c5.2xlarge",
    "ml.c5.4xlarge",    "ml.c5.9xlarge",    "ml.c5.18xlarge",   "ml.c5n.xlarge",    "ml.c5n.2xlarge",
    "ml.c5n.4xlarge",   "ml.c5n.9xlarge",   "ml.c5n.18xlarge",  "ml.p2.xlarge",     "ml.p2.8xlarge",
    "ml.p2.16xlarge",   "ml.p3.2xlarge",    "ml.p3.8xlarge",    "ml.p3.16xlarge",   "ml.p3dn.24xlarge",
    "ml.p4d.24xlarge",  "ml.g4dn.xlarge",   "ml.g4dn.2xlarge",  "ml.g4dn.4xlarge",  "ml.g4dn.8xlarge",
    "ml.g4dn.12xlarge", "ml.g4dn.16xlarge", "ml.g6.xlarge",     "ml.g6.2xlarge",    "ml.g6.4xlarge",
    "ml.g6.8xlarge",    "ml.g6.12xlarge",   "ml.g6.16xlarge",   "ml.g6.24xlarge",   "ml.g6.48xlarge",
    "ml.g6e.xlarge",    "ml.g6e.2xlarge",   "ml.g6e.4xlarge",   "ml.g6e.8xlarge",   "ml.g6e.12xlarge",
    "ml.g6e.16xlarge",  "ml.g6e.24xlarge",  "ml.g6e.48xlarge",  NULL,
};

/* ---- text helpers -------------------------------------------------------------- */

/* A value for a message: quoted, control characters escaped, long values cut. */
static const char *quoted(const char *v, char *buf, size_t size)
{
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_putc(&b, '\'');
    size_t n = strlen(v);
    bool cut = n > 100;
    for (size_t i = 0; i < (cut ? 80 : n); i++) {
        unsigned char c = (unsigned char)v[i];
        if (c == '\n')
            byoc_buf_puts(&b, "\\n");
        else if (c == '\r')
            byoc_buf_puts(&b, "\\r");
        else if (c == '\t')
            byoc_buf_puts(&b, "\\t");
        else if (c < 0x20 || c == 0x7f)
            byoc_buf_printf(&b, "\\x%02x", c);
        else
            byoc_buf_putc(&b, (char)c);
    }
    if (cut)
        byoc_buf_printf(&b, "...' (%zu bytes)", n);
    else
        byoc_buf_putc(&b, '\'');
    snprintf(buf, size, "%s", byoc_buf_str(&b));
    byoc_buf_clear(&b);
    return buf;
}

/* Length in UTF-16 code units (what the service's Java counts), or -1 if not valid UTF-8. */
static long utf16_length(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    long n = 0;
    while (*p) {
        unsigned c = *p;
        int extra;
        unsigned cp;
        if (c < 0x80) {
            extra = 0;
            cp = c;
        } else if ((c & 0xe0) == 0xc0) {
            extra = 1;
            cp = c & 0x1f;
        } else if ((c & 0xf0) == 0xe0) {
            extra = 2;
            cp = c & 0x0f;
        } else if ((c & 0xf8) == 0xf0) {
            extra = 3;
            cp = c & 0x07;
        } else {
            return -1;
        }
        p++;
        for (int i = 0; i < extra; i++, p++) {
            if ((*p & 0xc0) != 0x80)
                return -1;
            cp = (cp << 6) | (*p & 0x3f);
        }
        if ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000) ||
            cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return -1;
        n += cp >= 0x10000 ? 2 : 1;
    }
    return n;
}

/* Java's '.' stops at \n \r U+0085 U+2028 U+2029. */
static const char *java_line_terminator(const char *s)
{
    for (const char *p = s; *p; p++) {
        if (*p == '\n' || *p == '\r')
            return p;
        if ((unsigned char)p[0] == 0xc2 && (unsigned char)p[1] == 0x85)
            return p;
        if ((unsigned char)p[0] == 0xe2 && (unsigned char)p[1] == 0x80 &&
            ((unsigned char)p[2] == 0xa8 || (unsigned char)p[2] == 0xa9))
            return p;
    }
    return NULL;
}

/* ---- the model's patterns ---------------------------------------------------------- */

typedef struct {
    const char *java;   /* as the model writes it, for messages */
    const char *posix;  /* anchored ERE */
    regex_t re;
} model_pattern;

enum { P_IMAGE, P_ROLE, P_S3, P_CHANNEL, P_ASSOC, P_JOB_ARN, P_LOCAL_DEVICE, P_DEVICE_ARN, P_COUNT };

static model_pattern PATTERNS[P_COUNT] = {
    [P_IMAGE] = {"\\d{10,14}\\.dkr\\.ecr.[a-z0-9-]+\\.amazonaws\\.com\\/.+(@sha256)?:.+",
                 "^[0-9]{10,14}\\.dkr\\.ecr.[a-z0-9-]+\\.amazonaws\\.com/.+(@sha256)?:.+$", {0}},
    [P_ROLE] = {"arn:aws[a-z\\-]*:iam::\\d{12}:role/?[a-zA-Z_0-9+=,.@\\-_/]+",
                "^arn:aws[-a-z]*:iam::[0-9]{12}:role/?[-a-zA-Z_0-9+=,.@_/]+$", {0}},
    [P_S3] = {"(https|s3)://([^/]+)/?(.*)", "^(https|s3)://([^/]+)/?(.*)$", {0}},
    [P_CHANNEL] = {"[A-Za-z0-9\\.\\-_]+", "^[-A-Za-z0-9._]+$", {0}},
    [P_ASSOC] = {"arn:aws[a-z\\-]*:braket:[a-z0-9\\-]*:[0-9]{12}:.*",
                 "^arn:aws[-a-z]*:braket:[-a-z0-9]*:[0-9]{12}:.*$", {0}},
    [P_JOB_ARN] = {"arn:aws[a-z\\-]*:braket:[a-z0-9\\-]+:[0-9]{12}:job/.*",
                   "^arn:aws[-a-z]*:braket:[-a-z0-9]+:[0-9]{12}:job/.*$", {0}},
    [P_LOCAL_DEVICE] = {"local:<provider>/<simulator> of [A-Za-z0-9_.-]", "^local:[-A-Za-z0-9_.]+/[-A-Za-z0-9_.]+$",
                        {0}},
    [P_DEVICE_ARN] = {"arn:aws:braket:<region>::device/...", "^arn:aws[-a-z]*:braket:[-a-z0-9]*:[0-9]*:device/.+$",
                      {0}},
};

static pthread_once_t patterns_once = PTHREAD_ONCE_INIT;
static void compile_patterns(void)
{
    for (int i = 0; i < P_COUNT; i++)
        if (regcomp(&PATTERNS[i].re, PATTERNS[i].posix, REG_EXTENDED | REG_NOSUB) != 0)
            abort(); /* a typo in a constant above */
}

static bool model_match(int which, const char *value)
{
    pthread_once(&patterns_once, compile_patterns);
    if (java_line_terminator(value))
        return false;
    return regexec(&PATTERNS[which].re, value, 0, NULL, 0) == 0;
}

/* Length (UTF-16 units) within [min, max]; adds a problem and returns false otherwise.
 * Also refuses invalid UTF-8 (JSON cannot carry it). max < 0: no maximum. */
static bool check_length(byoc_job_problems *out, byoc_job_field f, int index, const char *api, const char *v,
                         long min, long max, const char *rule)
{
    char q[160];
    long n = utf16_length(v);
    if (n < 0) {
        byoc_job_problem_add(out, f, index, api, "must be valid UTF-8: %s is not", quoted(v, q, sizeof q));
        return false;
    }
    if (n < min || (max >= 0 && n > max)) {
        if (max < 0)
            byoc_job_problem_add(out, f, index, api, "must be at least %ld characters (%s): %s has %ld", min,
                                 rule, quoted(v, q, sizeof q), n);
        else
            byoc_job_problem_add(out, f, index, api, "must be %ld to %ld characters (%s): %s has %ld", min, max,
                                 rule, quoted(v, q, sizeof q), n);
        return false;
    }
    return true;
}

static void pattern_problem(byoc_job_problems *out, byoc_job_field f, int index, const char *api, int which,
                            const char *shape, const char *v, const char *detail)
{
    char q[160];
    byoc_job_problem_add(out, f, index, api, "must match %s (API model %s): %s%s%s", PATTERNS[which].java, shape,
                         quoted(v, q, sizeof q), detail && *detail ? " " : "", detail ? detail : "");
}

/* ---- single-value rules ------------------------------------------------------------- */

size_t byoc_job_check_name(const char *name, byoc_job_field f, byoc_job_problems *out)
{
    static const char *const RULE = "^(?!-)[A-Za-z0-9-]{1,50}(?<!-)$";
    char q[160];
    size_t before = out->len;
    size_t n = strlen(name);
    if (n == 0) {
        byoc_job_problem_add(out, f, -1, "jobName", "must match %s: the name is empty", RULE);
    } else {
        const char *bad = NULL;
        for (const char *p = name; *p && !bad; p++)
            if (!isascii((unsigned char)*p) || !(isalnum((unsigned char)*p) || *p == '-'))
                bad = p;
        if (bad) {
            char c[16];
            if ((unsigned char)*bad < 0x20 || (unsigned char)*bad >= 0x7f)
                snprintf(c, sizeof c, "\\x%02x", (unsigned char)*bad);
            else
                snprintf(c, sizeof c, "%c", *bad);
            byoc_job_problem_add(out, f, -1, "jobName", "must match %s: %s has '%s'", RULE,
                                 quoted(name, q, sizeof q), c);
        } else if (n > 50) {
            byoc_job_problem_add(out, f, -1, "jobName", "must match %s: %s is %zu characters long (at most 50)", RULE,
                                 quoted(name, q, sizeof q), n);
        } else if (name[0] == '-') {
            byoc_job_problem_add(out, f, -1, "jobName", "must match %s: %s starts with '-'", RULE,
                                 quoted(name, q, sizeof q));
        } else if (name[n - 1] == '-') {
            byoc_job_problem_add(out, f, -1, "jobName", "must match %s: %s ends with '-'", RULE,
                                 quoted(name, q, sizeof q));
        }
    }
    return out->len - before;
}

size_t byoc_job_check_role_arn(const char *arn, byoc_job_field f, const char *what_override, byoc_job_problems *out)
{
    size_t before = out->len;
    if (!check_length(out, f, -1, "roleArn", arn, 1, -1, "API model RoleArn"))
        goto done;
    if (!model_match(P_ROLE, arn)) {
        const char *detail = strncmp(arn, "arn:", 4) != 0 ? "(not an ARN)"
                             : !strstr(arn, ":iam::")     ? "(not an IAM ARN)"
                             : !strstr(arn, ":role/")     ? "(not a role)"
                                                          : "";
        pattern_problem(out, f, -1, "roleArn", P_ROLE, "RoleArn", arn, detail);
    }
done:
    if (what_override && out->len > before)
        for (size_t i = before; i < out->len; i++)
            snprintf(out->items[i].what, sizeof out->items[i].what, "%s (roleArn)", what_override);
    return out->len - before;
}

/* S3 bucket naming (legacy names included): 3-255 of letters, digits, '.', '-', '_'. */
static bool bucket_name_ok(const char *b, size_t n)
{
    if (n < 3 || n > 255)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(isalnum((unsigned char)b[i]) || b[i] == '.' || b[i] == '-' || b[i] == '_'))
            return false;
    return true;
}

/* The bucket part of an s3:// or https://<bucket>.s3.<...>/ URI. */
static bool s3_bucket_span(const char *uri, const char **b, size_t *n)
{
    if (strncasecmp(uri, "s3://", 5) == 0) {
        *b = uri + 5;
        *n = strcspn(*b, "/");
        return true;
    }
    if (strncmp(uri, "https://", 8) == 0) {
        const char *host = uri + 8;
        size_t hl = strcspn(host, "/");
        const char *dot = memchr(host, '.', hl);
        if (!dot || strncasecmp(dot + 1, "s3", 2) != 0 || (dot[3] != '.' && dot[3] != '-'))
            return false;
        *b = host;
        *n = (size_t)(dot - host);
        return true;
    }
    return false;
}

bool byoc_job_is_s3_uri(const char *s)
{
    const char *b;
    size_t n;
    return s && strlen(s) <= 1024 && model_match(P_S3, s) && s3_bucket_span(s, &b, &n) && bucket_name_ok(b, n);
}

size_t byoc_job_check_s3_path(const char *uri, byoc_job_field f, int index, const char *api, byoc_job_problems *out)
{
    size_t before = out->len;
    char q[160];
    if (!check_length(out, f, index, api, uri, 0, 1024, "API model S3Path"))
        return out->len - before;
    if (!model_match(P_S3, uri)) {
        pattern_problem(out, f, index, api, P_S3, "S3Path", uri,
                        strncmp(uri, "s3://", 5) && strncmp(uri, "https://", 8) ? "(not an s3:// URI)" : "");
        return out->len - before;
    }
    const char *b;
    size_t n;
    if (!s3_bucket_span(uri, &b, &n))
        byoc_job_problem_add(out, f, index, api,
                             "must be s3://<bucket>/<key> or https://<bucket>.s3.<region>.amazonaws.com/<key> "
                             "(SDK parse_s3_uri): %s",
                             quoted(uri, q, sizeof q));
    else if (!bucket_name_ok(b, n))
        byoc_job_problem_add(out, f, index, api,
                             "must name a valid S3 bucket (3-255 of letters, digits, '.', '-', '_'): %s has "
                             "bucket '%.*s'",
                             quoted(uri, q, sizeof q), (int)(n > 80 ? 80 : n), b);
    return out->len - before;
}

/* A whole number within [min, max]; text as typed. */
static void check_integer(byoc_job_problems *out, byoc_job_field f, const char *text, long min, long max,
                          const char *rule)
{
    char q[160];
    const char *p = text;
    bool digits = *p != '\0';
    for (; *p; p++)
        if (!isdigit((unsigned char)*p))
            digits = false;
    errno = 0;
    long long v = digits ? strtoll(text, NULL, 10) : 0;
    if (!digits || errno == ERANGE) {
        byoc_job_problem_add(out, f, -1, NULL, "must be a whole number from %ld to %ld (%s): %s is not", min, max,
                             rule, quoted(text, q, sizeof q));
    } else if (v < min || v > max) {
        byoc_job_problem_add(out, f, -1, NULL, "must be from %ld to %ld (%s): got %lld", min, max, rule, v);
    }
}

/* ---- image URI ------------------------------------------------------------------------ */

static bool ecr_component_ok(const char *s, size_t n)
{
    /* [a-z0-9]+(?:[._-][a-z0-9]+)* */
    if (n == 0)
        return false;
    bool prev_sep = true;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (alnum) {
            prev_sep = false;
        } else if (c == '.' || c == '_' || c == '-') {
            if (prev_sep)
                return false;
            prev_sep = true;
        } else {
            return false;
        }
    }
    return !prev_sep;
}

static void check_image_uri(const char *uri, byoc_job_problems *out)
{
    const byoc_job_field f = BYOC_JF_IMAGE_URI;
    const char *api = "algorithmSpecification.containerImage.uri";
    char q[160];
    if (!check_length(out, f, -1, api, uri, 1, 255, "API model Uri"))
        return;
    const char *slash = strchr(uri, '/');
    const char *path = slash ? slash + 1 : "";
    if (!model_match(P_IMAGE, uri)) {
        const char *detail = "";
        if (!slash || !strstr(uri, ".dkr.ecr."))
            detail = "(an ECR image: <account>.dkr.ecr.<region>.amazonaws.com/<repository>:<tag>)";
        else if (!strchr(path, ':'))
            detail = "(it needs a :tag or an @sha256:digest)";
        pattern_problem(out, f, -1, api, P_IMAGE, "Uri", uri, detail);
        return;
    }
    /* Beyond the model: the parts ECR and Docker accept. */
    const char *at = strchr(path, '@');
    size_t repo_len;
    if (at) {
        repo_len = (size_t)(at - path);
        const char *d = at + 1;
        bool ok = strncmp(d, "sha256:", 7) == 0 && strlen(d + 7) == 64;
        for (const char *p = d + 7; ok && *p; p++)
            ok = (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f');
        if (!ok) {
            byoc_job_problem_add(out, f, -1, api, "the digest must be sha256:<64 lowercase hex digits>: %s",
                                 quoted(uri, q, sizeof q));
            return;
        }
    } else {
        const char *colon = strrchr(path, ':');
        repo_len = (size_t)(colon - path);
        const char *tag = colon + 1;
        size_t tl = strlen(tag);
        bool ok = tl >= 1 && tl <= 128 && (isalnum((unsigned char)tag[0]) || tag[0] == '_');
        for (size_t i = 0; ok && i < tl; i++)
            ok = isascii((unsigned char)tag[i]) &&
                 (isalnum((unsigned char)tag[i]) || tag[i] == '_' || tag[i] == '.' || tag[i] == '-');
        if (!ok) {
            byoc_job_problem_add(out, f, -1, api,
                                 "the tag must match [A-Za-z0-9_][A-Za-z0-9_.-]{0,127} (Docker tag): %s has tag '%s'",
                                 quoted(uri, q, sizeof q), tag);
            return;
        }
    }
    bool repo_ok = repo_len >= 2 && repo_len <= 256;
    for (size_t start = 0; repo_ok && start <= repo_len;) {
        const char *seg = path + start;
        size_t sl = strcspn(seg, "/");
        if (start + sl > repo_len)
            sl = repo_len - start;
        repo_ok = ecr_component_ok(seg, sl);
        start += sl + 1;
    }
    if (!repo_ok)
        byoc_job_problem_add(out, f, -1, api,
                             "the repository must match (?:[a-z0-9]+(?:[._-][a-z0-9]+)*/)*[a-z0-9]+(?:[._-][a-z0-9]+)* "
                             "(ECR repository name, 2-256 characters): %s has '%.*s'",
                             quoted(uri, q, sizeof q), (int)repo_len, path);
}

/* ---- source module and entry point -------------------------------------------------- */

static bool ends_with_ci(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

/* One rule for the form, the CLI, the review and preflight: the launcher's (jobspec_entry.c). */
static void check_entry(const byoc_jobspec *s, const char *source_module, const char *ep, byoc_job_problems *out)
{
    char q[160], why[600] = "";
    byoc_entry_point_check chk;
    if (byoc_job_check_entry_point(s->launcher, source_module, ep, &chk, why, sizeof why) != 0)
        byoc_job_problem_add(out, BYOC_JF_ENTRY_POINT, -1, NULL, "%s%s: %s (as %s starts it)",
                             s->entry_point ? "" : "(default) ", why, quoted(ep, q, sizeof q),
                             byoc_job_launcher_name(s->launcher));
    byoc_entry_point_check_clear(&chk);
}

static void check_source(const byoc_jobspec *s, const byoc_job_validate_opts *o, byoc_job_problems *out)
{
    char q[160];
    if (!s->source_module) {
        byoc_job_problem_add(out, BYOC_JF_SOURCE_MODULE, -1, NULL, "is required: a Python file or directory to upload");
        if (s->entry_point)
            check_entry(s, NULL, s->entry_point, out);
        return;
    }
    if (strncasecmp(s->source_module, "s3://", 5) == 0 || strncmp(s->source_module, "https://", 8) == 0) {
        if (byoc_job_check_s3_path(s->source_module, BYOC_JF_SOURCE_MODULE, -1, "source_module", out))
            return;
        if (!ends_with_ci(s->source_module, ".tar.gz"))
            byoc_job_problem_add(out, BYOC_JF_SOURCE_MODULE, -1, "source_module",
                                 "an S3 source module must point to a .tar.gz file (SDK): %s",
                                 quoted(s->source_module, q, sizeof q));
        if (!s->entry_point)
            byoc_job_problem_add(out, BYOC_JF_ENTRY_POINT, -1, NULL,
                                 "is required when the source module is an S3 URI (SDK)");
        else
            check_entry(s, NULL, s->entry_point, out);
        return;
    }
    if (utf16_length(s->source_module) < 0) {
        byoc_job_problem_add(out, BYOC_JF_SOURCE_MODULE, -1, "source_module", "must be valid UTF-8");
        return;
    }
    if (o->skip_files) {
        if (s->entry_point)
            check_entry(s, NULL, s->entry_point, out);
        return;
    }
    struct stat st;
    if (stat(s->source_module, &st) != 0) {
        byoc_job_problem_add(out, BYOC_JF_SOURCE_MODULE, -1, "source_module", "source module not found: %s (%s)",
                             quoted(s->source_module, q, sizeof q), strerror(errno));
        return;
    }
    if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        byoc_job_problem_add(out, BYOC_JF_SOURCE_MODULE, -1, "source_module", "must be a file or a directory: %s",
                             quoted(s->source_module, q, sizeof q));
        return;
    }
    char *ep = byoc_job_entry_point(s);
    check_entry(s, s->source_module, ep, out);
    free(ep);
}

/* ---- device ------------------------------------------------------------------------ */

static void check_device(const char *d, byoc_job_problems *out)
{
    const byoc_job_field f = BYOC_JF_DEVICE;
    char q[160];
    if (!check_length(out, f, -1, NULL, d, 1, 256, "API model String256"))
        return;
    if (strncmp(d, "local:", 6) == 0) {
        if (!model_match(P_LOCAL_DEVICE, d))
            byoc_job_problem_add(out, f, -1, NULL,
                                 "a local device must be local:<provider>/<simulator> made of letters, digits, "
                                 "'_', '-', '.' (developer guide): %s",
                                 quoted(d, q, sizeof q));
    } else if (!model_match(P_DEVICE_ARN, d)) {
        byoc_job_problem_add(out, f, -1, NULL,
                             "must be a Braket device ARN (arn:aws:braket:<region>::device/<type>/<provider>/<name>) "
                             "or local:<provider>/<simulator>: %s",
                             quoted(d, q, sizeof q));
    }
}

/* ---- lists --------------------------------------------------------------------------- */

static void check_hyperparameters(const byoc_jobspec *s, byoc_job_problems *out)
{
    const byoc_job_field f = BYOC_JF_HYPERPARAMETER;
    char q[160], api[96];
    size_t extra = 0;
    if (s->distribution && strcmp(s->distribution, "data_parallel") == 0) {
        static const char *const added[] = {"sagemaker_distributed_dataparallel_enabled", "sagemaker_instance_type"};
        for (size_t k = 0; k < 2; k++) {
            bool present = false;
            for (size_t i = 0; i < s->n_hyperparameters; i++)
                present = present || strcmp(s->hyperparameters[i].key, added[k]) == 0;
            extra += !present;
        }
    }
    if (s->n_hyperparameters + extra > 100)
        byoc_job_problem_add(out, f, -1, NULL, "at most 100 hyperparameters (API model HyperParameters): %zu given%s",
                             s->n_hyperparameters + extra, extra ? " including the 2 that --distribution adds" : "");
    for (size_t i = 0; i < s->n_hyperparameters; i++) {
        const byoc_kv *kv = &s->hyperparameters[i];
        snprintf(api, sizeof api, "hyperParameters[%s]", kv->key);
        if (!check_length(out, f, (int)i, "hyperParameters key", kv->key, 1, 256, "API model String256"))
            continue;
        for (size_t j = 0; j < i; j++)
            if (strcmp(s->hyperparameters[j].key, kv->key) == 0) {
                byoc_job_problem_add(out, f, (int)i, api, "hyperparameter %s is given twice",
                                     quoted(kv->key, q, sizeof q));
                break;
            }
        if (!check_length(out, f, (int)i, api, kv->value, 1, 2500, "API model HyperParametersValueString"))
            continue;
        if (java_line_terminator(kv->value))
            byoc_job_problem_add(out, f, (int)i, api,
                                 "must match .* (API model HyperParametersValueString: no line breaks): %s",
                                 quoted(kv->value, q, sizeof q));
    }
}

static void check_tags(const byoc_jobspec *s, byoc_job_problems *out)
{
    char q[160], api[96];
    for (size_t i = 0; i < s->n_tags; i++) {
        const byoc_kv *kv = &s->tags[i];
        snprintf(api, sizeof api, "tags[%s]", kv->key);
        if (!check_length(out, BYOC_JF_TAG, (int)i, "tags key", kv->key, 1, -1, "a tag needs a key"))
            continue;
        if (utf16_length(kv->value) < 0) {
            byoc_job_problem_add(out, BYOC_JF_TAG, (int)i, api, "must be valid UTF-8");
            continue;
        }
        for (size_t j = 0; j < i; j++)
            if (strcmp(s->tags[j].key, kv->key) == 0) {
                byoc_job_problem_add(out, BYOC_JF_TAG, (int)i, api, "tag %s is given twice",
                                     quoted(kv->key, q, sizeof q));
                break;
            }
    }
}

static void check_channels(const byoc_jobspec *s, const byoc_job_validate_opts *o, byoc_job_problems *out)
{
    const byoc_job_field f = BYOC_JF_INPUT_DATA;
    char q[160], api[96], err_text[600];
    if (s->n_channels > 20)
        byoc_job_problem_add(out, f, -1, NULL, "at most 20 input channels (API model inputDataConfig): %zu given",
                             s->n_channels);
    for (size_t i = 0; i < s->n_channels; i++) {
        const byoc_job_channel *c = &s->channels[i];
        snprintf(api, sizeof api, "inputDataConfig[%zu].channelName", i);
        if (check_length(out, f, (int)i, api, c->name, 1, 64, "API model InputFileConfigChannelNameString")) {
            if (!model_match(P_CHANNEL, c->name))
                pattern_problem(out, f, (int)i, api, P_CHANNEL, "InputFileConfigChannelNameString", c->name, "");
            for (size_t j = 0; j < i; j++)
                if (strcmp(s->channels[j].name, c->name) == 0) {
                    byoc_job_problem_add(out, f, (int)i, api, "channel %s is given twice",
                                         quoted(c->name, q, sizeof q));
                    break;
                }
        }
        if (c->content_type) {
            snprintf(api, sizeof api, "inputDataConfig[%zu].contentType", i);
            check_length(out, f, (int)i, api, c->content_type, 1, 256, "API model String256");
        }
        snprintf(api, sizeof api, "inputDataConfig[%zu].dataSource.s3DataSource.s3Uri", i);
        if (!*c->location) {
            byoc_job_problem_add(out, f, (int)i, api, "channel %s needs an S3 URI or a local path",
                                 quoted(c->name, q, sizeof q));
        } else if (strstr(c->location, "://")) {
            byoc_job_check_s3_path(c->location, f, (int)i, api, out);
        } else if (utf16_length(c->location) < 0) {
            byoc_job_problem_add(out, f, (int)i, api, "must be valid UTF-8");
        } else if (!o->skip_files) {
            byoc_job_local_file *files = NULL;
            size_t n = 0;
            if (byoc_job_local_input_files(c->location, "s3://x/y", &files, &n, err_text, sizeof err_text) != 0)
                byoc_job_problem_add(out, f, (int)i, api, "%s", err_text);
            else if (n == 0)
                byoc_job_problem_add(out, f, (int)i, api,
                                     "no local file matches %s (a local path is a prefix: files and directories "
                                     "whose path starts with it are uploaded)",
                                     quoted(c->location, q, sizeof q));
            byoc_job_local_files_free(files, n);
        }
    }
}

/* ---- the whole spec ------------------------------------------------------------------ */

size_t byoc_jobspec_validate(const byoc_jobspec *s, const byoc_job_validate_opts *opts, byoc_job_problems *out)
{
    byoc_job_validate_opts defaults = {0};
    const byoc_job_validate_opts *o = opts ? opts : &defaults;
    size_t before = out->len;
    char q[160];

    if (s->image_uri)
        check_image_uri(s->image_uri, out);
    check_source(s, o, out);

    if (s->role_arn) {
        byoc_job_check_role_arn(s->role_arn, BYOC_JF_ROLE_ARN, NULL, out);
    } else {
        const char *env = o->role_env ? o->role_env : getenv(BYOC_JOB_ROLE_ENV);
        if (env && *env)
            byoc_job_check_role_arn(env, BYOC_JF_ROLE_ARN, BYOC_JOB_ROLE_ENV, out);
    }
    if (s->device)
        check_device(s->device, out);

    if (s->instance_type) {
        bool known = false;
        for (const char *const *t = byoc_job_instance_types; *t && !known; t++)
            known = strcmp(*t, s->instance_type) == 0;
        if (!known)
            byoc_job_problem_add(out, BYOC_JF_INSTANCE_TYPE, -1, NULL,
                                 "must be one of the API model's InstanceType values (ml.m5.large, ml.c5.xlarge, "
                                 "ml.g4dn.xlarge, ... see byoc run --help): %s is not",
                                 quoted(s->instance_type, q, sizeof q));
    }
    if (s->instance_count)
        check_integer(out, BYOC_JF_INSTANCE_COUNT, s->instance_count, 1, BYOC_JOB_MAX_INSTANCES,
                      "API model minimum 1; developer guide: at most 5 instances");
    if (s->volume_gb)
        check_integer(out, BYOC_JF_VOLUME_GB, s->volume_gb, 1, INT32_MAX, "API model minimum 1");
    if (s->max_runtime)
        check_integer(out, BYOC_JF_MAX_RUNTIME, s->max_runtime, 1, 432000,
                      "API model JobStoppingConditionMaxRuntimeInSecondsInteger");

    check_hyperparameters(s, out);
    check_channels(s, o, out);

    if (s->output_s3)
        byoc_job_check_s3_path(s->output_s3, BYOC_JF_OUTPUT_S3, -1, NULL, out);
    if (s->kms_key_id)
        check_length(out, BYOC_JF_KMS_KEY, -1, NULL, s->kms_key_id, 1, 2048, "API model String2048");
    if (s->checkpoint_s3)
        byoc_job_check_s3_path(s->checkpoint_s3, BYOC_JF_CHECKPOINT_S3, -1, NULL, out);
    if (s->checkpoint_local_path)
        check_length(out, BYOC_JF_CHECKPOINT_LOCAL_PATH, -1, NULL, s->checkpoint_local_path, 1, 4096,
                     "API model String4096");
    if (s->code_location) {
        if (byoc_job_check_s3_path(s->code_location, BYOC_JF_CODE_LOCATION, -1, NULL, out) == 0 &&
            strncasecmp(s->code_location, "s3://", 5) != 0)
            byoc_job_problem_add(out, BYOC_JF_CODE_LOCATION, -1, NULL,
                                 "must be an s3://<bucket>/<prefix> URI to upload to: %s",
                                 quoted(s->code_location, q, sizeof q));
    }
    if (s->job_name)
        byoc_job_check_name(s->job_name, BYOC_JF_JOB_NAME, out);
    check_tags(s, out);

    if (s->distribution && strcmp(s->distribution, "data_parallel") != 0)
        byoc_job_problem_add(out, BYOC_JF_DISTRIBUTION, -1, NULL,
                             "the only distribution the SDK knows is data_parallel: %s",
                             quoted(s->distribution, q, sizeof q));
    if (s->reservation_arn) {
        const char *api = "associations[0].arn";
        if (check_length(out, BYOC_JF_RESERVATION_ARN, -1, api, s->reservation_arn, 1, -1, "API model BraketResourceArn") &&
            !model_match(P_ASSOC, s->reservation_arn))
            pattern_problem(out, BYOC_JF_RESERVATION_ARN, -1, api, P_ASSOC, "BraketResourceArn", s->reservation_arn,
                            "");
    }
    if (s->copy_checkpoints_from_job) {
        const char *api = "jobArn";
        if (check_length(out, BYOC_JF_COPY_CHECKPOINTS, -1, api, s->copy_checkpoints_from_job, 1, -1,
                         "API model JobArn") &&
            !model_match(P_JOB_ARN, s->copy_checkpoints_from_job))
            pattern_problem(out, BYOC_JF_COPY_CHECKPOINTS, -1, api, P_JOB_ARN, "JobArn", s->copy_checkpoints_from_job,
                            "");
    }
    return out->len - before;
}
