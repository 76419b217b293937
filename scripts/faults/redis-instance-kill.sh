#!/usr/bin/env bash
# kill -9 of one of three redis instances on one Redis, mid-load: the leases it handed out lapse
# and its messages come back through the other two; its clients move to them once their
# connections are refused; its requests in flight are indeterminate. Nothing lost, nothing
# delivered twice within a lease. "fair" makes the queues fair queues (each REST push names one of
# its producer's groups, HistoryLoad --fair): noisy groups' messages are held and released by
# receives, each release and its end of hold one script, so the kill strands none.
#
#   scripts/faults/redis-instance-kill.sh [fair]
set -euo pipefail
source "$(dirname "$0")/../lib/fault-run.sh"
VARIANT="${1:-}"
case "$VARIANT" in
	'') FAIR=() ;;
	fair) FAIR=(--fair true --sqs 0) ;;
	*) echo "usage: $0 [fair]" >&2; exit 2 ;;
esac
fault_begin "redis-instance-kill${VARIANT:+-$VARIANT}" redis
fault_service A
fault_service B
fault_service C
fault_load main --ports "$A_PORT,$B_PORT,$C_PORT" --producers 3 --consumers 3 ${FAIR[@]+"${FAIR[@]}"}
fault_busy main 200
fault_step "kill -9 of instance A (pid $A_PID)"
kill -9 "$A_PID"
wait "$A_PID" 2>/dev/null || true
A_PID=""
fault_end
