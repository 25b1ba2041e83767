#include "aws/sigv4.h"

#include <ctype.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ALGORITHM "AWS4-HMAC-SHA256"

/* ---- primitives ------------------------------------------------------------ */

static void to_hex(const unsigned char *d, size_t n, char *out)
{
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    out[2 * n] = '\0';
}

void byoc_sha256_hex(const void *data, size_t n, char out[65])
{
    unsigned char md[SHA256_DIGEST_LENGTH];
    SHA256(data ? data : (const void *)"", n, md);
    to_hex(md, sizeof md, out);
}

static void hmac256(const void *key, size_t klen, const void *msg, size_t mlen, unsigned char out[32])
{
    unsigned int outlen = 32;
    HMAC(EVP_sha256(), key, (int)klen, msg, mlen, out, &outlen);
}

static bool is_unreserved(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.' || c == '~';
}

void byoc_sigv4_encode(byoc_buf *b, const char *s, size_t n, bool keep_slash)
{
    static const char hex[] = "0123456789ABCDEF";
    byoc_buf_reserve(b, n);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (is_unreserved(c) || (keep_slash && c == '/')) {
            byoc_buf_putc(b, (char)c);
        } else {
            char esc[3] = {'%', hex[c >> 4], hex[c & 15]};
            byoc_buf_append(b, esc, 3);
        }
    }
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Percent-decode s[0..n) into a new string; a malformed escape stays literal. */
static char *decode(const char *s, size_t n, size_t *outlen)
{
    char *o = byoc_xmalloc(n + 1);
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '%' && i + 2 < n && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
            o[j++] = (char)(hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
            i += 2;
        } else {
            o[j++] = s[i];
        }
    }
    o[j] = '\0';
    *outlen = j;
    return o;
}

static void format_amz_date(time_t t, char amz[17])
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(amz, 17, "%Y%m%dT%H%M%SZ", &tm);
}

/* ---- signing-key cache ------------------------------------------------------
 * Entries are keyed by date, region, service and a SHA-256 of the secret, so
 * the secret itself is never kept here; the derived keys are wiped on reuse
 * and on free. */

#define CACHE_SLOTS 8

typedef struct {
    bool used;
    char date[9];
    char region[64];
    char service[64];
    unsigned char secret_digest[32];
    unsigned char key[32];
    unsigned long stamp;
} cache_slot;

struct byoc_sigv4_cache {
    pthread_mutex_t mu;
    cache_slot slots[CACHE_SLOTS];
    unsigned long clock;
};

byoc_sigv4_cache *byoc_sigv4_cache_new(void)
{
    byoc_sigv4_cache *c = byoc_xcalloc(1, sizeof *c);
    pthread_mutex_init(&c->mu, NULL);
    return c;
}

void byoc_sigv4_cache_free(byoc_sigv4_cache *c)
{
    if (!c)
        return;
    pthread_mutex_destroy(&c->mu);
    byoc_wipe(c, sizeof *c);
    free(c);
}

static void derive_key(const char *secret, const char *date, const char *region, const char *service,
                       unsigned char out[32])
{
    size_t slen = strlen(secret);
    char *k0 = byoc_xmalloc(slen + 5);
    memcpy(k0, "AWS4", 4);
    memcpy(k0 + 4, secret, slen + 1);
    unsigned char a[32], b[32];
    hmac256(k0, slen + 4, date, strlen(date), a);
    hmac256(a, 32, region, strlen(region), b);
    hmac256(b, 32, service, strlen(service), a);
    hmac256(a, 32, "aws4_request", 12, out);
    byoc_wipe(k0, slen + 4);
    free(k0);
    byoc_wipe(a, sizeof a);
    byoc_wipe(b, sizeof b);
}

