/* AWS error replies -> byoc_err: the code, message and request id wherever
 * the protocol puts them, and a message that says what to do (errors.h). */
#include "aws/errors.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "aws/xml.h"
#include "core/utf8.h"

void byoc_aws_clean_error_code(char *code)
{
    char *colon = strchr(code, ':');
    if (colon)
        *colon = '\0';
    char *hash = strrchr(code, '#');
    if (hash)
        memmove(code, hash + 1, strlen(hash + 1) + 1);
}

typedef struct {
    char code[96];
    char message[512];
    char request_id[96];
} parsed_error;

static void copy_str(char *dst, size_t n, const char *src)
{
    byoc_utf8_copy(dst, n, src);
}

static void parse_json_error(const char *body, size_t len, parsed_error *pe)
{
    json_t *j = json_loadb(body, len, 0, NULL);
    if (!json_is_object(j)) {
        json_decref(j);
        return;
    }
    static const char *const code_keys[] = {"__type", "code", "Code"};
    static const char *const msg_keys[] = {"message", "Message", "errorMessage"};
    for (size_t i = 0; i < 3 && !pe->code[0]; i++)
        copy_str(pe->code, sizeof pe->code, json_string_value(json_object_get(j, code_keys[i])));
    for (size_t i = 0; i < 3 && !pe->message[0]; i++)
        copy_str(pe->message, sizeof pe->message, json_string_value(json_object_get(j, msg_keys[i])));
    json_decref(j);
}

static void parse_xml_error(const char *body, size_t len, parsed_error *pe)
{
    byoc_aws_xml *doc = byoc_aws_xml_parse(body, len);
    if (!doc)
        return;
    byoc_aws_xml *root = byoc_aws_xml_root(doc);
    byoc_aws_xml *error = root && strcmp(root->name, "Error") == 0 ? root : byoc_aws_xml_find(root, "Error");
    if (error) {
        char *code = byoc_aws_xml_text(error, "Code");
        char *msg = byoc_aws_xml_text(error, "Message");
        if (!pe->code[0])
            copy_str(pe->code, sizeof pe->code, code);
        copy_str(pe->message, sizeof pe->message, msg);
        free(code);
        free(msg);
    }
    if (!pe->request_id[0]) {
        byoc_aws_xml *rid = byoc_aws_xml_find(root, "RequestId");
        if (!rid)
            rid = byoc_aws_xml_find(root, "RequestID");
        if (rid) {
            char *t = byoc_aws_xml_content(rid);
            copy_str(pe->request_id, sizeof pe->request_id, t);
            free(t);
        }
    }
    byoc_aws_xml_free(doc);
}

static const char *skip_ws(const char *s, const char *end)
{
    while (s < end && isspace((unsigned char)*s))
        s++;
    return s;
}

const char *byoc_aws_header_request_id(const byoc_headers *h)
{
    static const char *const names[] = {"x-amzn-RequestId", "x-amz-request-id", "x-amzn-request-id"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const char *v = byoc_headers_get(h, names[i]);
        if (v && *v)
            return v;
    }
    return NULL;
}

static void parse_error(const byoc_headers *h, const char *body, size_t len, parsed_error *pe)
{
    memset(pe, 0, sizeof *pe);
    copy_str(pe->request_id, sizeof pe->request_id, byoc_aws_header_request_id(h));
    copy_str(pe->code, sizeof pe->code, byoc_headers_get(h, "x-amzn-ErrorType"));
    const char *start = body ? skip_ws(body, body + len) : NULL;
    if (start && start < body + len) {
        /* By content, not by protocol: moto answers JSON services' auth
         * failures with an XML body. */
        if (*start == '{')
            parse_json_error(body, len, pe);
        else if (*start == '<')
            parse_xml_error(body, len, pe);
    }
    byoc_aws_clean_error_code(pe->code);
    for (char *p = pe->message; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
}

static const char *status_text(long status)
{
    switch (status) {
    case 301: return "Moved Permanently";
    case 307: return "Temporary Redirect";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 412: return "Precondition Failed";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "";
    }
}

static bool code_in(const char *code, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(code, *list) == 0)
            return true;
    return false;
}

static const char *const KEY_ID_CODES[] = {"InvalidClientTokenId", "UnrecognizedClientException",
                                           "InvalidAccessKeyId", "AuthFailure", NULL};
static const char *const SIGNATURE_CODES[] = {"SignatureDoesNotMatch", "InvalidSignatureException",
                                              "IncompleteSignature", "IncompleteSignatureException",
                                              "AuthorizationHeaderMalformed", NULL};
