#include "byoc/jobs_page.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "core/buf.h"
#include "core/utf8.h"

/* jansson's JSON_PARSER_MAX_DEPTH: deeper replies are refused by both parsers. */
#define MAX_DEPTH 2048

/* The SearchJobs member each summary member comes from, in the order `byoc jobs` prints them. */
static const struct {
    const char *reply, *summary;
} FIELDS[] = {
    {"jobArn", "job_arn"}, {"jobName", "job_name"}, {"status", "status"},
    {"createdAt", "created"}, {"device", "device"},
};
#define N_FIELDS (sizeof FIELDS / sizeof FIELDS[0])

enum top_key { TOP_OTHER, TOP_JOBS, TOP_NEXT };

typedef struct reader {
    byoc_jobs_page *page;
    size_t max;
    int depth;            /* containers open */
    bool top_is_object;   /* the document is an object (its members are at depth 1) */
    enum top_key top_key; /* the member being read at depth 1 */
    bool in_jobs;         /* the container at depth 2 is the "jobs" array */
    bool in_job;          /* the container at depth 3 is one of its objects */
    int field;            /* the summary member being read at depth 3, or -1 */
    json_t *values[N_FIELDS];
    const char *refused;  /* why the reader stopped the parse */
    yajl_handle handle;
    size_t end;           /* the offset just past the document's closing bracket */
} reader;

static void clear_values(reader *r)
{
    for (size_t i = 0; i < N_FIELDS; i++) {
        json_decref(r->values[i]);
        r->values[i] = NULL;
    }
}

/* A value (scalar or container start) met in the container at r->depth. */
static void on_value(reader *r, json_t *string)
{
    if (r->depth == 1 && r->top_is_object && r->top_key == TOP_NEXT) {
        free(r->page->next_token);
        r->page->next_token = string ? byoc_xstrndup(json_string_value(string), json_string_length(string)) : NULL;
    } else if (r->depth == 3 && r->in_job && r->field >= 0) {
        json_decref(r->values[r->field]);
        r->values[r->field] = string ? json_incref(string) : NULL;
    }
    json_decref(string);
}

static int has_nul(const unsigned char *s, size_t n)
{
    return memchr(s, 0, n) != NULL;
}

static int cb_string(void *ud, const unsigned char *s, size_t n)
{
    reader *r = ud;
    if (has_nul(s, n)) {
        r->refused = "NUL character is not allowed";
        return 0;
    }
    if (r->depth == 0) {
        r->refused = "'[' or '{' expected";
        return 0;
    }
    bool wanted = (r->depth == 1 && r->top_key == TOP_NEXT) || (r->depth == 3 && r->in_job && r->field >= 0);
    on_value(r, wanted ? json_stringn_nocheck((const char *)s, n) : NULL);
    return 1;
}

static int cb_scalar(reader *r)
{
    if (r->depth == 0) {
        r->refused = "'[' or '{' expected";
        return 0;
    }
    on_value(r, NULL);
    return 1;
}

static int cb_null(void *ud) { return cb_scalar(ud); }
static int cb_boolean(void *ud, int b) { (void)b; return cb_scalar(ud); }

/* jansson holds an integer in a long long and a real in a double, and refuses what overflows. */
static int cb_number(void *ud, const char *s, size_t n)
{
    reader *r = ud;
    char text[512];
    if (n >= sizeof text) {
        r->refused = "number too long";
        return 0;
    }
    memcpy(text, s, n);
    text[n] = '\0';
    errno = 0;
    if (strpbrk(text, ".eE")) {
        double v = strtod(text, NULL);
        if (errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL)) {
            r->refused = "real number overflow";
            return 0;
        }
    } else {
        (void)strtoll(text, NULL, 10);
        if (errno == ERANGE) {
            r->refused = "too big integer";
            return 0;
        }
    }
    return cb_scalar(r);
}

static int cb_map_key(void *ud, const unsigned char *s, size_t n)
{
    reader *r = ud;
    if (has_nul(s, n)) {
        r->refused = "NUL character is not allowed";
        return 0;
    }
    if (r->depth == 1 && r->top_is_object) {
        r->top_key = n == 4 && memcmp(s, "jobs", 4) == 0        ? TOP_JOBS
                     : n == 9 && memcmp(s, "nextToken", 9) == 0 ? TOP_NEXT
                                                               : TOP_OTHER;
        if (r->top_key == TOP_JOBS) { /* a repeated "jobs": the last one counts */
            json_array_clear(r->page->summaries);
            r->page->seen = 0;
        }
    } else if (r->depth == 3 && r->in_job) {
        r->field = -1;
        for (size_t i = 0; i < N_FIELDS; i++)
            if (strlen(FIELDS[i].reply) == n && memcmp(FIELDS[i].reply, s, n) == 0)
                r->field = (int)i;
    }
    return 1;
}

static int open_container(reader *r, bool is_map)
{
    if (r->depth >= MAX_DEPTH) {
        r->refused = "maximum parsing depth reached";
        return 0;
    }
    if (r->depth == 0) {
        r->top_is_object = is_map;
    } else {
        on_value(r, NULL); /* a container where a summary member or nextToken was wanted: null */
        if (r->depth == 1 && r->top_is_object && r->top_key == TOP_JOBS && !is_map)
            r->in_jobs = true;
        else if (r->depth == 2 && r->in_jobs && is_map) {
            r->in_job = true;
            r->field = -1;
        }
    }
    r->depth++;
    return 1;
}