static void signing_key(byoc_sigv4_cache *c, const char *secret, const char *date, const char *region,
                        const char *service, unsigned char out[32])
{
    if (!c || strlen(region) >= 64 || strlen(service) >= 64) {
        derive_key(secret, date, region, service, out);
        return;
    }
    unsigned char digest[32];
    SHA256((const unsigned char *)secret, strlen(secret), digest);
    pthread_mutex_lock(&c->mu);
    cache_slot *victim = &c->slots[0];
    for (int i = 0; i < CACHE_SLOTS; i++) {
        cache_slot *s = &c->slots[i];
        if (s->used && strcmp(s->date, date) == 0 && strcmp(s->region, region) == 0 &&
            strcmp(s->service, service) == 0 && CRYPTO_memcmp(s->secret_digest, digest, 32) == 0) {
            memcpy(out, s->key, 32);
            s->stamp = ++c->clock;
            pthread_mutex_unlock(&c->mu);
            byoc_wipe(digest, sizeof digest);
            return;
        }
        if (!s->used || (victim->used && s->stamp < victim->stamp))
            victim = s;
    }
    derive_key(secret, date, region, service, out);
    byoc_wipe(victim, sizeof *victim);
    victim->used = true;
    snprintf(victim->date, sizeof victim->date, "%s", date);
    snprintf(victim->region, sizeof victim->region, "%s", region);
    snprintf(victim->service, sizeof victim->service, "%s", service);
    memcpy(victim->secret_digest, digest, 32);
    memcpy(victim->key, out, 32);
    victim->stamp = ++c->clock;
    pthread_mutex_unlock(&c->mu);
    byoc_wipe(digest, sizeof digest);
}

/* ---- canonical parts ---------------------------------------------------------- */

static void append_normalized_path(byoc_buf *out, const char *path, size_t n)
{
    /* Remove dot segments (RFC 3986 5.2.4) and empty segments, as AWS services expect. */
    const char **segs = byoc_xcalloc(n + 1, sizeof *segs);
    size_t *lens = byoc_xcalloc(n + 1, sizeof *lens);
    size_t nseg = 0;
    size_t i = 0;
    while (i <= n) {
        size_t j = i;
        while (j < n && path[j] != '/')
            j++;
        size_t len = j - i;
        if (len == 0 || (len == 1 && path[i] == '.')) {
            /* skip */
        } else if (len == 2 && path[i] == '.' && path[i + 1] == '.') {
            if (nseg)
                nseg--;
        } else {
            segs[nseg] = path + i;
            lens[nseg++] = len;
        }
        i = j + 1;
    }
    byoc_buf tmp = BYOC_BUF_INIT;
    if (n && path[0] == '/')
        byoc_buf_putc(&tmp, '/');
    for (size_t k = 0; k < nseg; k++) {
        if (k)
            byoc_buf_putc(&tmp, '/');
        byoc_buf_append(&tmp, segs[k], lens[k]);
    }
    if (n && path[n - 1] == '/' && nseg)
        byoc_buf_putc(&tmp, '/');
    if (tmp.len == 0)
        byoc_buf_putc(&tmp, '/');
    byoc_buf_append(out, tmp.data, tmp.len);
    byoc_buf_clear(&tmp);
    free(segs);
    free(lens);
}

static void canonical_uri(byoc_buf *out, const byoc_sigv4_params *p, const char *path, size_t n)
{
    if (n == 0) {
        byoc_buf_putc(out, '/');
        return;
    }
    byoc_buf norm = BYOC_BUF_INIT;
    if (p->keep_path)
        byoc_buf_append(&norm, path, n);
    else
        append_normalized_path(&norm, path, n);
    if (p->single_encode)
        byoc_buf_append(out, norm.data, norm.len);
    else
        byoc_sigv4_encode(out, norm.data, norm.len, true);
    byoc_buf_clear(&norm);
}

typedef struct {
    char *key;   /* encoded */
    char *value; /* encoded */
} qpair;

typedef struct {
    qpair *items;
    size_t len, cap;
} qlist;

static void qlist_add_encoded(qlist *q, char *key, char *value)
{
    if (q->len == q->cap) {
        q->cap = q->cap ? q->cap * 2 : 16;
        q->items = byoc_xrealloc(q->items, q->cap * sizeof *q->items);
    }
    q->items[q->len].key = key;
    q->items[q->len].value = value;
    q->len++;
}

