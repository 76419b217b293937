#!/usr/bin/env bash
# Do the caps still bound the heap with SQS's largest messages (1 MiB)? Starts the packaged service
# with its defaults (qs.max-message-size 1 MiB, max-total-bytes half the heap) and -Xmx$HEAP, then:
# 4 clients push 1 MiB messages into one queue until the byte cap answers 429 (and on); with the
# caps full, 4 clients send batches of ten 1 MiB messages (REST batches, refused 429; SQS
# SendMessageBatch, refused BatchRequestTooLong: both read whole first; BATCH_CLIENTS of them at
# once); after each phase, the
# statuses counted, health, the live heap after a full GC and what the caps hold.
#
#   flock /tmp/qs-bench.lock scripts/largest-messages.sh        # writes docs/largest-messages.md
#
# Environment: JAR, OUT, HEAP (256m), PUSHES (400), BATCHES (40), BATCH_CLIENTS (4).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/scripts/lib/service.sh"

JAR="${JAR:-$ROOT/target/queue-service-0.1.0-SNAPSHOT.jar}"
OUT="${OUT:-$ROOT/docs/largest-messages.md}"
HEAP="${HEAP:-256m}"
PUSHES="${PUSHES:-400}"
BATCHES="${BATCHES:-40}"
BATCH_CLIENTS="${BATCH_CLIENTS:-4}"
MIB=1048576
WORK="$(mktemp -d)"

trap stop_service EXIT
SERVICE_JAR="$JAR" SERVICE_LOG="$WORK/service.log" start_service "" -Xmx"$HEAP"
URL="$BASE_URL"

row() { # phase, driver result
	python3 - "$1" "$2" "$(service_health)" "$(service_live_heap_mib)" "$(service_metric qs_capacity_bytes_used_bytes)" \
		"$(service_metric qs_capacity_bytes_max_bytes)" "$(service_metric qs_messages_ready)" <<'PY'
import json, sys
phase, result, health, heap, used, cap, ready = sys.argv[1:8]
r = json.loads(result or "{}")
statuses = ", ".join(f"{k}: {v}" for k, v in r.get("statuses", {}).items()) or "driver failed"
print(f"| {phase} | {r.get('seconds', '')} | {statuses} | {r.get('server_errors', '')} | {health} | {heap} "
      f"| {float(used or 0) / 1048576:.1f} of {float(cap or 0) / 1048576:.1f} | {ready or 'n/a'} |")
PY
}

{
	echo "# The largest messages under the caps: 1 MiB pushes until the byte cap, then batches of ten"
	echo
	echo "Measured $(date -u +%Y-%m-%dT%H:%MZ) by \`scripts/largest-messages.sh\` on $(nproc) CPUs (load $(cut -d' ' -f1-3 /proc/loadavg))."
	echo "Service: \`$(basename "$JAR")\`, default strategy and settings (\`qs.max-message-size\` 1 MiB, \`max-total-bytes\` half the heap), \`-Xmx$HEAP\`, $(java -version 2>&1 | head -1)."
	echo "Heap is the live heap after a full GC (\`jcmd GC.class_histogram\`); caps are \`qs_capacity_bytes_used_bytes\` of \`qs_capacity_bytes_max_bytes\`."
	echo
	echo "Baseline before any load: heap $(service_live_heap_mib) MiB, health $(service_health)."
	echo
	echo "| phase | seconds | statuses | 5xx | health | heap MiB | caps MiB | ready |"
	echo "|---|---|---|---|---|---|---|---|"
} >"$OUT.tmp"

result="$(python3 "$ROOT/scripts/memory_driver.py" fill "$URL" --count "$PUSHES" --clients 4 --body-bytes "$MIB" \
	--queue largest || echo '{}')"
echo "$result"
row "$PUSHES pushes of 1 MiB, 4 clients" "$result" >>"$OUT.tmp"
result="$(python3 "$ROOT/scripts/memory_driver.py" batches "$URL" --count "$BATCHES" --clients "$BATCH_CLIENTS" \
	--body-bytes "$MIB" --queue largest || echo '{}')"
echo "$result"
row "$BATCHES batches of ten 1 MiB messages (REST and SQS), caps full, clients: $BATCH_CLIENTS" "$result" >>"$OUT.tmp"
stop_service
mv "$OUT.tmp" "$OUT"
cat "$OUT"
