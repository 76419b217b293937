#!/usr/bin/env bash
# Does the heap stay bounded under a request sequence that used to exhaust it? Starts the packaged
# service with -Xmx128m (default caps: half the heap) and a 1 s lease, then runs 10,000 cycles of
# push (100 KB), poll, complete, each on a new queue name: from 1 client, from 4 in parallel, and
# both again with 10% of first deliveries abandoned (their leases lapse; the client polls them
# again and completes the redelivery). After each phase: the statuses counted, health, the heap
# after a full GC and what the caps say they hold.
#
#   flock /tmp/qs-bench.lock scripts/memory-bound.sh                  # writes docs/memory-bound.md
#   JAR=other.jar OUT=target/before.md scripts/memory-bound.sh        # e.g. an older build
#
# Environment: JAR, OUT, STRATEGY (default concurrent-atomic), CYCLES (10000), BODY_BYTES (100000),
# HEAP (128m).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/scripts/lib/service.sh"

JAR="${JAR:-$ROOT/target/queue-service-0.1.0-SNAPSHOT.jar}"
OUT="${OUT:-$ROOT/docs/memory-bound.md}"
STRATEGY="${STRATEGY:-concurrent-atomic}"
CYCLES="${CYCLES:-10000}"
BODY_BYTES="${BODY_BYTES:-100000}"
HEAP="${HEAP:-128m}"
WORK="$(mktemp -d)"

trap stop_service EXIT
SERVICE_JAR="$JAR" SERVICE_LOG="$WORK/service.log" start_service "$STRATEGY" -Xmx"$HEAP" -- --qs.lease-timeout=1s
URL="$BASE_URL"

{
	echo "# Memory under new queue names: $CYCLES cycles of push ($BODY_BYTES B), poll, complete"
	echo
	echo "Measured $(date -u +%Y-%m-%dT%H:%MZ) by \`scripts/memory-bound.sh\` on $(nproc) CPUs (load $(cut -d' ' -f1-3 /proc/loadavg))."
	echo "Service: \`$(basename "$JAR")\`, strategy \`$STRATEGY\`, \`-Xmx$HEAP\`, default caps (max-total-bytes = half the heap), lease 1 s, $(java -version 2>&1 | head -1)."
	echo "Heap is the live heap after a full GC (\`jcmd GC.class_histogram\`); caps are \`qs_capacity_bytes_used_bytes\` and \`qs_capacity_queues_used\`."
	if [[ "$STRATEGY" == redis ]]; then
		echo "Strategy redis holds its messages in the script's own redis-server, not on this heap, and has no caps of the heap (Redis's maxmemory is its cap): the caps columns read n/a."
	fi
	echo
	echo "Baseline before any load: heap $(service_live_heap_mib) MiB, health $(service_health)."
	echo
	echo "| phase | clients | abandoned | seconds | statuses | 5xx | redelivered and completed | health | heap MiB | caps bytes | caps queues | queues |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
} >"$OUT.tmp"

for phase in "1 0" "4 0" "1 0.1" "4 0.1"; do
	read -r clients share <<<"$phase"
	result="$(python3 "$ROOT/scripts/memory_driver.py" cycles "$URL" --count "$CYCLES" --clients "$clients" \
		--body-bytes "$BODY_BYTES" --abandon-share "$share" --lease-seconds 1 --tag "c${clients}a${share//./}" || echo '{}')"
	echo "$result"
	heap="$(service_live_heap_mib)"
	python3 - "$result" "$clients" "$share" "$(service_health)" "$heap" "$(service_metric qs_capacity_bytes_used_bytes)" \
		"$(service_metric qs_capacity_queues_used)" "$(service_metric qs_queues)" >>"$OUT.tmp" <<'PY'
import json, sys
r = json.loads(sys.argv[1] or "{}")
clients, share, health, heap, cap_bytes, cap_queues, queues = sys.argv[2:9]
statuses = ", ".join(f"{k}: {v}" for k, v in r.get("statuses", {}).items()) or "driver failed"
print(f"| {'abandon ' + share if share != '0' else 'complete all'} | {clients} | {r.get('abandoned', '')} | {r.get('seconds', '')} "
      f"| {statuses} | {r.get('server_errors', '')} | {r.get('redelivered_and_completed', '')} | {health} | {heap} "
      f"| {cap_bytes or 'n/a'} | {cap_queues or 'n/a'} | {queues or 'n/a'} |")
PY
done
stop_service
mv "$OUT.tmp" "$OUT"
cat "$OUT"
