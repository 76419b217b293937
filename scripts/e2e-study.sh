#!/usr/bin/env bash
# The end-to-end study: the same Gatling loads against each strategy of the packaged service, over
# a matrix of strategy x preset x batch size x long polling x runtime (JDK and threads).
#
#   flock /tmp/qs-bench.lock scripts/e2e-study.sh             # the default matrix, bounded by BUDGET
#   scripts/e2e-study.sh --dry-run                            # the runs and the time estimate, nothing run
#   PARTS="thesis batches" STRATEGIES="synchronized concurrent-atomic" DURATION=5 scripts/e2e-study.sh
#   CELLS="ceiling 4-4/b100/w0/17-platform waiting/b10/w2/25-virtual" scripts/e2e-study.sh
#   MATRIX=full PRESETS="4-4 waiting" scripts/e2e-study.sh    # every preset x batch x wait x runtime
#   BASELINE_JAR=/path/to/older.jar scripts/e2e-study.sh      # and an older build, in the same run
#
# A cell is PRESET/bBATCH/wWAIT/RUNTIME (RUNTIME = JDK-THREADS: 17-platform, 25-platform, 25-virtual).
# The default matrix is the union of these parts (PARTS):
#   ceiling   the HTTP stack's ceiling: CeilingSimulation (GET /actuator/info) at the thesis presets' users
#   thesis    1-1 4-1 1-4 4-4, single messages, no long polling, JDK 17 platform threads (the earlier study)
#   modes     heavy waiting mixed fast backpressure (the seeds' reactive-bench use cases), likewise
#   batches   4-4 single and in batches of 10 and of 100: the HTTP cost per message shrinks, the core's share grows
#   longpoll  waiting and 4-1 with WAIT s long polls (compare with their runs without)
#   threads   4-4 on JDK 25 with platform and with virtual threads (spring.threads.virtual.enabled)
# The strategies of FULL_STRATEGIES (default: the thesis's four) run every cell; the others run only
# the cells of CORE_CELLS that the matrix has (default: 4-4 single, b10 and b100; waiting without and
# with long polls; 4-4 on JDK 25 platform and virtual), so that every strategy of the enum gets
# single messages, batches, long polling and both kinds of threads in under an hour.
# FULL_STRATEGIES=all gives every strategy every cell. With MATRIX=full the cells are instead
# PRESETS x BATCHES x WAITS x RUNTIMES (defaults: all presets, "1 10 100", "0 $WAIT", all runtimes).
#
# BASELINE_JAR (an older build of the service, e.g. the commit before the lean request path) runs
# in the same study: the ceiling at 4-4 and BASELINE_CELLS (default 4-4/b1/w0/17-platform) for
# BASELINE_STRATEGIES (default: FULL_STRATEGIES), so the summary can set the server's CPU per request
# and the fraction of the ceiling against it (issue 9, item 1).
#
# Services start through scripts/lib/service.sh (start_service, stop_service, strategies); the
# service's CPU time (utime + stime from /proc) is read around every run, so the summary gives the
# server's CPU per request and per message whatever Gatling costs. One Gatling JVM runs every
# simulation of the study, one after another (StudyRunner, fed through named pipes), so Gatling is
# warm after the first warm-up (FIRST_WARMUP s, default 20). Each run loads the service for RAMP s
# (default 3) before its counted window of DURATION s. Time: each run costs ramp + window +
# ~RUN_OVERHEAD s (drain, checks, report), each service START_COST s plus a warm-up run of WARMUP s.
# Unless DURATION is given, the window is what fits BUDGET minutes (default 50), between 5 and 15 s;
# below 5 s the study says it will overrun the budget instead of measuring noise.
#
# Environment: STRATEGIES (default: every profile of the Strategy enum), FULL_STRATEGIES, CORE_CELLS,
# PARTS, CELLS, MATRIX, PRESETS, BATCHES, WAITS, RUNTIMES, DURATION, BUDGET (minutes), RAMP, WARMUP
# (s, default 5), FIRST_WARMUP, DRAIN (longest drain, s, default 60), WAIT (long poll seconds,
# default 2), BACKPRESSURE_BYTES (the byte cap of preset backpressure, default 1MB), HEAP (default
# 512m), JAVA17 (default java), JAVA25 (default /usr/lib/jvm/temurin-25-jdk-amd64/bin/java),
# BASELINE_JAR, BASELINE_CELLS, BASELINE_STRATEGIES, BUILD (default true: package the service and
# compile the simulations first), RUN_OVERHEAD (4), START_COST (8), OUT (default
# target/e2e-study/<UTC time>), SUMMARY (default docs/e2e-study.md; empty = none), CHARTS (default
# docs/e2e-study; where SUMMARY's pictures go).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

