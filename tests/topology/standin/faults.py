"""Fault injection for the Braket stand-in (used by reliability tests).

A fault is a dict posted to /_standin/faults:
  count         how many matching requests it hits (default 1)
  operation     only requests for this Braket operation (default: any)
  action        "error"      answer with status/error instead of running the operation (default)
                "drop"       close the connection (TCP reset) without answering; nothing runs
                "drop_after" run the operation (state changes), then reset the connection unanswered
                "delay"      wait delay_seconds, then answer normally
  status        HTTP status for "error" (default 500)
  error         x-amzn-ErrorType (default from status: 429 ThrottlingException, 500 InternalServiceException, ...)
  message       error message (default generic)
  retry_after   value for a Retry-After header
  body          raw response body instead of the JSON error (e.g. an HTML page from a proxy)
  content_type  Content-Type for body (default text/html)
  delay_seconds wait this long before acting (any action)
Faults are tried in the order posted; the first that matches is used and its count drops.
"""

import threading

ERROR_FOR_STATUS = {
    400: "ValidationException", 402: "ServiceQuotaExceededException", 403: "AccessDeniedException",
    404: "ResourceNotFoundException", 409: "ConflictException", 410: "DeviceRetiredException",
    424: "DeviceOfflineException", 429: "ThrottlingException", 500: "InternalServiceException",
    503: "ServiceUnavailableException",
}

ACTIONS = ("error", "drop", "drop_after", "delay")


class FaultError(ValueError):
    pass


def normalize(spec):
    if not isinstance(spec, dict):
        raise FaultError("a fault must be a JSON object")
    known = {"count", "operation", "action", "status", "error", "message", "retry_after", "body",
             "content_type", "delay_seconds"}
    unknown = set(spec) - known
    if unknown:
        raise FaultError("unknown fault keys: %s" % ", ".join(sorted(unknown)))
    fault = dict(spec)
    fault.setdefault("count", 1)
    fault.setdefault("action", "error")
    if fault["action"] not in ACTIONS:
        raise FaultError("action must be one of %s" % ", ".join(ACTIONS))
    if not isinstance(fault["count"], int) or fault["count"] < 1:
        raise FaultError("count must be an integer >= 1")
    status = fault.setdefault("status", 500)
    if not isinstance(status, int) or not 100 <= status <= 599:
        raise FaultError("status must be an HTTP status code")
    fault.setdefault("error", ERROR_FOR_STATUS.get(status, "InternalServiceException"))
    fault.setdefault("message", "Injected fault: %s." % fault["error"])
    fault.setdefault("delay_seconds", 0)
    fault["hits"] = 0
    return fault


class FaultQueue:
    def __init__(self):
        self._lock = threading.Lock()
        self._faults = []

    def add(self, specs):
        faults = [normalize(s) for s in specs]
        with self._lock:
            self._faults.extend(faults)
            return list(self._faults)

    def clear(self):
        with self._lock:
            self._faults = []

    def list(self):
        with self._lock:
            return [dict(f) for f in self._faults]

    def take(self, operation):
        """The fault to apply to one request for `operation`, or None."""
        with self._lock:
            for fault in self._faults:
                if fault.get("operation") in (None, "*", operation):
                    fault["count"] -= 1
                    fault["hits"] += 1
                    if fault["count"] == 0:
                        self._faults.remove(fault)
                    return dict(fault)
        return None
