#!/usr/bin/env bash
# The end-to-end study: the same Gatling load against each strategy of the packaged service.
#
# For each strategy it starts the jar on 127.0.0.1 (a free port), waits for health, runs one
# unrecorded warm-up and then QueueSimulation for every preset, and stops the service. In the same
# run it measures the HTTP stack's ceiling: CeilingSimulation (a no-op, GET /actuator/info, at the
# same number of users) for every preset. It keeps every Gatling HTML report and writes a summary.
#
#   flock /tmp/qs-bench.lock scripts/e2e-study.sh            # all four strategies, all presets
#   STRATEGIES="synchronized concurrent-atomic" PRESETS="4-4" DURATION=10 scripts/e2e-study.sh
#
# Environment: STRATEGIES, PRESETS (consumers-producers), DURATION (s per run, default 15),
# WARMUP (s, default 5), DRAIN (longest drain in s, default 60), MESSAGE_BYTES (100),
# RATE (pushes/s, 0 = unthrottled), CEILING_PATH (default /actuator/info),
# OUT (default target/e2e-study/<UTC time>), SUMMARY (default docs/e2e-study.md; empty = none),
# BASELINE_JAR (another build of the service, e.g. an older commit's: it runs the same ceiling
# and strategies in the same run, so the summary can compare CPU per request with it).
#
# Around every run the service's CPU time (utime + stime from /proc) is read; the summary
# divides it by the requests the run made: the server's CPU per request, whatever Gatling costs.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

STRATEGIES="${STRATEGIES:-synchronized read-write-lock concurrent-pojo concurrent-atomic}"
PRESETS="${PRESETS:-1-1 4-1 1-4 4-4}"
DURATION="${DURATION:-15}"
DRAIN="${DRAIN:-60}"
CEILING_PATH="${CEILING_PATH:-/actuator/info}"
WARMUP="${WARMUP:-5}"
MESSAGE_BYTES="${MESSAGE_BYTES:-100}"
RATE="${RATE:-0}"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
OUT="${OUT:-$ROOT/target/e2e-study/$STAMP}"
SUMMARY="${SUMMARY-$ROOT/docs/e2e-study.md}"
JAR="$ROOT/target/queue-service-0.1.0-SNAPSHOT.jar"
BASELINE_JAR="${BASELINE_JAR:-}"
MVN=("$ROOT/mvnw" -B -q -f "$ROOT/gatling/pom.xml")

mkdir -p "$OUT"
SERVICE_PID=""
cleanup() {
	if [[ -n "$SERVICE_PID" ]] && kill -0 "$SERVICE_PID" 2>/dev/null; then
		kill "$SERVICE_PID" 2>/dev/null || true
		wait "$SERVICE_PID" 2>/dev/null || true
	fi
}
trap cleanup EXIT INT TERM

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start_service() { # profile [jar]
	local profile="$1"
	PORT="$(free_port)"
	java -Xms512m -Xmx512m -jar "${2:-$JAR}" --server.address=127.0.0.1 --server.port="$PORT" \
		--spring.profiles.active="$profile" >"$OUT/service-$profile.log" 2>&1 &
	SERVICE_PID=$!
	for _ in $(seq 1 120); do
		if curl -fsS "http://127.0.0.1:$PORT/actuator/health" >/dev/null 2>&1; then
			echo "service '$profile' up on 127.0.0.1:$PORT (pid $SERVICE_PID)"
			return 0
		fi
		kill -0 "$SERVICE_PID" 2>/dev/null || { cat "$OUT/service-$profile.log"; echo "service '$profile' died" >&2; exit 1; }
		sleep 0.5
	done
	echo "service '$profile' not healthy after 60 s" >&2
	exit 1
}

stop_service() {
	kill "$SERVICE_PID"
	wait "$SERVICE_PID" 2>/dev/null || true
	SERVICE_PID=""
}

cpu_ticks() { # the service's utime + stime, in clock ticks (1/100 s)
	awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$SERVICE_PID/stat"
}

