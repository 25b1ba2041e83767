#!/usr/bin/env bash
# Secrets never leave byoc: canary credentials, session tokens and registry passwords
# (and the topology's real secret key and ECR password) are fed through every source byoc
# reads them from, every verb `byoc --help` lists is run with -v -v and BYOC_DEBUG_LOG=1
# (state and config in a private XDG tree), and nothing byoc printed or wrote may hold
# them: stdout, stderr, every file under HOME/XDG_*/the project, a TUI screen capture.
# A secret counts as leaked in any of the forms it could travel in: as is, URL-encoded,
# or base64 (standard or URL alphabet, any alignment), e.g. inside X-Registry-Auth.
# Also: files byoc writes under its state/config directories are 0600 in 0700
# directories, and no verb starts a shell (strace: no execve of sh/bash/dash; LeakSanitizer
# cannot run under strace, so leaks are left to the other tests).
#
# Scenarios (each runs every verb):
#   real      the topology's real key (successful calls; ECR password in play)
#   env       canary AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN (calls fail)
#   profile   a credentials-file profile with a canary secret and token
#   process   credential_process printing canary JSON
#   badproc   credential_process printing canary JSON, then exiting 1
# DOCKER_CONFIG holds a canary registry password in every scenario.
set -u
. "$(dirname "$0")/lib.sh"
py=${BYOC_TEST_PYTHON:-python3}

