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
#   PARTS=separate REPS=3 SEED=42 DURATION=5 scripts/e2e-study.sh  # the workloads meant to separate them
#
# Repetitions: every (strategy, cell) runs REPS times (default 3), each repetition on fresh service
# starts (a fresh JVM; one start serves the cells of a strategy whose service settings agree). Within
# each repetition the service starts, and the cells within each start, run in an order shuffled with
# SEED (default: the time; recorded in settings.json, the order in order.tsv): drift of a shared
# machine spreads over the strategies instead of favouring whichever ran first, and every strategy
# gets one run in each REPS-th of the study. Around every run the study records the machine's CPU
# busy share (/proc/stat, all processes), the service's and Gatling's own CPU and the 1-min load
# average (runs.tsv), and QueueSimulation the same inside its window (MachineSample), so the summary
# can flag a cell noisy (see e2e-summary.py) where the repetitions spread or other work used the machine.
#
# A cell is PRESET/bBATCH/wWAIT/RUNTIME (RUNTIME = JDK-THREADS: 17-platform, 25-platform, 25-virtual).
# The default matrix is the union of these parts (PARTS):
#   ceiling   the HTTP stack's ceiling: CeilingSimulation (GET /actuator/info) at the thesis presets' users
#   thesis    1-1 4-1 1-4 4-4, single messages, no long polling, JDK 17 platform threads (the earlier study)
#   modes     heavy waiting mixed fast backpressure (the seeds' reactive-bench use cases), likewise
#   batches   4-4 single and in batches of 10 and of 100: the HTTP cost per message shrinks, the core's share grows
#   longpoll  waiting and 4-1 with WAIT s long polls (compare with their runs without)
#   threads   4-4 on JDK 25 with platform and with virtual threads (spring.threads.virtual.enabled)
#   separate  the workloads meant to separate the strategies, for EVERY strategy of STRATEGIES:
#             deep-inflight/b1/w0/17-platform many-queues/b1/w0/17-platform hot-queue/b1/w2/25-virtual
#             large-batches/b100/w0/17-platform (SEPARATE_CELLS)
# The presets are those LoadSettings has (io.github.qsbench.gatling.PresetList, from the compiled
# simulations); before they are compiled, PRESET_NAMES or a built-in list stands in.
# Some presets need their own service settings (one service start per setting): backpressure a
# small byte cap (BACKPRESSURE_BYTES); deep-inflight, many-queues and large-batches share one
# service with qs.limits.max-total-bytes=LARGE_BYTES (1GB) on a LARGE_HEAP (2g) heap (as
# docs/archive/e2e-study-batches.md, so batches of 100 do not hit the cap) and qs.lease-timeout of
# DEEP_LEASE_SECONDS (300, so that the DEEP_INFLIGHT messages per queue (10,000) deep-inflight holds
# are not delivered again; it ramps DEEP_RAMP s (10) to fill them), and room for 20,000
# queues (many-queues spreads over 10,000, the default cap).
# The strategies of FULL_STRATEGIES (default: the thesis's four) run every cell; the others run only
# the cells of CORE_CELLS and SEPARATE_CELLS that the matrix has (default: 4-4 single, b10 and b100; waiting without and
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
# Services start through scripts/lib/service.sh (start_service, stop_service, strategies; the redis
# strategy on a redis-server of the study's own, which it starts once and empties for each start); the
# service's CPU time (utime + stime from /proc) is read around every run, so the summary gives the
# server's CPU per request and per message whatever Gatling costs. One Gatling JVM runs every
# simulation of the study, one after another (StudyRunner, fed through named pipes), so Gatling is
# warm after the first warm-up (FIRST_WARMUP s, default 20). Each run loads the service for RAMP s
# (default 3) before its counted window of DURATION s. Time: each run costs ramp + window +
# ~RUN_OVERHEAD s (drain, checks, report), each service START_COST s plus a warm-up run of WARMUP s,
# all of it REPS times.
# Unless DURATION is given, the window is what fits BUDGET minutes (default 50), between 5 and 15 s;
# below 5 s the study says it will overrun the budget instead of measuring noise.
#
# Warm-up, measured: each service start is warmed by windows of WARMUP s of its warm-up preset, at
# most WARMUP_MAX (default 1), until the service's CPU per message of two windows in a row agrees
# within WARMUP_TOLERANCE (default 0.1); every window's CPU per message goes to warmups.tsv.
# Resume: when OUT already holds a study (order.tsv), the study continues it: the same plan, and the
# cells with an ok line in runs.tsv are skipped (a service start whose cells are all done is not
# made); failed lines move to runs-failed.tsv and run again. Asked for another plan or other
# settings than OUT's (order.tsv, settings.json), it stops and says what differs. Progress: each run
# prints how many of the study's runs are done and the time left (STUDY_AFTER_SECONDS: seconds of
# work that follow this script, added to the time left, for a caller such as scripts/study.sh).
#
# Environment: STRATEGIES (default or "all": every profile of the Strategy enum), FULL_STRATEGIES, CORE_CELLS,
# SEPARATE_CELLS, PARTS, CELLS, MATRIX, REPS (default 3), SEED, PRESET_NAMES, LARGE_HEAP, LARGE_BYTES,
# DEEP_LEASE_SECONDS, DEEP_INFLIGHT, DEEP_RAMP, PRESETS, BATCHES, WAITS, RUNTIMES, DURATION, BUDGET (minutes), RAMP, WARMUP
# (s, default 5), FIRST_WARMUP, DRAIN (longest drain, s, default 60), WAIT (long poll seconds,
# default 2), BACKPRESSURE_BYTES (the byte cap of preset backpressure, default 1MB), HEAP (default
# 512m), JAVA17 (default java), JAVA25 (default /usr/lib/jvm/temurin-25-jdk-amd64/bin/java),
# BASELINE_JAR, BASELINE_CELLS, BASELINE_STRATEGIES, BUILD (default true: package the service and
# compile the simulations first), RUN_OVERHEAD (4), START_COST (8), OUT (default
# target/e2e-study/<UTC time>), SUMMARY (a copy of OUT/summary.md; default none: the committed
# reports are docs/findings.md and, before it, docs/archive/), CHARTS (where SUMMARY's pictures go).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

