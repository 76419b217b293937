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

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
java -jar target/queue-service-*.jar --server.address=127.0.0.1 --server.port="$port" \
  > target/api-fuzz/service.log 2>&1 &
service=$!
trap 'kill $service 2>/dev/null || true; wait $service 2>/dev/null || true' EXIT
for _ in $(seq 60); do
  curl -sf "http://127.0.0.1:$port/actuator/health" > /dev/null && break
  sleep 1
done

timeout 600 "$venv/bin/schemathesis" run "http://127.0.0.1:$port/v3/api-docs" \
  --url "http://127.0.0.1:$port" --max-examples 100 --generation-deterministic --request-timeout 10
