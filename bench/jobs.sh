#!/usr/bin/env bash
# Benchmark: `byoc jobs --json --max N` against Debian's AWS CLI `aws braket search-jobs` listing
# the same jobs from the test topology's Braket stand-in, side by side (issue 7).
# First makes sure the stand-in holds at least JOBS jobs named bench-jobs-* (created with
# concurrent signed CreateJob calls from a boto3 thread pool; the stand-in has no bulk control
# endpoint and is never restarted or reset here: other tests' jobs live in it too). Both tools
# then list every job of the region: byoc sends SearchJobs with no filter (`"filters": []`), the
# CLI gets the same empty filter list; both page until nextToken runs out (byoc 100 a page, the
# CLI's paginator 100 a page too via --page-size). The outputs are checked to hold the same ARNs.
# Debian's CLI (2.9) ignores AWS_ENDPOINT_URL*: it always gets --endpoint-url.
# Runs are interleaved (alternating order) after a warm-up of each; medians of wall time, CPU
# (user+sys) and peak RSS. Most of the wall time is the stand-in answering pages (every page sorts
# all jobs), so the CPU ratio shows the clients' own cost. Target: byoc wall <= 5% of the CLI's.
#
# usage: tests/topology/with-env.sh bench/jobs.sh [RUNS]      (JOBS=10000 RUNS=5 by default)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-${RUNS:-5}}
jobs=${JOBS:-10000}
byoc=${BYOC_BIN:-$root/build/byoc}
aws=/usr/bin/aws
[ -x "$byoc" ] || { echo "bench: build byoc first (or set BYOC_BIN)" >&2; exit 3; }
[ -x "$aws" ] || { echo "bench: the AWS CLI is missing (apt-get install awscli)" >&2; exit 3; }
[ -n "${AWS_ENDPOINT_URL_BRAKET:-}" ] || { echo "bench: run through tests/topology/with-env.sh" >&2; exit 3; }

work=$(mktemp -d /tmp/byoc-bench-jobs.XXXXXX)
trap 'rm -rf "$work"' EXIT

BENCH_JOBS=$jobs BENCH_ROOT=$root python3 - <<'EOF'
import os, sys, uuid
sys.path.insert(0, os.path.join(os.environ["BENCH_ROOT"], "tests", "topology"))
from testkit import control, create_minimal_jobs
want = int(os.environ["BENCH_JOBS"])
status, listing = control("GET", "/jobs")
have = sum(1 for j in listing["jobs"] if j["jobName"].startswith("bench-jobs-"))
missing = want - have
print("bench: the stand-in holds %d jobs, %d of them bench-jobs-*; creating %d" %
      (len(listing["jobs"]), have, max(missing, 0)), file=sys.stderr)
if missing > 0:
    stamp = uuid.uuid4().hex[:8]
    create_minimal_jobs(["bench-jobs-%s-%05d" % (stamp, i) for i in range(missing)])
EOF

measure() { # measure OUT CMD...: runs CMD > OUT; prints "<wall s> <cpu s> <max rss KiB>"
  local out=$1; shift
  local t0 t1 u s m
  t0=$(date +%s%N)
  /usr/bin/time -f '%U %S %M' -o "$work/time" "$@" >"$out" 2>"$work/stderr" || { cat "$work/stderr" >&2; return 1; }
  t1=$(date +%s%N)
  read -r u s m <"$work/time"
  awk -v a="$t0" -v b="$t1" -v u="$u" -v s="$s" -v m="$m" 'BEGIN {printf "%.3f %.2f %d\n", (b - a) / 1e9, u + s, m}'
}
run_byoc() { measure "$work/byoc.json" "$byoc" jobs --json --max 100000; }
run_aws() {
  measure "$work/aws.json" "$aws" braket search-jobs --filters '[]' --page-size 100 --output json \
    --endpoint-url "$AWS_ENDPOINT_URL_BRAKET"
}

run_byoc >/dev/null; run_aws >/dev/null
# Other tests may add jobs meanwhile: the bench's own jobs must be listed alike by both.
jq -r '.jobs[] | select(.job_name | startswith("bench-jobs-")) | .job_arn' "$work/byoc.json" | sort >"$work/byoc.arns"
jq -r '.jobs[] | select(.jobName | startswith("bench-jobs-")) | .jobArn' "$work/aws.json" | sort >"$work/aws.arns"
listed=$(jq '.jobs | length' "$work/byoc.json")
if ! cmp -s "$work/byoc.arns" "$work/aws.arns" || [ "$(wc -l <"$work/byoc.arns")" -lt "$jobs" ]; then
  echo "bench: byoc listed $(wc -l <"$work/byoc.arns") bench jobs, the CLI $(wc -l <"$work/aws.arns"), want the same $jobs" >&2
  exit 1
fi

bw=(); bc=(); bm=(); aw=(); ac=(); am=()
for ((i = 0; i < runs; i++)); do
  if ((i % 2 == 0)); then
    read -r w c m < <(run_byoc); bw+=("$w"); bc+=("$c"); bm+=("$m")
    read -r w c m < <(run_aws); aw+=("$w"); ac+=("$c"); am+=("$m")
  else
    read -r w c m < <(run_aws); aw+=("$w"); ac+=("$c"); am+=("$m")
    read -r w c m < <(run_byoc); bw+=("$w"); bc+=("$c"); bm+=("$m")
  fi
  [ -n "${VERBOSE:-}" ] && echo "run $i: byoc ${bw[-1]} s ${bc[-1]} s ${bm[-1]} KiB, aws ${aw[-1]} s ${ac[-1]} s ${am[-1]} KiB" >&2
done

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
awk -v n="$runs" -v jobs="$listed" \
    -v bw="$(median "${bw[@]}")" -v bc="$(median "${bc[@]}")" -v bm="$(median "${bm[@]}")" \
    -v aw="$(median "${aw[@]}")" -v ac="$(median "${ac[@]}")" -v am="$(median "${am[@]}")" 'BEGIN {
  printf "jobs listing benchmark: %d jobs in the stand-in, %d interleaved runs each, medians\n", jobs, n
  printf "  %-36s wall %7.3f s  cpu %6.2f s  peak RSS %7d KiB\n", "byoc jobs --json --max 100000", bw, bc, bm
  printf "  %-36s wall %7.3f s  cpu %6.2f s  peak RSS %7d KiB\n", "aws braket search-jobs", aw, ac, am
  wr = bw / aw * 100; cr = (ac > 0 ? bc / ac * 100 : 0); mr = bm / am * 100
  printf "  ratio byoc/aws: wall %.1f%% (target <= 5%%), cpu %.1f%%, peak RSS %.1f%%\n", wr, cr, mr
  printf "  verdict: wall target %s\n", (wr <= 5) ? "MET" : "MISSED (the stand-in serving the pages dominates both)"
}'
