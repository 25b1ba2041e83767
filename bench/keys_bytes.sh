#!/usr/bin/env bash
# Benchmark (issue 22 point 4): the bytes byoc writes to the terminal per key press in the Monitor,
# against what the change on screen needs, with 10,000 jobs and a 1,000,000-line log, at 80x24.
# bench/pty_frames.py runs byoc in a pty, feeds its output to a terminal emulator (pyte) and, per
# key, counts the bytes written and the cells that changed; "need" is the least a terminal needs for
# that change: per run of changed cells on a row, a cursor move (~6 bytes), the UTF-8 bytes of the
# cells, an SGR sequence where the style changes and a reset after a styled run (pty_frames.py's
# changed()). Target: bytes <= 2x need, i.e. ncurses' optimisation is not defeated by full redraws
# (a full 80x24 repaint is ~2-4 KB).
#
# Three screens, each a run of its own: the Monitor table (10,000 local jobs), the job's log view
# (its log.txt holds 1,000,000 lines, read whole before keys are sent) and its metrics chart (a
# "Metrics -" line every 100 lines: 10,000 points per metric). No topology: the jobs are a local
# record, the AWS endpoint and the engine refuse. Installs python3-pyte when missing.
#
# usage: bench/keys_bytes.sh            (BYOC_BIN=build/byoc, JOBS=10000, LINES=1000000)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
byoc=${BYOC_BIN:-$root/build/byoc}
jobs=${JOBS:-10000}
lines=${LINES:-1000000}
[ -x "$byoc" ] || { echo "bench: build byoc first (or set BYOC_BIN)" >&2; exit 3; }
/usr/bin/python3 -c 'import pyte' 2>/dev/null ||
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3-pyte >&2

work=$(mktemp -d /tmp/byoc-bench-keys.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/state/byoc" "$work/out/bench-log" "$work/project"
chmod 700 "$work/state" "$work/state/byoc"
awk -v n="$lines" 'BEGIN {
  for (i = 0; i < n; i++)
    if (i % 100 == 0)
      printf "Metrics - timestamp=%d; loss=%.6f; fidelity=%.4f; iteration_number=%d;\n",
             1764676800 + i / 10, 1 / (i / 100 + 1), 1 - 0.5 / (i / 100 + 1), i / 100
    else
      printf "step %07d: loss=%.6f lr=0.010 shots=1000\n", i, 1 / (i + 1)
}' >"$work/out/bench-log/log.txt"
BENCH_N=$jobs BENCH_DIR=$work /usr/bin/python3 - <<'EOF'
import json, os
n, d = int(os.environ["BENCH_N"]), os.environ["BENCH_DIR"]
def job(name, status, created, **kw):
    j = {"job_name": name, "status": status, "created": created, "device": "local:braket/default_simulator",
         "local": True, "image": "byoc-test/python:3", "image_id": None, "started": created, "ended": created,
         "exit_code": 0 if status == "COMPLETED" else 1, "failure_reason": None, "output_dir": None,
         "container_id": None, "pid": None}
    j.update(kw)
    return j
jobs = [job("bench-log", "COMPLETED", "2026-12-02T12:00:00.000Z", output_dir=d + "/out/bench-log")]
for i in range(n - 1):
    jobs.append(job("bench-local-%05d" % i, ("COMPLETED", "FAILED", "CANCELLED")[i % 3],
                    "2026-11-%02dT%02d:%02d:00.000Z" % (1 + i // 1440 % 28, i // 60 % 24, i % 60)))
with open(os.open(d + "/state/byoc/local-jobs.json", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
    json.dump({"version": 1, "jobs": jobs}, f)
EOF

measure() { # measure SCREEN PRELUDE KEYS: one JSON line per key on stdout, tagged with SCREEN
  local name=$1 prelude=$2 keys=$3
  (cd "$work/project" && env HOME="$work" XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config" \
     AWS_ACCESS_KEY_ID=AKIDBENCHKEYS AWS_SECRET_ACCESS_KEY=bench-keys AWS_REGION=us-east-1 \
     AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null AWS_EC2_METADATA_DISABLED=true \
     AWS_ENDPOINT_URL=http://127.0.0.1:9 DOCKER_HOST="unix://$work/no-engine.sock" \
     /usr/bin/python3 "$root/bench/pty_frames.py" --idle 1 --settle 120 --prelude "$prelude" --keys "$keys" \
       -- "$byoc") | BENCH_SCREEN=$name /usr/bin/python3 -c '
import json, os, sys
d = json.load(sys.stdin)
for k in d.get("keys", []):
    k["screen"] = os.environ["BENCH_SCREEN"]
    print(json.dumps(k))'
}

pgdn='\x1b[6~' pgup='\x1b[5~' end='\x1b[F' home='\x1b[H'
{
  measure table '6' "jjkk${pgdn}${pgup}${end}${home}"
  measure log '6/bench-log\r\r\t' "kkjj${pgup}${pgup}${pgdn}${home}${end}/step 09\\rnnN\\x1bww"
  measure metrics '6/bench-log\r\r\t\t' "xx${pgdn}${pgup}"
} >"$work/keys.jsonl"

/usr/bin/python3 - "$work/keys.jsonl" "$jobs" "$lines" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
names = {"\x1b[6~": "PgDn", "\x1b[5~": "PgUp", "\x1b[F": "End", "\x1b[H": "Home", "\r": "Enter", "\x1b": "Esc",
         " ": "Space"}
print("Bytes per key at 80x24 (%s jobs, a %s-line log): written / needed (least bytes for the change)"
      % (sys.argv[2], sys.argv[3]))
print("%-8s %-6s %8s %8s %8s %7s" % ("screen", "key", "bytes", "cells", "need", "ratio"))
worst = {}
for r in rows:
    ratio = r["bytes"] / r["need"] if r["need"] else (0.0 if r["bytes"] == 0 else float("inf"))
    print("%-8s %-6s %8d %8d %8d %7s" % (r["screen"], names.get(r["key"], r["key"]), r["bytes"], r["cells"],
                                        r["need"], "%.2f" % ratio if r["need"] else "-"))
    worst[r["screen"]] = max(worst.get(r["screen"], 0), ratio)
for s, w in worst.items():
    print("%s: worst ratio %.2f: %s" % (s, w, "met" if w <= 2 else "MISSED"))
EOF