gatling() { # simulation name preset duration counts-file [extra -D...]
	local sim="$1" preset="$2" duration="$3" counts="$4" status=0
	shift 4
	cpu_ticks >"${counts%.json}.cpu"
	"${MVN[@]}" gatling:test -Dgatling.simulationClass="io.github.qsbench.gatling.$sim" \
		-DbaseUrl="http://127.0.0.1:$PORT" -Dpreset="$preset" -DdurationSeconds="$duration" \
		-DmessageBytes="$MESSAGE_BYTES" -Drate="$RATE" -DdrainSeconds="$DRAIN" -DceilingPath="$CEILING_PATH" \
		-DcountsFile="$counts" "$@" || status=$?
	cpu_ticks >>"${counts%.json}.cpu"
	return $status
}

# Gatling writes each report to gatling/target/gatling/<simulation>-<time>/; keep_report moves the
# folders that appeared since mark_reports next to the run's counts (or deletes them).
REPORTS="$ROOT/gatling/target/gatling"
mark_reports() {
	mkdir -p "$REPORTS"
	ls -1 "$REPORTS" | sort >"$OUT/.reports-before"
}
keep_report() { # destination, or empty to delete
	local dir
	for dir in $(ls -1 "$REPORTS" | sort | comm -13 "$OUT/.reports-before" -); do
		[[ -d "$REPORTS/$dir" ]] || continue
		if [[ -n "$1" ]]; then mv "$REPORTS/$dir" "$1"; else rm -rf "${REPORTS:?}/$dir"; fi
	done
}

echo "study $STAMP: strategies [$STRATEGIES], presets [$PRESETS], ${DURATION}s each; output $OUT"
cat /proc/loadavg >"$OUT/loadavg-start"
"$ROOT/mvnw" -B -q package -DskipTests
"${MVN[@]}" test-compile

status=0
for build in current ${BASELINE_JAR:+baseline}; do
jar="$JAR" tag=""
[[ "$build" == baseline ]] && jar="$BASELINE_JAR" tag="@baseline"
# The ceiling: the same users on a request that touches no queue, on the default strategy's service.
start_service concurrent-atomic "$jar"
mark_reports
gatling CeilingSimulation 4-4 "$WARMUP" "$OUT/warmup-ceiling.json" -Dgatling.noReports=true >"$OUT/warmup-ceiling.log" 2>&1 || true
keep_report ""
for preset in $PRESETS; do
	echo "ceiling$tag, preset $preset"
	mark_reports
	if gatling CeilingSimulation "$preset" "$DURATION" "$OUT/ceiling$tag-$preset.json" >"$OUT/ceiling$tag-$preset.log" 2>&1; then :; else
		echo "  FAILED (see $OUT/ceiling$tag-$preset.log)"; status=1
	fi
	keep_report "$OUT/report-ceiling$tag-$preset"
done
stop_service

for strategy in $STRATEGIES; do
	start_service "$strategy" "$jar"
	mark_reports
	gatling QueueSimulation 4-4 "$WARMUP" "$OUT/warmup-$strategy$tag.json" -Dgatling.noReports=true \
		>"$OUT/warmup-$strategy$tag.log" 2>&1 || true
	keep_report ""
	for preset in $PRESETS; do
		echo "$strategy$tag, preset $preset"
		mark_reports
		if gatling QueueSimulation "$preset" "$DURATION" "$OUT/$strategy$tag-$preset.json" >"$OUT/$strategy$tag-$preset.log" 2>&1; then :; else
			echo "  FAILED (see $OUT/$strategy$tag-$preset.log)"; status=1
		fi
		keep_report "$OUT/report-$strategy$tag-$preset"
	done
	stop_service
done
done
cat /proc/loadavg >"$OUT/loadavg-end"

python3 "$ROOT/scripts/e2e-summary.py" "$OUT" --strategies $STRATEGIES --presets $PRESETS \
	${BASELINE_JAR:+--baseline "$BASELINE_JAR"} >"$OUT/summary.md"
if [[ -n "$SUMMARY" ]]; then
	mkdir -p "$(dirname "$SUMMARY")"
	cp "$OUT/summary.md" "$SUMMARY"
fi
cat "$OUT/summary.md"
echo "reports and logs: $OUT"
exit $status