static char *encode_dup(const char *s, size_t n)
{
    byoc_buf b = BYOC_BUF_INIT;
    byoc_sigv4_encode(&b, s, n, false);
    return byoc_buf_steal(&b);
}

static char *reencode(const char *s, size_t n)
{
    size_t dl;
    char *d = decode(s, n, &dl);
    char *e = encode_dup(d, dl);
    free(d);
    return e;
}

static void qlist_add_raw(qlist *q, const char *key, const char *value)
{
    qlist_add_encoded(q, encode_dup(key, strlen(key)), encode_dup(value, strlen(value)));
}

static void qlist_parse(qlist *q, const char *query)
{
    const char *s = query;
    while (*s) {
        const char *amp = strchr(s, '&');
        size_t n = amp ? (size_t)(amp - s) : strlen(s);
        if (n) {
            const char *eq = memchr(s, '=', n);
            if (eq)
                qlist_add_encoded(q, reencode(s, (size_t)(eq - s)), reencode(eq + 1, n - (size_t)(eq - s) - 1));
            else
                qlist_add_encoded(q, reencode(s, n), byoc_xstrdup(""));
        }
        s += n;
        if (*s == '&')
            s++;
    }
}

static int qpair_cmp(const void *a, const void *b)
{
    const qpair *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : strcmp(x->value, y->value);
}

static void qlist_canonical(qlist *q, byoc_buf *out)
{
    if (q->len)
        qsort(q->items, q->len, sizeof *q->items, qpair_cmp);
    for (size_t i = 0; i < q->len; i++) {
        if (i)
            byoc_buf_putc(out, '&');
        byoc_buf_printf(out, "%s=%s", q->items[i].key, q->items[i].value);
    }
}

static void qlist_clear(qlist *q)
{
    for (size_t i = 0; i < q->len; i++) {
        byoc_free_secret(q->items[i].key);
        byoc_free_secret(q->items[i].value);
    }
    free(q->items);
    memset(q, 0, sizeof *q);
}

static bool never_signed(const char *name)
{
    static const char *const skip[] = {"authorization", "user-agent", "expect", "transfer-encoding",
                                       "x-amzn-trace-id", "connection"};
    for (size_t i = 0; i < sizeof skip / sizeof *skip; i++)
        if (strcasecmp(name, skip[i]) == 0)
            return true;
    return false;
}

typedef struct {
    char *name;  /* lower-case */
    char *value; /* trimmed, whitespace collapsed */
    size_t order;
} chdr;

static int chdr_cmp(const void *a, const void *b)
{
    const chdr *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    return x->order < y->order ? -1 : x->order > y->order;
}

static char *collapse_value(const char *v)
{
    byoc_buf b = BYOC_BUF_INIT;
    bool pending_space = false;
    for (const char *s = v; *s; s++) {
        if (isspace((unsigned char)*s)) {
            pending_space = b.len > 0;
            continue;
        }
        if (pending_space)
            byoc_buf_putc(&b, ' ');
        pending_space = false;
        byoc_buf_putc(&b, *s);
    }
    return byoc_buf_steal(&b);
}

