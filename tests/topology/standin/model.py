"""The Braket wire model for the stand-in, taken from botocore's service model.

Router      maps (HTTP method, raw path) to an operation using each operation's
            http.method and http.requestUri, and pulls the {labels} out of the path.
parse_input builds the operation's input from path labels, query string, headers
            and the JSON body, the way a REST-JSON service reads them.
validate    checks a value against a shape: required members, types, string length,
            number range, enums, patterns, list/map sizes, nested shapes, and members
            the model does not know. Messages follow the service's wording
            ("Value 'x' at 'jobName' failed to satisfy constraint: ...").

Patterns are matched against the whole value (as the service does), not searched.
"""

import json
import re
from urllib.parse import unquote

import botocore.session


class RequestError(Exception):
    """A client error found while reading the request (before the operation runs)."""

    def __init__(self, status, error_type, message):
        super().__init__(message)
        self.status = status
        self.error_type = error_type
        self.message = message


def load_service_model(name="braket"):
    return botocore.session.get_session().get_service_model(name)


class Router:
    def __init__(self, service_model):
        self._routes = []
        for name in service_model.operation_names:
            op = service_model.operation_model(name)
            uri = op.http["requestUri"]
            path_part = uri.split("?", 1)[0]
            regex, labels, literal = self._compile(path_part)
            self._routes.append((op.http["method"].upper(), regex, labels, literal, op))
        # Routes with more literal characters win, so /job/{jobArn}/cancel beats /job/{jobArn}.
        self._routes.sort(key=lambda r: -r[3])

    @staticmethod
    def _compile(path):
        regex, labels, literal = "", [], 0
        for piece in re.split(r"(\{[^}]+\})", path):
            if piece.startswith("{"):
                name = piece[1:-1]
                greedy = name.endswith("+")
                name = name.rstrip("+")
                labels.append(name)
                regex += "(.+)" if greedy else "([^/]+)"
            else:
                regex += re.escape(piece)
                literal += len(piece)
        return re.compile("^" + regex + "/?$"), labels, literal

    def match(self, method, raw_path):
        """(operation_model, {label: decoded value}) or None."""
        for route_method, regex, labels, _, op in self._routes:
            m = regex.match(raw_path)
            if m and route_method == method.upper():
                return op, {label: unquote(val) for label, val in zip(labels, m.groups())}
        return None


def _convert_scalar(shape, text, where):
    kind = shape.type_name
    if kind in ("integer", "long"):
        try:
            return int(text)
        except ValueError:
            raise RequestError(400, "ValidationException",
                               "1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: "
                               "Member must be an integer" % (text, where))
    if kind == "boolean":
        if text not in ("true", "false"):
            raise RequestError(400, "ValidationException",
                               "1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: "
                               "Member must be a boolean" % (text, where))
        return text == "true"
    if kind in ("float", "double"):
        try:
            return float(text)
        except ValueError:
            raise RequestError(400, "ValidationException",
                               "1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: "
                               "Member must be a number" % (text, where))
    return text


def parse_input(op, uri_params, query_pairs, headers, body):
    """The operation's input as a dict keyed by member name."""
    shape = op.input_shape
    params = {}
    if shape is None:
        return params
    body_members = {}
    for name, member in shape.members.items():
        loc = member.serialization.get("location")
        wire = member.serialization.get("name", name)
        if loc == "uri":
            if wire in uri_params:
                params[name] = _convert_scalar(member, uri_params[wire], name)
        elif loc == "querystring":
            values = [v for k, v in query_pairs if k == wire]
            if not values:
                continue
            if member.type_name == "list":
                params[name] = [_convert_scalar(member.member, v, name) for v in values]
            else:
                params[name] = _convert_scalar(member, values[0], name)
        elif loc == "header":
            for hname, hval in headers:
                if hname.lower() == wire.lower():
                    params[name] = _convert_scalar(member, hval, name)
        else:
            body_members[wire] = name

    if body.strip():
        try:
            doc = json.loads(body)
        except ValueError as exc:
            raise RequestError(400, "SerializationException", "Could not parse the request body as JSON: %s" % exc)
        if not isinstance(doc, dict):
            raise RequestError(400, "SerializationException", "The request body must be a JSON object")
    else:
        doc = {}
    for wire, value in doc.items():
        # Unknown body members are kept under their wire name so validate() reports them.
        params[body_members.get(wire, wire)] = value
    return params


