#!/usr/bin/env bash
# Every fault, each ending with the history checker, and the table in docs/faults.md:
# consumer-pause, connection-cut and overload on one strategy per family (thesis:
# synchronized, lanes: lane-locked, Redis: redis), then the redis strategy's own faults
# (service-sigterm, redis-instance-kill, redis-instance-kill-move, redis-kill with appendfsync
# always and everysec, redis-pause, redis-cluster-kill plain and acknowledged). Each run takes the
# benchmark lock (FAULT_LOCK, /tmp/qs-bench.lock) for itself only, so a shared machine waits for one
# short run at a time.
# Exits 1 if any run broke its guarantee (every run goes on regardless); the table says which.
#
#   ./mvnw -DskipTests package && scripts/faults/run-all.sh
#   scripts/faults/run-all.sh --recheck    # the kept histories (FAULT_OUT) checked again, the table rewritten
#
# Environment: FAULT_STRATEGIES ("synchronized lane-locked redis"), FAULT_SECONDS (12), FAULT_SEED (1),
# FAULT_TABLE (docs/faults.md; "-" prints the table instead), and fault-run.sh's.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
export FAULT_OUT="${FAULT_OUT:-$ROOT/target/faults}"
export FAULT_RESULTS="$FAULT_OUT/results.tsv"
LOCK="${FAULT_LOCK:-/tmp/qs-bench.lock}"
TABLE="${FAULT_TABLE:-$ROOT/docs/faults.md}"
mkdir -p "$FAULT_OUT"
failed=0

table() {
	if [[ "$TABLE" == - ]]; then
		python3 "$ROOT/scripts/faults/table.py" "$FAULT_RESULTS"
	else
		python3 "$ROOT/scripts/faults/table.py" "$FAULT_RESULTS" --into "$TABLE"
		echo "table written into $TABLE"
	fi
}

if [[ "${1:-}" == --recheck ]]; then
	# shellcheck source=../lib/fault-run.sh
	source "$ROOT/scripts/lib/fault-run.sh"
	jars=("$ROOT"/target/queue-service-*.jar)
	FAULT_JAR="${SERVICE_JAR:-${jars[0]}}"
	mv "$FAULT_RESULTS" "$FAULT_RESULTS.before"
	while IFS=$'\t' read -r fault strategy status checked; do
		run_dir="$FAULT_OUT/$fault-$strategy"
		if [[ ! -d "$run_dir" ]]; then # a run that did not reach its check: kept as it was
			printf '%s\t%s\t%s\t%s\n' "$fault" "$strategy" "$status" "$checked" >>"$FAULT_RESULTS"
			failed=1
			continue
		fi
		[[ -f "$run_dir/check.args" ]] || printf '%s\n' --strategy "$strategy" >"$run_dir/check.args"
		status=0
		fault_check "$run_dir" || status=$?
		((status == 0)) || failed=1
		printf '%s\t%s\t%s\t%s\n' "$fault" "$strategy" "$status" "$(head -1 "$run_dir/check.txt")" >>"$FAULT_RESULTS"
	done <"$FAULT_RESULTS.before"
	table
	exit "$failed"
fi
: >"$FAULT_RESULTS"

run() { # script [arguments...]
	local log="$FAULT_OUT/$(basename "$1" .sh)-${2:-redis}.log" before
	before="$(wc -l <"$FAULT_RESULTS")"
	echo "=== $*"
	flock "$LOCK" "$ROOT/scripts/faults/$1" "${@:2}" >"$log" 2>&1 || { failed=1; echo "    failed: see $log"; }
	if (($(wc -l <"$FAULT_RESULTS") == before)); then
		printf '%s\t%s\t%s\t%s\n' "$(basename "$1" .sh) ${2:-}" "${2:-redis}" 1 "$(tail -1 "$log")" >>"$FAULT_RESULTS"
	fi
	tail -1 "$FAULT_RESULTS" | cut -f1-3
}

for strategy in ${FAULT_STRATEGIES:-synchronized lane-locked redis}; do
	run consumer-pause.sh "$strategy"
	run connection-cut.sh "$strategy"
	run overload.sh "$strategy"
done
run service-sigterm.sh
run redis-instance-kill.sh
run redis-instance-kill-move.sh
run redis-kill.sh always
run redis-kill.sh everysec
run redis-pause.sh
run redis-cluster-kill.sh
run redis-cluster-kill.sh acknowledged

table
exit "$failed"
