#!/usr/bin/env bash
# Where the whole process's CPU goes under the REST queue load, kernel included: perf samples of
# the service by where the running code lives (the kernel, the JVM's own code: GC, JIT compiler,
# runtime; Java code the JIT compiled; libc), the kernel's top functions, and the syscalls and
# context switches per request. JFR (scripts/bench/request-path.sh with JFR=...) splits the Java part.
#
#   flock /tmp/qs-bench.lock scripts/bench/request-path-perf.sh target/queue-service-0.1.0-SNAPSHOT.jar
#
# Environment: PRODUCERS, CONSUMERS (4, 4), PROFILE (concurrent-atomic), DURATION (10 s), WARMUP (15 s),
# JAVA_OPTS (-Xms512m -Xmx512m), SERVICE_JAVA (e.g. JDK 25's bin/java), OUT.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source "$ROOT/scripts/lib/service.sh"
source "$ROOT/scripts/lib/load-client.sh"
JAR="${1:?usage: $0 service.jar}"
PRODUCERS="${PRODUCERS:-4}"
CONSUMERS="${CONSUMERS:-4}"
PROFILE="${PROFILE:-concurrent-atomic}"
DURATION="${DURATION:-10}"
WARMUP="${WARMUP:-15}"
JAVA_OPTS="${JAVA_OPTS:--Xms512m -Xmx512m}"
OUT="${OUT:-$ROOT/target/request-path-perf/$(date -u +%Y%m%dT%H%M%SZ)}"
load_client "$OUT"
trap stop_service EXIT INT TERM
echo "perf of the request path: $PRODUCERS producers + $CONSUMERS consumers, $PROFILE," \
	"$("${SERVICE_JAVA:-java}" -version 2>&1 | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2086
SERVICE_JAR="$JAR" SERVICE_LOG="$OUT/service.log" SERVICE_PROCESS_INFO=false start_service "$PROFILE" $JAVA_OPTS >/dev/null
common=(--port "$PORT" --pid "$SERVICE_PID" --producers "$PRODUCERS" --consumers "$CONSUMERS")
"${CLIENT[@]}" "${common[@]}" --mode queue --seconds "$WARMUP" >/dev/null
jcmd "$SERVICE_PID" GC.run >/dev/null
"${CLIENT[@]}" "${common[@]}" --mode queue --seconds "$DURATION" >"$OUT/load.json" &
client=$!
sleep 1
perf stat -x, -e task-clock,context-switches,cpu-migrations,raw_syscalls:sys_enter,syscalls:sys_enter_read,syscalls:sys_enter_write,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_epoll_ctl,syscalls:sys_enter_futex \
	-p "$SERVICE_PID" -o "$OUT/stat.csv" -- sleep "$((DURATION - 3))" &
stat=$!
perf record -F 1999 -p "$SERVICE_PID" -o "$OUT/perf.data" -- sleep "$((DURATION - 3))" 2>/dev/null >/dev/null
wait "$client" || true
wait "$stat" || true # not a bare wait: the service is a child too
stop_service
python3 - "$OUT" "$DURATION" <<'PY'
import json, sys, csv
out, duration = sys.argv[1], int(sys.argv[2])
r = json.load(open(f"{out}/load.json"))
rps = r["rps"]
seconds = duration - 3
print(f"load: {rps:,.0f} req/s, {r['cpuUsPerRequest']:.1f} us CPU per request "
      f"({r['serverUserMs'] * 1000 / max(1, r['requests']):.1f} user, {r['serverSystemMs'] * 1000 / max(1, r['requests']):.1f} sys), errors {r['errors']}")
for row in csv.reader(open(f"{out}/stat.csv")):
    if len(row) > 2 and row[0].strip() and not row[0].startswith("#"):
        try:
            value = float(row[0])
        except ValueError:
            continue
        unit = " ms" if row[2] == "task-clock" else ""
        print(f"  {row[2]}: {value / (rps * seconds):.3f}{unit} per request")
PY
perf report -i "$OUT/perf.data" --no-children --sort dso --stdio 2>/dev/null | grep -v "^#" | grep -v "^$" | head -12
echo "kernel's top symbols:"
perf report -i "$OUT/perf.data" --no-children --sort sym --stdio --dsos '[kernel.kallsyms]' 2>/dev/null | grep -E "^ +[0-9]" | head -15
