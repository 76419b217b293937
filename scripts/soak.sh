#!/usr/bin/env bash
# Soak test: the Gatling producer-consumer scenario for MINUTES against the packaged service, with a
# share of first deliveries abandoned by their consumers (redelivered once their lease lapses).
# Every minute it forces a GC and samples heap after GC, RSS and the service's counts; at the end
# the simulation drains and asserts nothing was lost. Writes a Markdown summary.
#
#   scripts/soak.sh                                  # 10 minutes, concurrent-atomic
#   MINUTES=30 STRATEGY=synchronized RATE=800 scripts/soak.sh
#
# Settings (environment): MINUTES (10), STRATEGY (concurrent-atomic), PRESET (4-4), RATE pushes/s
# over all producers (400), ABANDON share of first deliveries (0.1), LEASE (5s), HEAP (-Xmx, 256m),
# OUT (target/soak/<UTC time>), SUMMARY (docs/soak.md; empty = none).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
source scripts/lib/service.sh

MINUTES="${MINUTES:-10}"
STRATEGY="${STRATEGY:-concurrent-atomic}"
PRESET="${PRESET:-4-4}"
RATE="${RATE:-400}"
ABANDON="${ABANDON:-0.1}"
LEASE="${LEASE:-5s}"
HEAP="${HEAP:-256m}"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
OUT="${OUT:-$ROOT/target/soak/$STAMP}"
SUMMARY="${SUMMARY-$ROOT/docs/soak.md}"
mkdir -p "$OUT"

./mvnw -B -q -DskipTests package
gatling=""
cleanup() {
  [ -n "$gatling" ] && kill "$gatling" 2>/dev/null || true
  stop_service
  wait 2>/dev/null || true
}
trap cleanup EXIT
SERVICE_LOG="$OUT/service.log" SERVICE_START_SECONDS=90 start_service "$STRATEGY" "-Xmx$HEAP" -- \
  --qs.lease-timeout="$LEASE"
service=$SERVICE_PID
base=$BASE_URL
if [[ -n "$SERVICE_REDIS_PID" ]]; then
  echo "soak: strategy redis: heap and RSS are the service's; its messages are in the script's redis-server" \
    "(pid $SERVICE_REDIS_PID), which is not sampled"
fi

metric() { # sum of a metric's samples whose labels contain $2 (may be empty)
  awk -v name="$1" -v label="${2:-}" 'index($0, name) == 1 && index($0, label) { s += $NF } END { printf "%.0f", s }' \
    "$OUT/scrape.txt"
}
sample() { # minute label
  jcmd "$service" GC.run > /dev/null
  sleep 2
  curl -sf -H 'Accept: text/plain' "$base/actuator/prometheus" > "$OUT/scrape.txt"
  local heap rss queues
  heap=$(metric 'jvm_memory_used_bytes{' 'area="heap"')
  rss=$(( $(ps -o rss= -p "$service") * 1024 ))
  queues=$(curl -sf "$base/queues" | python3 -c 'import json,sys; q=json.load(sys.stdin)["queues"]; print(sum(x["ready"] for x in q), sum(x["inflight"] for x in q))')
  printf '%s,%s,%s,%s,%s,%s,%s,%s\n' "$1" "$heap" "$rss" "$(metric qs_messages_pushed_total)" \
    "$(metric qs_messages_completed_total)" "$(metric 'qs_messages_delivered_total{' 'redelivery="true"')" \
    "${queues% *}" "${queues#* }" >> "$OUT/samples.csv"
}

echo "minute,heap_after_gc_bytes,rss_bytes,pushed,completed,redelivered,ready,inflight" > "$OUT/samples.csv"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
sample 0
./mvnw -B -f gatling/pom.xml gatling:test -Dgatling.simulationClass=io.github.qsbench.gatling.QueueSimulation \
  -DbaseUrl="$base" -Dpreset="$PRESET" -Drate="$RATE" -DdurationSeconds=$((MINUTES * 60)) \
  -DabandonShare="$ABANDON" -DdrainSeconds=180 -DcountsFile="$OUT/counts.json" > "$OUT/gatling.log" 2>&1 &
gatling=$!
for minute in $(seq 1 "$MINUTES"); do
  sleep 60
  kill -0 "$gatling" 2>/dev/null || break
  sample "$minute"
done
set +e
wait "$gatling"
gatling_rc=$?
set -e
gatling=""
sample end
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

cat > "$OUT/settings.env" <<SETTINGS
MINUTES=$MINUTES STRATEGY=$STRATEGY PRESET=$PRESET RATE=$RATE ABANDON=$ABANDON LEASE=$LEASE HEAP=$HEAP
LOAD_BEFORE="$load_before" LOAD_AFTER="$load_after" GATLING_RC=$gatling_rc
SETTINGS
python3 scripts/soak-summary.py "$OUT" "$SUMMARY"
exit "$gatling_rc"
