#!/usr/bin/env bash
# Benchmark: the log tail/merge of `byoc logs JOB` over 1,000,000 CloudWatch lines (two instance
# streams of 500,000, interleaved in time), against two peers reading the same streams:
#   - the Braket SDK's way in one Python process: botocore GetLogEvents pages per stream
#     (startFromHead, forward tokens) merged by timestamp with heapq (braket/jobs/logs.py's shape);
#   - the AWS CLI: `aws logs get-log-events --start-from-head [--next-token T]`, one invocation
#     per page (v1 has no paginator for it), as a shell user pages a stream.
# Each reader's output is checked (1,000,000 lines, each once). Reported: wall time, client CPU
# (user+sys) and peak RSS, and byoc's ratios to the peers; the budget is byoc's peak RSS < 64 MiB.
# The logs live in a private moto_server (the shared topology's moto is left alone); the job
# itself is created in the topology's Braket stand-in, so run tests/topology/up.sh first.
# Wall time is mostly moto's (it sorts a stream's events on every GetLogEvents call): compare CPU.
#
# usage: bench/monitor_logs.sh [LINES]      (default 1000000)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib.sh"
lines=${1:-1000000}
byoc=${BYOC_BIN:-$root/build/byoc}
aws=$(command -v aws || true)
port=${BYOC_BENCH_MOTO_PORT:-45160}
env_file=${BYOC_TOPO_DIR:-/tmp/byoc-topology}/env
[ -x "$byoc" ] || { echo "bench: build byoc first (or set BYOC_BIN)" >&2; exit 3; }
[ -n "$aws" ] || { echo "bench: the AWS CLI is missing" >&2; exit 3; }
[ -f "$env_file" ] || { echo "bench: start the topology first (tests/topology/up.sh)" >&2; exit 3; }
set -a; . "$env_file"; set +a