static const char *const EXPIRED_CODES[] = {"ExpiredToken", "ExpiredTokenException", "RequestExpired",
                                            "TokenRefreshRequired", "InvalidToken", NULL};
static const char *const CLOCK_CODES[] = {"RequestTimeTooSkewed", "RequestInTheFuture", "SignatureExpired", NULL};
static const char *const UNSIGNED_CODES[] = {"MissingAuthenticationToken", "MissingAuthenticationTokenException",
                                             "MissingSecurityHeader", NULL};
static const char *const DENIED_CODES[] = {"AccessDenied", "AccessDeniedException", "UnauthorizedOperation",
                                           "UnauthorizedException", NULL};

bool byoc_aws_is_auth_error(const char *code)
{
    return code && (code_in(code, KEY_ID_CODES) || code_in(code, SIGNATURE_CODES) ||
                    code_in(code, EXPIRED_CODES) || code_in(code, CLOCK_CODES) || code_in(code, UNSIGNED_CODES));
}

static void fill_error(const char *service, const char *operation, long status, const parsed_error *pe,
                       const byoc_headers *h, const char *creds_origin, byoc_err *err)
{
    const char *code = pe->code;
    const char *msg = pe->message[0] ? pe->message : status_text(status);
    char from[160] = "";
    if (creds_origin && *creds_origin)
        snprintf(from, sizeof from, " (credentials from %s)", creds_origin);
    const char *op = operation && *operation ? operation : "request";
    bool clock_hint = strstr(msg, "expired") || strstr(msg, "Signature expired") || strstr(msg, "too skewed");
    byoc_err_kind kind = BYOC_E_FAILED;
    char hint[400] = "";

    if (code_in(code, KEY_ID_CODES)) {
        kind = BYOC_E_ENV;
        snprintf(hint, sizeof hint, "the access key id is not valid%s; check AWS_ACCESS_KEY_ID or the profile", from);
    } else if (code_in(code, SIGNATURE_CODES) && clock_hint) {
        kind = BYOC_E_ENV;
        snprintf(hint, sizeof hint, "the request signature has expired: check the system clock");
    } else if (code_in(code, SIGNATURE_CODES)) {
        kind = BYOC_E_ENV;
        snprintf(hint, sizeof hint,
                 "the request signature was rejected: the secret access key does not match the access key id%s",
                 from);
    } else if (code_in(code, EXPIRED_CODES)) {
        kind = BYOC_E_ENV;
        snprintf(hint, sizeof hint, "the session token has expired or is invalid%s; refresh the credentials", from);
    } else if (code_in(code, CLOCK_CODES)) {
        kind = BYOC_E_ENV;
        snprintf(hint, sizeof hint, "the system clock is too far from AWS time; fix the clock");
    } else if (code_in(code, UNSIGNED_CODES)) {
        kind = BYOC_E_ENV;
        snprintf(hint, sizeof hint, "the request carried no valid signature%s", from);
    } else if (code_in(code, DENIED_CODES)) {
        snprintf(hint, sizeof hint, "access denied: the identity%s lacks permission for %s:%s", from,
                 service ? service : "aws", op);
    } else if (status == 301 || status == 307) {
        const char *where = byoc_headers_get(h, "x-amz-bucket-region");
        if (where)
            snprintf(hint, sizeof hint, "the bucket is in region %s", where);
    }
    if (hint[0] && msg[0])
        byoc_err_set(err, kind, service, "%s: %s: %s", op, hint, msg);
    else if (hint[0])
        byoc_err_set(err, kind, service, "%s: %s", op, hint);
    else if (msg[0])
        byoc_err_set(err, kind, service, "%s failed: %s", op, msg);
    else
        byoc_err_set(err, kind, service, "%s failed with HTTP status %ld", op, status);
    err->http_status = (int)status;
    if (code[0])
        copy_str(err->code, sizeof err->code, code);
    else if (status >= 300)
        snprintf(err->code, sizeof err->code, "%ld", status);
    copy_str(err->request_id, sizeof err->request_id, pe->request_id);
}

void byoc_aws_error_from_response(const char *service, const char *operation, long status,
                                  const byoc_headers *headers, const char *body, size_t body_len,
                                  const char *creds_origin, byoc_err *err)
{
    parsed_error pe;
    parse_error(headers, body, body_len, &pe);
    fill_error(service, operation, status, &pe, headers, creds_origin, err);
}

