#!/usr/bin/env bash
# Benchmark: `byoc push` against Debian's `/usr/bin/docker push` (the client of the same version
# as the daemon; not /usr/local/bin/docker) of the same image, side by side, on the test topology
# (dockerd, the TLS registry with moto's ECR password, moto, the registry -> moto bridge).
#
# The image: FROM byoc-test/busybox:1 plus one layer of random bytes (default 512 MiB, generated
# under /tmp, so nothing compresses it away). Runs are interleaved (byoc first on odd runs, docker
# first on even ones) and every run pushes to fresh repository names; after each push the
# repository's blobs are deleted from the registry, so the engine cannot mount them into a later
# repository: both really upload every time (checked: the big layer must say "Pushed").
# docker logs in once beforehand (not timed); byoc's time includes all it does: the repository
# check, the login token, tagging, the push and the DescribeImages check.
# Targets (issue 5): byoc's median wall time <= 1.05 x docker's; byoc's peak RSS <= 16 MiB.
#
# usage: bench/push.sh [RUNS]      (default 5; BYOC_BENCH_PUSH_MB sets the layer size, >= 500)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib.sh"
runs=${1:-5}
size_mb=${BYOC_BENCH_PUSH_MB:-512}
byoc=${BYOC_BIN:-$root/build/byoc}
docker=/usr/bin/docker
[ -x "$byoc" ] || { echo "bench: build byoc first (or set BYOC_BIN)" >&2; exit 3; }
[ -x "$docker" ] || { echo "bench: Debian's docker client is missing (apt-get install docker.io)" >&2; exit 3; }
[ "$size_mb" -ge 500 ] || { echo "bench: the layer must be >= 500 MiB (BYOC_BENCH_PUSH_MB)" >&2; exit 2; }

env_file=${BYOC_TOPO_DIR:-/tmp/byoc-topology}/env.sh
started=0
if [ ! -f "$env_file" ]; then
  "$root/tests/topology/up.sh" >&2
  started=1
fi
for name in $(compgen -e); do case $name in AWS_* | DOCKER_*) unset "$name" ;; esac; done
# shellcheck source=/dev/null
. "$env_file"
py=${BYOC_TEST_PYTHON:-python3}

work=$(mktemp -d /tmp/byoc-bench-push.XXXXXX)
src=byoc-bench/push:$size_mb-$$
login_cfg=$work/docker-login
byoc_cfg=$work/docker-byoc
mkdir -p "$login_cfg" "$byoc_cfg" "$work/ctx"
echo '{}' >"$byoc_cfg/config.json"
repos=()
cleanup() {
  set +e
  for r in "${repos[@]}"; do "$docker" rmi "$BYOC_TEST_REGISTRY/$r:1" >/dev/null 2>&1; done
  "$docker" rmi "$src" >/dev/null 2>&1
  [ ${#repos[@]} -gt 0 ] && "$py" - "${repos[@]}" <<'PY'
import sys, boto3
ecr = boto3.client("ecr")
for repo in sys.argv[1:]:
    try:
        ecr.delete_repository(repositoryName=repo, force=True)
    except Exception:
        pass
PY
  rm -rf "$work"
  [ $started = 1 ] && "$root/tests/topology/down.sh" >&2
}
trap cleanup EXIT

# registry API helper: password, and dropping a pushed repository's blobs so later pushes upload.
registry_py() {
  "$py" - "$@" <<'PY'
import base64, json, ssl, sys, urllib.request, os, boto3
ecr = boto3.client("ecr")
token = ecr.get_authorization_token()["authorizationData"][0]["authorizationToken"]
if sys.argv[1] == "password":
    print(base64.b64decode(token).decode().split(":", 1)[1])
    sys.exit(0)
if sys.argv[1] == "create":
    for repo in sys.argv[2:]:
        ecr.create_repository(repositoryName=repo)
    sys.exit(0)
repo = sys.argv[2]
host = os.environ["BYOC_TEST_REGISTRY"]
ctx = ssl.create_default_context(cafile=os.environ["BYOC_TEST_REGISTRY_CA"])
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), urllib.request.HTTPSHandler(context=ctx))
def call(method, path, accept=None):
    req = urllib.request.Request("https://%s/v2/%s/%s" % (host, repo, path), method=method,
                                 headers={"Authorization": "Basic " + token})
    if accept:
        req.add_header("Accept", accept)
    with opener.open(req, timeout=60) as r:
        return r.read(), r.headers.get("Docker-Content-Digest")
body, digest = call("GET", "manifests/1", "application/vnd.docker.distribution.manifest.v2+json")
manifest = json.loads(body)
for blob in [manifest["config"]] + manifest["layers"]:
    call("DELETE", "blobs/" + blob["digest"])
call("DELETE", "manifests/" + digest)
PY
}

