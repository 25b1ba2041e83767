/* errors: a failed AWS reply read into a byoc_err that says what went wrong.
 *
 * Code from x-amzn-ErrorType / "__type" / "code" (a `ns#` prefix and a
 * `:suffix` stripped) or XML <Code>; message from "message"/"Message" or
 * <Message>; request id from x-amzn-RequestId, x-amz-request-id or
 * <RequestId>. Kinds: authentication failures (unknown key id, signature
 * mismatch, expired token, clock skew) are BYOC_E_ENV (exit 3: the
 * credentials, not the operation, need fixing); AccessDenied and every other
 * service error are BYOC_E_FAILED. Each message says what to do, and
 * err->code/http_status/request_id keep the service's words. Used by
 * request.h for every call, and by callers that see error bodies elsewhere. */
#ifndef BYOC_AWS_ERRORS_H
#define BYOC_AWS_ERRORS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/err.h"
#include "net/http.h"

/* Fill err from a failed exchange (status >= 300, or an S3 200 <Error>):
 * parses code, message and request id as described above. */
void byoc_aws_error_from_response(const char *service, const char *operation, long status,
                                  const byoc_headers *headers, const char *body, size_t body_len,
                                  const char *creds_origin, byoc_err *err);

/* The request id header of a reply (x-amzn-RequestId, x-amz-request-id), or NULL. */
const char *byoc_aws_header_request_id(const byoc_headers *h);

/* True for error codes that mean "these credentials are not accepted". */
bool byoc_aws_is_auth_error(const char *code);

/* Strip a "ns#" prefix and a ":suffix" from an error code, in place. */
void byoc_aws_clean_error_code(char *code);

#endif
