"""The Braket operations the stand-in serves, over in-memory state.

Jobs move QUEUED -> RUNNING -> COMPLETED (or FAILED / MAX_RUNTIME_EXCEEDED) on a clock
whose phase lengths live in the config; CancelJob moves them CANCELLING -> CANCELLED.
Jobs are advanced lazily, whenever someone looks, with the transition stamped at the
time it was due, so timestamps do not depend on when the client polls.

Served: CreateJob, GetJob, CancelJob, SearchJobs, GetDevice, SearchDevices,
ListTagsForResource, TagResource, UntagResource. Other Braket operations are
answered with 404 UnknownOperationException by server.py.

Every method takes (params, ctx) and returns (http_status, body dict) or raises
ServiceError. All calls happen under Service.lock.
"""

import base64
import bisect
import datetime
import hashlib
import json
import threading
import time
import uuid

from . import devices as device_catalog
from . import model

TERMINAL = ("COMPLETED", "FAILED", "CANCELLED")

DEFAULT_CONFIG = {
    "auto_advance": True,       # jobs move on their own; false = only set-status moves them
    "queued_seconds": 1.0,      # time spent QUEUED
    "running_seconds": 2.0,     # time spent RUNNING (capped by the job's maxRuntimeInSeconds)
    "cancelling_seconds": 1.0,  # time spent CANCELLING
    "final_status": "COMPLETED",  # or FAILED
    "failure_reason": "AlgorithmError: the algorithm script exited with code 1",
    "arn_style": "uuid",        # "uuid": job/<uuid>; "name": legacy job/<jobName>
    "default_max_results": 20,  # SearchJobs/SearchDevices page size when maxResults is absent
    "max_active_jobs": None,    # QUEUED+RUNNING+CANCELLING limit per region; beyond it ServiceQuotaExceeded
    "max_clock_skew_seconds": 900,
}

_EVENT_TEXT = {
    "WAITING_FOR_PRIORITY": "Waiting for priority access to the device.",
    "QUEUED_FOR_EXECUTION": "Job queued for execution.",
    "STARTING_INSTANCE": "Provisioning job instance(s).",
    "DOWNLOADING_DATA": "Downloading input data and the source module.",
    "RUNNING": "Job is running.",
    "UPLOADING_RESULTS": "Uploading results to the output location.",
    "COMPLETED": "Job completed.",
    "FAILED": "Job failed.",
    "MAX_RUNTIME_EXCEEDED": "Job ran longer than stoppingCondition.maxRuntimeInSeconds.",
    "CANCELLED": "Job was cancelled.",
}


class ServiceError(Exception):
    def __init__(self, status, error_type, message):
        super().__init__(message)
        self.status = status
        self.error_type = error_type
        self.message = message