DRY_RUN=false
[[ "${1:-}" == "--dry-run" ]] && DRY_RUN=true

# shellcheck source=scripts/lib/service.sh
source "$ROOT/scripts/lib/service.sh"
BUILD="${BUILD:-true}"
GATLING_CP_FILE="$ROOT/gatling/target/classpath.txt"
if [[ "$BUILD" == true ]] && ! $DRY_RUN; then
	"$ROOT/mvnw" -B -q package -DskipTests
fi
# The simulations (and PresetList) before the cells are checked, so the presets are LoadSettings'.
if ! $DRY_RUN && [[ "$BUILD" == true || ! -f "$GATLING_CP_FILE" ]]; then
	"$ROOT/mvnw" -B -q -f "$ROOT/gatling/pom.xml" test-compile \
		org.apache.maven.plugins:maven-dependency-plugin:3.10.0:build-classpath \
		-Dmdep.outputFile="$GATLING_CP_FILE" -Dmdep.includeScope=test
fi

# The valid presets: LoadSettings.Preset.ALL, printed by PresetList; PRESET_NAMES wins (e.g. for a
# dry run before the simulations are compiled); without either, the names known when this was written.
KNOWN_PRESETS="1-1 4-1 1-4 4-4 heavy waiting mixed fast backpressure deep-inflight many-queues hot-queue large-batches"
PRESETS_FROM="PRESET_NAMES"
if [[ -z "${PRESET_NAMES:-}" ]]; then
	if [[ -f "$ROOT/gatling/target/test-classes/io/github/qsbench/gatling/PresetList.class" ]]; then
		PRESET_NAMES="$(java -cp "$ROOT/gatling/target/test-classes" io.github.qsbench.gatling.PresetList | xargs)"
		PRESETS_FROM="LoadSettings (PresetList)"
	else
		PRESET_NAMES="$KNOWN_PRESETS"
		PRESETS_FROM="the built-in list (simulations not compiled)"
	fi
