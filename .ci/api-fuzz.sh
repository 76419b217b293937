#!/usr/bin/env bash
# Fuzzes the running service from its own OpenAPI description with Schemathesis (PyPI): every
# generated request must get an answer that matches the description, and never a 5xx.
# Needs the packaged jar (./mvnw verify or package first). Bounded: 100 examples per operation.
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
mkdir -p target/api-fuzz
venv=target/api-fuzz/venv
if [ ! -x "$venv/bin/schemathesis" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "schemathesis==$SCHEMATHESIS_VERSION"
fi

source scripts/lib/service.sh
trap stop_service EXIT
SERVICE_LOG=target/api-fuzz/service.log start_service "" # the default strategy

timeout 600 "$venv/bin/schemathesis" --config-file .ci/schemathesis.toml run "$BASE_URL/v3/api-docs" \
  --url "$BASE_URL" --max-examples 100 --generation-deterministic --request-timeout 10