DRY_RUN=false
[[ "${1:-}" == "--dry-run" ]] && DRY_RUN=true

# shellcheck source=scripts/lib/service.sh
source "$ROOT/scripts/lib/service.sh"
BUILD="${BUILD:-true}"
if [[ "$BUILD" == true ]] && ! $DRY_RUN; then
	"$ROOT/mvnw" -B -q package -DskipTests
fi

ALL_PRESETS="1-1 4-1 1-4 4-4 heavy waiting mixed fast backpressure"
THESIS_PRESETS="1-1 4-1 1-4 4-4"
[[ -n "${STRATEGIES:-}" ]] || STRATEGIES="$(strategies)"
STRATEGIES="$(tr '\n' ' ' <<<"$STRATEGIES" | xargs)"
THESIS_STRATEGIES="synchronized read-write-lock concurrent-pojo concurrent-atomic"
FULL_STRATEGIES="${FULL_STRATEGIES:-$THESIS_STRATEGIES}"
[[ "$FULL_STRATEGIES" == all ]] && FULL_STRATEGIES="$STRATEGIES"
PARTS="${PARTS:-ceiling thesis modes batches longpoll threads}"
MATRIX="${MATRIX:-parts}"
WAIT="${WAIT:-2}"
PRESETS="${PRESETS:-$ALL_PRESETS}"
BATCHES="${BATCHES:-1 10 100}"
WAITS="${WAITS:-0 $WAIT}"
RUNTIMES="${RUNTIMES:-17-platform 25-platform 25-virtual}"
BUDGET="${BUDGET:-50}"
WARMUP="${WARMUP:-5}"
FIRST_WARMUP="${FIRST_WARMUP:-20}"
RAMP="${RAMP:-3}"
DRAIN="${DRAIN:-60}"
BACKPRESSURE_BYTES="${BACKPRESSURE_BYTES:-1MB}"
HEAP="${HEAP:-512m}"
JAVA17="${JAVA17:-java}"
JAVA25="${JAVA25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}"
RUN_OVERHEAD="${RUN_OVERHEAD:-4}"
START_COST="${START_COST:-8}"
CORE_CELLS="${CORE_CELLS:-4-4/b1/w0/17-platform 4-4/b10/w0/17-platform 4-4/b100/w0/17-platform waiting/b1/w0/17-platform waiting/b1/w$WAIT/17-platform 4-4/b1/w0/25-platform 4-4/b1/w0/25-virtual}"
BASELINE_JAR="${BASELINE_JAR:-}"
BASELINE_CELLS="${BASELINE_CELLS:-4-4/b1/w0/17-platform}"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
OUT="${OUT:-$ROOT/target/e2e-study/$STAMP}"
SUMMARY="${SUMMARY-$ROOT/docs/e2e-study.md}"
CHARTS="${CHARTS:-$ROOT/docs/e2e-study}"
GATLING_CP_FILE="$ROOT/gatling/target/classpath.txt"

# ---- the matrix -------------------------------------------------------------------------------
cells() {
	local p b w r
	if [[ -n "${CELLS:-}" ]]; then
		echo "$CELLS" | tr ' ' '\n' | grep -vx ceiling
		return
	fi
	if [[ "$MATRIX" == "full" ]]; then
		for r in $RUNTIMES; do for p in $PRESETS; do for b in $BATCHES; do for w in $WAITS; do
			echo "$p/b$b/w$w/$r"
		done; done; done; done
		return
	fi
	for part in $PARTS; do
		case "$part" in
			ceiling) ;;
			thesis) for p in $THESIS_PRESETS; do echo "$p/b1/w0/17-platform"; done ;;
			modes) for p in heavy waiting mixed fast backpressure; do echo "$p/b1/w0/17-platform"; done ;;
			batches) echo "4-4/b1/w0/17-platform"; echo "4-4/b10/w0/17-platform"; echo "4-4/b100/w0/17-platform" ;;
			longpoll) echo "waiting/b1/w0/17-platform"; echo "waiting/b1/w$WAIT/17-platform"; echo "4-1/b1/w$WAIT/17-platform" ;;
			threads) echo "4-4/b1/w0/17-platform"; echo "4-4/b1/w0/25-platform"; echo "4-4/b1/w0/25-virtual" ;;
		esac
	done
}
for part in $PARTS; do
	[[ " ceiling thesis modes batches longpoll threads " == *" $part "* ]] ||
		{ echo "unknown part '$part' (ceiling thesis modes batches longpoll threads)" >&2; exit 2; }