# ---- the image ----
echo "bench: generating ${size_mb} MiB of random bytes under $work and building $src" >&2
dd if=/dev/urandom of="$work/ctx/blob" bs=1M count="$size_mb" status=none
printf 'FROM %s\nCOPY blob /blob\n' "$BYOC_TEST_BASE_BUSYBOX" >"$work/ctx/Dockerfile"
DOCKER_BUILDKIT=0 "$docker" build -q --network none -t "$src" "$work/ctx" >/dev/null
rm -f "$work/ctx/blob"
big=$("$docker" image inspect -f '{{index .RootFS.Layers 1}}' "$src" | cut -c8-19)

registry_py password | DOCKER_CONFIG=$login_cfg "$docker" login -u AWS --password-stdin "$BYOC_TEST_REGISTRY" >/dev/null 2>&1 ||
  { echo "bench: docker login to $BYOC_TEST_REGISTRY failed" >&2; exit 1; }

run_byoc() { # run_byoc I
  local repo=amazon-braket-bench/byoc-$$-$1 w m
  repos+=("$repo")
  registry_py create "$repo"
  read -r w _ m < <(DOCKER_CONFIG=$byoc_cfg bench_time -2 "$work/byoc.out" "$byoc" --json push "$src" --repository "$repo" --tag 1)
  grep -q "\"id\": \"$big\"" "$work/byoc.out" && grep -q "$big: Pushed" "$work/byoc.out" ||
    { echo "bench: byoc run $1 did not upload $big:" >&2; tail -5 "$work/byoc.out" >&2; exit 1; }
  registry_py drop "$repo"
  bw+=("$w"); bm+=("$m")
}

run_docker() { # run_docker I
  local repo=amazon-braket-bench/docker-$$-$1 w m
  repos+=("$repo")
  "$docker" tag "$src" "$BYOC_TEST_REGISTRY/$repo:1"
  read -r w _ m < <(DOCKER_CONFIG=$login_cfg bench_time -2 "$work/docker.out" "$docker" push "$BYOC_TEST_REGISTRY/$repo:1")
  grep -q "$big: Pushed" "$work/docker.out" ||
    { echo "bench: docker run $1 did not upload $big:" >&2; tail -5 "$work/docker.out" >&2; exit 1; }
  registry_py drop "$repo"
  dw+=("$w"); dm+=("$m")
}

bw=(); bm=(); dw=(); dm=()
echo "bench: $runs interleaved runs each (layer $big, ${size_mb} MiB)" >&2
for ((i = 1; i <= runs; i++)); do
  if ((i % 2)); then run_byoc "$i"; run_docker "$i"; else run_docker "$i"; run_byoc "$i"; fi
  echo "  run $i: byoc ${bw[-1]} s ${bm[-1]} KiB, docker ${dw[-1]} s ${dm[-1]} KiB" >&2
done

awk -v bw="$(median "${bw[@]}")" -v dw="$(median "${dw[@]}")" -v bm="$(maxof "${bm[@]}")" \
    -v dm="$(maxof "${dm[@]}")" -v n="$runs" -v mb="$size_mb" 'BEGIN {
  printf "push benchmark: %d MiB random layer on busybox, %d interleaved runs each, fresh repositories\n", mb, n
  printf "  byoc push          median wall %7.3f s   peak RSS %6d KiB\n", bw, bm
  printf "  /usr/bin/docker    median wall %7.3f s   peak RSS %6d KiB\n", dw, dm
  r = bw / dw
  printf "  wall ratio byoc/docker %.3f (target <= 1.05); byoc peak RSS %.1f MiB (target <= 16 MiB)\n", r, bm / 1024
  printf "  verdict: %s\n", (r <= 1.05 && bm <= 16384) ? "MEETS TARGET" : "MISSES TARGET"
}'