static int cb_start_map(void *ud) { return open_container(ud, true); }
static int cb_start_array(void *ud) { return open_container(ud, false); }

static int cb_end_map(void *ud)
{
    reader *r = ud;
    if (r->depth == 3 && r->in_job) {
        r->in_job = false;
        r->page->seen++;
        if (json_array_size(r->page->summaries) < r->max) {
            json_t *o = json_object();
            for (size_t i = 0; i < N_FIELDS; i++)
                json_object_set_new_nocheck(o, FIELDS[i].summary, r->values[i] ? json_incref(r->values[i]) : json_null());
            json_array_append_new(r->page->summaries, o);
        }
        clear_values(r);
    }
    if (--r->depth == 0)
        r->end = yajl_get_bytes_consumed(r->handle);
    return 1;
}

static int cb_end_array(void *ud)
{
    reader *r = ud;
    if (r->depth == 2 && r->in_jobs)
        r->in_jobs = false;
    if (--r->depth == 0)
        r->end = yajl_get_bytes_consumed(r->handle);
    return 1;
}

static const yajl_callbacks CALLBACKS = {
    .yajl_null = cb_null,
    .yajl_boolean = cb_boolean,
    .yajl_number = cb_number,
    .yajl_string = cb_string,
    .yajl_start_map = cb_start_map,
    .yajl_map_key = cb_map_key,
    .yajl_end_map = cb_end_map,
    .yajl_start_array = cb_start_array,
    .yajl_end_array = cb_end_array,
};

static int hex4(const char *p, const char *end)
{
    if (end - p < 4)
        return -1;
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* yajl turns an unpaired UTF-16 surrogate escape into a replacement where jansson refuses the
 * reply; a backslash can only stand in a string, so the escapes are found without parsing. */
static const char *bad_surrogate(const char *data, size_t len)
{
    const char *end = data + len;
    for (const char *p = data; (p = memchr(p, '\\', (size_t)(end - p))) != NULL;) {
        if (p + 1 >= end)
            break;
        if (p[1] != 'u') {
            p += 2;
            continue;
        }
        int cp = hex4(p + 2, end);
        if (cp >= 0xDC00 && cp <= 0xDFFF)
            return "invalid Unicode escape (a lone low surrogate)";
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            int low = end - p >= 12 && p[6] == '\\' && p[7] == 'u' ? hex4(p + 8, end) : -1;
            if (low < 0xDC00 || low > 0xDFFF)
                return "invalid Unicode escape (a lone high surrogate)";
            p += 12;
            continue;
        }
        p += 2;
    }
    return NULL;
}

/* Whether any of the n bytes at s is a control character JSON never allows raw. */
static bool has_raw_control(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            return true;
    }
    return false;
}

/* How many of the n bytes at s are JSON white space. */
static size_t strspn_ws(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        i++;
    return i;
}

void byoc_jobs_page_clear(byoc_jobs_page *p)
{
    json_decref(p->summaries);
    free(p->next_token);
    memset(p, 0, sizeof *p);
}

int byoc_jobs_page_parse(const char *data, size_t len, size_t max, byoc_jobs_page *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    out->summaries = json_array();
    if (len == 0)
        return 0;
    const char *surrogate = bad_surrogate(data, len);
    /* JSON allows no raw control character but tab, LF and CR, in a string or between tokens; yajl
     * takes form feed and vertical tab for white space and a NUL after a number for its end. */
    if (!surrogate && has_raw_control(data, len))
        surrogate = "a raw control character";
    /* yajl's UTF-8 check lets overlong forms (C0 B1) and encoded surrogates through; JSON text is
     * UTF-8 (RFC 8259 section 8.1), and jansson refuses them. */
    if (!surrogate && byoc_utf8_invalid_at(data, len) < len)
        surrogate = "invalid UTF-8";
    if (surrogate) {
        byoc_jobs_page_clear(out);
        return byoc_err_set(err, BYOC_E_FAILED, "braket", "SearchJobs: the reply is not JSON (%s)", surrogate);
    }
    reader r = {.page = out, .max = max, .field = -1};
    yajl_handle h = yajl_alloc(&CALLBACKS, NULL, &r);
    if (!h) {
        byoc_jobs_page_clear(out);
        return byoc_err_set(err, BYOC_E_FAILED, "braket", "SearchJobs: out of memory reading the reply");
    }
    r.handle = h;
    yajl_status st = yajl_parse(h, (const unsigned char *)data, len);
    if (st == yajl_status_ok)
        st = yajl_complete_parse(h);
    /* yajl holds an unterminated string after the document as a token still to come, and calls
     * the document complete; jansson refuses anything but white space after it. */
    if (st == yajl_status_ok && r.end < len && r.end + strspn_ws(data + r.end, len - r.end) < len) {
        r.refused = "end of file expected";
        st = yajl_status_error;
    }
    int rc = 0;
    if (st != yajl_status_ok) {
        char why[160];
        if (r.refused) {
            snprintf(why, sizeof why, "%s", r.refused);
        } else {
            unsigned char *e = yajl_get_error(h, 0, (const unsigned char *)data, len);
            snprintf(why, sizeof why, "%s", e ? (const char *)e : "invalid");
            yajl_free_error(h, e);
            why[strcspn(why, "\n")] = '\0';
        }
        rc = byoc_err_set(err, BYOC_E_FAILED, "braket", "SearchJobs: the reply is not JSON (%s)", why);
    }
    yajl_free(h);
    clear_values(&r);
    if (rc != 0)
        byoc_jobs_page_clear(out);
    return rc;
}
