#!/usr/bin/env bash
# Issue 48's probe: what the hot routes would cost on Jetty 12 instead of Tomcat, measured beside the
# service and beanstalkd under one load generator, before anything is rebuilt. Four servers,
# alternated (the order rotates every round), each at CLIENTS producers + as many consumers:
#   service   the packaged service (Tomcat, its own fast-path filter, default strategy)
#   jetty     scripts/bench/jetty-hot-path/JettyHotPath.java "core": push, poll and complete as a
#             Jetty core handler that never blocks, run on the thread that read the request
#   servlet   the same probe "servlet": the three routes as a servlet filter on virtual threads
#   beanstalkd  Debian's, as scripts/bench/beanstalkd.sh runs it
# The probe answers as the service does (status, headers, JSON) on the same core (the default
# strategy), without the service's application layer, metrics and limits: 5-6% of the service's
# CPU per the profile (docs/request-path-profile.md). CPU is each server's utime+stime.
#
#   flock /tmp/qs-bench.lock scripts/bench/jetty-hot-path.sh
#   SERVICE_JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java ROUNDS=4 SELECTORS=2 scripts/bench/jetty-hot-path.sh
#
# Jetty comes from Maven Central at the version Spring Boot's parent manages (scripts/lib/jetty-probe.sh:
# resolved by the Maven wrapper into OUT, not a dependency of the service). Needs beanstalkd (apt-get install -y
# beanstalkd) and a JDK 21 or later (virtual threads; SERVICE_JAVA, default java).
# Environment: CLIENTS ("4 16"), ROUNDS (2), DURATION (10), SETTLE (2), WARMUP (10), HEAP (512m),
# SELECTORS (1: the probe's selector threads), SERVICE_JAR, SERVICE_JAVA, BEANSTALKD, OUT.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=../lib/service.sh
source "$ROOT/scripts/lib/service.sh"
# shellcheck source=../lib/load-client.sh
source "$ROOT/scripts/lib/load-client.sh"
# shellcheck source=../lib/jetty-probe.sh
source "$ROOT/scripts/lib/jetty-probe.sh"
CLIENTS="${CLIENTS:-4 16}"
ROUNDS="${ROUNDS:-2}"
DURATION="${DURATION:-10}"
SETTLE="${SETTLE:-2}"
WARMUP="${WARMUP:-10}"
HEAP="${HEAP:-512m}"
SELECTORS="${SELECTORS:-1}"
BEANSTALKD="${BEANSTALKD:-beanstalkd}"
JAVA="${SERVICE_JAVA:-java}"
OUT="${OUT:-$ROOT/target/jetty-hot-path/$(date -u +%Y%m%dT%H%M%SZ)}"
export SERVICE_START_SECONDS="${SERVICE_START_SECONDS:-240}"
command -v "$BEANSTALKD" >/dev/null || {
	echo "no beanstalkd: apt-get update && apt-get install -y beanstalkd (or set BEANSTALKD)" >&2
	exit 2
}
mkdir -p "$OUT"
load_client "$OUT"

jar="${SERVICE_JAR:-$(ls "$ROOT"/target/queue-service-*.jar | head -1)}"
boot="$(sed -n '/<parent>/,/<\/parent>/s/.*<version>\(.*\)<\/version>.*/\1/p' "$ROOT/pom.xml")"
jetty_probe "$OUT/probe" "$jar" "$JAVA" "-Xms$HEAP" "-Xmx$HEAP"

JETTY_PID=""
SERVLET_PID=""
BEANSTALKD_PID=""
cleanup() {
	stop_service
	for pid in $JETTY_PID $SERVLET_PID $BEANSTALKD_PID; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
}
trap cleanup EXIT INT TERM

SERVICE_JAR="$jar" SERVICE_LOG="$OUT/service.log" start_service "" "-Xms$HEAP" "-Xmx$HEAP"
JETTY_PORT="$(free_port)"
"${PROBE[@]}" "$JETTY_PORT" "$SELECTORS" core >"$OUT/jetty.log" 2>&1 &
JETTY_PID=$!
SERVLET_PORT="$(free_port)"
"${PROBE[@]}" "$SERVLET_PORT" "$SELECTORS" servlet virtual \
	>"$OUT/servlet.log" 2>&1 &