fi
ALL_PRESETS="$(xargs <<<"$PRESET_NAMES")"
THESIS_PRESETS="1-1 4-1 1-4 4-4"
[[ -n "${STRATEGIES:-}" && "${STRATEGIES:-}" != all ]] || STRATEGIES="$(strategies)"
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
WARMUP_MAX="${WARMUP_MAX:-1}"
WARMUP_TOLERANCE="${WARMUP_TOLERANCE:-0.1}"
STUDY_AFTER_SECONDS="${STUDY_AFTER_SECONDS:-0}"
FIRST_WARMUP="${FIRST_WARMUP:-20}"
RAMP="${RAMP:-3}"
DRAIN="${DRAIN:-60}"
BACKPRESSURE_BYTES="${BACKPRESSURE_BYTES:-1MB}"
HEAP="${HEAP:-512m}"
JAVA17="${JAVA17:-java}"
JAVA25="${JAVA25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}"
RUN_OVERHEAD="${RUN_OVERHEAD:-4}"
START_COST="${START_COST:-8}"
REPS="${REPS:-3}"
[[ "$REPS" =~ ^[1-9][0-9]*$ ]] || { echo "REPS must be a positive number, was '$REPS'" >&2; exit 2; }
SEED="${SEED:-$(date +%s)}"
[[ "$SEED" =~ ^[0-9]+$ ]] || { echo "SEED must be a number, was '$SEED'" >&2; exit 2; }
LARGE_HEAP="${LARGE_HEAP:-2g}"
LARGE_BYTES="${LARGE_BYTES:-1GB}"
DEEP_LEASE_SECONDS="${DEEP_LEASE_SECONDS:-300}"
DEEP_INFLIGHT="${DEEP_INFLIGHT:-10000}"
DEEP_RAMP="${DEEP_RAMP:-10}"
SEPARATE_CELLS="${SEPARATE_CELLS:-deep-inflight/b1/w0/17-platform many-queues/b1/w0/17-platform hot-queue/b1/w$WAIT/25-virtual large-batches/b100/w0/17-platform}"
CORE_CELLS="${CORE_CELLS:-4-4/b1/w0/17-platform 4-4/b10/w0/17-platform 4-4/b100/w0/17-platform waiting/b1/w0/17-platform waiting/b1/w$WAIT/17-platform 4-4/b1/w0/25-platform 4-4/b1/w0/25-virtual}"
BASELINE_JAR="${BASELINE_JAR:-}"
BASELINE_CELLS="${BASELINE_CELLS:-4-4/b1/w0/17-platform}"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
OUT="${OUT:-$ROOT/target/e2e-study/$STAMP}"
SUMMARY="${SUMMARY-}"
CHARTS="${CHARTS:-$OUT/charts}"

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
			separate) tr ' ' '\n' <<<"$SEPARATE_CELLS" ;;
		esac
	done
}
for part in $PARTS; do
	[[ " ceiling thesis modes batches longpoll threads separate " == *" $part "* ]] ||
		{ echo "unknown part '$part' (ceiling thesis modes batches longpoll threads separate)" >&2; exit 2; }
done
mapfile -t CELL_LIST < <(cells | awk 'NF && !seen[$0]++')
for cell in "${CELL_LIST[@]}"; do
	IFS=/ read -r p b w r <<<"$cell"
	[[ "$b" =~ ^b[0-9]+$ && "$w" =~ ^w[0-9]+$ && "$r" =~ ^[0-9]+-(platform|virtual)$ ]] ||
		{ echo "bad cell '$cell': PRESET/bBATCH/wWAIT/JDK-platform|virtual" >&2; exit 2; }
	if [[ " $ALL_PRESETS " != *" $p "* ]]; then
		# A dry run may plan presets that the compiled simulations do not have yet (another branch).
		if $DRY_RUN; then echo -n "WARNING: " >&2; fi
		echo "cell '$cell': no preset '$p' in $PRESETS_FROM ($ALL_PRESETS)" >&2
		$DRY_RUN || exit 2
	fi
	[[ "$r" == 17-virtual ]] && { echo "bad cell '$cell': virtual threads need JDK 21+" >&2; exit 2; }
done
with_ceiling=false
if [[ -n "${CELLS:-}" ]]; then
	[[ " $CELLS " == *" ceiling "* ]] && with_ceiling=true
elif [[ "$MATRIX" != full && " $PARTS " == *" ceiling "* ]]; then
	with_ceiling=true
fi

