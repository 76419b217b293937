#!/usr/bin/env bash
# Redis stalled (SIGSTOP) for 4 s, beyond the service's Redis time-out (1 s) and the client's
# (3 s), then resumed: operations in the stall are indeterminate, what Redis ran of them once
# resumed shows up later (recovered), nothing is lost and nothing is delivered twice within a
# lease.
#
#   scripts/faults/redis-pause.sh
set -euo pipefail
source "$(dirname "$0")/../lib/fault-run.sh"
fault_begin redis-pause redis
fault_redis "$(free_port)" "$RUN/redis" off
fault_service A --spring.data.redis.timeout=1s
fault_service B --spring.data.redis.timeout=1s
fault_load main --ports "$A_PORT,$B_PORT" --producers 2 --consumers 2
fault_busy main 200
fault_step "SIGSTOP of Redis (pid $FAULT_REDIS_PID) for 4 s"
kill -STOP "$FAULT_REDIS_PID"
sleep 4
kill -CONT "$FAULT_REDIS_PID"
fault_step "SIGCONT"
fault_end
