#!/usr/bin/env bash
# What the request path costs: server CPU per request and requests/s of one or more service jars
# under the same closed-loop load, alternating the jars round after round so that they share the
# machine's noise. See docs/request-path-profile.md.
#
#   flock /tmp/qs-bench.lock scripts/bench/request-path.sh base=/tmp/h8/base.jar lean=target/queue-service-0.1.0-SNAPSHOT.jar
#   ROUNDS=3 PROFILE=synchronized JFR="lean" scripts/bench/request-path.sh lean=target/queue-service-0.1.0-SNAPSHOT.jar
#   scripts/bench/request-path.sh lean=target/queue-service-0.1.0-SNAPSHOT.jar "ka=target/queue-service-0.1.0-SNAPSHOT.jar --server.tomcat.max-keep-alive-requests=-1"
#
# A jar may be followed by arguments for the service (quote the whole label=jar args); JVM options
# of that jar's own go first, ended by a lone --: "g1=app.jar -XX:+UseG1GC -- --server.port=0".
#
# Each round, for each jar: start it on 127.0.0.1 (scripts/lib/service.sh's start_service: free port,
# -Xms512m -Xmx512m, the study's heap; SERVICE_PROCESS_INFO=false, so that /actuator/info, the
# ceiling, answers as a plain start's would),
# warm up (queue load, then the no-op, WARMUP s each: a no-op warmed 3 s measured 1.5-1.8x its
# cost warmed longer, still JIT-cold), measure the no-op ceiling (GET CEILING_PATH with as many
# users as the queue load has) and then the queue load (RequestPathLoad, PRODUCERS and CONSUMERS),
# each after a full GC, stop it. The client
# reads the service's utime+stime at the start and the end of each window: CPU per request is
# that difference over the requests answered in the window.
# Environment: ROUNDS (2), DURATION (s, 15), WARMUP (s, 15), PRODUCERS (4), CONSUMERS (4),
# PROFILE (concurrent-atomic), LOAD (queue: REST's fast path; sqs: the same work through the SQS
# face, AWS JSON 1.0), BATCH (1; above 1, the queue load in REST batches of that many: a JSON
# batch push, a poll of up to that many, a completions batch), CEILING_PATH (/actuator/info),
# JAVA_OPTS (service JVM options),
# JFR (labels, e.g. "base lean": before the rounds, one more pass of each of these jars records
# a JFR profile, settings=profile, of each window into OUT/<label>-jfr-<mode>.jfr; that pass
# is not counted in the means; see scripts/bench/jfr-layers.py), JFR_EVENTS (more JFR.start options for
# those windows, event settings such as "jdk.CPUTimeSample#enabled=true jdk.CPUTimeSample#throttle=1ms",
# JDK 25's sampling by CPU time, kernel time included; see scripts/bench/jfr-request-path.py), OUT; SERVICE_JAVA (another JDK's
# java for the services, as scripts/lib/service.sh reads it).
# PROFILE=redis runs each service on a redis-server of the script's own (scripts/lib/service.sh's
# start_shared_redis, emptied before each start) unless the jar's arguments name a Redis
# (--spring.data.redis.*); its CPU then counts with the service's. Its keys keep the default
# namespace (qs:) unless the jar's arguments set one.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=../lib/service.sh
source "$ROOT/scripts/lib/service.sh" # start_service, stop_service, start_shared_redis
# shellcheck source=../lib/load-client.sh
source "$ROOT/scripts/lib/load-client.sh"
ROUNDS="${ROUNDS:-2}"
DURATION="${DURATION:-15}"
WARMUP="${WARMUP:-15}"
PRODUCERS="${PRODUCERS:-4}"
CONSUMERS="${CONSUMERS:-4}"
PROFILE="${PROFILE:-concurrent-atomic}"
LOAD="${LOAD:-queue}"
BATCH="${BATCH:-1}"
CEILING_PATH="${CEILING_PATH:-/actuator/info}"
JAVA_OPTS="${JAVA_OPTS:--Xms512m -Xmx512m}"
JFR="${JFR:-}"
JFR_EVENTS="${JFR_EVENTS:-}"
OUT="${OUT:-$ROOT/target/request-path/$(date -u +%Y%m%dT%H%M%SZ)}"
[[ $# -gt 0 ]] || { echo "usage: $0 'label=path/to.jar [service args]' ..." >&2; exit 2; }

load_client "$OUT"

trap stop_service EXIT INT TERM

echo "request path: $* | rounds $ROUNDS, ${DURATION}s windows, $CONSUMERS consumers + $PRODUCERS producers," \
	"profile $PROFILE, load $LOAD (batch $BATCH), service $JAVA_OPTS | $("${SERVICE_JAVA:-java}" -version 2>&1 | head -1) | output $OUT"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ "$PROFILE" == redis ]]; then
	start_shared_redis # for the jars whose arguments name no Redis; started here, before the table
fi
printf '%-6s %-8s %-6s %10s %12s %14s %8s %8s\n' round jar mode req/s "cpu us/req" "user/sys us" errors closes
passes=()
for spec in "$@"; do
	[[ " $JFR " == *" ${spec%%=*} "* ]] && passes+=("jfr:$spec")
