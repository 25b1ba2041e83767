#!/usr/bin/env bash
# Benchmark: `byoc jobs --json --max 100000` against Debian's AWS CLI `aws braket search-jobs`
# listing the same jobs, side by side, at 10,000 and 100,000 jobs (issues 7 and 22), with the
# libcurl floor (bench/curl_floor.c: links libcurl, calls curl_global_init) measured in the same run.
# The jobs come from bench/searchjobs_server.py (SearchJobs only, jobs made up from their index,
# 100 a page), not from the topology's shared stand-in: a region of 100,000 jobs there would slow
# every test that lists it. So this bench needs no topology; it uses made-up credentials.
# Both tools send SearchJobs with an empty filter list, 100 a page, following nextToken to the
# end; the outputs are checked to hold the same ARNs. Runs are interleaved (alternating order)
# after a warm-up of each; medians of wall time, CPU (user+sys) and peak RSS (GNU time).
# Wall time is bounded by the server both wait on, so CPU is the measure.
# Targets (issue 22): byoc CPU <= 5% of the CLI's; byoc peak RSS <= floor + 4 MiB at both sizes.
#
# usage: bench/jobs.sh [RUNS]        (RUNS=5, SIZES="10000 100000" by default)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib.sh"
runs=${1:-${RUNS:-5}}
sizes=${SIZES:-10000 100000}
byoc=${BYOC_BIN:-$root/build/byoc}
aws=/usr/bin/aws
[ -x "$byoc" ] || { echo "bench: build byoc first (or set BYOC_BIN)" >&2; exit 3; }
[ -x "$aws" ] || { echo "bench: the AWS CLI is missing (apt-get install awscli)" >&2; exit 3; }

work=$(mktemp -d /tmp/byoc-bench-jobs.XXXXXX)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
cc -O2 -o "$work/floor" "$root/bench/curl_floor.c" -lcurl

export AWS_ACCESS_KEY_ID=AKIDBENCHJOBS AWS_SECRET_ACCESS_KEY=bench-jobs-secret AWS_REGION=us-east-1 \
  AWS_DEFAULT_REGION=us-east-1 AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null \
  AWS_EC2_METADATA_DISABLED=true XDG_STATE_HOME=$work/state
unset AWS_PROFILE AWS_SESSION_TOKEN

echo "jobs listing benchmark: $runs interleaved runs each, medians"
for n in $sizes; do
  python3 "$root/bench/searchjobs_server.py" "$n" >"$work/port" &
  server=$!
  for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
  url=http://127.0.0.1:$(cat "$work/port")
  run_byoc() { AWS_ENDPOINT_URL_BRAKET=$url bench_time "$work/byoc.json" "$byoc" jobs --json --max 100000; }
  run_aws() {
    bench_time "$work/aws.json" "$aws" braket search-jobs --filters '[]' --page-size 100 --output json --endpoint-url "$url"
  }

  run_byoc >/dev/null; run_aws >/dev/null
  jq -r '.jobs[].job_arn' "$work/byoc.json" | sort >"$work/byoc.arns"
  jq -r '.jobs[].jobArn' "$work/aws.json" | sort >"$work/aws.arns"
  if ! cmp -s "$work/byoc.arns" "$work/aws.arns" || [ "$(wc -l <"$work/byoc.arns")" -ne "$n" ]; then
    echo "bench: byoc listed $(wc -l <"$work/byoc.arns") jobs, the CLI $(wc -l <"$work/aws.arns"), want the same $n" >&2
    exit 1
  fi

  bw=(); bc=(); bm=(); aw=(); ac=(); am=(); fm=()
  for ((i = 0; i < runs; i++)); do
    if ((i % 2 == 0)); then
      read -r w c m < <(run_byoc); bw+=("$w"); bc+=("$c"); bm+=("$m")
      read -r w c m < <(run_aws); aw+=("$w"); ac+=("$c"); am+=("$m")
    else
      read -r w c m < <(run_aws); aw+=("$w"); ac+=("$c"); am+=("$m")
      read -r w c m < <(run_byoc); bw+=("$w"); bc+=("$c"); bm+=("$m")
    fi
    read -r w c m < <(bench_time /dev/null "$work/floor"); fm+=("$m")
    [ -n "${VERBOSE:-}" ] && echo "  $n run $i: byoc ${bw[-1]} s ${bc[-1]} s ${bm[-1]} KiB, aws ${aw[-1]} s ${ac[-1]} s ${am[-1]} KiB, floor ${fm[-1]} KiB" >&2
  done
  kill "$server"; wait "$server" 2>/dev/null || true; server=

  awk -v n="$n" -v bw="$(median "${bw[@]}")" -v bc="$(median "${bc[@]}")" -v bm="$(median "${bm[@]}")" \
      -v aw="$(median "${aw[@]}")" -v ac="$(median "${ac[@]}")" -v am="$(median "${am[@]}")" \
      -v fm="$(median "${fm[@]}")" 'BEGIN {
    printf "%d jobs:\n", n
    printf "  %-30s wall %7.3f s  cpu %6.2f s  peak RSS %7d KiB\n", "byoc jobs --json", bw, bc, bm
    printf "  %-30s wall %7.3f s  cpu %6.2f s  peak RSS %7d KiB\n", "aws braket search-jobs", aw, ac, am
    printf "  %-30s                              peak RSS %7d KiB\n", "libcurl floor", fm
    cr = (ac > 0 ? bc / ac * 100 : 0); over = (bm - fm) / 1024
    printf "  byoc/aws: cpu %.1f%% (target <= 5%%: %s), wall %.1f%%, peak RSS %.1f%%\n", cr, cr <= 5 ? "met" : "MISSED", bw / aw * 100, bm / am * 100
    printf "  byoc over the floor: %+.1f MiB (target <= +4 MiB: %s); byoc cpu per job %.1f us\n", over, over <= 4 ? "met" : "MISSED", bc / n * 1e6
  }'
done