/* Canonical header block ("name:value\n"...) and the signed-header list. */
static void canonical_headers(const byoc_headers *h, byoc_buf *block, byoc_buf *names)
{
    chdr *v = byoc_xcalloc(h->len + 1, sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < h->len; i++) {
        if (never_signed(h->items[i].name))
            continue;
        char *name = byoc_xstrdup(h->items[i].name);
        for (char *c = name; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        v[n].name = name;
        v[n].value = collapse_value(h->items[i].value ? h->items[i].value : "");
        v[n].order = i;
        n++;
    }
    qsort(v, n, sizeof *v, chdr_cmp);
    for (size_t i = 0; i < n; i++) {
        bool same_as_prev = i > 0 && strcmp(v[i].name, v[i - 1].name) == 0;
        if (same_as_prev) {
            byoc_buf_printf(block, ",%s", v[i].value);
            continue;
        }
        if (i > 0)
            byoc_buf_putc(block, '\n');
        byoc_buf_printf(block, "%s:%s", v[i].name, v[i].value);
        if (names->len)
            byoc_buf_putc(names, ';');
        byoc_buf_puts(names, v[i].name);
    }
    if (n)
        byoc_buf_putc(block, '\n');
    for (size_t i = 0; i < n; i++) {
        free(v[i].name);
        byoc_free_secret(v[i].value);
    }
    free(v);
}

static int check_params(const byoc_sigv4_params *p, const char *method, const char *target, byoc_err *err)
{
    if (!p->access_key_id || !*p->access_key_id || !p->secret_access_key || !*p->secret_access_key)
        return byoc_err_set(err, BYOC_E_USAGE, "sigv4", "no credentials to sign with");
    if (!p->region || !*p->region || !p->service || !*p->service)
        return byoc_err_set(err, BYOC_E_USAGE, "sigv4", "signing region and service are required");
    if (!method || !*method || !target)
        return byoc_err_set(err, BYOC_E_USAGE, "sigv4", "method and target are required");
    return 0;
}

static bool has_token(const byoc_sigv4_params *p)
{
    return p->session_token && *p->session_token;
}

/* Build the canonical request, string to sign and signature into r. extra_query
 * holds X-Amz-* parameters (query form) or is NULL. */
static void compute(const byoc_sigv4_params *p, const char *method, const char *target,
                    const byoc_headers *h, const char *payload_hash, qlist *extra_query,
                    byoc_sigv4_result *r)
{
    const char *qmark = strchr(target, '?');
    size_t pathlen = qmark ? (size_t)(qmark - target) : strlen(target);

    byoc_buf creq = BYOC_BUF_INIT;
    byoc_buf_printf(&creq, "%s\n", method);
    canonical_uri(&creq, p, target, pathlen);
    byoc_buf_putc(&creq, '\n');

    qlist q = {0};
    if (qmark)
        qlist_parse(&q, qmark + 1);
    if (extra_query) {
        for (size_t i = 0; i < extra_query->len; i++)
            qlist_add_encoded(&q, byoc_xstrdup(extra_query->items[i].key),
                              byoc_xstrdup(extra_query->items[i].value));
    }
    qlist_canonical(&q, &creq);
    qlist_clear(&q);
    byoc_buf_putc(&creq, '\n');

    byoc_buf block = BYOC_BUF_INIT, names = BYOC_BUF_INIT;
    canonical_headers(h, &block, &names);
    byoc_buf_append(&creq, byoc_buf_str(&block), block.len);
    byoc_buf_printf(&creq, "\n%s\n%s", byoc_buf_str(&names), payload_hash);
    byoc_buf_clear(&block);

    char creq_hash[65];
    byoc_sha256_hex(creq.data, creq.len, creq_hash);
    byoc_buf sts = BYOC_BUF_INIT;
    byoc_buf_printf(&sts, ALGORITHM "\n%s\n%s\n%s", r->amz_date, r->scope, creq_hash);

    char date[9];
    memcpy(date, r->amz_date, 8);
    date[8] = '\0';
    unsigned char key[32], sig[32];
    signing_key(p->cache, p->secret_access_key, date, p->region, p->service, key);
    hmac256(key, 32, sts.data, sts.len, sig);
    byoc_wipe(key, sizeof key);
    to_hex(sig, 32, r->signature);

    r->canonical_request = byoc_buf_steal(&creq);
    r->string_to_sign = byoc_buf_steal(&sts);
    r->signed_headers = byoc_buf_steal(&names);
}

static void init_result(const byoc_sigv4_params *p, byoc_sigv4_result *r)
{
    memset(r, 0, sizeof *r);
    format_amz_date(p->time ? p->time : time(NULL), r->amz_date);
    snprintf(r->scope, sizeof r->scope, "%.8s/%s/%s/aws4_request", r->amz_date, p->region, p->service);
}

void byoc_sigv4_params_s3(byoc_sigv4_params *p)
{
    p->keep_path = true;
    p->single_encode = true;
    p->add_content_sha256 = true;
}

int byoc_sigv4_sign_headers(const byoc_sigv4_params *p, const char *method, const char *target,
                            byoc_headers *headers, const char *payload_hash,
                            byoc_sigv4_result *result, byoc_err *err)
{
    if (check_params(p, method, target, err))
        return -1;
    if (!byoc_headers_get(headers, "host"))
        return byoc_err_set(err, BYOC_E_USAGE, "sigv4", "the request has no Host header");
    if (!payload_hash)
        payload_hash = BYOC_SIGV4_EMPTY_SHA256;

    byoc_sigv4_result local, *r = result ? result : &local;
    init_result(p, r);

    byoc_headers_remove(headers, "authorization");
    byoc_headers_set(headers, "X-Amz-Date", r->amz_date);
    if (has_token(p) && !p->omit_session_token)
        byoc_headers_set(headers, "X-Amz-Security-Token", p->session_token);
    else if (has_token(p))
        byoc_headers_remove(headers, "x-amz-security-token");
    if (p->add_content_sha256)
        byoc_headers_set(headers, "x-amz-content-sha256", payload_hash);

    compute(p, method, target, headers, payload_hash, NULL, r);

    byoc_buf auth = BYOC_BUF_INIT;
    byoc_buf_printf(&auth, ALGORITHM " Credential=%s/%s, SignedHeaders=%s, Signature=%s", p->access_key_id,
                    r->scope, r->signed_headers, r->signature);
    byoc_headers_set(headers, "Authorization", auth.data);
    if (has_token(p) && p->omit_session_token)
        byoc_headers_set(headers, "X-Amz-Security-Token", p->session_token);
    r->authorization = byoc_buf_steal(&auth);
    if (r == &local)
        byoc_sigv4_result_clear(&local);
    return 0;
}

int byoc_sigv4_presign(const byoc_sigv4_params *p, const char *method, const char *target,
                       const byoc_headers *headers, const char *payload_hash,
                       byoc_sigv4_result *r, byoc_err *err)
{
    if (check_params(p, method, target, err))
        return -1;
    if (!byoc_headers_get(headers, "host"))
        return byoc_err_set(err, BYOC_E_USAGE, "sigv4", "the request has no Host header");
    long expires = p->expires ? p->expires : 3600;
    if (expires < 1 || expires > 604800)
        return byoc_err_set(err, BYOC_E_USAGE, "sigv4", "presigned URL lifetime must be 1..604800 seconds");
    if (!payload_hash)
        payload_hash = BYOC_SIGV4_EMPTY_SHA256;
    init_result(p, r);

    /* The signed-header list must be known before signing: compute it once. */
    byoc_buf block = BYOC_BUF_INIT, names = BYOC_BUF_INIT;
    canonical_headers(headers, &block, &names);
    byoc_buf_clear(&block);

    char credential[512], expires_s[24];
    snprintf(credential, sizeof credential, "%s/%s", p->access_key_id, r->scope);
    snprintf(expires_s, sizeof expires_s, "%ld", expires);

    /* Appended in the order SDKs print them; the canonical query sorts them. */
    qlist added = {0};
    qlist_add_raw(&added, "X-Amz-Algorithm", ALGORITHM);
    qlist_add_raw(&added, "X-Amz-Credential", credential);
    qlist_add_raw(&added, "X-Amz-Date", r->amz_date);
    qlist_add_raw(&added, "X-Amz-SignedHeaders", byoc_buf_str(&names));
    qlist_add_raw(&added, "X-Amz-Expires", expires_s);
    bool token_signed = has_token(p) && !p->omit_session_token;
    if (token_signed)
        qlist_add_raw(&added, "X-Amz-Security-Token", p->session_token);
    byoc_buf_clear(&names);

    compute(p, method, target, headers, payload_hash, &added, r);

    byoc_buf out = BYOC_BUF_INIT;
    for (size_t i = 0; i < added.len; i++)
        byoc_buf_printf(&out, "%s%s=%s", i ? "&" : "", added.items[i].key, added.items[i].value);
    if (has_token(p) && !token_signed) {
        byoc_buf_puts(&out, "&X-Amz-Security-Token=");
        byoc_sigv4_encode(&out, p->session_token, strlen(p->session_token), false);
    }
    byoc_buf_printf(&out, "&X-Amz-Signature=%s", r->signature);
    r->query = byoc_buf_steal(&out);
    qlist_clear(&added);
    return 0;
}

void byoc_sigv4_result_clear(byoc_sigv4_result *r)
{
    if (!r)
        return;
    byoc_free_secret(r->canonical_request); /* holds x-amz-security-token when signed */
    free(r->string_to_sign);
    free(r->signed_headers);
    free(r->authorization);
    byoc_free_secret(r->query); /* may carry a session token */
    memset(r, 0, sizeof *r);
}

/* ---- aws-chunked ------------------------------------------------------------ */

int byoc_sigv4_chunker_init(byoc_sigv4_chunker *c, const byoc_sigv4_params *p,
                            const byoc_sigv4_result *seed, byoc_err *err)
{
    memset(c, 0, sizeof *c);
    if (!p->secret_access_key || !*p->secret_access_key || strlen(seed->signature) != 64)
        return byoc_err_set(err, BYOC_E_USAGE, "sigv4", "chunked signing needs a seed signature");
    char date[9];
    memcpy(date, seed->amz_date, 8);
    date[8] = '\0';
    signing_key(p->cache, p->secret_access_key, date, p->region, p->service, c->key);
    memcpy(c->amz_date, seed->amz_date, sizeof c->amz_date);
    memcpy(c->scope, seed->scope, sizeof c->scope);
    memcpy(c->prev_signature, seed->signature, sizeof c->prev_signature);
    return 0;
}

void byoc_sigv4_chunk_sign(byoc_sigv4_chunker *c, const void *data, size_t n, char out[65])
{
    char chunk_hash[65];
    byoc_sha256_hex(data, n, chunk_hash);
    byoc_buf sts = BYOC_BUF_INIT;
    byoc_buf_printf(&sts, "AWS4-HMAC-SHA256-PAYLOAD\n%s\n%s\n%s\n%s\n%s", c->amz_date, c->scope,
                    c->prev_signature, BYOC_SIGV4_EMPTY_SHA256, chunk_hash);
    unsigned char sig[32];
    hmac256(c->key, 32, sts.data, sts.len, sig);
    byoc_buf_clear(&sts);
    to_hex(sig, 32, out);
    memcpy(c->prev_signature, out, 65);
}

void byoc_sigv4_chunk_frame(byoc_sigv4_chunker *c, const void *data, size_t n, byoc_buf *b)
{
    char sig[65];
    byoc_sigv4_chunk_sign(c, data, n, sig);
    byoc_buf_printf(b, "%zx;chunk-signature=%s\r\n", n, sig);
    byoc_buf_append(b, data, n);
    byoc_buf_append(b, "\r\n", 2);
}

void byoc_sigv4_chunker_clear(byoc_sigv4_chunker *c)
{
    byoc_wipe(c, sizeof *c);
}

static unsigned long long frame_len(unsigned long long n)
{
    int hexdigits = 1;
    for (unsigned long long v = n >> 4; v; v >>= 4)
        hexdigits++;
    return (unsigned long long)hexdigits + strlen(";chunk-signature=") + 64 + 2 + n + 2;
}

unsigned long long byoc_sigv4_chunked_length(unsigned long long decoded_len, size_t chunk_size)
{
    if (chunk_size == 0)
        return 0;
    unsigned long long full = decoded_len / chunk_size, rest = decoded_len % chunk_size;
    unsigned long long total = full * frame_len(chunk_size);
    if (rest)
        total += frame_len(rest);
    return total + frame_len(0);
}