done
for round in $(seq 1 "$ROUNDS"); do
	for spec in "$@"; do
		passes+=("$round:$spec")
	done
done
for pass in "${passes[@]}"; do
	round="${pass%%:*}"
	spec="${pass#*:}"
	label="${spec%%=*}"
	read -r jar args <<<"${spec#*=}"
	# the jar's own JVM options: the words before a lone --, if there is one
	jvm_own=()
	read -ra words <<<"$args"
	for ((i = 0; i < ${#words[@]}; i++)); do
		if [[ "${words[i]}" == -- ]]; then
			jvm_own=("${words[@]:0:i}")
			args="${words[*]:i+1}"
			break
		fi
	done
	# A profiled pass records from start-up: JFR instruments socket and file classes when a
	# recording first starts, which sends hot code back to the interpreter; started in the
	# window, that would be profiled instead of the request path.
	jfr_opts=()
	[[ "$round" == jfr ]] && jfr_opts=(-XX:StartFlightRecording=settings=profile,name=startup)
	# the service's default namespace, where start_service would give each start one of its own
	namespace=()
	[[ "$PROFILE" == redis && " $args " != *" --qs.redis.namespace="* ]] && namespace=(--qs.redis.namespace=qs:)
	# On the script's Redis (emptied first) unless the arguments name one; quiet, its table is the
	# output. /actuator/info is measured: without the process section start_service would add.
	# shellcheck disable=SC2086
	SERVICE_JAR="$jar" SERVICE_LOG="$OUT/service-$label-$round.log" SERVICE_PROCESS_INFO=false \
		start_service "$PROFILE" $JAVA_OPTS ${jvm_own[@]+"${jvm_own[@]}"} ${jfr_opts[@]+"${jfr_opts[@]}"} -- $args \
		${namespace[@]+"${namespace[@]}"} >/dev/null
	common=(--port "$PORT" --pid "$SERVICE_PID${SERVICE_REDIS_PID:+,$SERVICE_REDIS_PID}" --producers "$PRODUCERS"
		--consumers "$CONSUMERS" --batch "$BATCH")
	"${CLIENT[@]}" "${common[@]}" --mode "$LOAD" --seconds "$WARMUP" >/dev/null
	"${CLIENT[@]}" "${common[@]}" --mode noop --path "$CEILING_PATH" --seconds "$WARMUP" >/dev/null
	# The no-op first: the queue load leaves a heap of completed messages to collect, which
	# would be charged to whatever runs next. A full GC before each window starts it clean.
	for mode in noop "$LOAD"; do
		jcmd "$SERVICE_PID" GC.run >/dev/null
		if [[ "$round" == jfr ]]; then
			# shellcheck disable=SC2086 # JFR_EVENTS: one option a word
			jcmd "$SERVICE_PID" JFR.start name="$mode" settings=profile duration="${DURATION}s" \
				filename="$OUT/$label-jfr-$mode.jfr" $JFR_EVENTS >/dev/null
		fi
		"${CLIENT[@]}" "${common[@]}" --mode "$mode" --path "$CEILING_PATH" --seconds "$DURATION" \
			>"$OUT/$label-$round-$mode.json" 2>"$OUT/$label-$round-$mode.err" || true
		python3 - "$OUT/$label-$round-$mode.json" "$round" "$label" "$mode" <<-'EOF'
			import json, sys
			r = json.load(open(sys.argv[1]))
			n = max(1, r['requests'])
			split = f"{r['serverUserMs'] * 1000 / n:.0f}/{r['serverSystemMs'] * 1000 / n:.0f}"
			print(f"{sys.argv[2]:<6} {sys.argv[3]:<8} {sys.argv[4]:<6} {r['rps']:10,.0f} {r['cpuUsPerRequest']:12.1f} {split:>14} {r['errors']:8} {r['reconnects']:8}")
		EOF
	done
	stop_service
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$OUT" "$LOAD" "$@" <<-'EOF'
	import glob, json, os, sys
	out, load, specs = sys.argv[1], sys.argv[2], [s.split("=", 1)[0] for s in sys.argv[3:]]
	print(f"\nmean over rounds | {load} req/s | {load} cpu us/req | no-op req/s | no-op cpu us/req | {load}/no-op req/s")
	for label in specs:
	    runs = {m: [json.load(open(p)) for p in sorted(glob.glob(os.path.join(out, f"{label}-[0-9]*-{m}.json")))] for m in (load, "noop")}
	    runs["queue"] = runs[load]
	    mean = lambda m, k: sum(r[k] for r in runs[m]) / max(1, len(runs[m]))
	    print(f"{label} | {mean('queue', 'rps'):,.0f} | {mean('queue', 'cpuUsPerRequest'):.1f} | {mean('noop', 'rps'):,.0f} "
	          f"| {mean('noop', 'cpuUsPerRequest'):.1f} | {mean('queue', 'rps') / max(1, mean('noop', 'rps')):.2f}")
EOF
