#!/usr/bin/env bash
# Benchmark: `byoc doctor --json` against the AWS CLI making the equivalent STS call
# (`aws sts get-caller-identity`), side by side against the test topology's moto. Debian's AWS CLI
# (2.9) predates AWS_ENDPOINT_URL, so it gets --endpoint-url: it must never reach a real AWS host.
# Runs are interleaved so that machine noise hits both alike; only ratios are reported.
# Target (issue 2): byoc's wall time <= 5% of the CLI's, peak RSS <= 15%.
#
# usage: bench/doctor.sh [RUNS]     (needs tests/topology/up.sh to have run, or runs it)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib.sh"
runs=${1:-15}
byoc=${BYOC_BIN:-$root/build/byoc}
aws=/usr/bin/aws
[ -x "$byoc" ] || { echo "bench: build byoc first (scripts/build.sh)" >&2; exit 3; }
[ -x "$aws" ] || { echo "bench: the AWS CLI is missing (apt-get install awscli)" >&2; exit 3; }

started=0
env_file=${BYOC_TOPO_DIR:-/tmp/byoc-topology}/env
if [ ! -f "$env_file" ]; then
  "$root/tests/topology/up.sh" >&2
  started=1
fi
trap '[ $started = 1 ] && "$root/tests/topology/down.sh" >&2 || true' EXIT
set -a; . "$env_file"; set +a

# Warm-up (page cache, moto's first-request costs) and a correctness check of both.
"$byoc" doctor --json >/dev/null || { echo "bench: byoc doctor failed" >&2; exit 1; }
"$aws" sts get-caller-identity --endpoint-url "$AWS_ENDPOINT_URL" --output json >/dev/null || { echo "bench: aws sts failed" >&2; exit 1; }

bw=(); bm=(); aw=(); am=()
for ((i = 0; i < runs; i++)); do
  read -r w _ m < <(bench_time /dev/null "$byoc" doctor --json); bw+=("$w"); bm+=("$m")
  read -r w _ m < <(bench_time /dev/null "$aws" sts get-caller-identity --endpoint-url "$AWS_ENDPOINT_URL" --output json)
  aw+=("$w"); am+=("$m")
done

bwm=$(median "${bw[@]}"); awm=$(median "${aw[@]}")
bmm=$(median "${bm[@]}"); amm=$(median "${am[@]}")
awk -v bw="$bwm" -v aw="$awm" -v bm="$bmm" -v am="$amm" -v n="$runs" 'BEGIN {
  printf "doctor benchmark, %d interleaved runs each, medians\n", n
  printf "  byoc doctor --json          wall %.4f s   peak RSS %6d KiB\n", bw, bm
  printf "  aws sts get-caller-identity wall %.4f s   peak RSS %6d KiB\n", aw, am
  wr = bw / aw * 100; mr = bm / am * 100
  printf "  ratio byoc/aws: wall %.1f%% (target <= 5%%), memory %.1f%% (target <= 15%%)\n", wr, mr
  printf "  verdict: %s\n", (wr <= 5 && mr <= 15) ? "MEETS TARGET" : "MISSES TARGET"
}'
