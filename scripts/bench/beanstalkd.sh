#!/usr/bin/env bash
# The service beside beanstalkd (C, the same lease model over TCP: put, reserve, delete) under one
# load generator, RequestPathLoad: cycles/s (messages pushed, delivered and completed) and server CPU
# per cycle of each at CLIENTS producers + as many consumers, alternated, in the same run, and the
# service's rate over beanstalkd's. See docs/client-curve.md.
#
# Installs nothing: it expects Debian's beanstalkd on the PATH (or BEANSTALKD):
#   apt-get update && apt-get install -y beanstalkd
#
#   flock /tmp/qs-bench.lock scripts/bench/beanstalkd.sh
#   ROUNDS=3 CLIENTS="4 16 64" PROFILE=lane-adaptive scripts/bench/beanstalkd.sh -- --spring.threads.virtual.enabled=false
#
# Arguments are JVM options for the service, then after -- its application arguments (as
# start_service takes them). The service
# is target/queue-service-*.jar (or SERVICE_JAR) started with SERVICE_JAVA (default java) through
# scripts/lib/service.sh, strategy PROFILE (default: none, the default strategy); beanstalkd runs on
# a free port of 127.0.0.1 with its defaults (no binlog: in memory, as the service). Both are
# warmed up for WARMUP s at 4+4 first. Each round runs, for each client count, the service and then
# beanstalkd (the other way round every other round), each for SETTLE s uncounted then DURATION s
# counted. The HTTP load is RequestPathLoad's queue mode (8 queues, 100-byte bodies, 5 ms pause
# after an empty poll); beanstalkd's is its beanstalk mode (8 tubes, 100-byte jobs, a consumer
# watching all 8 with reserve-with-timeout 0 and the same pause). CPU is each server's utime+stime.
# The summary gives the means, then each cell against issue 48's bar (cycles/s at least 1.0x
# beanstalkd's, CPU a cycle at most 1.25x, nothing lost), round by round, and in how many it holds,
# then each ratio's geometric mean over the rounds (paired samples) with its 95% t-interval.
# Environment: CLIENTS ("4 16"), ROUNDS (2), DURATION (10), SETTLE (2), WARMUP (10), HEAP (512m),
# PROFILE, SERVICE_JAR, SERVICE_JAVA, BEANSTALKD, OUT.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=../lib/service.sh
source "$ROOT/scripts/lib/service.sh"
# shellcheck source=../lib/load-client.sh
source "$ROOT/scripts/lib/load-client.sh"
CLIENTS="${CLIENTS:-4 16}"
ROUNDS="${ROUNDS:-2}"
DURATION="${DURATION:-10}"
SETTLE="${SETTLE:-2}"
WARMUP="${WARMUP:-10}"
HEAP="${HEAP:-512m}"
# a loaded 2-core machine can take a minute to start the service
export SERVICE_START_SECONDS="${SERVICE_START_SECONDS:-240}"
PROFILE="${PROFILE:-}"
BEANSTALKD="${BEANSTALKD:-beanstalkd}"
OUT="${OUT:-$ROOT/target/beanstalkd/$(date -u +%Y%m%dT%H%M%SZ)}"
command -v "$BEANSTALKD" >/dev/null || {
	echo "no beanstalkd: apt-get update && apt-get install -y beanstalkd (or set BEANSTALKD)" >&2
	exit 2
}

load_client "$OUT"

BEANSTALKD_PID=""
cleanup() {
	stop_service
	if [[ -n "$BEANSTALKD_PID" ]]; then
		kill "$BEANSTALKD_PID" 2>/dev/null || true
		wait "$BEANSTALKD_PID" 2>/dev/null || true
	fi
}
trap cleanup EXIT INT TERM

SERVICE_LOG="$OUT/service.log" start_service "$PROFILE" "-Xms$HEAP" "-Xmx$HEAP" "$@"
# the service's CPU: with the redis strategy on the script's own Redis, its redis-server's too
SERVICE_PIDS="$SERVICE_PID${SERVICE_REDIS_PID:+,$SERVICE_REDIS_PID}"
BEANSTALKD_PORT="$(free_port)"
"$BEANSTALKD" -l 127.0.0.1 -p "$BEANSTALKD_PORT" >"$OUT/beanstalkd.log" 2>&1 &
BEANSTALKD_PID=$!
for _ in $(seq 1 50); do
	(echo >"/dev/tcp/127.0.0.1/$BEANSTALKD_PORT") 2>/dev/null && break
	sleep 0.1
done
echo "service vs beanstalkd: service ${PROFILE:-default strategy} ($("${SERVICE_JAVA:-java}" -version 2>&1 | head -1);" \
	"-Xmx$HEAP $*) at $PORT, $("$BEANSTALKD" -v 2>&1 | head -1) at $BEANSTALKD_PORT | clients $CLIENTS," \
	"rounds $ROUNDS, ${SETTLE}+${DURATION}s windows | backlog ${BACKLOG:-1000} | output $OUT"
