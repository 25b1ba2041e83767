# Helpers for shell integration tests: run byoc, assert on exit code, stdout, stderr and JSON.
# Every assertion counts; `finish` prints "N passed, N failed" and sets the exit code.
PASSED=0
FAILED=0
OUT=$(mktemp)
ERR=$(mktemp)
RC=0
trap 'rm -f "$OUT" "$ERR"' EXIT

pass() { PASSED=$((PASSED + 1)); }
fail() { FAILED=$((FAILED + 1)); echo "FAIL: $*" >&2; }

# run_byoc ARGS...: runs $BYOC_BIN, keeping stdout in $OUT, stderr in $ERR, the exit code in $RC.
run_byoc() {
  "$BYOC_BIN" "$@" >"$OUT" 2>"$ERR" </dev/null
  RC=$?
}

expect_eq() { # ACTUAL EXPECTED WHAT
  if [ "$1" = "$2" ]; then pass; else fail "$3: got [$1], want [$2]"; fi
}
expect_rc() { # CODE WHAT
  if [ "$RC" = "$1" ]; then pass; else
    fail "$2: exit $RC, want $1"; sed 's/^/  stderr: /' "$ERR" | head -5 >&2; fi
}
expect_rc_in() { # "CODES" WHAT
  case " $1 " in *" $RC "*) pass ;; *) fail "$2: exit $RC, want one of $1" ;; esac
}
expect_out() { if grep -Eq -- "$1" "$OUT"; then pass; else fail "stdout lacks /$1/"; head -20 "$OUT" >&2; fi; }
expect_err() { if grep -Eq -- "$1" "$ERR"; then pass; else fail "stderr lacks /$1/"; head -5 "$ERR" >&2; fi; }
expect_err_lines() {
  local n; n=$(wc -l <"$ERR")
  if [ "$n" = "$1" ]; then pass; else fail "stderr has $n lines, want $1"; cat "$ERR" >&2; fi
}
expect_no_secret() { # SECRET: appears in neither stdout nor stderr
  if grep -qF -- "$1" "$OUT" "$ERR"; then fail "a secret leaked into the output"; else pass; fi
}
# json_eq PATH VALUE: PATH is a dotted path (.a.b) into the JSON on stdout.
json_eq() {
  local got
  got=$(python3 - "$1" "$OUT" <<'PY'
import json, sys
path, f = sys.argv[1], sys.argv[2]
try:
    v = json.load(open(f))
except Exception as e:
    print("<not JSON: %s>" % e); sys.exit(0)
for k in [p for p in path.split('.') if p]:
    v = v[int(k)] if isinstance(v, list) else (v or {}).get(k)
print(json.dumps(v) if isinstance(v, (bool, dict, list)) or v is None else v)
PY
)
  expect_eq "$got" "$2" "json $1"
}
finish() {
  echo "$PASSED passed, $FAILED failed"
  [ "$FAILED" = 0 ]
}
