#include "byoc/imageplatforms.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aws/ecr.h"
#include "core/buf.h"
#include "docker/manifest.h"

#define DEFAULT_MAX_READS 100

/* "<account>.dkr.ecr.<region>.amazonaws.com/<name>" -> host and name (malloc'd); false if not that shape. */
static bool split_uri(const char *uri, char **host, char **name, char **account)
{
    const char *slash = uri ? strchr(uri, '/') : NULL;
    const char *dot = uri ? strchr(uri, '.') : NULL;
    if (!slash || !dot || dot > slash || !slash[1])
        return false;
    for (const char *p = uri; p < slash; p++) /* a host name (and port): nothing else goes into a URL */
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr(".-:", *p)))
            return false;
    *host = byoc_xstrndup(uri, (size_t)(slash - uri));
    *name = byoc_xstrdup(slash + 1);
    *account = byoc_xstrndup(uri, (size_t)(dot - uri));
    return true;
}

/* The read's error without the "<host>/<name>:<digest>: " the registry
 * client puts first: the image is named by its row, and the reason is what
 * must fit beside it. */
static const char *why_of(const byoc_err *e, const char *host, const char *name, const char *digest)
{
    char *named = byoc_xasprintf("%s/%s:%s: ", host, name, digest);
    size_t n = strlen(named);
    bool prefixed = strncmp(e->message, named, n) == 0 && e->message[n];
    free(named);
    return prefixed ? e->message + n : e->message;
}

/* The index's image platforms, with its attestations counted apart. */
static void add_platforms(json_t *im, const json_t *index)
{
    size_t att = 0;
    json_object_set_new(im, "platforms", byoc_manifest_index_platforms(index, &att));
    json_object_set_new(im, "attestations", json_integer((json_int_t)att));
}

int byoc_ecr_images_add_platforms(byoc_aws_client *ecr, byoc_task *t, json_t *doc, int max_reads, byoc_err *err)
{
    if (max_reads <= 0)
        max_reads = DEFAULT_MAX_READS;
    byoc_ecr_token tok;
    memset(&tok, 0, sizeof tok);
    bool logged_in = false;
    int reads = 0;
    size_t i;
    json_t *im;
    json_array_foreach(json_object_get(doc, "images"), i, im)
    {
        const char *digest = json_string_value(json_object_get(im, "digest"));
        if (!byoc_manifest_is_index(json_string_value(json_object_get(im, "media_type"))) || !digest)
            continue;
        if (reads >= max_reads) {
            json_object_set_new(im, "platforms_error", json_string("not read: the listing reads at most 100 indexes"));
            continue;
        }
        char *host, *name, *account;
        if (!split_uri(json_string_value(json_object_get(im, "repository")), &host, &name, &account)) {
            json_object_set_new(im, "platforms_error", json_string("no registry in the repository URI"));
            continue;
        }
        if (!logged_in) {
            if (byoc_ecr_get_authorization_token(ecr, t, account, time(NULL), &tok, err) != 0) {
                free(host);
                free(name);
                free(account);
                char *why = byoc_xasprintf("no registry login: %s", err->message);
                byoc_ecr_images_platforms_unread(doc, why);
                free(why);
                return -1;
            }
            logged_in = true;
        }
        byoc_registry_target reg = {.host = host, .username = tok.username, .password = tok.password};
        byoc_registry_manifest m;
        byoc_err e;
        byoc_err_clear(&e);
        reads++;
        if (byoc_registry_get_manifest(&reg, t, name, digest, &m, &e) == 0) {
            add_platforms(im, m.doc);
            byoc_registry_manifest_clear(&m);
        } else {
            json_object_set_new(im, "platforms_error", json_string(why_of(&e, host, name, digest)));
        }
        free(host);
        free(name);
        free(account);
    }
    byoc_ecr_token_clear(&tok);
    return reads;
}

void byoc_ecr_images_platforms_unread(json_t *doc, const char *why)
{
    size_t i;
    json_t *im;
    json_array_foreach(json_object_get(doc, "images"), i, im)
    {
        if (!byoc_manifest_is_index(json_string_value(json_object_get(im, "media_type"))) ||
            json_object_get(im, "platforms") || json_object_get(im, "platforms_error"))
            continue;
        json_object_set_new(im, "platforms_error", json_string(why && *why ? why : "not read"));
    }
}

static void plural(byoc_buf *b, json_int_t n, const char *word)
{
    byoc_buf_printf(b, "%lld %s%s", (long long)n, word, n == 1 ? "" : "s");
}

char *byoc_image_platforms_text(const json_t *im)
{
    const json_t *list = json_object_get(im, "platforms");
    const char *why = json_string_value(json_object_get(im, "platforms_error"));
    if (why)
        return byoc_xasprintf("unknown (%s)", why);
    if (!json_is_array(list))
        return NULL;
    byoc_buf b = BYOC_BUF_INIT;
    size_t k;
    const json_t *p;
    json_array_foreach(list, k, p)
    {
        const char *s = json_string_value(p);
        byoc_buf_printf(&b, "%s%s", k ? ", " : "", s ? s : "?");
    }
    json_int_t att = json_integer_value(json_object_get(im, "attestations"));
    if (!b.len) {
        byoc_buf_puts(&b, "no image platform");
        if (att > 0) {
            byoc_buf_puts(&b, ", ");
            plural(&b, att, "attestation");
        }
    } else if (att > 0) {
        byoc_buf_puts(&b, " +");
        plural(&b, att, "attestation");
    }
    return byoc_buf_steal(&b);
}