SERVLET_PID=$!
BEANSTALKD_PORT="$(free_port)"
"$BEANSTALKD" -l 127.0.0.1 -p "$BEANSTALKD_PORT" >"$OUT/beanstalkd.log" 2>&1 &
BEANSTALKD_PID=$!
for port in "$JETTY_PORT" "$SERVLET_PORT" "$BEANSTALKD_PORT"; do
	for _ in $(seq 1 100); do
		(echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
		sleep 0.1
	done
done
declare -A port=([service]="$PORT" [jetty]="$JETTY_PORT" [servlet]="$SERVLET_PORT" [beanstalkd]="$BEANSTALKD_PORT")
declare -A pid=([service]="$SERVICE_PID" [jetty]="$JETTY_PID" [servlet]="$SERVLET_PID" [beanstalkd]="$BEANSTALKD_PID")
declare -A mode=([service]=queue [jetty]=queue [servlet]=queue [beanstalkd]=beanstalk)
echo "service vs Jetty probes vs beanstalkd: $("$JAVA" -version 2>&1 | head -1), -Xmx$HEAP, Spring Boot $boot's Jetty," \
	"$SELECTORS selector(s) | clients $CLIENTS, rounds $ROUNDS, ${SETTLE}+${DURATION}s windows | output $OUT"
echo "start $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for server in service jetty servlet beanstalkd; do
	"${CLIENT[@]}" --port "${port[$server]}" --pid "${pid[$server]}" --mode "${mode[$server]}" --seconds "$WARMUP" >/dev/null
done

orders=("service jetty servlet beanstalkd" "beanstalkd servlet jetty service" "jetty beanstalkd service servlet"
	"servlet service beanstalkd jetty")
cell_header
: >"$OUT/results.jsonl"
for round in $(seq 1 "$ROUNDS"); do
	for n in $CLIENTS; do
		for server in ${orders[$(((round - 1) % ${#orders[@]}))]}; do
			[[ "$server" != beanstalkd ]] && jcmd "${pid[$server]}" GC.run >/dev/null
			load="$(cut -d' ' -f1 /proc/loadavg)"
			"${CLIENT[@]}" --port "${port[$server]}" --pid "${pid[$server]}" --mode "${mode[$server]}" --producers "$n" \
				--consumers "$n" --warmup "$SETTLE" --seconds "$DURATION" \
				>"$OUT/$server-$n-$round.json" 2>"$OUT/$server-$n-$round.err" || true
			record_cell "$OUT" "$server" "$n" "$round" "$load"
		done
	done
done
echo "end $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$OUT/results.jsonl" <<-'EOF'
	import json, sys
	rows = [json.loads(line) for line in open(sys.argv[1])]
	by = {(r["server"], r["clients"], r["round"]): r for r in rows}
	print("\n| clients | round | service (Tomcat) cycles/s, µs/cycle | Jetty core handler | Jetty servlet filter | beanstalkd"
	      " | service / beanstalkd: cycles, CPU | Jetty core / beanstalkd | Jetty servlet / beanstalkd |")
	print("|---|---|---|---|---|---|---:|---:|---:|")
	for n in sorted({r["clients"] for r in rows}):
	    for rnd in sorted({r["round"] for r in rows}):
	        s, j, v, b = (by[(server, n, rnd)] for server in ("service", "jetty", "servlet", "beanstalkd"))
	        cell = lambda x: f"{x['cycles']:,.0f}, {x['us']:.1f}"
	        ratio = lambda x: f"{x['cycles'] / b['cycles']:.2f}, {x['us'] / b['us']:.2f}"
	        print(f"| {n}+{n} | {rnd} | {cell(s)} | {cell(j)} | {cell(v)} | {cell(b)} | {ratio(s)} | {ratio(j)} | {ratio(v)} |")
EOF
