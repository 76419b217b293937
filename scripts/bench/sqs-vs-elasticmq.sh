#!/usr/bin/env bash
# Push-receive-delete cycles per second of this service's SQS face, of its REST path, and of
# ElasticMQ (the in-memory SQS most Java teams run locally), under one closed-loop load on the same
# machine in the same run, the three alternated round after round so that they share its noise.
# See docs/sqs-vs-elasticmq.md.
#
#   flock /tmp/qs-bench.lock scripts/bench/sqs-vs-elasticmq.sh
#   ROUNDS=3 DURATION=30 PROFILE=lane-adaptive scripts/bench/sqs-vs-elasticmq.sh
#
# Each pass starts its server on 127.0.0.1 at a free port with the same heap (JAVA_OPTS), warms it
# up (WARMUP s of the same load), then measures DURATION s of RequestPathLoad: PRODUCERS producers
# and CONSUMERS consumers, one kept-alive connection each, single 100-byte messages over 8 queues;
# producers send, consumers receive one message and delete it, pausing 5 ms after an empty receive.
# The SQS face and ElasticMQ get the same requests (AWS JSON 1.0, `sqs` mode); the REST path gets
# push, poll and DELETE (`queue` mode). After the window the consumers drain: lost = sent - deleted.
# Server CPU per cycle is the server's utime+stime in the window over the cycles in it.
# FIFO_GROUPS=N compares FIFO queues instead: one FIFO queue, each send in one of N message groups
# with a deduplication id of its own, on the SQS face and ElasticMQ only (the REST pass is skipped).
# Environment: ROUNDS (2), DURATION (s, 20), WARMUP (s, 10), PRODUCERS (16), CONSUMERS (16),
# PROFILE (concurrent-atomic), JAVA_OPTS (-Xms512m -Xmx512m), SERVICE_JAR (this build's jar by
# default), SERVICE_START_SECONDS (180: how long each server may take to start on a busy machine),
# OUT. ElasticMQ's version is set in scripts/bench/elasticmq/pom.xml.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=../lib/service.sh
source "$ROOT/scripts/lib/service.sh"
# shellcheck source=../lib/load-client.sh
source "$ROOT/scripts/lib/load-client.sh"
ROUNDS="${ROUNDS:-2}"
DURATION="${DURATION:-20}"
WARMUP="${WARMUP:-10}"
PRODUCERS="${PRODUCERS:-16}"
CONSUMERS="${CONSUMERS:-16}"
PROFILE="${PROFILE:-concurrent-atomic}"
JAVA_OPTS="${JAVA_OPTS:--Xms512m -Xmx512m}"
OUT="${OUT:-$ROOT/target/sqs-vs-elasticmq/$(date -u +%Y%m%dT%H%M%SZ)}"
export SERVICE_START_SECONDS="${SERVICE_START_SECONDS:-180}"
ELASTICMQ="$ROOT/target/elasticmq"

if [[ -z "${SERVICE_JAR:-}" ]] && ! compgen -G "$ROOT/target/queue-service-*.jar" >/dev/null; then
	(cd "$ROOT" && ./mvnw -q -DskipTests package)
fi
if ! compgen -G "$ELASTICMQ/elasticmq-server_*.jar" >/dev/null; then
	(cd "$ROOT" && ./mvnw -q -f scripts/bench/elasticmq/pom.xml dependency:copy-dependencies \
		-DoutputDirectory="$ELASTICMQ")
fi
load_client "$OUT"
CLIENT+=(--producers "$PRODUCERS" --consumers "$CONSUMERS")
SERVERS=(sqs-face rest elasticmq)
if [[ -n "${FIFO_GROUPS:-}" ]]; then
	CLIENT+=(--groups "$FIFO_GROUPS" --queues 1)
	SERVERS=(sqs-face elasticmq)
fi

EMQ_PID=""
stop_elasticmq() {
	if [[ -n "$EMQ_PID" ]]; then
		kill "$EMQ_PID" 2>/dev/null || true
		wait "$EMQ_PID" 2>/dev/null || true
		EMQ_PID=""
	fi
}
trap 'stop_service; stop_elasticmq' EXIT INT TERM

