#!/bin/bash
# The forms start from what the project already knows, at 80x24 (issue 19 point 6, issue 17
# points 1 and 5). A Julia project (custom-base) whose byoc.json names the job's source, entry
# point and role, and its last push:
#   Push    the repository is the project's name, the source image the one Build tags
#           (<name>:latest), the tag what the push gives (the source's), each marked
#           "(from byoc.json)" / "(from source image)"; a changed value loses its mark, and the
#           tag follows the source while it is the default;
#   Permit  the repository of the last push and the job's role, with where each came from;
#   Run     the job spec's defaults as `byoc run` takes them (the image of the last push), the
#           source of each shown; with the image field emptied the entry point julia/main.jl is
#           still byoc's launcher's (not refused as "not dotted"), and the review names the
#           values byoc.json gave.
. "$(dirname "$0")/lib.sh"

: "${DOCKER_HOST:?run through tests/topology/with-env.sh}"
: "${AWS_ENDPOINT_URL_BRAKET:?run through tests/topology/with-env.sh}"
E2E_TIMEOUT=${E2E_TIMEOUT:-30}
P="$E2E_DIR/proj"
mkdir -p "$P/julia"
printf 'println("hello")\n' >"$P/julia/main.jl"
ROLE="arn:aws:iam::123456789012:role/service-role/AmazonBraketJobsExecutionRole-e2e"
LAST="123456789012.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-e2e-last:v7"
cat >"$P/byoc.json" <<EOF
{"name": "amazon-braket-e2e-defaults", "recipe": "custom-base", "language": "julia",
 "job": {"source_module": "julia", "entry_point": "julia/main.jl", "role_arn": "$ROLE"},
 "pushed": {"image_uri": "$LAST", "digest": "sha256:$(printf '0%.0s' $(seq 64))"}}
EOF

s=defaults
e2e_start $s 80 24 -- --project "$P" tui
e2e_wait $s 'Decide' "byoc starts"

# --- Push ------------------------------------------------------------------------------------
e2e_keys $s 3
e2e_wait $s '3 Push' "3 opens Push"
e2e_wait $s 'Repository\*? +amazon-braket-e2e-defaults +\(from byoc\.json\)' "the repository comes from byoc.json, marked so"
e2e_has $s 'Source image\*? +amazon-braket-e2e-defaults:latest +\(from byoc\.json\)' "the source image is the one Build tags"
e2e_has $s 'Tag +latest +\(from source image\)' "the tag is the one the push gives, marked so"
e2e_keys $s e Tab
e2e_type $s "v2"
e2e_wait $s 'Repository\*? +amazon-braket-e2e-defaultsv2 *([│|]|$)' "a changed value loses the mark"
e2e_has $s 'Source image\*? +amazon-braket-e2e-defaults:latest +\(from byoc\.json\)' "the unchanged one keeps it"
e2e_keys $s BTab C-u
e2e_type $s "amazon-braket-e2e-defaults:v3"
e2e_wait $s 'Tag +v3 +\(from source image\)' "the default tag follows the source"
e2e_keys $s Tab Tab C-u
e2e_type $s "mine"
e2e_keys $s BTab BTab C-u
e2e_type $s "amazon-braket-e2e-defaults:v4"
e2e_wait $s 'Source image\*? +amazon-braket-e2e-defaults:v4' "the source changes again"
e2e_has $s 'Tag +mine *([│|]|$)' "a tag of the user's own stays"
e2e_keys $s Escape

# --- Permit ----------------------------------------------------------------------------------
e2e_keys $s 4
e2e_wait $s '4 Permit' "4 opens Permit"
e2e_wait $s 'Repository\*? +amazon-braket-e2e-last +\(from last push\)' "the repository is the last push's, marked so"
e2e_has $s 'Execution role .*AmazonBraketJobsExecutionRole-e2e' "the role is the job's"
e2e_has $s 'From last push: Repository' "where each came from, also for a value too long for the mark"
e2e_has $s 'From byoc\.json: Execution role' "the role from byoc.json"

# --- Run -------------------------------------------------------------------------------------
e2e_keys $s 5
e2e_wait $s '5 Run' "5 opens Run"
e2e_wait $s 'Image 123456789012\.dkr\.ecr\.us-east-1\.amazonaws\.com/amazon-' "the image is the last push's"
e2e_has $s 'Source julia +entry julia/main\.jl' "the code is byoc.json's"
e2e_has $s 'From byoc\.json: source module, entry point, role ARN' "the fields byoc.json filled are named"
e2e_has $s 'From last push: image URI' "and the one the last push filled"
e2e_keys $s e
e2e_wait $s 'Code: entry point +julia/main\.jl +\(from byoc\.json\)' "the form marks the entry point"
e2e_keys $s Tab Tab
e2e_wait $s 'Container: image URI: from last push' "the focused image's source is said under the form"
e2e_keys $s C-u
e2e_keys $s BTab
e2e_wait $s 'Code: entry point: from byoc\.json' "the image field is emptied, the entry point focused"
e2e_lacks $s 'dotted' "the entry point is byoc's launcher's, not refused as a module path"
e2e_keys $s Escape
e2e_wait $s 'Image \(the Braket base image\)' "the summary says the image is now the base image"
e2e_has $s 'From byoc\.json: source module, entry point, role ARN' "the byoc.json values keep their source"
e2e_keys $s s
e2e_wait $s 'CreateJob request' "s: the form is valid with julia/main.jl and no image, the review opens"
e2e_has $s 'From byoc\.json +source_module, entry_point, role_arn' "the review names what byoc.json gave"
e2e_has $s 'ExecutionRole-e2e \(from byoc\.json\)' "the role's source too"
e2e_has $s 'no image: the job runs on the Braket base image' "and warns that no image means the base image"
e2e_lacks $s 'dotted' "the entry point is not refused"
e2e_keys $s Escape
e2e_wait $s 'Ready: e edits the form|Failed' "back from the review"
e2e_keys $s C-c
e2e_wait_exit $s
e2e_done