done
mapfile -t CELL_LIST < <(cells | awk 'NF && !seen[$0]++')
for cell in "${CELL_LIST[@]}"; do
	IFS=/ read -r p b w r <<<"$cell"
	[[ " $ALL_PRESETS " == *" $p "* && "$b" =~ ^b[0-9]+$ && "$w" =~ ^w[0-9]+$ && "$r" =~ ^[0-9]+-(platform|virtual)$ ]] ||
		{ echo "bad cell '$cell': PRESET/bBATCH/wWAIT/JDK-platform|virtual" >&2; exit 2; }
	[[ "$r" == 17-virtual ]] && { echo "bad cell '$cell': virtual threads need JDK 21+" >&2; exit 2; }
done
with_ceiling=false
if [[ -n "${CELLS:-}" ]]; then
	[[ " $CELLS " == *" ceiling "* ]] && with_ceiling=true
elif [[ "$MATRIX" != full && " $PARTS " == *" ceiling "* ]]; then
	with_ceiling=true
fi

# The cells of one strategy: all of them for FULL_STRATEGIES, those of CORE_CELLS for the others.
cells_of() { # strategy
	local cell
	for cell in "${CELL_LIST[@]}"; do
		if [[ " $FULL_STRATEGIES " == *" $1 "* || " $CORE_CELLS " == *" $cell "* ]]; then echo "$cell"; fi
	done
}
# A service serves every cell of one strategy that needs the same JVM and settings: a runtime, plus
# the small byte cap for preset backpressure. service_key cell -> runtime or runtime+caps.
service_key() {
	local p="${1%%/*}" r="${1##*/}"
	if [[ "$p" == backpressure ]]; then echo "$r+caps"; else echo "$r"; fi
}
keys_of() { # cells... -> their services, in the order of the cells
	local cell
	for cell in "$@"; do service_key "$cell"; done | awk '!seen[$0]++'
}

