#!/usr/bin/env bash
# What a long poll costs the server: CPU per delivered message and messages/s of one or more
# service jars under the study's Gatling load with long polling off and on, the jars alternating
# round after round so that they share the machine's noise. See docs/long-poll-profile.md.
#
#   flock /tmp/qs-bench.lock scripts/bench/long-poll.sh base=/tmp/base.jar new=target/queue-service-0.1.0-SNAPSHOT.jar
#   ROUNDS=1 CELLS="4-1/w2" JFR=base PERF=base scripts/bench/long-poll.sh base=/tmp/base.jar
#
# Each round, for each jar: start it with scripts/lib/service.sh (strategy PROFILE, -Xms512m -Xmx512m,
# the study's heap), run QueueSimulation preset 4-4 for FIRST_WARM s, then for each cell of CELLS
# (PRESET/wWAIT: the simulation's preset and waitSeconds) a warm-up of that same cell (WARM s, so the
# window does not pay the JIT for a path the warm-up never took) and the counted run (RAMP s ramp,
# DURATION s window), stop it. One Gatling JVM runs everything (the study's StudyRunner).
# CPU per message is the study's: the service's process CPU time from the scrape before the load to
# the check after the drain (serverCpuSeconds) over the messages completed (serverCompleted). The
# threads' CPU (utime and stime from /proc/<pid>/task) around each counted run, by thread name, goes
# to OUT/<jar>-r<round>-<cell>.threads.
# JFR (labels): those jars record settings=profile from start-up into OUT/<label>-r<round>.jfr (a
# recording started in the window would send hot code back to the interpreter); OUT/windows.tsv
# has each counted window's start and end, for scripts/bench/jfr-layers.py --between.
# PERF (labels): perf record -F 499 -g on the service during each counted window of those jars.
# Environment: ROUNDS (2), CELLS ("4-1/w0 4-1/w2"), DURATION (15), RAMP (3), WARM (10),
# FIRST_WARM (15), PROFILE (concurrent-atomic), JFR, PERF, OUT.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
ROUNDS="${ROUNDS:-2}"
CELLS="${CELLS:-4-1/w0 4-1/w2}"
DURATION="${DURATION:-15}"
RAMP="${RAMP:-3}"
WARM="${WARM:-10}"
FIRST_WARM="${FIRST_WARM:-15}"
PROFILE="${PROFILE:-concurrent-atomic}"
JFR="${JFR:-}"
PERF="${PERF:-}"
OUT="${OUT:-$ROOT/target/long-poll/$(date -u +%Y%m%dT%H%M%SZ)}"
GATLING_CP_FILE="$ROOT/gatling/target/classpath.txt"
[[ $# -gt 0 ]] || { echo "usage: $0 label=path/to.jar ..." >&2; exit 2; }

# shellcheck source=scripts/lib/service.sh
source "$ROOT/scripts/lib/service.sh"
mkdir -p "$OUT/runs"
[[ -f "$GATLING_CP_FILE" ]] || "$ROOT/mvnw" -B -q -f "$ROOT/gatling/pom.xml" test-compile \
	org.apache.maven.plugins:maven-dependency-plugin:3.10.0:build-classpath \
	-Dmdep.outputFile="$GATLING_CP_FILE" -Dmdep.includeScope=test

GATLING_PID=""
PERF_PID=""
cleanup() {
	[[ -n "$PERF_PID" ]] && { kill -INT "$PERF_PID" 2>/dev/null || true; wait "$PERF_PID" 2>/dev/null || true; }
	if [[ -n "$GATLING_PID" ]]; then
		exec 7>&- 8<&-
		wait "$GATLING_PID" 2>/dev/null || true
	fi
	stop_service
	rm -f "$OUT/.gatling-requests" "$OUT/.gatling-answers"
}
trap cleanup EXIT
trap "exit 130" INT
trap "exit 143" TERM

# One Gatling JVM for every run, fed through named pipes (as scripts/e2e-study.sh does).
mkfifo "$OUT/.gatling-requests" "$OUT/.gatling-answers"
exec 7<>"$OUT/.gatling-requests" 8<>"$OUT/.gatling-answers"
java -Xmx1G -XX:MaxInlineLevel=20 -XX:MaxTrivialSize=12 \
	--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED \
	-cp "$ROOT/gatling/target/test-classes:$(cat "$GATLING_CP_FILE")" \
	io.github.qsbench.gatling.study.StudyRunner "$OUT/.gatling-answers" \
	<"$OUT/.gatling-requests" >"$OUT/gatling-jvm.log" 2>&1 7>&- 8>&- &
GATLING_PID=$!

gatling() { # id reports|no-reports name=value...
	local id="$1" reports="$2" code
	shift 2
	local request=("$OUT/runs/$id.log" io.github.qsbench.gatling.QueueSimulation "$OUT/runs/$id" "$reports"
		"baseUrl=$BASE_URL" drainSeconds=60 "countsFile=$OUT/runs/$id.json" "$@")
	(IFS=$'\t' && echo "${request[*]}") >&7
	until read -r -t 5 code <&8; do
		kill -0 "$GATLING_PID" 2>/dev/null || { tail -20 "$OUT/gatling-jvm.log"; echo "Gatling's JVM ended" >&2; exit 1; }
	done
	[[ "$code" == 0 ]] || echo "  run $id failed (exit $code, see $OUT/runs/$id.log)" >&2
}

threads() { # CPU ticks by thread name (digits folded): name utime stime
	local task
	for task in /proc/"$SERVICE_PID"/task/*; do
		printf '%s %s\n' "$(tr ' ' _ <"$task/comm" 2>/dev/null | sed 's/[0-9]\+/N/g')" \
			"$(sed -E 's/^.*\) //' "$task/stat" 2>/dev/null | awk '{print $12, $13}')"
	done | awk 'NF == 3 {u[$1] += $2; s[$1] += $3} END {for (k in u) print k, u[k], s[k]}' | sort
}

printf 'round\tjar\tcell\tmessages_per_s\tcpu_us_per_msg\tmessages\tcpu_s\trequests_in_window\tempty_polls\n' >"$OUT/runs.tsv"
printf 'label\tstart\tend\n' >"$OUT/windows.tsv"
echo "long polls: $* | rounds $ROUNDS, cells $CELLS, ${DURATION}s windows after a ${WARM}s warm-up of the cell," \
	"profile $PROFILE | $(java -version 2>&1 | head -1) | output $OUT"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ "$PROFILE" == redis ]]; then
	echo "profile redis: CPU per message is the service JVM's; the script's own redis-server is not counted"
fi
for round in $(seq 1 "$ROUNDS"); do
	for spec in "$@"; do
		label="${spec%%=*}"
		jar="${spec#*=}"
		jvm=(-Xms512m -Xmx512m)
		[[ " $JFR " == *" $label "* ]] &&
			jvm+=("-XX:StartFlightRecording=filename=$OUT/$label-r$round.jfr,settings=profile,dumponexit=true")
		SERVICE_JAR="$jar" SERVICE_LOG="$OUT/$label-r$round.log" SERVICE_START_SECONDS=120 \
			start_service "$PROFILE" "${jvm[@]}" >/dev/null
		gatling "$label-r$round-warm" no-reports preset=4-4 durationSeconds="$FIRST_WARM" rampSeconds="$RAMP"
		for cell in $CELLS; do
			preset="${cell%/w*}"
			wait="${cell##*/w}"
			id="$label-r$round-${cell//\//-}"
			cell_props=(preset="$preset" waitSeconds="$wait" rampSeconds="$RAMP")
			gatling "$id-warm" no-reports "${cell_props[@]}" durationSeconds="$WARM"
			threads >"$OUT/$id.threads.before"
			started="$(date +%T)"
			if [[ " $PERF " == *" $label "* ]]; then
				perf record -F 499 -g -p "$SERVICE_PID" -o "$OUT/$id.perf.data" >/dev/null 2>&1 &
				PERF_PID=$!
			fi
			gatling "$id" reports "${cell_props[@]}" durationSeconds="$DURATION"
			if [[ -n "$PERF_PID" ]]; then
				kill -INT "$PERF_PID" 2>/dev/null || true
				wait "$PERF_PID" 2>/dev/null || true
				PERF_PID=""
			fi
			printf '%s\t%s\t%s\n' "$id" "$started" "$(date +%T)" >>"$OUT/windows.tsv"
			threads >"$OUT/$id.threads.after"
			join -a 2 "$OUT/$id.threads.before" "$OUT/$id.threads.after" |
				awk 'NF == 5 {print $1, $4 - $2, $5 - $3} NF == 3 {print}' | sort -k2,2nr -k3,3nr >"$OUT/$id.threads"
			rm "$OUT/$id.threads.before" "$OUT/$id.threads.after"
			python3 - "$OUT/runs/$id.json" "$round" "$label" "$cell" >>"$OUT/runs.tsv" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))
