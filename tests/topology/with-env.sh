#!/bin/bash
# with-env.sh CMD [ARGS...]: run CMD with the environment that up.sh wrote
# ($BYOC_TOPO_DIR/env.sh, default /tmp/byoc-topology). The caller's AWS_* and
# DOCKER_* variables are dropped first so a developer's own settings never leak in.
set -euo pipefail
STATE=${BYOC_TOPO_DIR:-/tmp/byoc-topology}
if [ "$#" -eq 0 ]; then
    echo "usage: with-env.sh CMD [ARGS...]" >&2
    exit 2
fi
if [ ! -r "$STATE/env.sh" ]; then
    echo "with-env.sh: $STATE/env.sh is missing: the test topology is not up (run tests/topology/up.sh as root)" >&2
    exit 3
fi
for name in $(compgen -e); do
    case $name in AWS_* | DOCKER_*) unset "$name" ;; esac
done
# shellcheck source=/dev/null
. "$STATE/env.sh"
exec "$@"
