#!/bin/bash
# The Push form starts from what byoc.json already knows, at 80x24: the repository is the
# project's name and the source image the one Build tags (<name>:latest), each marked
# "(from byoc.json)" as the Decide form marks where an answer came from; the mark goes as
# soon as the value is changed.
. "$(dirname "$0")/lib.sh"

: "${DOCKER_HOST:?run through tests/topology/with-env.sh}"
E2E_TIMEOUT=${E2E_TIMEOUT:-30}
P="$E2E_DIR/proj"
mkdir -p "$P"
printf '{"name": "amazon-braket-e2e-defaults", "recipe": "extend-prebuilt", "language": "python"}\n' >"$P/byoc.json"

s=defaults
e2e_start $s 80 24 -- --project "$P" tui
e2e_wait $s 'Decide' "byoc starts"
e2e_keys $s 3
e2e_wait $s '3 Push' "3 opens Push"
e2e_wait $s 'Repository\*? +amazon-braket-e2e-defaults +\(from byoc\.json\)' "the repository comes from byoc.json, marked so"
e2e_has $s 'Source image\*? +amazon-braket-e2e-defaults:latest +\(from byoc\.json\)' "the source image is the one Build tags"
e2e_keys $s e Tab
e2e_type $s "v2"
e2e_wait $s 'Repository\*? +amazon-braket-e2e-defaultsv2 *([│|]|$)' "a changed value loses the mark"
e2e_has $s 'Source image\*? +amazon-braket-e2e-defaults:latest +\(from byoc\.json\)' "the unchanged one keeps it"
e2e_keys $s Escape
e2e_done