echo "start $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
"${CLIENT[@]}" --port "$PORT" --pid "$SERVICE_PIDS" --seconds "$WARMUP" >/dev/null
"${CLIENT[@]}" --port "$BEANSTALKD_PORT" --pid "$BEANSTALKD_PID" --mode beanstalk --seconds "$WARMUP" >/dev/null

cell_header
: >"$OUT/results.jsonl"
for round in $(seq 1 "$ROUNDS"); do
	servers="service beanstalkd"
	((round % 2 == 0)) && servers="beanstalkd service"
	for n in $CLIENTS; do
		for server in $servers; do
			if [[ "$server" == service ]]; then
				jcmd "$SERVICE_PID" GC.run >/dev/null
				target=(--port "$PORT" --pid "$SERVICE_PIDS" --mode queue)
			else
				target=(--port "$BEANSTALKD_PORT" --pid "$BEANSTALKD_PID" --mode beanstalk)
			fi
			load="$(cut -d' ' -f1 /proc/loadavg)"
			"${CLIENT[@]}" "${target[@]}" --producers "$n" --consumers "$n" --warmup "$SETTLE" --seconds "$DURATION" \
				>"$OUT/$server-$n-$round.json" 2>"$OUT/$server-$n-$round.err" || true
			record_cell "$OUT" "$server" "$n" "$round" "$load"
		done
	done
done
echo "end $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$OUT/results.jsonl" <<-'EOF'
	import collections, json, sys
	rows = [json.loads(line) for line in open(sys.argv[1])]
	by = collections.defaultdict(list)
	for r in rows:
	    by[(r["server"], r["clients"])].append(r)
	mean = lambda rs, k: sum(r[k] for r in rs) / len(rs)
	print("\n| clients | service cycles/s | service µs/cycle | beanstalkd cycles/s | beanstalkd µs/cycle | service/beanstalkd cycles/s |")
	print("|---|---:|---:|---:|---:|---:|")
	for n in sorted({r["clients"] for r in rows}):
	    s, b = by[("service", n)], by[("beanstalkd", n)]
	    print(f"| {n}+{n} | {mean(s, 'cycles'):,.0f} | {mean(s, 'us'):.0f} | {mean(b, 'cycles'):,.0f} | {mean(b, 'us'):.0f} "
	          f"| **{mean(s, 'cycles') / mean(b, 'cycles'):.2f}** |")
	# issue 48's bar holds round by round: cycles/s at least 1.0x beanstalkd's, CPU a cycle at most 1.25x, nothing lost
	cell = {(r["server"], r["clients"], r["round"]): r for r in rows}
	print("\n| clients | round | cycles/s ratio | CPU ratio | lost | bar (>= 1.0x, <= 1.25x, 0 lost) |")
	print("|---|---|---:|---:|---:|---|")
	met = total = 0
	for n in sorted({r["clients"] for r in rows}):
	    for rnd in sorted({r["round"] for r in rows}):
	        s, b = cell[("service", n, rnd)], cell[("beanstalkd", n, rnd)]
	        cycles, cpu = s["cycles"] / b["cycles"], s["us"] / b["us"]
	        ok = cycles >= 1.0 and cpu <= 1.25 and s["lost"] == 0 and b["lost"] == 0
	        met, total = met + ok, total + 1
	        print(f"| {n}+{n} | {rnd} | {cycles:.2f} | {cpu:.2f} | {s['lost']} | {'met' if ok else '**not met**'} |")
	print(f"\nissue 48's bar: met in {met} of {total} cells")
	# The rounds as paired samples: the geometric mean of each ratio over the rounds with its 95%
	# t-interval, which says whether the bar holds on the mean beyond the rounds' spread.
	import math, statistics
	T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131]
	def interval(ratios):
	    logs = [math.log(x) for x in ratios]
	    m = statistics.mean(logs)
	    if len(logs) < 2:
	        return math.exp(m), float("nan"), float("nan")
	    half = (T975[len(logs) - 2] if len(logs) - 2 < len(T975) else 1.96) * statistics.stdev(logs) / math.sqrt(len(logs))
	    return math.exp(m), math.exp(m - half), math.exp(m + half)
	print("\n| clients | rounds | cycles/s ratio, geometric mean [95% CI] | CPU ratio, geometric mean [95% CI] |")
	print("|---|---:|---|---|")
	for n in sorted({r["clients"] for r in rows}):
	    rounds = sorted({r["round"] for r in rows})
	    pairs = [(cell[("service", n, rnd)], cell[("beanstalkd", n, rnd)]) for rnd in rounds]
	    c = interval([s["cycles"] / b["cycles"] for s, b in pairs])
	    u = interval([s["us"] / b["us"] for s, b in pairs])
	    print(f"| {n}+{n} | {len(pairs)} | {c[0]:.2f} [{c[1]:.2f}, {c[2]:.2f}] | {u[0]:.2f} [{u[1]:.2f}, {u[2]:.2f}] |")
EOF
