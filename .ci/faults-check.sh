#!/usr/bin/env bash
# CI's fault runs, 60 s of load each, each history checked by the history checker: connections
# cut mid-poll under lane-locked (in process), and kill -9 of Redis with appendfsync always and
# its restart under two redis instances. Fails (set -e: each script exits with the checker's
# status) on any message lost, unexpected or delivered beyond the strategy's guarantee, and on
# a load that failed. The full set: scripts/faults/run-all.sh.
# Environment: FAULT_SECONDS (load seconds per run, 60).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
export FAULT_SECONDS="${FAULT_SECONDS:-60}"
export FAULT_OUT="${FAULT_OUT:-$ROOT/target/faults-ci}"
rm -rf "$FAULT_OUT"
jars=(target/queue-service-*.jar)
[[ -f "${jars[0]}" ]] || ./mvnw -B -q -DskipTests package
scripts/faults/connection-cut.sh lane-locked
scripts/faults/redis-kill.sh always
# issue 49: kill -9 of an instance mid move task and mid FIFO sends (about a minute)
scripts/faults/redis-instance-kill-move.sh
