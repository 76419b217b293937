#!/usr/bin/env bash
# kill -9 of Redis mid-load, restarted on its append-only file a second later, under two service
# instances (whose Redis calls time out after 1 s). With appendfsync always nothing acknowledged
# may be lost; with everysec the loss is measured, not checked (a kill -9 of Redis alone loses
# nothing it wrote, fsynced or not: the kernel keeps its pages; only the machine's crash loses
# up to a second, which a script cannot cause). Operations in the outage are indeterminate or
# refused; pushes that Redis ran before it died and whose answer never came are recovered.
#
#   scripts/faults/redis-kill.sh [always|everysec]   # default always
set -euo pipefail
source "$(dirname "$0")/../lib/fault-run.sh"
FSYNC="${1:-always}"
fault_begin "redis-kill-$FSYNC" redis
REDIS_PORT="$(free_port)"
fault_redis "$REDIS_PORT" "$RUN/redis" "$FSYNC"
fault_service A --spring.data.redis.timeout=1s
fault_service B --spring.data.redis.timeout=1s
fault_load main --ports "$A_PORT,$B_PORT" --producers 2 --consumers 2
fault_busy main 200
fault_step "kill -9 of Redis (pid $FAULT_REDIS_PID)"
kill -9 "$FAULT_REDIS_PID"
sleep 1
fault_redis "$REDIS_PORT" "$RUN/redis" "$FSYNC"
fault_step "Redis restarted on its append-only file"
if [[ "$FSYNC" == always ]]; then
	fault_end
else
	fault_end --measure-loss
fi
