#!/usr/bin/env bash
# SQS clients no one here wrote, against the packaged service (what .ci/run calls after the
# end-to-end checks): scenarios over the SQS surface (queues, attributes, send, receive, delete,
# batches, visibility, long polls, dead letters, FIFO queues, tags, move tasks, purge) in
#  - Python: boto3 and the AWS CLI v1 from PyPI as pinned in .ci/clients/requirements.txt (AWS JSON
#    1.0), and again as of botocore 1.33.13 (.ci/clients/requirements-query.txt), the last that
#    speaks the query protocol, so that every call goes through it;
#  - JavaScript: @aws-sdk/client-sqs from npm (.ci/clients/package-lock.json), plus requests in the
#    query protocol with fetch.
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
if [[ $failed -ne 0 ]]; then
	echo "sqs-clients: a scenario failed; the service's log: $OUT/service.log" >&2
fi
exit $failed
