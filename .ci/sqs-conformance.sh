#!/usr/bin/env bash
# SQS conformance from SQS's own API model, against the packaged service (what .ci/run calls after
# .ci/sqs-clients.sh): .ci/sqs_conformance.py generates, for every operation of botocore's SQS model
# (.ci/clients/requirements-conformance.txt pins it) and on both protocols (AWS JSON 1.0 and query),
# a valid request, each required member missing, each member of a wrong type, boundary values and an
# unknown member, and checks that every answer is a well-formed SQS success or error: never a 5xx,
# never the REST API's problem+json, never a dropped connection. Seeded (SQS_CONFORMANCE_SEED,
# default 35) and deterministic; about a minute. The virtual environment lives under
# target/sqs-conformance and is reused; the jar is target/queue-service-*.jar, built if missing.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
source scripts/lib/service.sh
OUT="$ROOT/target/sqs-conformance"
mkdir -p "$OUT"
trap stop_service EXIT INT TERM

step() { echo "== sqs-conformance: $*"; }

if ! compgen -G "target/queue-service-*.jar" >/dev/null; then
	step "packaging the service"
	./mvnw -B -q package -DskipTests
fi

step "installing botocore (PyPI) under target/sqs-conformance"
if [[ ! -x "$OUT/python/bin/python" ]]; then
	python3 -m venv "$OUT/python"
fi
"$OUT/python/bin/pip" install -q --disable-pip-version-check -r .ci/clients/requirements-conformance.txt

step "starting the service (default strategy)"
SERVICE_START_SECONDS="${SERVICE_START_SECONDS:-120}" SERVICE_LOG="$OUT/service.log" start_service ""

status=0
timeout 600 "$OUT/python/bin/python" .ci/sqs_conformance.py "$BASE_URL" \
	--query-model src/main/resources/io/github/qsbench/sqs/sqs-query-2012-11-05.json \
	--seed "${SQS_CONFORMANCE_SEED:-35}" || status=$?
if [[ $status -ne 0 ]]; then
	echo "sqs-conformance: failures above; the service's log: $OUT/service.log" >&2
fi
exit $status