BASELINE_STRATEGIES="${BASELINE_STRATEGIES:-$FULL_STRATEGIES}"
read -r -a BASELINE_CELL_LIST <<<"$BASELINE_CELLS"
if [[ -n "$BASELINE_JAR" ]]; then
	[[ -f "$BASELINE_JAR" ]] || { echo "BASELINE_JAR $BASELINE_JAR: no such file" >&2; exit 2; }
	for cell in "${BASELINE_CELL_LIST[@]}"; do
		[[ "$cell" == */17-platform && "$cell" != backpressure/* ]] ||
			{ echo "bad baseline cell '$cell': the baseline runs on JDK 17 platform threads, without caps" >&2; exit 2; }
	done
fi

n_runs=0
n_services=0
for strategy in $STRATEGIES; do
	mapfile -t mine < <(cells_of "$strategy")
	((${#mine[@]})) || continue
	n_runs=$((n_runs + ${#mine[@]}))
	n_services=$((n_services + $(keys_of "${mine[@]}" | wc -l)))
done
n_ceiling=0
if $with_ceiling; then n_ceiling=$(wc -w <<<"$THESIS_PRESETS"); n_services=$((n_services + 1)); fi
if [[ -n "$BASELINE_JAR" ]]; then
	n_baseline=$(($(wc -w <<<"$BASELINE_STRATEGIES") * ${#BASELINE_CELL_LIST[@]}))
	n_runs=$((n_runs + n_baseline))
	n_services=$((n_services + $(wc -w <<<"$BASELINE_STRATEGIES")))
	if $with_ceiling; then n_ceiling=$((n_ceiling + 1)); n_services=$((n_services + 1)); fi
fi
fixed=$((FIRST_WARMUP + n_services * (START_COST + WARMUP + RUN_OVERHEAD) + (n_runs + n_ceiling) * (RAMP + RUN_OVERHEAD)))
if [[ -z "${DURATION:-}" ]]; then
	DURATION=$(((BUDGET * 60 - fixed) / (n_runs + n_ceiling)))
	((DURATION > 15)) && DURATION=15
	if ((DURATION < 5)); then
		DURATION=5
		echo "WARNING: $n_runs runs do not fit $BUDGET minutes even with 5 s windows; narrow STRATEGIES, FULL_STRATEGIES or PARTS, or raise BUDGET" >&2
	fi
fi
estimate=$(((fixed + (n_runs + n_ceiling) * DURATION + 59) / 60))
n_strategies=$(wc -w <<<"$STRATEGIES")
echo "study $STAMP: $n_strategies strategies [$STRATEGIES], ${#CELL_LIST[@]} cells for [$FULL_STRATEGIES]," \
	"the core cells for the others: $n_runs runs (+ $n_ceiling ceiling)${BASELINE_JAR:+, baseline $BASELINE_JAR}," \
	"${DURATION}s windows, $n_services service starts: about $estimate min"
for cell in "${CELL_LIST[@]}"; do
	if [[ " $CORE_CELLS " == *" $cell "* ]]; then echo "  $cell"; else echo "  $cell (full strategies only)"; fi
done
[[ -n "$BASELINE_JAR" ]] && printf '  %s (baseline)\n' "${BASELINE_CELL_LIST[@]}"
$DRY_RUN && exit 0

java_of() { # runtime -> java binary
	case "${1%%-*}" in
		17) echo "$JAVA17" ;;
		25) echo "$JAVA25" ;;
		*) local var="JAVA${1%%-*}"; echo "${!var:?set $var to the java binary of JDK ${1%%-*}}" ;;
	esac
}

# ---- the service: scripts/lib/service.sh starts and stops it ----------------------------------
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	stop_gatling
	stop_service
}
trap cleanup EXIT
trap "exit 130" INT
trap "exit 143" TERM

# study_service log runtime jar profile [app args...]: the study's service (a fixed heap) on that
# runtime's java; jar empty for this build's.
study_service() {
	local log="$1" runtime="$2" jar="$3" profile="$4"
	shift 4
	SERVICE_JAVA="$(java_of "$runtime")" SERVICE_JAR="$jar" SERVICE_LOG="$log" SERVICE_START_SECONDS=120 \
		start_service "$profile" -Xms"$HEAP" -Xmx"$HEAP" -- "$@" || exit 1
}

# CPU time (user + system, clock ticks) of the service so far, from /proc; empty where there is none.
cpu_ticks() {
	[[ -r "/proc/$SERVICE_PID/stat" ]] || return 0
	# Fields after "pid (comm) ": state is 1, utime 12, stime 13.
	sed -E 's/^.*\) //' "/proc/$SERVICE_PID/stat" | awk '{print $12 + $13}'
}

# Gatling: one JVM for the whole study (StudyRunner, fed through named pipes), so that Gatling is
# JIT-compiled once: a fresh Gatling JVM per run spends its first ten seconds or more warming up, in
# the window. Its options are those gatling-maven-plugin gives it on JDK 17.
GATLING_PID=""
start_gatling() {
	mkfifo "$OUT/.gatling-requests" "$OUT/.gatling-answers"
	# Read-write opens of a pipe do not wait for the other end. Gatling's JVM must not inherit them:
	# holding the requests pipe open for writing, it would never read its end and never exit.
	exec 7<>"$OUT/.gatling-requests" 8<>"$OUT/.gatling-answers"
	java -Xmx1G -XX:+HeapDumpOnOutOfMemoryError -XX:MaxInlineLevel=20 -XX:MaxTrivialSize=12 \
		--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED \
		-cp "$ROOT/gatling/target/test-classes:$(cat "$GATLING_CP_FILE")" \
		io.github.qsbench.gatling.study.StudyRunner "$OUT/.gatling-answers" \
		<"$OUT/.gatling-requests" >"$OUT/gatling-jvm.log" 2>&1 7>&- 8>&- &
	GATLING_PID=$!
}
stop_gatling() {
	[[ -n "${GATLING_PID:-}" ]] || return 0
	exec 7>&- 8<&-
	wait "$GATLING_PID" 2>/dev/null || true
	GATLING_PID=""
	rm -f "$OUT/.gatling-requests" "$OUT/.gatling-answers"
}

# gatling simulation id results-dir reports|no-reports [name=value ...]: one run, its output in
# runs/<id>.log; fails unless every assertion held.
gatling() {
	local sim="$1" id="$2" results="$3" reports="$4" code
	shift 4
	local request=("$OUT/runs/$id.log" "io.github.qsbench.gatling.$sim" "$results" "$reports"
		"baseUrl=http://127.0.0.1:$PORT" "drainSeconds=$DRAIN" "countsFile=$OUT/runs/$id.json" "$@")
	(IFS=$'\t' && echo "${request[*]}") >&7
	until read -r -t 5 code <&8; do
		kill -0 "$GATLING_PID" 2>/dev/null || { tail -20 "$OUT/gatling-jvm.log"; echo "Gatling's JVM ended" >&2; exit 1; }
	done
	[[ "$code" == 0 ]]
}

props_of() { # cell -> system properties of QueueSimulation
	local p b w r
	IFS=/ read -r p b w r <<<"$1"
	echo "preset=$p batchSize=${b#b} waitSeconds=${w#w} rampSeconds=$RAMP durationSeconds=$DURATION"
}

mkdir -p "$OUT/runs" "$OUT/services"
printf 'id\tbuild\tstrategy\tpreset\tbatch\twait\truntime\tstatus\tcpu_ticks\tseconds\n' >"$OUT/runs.tsv"
record() { # id build strategy cell status ticks seconds
	local p b w r
	IFS=/ read -r p b w r <<<"$4"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$p" "${b#b}" "${w#w}" "$r" "$5" "$6" "$7" >>"$OUT/runs.tsv"
}

cat /proc/loadavg >"$OUT/loadavg-start"
[[ "$BUILD" == true || ! -f "$GATLING_CP_FILE" ]] && "$ROOT/mvnw" -B -q -f "$ROOT/gatling/pom.xml" test-compile \
	org.apache.maven.plugins:maven-dependency-plugin:3.10.0:build-classpath \
	-Dmdep.outputFile="$GATLING_CP_FILE" -Dmdep.includeScope=test

runtimes_json=""
for key in $(keys_of "${CELL_LIST[@]}"); do
	r="${key%+caps}"
	[[ "$runtimes_json" == *"\"$r\""* ]] && continue
	version="$("$(java_of "$r")" -version 2>&1 | head -1 | sed 's/"/\\"/g')"
	runtimes_json+="${runtimes_json:+, }\"$r\": \"$version\""
done
if [[ -n "${CELLS:-}" ]]; then matrix="CELLS"; elif [[ "$MATRIX" == full ]]; then matrix="full"; else matrix="parts $PARTS"; fi
cat >"$OUT/settings.json" <<EOF
{"duration": $DURATION, "ramp": $RAMP, "wait": $WAIT, "warmup": $WARMUP, "drain": $DRAIN, "backpressureBytes": "$BACKPRESSURE_BYTES",
 "serviceJvm": "-Xms$HEAP -Xmx$HEAP", "gatlingJava": "$(java -version 2>&1 | head -1 | sed 's/"/\\"/g')",
 "clkTck": $(getconf CLK_TCK),
 "matrix": "$matrix: ${#CELL_LIST[@]} cells for $(wc -w <<<"$FULL_STRATEGIES") strategies, the core cells for the other $((n_strategies - $(wc -w <<<"$FULL_STRATEGIES")))",
 "runtimes": {$runtimes_json}, "baselineJar": "$BASELINE_JAR"}
EOF

start_gatling
status=0
run_cell() { # build strategy cell simulation [name=value ...]
	local build="$1" strategy="$2" cell="$3" sim="$4" id ticks_before ticks_after started result=ok
	shift 4
	id="${strategy}${build/#this/}__${cell//\//_}"
	echo "$strategy${build/#this/}, $cell"
	ticks_before="$(cpu_ticks)"
	started=$(date +%s)
	# shellcheck disable=SC2046
	if ! gatling "$sim" "$id" "$OUT/runs/$id" reports $(props_of "$cell") "$@"; then
		echo "  FAILED (see $OUT/runs/$id.log)"
		result=failed
		status=1
	fi
	ticks_after="$(cpu_ticks)"
	ticks=""
	[[ -n "$ticks_before" && -n "$ticks_after" ]] && ticks=$((ticks_after - ticks_before))
	record "$id" "${build#@}" "$strategy" "$cell" "$result" "$ticks" $(($(date +%s) - started))
}

# warm_up id preset: one unrecorded run, so that the recorded ones meet a JIT-compiled service (the
# first one is longer: Gatling's JVM warms up too).
warmups=0
warm_up() {
	local seconds=$WARMUP
	((warmups++ == 0)) && seconds=$FIRST_WARMUP
	gatling QueueSimulation "warmup-$1" "$OUT/runs/warmup-$1" no-reports preset="$2" durationSeconds="$seconds" || true
	rm -rf "$OUT/runs/warmup-$1" "$OUT/runs/warmup-$1.json"
}

# The ceiling: the same users on a request that touches no queue (the strategy does not matter).
if $with_ceiling; then
	study_service "$OUT/services/ceiling.log" 17-platform "" "${STRATEGIES%% *}"
	warm_up ceiling 4-4
	for preset in $THESIS_PRESETS; do
		run_cell this ceiling "$preset/b1/w0/17-platform" CeilingSimulation
	done
	stop_service
fi

for strategy in $STRATEGIES; do
	mapfile -t mine < <(cells_of "$strategy")
	for key in $(keys_of "${mine[@]}"); do
		r="${key%+caps}"
		args=()
		[[ "$r" == *-virtual ]] && args+=(--spring.threads.virtual.enabled=true)
		[[ "$key" == *+caps ]] && args+=(--qs.limits.max-total-bytes="$BACKPRESSURE_BYTES")
		study_service "$OUT/services/$strategy-${key//+/-}.log" "$r" "" "$strategy" "${args[@]}"
		warm_up "$strategy-${key//+/-}" "$([[ "$key" == *+caps ]] && echo backpressure || echo 4-4)"
		for cell in "${mine[@]}"; do
			if [[ "$(service_key "$cell")" == "$key" ]]; then run_cell this "$strategy" "$cell" QueueSimulation; fi
		done
		stop_service
	done
done

# The baseline: an older build, on the same machine in the same run (its ceiling too).
if [[ -n "$BASELINE_JAR" ]]; then
	if $with_ceiling; then
		study_service "$OUT/services/ceiling@baseline.log" 17-platform "$BASELINE_JAR" "${STRATEGIES%% *}"
		warm_up ceiling@baseline 4-4
		run_cell @baseline ceiling "4-4/b1/w0/17-platform" CeilingSimulation
		stop_service
	fi
	for strategy in $BASELINE_STRATEGIES; do
		study_service "$OUT/services/$strategy@baseline.log" 17-platform "$BASELINE_JAR" "$strategy"
		warm_up "$strategy@baseline" 4-4
		for cell in "${BASELINE_CELL_LIST[@]}"; do
			run_cell @baseline "$strategy" "$cell" QueueSimulation
		done
		stop_service
	done
fi
stop_gatling
cat /proc/loadavg >"$OUT/loadavg-end"

summary_status=0
charts_rel="charts"
if [[ -n "$SUMMARY" ]]; then
	charts_rel="$(python3 -c 'import os, sys; print(os.path.relpath(sys.argv[1], os.path.dirname(sys.argv[2])))' "$CHARTS" "$SUMMARY")"
fi
python3 "$ROOT/scripts/e2e-summary.py" "$OUT" --charts "$charts_rel" >"$OUT/summary.md" || summary_status=$?
mkdir -p "$OUT/charts"
if [[ -f "$OUT/figures.json" ]]; then
	java -Djava.awt.headless=true -cp "$ROOT/gatling/target/test-classes:$(cat "$GATLING_CP_FILE")" \
		io.github.qsbench.gatling.study.StudyCharts "$OUT/figures.json" "$OUT/charts"
fi
if [[ -n "$SUMMARY" ]]; then
	mkdir -p "$(dirname "$SUMMARY")" "$CHARTS"
	cp "$OUT/summary.md" "$SUMMARY"
	find "$OUT/charts" -name '*.png' -exec cp {} "$CHARTS"/ \;
fi
cat "$OUT/summary.md"
echo "reports and logs: $OUT"
((status == 0)) && status=$summary_status
exit $status