# start_elasticmq LOG: ElasticMQ's server on 127.0.0.1 at a free port (PORT), its statistics
# endpoint off; waits until ListQueues answers.
start_elasticmq() {
	PORT="$(free_port)"
	cat >"$OUT/elasticmq.conf" <<-EOF
		include classpath("application.conf")
		node-address { protocol = http, host = 127.0.0.1, port = $PORT, context-path = "" }
		rest-sqs { enabled = true, bind-port = $PORT, bind-hostname = "127.0.0.1", sqs-limits = strict }
		rest-stats { enabled = false }
	EOF
	# shellcheck disable=SC2086
	java $JAVA_OPTS -Dconfig.file="$OUT/elasticmq.conf" -cp "$ELASTICMQ/*" org.elasticmq.server.Main >"$1" 2>&1 &
	EMQ_PID=$!
	local deadline=$((SECONDS + SERVICE_START_SECONDS))
	while ((SECONDS < deadline)); do
		if curl -fsS -X POST -H 'Content-Type: application/x-amz-json-1.0' -H 'X-Amz-Target: AmazonSQS.ListQueues' \
			-d '{}' "http://127.0.0.1:$PORT/" >/dev/null 2>&1; then
			return 0
		fi
		kill -0 "$EMQ_PID" 2>/dev/null || break
		sleep 0.5
	done
	tail -n 40 "$1" >&2
	echo "ElasticMQ did not start (log $1)" >&2
	return 1
}

echo "${SERVERS[*]}${FIFO_GROUPS:+ (FIFO, $FIFO_GROUPS groups)}: rounds $ROUNDS, ${DURATION}s windows after ${WARMUP}s warm-up," \
	"$PRODUCERS producers + $CONSUMERS consumers, profile $PROFILE, servers $JAVA_OPTS |" \
	"$(java -version 2>&1 | head -1) | $(nproc) cores | output $OUT"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-10s %12s %10s %10s %6s %7s %14s\n' round server cycles/s sent deleted lost errors "cpu us/cycle"
for round in $(seq 1 "$ROUNDS"); do
	for server in "${SERVERS[@]}"; do
		log="$OUT/$server-$round"
		if [[ "$server" == elasticmq ]]; then
			start_elasticmq "$log.log" >/dev/null
			pid="$EMQ_PID"
			mode=sqs
		else
			# shellcheck disable=SC2086
			SERVICE_LOG="$log.log" start_service "$PROFILE" $JAVA_OPTS >/dev/null
			# with the redis strategy on the script's own Redis, its redis-server's CPU counts too
			pid="$SERVICE_PID${SERVICE_REDIS_PID:+,$SERVICE_REDIS_PID}"
			mode=$([[ "$server" == sqs-face ]] && echo sqs || echo queue)
		fi
		"${CLIENT[@]}" --port "$PORT" --mode "$mode" --seconds "$WARMUP" >"$log-warmup.json"
		"${CLIENT[@]}" --port "$PORT" --pid "$pid" --mode "$mode" --seconds "$DURATION" >"$log.json" ||
			echo "client reported errors (see $log.json and the log)" >&2
		if [[ "$server" == elasticmq ]]; then stop_elasticmq; else stop_service; fi
		python3 - "$round" "$server" "$log.json" <<-'EOF'
			import json, sys
			r = json.load(open(sys.argv[3]))
			print(f"{sys.argv[1]:<6} {sys.argv[2]:<10} {r['cyclesPerSecond']:12.0f} {r['pushedTotal']:10d} "
			      f"{r['completedTotal']:10d} {r['lost']:6d} {r['errors']:7d} {r['cpuUsPerCycle']:14.1f}")
		EOF
	done
done
python3 - "$OUT" <<'EOF'
import glob, json, os, statistics, sys
runs = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*-[0-9]*.json"))):
    name = os.path.basename(path)
    if "warmup" in name:
        continue
    runs.setdefault(name.rsplit("-", 1)[0], []).append(json.load(open(path)))
print()
print("| server | cycles/s (mean of rounds) | each round | lost | errors | server CPU µs/cycle |")
print("|---|---|---|---|---|---|")
means = {}
for server in ("sqs-face", "rest", "elasticmq"):
    rs = runs.get(server, [])
    if not rs:
        continue
    means[server] = statistics.mean(r["cyclesPerSecond"] for r in rs)
    rounds = ", ".join(format(r["cyclesPerSecond"], ",.0f") for r in rs)
    print(f"| {server} | {means[server]:,.0f} | {rounds} | "
          f"{sum(r['lost'] for r in rs)} | {sum(r['errors'] for r in rs)} | "
          f"{statistics.mean(r['cpuUsPerCycle'] for r in rs):.0f} |")
if means.get("elasticmq"):
    for server in ("sqs-face", "rest"):
        if server in means:
            print(f"{server} / elasticmq: {means[server] / means['elasticmq']:.2f}x")
EOF
