#!/usr/bin/env bash
# End-to-end check of the load-test and observability set-up (what .ci/run calls after the tests):
#  1. Grafana dashboards against Grafana's own schema, docker-compose.yml against the Compose spec
#     (pinned npm tools in .ci/tools);
#  2. the packaged service and Prometheus (Debian's package; the project's scrape config rewritten
#     for loopback) on 127.0.0.1, a short Gatling simulation (under a minute) that must pass its
#     own assertions (no failed request, nothing lost);
#  3. every expression of every dashboard panel evaluated against that Prometheus: any that
#     returns no data fails the check.
# Environment: E2E_STRATEGY (default synchronized), E2E_DURATION (s, default 30).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
source scripts/lib/service.sh
STRATEGY="${E2E_STRATEGY:-synchronized}"
DURATION="${E2E_DURATION:-30}"
WORK="$(mktemp -d -t qs-e2e.XXXXXX)"
PIDS=()
started=$(date +%s)

cleanup() {
	local pid
	stop_service
	for pid in "${PIDS[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${PIDS[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

step() { echo "== e2e [$(($(date +%s) - started))s] $*"; }

wait_http() { # url what
	for _ in $(seq 1 120); do
		curl -fsS "$1" >/dev/null 2>&1 && return 0
		sleep 0.5
	done
	echo "$2 did not answer at $1" >&2
	return 1
}

step "static checks: dashboards against @grafana/schema, docker-compose.yml against the Compose spec"
(cd .ci/tools && npm ci --no-audit --no-fund --loglevel=error)
node .ci/tools/validate-dashboards.mjs grafana/dashboards/*.json
.ci/tools/node_modules/.bin/dclint docker-compose.yml \
	--disable-rule service-keys-order services-alphabetical-order require-quotes-in-ports
echo "valid: docker-compose.yml (dclint, Compose spec schema)"

if ! command -v prometheus >/dev/null; then
	step "installing Prometheus from Debian's package"
	if [[ "$(id -u)" != 0 ]]; then
		echo "prometheus is missing: apt-get install prometheus (as root)" >&2
		exit 1
	fi
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
fi
prometheus --version 2>&1 | head -1

step "packaging the service and compiling the simulations"
./mvnw -B -q package -DskipTests
./mvnw -B -q -f gatling/pom.xml test-compile

step "starting the service ($STRATEGY)"
SERVICE_LOG="$WORK/service.log" start_service "$STRATEGY"
APP_PORT="$PORT"

PROM_PORT="$(free_port)"
step "starting Prometheus on 127.0.0.1:$PROM_PORT with prometheus/prometheus.yml aimed at the service"
sed -E "s#targets: \[\"queue-service:8080\"\]#targets: [\"127.0.0.1:$APP_PORT\"]#" prometheus/prometheus.yml >"$WORK/prometheus.yml"
grep -q "127.0.0.1:$APP_PORT" "$WORK/prometheus.yml" || { echo "could not retarget prometheus/prometheus.yml" >&2; exit 1; }
SCRAPE="$(sed -nE 's/^ *scrape_interval: *([0-9]+)s.*/\1/p' "$WORK/prometheus.yml" | tail -1)"
prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
	--web.listen-address="127.0.0.1:$PROM_PORT" >"$WORK/prometheus.log" 2>&1 &
PIDS+=($!)
wait_http "http://127.0.0.1:$PROM_PORT/-/ready" "Prometheus" || { cat "$WORK/prometheus.log"; exit 1; }

START=$(date +%s)
# The Fair queues panels read the qs_fair_* gauges, which exist for a standard queue with message
# groups: a backlog of one group (noisy once 30 are released) and two quiet groups' messages.
step "a fair queue: a backlog of one message group and two quiet ones (REST ?group= and batch groups)"
fair_batch="$(python3 -c 'import json; print(json.dumps({"messages": [{"body": f"backlog {i}", "group": "noisy"} for i in range(40)]}))')"
curl -fsS -o /dev/null -X POST "http://127.0.0.1:$APP_PORT/queues/e2e-fair/messages/batch" -H 'Content-Type: application/json' -d "$fair_batch"
for group in quiet-1 quiet-2; do
	curl -fsS -o /dev/null -X POST "http://127.0.0.1:$APP_PORT/queues/e2e-fair/messages?group=$group" -H 'Content-Type: text/plain' -d "small"
done
curl -fsS "http://127.0.0.1:$APP_PORT/queues/e2e-fair" | python3 -c 'import json,sys; print("fair:", json.load(sys.stdin)["fair"])'
# Throttled (the check is about data reaching every panel, not capacity), so the drain is short.
step "Gatling: preset 4-4 at 400 pushes/s for ${DURATION}s, then drain and the nothing-lost checks"
./mvnw -B -q -f gatling/pom.xml gatling:test -Dgatling.simulationClass=io.github.qsbench.gatling.QueueSimulation \
	-DbaseUrl="http://127.0.0.1:$APP_PORT" -Dpreset=4-4 -DdurationSeconds="$DURATION" -Drate=400 -DdrainSeconds=20 \
	-DcountsFile="$WORK/counts.json" >"$WORK/gatling.log" 2>&1 || { tail -60 "$WORK/gatling.log"; echo "Gatling run failed" >&2; exit 1; }
grep -E "QueueSimulation counts|count of failed events" "$WORK/gatling.log"

step "waiting two scrape intervals (${SCRAPE}s each)"
sleep $((2 * SCRAPE + 1))
up="$(curl -fsS "http://127.0.0.1:$PROM_PORT/api/v1/query?query=up" | python3 -c 'import json,sys; print([r["value"][1] for r in json.load(sys.stdin)["data"]["result"]])')"
echo "Prometheus target up: $up"

step "evaluating every dashboard panel expression against Prometheus"
python3 .ci/check-dashboard-queries.py --prometheus "http://127.0.0.1:$PROM_PORT" --strategy "$STRATEGY" \
	--start "$START" --step "${SCRAPE}s" --rate-interval "$((4 * SCRAPE))s" grafana/dashboards/*.json

step "end-to-end check passed"
