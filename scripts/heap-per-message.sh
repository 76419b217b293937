#!/usr/bin/env bash
# Live heap bytes per held message, for each strategy, as the service runs: start the packaged
# service, take the live heap after a full GC, push COUNT messages of BODY_BYTES into one queue over
# HTTP, take it again, and divide. The class histogram's growth per message shows where it goes.
#
#   flock /tmp/qs-bench.lock scripts/heap-per-message.sh            # writes docs/heap-per-message.md
#   JAR=old.jar OUT=target/before.md scripts/heap-per-message.sh    # e.g. an older build
#
# The redis strategy is skipped: it holds its messages in Redis, not on the heap.
#
# Environment: JAR, OUT, STRATEGIES (default: every strategy), COUNT (100000), BODY_BYTES (100),
# WARMUP (5000: messages held in another queue before the baseline).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/scripts/lib/service.sh"

JAR="${JAR:-$ROOT/target/queue-service-0.1.0-SNAPSHOT.jar}"
OUT="${OUT:-$ROOT/docs/heap-per-message.md}"
STRATEGIES="${STRATEGIES:-$(strategies)}"
COUNT="${COUNT:-100000}"
WARMUP="${WARMUP:-5000}"
BODY_BYTES="${BODY_BYTES:-100}"
WORK="$(mktemp -d)"
trap stop_service EXIT

{
	echo "# Live heap per held message"
	echo
	echo "Measured $(date -u +%Y-%m-%dT%H:%MZ) by \`scripts/heap-per-message.sh\` on $(nproc) CPUs, $(java -version 2>&1 | head -1), \`-Xmx1g\`, default settings (lazy eviction, id lookup, caps)."
	echo "Service: \`$(basename "$JAR")\`. $COUNT messages of $BODY_BYTES bytes pushed over HTTP into one queue;"
	echo "live heap after a full GC (\`jcmd GC.class_histogram\`) before and after, divided by $COUNT;"
	echo "before the first histogram, a warm-up fill of $WARMUP messages into another queue, held throughout."
	echo
	echo "| strategy | bytes per held message | where it grew most (bytes and objects per message) |"
	echo "|---|---|---|"
} >"$OUT.tmp"

for strategy in $STRATEGIES; do
	if [[ "$strategy" == redis ]]; then
		echo "$strategy: skipped: its messages are held in Redis, not in the service's heap"
		echo "| $strategy | not measured: its messages are held in Redis, not in the service's heap | |" >>"$OUT.tmp"
		continue
	fi
	SERVICE_JAR="$JAR" SERVICE_LOG="$WORK/service-$strategy.log" start_service "$strategy" -Xmx1g
	# A warm-up fill of another queue, held through both histograms, so that what the
	# service sets up once under load (Tomcat's threads and buffers, JIT, the contention
	# meter's JFR metadata) is in the baseline, not counted against the messages.
	python3 "$ROOT/scripts/memory_driver.py" fill "$BASE_URL" --count "$WARMUP" --clients 4 \
		--body-bytes "$BODY_BYTES" --queue warm-up >/dev/null
	jcmd "$SERVICE_PID" GC.class_histogram >"$WORK/before.txt"
	python3 "$ROOT/scripts/memory_driver.py" fill "$BASE_URL" --count "$COUNT" --clients 4 \
		--body-bytes "$BODY_BYTES" --queue heap
	jcmd "$SERVICE_PID" GC.class_histogram >"$WORK/after.txt"
	stop_service
	python3 "$ROOT/scripts/heap_histogram.py" diff "$WORK/before.txt" "$WORK/after.txt" "$COUNT" 6 >"$WORK/diff.txt"
	echo "$strategy: $(head -1 "$WORK/diff.txt") B"
	echo "| $strategy | $(head -1 "$WORK/diff.txt") | $(tail -n +2 "$WORK/diff.txt" | sed -E 's/^ +//; s/ +/ /g' | paste -sd ';' | sed 's/;/; /g') |" >>"$OUT.tmp"
done
mv "$OUT.tmp" "$OUT"
cat "$OUT"