def iso(ts):
    return datetime.datetime.fromtimestamp(ts, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def _parse_time(text):
    try:
        return float(text)
    except ValueError:
        pass
    try:
        return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


class Job:
    def __init__(self, seq, arn, region, params, now):
        self.seq = seq
        self.arn = arn
        self.region = region
        self.params = params
        self.name = params["jobName"]
        self.client_token = params["clientToken"]
        self.fingerprint = _fingerprint(params)
        self.tags = dict(params.get("tags") or {})
        self.created = now
        self.started = None
        self.ended = None
        self.status = "QUEUED"
        self.status_since = now
        self.failure_reason = None
        self.pinned = False
        self.events = []
        self.summary = None       # (state key, model.Checked summary) for SearchJobs

    def event(self, kind, when, message=None):
        self.events.append({"eventType": kind, "timeOfEvent": when, "message": message or _EVENT_TEXT[kind]})
        del self.events[:-20]

    def enter(self, status, when):
        self.status = status
        self.status_since = when


def _millis(ts):
    """Timestamps go out with millisecond precision; keep them so, so filters compare what clients saw."""
    return int(ts * 1000) / 1000.0


def _fingerprint(params):
    return hashlib.sha256(json.dumps(params, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class Service:
    def __init__(self, account):
        self.lock = threading.RLock()
        self.account = account
        self.reset()

    def reset(self):
        self.config = dict(DEFAULT_CONFIG)
        self.jobs = {}            # arn -> Job
        self.by_token = {}        # (region, clientToken) -> Job
        self.by_name = {}         # (region, jobName) -> Job
        self.ordered = []         # every Job, oldest first (seq ascending): SearchJobs pages walk it
        self.seqs = []            # their seq numbers, for bisect
        self.live = {}            # arn -> Job not in a terminal state: the only ones the clock moves
        self.next_seq = 1
        self.devices = device_catalog.default_devices()

    # ---- configuration and control -------------------------------------------------

    def update_config(self, changes):
        unknown = [k for k in changes if k not in DEFAULT_CONFIG and k != "advance_seconds"]
        if unknown:
            raise ServiceError(400, "ValidationException", "unknown config keys: %s" % ", ".join(unknown))
        if "advance_seconds" in changes:
            step = float(changes.pop("advance_seconds"))
            for key in ("queued_seconds", "running_seconds", "cancelling_seconds"):
                changes.setdefault(key, step)
        for key, value in changes.items():
            if key.endswith("_seconds") and (isinstance(value, bool) or not isinstance(value, (int, float))
                                             or value < 0):
                raise ServiceError(400, "ValidationException", "%s must be a number >= 0" % key)
            if key in ("max_active_jobs", "default_max_results") and value is not None and (
                    isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ServiceError(400, "ValidationException", "%s must be an integer >= 1 (or null)" % key)
            if key == "auto_advance" and not isinstance(value, bool):
                raise ServiceError(400, "ValidationException", "auto_advance must be true or false")
        if changes.get("default_max_results", 1) is None:
            raise ServiceError(400, "ValidationException", "default_max_results cannot be null")
        if changes.get("final_status", "COMPLETED") not in ("COMPLETED", "FAILED"):
            raise ServiceError(400, "ValidationException", "final_status must be COMPLETED or FAILED")
        if changes.get("arn_style", "uuid") not in ("uuid", "name"):
            raise ServiceError(400, "ValidationException", "arn_style must be uuid or name")
        now = _millis(time.time())
        if changes.get("auto_advance") and not self.config["auto_advance"]:
            for job in self.jobs.values():
                job.status_since = now
        if not changes.get("auto_advance", True):
            self.advance_all(now)
        self.config.update(changes)
        return dict(self.config)

    def find_job(self, ident):
        job = self.jobs.get(ident)
        if job is None:
            matches = [j for j in self.jobs.values() if j.name == ident]
            job = matches[-1] if matches else None
        return job

    def set_status(self, job, status, failure_reason=None, pin=True):
        """Move a job to `status` now, adding the events of the skipped phases. A pinned job
        stays where it is put; pin=False lets the clock move it on from there."""
        if status not in ("QUEUED", "RUNNING", "COMPLETED", "FAILED", "CANCELLING", "CANCELLED"):
            raise ServiceError(400, "ValidationException", "unknown job status %r" % status)
        now = _millis(time.time())
        self._advance(job, now)
        if status == job.status:
            pass
        elif status == "QUEUED":
            job.enter("QUEUED", now)
        elif status == "RUNNING":
            if job.started is None:
                self._start(job, now)
            else:
                job.enter("RUNNING", now)
        elif status in ("COMPLETED", "FAILED"):
            if job.started is None:
                self._start(job, now)
            reason = (failure_reason or self.config["failure_reason"]) if status == "FAILED" else None
            self._finish(job, now, status, reason)
        elif status == "CANCELLING":
            job.enter("CANCELLING", now)
        else:
            job.ended = now
            job.event("CANCELLED", iso(now))
            job.enter("CANCELLED", now)
        job.pinned = bool(pin)
        self._track(job)
        return self.dump_job(job)

    def _track(self, job):
        if job.status in TERMINAL:
            self.live.pop(job.arn, None)
        else:
            self.live[job.arn] = job

    def dump_job(self, job):
        out = self._job_view(job, queue_info=True)
        out.update({"clientToken": job.client_token, "pinned": job.pinned, "region": job.region})
        return out

    # ---- the clock -----------------------------------------------------------------

    def advance_all(self, now=None):
        now = now or time.time()
        for job in list(self.live.values()):
            self._advance(job, now)
            self._track(job)

    def _start(self, job, when):
        t = iso(when)
        for kind in ("STARTING_INSTANCE", "DOWNLOADING_DATA", "RUNNING"):
            job.event(kind, t)
        job.started = when
        job.enter("RUNNING", when)

    def _finish(self, job, when, status, reason=None, max_runtime=False):
        t = iso(when)
        if max_runtime:
            job.event("MAX_RUNTIME_EXCEEDED", t)
        elif status == "COMPLETED":
            job.event("UPLOADING_RESULTS", t)
        job.event(status, t, reason)
        if status == "FAILED":
            job.failure_reason = reason
        job.ended = when
        job.enter(status, when)

    def _advance(self, job, now):
        cfg = self.config
        if job.pinned or not cfg["auto_advance"]:
            return
        while True:
            since = job.status_since
            if job.status == "QUEUED" and now >= since + cfg["queued_seconds"]:
                self._start(job, since + cfg["queued_seconds"])
            elif job.status == "RUNNING":
                limit = (job.params.get("stoppingCondition") or {}).get("maxRuntimeInSeconds")
                if limit is not None and limit < cfg["running_seconds"]:
                    if now < since + limit:
                        return
                    self._finish(job, since + limit, "FAILED",
                                 "MaxRuntimeExceeded: Job ran longer than %d seconds." % limit, max_runtime=True)
                elif now >= since + cfg["running_seconds"]:
                    end = since + cfg["running_seconds"]
                    if cfg["final_status"] == "FAILED":
                        self._finish(job, end, "FAILED", cfg["failure_reason"])
                    else:
                        self._finish(job, end, "COMPLETED")
                else:
                    return
            elif job.status == "CANCELLING" and now >= since + cfg["cancelling_seconds"]:
                end = since + cfg["cancelling_seconds"]
                job.ended = end
                job.event("CANCELLED", iso(end))
                job.enter("CANCELLED", end)
            else:
                return

    # ---- views ---------------------------------------------------------------------

    def _queue_position(self, job):
        ahead = [j for j in self.jobs.values()
                 if j.region == job.region and j.status == "QUEUED" and j.seq < job.seq]
        position = len(ahead) + 1
        return str(position) if position <= 15 else ">15"

    def _job_view(self, job, queue_info=False):
        p = job.params
        out = {
            "jobArn": job.arn,
            "jobName": job.name,
            "status": job.status,
            "createdAt": iso(job.created),
            "roleArn": p["roleArn"],
            "algorithmSpecification": p["algorithmSpecification"],
            "instanceConfig": dict({"instanceCount": 1}, **p["instanceConfig"]),
            "outputDataConfig": p["outputDataConfig"],
            "stoppingCondition": p.get("stoppingCondition") or {"maxRuntimeInSeconds": 432000},
            "deviceConfig": p["deviceConfig"],
            "events": list(job.events),
        }
        for key in ("hyperParameters", "inputDataConfig", "checkpointConfig", "associations"):
            if p.get(key) is not None:
                out[key] = p[key]
        if job.tags:
            out["tags"] = dict(job.tags)
        if job.started is not None:
            out["startedAt"] = iso(job.started)
        if job.ended is not None:
            out["endedAt"] = iso(job.ended)
            if job.started is not None:
                out["billableDuration"] = int((job.ended - job.started) * 1000)
        if job.failure_reason:
            out["failureReason"] = job.failure_reason[:1024]
        if queue_info and job.status == "QUEUED":
            out["queueInfo"] = {"queue": "JOBS_QUEUE", "position": self._queue_position(job)}
            if job.params["deviceConfig"]["device"].startswith("arn:aws:braket:") and "/qpu/" in \
                    job.params["deviceConfig"]["device"]:
                out["queueInfo"]["message"] = "Hybrid jobs for QPUs run in the order the device grants priority."
        return out

    def _summary(self, job):
        # SearchJobs hands out the same summary until the job changes (a new one then), so
        # pages cost no timestamp formatting and the server's output check skips it (Checked)
        key = (job.status, job.started, job.ended, tuple(sorted(job.tags.items())))
        cached = job.summary
        if cached is not None and cached[0] == key:
            return cached[1]
        out = model.Checked(jobArn=job.arn, jobName=job.name, status=job.status,
                            device=job.params["deviceConfig"]["device"], createdAt=iso(job.created))
        if job.started is not None:
            out["startedAt"] = iso(job.started)
        if job.ended is not None:
            out["endedAt"] = iso(job.ended)
        if job.tags:
            out["tags"] = dict(job.tags)
        job.summary = (key, out)
        return out

    def _job_for(self, arn, ctx):
        job = self.jobs.get(arn)
        if job is None or job.region != ctx["region"]:
            raise ServiceError(404, "ResourceNotFoundException", "Job %s not found." % arn)
        self._advance(job, time.time())
        return job

    # ---- operations ----------------------------------------------------------------

    def CreateJob(self, params, ctx):
        region = ctx["region"]
        known = self.by_token.get((region, params["clientToken"]))
        if known is not None:
            if known.fingerprint == _fingerprint(params):
                return 201, {"jobArn": known.arn}
            raise ServiceError(409, "ConflictException",
                               "The clientToken %s was already used with different parameters."
                               % params["clientToken"])
        device = params["deviceConfig"]["device"]
        self._check_device(device)
        now = _millis(time.time())
        self.advance_all(now)
        if (region, params["jobName"]) in self.by_name:
            raise ServiceError(409, "ConflictException",
                               "A job with the name %s already exists." % params["jobName"])
        limit = self.config["max_active_jobs"]
        if limit is not None:
            active = [j for j in self.live.values() if j.region == region and j.status not in TERMINAL]
            if len(active) >= limit:
                raise ServiceError(402, "ServiceQuotaExceededException",
                                   "You have reached the limit of %d concurrent hybrid jobs." % limit)
        suffix = params["jobName"] if self.config["arn_style"] == "name" else str(uuid.uuid4())
        arn = "arn:aws:braket:%s:%s:job/%s" % (region, self.account, suffix)
        job = Job(self.next_seq, arn, region, params, now)
        self.next_seq += 1
        if "/qpu/" in device:
            job.event("WAITING_FOR_PRIORITY", iso(now))
        job.event("QUEUED_FOR_EXECUTION", iso(now))
        self.jobs[arn] = job
        self.by_token[(region, params["clientToken"])] = job
        self.by_name[(region, job.name)] = job
        self.ordered.append(job)
        self.seqs.append(job.seq)
        self._track(job)
        return 201, {"jobArn": arn}

    def _check_device(self, device):
        if device.startswith("local:"):
            return
        known = self.devices.get(device)
        if known is None:
            raise ServiceError(400, "ValidationException",
                               "1 validation error detected: Value '%s' at 'deviceConfig.device' failed to satisfy "
                               "constraint: Member must name an existing device or a local: simulator" % device)
        if known["deviceStatus"] == "RETIRED":
            raise ServiceError(410, "DeviceRetiredException", "Device %s is retired." % device)

    def GetJob(self, params, ctx):
        job = self._job_for(params["jobArn"], ctx)
        return 200, self._job_view(job, "QueueInfo" in (params.get("additionalAttributeNames") or []))

    def CancelJob(self, params, ctx):
        job = self._job_for(params["jobArn"], ctx)
        if job.status in ("COMPLETED", "FAILED"):
            raise ServiceError(409, "ConflictException",
                               "Job %s is already in the terminal state %s and cannot be cancelled."
                               % (job.arn, job.status))
        if job.status in ("QUEUED", "RUNNING"):
            job.pinned = False
            job.enter("CANCELLING", _millis(time.time()))
        return 200, {"jobArn": job.arn, "cancellationStatus": "CANCELLED" if job.status == "CANCELLED"
                     else "CANCELLING"}

    def _job_matches(self, job, flt):
        name, op, values = flt["name"], flt["operator"], flt["values"]
        if name == "createdAt":
            bounds = [_parse_time(v) for v in values]
            if None in bounds:
                raise ServiceError(400, "ValidationException",
                                   "Filter createdAt needs ISO-8601 timestamps or epoch seconds as values.")
            t = job.created
            if op == "BETWEEN":
                if len(bounds) != 2:
                    raise ServiceError(400, "ValidationException", "Operator BETWEEN needs exactly 2 values.")
                return bounds[0] <= t <= bounds[1]
            checks = {"LT": lambda b: t < b, "LTE": lambda b: t <= b, "GT": lambda b: t > b,
                      "GTE": lambda b: t >= b, "EQUAL": lambda b: int(t) == int(b)}
            if op not in checks:
                raise ServiceError(400, "ValidationException", "Operator %s is not valid for createdAt." % op)
            return any(checks[op](b) for b in bounds)
        field = {"jobArn": job.arn, "jobName": job.name, "status": job.status,
                 "device": job.params["deviceConfig"]["device"]}.get(name)
        if op == "EQUAL":
            return field in values
        if op == "CONTAINS":
            return any(v in field for v in values)
        raise ServiceError(400, "ValidationException", "Operator %s is not valid for %s." % (op, name))

    def SearchJobs(self, params, ctx):
        filters = params["filters"]
        for flt in filters:
            if flt["name"] not in ("jobArn", "jobName", "status", "device", "createdAt"):
                raise ServiceError(400, "ValidationException",
                                   "Filter name '%s' is not supported; use jobArn, jobName, status, device or "
                                   "createdAt." % flt["name"])
        self.advance_all()
        query = _fingerprint(filters)
        before = _read_token(params.get("nextToken"), query)
        size = params.get("maxResults") or self.config["default_max_results"]
        # newest first from the token's position: walk the seq-ordered index down, stopping
        # once a page and one more match are found (one more says whether a next page exists)
        end = len(self.ordered) if before is None else bisect.bisect_left(self.seqs, before)
        region = ctx["region"]
        picked = []
        for i in range(end - 1, -1, -1):
            j = self.ordered[i]
            if j.region == region and all(self._job_matches(j, f) for f in filters):
                picked.append(j)
                if len(picked) > size:
                    break
        page = picked[:size]
        out = {"jobs": [self._summary(j) for j in page]}
        if len(picked) > size:
            out["nextToken"] = _make_token(page[-1].seq, query)
        return 200, out

    def _device(self, arn):
        device = self.devices.get(arn)
        if device is None:
            raise ServiceError(404, "ResourceNotFoundException", "Braket device %s not found." % arn)
        return device

    def GetDevice(self, params, ctx):
        device = self._device(params["deviceArn"])
        out = device_catalog.summary(device)
        out["deviceCapabilities"] = device_catalog.capabilities_json(device)
        queued = sum(1 for j in self.jobs.values()
                     if j.status == "QUEUED" and j.params["deviceConfig"]["device"] == device["deviceArn"])
        out["deviceQueueInfo"] = [
            {"queue": "QUANTUM_TASKS_QUEUE", "queueSize": "0", "queuePriority": "Normal"},
            {"queue": "QUANTUM_TASKS_QUEUE", "queueSize": "0", "queuePriority": "Priority"},
            {"queue": "JOBS_QUEUE", "queueSize": str(queued)},
        ]
        return 200, out

    def SearchDevices(self, params, ctx):
        names = ("deviceArn", "deviceName", "providerName", "deviceType", "deviceStatus")
        for flt in params["filters"]:
            if flt["name"] not in names:
                raise ServiceError(400, "ValidationException",
                                   "Filter name '%s' is not supported; use one of %s." % (flt["name"], ", ".join(names)))
        query = _fingerprint(params["filters"])
        after = _read_token(params.get("nextToken"), query)
        indexed = sorted(self.devices.values(), key=lambda d: d["deviceArn"])
        picked = [(i, d) for i, d in enumerate(indexed)
                  if (after is None or i > after) and all(d[f["name"]] in f["values"] for f in params["filters"])]
        size = params.get("maxResults") or self.config["default_max_results"]
        page = picked[:size]
        out = {"devices": [device_catalog.summary(d) for _, d in page]}
        if len(picked) > size:
            out["nextToken"] = _make_token(page[-1][0], query)
        return 200, out

    def _tagged(self, arn, ctx):
        job = self.jobs.get(arn)
        if job is None or job.region != ctx["region"]:
            raise ServiceError(404, "ResourceNotFoundException", "Resource %s not found." % arn)
        return job

    def ListTagsForResource(self, params, ctx):
        return 200, {"tags": dict(self._tagged(params["resourceArn"], ctx).tags)}

    def TagResource(self, params, ctx):
        self._tagged(params["resourceArn"], ctx).tags.update(params["tags"])
        return 200, {}

    def UntagResource(self, params, ctx):
        job = self._tagged(params["resourceArn"], ctx)
        for key in params["tagKeys"]:
            job.tags.pop(key, None)
        return 200, {}


def _make_token(position, query):
    doc = json.dumps({"p": position, "q": query[:16]}).encode()
    return base64.urlsafe_b64encode(doc).decode().rstrip("=")


def _read_token(token, query):
    if token is None:
        return None
    try:
        doc = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
        if doc["q"] != query[:16]:
            raise ValueError("token belongs to another query")
        return int(doc["p"])
    except (ValueError, KeyError, TypeError):
        raise ServiceError(400, "ValidationException", "The nextToken is not valid for this request.")
