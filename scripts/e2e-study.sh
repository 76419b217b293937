#!/usr/bin/env bash
# The end-to-end study: the same Gatling load against each strategy of the packaged service.
#
# For each strategy it starts the jar on 127.0.0.1 (a free port), waits for health, runs one
# unrecorded warm-up and then QueueSimulation for every preset, and stops the service. In the same
# run it measures the HTTP stack's ceiling: CeilingSimulation (a no-op, GET /actuator/info, at the
# same number of users) for every preset. It keeps every Gatling HTML report and writes a summary.
#
#   flock /tmp/qs-bench.lock scripts/e2e-study.sh            # every strategy, all presets
#   STRATEGIES="synchronized concurrent-atomic" PRESETS="4-4" DURATION=10 scripts/e2e-study.sh
#
# Environment: STRATEGIES (default: every profile of the Strategy enum), PRESETS (consumers-producers), DURATION (s per run, default 15),
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
source "$ROOT/scripts/lib/service.sh"

STRATEGIES="${STRATEGIES:-}" # empty: every strategy, listed once the code is built
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
BASELINE_JAR="${BASELINE_JAR:-}"
MVN=("$ROOT/mvnw" -B -q -f "$ROOT/gatling/pom.xml")

mkdir -p "$OUT"
trap stop_service EXIT
trap "exit 130" INT
trap "exit 143" TERM

# The study's service: a fixed heap, its log beside the run's results; the jar under study, or
# another build given as the second argument.
start_study_service() { # profile [jar]
	SERVICE_JAR="${2:-}" SERVICE_LOG="$OUT/service-$1.log" start_service "$1" -Xms512m -Xmx512m
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

cat /proc/loadavg >"$OUT/loadavg-start"
"$ROOT/mvnw" -B -q package -DskipTests
"${MVN[@]}" test-compile
STRATEGIES="${STRATEGIES:-$(strategies | paste -sd ' ')}"
echo "study $STAMP: strategies [$STRATEGIES], presets [$PRESETS], ${DURATION}s each; output $OUT"

status=0
for build in current ${BASELINE_JAR:+baseline}; do
jar="" tag=""
[[ "$build" == baseline ]] && jar="$BASELINE_JAR" tag="@baseline"
# The ceiling: the same users on a request that touches no queue, on the default strategy's service.
start_study_service concurrent-atomic "$jar"
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
	start_study_service "$strategy" "$jar"
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