work=$(mktemp -d)
cleanup() {
  [ -n "${tmux_sock:-}" ] && tmux -S "$tmux_sock" kill-server 2>/dev/null
  for s in real env profile process badproc; do
    "${BYOC_TEST_DOCKER_CLI:-docker}" image rm -f "byoc-secrets/x:$s" >/dev/null 2>&1
  done
  if [ -n "${BYOC_TEST_KEEP_WORK:-}" ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
  rm -f "$OUT" "$ERR"
}
trap cleanup EXIT
chmod 700 "$work"

CANARY_KEY_ID=AKIACANARYKEYID00042
CANARY_SECRET=byocCanarySecret-7f3a9c1e5b2d4860a9e1c3f5b7d9e2a4
CANARY_TOKEN=byocCanaryToken-IQoJb3JpZ2luX2VjEcanary0123456789abcdef
CANARY_PROFILE_SECRET=byocCanaryProfileSecret-0a1b2c3d4e5f60718293a4b5
CANARY_PROFILE_TOKEN=byocCanaryProfileToken-f0e1d2c3b4a5968778695a4b
CANARY_PROCESS_SECRET=byocCanaryProcessSecret-13579bdf2468ace013579bdf
CANARY_PROCESS_TOKEN=byocCanaryProcessToken-2468ace013579bdf2468ace0
CANARY_REGISTRY_PASSWORD=byocCanaryRegistryPassword-9d8c7b6a5f4e3d2c1b0a
REAL_SECRET=$AWS_SECRET_ACCESS_KEY
REAL_KEY_ID=$AWS_ACCESS_KEY_ID
ECR_PASSWORD=${BYOC_TEST_ACCOUNT:-123456789012}-auth-token
secrets=("$CANARY_SECRET" "$CANARY_TOKEN" "$CANARY_PROFILE_SECRET" "$CANARY_PROFILE_TOKEN"
         "$CANARY_PROCESS_SECRET" "$CANARY_PROCESS_TOKEN" "$CANARY_REGISTRY_PASSWORD" "$REAL_SECRET"
         "$ECR_PASSWORD")

# Every form a secret could leak in, one fixed string per line.
patterns=$work/patterns
"$py" - "${secrets[@]}" >"$patterns" <<'PY'
import base64, sys, urllib.parse
out = set()
for s in sys.argv[1:]:
    b = s.encode()
    out.add(s)
    out.add(urllib.parse.quote(s, safe=""))
    for prefix in (b"", b"A", b"AB", b"AWS:", b":", b"x:"):
        for enc in (base64.b64encode, base64.urlsafe_b64encode):
            e = enc(prefix + b).decode().rstrip("=")
            # skip the characters that depend on the unknown neighbours
            start = (len(prefix) * 4 + 2) // 3 + 1
            core = e[start:-2]
            if len(core) >= 16:
                out.add(core)
for p in sorted(out):
    print(p)
PY

scan() { # WHAT FILE...: no secret form in any of the files
  local what=$1; shift
  local hit
  hit=$(grep -a -l -F -f "$patterns" -- "$@" 2>/dev/null | head -5)
  if [ -n "$hit" ]; then
    fail "$what: a secret leaked into: $hit"
    grep -a -n -o -F -f "$patterns" -- $hit 2>/dev/null | head -3 | sed 's/^/    /' >&2
  else
    pass
  fi
}

# ---- the fixtures: a project, a docker config with a canary registry password --------------
proj=$work/project
mkdir -p "$proj"
cat >"$proj/Dockerfile" <<EOF
FROM ${BYOC_TEST_BASE_BUSYBOX:-byoc-test/busybox:1}
COPY algo.py /opt/ml/code/algo.py
ENV SAGEMAKER_PROGRAM=algo.py
EOF
echo 'print("hello")' >"$proj/algo.py"
echo 'numpy==1.26.4' >"$proj/requirements.txt"
dockercfg=$work/docker-config
mkdir -p "$dockercfg"
registry=${BYOC_TEST_REGISTRY:-123456789012.dkr.ecr.us-east-1.amazonaws.com}
auth=$(printf 'AWS:%s' "$CANARY_REGISTRY_PASSWORD" | base64 -w0)
printf '{"auths": {"registry.canary.example:5000": {"auth": "%s"}}}\n' "$auth" >"$dockercfg/config.json"
chmod 600 "$dockercfg/config.json"

# Braket stand-in: let the canary keys in, so Braket calls get past the signature check
for pair in "$CANARY_KEY_ID:$CANARY_SECRET:$CANARY_TOKEN"; do
  IFS=: read -r k s t <<<"$pair"
  curl -sf -X POST "$BYOC_STANDIN_CONTROL/credentials" \
    -d "{\"accessKeyId\": \"$k\", \"secretAccessKey\": \"$s\", \"sessionToken\": \"$t\"}" >/dev/null ||
    fail "stand-in refused the canary key"
done

# ---- the verbs and their arguments --------------------------------------------------------
verbs=$("$BYOC_BIN" --help 2>&1 | awk '/^verbs:/{v=1; next} v && /^$/{exit} v && $1 ~ /^[a-z]+$/ {print $1}')
[ -n "$verbs" ] || fail "no verbs found in byoc --help"
args_for() { # VERB -> one argument set per line (tab-separated), run in the scenario
  case $1 in
    tui) ;;  # the TUI is captured in tmux below
    doctor) printf 'doctor\n--json\tdoctor\n' ;;
    decide) printf 'decide\t--scan\t%s\n--json\tdecide\t--scan\t%s\n' "$proj" "$proj" ;;
    init) printf 'init\t%s\t--recipe\tcustom-base\t--language\tpython\n' "$scn_dir/init" ;;
    lint) printf 'lint\t%s\n' "$proj" ;;
    build) printf 'build\t%s\t-t\tbyoc-secrets/x:%s\t--no-lint\n' "$proj" "$scn" ;;
    images) printf 'images\n--json\timages\t--local\nimages\t--repository\tbyoc-secrets\n' ;;
    push) printf 'push\tbyoc-secrets/x:%s\t--repository\tbyoc-secrets\t--create\n' "$scn" ;;
    permit) printf 'permit\tbyoc-secrets\t--allow\tarn:aws:iam::123456789012:role/R\t--dry-run\n' ;;
    run) printf 'run\t--image-uri\t%s\t--source-module\t%s\t--job-name\tsecrets-%s-%s\n' \
              "$registry/byoc-secrets:$scn" "$proj/algo.py" "$scn" "$$"
         printf 'run\t--image-uri\t%s\t--source-module\t%s\t--dry-run\n' "$registry/byoc-secrets:$scn" \
              "$proj/algo.py" ;;
    jobs) printf 'jobs\n' ;;
    status) printf 'status\tsecrets-%s-%s\n' "$scn" "$$" ;;
    logs) printf 'logs\tsecrets-%s-%s\n' "$scn" "$$" ;;
    cancel) printf 'cancel\tsecrets-%s-%s\n' "$scn" "$$" ;;
    results) printf 'results\tsecrets-%s-%s\t-o\t%s\n' "$scn" "$$" "$scn_dir/results" ;;
    *) printf '%s\n' "$1" ;;
  esac
  printf '%s\t--help\n' "$1"
}

