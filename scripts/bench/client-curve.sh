#!/usr/bin/env bash
# What a message costs the server as clients grow: server CPU per push-poll-complete cycle and
# cycles/s of one or more service jars under the closed-loop queue load of RequestPathLoad, at
# each client count of CLIENTS (producers = consumers = N, one kept-alive connection each), per
# strategy and runtime (JDK and kind of request threads). See docs/client-curve.md.
#
#   scripts/bench/client-curve.sh base=/tmp/h21-base/target/queue-service-0.1.0-SNAPSHOT.jar new=target/queue-service-0.1.0-SNAPSHOT.jar
#   STRATEGIES="synchronized lane-adaptive" CLIENTS="4 16 64" scripts/bench/client-curve.sh new=target/queue-service-0.1.0-SNAPSHOT.jar
#   RUNTIMES=17-platform CLIENTS="4 16" JFR=1 PERF=1 ROUNDS=1 scripts/bench/client-curve.sh new=target/...jar
#
# A jar may be followed by arguments for the service (quote the whole label=jar args), and
# RUNTIMES_<label> narrows the runtimes that jar runs on (e.g. RUNTIMES_base="17-platform 25-platform").
#
# For each round, strategy and runtime, the jars run one after another (in reverse order every
# other round), so that before and after share the machine's noise. Each jar: started through
# scripts/lib/service.sh (free port on 127.0.0.1, -Xms512m -Xmx512m unless HEAP, the runtime's
# java and spring.threads.virtual.enabled set explicitly), warmed up for WARMUP s at 4+4, then
# for each client count (in reverse order every other round): a full GC, SETTLE s of load that is
# not counted (the connections open and the threads start), DURATION s counted, drain. The client
# reads the service's utime+stime around the window: CPU per cycle is that over the messages
# completed in the window. Each round of each strategy runs under LOCK (flock, default
# /tmp/qs-bench.lock), so a long matrix is held in pieces of a few minutes and others' runs
# interleave; LOCK= runs without it (when the caller holds the lock).
#
# RUNTIMES: JDK-THREADS among 17-platform, 25-platform, 25-virtual (JAVA17, default java; JAVA25,
# default /usr/lib/jvm/temurin-25-jdk-amd64/bin/java). JFR=1: the last round's cells also record a
# JFR profile (settings=profile) of their window into OUT/jfr/, from a recording started with the
# service (see docs/request-path-profile.md for why). PERF=1: `perf stat` of the service process in
# each window (context switches, CPU migrations; syscalls and futex calls where tracepoints allow),
# per cycle in the table. PERF=record: that and `perf record -g` of the service in each window into
# OUT/CELL.perf.data, with the JIT's symbols in /tmp/perf-PID.map (jcmd Compiler.perfmap) for
#   perf report -i OUT/CELL.perf.data --no-children --sort dso   (kernel, JIT code, libjvm: where
# the CPU goes outside Java too, which JFR's sampler does not see).
# Environment: CLIENTS ("2 4 16 64 256"), STRATEGIES (concurrent-atomic), RUNTIMES (all three),
# ROUNDS (2), DURATION (5), SETTLE (2), WARMUP (10), HEAP (512m), LOCK, JFR, PERF, OUT.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=../lib/service.sh
source "$ROOT/scripts/lib/service.sh"
# shellcheck source=../lib/load-client.sh
source "$ROOT/scripts/lib/load-client.sh"
CLIENTS="${CLIENTS:-2 4 16 64 256}"
STRATEGIES="${STRATEGIES:-concurrent-atomic}"
RUNTIMES="${RUNTIMES:-17-platform 25-platform 25-virtual}"
ROUNDS="${ROUNDS:-2}"
DURATION="${DURATION:-5}"
SETTLE="${SETTLE:-2}"
WARMUP="${WARMUP:-10}"
HEAP="${HEAP:-512m}"
LOCK="${LOCK-/tmp/qs-bench.lock}"
JFR="${JFR:-}"
PERF="${PERF:-}"
JAVA17="${JAVA17:-java}"
JAVA25="${JAVA25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}"
# a loaded 2-core machine can take a minute to start the service
export SERVICE_START_SECONDS="${SERVICE_START_SECONDS:-240}"
OUT="${OUT:-$ROOT/target/client-curve/$(date -u +%Y%m%dT%H%M%SZ)}"
[[ $# -gt 0 ]] || { echo "usage: $0 'label=path/to.jar [service args]' ..." >&2; exit 2; }

mkdir -p "$OUT/jfr"
load_client "$OUT"
PERF_EVENTS="task-clock,context-switches,cpu-migrations"
if [[ -n "$PERF" ]] && perf stat -e 'syscalls:sys_enter_futex,raw_syscalls:sys_enter' true >/dev/null 2>&1; then
	PERF_EVENTS="$PERF_EVENTS,syscalls:sys_enter_futex,raw_syscalls:sys_enter"
fi
trap stop_service EXIT INT TERM
if [[ " $STRATEGIES " == *" redis "* ]]; then
	# Started here, not in a start_service below: those run in subshells, which would each start
	# one. Every redis service then uses this one, and its CPU counts with the service's.
	start_shared_redis
	echo "strategy redis: CPU per cycle is the service JVM's plus this redis-server's"
fi

reversed() { # words, last first
	local words=("$@") i
	for ((i = ${#words[@]} - 1; i >= 0; i--)); do printf '%s ' "${words[i]}"; done
}

echo "client curve: $* | clients $CLIENTS | strategies $STRATEGIES | runtimes $RUNTIMES | rounds $ROUNDS," \
	"${SETTLE}+${DURATION}s windows | backlog ${BACKLOG:-1000} | heap $HEAP | client $(java -version 2>&1 | head -1) | output $OUT"
echo "start $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$OUT/setup.txt"
printf '%-5s %-18s %-11s %-6s %5s %10s %10s %9s %8s %6s\n' round strategy runtime jar n cycles/s "us/cycle" "cs/cycle" "load" errors
: >"$OUT/results.jsonl"
for round in $(seq 1 "$ROUNDS"); do
	specs=("$@")
	counts="$CLIENTS"
	if ((round % 2 == 0)); then
		specs=()
		for ((i = $#; i >= 1; i--)); do specs+=("${!i}"); done
		counts="$(reversed $CLIENTS)"
	fi
	for strategy in $STRATEGIES; do
		[[ -n "$LOCK" ]] && { exec 9>"$LOCK"; flock 9; }
		for runtime in $RUNTIMES; do
			jdk="${runtime%%-*}"
			threads="${runtime#*-}"
			java_bin="$JAVA17"
			[[ "$jdk" == 25 ]] && java_bin="$JAVA25"
			virtual=false
			[[ "$threads" == virtual ]] && virtual=true
			for spec in "${specs[@]}"; do
				label="${spec%%=*}"
				read -r jar args <<<"${spec#*=}"
				only="RUNTIMES_$label"
				[[ " ${!only:-$RUNTIMES} " == *" $runtime "* ]] || continue
				profiled=""
				[[ -n "$JFR" && "$round" == "$ROUNDS" ]] && profiled=1
				jvm=("-Xms$HEAP" "-Xmx$HEAP")
				[[ -n "$profiled" ]] && jvm+=(-XX:StartFlightRecording=settings=profile,name=startup,maxsize=64m)
				(
					# shellcheck disable=SC2086
					SERVICE_JAR="$jar" SERVICE_JAVA="$java_bin" SERVICE_LOG="$OUT/service-$label-$strategy-$runtime-$round.log" \
						start_service "$strategy" "${jvm[@]}" -- --spring.threads.virtual.enabled="$virtual" $args >/dev/null ||
						{ echo "$label $strategy $runtime: no service, skipped"; exit 0; }
					common=(--port "$PORT" --pid "$SERVICE_PID${SERVICE_REDIS_PID:+,$SERVICE_REDIS_PID}")
					"${CLIENT[@]}" "${common[@]}" --producers 4 --consumers 4 --seconds "$WARMUP" >/dev/null 2>&1 || true
					for n in $counts; do
						jcmd "$SERVICE_PID" GC.run >/dev/null
						cell="$label-$strategy-$runtime-$n-$round"
						beside=()
						if [[ -n "$profiled" ]]; then
							(sleep "$SETTLE" && jcmd "$SERVICE_PID" JFR.start name="$cell" settings=profile \
								duration="${DURATION}s" filename="$OUT/jfr/$cell.jfr" >/dev/null) &
							beside+=($!)
						fi
						if [[ -n "$PERF" ]]; then
							(sleep "$SETTLE" && exec perf stat -x, -e "$PERF_EVENTS" -p "$SERVICE_PID" \
								-o "$OUT/$cell.perf" -- sleep "$DURATION") &
							beside+=($!)
						fi
						if [[ "$PERF" == record ]]; then
							(sleep "$SETTLE" && exec perf record -q -F 499 -g -p "$SERVICE_PID" \
								-o "$OUT/$cell.perf.data" -- sleep "$DURATION" 2>/dev/null) &
							beside+=($!)
						fi
						load="$(cut -d' ' -f1 /proc/loadavg)"
						"${CLIENT[@]}" "${common[@]}" --producers "$n" --consumers "$n" --warmup "$SETTLE" \
							--seconds "$DURATION" >"$OUT/$cell.json" 2>"$OUT/$cell.err" || true
						# not a bare wait: the service is a child too
						((${#beside[@]})) && wait "${beside[@]}"
						python3 - "$OUT" "$cell" "$round" "$strategy" "$runtime" "$label" "$n" "$load" <<-'EOF'
							import json, os, sys
							out, cell, rnd, strategy, runtime, label, n, load = sys.argv[1:]
							r = json.load(open(os.path.join(out, cell + ".json")))
							row = dict(round=int(rnd), strategy=strategy, runtime=runtime, jar=label, clients=int(n), load=float(load),
							           cycles=r["cyclesPerSecond"], us=r["cpuUsPerCycle"], user=r["serverUserMs"], sys=r["serverSystemMs"],
							           completes=r["completes"], requests=r["requests"], pushes=r["pushes"], empty=r["emptyPolls"],
							           backlog=r["backlog"], errors=r["errors"])
							perf = os.path.join(out, cell + ".perf")
							if os.path.exists(perf):
							    for line in open(perf):
							        f = line.strip().split(",")
							        if len(f) > 2 and f[0].replace(".", "").isdigit():
							            row[f[2]] = float(f[0]) / max(1, r["completes"])
							open(os.path.join(out, "results.jsonl"), "a").write(json.dumps(row) + "\n")
							cs = row.get("context-switches")
							print(f"{rnd:<5} {strategy:<18} {runtime:<11} {label:<6} {n:>5} {row['cycles']:10,.0f} {row['us']:10.1f} "
							      f"{(f'{cs:.2f}' if cs is not None else '-'):>9} {load:>8} {row['errors']:6}")
						EOF
					done
					[[ "$PERF" == record ]] && jcmd "$SERVICE_PID" Compiler.perfmap >/dev/null
					stop_service
				)
			done
		done
		[[ -n "$LOCK" ]] && exec 9>&-
	done
done
echo "end $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/setup.txt"
python3 "$ROOT/scripts/bench/client-curve-table.py" "$OUT/results.jsonl"