# The cells of one strategy: all of them for FULL_STRATEGIES, those of CORE_CELLS and SEPARATE_CELLS
# (the part every strategy runs) for the others.
cells_of() { # strategy
	local cell
	for cell in "${CELL_LIST[@]}"; do
		# the redis strategy has no byte cap of the service's to push back with (see redis_skips)
		if [[ "$1" == redis && "${cell%%/*}" == backpressure ]]; then continue; fi
		if [[ " $FULL_STRATEGIES " == *" $1 "* || " $CORE_CELLS $SEPARATE_CELLS " == *" $cell "* ]]; then echo "$cell"; fi
	done
}
# A service serves every cell of one strategy that needs the same JVM and settings: a runtime, plus
# the settings some presets need (service_settings). service_key cell -> runtime[+tag].
service_key() {
	local p="${1%%/*}" r="${1##*/}"
	case "$p" in
		backpressure) echo "$r+caps" ;;
		deep-inflight | many-queues | large-batches) echo "$r+separate" ;;
		*) echo "$r" ;;
	esac
}
# service_settings key: sets SVC_HEAP, SVC_ARGS (the application's arguments) and SVC_WARMUP (the
# warm-up's preset) for a service key.
service_settings() {
	local r="${1%%+*}" tag=""
	[[ "$1" == *+* ]] && tag="${1#*+}"
	SVC_HEAP="$HEAP"
	SVC_ARGS=()
	SVC_WARMUP=4-4
	# explicit either way: on JDK 24+ the service serves on virtual threads unless told otherwise
	if [[ "$r" == *-virtual ]]; then SVC_ARGS+=(--spring.threads.virtual.enabled=true); else SVC_ARGS+=(--spring.threads.virtual.enabled=false); fi
	case "$tag" in
		caps) SVC_ARGS+=(--qs.limits.max-total-bytes="$BACKPRESSURE_BYTES"); SVC_WARMUP=backpressure ;;
		separate) SVC_HEAP="$LARGE_HEAP"
			SVC_ARGS+=(--qs.limits.max-total-bytes="$LARGE_BYTES" --qs.lease-timeout="${DEEP_LEASE_SECONDS}s" --qs.limits.max-queues=20000) ;;
		"") ;;
		*) echo "unknown service settings '$tag'" >&2; exit 2 ;;
	esac
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
		[[ "$cell" == */17-platform && "$(service_key "$cell")" == 17-platform ]] ||
			{ echo "bad baseline cell '$cell': the baseline runs on JDK 17 platform threads, without caps" >&2; exit 2; }
	done
fi

