#!/usr/bin/env bash
# byoc doctor against the real topology: dockerd, and moto checking SigV4 with real keys.
set -u
. "$BYOC_SOURCE_DIR/tests/integration/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. Everything in place: exit 0, the identity moto knows, no secret anywhere.
run_byoc doctor --json
expect_rc 0 "doctor --json with the topology"
json_eq '.engine.ok' true
json_eq '.engine.api_version' 1.41
json_eq '.account' "$BYOC_TEST_ACCOUNT"
json_eq '.arn' "arn:aws:iam::$BYOC_TEST_ACCOUNT:user/byoc-test"
json_eq '.region' us-east-1
json_eq '.credentials.source' env
json_eq '.endpoints.braket.url' "$AWS_ENDPOINT_URL_BRAKET"
json_eq '.endpoints.braket.override' true
json_eq '.endpoints.sts.origin' AWS_ENDPOINT_URL
expect_no_secret "$AWS_SECRET_ACCESS_KEY"

run_byoc doctor
expect_rc 0 "doctor (text)"
expect_out 'identity +ok +arn:aws:iam::123456789012:user/byoc-test'
expect_no_secret "$AWS_SECRET_ACCESS_KEY"

# 2. A wrong secret: moto refuses the signature; exit 3, the cause named once (in the report,
#    with its fix; stderr only names the part), the secret never shown.
bad_secret="wrongSECRETwrongSECRETwrongSECRET0123456"
AWS_SECRET_ACCESS_KEY=$bad_secret run_byoc doctor
expect_rc 3 "doctor with a wrong secret"
expect_out '^identity +FAIL .*(signature|Signature)'
expect_out '^ +fix: check that the keys are current'
expect_err '^byoc: doctor: not ready: identity '
expect_err_lines 1
expect_eq "$(grep -ci 'signature' "$ERR" | tr -d ' ')" 0 "stderr does not repeat the cause"
expect_no_secret "$bad_secret"

# 3. Credentials from a profile in the shared files (env keys removed), region from the profile.
cat > "$tmp/credentials" <<EOT
[dev]
aws_access_key_id = $AWS_ACCESS_KEY_ID
aws_secret_access_key = $AWS_SECRET_ACCESS_KEY
EOT
cat > "$tmp/config" <<EOT
[profile dev]
region = us-east-1
EOT
chmod 600 "$tmp/credentials" "$tmp/config"
env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY -u AWS_REGION -u AWS_DEFAULT_REGION \
    AWS_SHARED_CREDENTIALS_FILE="$tmp/credentials" AWS_CONFIG_FILE="$tmp/config" AWS_PROFILE=dev \
    bash -c '. "$BYOC_SOURCE_DIR/tests/integration/lib.sh"; run_byoc doctor --json; echo "$RC" > '"$tmp/rc"'; cp "$OUT" '"$tmp/out.json"
RC=$(cat "$tmp/rc"); cp "$tmp/out.json" "$OUT"; : > "$ERR"
expect_rc 0 "doctor with AWS_PROFILE=dev"
json_eq '.credentials.source' shared-credentials-file
json_eq '.credentials.profile' dev
json_eq '.region' us-east-1
json_eq '.account' "$BYOC_TEST_ACCOUNT"

# --profile overrides AWS_PROFILE; a profile that does not exist is named once, with a fix line.
run_byoc --profile nosuchprofile doctor
expect_rc_in "2 3" "doctor --profile nosuchprofile"
expect_out '^aws config +FAIL --profile: the config profile \(nosuchprofile\) could not be found'
expect_out '^ +fix: name a profile the config file has, or create this one: aws configure --profile nosuchprofile$'
expect_err '^byoc: doctor: not ready: .*aws config'
expect_eq "$(grep -c 'nosuchprofile' "$ERR" | tr -d ' ')" 0 "stderr does not repeat the cause"
AWS_PROFILE=gone run_byoc doctor
expect_rc 3 "doctor with AWS_PROFILE naming no profile"
expect_out '^aws config +FAIL AWS_PROFILE: the config profile \(gone\) could not be found'
expect_out '^ +fix: unset AWS_PROFILE to use the default profile, or create this one: aws configure --profile gone$'
AWS_PROFILE=gone run_byoc doctor --json
json_eq '.credentials.fix' 'unset AWS_PROFILE to use the default profile, or create this one: aws configure --profile gone'

# 4. No engine: exit 3; the report says why with the fix, stderr one line naming the part
#    (the engine's failure is not printed twice).
DOCKER_HOST=unix://$tmp/no.sock run_byoc doctor --local
expect_rc 3 "doctor --local without an engine"
expect_out '^engine +FAIL engine: no Docker engine at unix://.*/no.sock.*start dockerd'
expect_eq "$(grep -c 'no Docker engine' "$OUT" | tr -d ' ')" 1 "the engine's failure once in the report"
expect_err '^byoc: doctor: not ready for the local target: engine \('
expect_err_lines 1
expect_eq "$(grep -c 'no Docker engine' "$ERR" | tr -d ' ')" 0 "and not again on stderr"
DOCKER_HOST=unix://$tmp/no.sock run_byoc doctor --local --json
json_eq '.engine.fix' 'start dockerd, or point DOCKER_HOST at a running engine'
expect_err_lines 1

# 5. The local target needs no AWS at all.
env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY -u AWS_REGION -u AWS_DEFAULT_REGION \
    bash -c '. "$BYOC_SOURCE_DIR/tests/integration/lib.sh"; run_byoc doctor --local --json; echo "$RC" > '"$tmp/rc"
expect_eq "$(cat "$tmp/rc")" 0 "doctor --local without credentials"

# 7. No region: the region line fails once, with its fix; what needs a region says it was skipped
#    instead of repeating the region's failure.
env -u AWS_REGION -u AWS_DEFAULT_REGION AWS_CONFIG_FILE="$tmp/none" AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true \
    bash -c '. "$BYOC_SOURCE_DIR/tests/integration/lib.sh"; run_byoc doctor; echo "$RC" > '"$tmp/rc"'; cp "$OUT" '"$tmp/out.txt"
expect_eq "$(cat "$tmp/rc")" 3 "doctor without a region"
cp "$tmp/out.txt" "$OUT"
expect_out '^region +FAIL'
expect_out '^ +fix: pass --region'
expect_eq "$(grep -ci 'region' "$OUT" | tr -d ' ')" 7 "region named once as a failure, once in its fix, 5 skips"
expect_eq "$(grep -c 'skipped: no region' "$OUT")" 5 "identity, ecr, braket, s3, logs skipped"
expect_out '^  braket +skipped: no region$'
env -u AWS_REGION -u AWS_DEFAULT_REGION AWS_CONFIG_FILE="$tmp/none" AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true \
    bash -c '. "$BYOC_SOURCE_DIR/tests/integration/lib.sh"; run_byoc doctor --json; cp "$OUT" '"$tmp/out.json"
cp "$tmp/out.json" "$OUT"
json_eq '.endpoints.ecr.skipped' 'no region'
json_eq '.endpoints.ecr.error' null
json_eq '.region' null

# 6. Bad usage: exit 2, nothing else.
run_byoc doctor --bogus
expect_rc 2 "doctor --bogus"
expect_err "unknown flag '--bogus'"
run_byoc doctor extra
expect_rc 2 "doctor extra"

finish
