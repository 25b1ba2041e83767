/* fuzz_aws_error: AWS error replies (aws/request.h): headers and a JSON or
 * XML body from the wire turned into a byoc_err; and XML replies as the
 * query protocol (STS, IAM) reads them.
 * Input: one byte picks the HTTP status, header lines "Name: value",
 * "\n----\n", the body. The error is always complete, one line and free of
 * control characters, whatever the reply held. */

#include "aws/request.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

static void parse_headers(const char *p, size_t n, byoc_headers *h)
{
    const char *end = p + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *colon = memchr(p, ':', len);
        if (colon) {
            char *name = byoc_xstrndup(p, (size_t)(colon - p));
            const char *v = colon + 1;
            while (v < p + len && *v == ' ')
                v++;
            char *value = byoc_xstrndup(v, (size_t)(p + len - v));
            byoc_headers_add(h, name, value);
            free(name);
            free(value);
        }
        p += len + (nl ? 1 : 0);
    }
}

static void query_reply(const char *body, size_t len)
{
    byoc_aws_xml *doc = byoc_aws_xml_parse(body, len);
    if (!doc)
        return;
    byoc_aws_xml *root = byoc_aws_xml_root(doc);
    static const char *const paths[] = {"GetCallerIdentityResult/Arn", "AssumeRoleResult/Credentials/SecretAccessKey",
                                        "Error/Code", "ResponseMetadata/RequestId"};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
        free(byoc_aws_xml_text(root, paths[i]));
    byoc_aws_xml_find(root, "Credentials");
    byoc_aws_xml_child(root, "Error");
    byoc_aws_xml_free(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const long statuses[] = {400, 403, 404, 409, 429, 500, 503, 301, 307, 200, 413, 0};
    fuzz_in in = {data, size};
    long status = statuses[fuzz_byte(&in) % (sizeof statuses / sizeof *statuses)];
    const char *parts[2];
    size_t lens[2];
    size_t k = fuzz_split(in.p, in.n, parts, lens, 2);
    byoc_headers h = {0};
    const char *body = parts[0];
    size_t body_len = lens[0];
    if (k == 2) {
        parse_headers(parts[0], lens[0], &h);
        body = parts[1];
        body_len = lens[1];
    }
    byoc_err err;
    byoc_err_clear(&err);
    byoc_aws_error_from_response("braket", "GetJob", status, &h, body, body_len, "env", &err);
    FUZZ_ASSERT(err.kind != BYOC_OK);
    FUZZ_ASSERT(memchr(err.message, 0, sizeof err.message) != NULL);
    FUZZ_ASSERT(memchr(err.code, 0, sizeof err.code) != NULL);
    FUZZ_ASSERT(memchr(err.request_id, 0, sizeof err.request_id) != NULL);
    FUZZ_ASSERT(err.message[0] != '\0');
    byoc_aws_is_auth_error(err.code);
    char line[1200];
    byoc_err_format(&err, line, sizeof line);
    for (const unsigned char *c = (const unsigned char *)line; *c; c++)
        FUZZ_ASSERT(*c >= 0x20 && *c != 0x7F); /* printed as is: one line, no escape sequence */
    byoc_aws_header_request_id(&h);
    query_reply(body, body_len);
    byoc_headers_clear(&h);
    return 0;
}