# ---- the plan: one line per service start (a unit), tab-separated:
# repetition, build (this or @baseline), strategy (or ceiling), service key, simulation, its cells.
# Within each repetition the units, and the cells within each unit, are shuffled with SEED.
plan_units() {
	local rep strategy key cell unit_cells
	for ((rep = 1; rep <= REPS; rep++)); do
		if $with_ceiling; then
			unit_cells=""
			for p in $THESIS_PRESETS; do unit_cells+="$p/b1/w0/17-platform "; done
			printf '%s\tthis\tceiling\t17-platform\tCeilingSimulation\t%s\n' "$rep" "${unit_cells% }"
		fi
		for strategy in $STRATEGIES; do
			mapfile -t mine < <(cells_of "$strategy")
			((${#mine[@]})) || continue
			for key in $(keys_of "${mine[@]}"); do
				unit_cells=""
				for cell in "${mine[@]}"; do
					[[ "$(service_key "$cell")" == "$key" ]] && unit_cells+="$cell "
				done
				printf '%s\tthis\t%s\t%s\tQueueSimulation\t%s\n' "$rep" "$strategy" "$key" "${unit_cells% }"
			done
		done
		if [[ -n "$BASELINE_JAR" ]]; then
			$with_ceiling && printf '%s\t@baseline\tceiling\t17-platform\tCeilingSimulation\t4-4/b1/w0/17-platform\n' "$rep"
			for strategy in $BASELINE_STRATEGIES; do
				printf '%s\t@baseline\t%s\t17-platform\tQueueSimulation\t%s\n' "$rep" "$strategy" "$BASELINE_CELLS"
			done
		fi
	done
}
shuffle_units() { # seed < units > units, shuffled within each repetition (a randomised block design)
	python3 -c '
import random, sys
rng = random.Random(int(sys.argv[1]))
blocks = {}
for line in sys.stdin.read().splitlines():
    fields = line.split("\t")
    blocks.setdefault(int(fields[0]), []).append(fields)
for rep in sorted(blocks):
    units = blocks[rep]
    rng.shuffle(units)
    for fields in units:
        cells = fields[5].split()
        rng.shuffle(cells)
        print("\t".join(fields[:5] + [" ".join(cells)]))
' "$1"
}
plan_of() { # units < units > the same plan in one order (cells and units sorted), to compare plans by
	python3 -c '
import sys
for line in sorted(sys.stdin.read().splitlines()):
    fields = line.split("\t")
    print("\t".join(fields[:5] + [" ".join(sorted(fields[5].split()))]))
'
}
RESUME=false
if [[ -n "${OUT:-}" && -f "$OUT/order.tsv" && -f "$OUT/runs.tsv" ]]; then
	RESUME=true
	if ! differs="$(diff <(plan_of <"$OUT/order.tsv") <(plan_units | plan_of))"; then
		echo "$OUT holds a study of another plan (its order.tsv); the same STRATEGIES, CELLS (or PARTS," \
			"MATRIX), REPS and baseline resume it, another OUT starts a new one. Service starts (< there, > asked):" >&2
		head -20 <<<"$differs" >&2
		exit 2
	fi
	mapfile -t UNITS <"$OUT/order.tsv"
	SEED="$(sed -n 's/.*"seed": \([0-9]*\).*/\1/p' "$OUT/settings.json" 2>/dev/null || echo "$SEED")"
else
	mapfile -t UNITS < <(plan_units | shuffle_units "$SEED")
fi

n_runs=0
n_ceiling=0
n_services=${#UNITS[@]}
for unit in "${UNITS[@]}"; do
	IFS=$'\t' read -r _ _ strategy _ _ unit_cells <<<"$unit"
	n=$(wc -w <<<"$unit_cells")
	if [[ "$strategy" == ceiling ]]; then n_ceiling=$((n_ceiling + n)); else n_runs=$((n_runs + n)); fi
done
fixed=$((FIRST_WARMUP + n_services * (START_COST + WARMUP_MAX * (WARMUP + RUN_OVERHEAD)) + (n_runs + n_ceiling) * (RAMP + RUN_OVERHEAD)))
if [[ -z "${DURATION:-}" ]]; then
	DURATION=$(((BUDGET * 60 - fixed) / (n_runs + n_ceiling)))
	((DURATION > 15)) && DURATION=15
	if ((DURATION < 5)); then
		DURATION=5
		echo "WARNING: $n_runs runs do not fit $BUDGET minutes even with 5 s windows; narrow STRATEGIES, FULL_STRATEGIES, PARTS or REPS, or raise BUDGET" >&2
	fi
fi
estimate=$(((fixed + (n_runs + n_ceiling) * DURATION + 59) / 60))
n_strategies=$(wc -w <<<"$STRATEGIES")
echo "study $STAMP: $n_strategies strategies [$STRATEGIES], ${#CELL_LIST[@]} cells for [$FULL_STRATEGIES]," \
	"the core and separate cells for the others; $REPS repetitions (SEED=$SEED): $n_runs runs (+ $n_ceiling ceiling)" \
	"${BASELINE_JAR:+, baseline $BASELINE_JAR,}${DURATION}s windows, $n_services service starts: about $estimate min"
for cell in "${CELL_LIST[@]}"; do
	if [[ " $CORE_CELLS $SEPARATE_CELLS " == *" $cell "* ]]; then echo "  $cell"; else echo "  $cell (full strategies only)"; fi
done
[[ -n "$BASELINE_JAR" ]] && printf '  %s (baseline)\n' "${BASELINE_CELL_LIST[@]}"
redis_skips=""
for cell in "${CELL_LIST[@]}"; do
	if [[ "${cell%%/*}" == backpressure && " $STRATEGIES " == *" redis "* ]] &&
		[[ " $FULL_STRATEGIES " == *" redis "* || " $CORE_CELLS $SEPARATE_CELLS " == *" $cell "* ]]; then
		redis_skips+=" $cell"
	fi
done
if [[ -n "$redis_skips" ]]; then
	echo "  redis skips$redis_skips: its cap is Redis's maxmemory, not the service's byte cap that preset pushes against"
fi
if $DRY_RUN; then
	echo "the runs, in order (repetition: strategy service: cells):"
	for unit in "${UNITS[@]}"; do
		IFS=$'\t' read -r rep build strategy key _ unit_cells <<<"$unit"
		echo "  $rep: $strategy${build/#this/} $key: $unit_cells"
	done
	exit 0
fi

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

# study_service log runtime jar profile heap [app args...]: the study's service (a fixed heap) on
# that runtime's java; jar empty for this build's.
study_service() {
	local log="$1" runtime="$2" jar="$3" profile="$4" heap="$5"
	shift 5
	SERVICE_JAVA="$(java_of "$runtime")" SERVICE_JAR="$jar" SERVICE_LOG="$log" SERVICE_START_SECONDS=120 \
		start_service "$profile" -Xms"$heap" -Xmx"$heap" -- "$@" || exit 1
}

# CPU time (user + system, clock ticks) of a process so far, from /proc; empty where there is none.
cpu_ticks() { # [pid, default the service's]
	local pid="${1:-$SERVICE_PID}"
	[[ -n "$pid" && -r "/proc/$pid/stat" ]] || return 0
	# Fields after "pid (comm) ": state is 1, utime 12, stime 13.
	sed -E 's/^.*\) //' "/proc/$pid/stat" | awk '{print $12 + $13}'
}
# The machine's CPU ticks so far, summed over its CPUs (/proc/stat, every process): "busy total",
# busy = user + nice + system + irq + softirq + steal, total = busy + idle + iowait.
machine_ticks() {
	awk '/^cpu /{busy = $2 + $3 + $4 + $7 + $8 + $9; print busy, busy + $5 + $6; exit}' /proc/stat
}
load1() { cut -d' ' -f1 /proc/loadavg; }

# Gatling: one JVM for the whole study (StudyRunner, fed through named pipes), so that Gatling is
# JIT-compiled once: a fresh Gatling JVM per run spends its first ten seconds or more warming up, in
# the window. Its options are those gatling-maven-plugin gives it on JDK 17.
# Started at the first service start with runs to do: a study that resumes with nothing left to run
# starts no JVM (and cannot race its pipe, below).
GATLING_PID=""
start_gatling() {
	rm -f "$OUT/.gatling-requests" "$OUT/.gatling-answers" # an interrupted run's
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
	# Its JVM ends on the end of its requests; one stopped before it opened the pipe would wait
	# for a writer for ever, so it gets 10 s and then a TERM.
	local i
	for ((i = 0; i < 50; i++)); do
		kill -0 "$GATLING_PID" 2>/dev/null || break
		sleep 0.2
	done
	kill "$GATLING_PID" 2>/dev/null || true
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
	local extra=""
	# deep-inflight: the ramp fills DEEP_INFLIGHT held messages per queue before the window opens,
	# and consumers may hold them as long as the service's lease lets them.
	[[ "$p" == deep-inflight ]] &&
		extra=" inFlight=$DEEP_INFLIGHT leaseSeconds=$DEEP_LEASE_SECONDS rampSeconds=$DEEP_RAMP"
	echo "preset=$p batchSize=${b#b} waitSeconds=${w#w} rampSeconds=$RAMP durationSeconds=$DURATION$extra"
}

mkdir -p "$OUT/runs" "$OUT/services"
# One line per run. cpu_ticks: the service's CPU around the run; gatling_ticks: Gatling's JVM's;
# machine_busy and machine_total: the machine's busy and all ticks (all CPUs) over the same time;
# load1_start, load1_end: the 1-min load average before and after.
if $RESUME; then
	# a failed run is run again; its line moves aside so the summary reads each run once
	awk -F'\t' 'NR == 1 || $8 == "ok"' "$OUT/runs.tsv" >"$OUT/runs.tsv.ok"
	awk -F'\t' 'NR > 1 && $8 != "ok"' "$OUT/runs.tsv" >>"$OUT/runs-failed.tsv"
	mv "$OUT/runs.tsv.ok" "$OUT/runs.tsv"
	echo "resuming $OUT: $(($(wc -l <"$OUT/runs.tsv") - 1)) runs done"
else
	printf 'id\tbuild\tstrategy\tpreset\tbatch\twait\truntime\tstatus\tcpu_ticks\tseconds\trep\tgatling_ticks\tmachine_busy\tmachine_total\tload1_start\tload1_end\n' >"$OUT/runs.tsv"
	printf 'service\twindow\tseconds\tcpu_ticks\tcompleted\tcpu_us_per_message\n' >"$OUT/warmups.tsv"
fi
done_ok() { # id: a run already recorded ok
	awk -F'\t' -v id="$1" '$1 == id && $8 == "ok" {found = 1} END {exit !found}' "$OUT/runs.tsv"
}
record() { # id build strategy cell status ticks seconds rep gatling_ticks machine_busy machine_total load1_start load1_end
	local p b w r
	IFS=/ read -r p b w r <<<"$4"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$p" "${b#b}" "${w#w}" "$r" \
		"$5" "$6" "$7" "$8" "$9" "${10}" "${11}" "${12}" "${13}" >>"$OUT/runs.tsv"
}

$RESUME || cat /proc/loadavg >"$OUT/loadavg-start"
printf '%s\n' "${UNITS[@]}" >"$OUT/order.tsv"

runtimes_json=""
for key in $(keys_of "${CELL_LIST[@]}"); do
	r="${key%%+*}"
	[[ "$runtimes_json" == *"\"$r\""* ]] && continue
	version="$("$(java_of "$r")" -version 2>&1 | head -1 | sed 's/"/\\"/g')"
	runtimes_json+="${runtimes_json:+, }\"$r\": \"$version\""
done
n_full=0
for strategy in $STRATEGIES; do [[ " $FULL_STRATEGIES " == *" $strategy "* ]] && n_full=$((n_full + 1)); done
if [[ -n "${CELLS:-}" ]]; then matrix="CELLS"; elif [[ "$MATRIX" == full ]]; then matrix="full"; else matrix="parts $PARTS"; fi
redis_setting=""
if [[ " $STRATEGIES " == *" redis "* ]]; then
	# scripts/lib/service.sh runs each redis service on the study's own redis-server
	redis_setting=", \"redis\": \"the study's own redis-server (in memory, 127.0.0.1, one for the study, emptied before each service start); its CPU is not in the service's CPU figures and counts as other work on the machine\""
fi
cat >"$OUT/settings.json.new" <<EOF
{"duration": $DURATION, "ramp": $RAMP, "wait": $WAIT, "warmup": $WARMUP, "warmupMax": $WARMUP_MAX, "warmupTolerance": $WARMUP_TOLERANCE, "drain": $DRAIN, "backpressureBytes": "$BACKPRESSURE_BYTES",
 "serviceJvm": "-Xms$HEAP -Xmx$HEAP", "reps": $REPS, "seed": $SEED, "order": "randomised blocks: each repetition's service starts and their cells shuffled",
 "presetsFrom": "$PRESETS_FROM",
 "serviceSettings": {"backpressure": "qs.limits.max-total-bytes=$BACKPRESSURE_BYTES", "deep-inflight, many-queues, large-batches": "-Xmx$LARGE_HEAP, qs.limits.max-total-bytes=$LARGE_BYTES, qs.lease-timeout=${DEEP_LEASE_SECONDS}s, deep-inflight inFlight=$DEEP_INFLIGHT per queue after a ${DEEP_RAMP}s ramp, qs.limits.max-queues=20000", "*-virtual": "spring.threads.virtual.enabled=true"$redis_setting}, "gatlingJava": "$(java -version 2>&1 | head -1 | sed 's/"/\\"/g')",
 "clkTck": $(getconf CLK_TCK),
 "matrix": "$matrix: ${#CELL_LIST[@]} cells for $n_full strategies, the core and separate cells for the other $((n_strategies - n_full))",
 "runtimes": {$runtimes_json}, "baselineJar": "$BASELINE_JAR"}
EOF
# the runs resumed must be measured as those done were: settings.json describes them all
if $RESUME && [[ -f "$OUT/settings.json" ]] && ! differs="$(diff "$OUT/settings.json" "$OUT/settings.json.new")"; then
	echo "$OUT holds runs measured with other settings; the same settings resume them, another OUT starts anew:" >&2
	echo "$differs" >&2
	rm "$OUT/settings.json.new"
	exit 2
fi
mv "$OUT/settings.json.new" "$OUT/settings.json"

status=0
run_cell() { # rep build strategy cell simulation [name=value ...]
	local rep="$1" build="$2" strategy="$3" cell="$4" sim="$5" id ticks_before ticks_after started result=ok
	local g_before g_after m_before m_after l_before ticks g_ticks busy total
	shift 5
	id="${strategy}${build/#this/}__${cell//\//_}__r$rep"
	progress "rep $rep: $strategy${build/#this/}, $cell"
	l_before="$(load1)"
	m_before="$(machine_ticks)"
	ticks_before="$(cpu_ticks)"
	g_before="$(cpu_ticks "$GATLING_PID")"
	started=$(date +%s)
	# shellcheck disable=SC2046
	if ! gatling "$sim" "$id" "$OUT/runs/$id" reports $(props_of "$cell") "$@"; then
		echo "  FAILED (see $OUT/runs/$id.log)"
		result=failed
		status=1
	fi
	ticks_after="$(cpu_ticks)"
	g_after="$(cpu_ticks "$GATLING_PID")"
	m_after="$(machine_ticks)"
	ticks=""
	[[ -n "$ticks_before" && -n "$ticks_after" ]] && ticks=$((ticks_after - ticks_before))
	g_ticks=""
	[[ -n "$g_before" && -n "$g_after" ]] && g_ticks=$((g_after - g_before))
	busy=$((${m_after% *} - ${m_before% *}))
	total=$((${m_after#* } - ${m_before#* }))
	record "$id" "${build#@}" "$strategy" "$cell" "$result" "$ticks" $(($(date +%s) - started)) \
		"$rep" "$g_ticks" "$busy" "$total" "$l_before" "$(load1)"
	runs_done=$((runs_done + 1))
}

# progress text: "[done/all] text, N min so far, about M min left" (left: this session's pace so far
# over the runs still to do, or the plan's estimate before the first run; plus STUDY_AFTER_SECONDS).
runs_all=$((n_runs + n_ceiling))
runs_done=$(($(wc -l <"$OUT/runs.tsv") - 1))
session_start=$(date +%s)
session_done_at_start=$runs_done
progress() {
	local now elapsed left per
	now=$(date +%s)
	elapsed=$((now - session_start))
	if ((runs_done > session_done_at_start)); then
		per=$((elapsed / (runs_done - session_done_at_start)))
	else
		per=$(((estimate * 60) / (runs_all > 0 ? runs_all : 1)))
	fi
	left=$(((runs_all - runs_done) * per + STUDY_AFTER_SECONDS))
	echo "[$runs_done/$runs_all] $1; $((elapsed / 60)) min so far, about $(((left + 59) / 60)) min left"
}

# warm_up id preset: one unrecorded run, so that the recorded ones meet a JIT-compiled service (the
# first one is longer: Gatling's JVM warms up too).
# Up to WARMUP_MAX windows, until the service's CPU per message (its CPU around the window over the
# messages completed) of two windows in a row agrees within WARMUP_TOLERANCE; each window is a line
# of warmups.tsv.
warmups=0
warm_up() {
	local seconds=$WARMUP window before after completed us previous=""
	((warmups++ == 0)) && seconds=$FIRST_WARMUP
	for ((window = 1; window <= WARMUP_MAX; window++)); do
		before="$(cpu_ticks)"
		gatling QueueSimulation "warmup-$1" "$OUT/runs/warmup-$1" no-reports preset="$2" durationSeconds="$seconds" || true
		after="$(cpu_ticks)"
		completed="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("completed", 0))' \
			"$OUT/runs/warmup-$1.json" 2>/dev/null || echo 0)"
		rm -rf "$OUT/runs/warmup-$1" "$OUT/runs/warmup-$1.json"
		us=""
		if [[ -n "$before" && -n "$after" && "$completed" -gt 0 ]]; then
			us="$(awk -v t=$((after - before)) -v c="$completed" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.1f", t / hz * 1e6 / c}')"
		fi
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$window" "$seconds" "$((after - before))" "$completed" "$us" >>"$OUT/warmups.tsv"
		if [[ -n "$previous" && -n "$us" ]] &&
			awk -v a="$previous" -v b="$us" -v tol="$WARMUP_TOLERANCE" 'BEGIN {d = b / a - 1; exit !(d <= tol && d >= -tol)}'; then
			break
		fi
		previous="$us"
		seconds=$WARMUP
	done
}

# The units in their shuffled order: each a fresh service (the ceiling's: a request that touches no
# queue, at the same users, the strategy does not matter; @baseline: the older build's, same machine,
# same run), warmed up, then its cells.
for unit in "${UNITS[@]}"; do
	IFS=$'\t' read -r rep build strategy key sim unit_cells <<<"$unit"
	todo=""
	for cell in $unit_cells; do
		done_ok "${strategy}${build/#this/}__${cell//\//_}__r$rep" || todo+="$cell "
	done
	[[ -n "$todo" ]] || continue
	[[ -n "$GATLING_PID" ]] || start_gatling
	unit_cells="${todo% }"
	jar=""
	[[ "$build" == @baseline ]] && jar="$BASELINE_JAR"
	profile="$strategy"
	[[ "$strategy" == ceiling ]] && profile="${STRATEGIES%% *}"
	service_settings "$key"
	name="$strategy${build/#this/}-${key//+/-}-r$rep"
	study_service "$OUT/services/$name.log" "${key%%+*}" "$jar" "$profile" "$SVC_HEAP" ${SVC_ARGS[@]+"${SVC_ARGS[@]}"}
	warm_up "$name" "$SVC_WARMUP"
	for cell in $unit_cells; do
		run_cell "$rep" "$build" "$strategy" "$cell" "$sim"
	done
	stop_service
done
stop_gatling
cat /proc/loadavg >"$OUT/loadavg-end"
((status == 0)) || echo "some runs failed: run the same command again (same OUT) to run them again" >&2

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
