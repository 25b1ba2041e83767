"""SigV4 verification for the Braket stand-in.

The server side of AWS Signature Version 4: it parses the Authorization header,
rebuilds the canonical request from what actually arrived on the wire (raw path,
decoded-then-re-encoded query, the headers the client listed as signed, the SHA-256
of the received body) and recomputes the signature with botocore's own signer
(botocore.auth.SigV4Auth), the way the real service checks it.

verify(...) returns an AuthResult (access key, region, service) or raises AuthError
carrying the HTTP status, error type and message the real service would send.
"""

import datetime
import hashlib
import hmac
from urllib.parse import unquote

from botocore.auth import SigV4Auth, SIGV4_TIMESTAMP
from botocore.awsrequest import AWSRequest, HTTPHeaders
from botocore.credentials import Credentials

ALGORITHM = "AWS4-HMAC-SHA256"


class AuthError(Exception):
    def __init__(self, status, error_type, message):
        super().__init__(message)
        self.status = status
        self.error_type = error_type
        self.message = message


class AuthResult:
    def __init__(self, access_key, region, service, date):
        self.access_key = access_key
        self.region = region
        self.service = service
        self.date = date


def _parse_authorization(value):
    if not value.startswith(ALGORITHM + " "):
        raise AuthError(400, "IncompleteSignatureException",
                        "Authorization header requires '%s' algorithm." % ALGORITHM)
    fields = {}
    for part in value[len(ALGORITHM) + 1:].split(","):
        key, sep, val = part.strip().partition("=")
        if sep:
            fields[key] = val
    missing = [k for k in ("Credential", "SignedHeaders", "Signature") if k not in fields]
    if missing:
        raise AuthError(400, "IncompleteSignatureException",
                        "Authorization header requires '%s' parameter." % missing[0])
    scope = fields["Credential"].split("/")
    if len(scope) != 5 or scope[4] != "aws4_request":
        raise AuthError(400, "IncompleteSignatureException",
                        "Credential should be scoped to a valid region, not '%s'." % fields["Credential"])
    signed = [h for h in fields["SignedHeaders"].split(";") if h]
    return scope, signed, fields["Signature"]


def _canonical_query_pairs(raw_query):
    """Decoded (key, value) pairs; the signer re-encodes them per RFC 3986."""
    pairs = []
    if raw_query:
        for item in raw_query.split("&"):
            if not item:
                continue
            key, _, val = item.partition("=")
            pairs.append((unquote(key), unquote(val)))
    return pairs


def _parse_amz_date(value):
    try:
        return datetime.datetime.strptime(value, SIGV4_TIMESTAMP).replace(tzinfo=datetime.timezone.utc)
    except ValueError:
        return None


def verify(method, raw_path, raw_query, headers, body, secrets, expected_service,
           max_skew_seconds=900, now=None):
    """Check one request. headers: list of (name, value) as received.
    secrets: callable(access_key) -> (secret_key, session_token or None) or None."""
    by_name = HTTPHeaders()
    for name, value in headers:
        by_name[name.lower()] = value

    authorization = by_name.get("authorization")
    if not authorization:
        raise AuthError(403, "MissingAuthenticationTokenException", "Missing Authentication Token")
    scope, signed_headers, signature = _parse_authorization(authorization)
    access_key, scope_date, region, service, _ = scope

    if service != expected_service:
        raise AuthError(403, "InvalidSignatureException",
                        "Credential should be scoped to correct service: '%s'." % expected_service)
    if "host" not in signed_headers:
        raise AuthError(403, "InvalidSignatureException",
                        "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.")

    amz_date = by_name.get("x-amz-date")
    when = _parse_amz_date(amz_date) if amz_date else None
    if when is None:
        raise AuthError(400, "IncompleteSignatureException",
                        "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.")
    if scope_date != amz_date[:8]:
        raise AuthError(403, "InvalidSignatureException",
                        "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: "
                        "'%s' != '%s', from '%s'." % (scope_date, amz_date[:8], amz_date))
    now = now or datetime.datetime.now(datetime.timezone.utc)
    if abs((now - when).total_seconds()) > max_skew_seconds:
        raise AuthError(403, "InvalidSignatureException",
                        "Signature expired: %s is now earlier than %s (%s - 5 min.)"
                        % (amz_date, (now - datetime.timedelta(seconds=max_skew_seconds)).strftime(SIGV4_TIMESTAMP),
                           now.strftime(SIGV4_TIMESTAMP)))

    known = secrets(access_key)
    if known is None:
        raise AuthError(403, "UnrecognizedClientException", "The security token included in the request is invalid.")
    secret_key, session_token = known
    sent_token = by_name.get("x-amz-security-token")
    if session_token is not None and sent_token != session_token:
        raise AuthError(403, "UnrecognizedClientException", "The security token included in the request is invalid.")
    if session_token is None and sent_token is not None:
        raise AuthError(403, "UnrecognizedClientException", "The security token included in the request is invalid.")

    signing_headers = HTTPHeaders()
    for name in signed_headers:
        values = by_name.get_all(name)
        if not values:
            raise AuthError(403, "InvalidSignatureException",
                            "The request signature we calculated does not match the signature you provided. "
                            "Signed header '%s' is missing from the request." % name)
        for v in values:
            signing_headers[name] = v

    signer = SigV4Auth(Credentials(access_key, secret_key, session_token), service, region)
    request = AWSRequest(method=method, url="http://" + (by_name.get("host") or "localhost") + raw_path,
                         data=body)
    request.context["timestamp"] = amz_date
    canonical = "\n".join([
        method.upper(),
        signer._normalize_url_path(raw_path),
        signer._canonical_query_string_params(_canonical_query_pairs(raw_query)),
        signer.canonical_headers(signing_headers) + "\n",
        signer.signed_headers(signing_headers),
        hashlib.sha256(body or b"").hexdigest(),
    ])
    string_to_sign = signer.string_to_sign(request, canonical)
    expected = signer.signature(string_to_sign, request)
    if not hmac.compare_digest(expected, signature):
        raise AuthError(403, "InvalidSignatureException",
                        "The request signature we calculated does not match the signature you provided. "
                        "Check your AWS Secret Access Key and signing method. Consult the service documentation "
                        "for details.\n\nThe Canonical String for this request should have been\n'%s'\n\n"
                        "The String-to-Sign should have been\n'%s'\n" % (canonical, string_to_sign))
    return AuthResult(access_key, region, service, scope_date)