# ---- running one scenario -----------------------------------------------------------------
run_scenario() { # NAME: the environment comes from the scenario_* variables
  scn=$1
  scn_dir=$work/$scn
  mkdir -p "$scn_dir/home" "$scn_dir/state" "$scn_dir/config" "$scn_dir/out"
  local n=0 verb line
  for verb in $verbs; do
    while IFS= read -r line; do
      [ -n "$line" ] || continue
      IFS=$'\t' read -r -a argv <<<"$line"
      n=$((n + 1))
      env "${scenario_env[@]}" HOME="$scn_dir/home" XDG_STATE_HOME="$scn_dir/state" \
          XDG_CONFIG_HOME="$scn_dir/config" DOCKER_CONFIG="$dockercfg" BYOC_DEBUG_LOG=1 \
          ASAN_OPTIONS=detect_leaks=0 \
          strace -f -qq -e trace=execve -o "$scn_dir/out/$n.strace" \
          "$BYOC_BIN" -v -v "${argv[@]}" >"$scn_dir/out/$n.out" 2>"$scn_dir/out/$n.err" </dev/null
      echo "$? ${argv[*]}" >"$scn_dir/out/$n.cmd"
      if grep -qE 'AddressSanitizer|runtime error:|Segmentation fault' "$scn_dir/out/$n.err"; then
        fail "$scn: byoc ${argv[*]} crashed: $(grep -m1 -E 'AddressSanitizer|runtime error' "$scn_dir/out/$n.err")"
      fi
    done < <(args_for "$verb")
  done
  scan "$scn: stdout/stderr" "$scn_dir"/out/*.out "$scn_dir"/out/*.err
  local files
  files=$(find "$scn_dir/home" "$scn_dir/state" "$scn_dir/config" "$scn_dir/init" "$scn_dir/results" "$proj" \
               -type f 2>/dev/null)
  [ -n "$files" ] && scan "$scn: files byoc wrote" $files
  # state and config: 0600 files in 0700 directories
  local bad
  bad=$(find "$scn_dir/state/byoc" "$scn_dir/config/byoc" \( -type f ! -perm 600 \) -o \( -type d ! -perm 700 \) \
             2>/dev/null)
  if [ -z "$bad" ]; then pass; else fail "$scn: wrong modes: $(ls -ld $bad | head -3)"; fi
  [ -f "$scn_dir/state/byoc/debug.log" ] && pass || fail "$scn: BYOC_DEBUG_LOG=1 wrote no debug log"
  for f in "$proj/byoc.json" "$scn_dir/init/byoc.json"; do
    if [ -f "$f" ]; then
      if [ "$(stat -c %a "$f")" = 600 ]; then pass; else fail "$scn: $f is $(stat -c %a "$f"), want 600"; fi
    fi
  done
  # no shell between byoc and anything it runs (credential_process is exec'd as written)
  local shells
  shells=$(grep -h 'execve("' "$scn_dir"/out/*.strace 2>/dev/null | grep -v 'ENOENT' |
           grep -E 'execve\("[^"]*/(sh|bash|dash|zsh)"' | head -3)
  if [ -z "$shells" ]; then pass; else fail "$scn: a shell was started: $shells"; fi
  echo "$scn: $n runs" >&2
}

# real: the topology's own key (calls succeed; push gets the ECR password)
scenario_env=(AWS_ACCESS_KEY_ID="$REAL_KEY_ID" AWS_SECRET_ACCESS_KEY="$REAL_SECRET")
run_scenario real

# env: canary keys from the environment
scenario_env=(AWS_ACCESS_KEY_ID="$CANARY_KEY_ID" AWS_SECRET_ACCESS_KEY="$CANARY_SECRET"
              AWS_SESSION_TOKEN="$CANARY_TOKEN")
