#!/usr/bin/env bash
# The queue core's share of a request's time under RequestPathLoad's queue load, for each strategy
# and each service jar, alternated round after round: qs_core_seconds_total (time inside the core)
# over http_server_requests_seconds_sum (time answering requests), both read from
# /actuator/prometheus before and after a counted window, so the share is the window's alone.
# A completion answered 404 counts as a message delivered twice (--duplicates), as concurrent-pojo
# (at least once) may.
#
#   flock /tmp/qs-bench.lock scripts/bench/core-share.sh before=/tmp/old.jar after=target/queue-service-0.1.0-SNAPSHOT.jar
#
# Environment: STRATEGIES (the thesis's four), ROUNDS (2), WARMUP (s, 8), DURATION (s, 10),
# PRODUCERS (4), CONSUMERS (4), SERVICE_JAVA (as scripts/lib/service.sh reads it), OUT.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=../lib/service.sh
source "$ROOT/scripts/lib/service.sh"
# shellcheck source=../lib/load-client.sh
source "$ROOT/scripts/lib/load-client.sh"
STRATEGIES="${STRATEGIES:-synchronized read-write-lock concurrent-pojo concurrent-atomic}"
ROUNDS="${ROUNDS:-2}"
WARMUP="${WARMUP:-8}"
DURATION="${DURATION:-10}"
PRODUCERS="${PRODUCERS:-4}"
CONSUMERS="${CONSUMERS:-4}"
OUT="${OUT:-$ROOT/target/core-share/$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$OUT"
trap stop_service EXIT
load_client "$OUT"

# The sum of every series of one metric, from one scrape.
metric_sum() { # file name
	awk -v m="$2" '$1 ~ "^"m"[{ ]" || $1 == m {s += $2} END {printf "%.6f\n", s}' "$1"
}

echo "core share: $* | strategies $STRATEGIES | rounds $ROUNDS, ${WARMUP}s warm-up, ${DURATION}s window, $PRODUCERS+$CONSUMERS | $("${SERVICE_JAVA:-java}" -version 2>&1 | head -1) | load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-20s %-10s %10s %12s %12s %8s\n' round strategy jar cycles/s core_s http_s share
for round in $(seq 1 "$ROUNDS"); do
	for strategy in $STRATEGIES; do
		for pair in "$@"; do
			label="${pair%%=*}" jar="${pair#*=}"
			SERVICE_JAR="$jar" SERVICE_LOG="$OUT/service-$label-$strategy-$round.log" start_service "$strategy" >/dev/null
			common=(--port "$PORT" --pid "$SERVICE_PID" --producers "$PRODUCERS" --consumers "$CONSUMERS" --mode queue --duplicates true)
			"${CLIENT[@]}" "${common[@]}" --seconds "$WARMUP" >/dev/null
			curl -fsS "$BASE_URL/actuator/prometheus" >"$OUT/before.txt"
			"${CLIENT[@]}" "${common[@]}" --seconds "$DURATION" >"$OUT/$label-$strategy-$round.json"
			curl -fsS "$BASE_URL/actuator/prometheus" >"$OUT/after.txt"
			stop_service
			core=$(python3 -c "print($(metric_sum "$OUT/after.txt" qs_core_seconds_total) - $(metric_sum "$OUT/before.txt" qs_core_seconds_total))")
			http=$(python3 -c "print($(metric_sum "$OUT/after.txt" http_server_requests_seconds_sum) - $(metric_sum "$OUT/before.txt" http_server_requests_seconds_sum))")
			rate=$(python3 -c "import json; print(round(json.load(open('$OUT/$label-$strategy-$round.json'))['cyclesPerSecond']))")
			printf '%-6s %-20s %-10s %10s %12.3f %12.3f %7.2f%%\n' "$round" "$strategy" "$label" "$rate" "$core" "$http" \
				"$(python3 -c "print(100 * $core / $http if $http > 0 else float('nan'))")" | tee -a "$OUT/table.txt"
		done
	done
done