work=$(mktemp -d /tmp/byoc-bench-logs.XXXXXX)
moto_pid=
cleanup() {
  [ -n "$moto_pid" ] && kill "$moto_pid" 2>/dev/null && wait "$moto_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

python3 -m moto.server -H 127.0.0.1 -p "$port" >"$work/moto.log" 2>&1 &
moto_pid=$!
for _ in $(seq 100); do
  curl -s -o /dev/null "http://127.0.0.1:$port/" && break
  sleep 0.1
done
logs_url="http://127.0.0.1:$port"
export AWS_ENDPOINT_URL_CLOUDWATCH_LOGS="$logs_url"

job="bench-logs-$(date +%s)"
echo "bench: loading $lines lines into $logs_url (job $job)" >&2
BENCH_JOB=$job BENCH_LINES=$lines BENCH_LOGS_URL=$logs_url BENCH_ROOT=$root python3 - <<'EOF'
import os, sys, time, uuid
sys.path.insert(0, os.path.join(os.environ["BENCH_ROOT"], "tests", "topology"))
from testkit import client, control, env
job, n, url = os.environ["BENCH_JOB"], int(os.environ["BENCH_LINES"]), os.environ["BENCH_LOGS_URL"]
account = env("BYOC_TEST_ACCOUNT")
braket = client("braket")
braket.create_job(
    clientToken=str(uuid.uuid4()), jobName=job,
    roleArn="arn:aws:iam::%s:role/AmazonBraketJobsExecutionRole" % account,
    algorithmSpecification={"scriptModeConfig": {"entryPoint": "algo", "s3Uri": "s3://b/src/source.tar.gz"},
                            "containerImage": {"uri": "%s.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-b:1" % account}},
    outputDataConfig={"s3Path": "s3://b/jobs/%s/data" % job},
    instanceConfig={"instanceType": "ml.m5.large", "volumeSizeInGb": 30, "instanceCount": 2},
    deviceConfig={"device": "arn:aws:braket:::device/quantum-simulator/amazon/sv1"})
control("POST", "/jobs/%s/set-status" % job, {"status": "COMPLETED"})
logs = client("logs", endpoint_url=url)
group = "/aws/braket/jobs"
logs.create_log_group(logGroupName=group)
t0 = int(time.time() * 1000) - 3 * 3600 * 1000
per = n // 2
for k in (1, 2):
    stream = "%s/%s/algo-%d-1700000000" % (job, uuid.uuid4().hex, k)
    logs.create_log_stream(logGroupName=group, logStreamName=stream)
    for start in range(0, per, 10000):
        events = [{"timestamp": t0 + 2 * i + k,
                   "message": "algo-%d step %07d: loss=%.6f lr=0.010 grad_norm=%.4f shots=1000" % (k, i, 1.0 / (i + 1), (i % 97) / 97)}
                  for i in range(start, min(start + 10000, per))]
        logs.put_log_events(logGroupName=group, logStreamName=stream, logEvents=events)
EOF

cat >"$work/peer_botocore.py" <<'EOF'
# The Braket SDK's tailing shape: one page generator per stream, merged by timestamp.
import heapq, os, sys
import boto3
job = sys.argv[1]
logs = boto3.session.Session().client("logs", endpoint_url=os.environ["AWS_ENDPOINT_URL_CLOUDWATCH_LOGS"])
group = "/aws/braket/jobs"
names = [s["logStreamName"] for s in logs.describe_log_streams(
    logGroupName=group, logStreamNamePrefix=job + "/", orderBy="LogStreamName")["logStreams"]]
def events(name):
    tag = name.rsplit("/", 1)[1].rsplit("-", 1)[0]
    token = None
    while True:
        kw = {"logGroupName": group, "logStreamName": name, "startFromHead": True}
        if token:
            kw["nextToken"] = token
        page = logs.get_log_events(**kw)
        for e in page["events"]:
            yield e["timestamp"], tag, e["message"]
        if page["nextForwardToken"] == token:
            return
        token = page["nextForwardToken"]
out = sys.stdout
for ts, tag, msg in heapq.merge(*[events(n) for n in names]):
    out.write("[%s] %s\n" % (tag, msg))
EOF

cat >"$work/peer_awscli.sh" <<'EOF'
# Page every stream of the job with one `aws logs get-log-events` per page; prints the messages.
# Prints "<wall> <cpu> <max rss>" of the aws invocations alone to fd 3.
set -euo pipefail
job=$1 url=$2 work=$3
. "$4"   # bench/lib.sh
wall=0 cpu=0 rss=0
for s in $(aws logs describe-log-streams --endpoint-url "$url" --log-group-name /aws/braket/jobs \
             --log-stream-name-prefix "$job/" --query 'logStreams[].logStreamName' --output text); do
  token=
  while :; do
    args=(logs get-log-events --endpoint-url "$url" --log-group-name /aws/braket/jobs --log-stream-name "$s"
          --start-from-head --output json)
    [ -n "$token" ] && args+=(--next-token "$token")
    read -r w c m < <(bench_time "$work/page.json" aws "${args[@]}")
    wall=$(awk -v a="$wall" -v b="$w" 'BEGIN {print a + b}')
    cpu=$(awk -v a="$cpu" -v b="$c" 'BEGIN {print a + b}')
    [ "$m" -gt "$rss" ] && rss=$m
    jq -r '.events[].message' "$work/page.json"
    next=$(jq -r '.nextForwardToken' "$work/page.json")
    [ "$next" = "$token" ] && break
    token=$next
  done
done
printf '%.2f %.2f %d\n' "$wall" "$cpu" "$rss" >&3
EOF

echo "bench: byoc logs" >&2
read -r bw bc bm < <(bench_time "$work/byoc.out" "$byoc" logs "$job")
echo "bench: botocore (SDK-style merge)" >&2
read -r pw pc pm < <(bench_time "$work/peer.out" python3 "$work/peer_botocore.py" "$job")
echo "bench: aws logs get-log-events, page by page" >&2
read -r aw ac am < <(bash "$work/peer_awscli.sh" "$job" "$logs_url" "$work" "$root/bench/lib.sh" 3>&1 >"$work/aws.out")

check() { # check FILE LABEL: 1,000,000 lines, each once
  local n u
  n=$(wc -l <"$1"); u=$(sed 's/^\[algo-[0-9]*\] //' "$1" | sort -u | wc -l)
  if [ "$n" -ne "$lines" ] || [ "$u" -ne "$lines" ]; then
    echo "bench: $2 printed $n lines ($u distinct), want $lines" >&2; return 1
  fi
}
check "$work/byoc.out" byoc
check "$work/peer.out" botocore
check "$work/aws.out" "aws cli"
cmp -s "$work/byoc.out" "$work/peer.out" && same=yes || same=no

awk -v n="$lines" -v bw="$bw" -v bc="$bc" -v bm="$bm" -v pw="$pw" -v pc="$pc" -v pm="$pm" \
    -v aw="$aw" -v ac="$ac" -v am="$am" -v same="$same" 'BEGIN {
  printf "log tail/merge benchmark: %d lines, 2 streams, private moto_server\n", n
  printf "  %-38s wall %7.2f s  cpu %7.2f s  peak RSS %7d KiB\n", "byoc logs", bw, bc, bm
  printf "  %-38s wall %7.2f s  cpu %7.2f s  peak RSS %7d KiB\n", "botocore, SDK-style heapq merge", pw, pc, pm
  printf "  %-38s wall %7.2f s  cpu %7.2f s  peak RSS %7d KiB\n", "aws logs get-log-events (per page)", aw, ac, am
  printf "  byoc/botocore: wall %.2f  cpu %.3f  memory %.3f\n", bw / pw, bc / pc, bm / pm
  printf "  byoc/aws cli:  wall %.2f  cpu %.3f  memory %.3f\n", bw / aw, bc / ac, bm / am
  printf "  byoc output identical to the SDK-style merge: %s\n", same
  printf "  budget: byoc peak RSS %.1f MiB < 64 MiB: %s\n", bm / 1024, (bm < 65536) ? "MET" : "MISSED"
  exit (bm < 65536) ? 0 : 1
}'
