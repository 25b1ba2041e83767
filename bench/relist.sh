#!/usr/bin/env bash
# Benchmark: the Monitor's relist (issue 18, point 2: one AWS client per (profile, region) shared
# by the app's tasks). The Monitor lists the jobs again every 3 s; each list is a task. Three ways
# of doing RELISTS lists, each printing the CPU of its lists alone (not the process's start):
#   byoc pooled   bench/relist.c: every list task takes its client from one pool (the app's now)
#   byoc fresh    bench/relist.c: every list task gets a client made for it (the Monitor before)
#   botocore      one botocore client reused for every list (the peer: what a Python tool does)
# Each list is what the Monitor's list task sends: SearchJobs (one page of JOBS jobs) and GetJob for
# the first 25 jobs whose instance it does not know (bench/searchjobs_server.py answers SearchJobs;
# its GetJob is a 404, which neither side retries). Credentials come from a named profile, in two
# setups: "file", keys in the credentials file (making a client reads and parses both files), and
# "process", a credential_process (aws-vault, granted, SSO helpers): a client runs the command once,
# when it first signs, so a client made per list runs it once per list.
# Runs are interleaved; medians. Wall time is bounded by the server all three wait on: CPU (the
# process's and its children's) is the measure.
#
# usage: bench/relist.sh [RUNS]        (RUNS=5 RELISTS=100 JOBS=100 SETUPS="file process")
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib.sh"
runs=${1:-${RUNS:-5}}
relists=${RELISTS:-100}
jobs=${JOBS:-100}
build=${BYOC_BUILD_DIR:-$root/build}
[ -f "$build/libbyoc.a" ] || { echo "bench: build byoc first (scripts/build.sh)" >&2; exit 3; }

work=$(mktemp -d /tmp/byoc-bench-relist.XXXXXX)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
# shellcheck disable=SC2046
cc -O2 -std=c11 -I"$root/backend" -o "$work/relist" "$root/bench/relist.c" "$build/libbyoc.a" \
  $(pkg-config --libs libcurl jansson libcrypto expat yajl) -lpthread -lm -ldl

cat >"$work/config" <<CFG
[profile file]
region = us-east-1

[profile process]
region = us-east-1
credential_process = /bin/sh $work/creds.sh
CFG
cat >"$work/credentials" <<CFG
[file]
aws_access_key_id = AKIDBENCHRELIST
aws_secret_access_key = bench-relist-secret
CFG
cat >"$work/creds.sh" <<'SH'
echo '{"Version": 1, "AccessKeyId": "AKIDBENCHPROCESS", "SecretAccessKey": "bench-process-secret"}'
SH
chmod 600 "$work/credentials"
export AWS_CONFIG_FILE=$work/config AWS_SHARED_CREDENTIALS_FILE=$work/credentials \
  AWS_EC2_METADATA_DISABLED=true XDG_STATE_HOME=$work/state
unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN AWS_REGION AWS_DEFAULT_REGION

python3 "$root/bench/searchjobs_server.py" "$jobs" >"$work/port" &
server=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
url=http://127.0.0.1:$(cat "$work/port")
export AWS_ENDPOINT_URL_BRAKET=$url

cat >"$work/peer.py" <<'PY'
import resource, sys
import botocore.session
from botocore.exceptions import ClientError
url, rounds = sys.argv[1], int(sys.argv[2])
client = botocore.session.get_session().create_client("braket", endpoint_url=url)
def cpu():
    r, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime + c.ru_utime + c.ru_stime
t0, rows = cpu(), 0
for _ in range(rounds):
    rows, described, token = 0, 0, None
    while True:
        kw = {"filters": [], "maxResults": 100}
        if token:
            kw["nextToken"] = token
        page = client.search_jobs(**kw)
        for job in page["jobs"]:
            rows += 1
            if described < 25:
                described += 1
                try:
                    client.get_job(jobArn=job["jobArn"])
                except ClientError:
                    pass
        token = page.get("nextToken")
        if not token:
            break
print("%d %.4f 1" % (rows, cpu() - t0))
PY

one() { # mode -> "rows cpu made"
  case $1 in
    pooled|fresh) "$work/relist" "$1" "$relists" ;;
    botocore) python3 "$work/peer.py" "$url" "$relists" ;;
  esac
}
for setup in ${SETUPS:-file process}; do
export AWS_PROFILE=$setup
pooled=(); fresh=(); peer=(); made_p=0; made_f=0
one pooled >/dev/null; one fresh >/dev/null; one botocore >/dev/null   # warm-up
for ((i = 0; i < runs; i++)); do
  order=(pooled fresh botocore)
  ((i % 2)) && order=(botocore fresh pooled)
  for m in "${order[@]}"; do
    read -r rows cpu made < <(one "$m")
    [ "$rows" = "$jobs" ] || { echo "bench: $m listed $rows jobs, want $jobs" >&2; exit 1; }
    case $m in
      pooled) pooled+=("$cpu"); made_p=$made ;;
      fresh) fresh+=("$cpu"); made_f=$made ;;
      botocore) peer+=("$cpu") ;;
    esac
    [ -n "${VERBOSE:-}" ] && echo "  run $i $m: cpu $cpu s, clients made $made" >&2
  done
done
awk -v s="$setup" -v r="$runs" -v n="$relists" -v j="$jobs" -v p="$(median "${pooled[@]}")" -v f="$(median "${fresh[@]}")" \
    -v b="$(median "${peer[@]}")" -v mp="$made_p" -v mf="$made_f" 'BEGIN {
  printf "relist benchmark, credentials from %s: %d lists of %d jobs (SearchJobs + 25 GetJob each), %d runs, medians\n", s, n, j, r
  printf "  %-34s cpu %7.3f s  %7.2f ms a list  clients made %d\n", "byoc, clients from the pool", p, p / n * 1000, mp
  printf "  %-34s cpu %7.3f s  %7.2f ms a list  clients made %d\n", "byoc, a client made per list", f, f / n * 1000, mf
  printf "  %-34s cpu %7.3f s  %7.2f ms a list\n", "botocore, one client", b, b / n * 1000
  printf "  pooled/fresh: %.2f    pooled/botocore: %.3f\n", p / f, p / b
}'
done