def _show(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def _fail(errors, value, where, constraint):
    if value is None:
        errors.append("Value null at '%s' failed to satisfy constraint: %s" % (where, constraint))
    else:
        errors.append("Value '%s' at '%s' failed to satisfy constraint: %s" % (_show(value), where, constraint))


def _check_size(errors, shape, value, size, where, noun):
    low, high = shape.metadata.get("min"), shape.metadata.get("max")
    if low is not None and size < low:
        _fail(errors, value, where, "Member must have %s greater than or equal to %s" % (noun, low))
    if high is not None and size > high:
        _fail(errors, value, where, "Member must have %s less than or equal to %s" % (noun, high))


_pattern_cache = {}


def _pattern(text):
    if text not in _pattern_cache:
        try:
            _pattern_cache[text] = re.compile(text)
        except re.error:
            _pattern_cache[text] = None
    return _pattern_cache[text]


class Checked(dict):
    """A structure the service keeps and hands out again unchanged (a job summary): once it
    validated against a shape, validating it again against that shape is skipped. Whoever
    changes it must make a new one."""
    checked_shape = None


def validate(shape, value, where="", errors=None):
    """A list of error strings (empty when the value fits the shape)."""
    if errors is None:
        errors = []
    kind = shape.type_name
    if kind == "structure":
        if not isinstance(value, dict):
            _fail(errors, value, where or shape.name, "Member must be a structure")
            return errors
        if isinstance(value, Checked) and value.checked_shape is shape:
            return errors       # unchanged since it was checked against this very shape
        before = len(errors)
        for required in shape.required_members:
            if value.get(required) is None:
                _fail(errors, None, _join(where, required), "Member must not be null")
        for name, member_value in value.items():
            if name not in shape.members:
                _fail(errors, member_value, _join(where, name), "Member is not defined in the model")
                continue
            if member_value is None:
                continue
            validate(shape.members[name], member_value, _join(where, name), errors)
        if isinstance(value, Checked) and len(errors) == before:
            value.checked_shape = shape
    elif kind == "list":
        if not isinstance(value, list):
            _fail(errors, value, where, "Member must be a list")
            return errors
        _check_size(errors, shape, value, len(value), where, "length")
        for i, item in enumerate(value, 1):
            validate(shape.member, item, "%s.%d.member" % (where, i), errors)
    elif kind == "map":
        if not isinstance(value, dict):
            _fail(errors, value, where, "Member must be a map")
            return errors
        _check_size(errors, shape, value, len(value), where, "length")
        for key, item in value.items():
            key_errors = validate(shape.key, key, "key", [])
            if key_errors:
                _fail(errors, value, where, "Map keys must satisfy constraint: [%s]" % _constraints(key_errors))
            item_errors = validate(shape.value, item, "value", [])
            if item_errors:
                _fail(errors, value, where, "Map value must satisfy constraint: [%s]" % _constraints(item_errors))
    elif kind == "string":
        if not isinstance(value, str):
            _fail(errors, value, where, "Member must be a string")
            return errors
        if shape.enum and value not in shape.enum:
            _fail(errors, value, where, "Member must satisfy enum value set: [%s]" % ", ".join(shape.enum))
        _check_size(errors, shape, value, len(value), where, "length")
        pattern = shape.metadata.get("pattern")
        if pattern and _pattern(pattern) is not None and not _pattern(pattern).fullmatch(value):
            _fail(errors, value, where, "Member must satisfy regular expression pattern: %s" % pattern)
    elif kind in ("integer", "long"):
        if not isinstance(value, int) or isinstance(value, bool):
            _fail(errors, value, where, "Member must be an integer")
            return errors
        low, high = shape.metadata.get("min"), shape.metadata.get("max")
        if low is not None and value < low:
            _fail(errors, value, where, "Member must have value greater than or equal to %s" % low)
        if high is not None and value > high:
            _fail(errors, value, where, "Member must have value less than or equal to %s" % high)
    elif kind in ("float", "double"):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            _fail(errors, value, where, "Member must be a number")
    elif kind == "boolean":
        if not isinstance(value, bool):
            _fail(errors, value, where, "Member must be a boolean")
    elif kind == "timestamp":
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            _fail(errors, value, where, "Member must be a timestamp")
    elif kind == "blob":
        if not isinstance(value, str):
            _fail(errors, value, where, "Member must be a base64-encoded string")
    return errors


def _join(where, name):
    return "%s.%s" % (where, name) if where else name


def _constraints(errors):
    return ", ".join(e.split("failed to satisfy constraint: ", 1)[-1] for e in errors)


def summarize(errors):
    """The ValidationException message for a list of errors."""
    if len(errors) == 1:
        return "1 validation error detected: " + errors[0]
    return "%d validation errors detected: %s" % (len(errors), "; ".join(errors))
