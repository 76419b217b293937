#!/usr/bin/env bash
# SQS clients no one here wrote, against the packaged service (what .ci/run calls after the
# end-to-end checks): scenarios over the SQS surface (queues, attributes, send, receive, delete,
# batches, visibility, long polls, dead letters, FIFO queues, tags, move tasks, purge) in
#  - Python: boto3 and the AWS CLI v1 from PyPI as pinned in .ci/clients/requirements.txt (AWS JSON
#    1.0), and again as of botocore 1.33.13 (.ci/clients/requirements-query.txt), the last that
#    speaks the query protocol, so that every call goes through it;
#  - JavaScript: @aws-sdk/client-sqs from npm (.ci/clients/package-lock.json), plus requests in the
#    query protocol with fetch.
# Then all of them again against a service that checks SigV4 signatures and queue policies, with
# the scenarios of what it refuses.
# Virtual environments and node_modules live under target/sqs-clients and are reused. The jar is
# target/queue-service-*.jar, built if missing (./mvnw package -DskipTests). The scenarios:
# .ci/clients/sqs_scenarios.py and sqs-scenarios.mjs, one function per part of the surface.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
source scripts/lib/service.sh
OUT="$ROOT/target/sqs-clients"
CLIENTS="$ROOT/.ci/clients"
mkdir -p "$OUT"
trap stop_service EXIT INT TERM

step() { echo "== sqs-clients: $*"; }

venv() { # dir requirements
	if [[ ! -x "$1/bin/python" ]]; then
		python3 -m venv "$1"
	fi
	"$1/bin/pip" install -q --disable-pip-version-check -r "$2"
}

if ! compgen -G "target/queue-service-*.jar" >/dev/null; then
	step "packaging the service"
	./mvnw -B -q package -DskipTests
fi

step "installing the clients (PyPI, npm) under target/sqs-clients"
venv "$OUT/python" "$CLIENTS/requirements.txt"
venv "$OUT/python-query" "$CLIENTS/requirements-query.txt"
mkdir -p "$OUT/node"
cp "$CLIENTS/package.json" "$CLIENTS/package-lock.json" "$CLIENTS/sqs-scenarios.mjs" "$OUT/node/"
(cd "$OUT/node" && npm ci --no-audit --no-fund --loglevel=error)

step "starting the service (default strategy)"
SERVICE_LOG="$OUT/service.log" start_service ""

failed=0
"$OUT/python/bin/python" "$CLIENTS/sqs_scenarios.py" "$BASE_URL" --protocol json || failed=1
"$OUT/python-query/bin/python" "$CLIENTS/sqs_scenarios.py" "$BASE_URL" --protocol query || failed=1
node "$OUT/node/sqs-scenarios.mjs" "$BASE_URL" || failed=1
stop_service

# The same clients against a service that checks SigV4 signatures and enforces queue policies
# (docs/security.md): the owner's key signs every call; another account's key is refused what its
# policy does not allow. Test keys of this run only.
step "starting the service with qs.security.sigv4.enabled"
owner_key="AKIDCIOWNER" owner_secret="ci-owner-secret-$RANDOM$RANDOM"
other_key="AKIDCIOTHER" other_secret="ci-other-secret-$RANDOM$RANDOM" other_account=111111111111
SERVICE_LOG="$OUT/service-sigv4.log" start_service "" -- --qs.security.sigv4.enabled=true \
	--qs.security.sigv4.keys[0].access-key-id=$owner_key --qs.security.sigv4.keys[0].secret-key="$owner_secret" \
	--qs.security.sigv4.keys[0].account-id=000000000000 \
	--qs.security.sigv4.keys[1].access-key-id=$other_key --qs.security.sigv4.keys[1].secret-key="$other_secret" \
	--qs.security.sigv4.keys[1].account-id=$other_account
signed=(--key "$owner_key:$owner_secret" --other-key "$other_key:$other_secret:$other_account")
"$OUT/python/bin/python" "$CLIENTS/sqs_scenarios.py" "$BASE_URL" --protocol json "${signed[@]}" || failed=1
"$OUT/python-query/bin/python" "$CLIENTS/sqs_scenarios.py" "$BASE_URL" --protocol query "${signed[@]}" || failed=1
QS_SIGV4_KEY="$owner_key:$owner_secret" node "$OUT/node/sqs-scenarios.mjs" "$BASE_URL" || failed=1
if grep -q -e "$owner_secret" -e "$other_secret" "$OUT/service-sigv4.log"; then
	echo "sqs-clients: a secret key is in the service's log" >&2
	failed=1
fi

if [[ $failed -ne 0 ]]; then
	echo "sqs-clients: a scenario failed; the service's logs: $OUT/service.log, $OUT/service-sigv4.log" >&2
fi
exit $failed