print("\t".join(map(str, [sys.argv[2], sys.argv[3], sys.argv[4],
      round(c["completedInWindow"] / c["windowSeconds"]), round(1e6 * c["serverCpuSeconds"] / c["serverCompleted"]),
      c["serverCompleted"], c["serverCpuSeconds"], c["requestsInWindow"], c["emptyPolls"]])))
EOF
			tail -1 "$OUT/runs.tsv"
		done
		stop_service
	done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"

# Means per jar and cell, and each jar's against the first's.
python3 - "$OUT/runs.tsv" <<'EOF'
import collections, csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
by = collections.defaultdict(list)
for r in rows:
    by[(r["jar"], r["cell"])].append(r)
jars = list(dict.fromkeys(r["jar"] for r in rows))
cells = list(dict.fromkeys(r["cell"] for r in rows))
mean = lambda rs, k: sum(float(r[k]) for r in rs) / len(rs)
print("\n| jar | cell | runs | messages/s | CPU µs/msg | against " + jars[0] + ": messages/s, CPU/msg |")
print("|---|---|---:|---:|---:|---|")
for cell in cells:
    for jar in jars:
        rs = by[(jar, cell)]
        if not rs:
            continue
        base = by[(jars[0], cell)]
        ratio = (f"{mean(rs, 'messages_per_s') / mean(base, 'messages_per_s'):.2f}, "
                 f"{mean(rs, 'cpu_us_per_msg') / mean(base, 'cpu_us_per_msg'):.2f}") if jar != jars[0] else ""
        print(f"| {jar} | {cell} | {len(rs)} | {mean(rs, 'messages_per_s'):,.0f} | {mean(rs, 'cpu_us_per_msg'):,.0f} | {ratio} |")
EOF
echo "runs, thread CPU, windows and recordings: $OUT"