run_scenario env

# profile: the credentials file
creds=$work/credentials
cat >"$creds" <<EOF
[canary]
aws_access_key_id = $CANARY_KEY_ID
aws_secret_access_key = $CANARY_PROFILE_SECRET
aws_session_token = $CANARY_PROFILE_TOKEN
EOF
chmod 600 "$creds"
scenario_env=(-u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY AWS_PROFILE=canary AWS_SHARED_CREDENTIALS_FILE="$creds")
run_scenario profile

# process: credential_process, exec'd without a shell (cat prints the JSON)
cat >"$work/process.json" <<EOF
{"Version": 1, "AccessKeyId": "$CANARY_KEY_ID", "SecretAccessKey": "$CANARY_PROCESS_SECRET",
 "SessionToken": "$CANARY_PROCESS_TOKEN", "Expiration": "2099-01-01T00:00:00Z"}
EOF
cat >"$work/config" <<EOF
[profile canaryproc]
region = us-east-1
credential_process = cat $work/process.json
[profile badproc]
region = us-east-1
credential_process = $work/badproc-bin $work/process.json
EOF
scenario_env=(-u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY AWS_PROFILE=canaryproc AWS_CONFIG_FILE="$work/config")
run_scenario process

# badproc: the process prints the secrets, then fails
cat >"$work/badproc.c" <<'EOF'
#include <stdio.h>
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "r"); int c;
    while (f && (c = fgetc(f)) != EOF) putchar(c);
    fputs("the login session ended\n", stderr);
    return 1;
}
EOF
if cc -o "$work/badproc-bin" "$work/badproc.c" 2>/dev/null; then
  scenario_env=(-u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY AWS_PROFILE=badproc AWS_CONFIG_FILE="$work/config")
  run_scenario badproc
else
  fail "no C compiler for the failing credential_process"
fi

# ---- the TUI: screens captured with canary credentials in the environment --------------------
tmux_sock=$work/tmux.sock
tui_home=$work/tui
mkdir -p "$tui_home/state" "$tui_home/config" "$tui_home/home"
tmux -S "$tmux_sock" -f /dev/null new-session -d -s s -x 160 -y 50 \
  "env AWS_ACCESS_KEY_ID=$CANARY_KEY_ID AWS_SECRET_ACCESS_KEY=$CANARY_SECRET AWS_SESSION_TOKEN=$CANARY_TOKEN \
   HOME=$tui_home/home XDG_STATE_HOME=$tui_home/state XDG_CONFIG_HOME=$tui_home/config \
   DOCKER_CONFIG=$dockercfg BYOC_DEBUG_LOG=1 TERM=xterm-256color LANG=C.UTF-8 '$BYOC_BIN' -v -v tui 2>$tui_home/stderr; sleep 3600"
capture=$tui_home/screens.txt
: >"$capture"
for key in '' 1 2 3 4 5 6 '?' Escape; do
  [ -n "$key" ] && tmux -S "$tmux_sock" send-keys -t s "$key"
  sleep 1
  tmux -S "$tmux_sock" capture-pane -p -t s >>"$capture"
  tmux -S "$tmux_sock" capture-pane -p -e -t s >>"$capture"
done
tmux -S "$tmux_sock" send-keys -t s q
sleep 0.5
if grep -q 'Decide' "$capture"; then pass; else fail "the TUI did not show its screens"; fi
scan "tui: screen captures" "$capture" "$tui_home/stderr"
files=$(find "$tui_home/state" "$tui_home/config" "$tui_home/home" -type f)
[ -n "$files" ] && scan "tui: files" $files

# ---- no shell, statically: nothing in the sources calls system() or popen() --------------------
src=$(cd "$(dirname "$0")/../.." && pwd)
calls=$(grep -rnE '(^|[^_a-z])(system|popen)[[:space:]]*\(' "$src/backend" "$src/tui" --include='*.c' | head -3)
if [ -z "$calls" ]; then pass; else fail "system()/popen() in the sources: $calls"; fi

finish
