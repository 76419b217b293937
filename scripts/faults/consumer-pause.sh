#!/usr/bin/env bash
# A consumer paused past its lease: a second load process that only consumes is stopped
# (SIGSTOP) for twice the lease and a second, then continued. Its leases lapse meanwhile, its
# messages are delivered to the other consumers, and its late completions are refused (412,
# ReceiptHandleIsInvalid) when its message was delivered again; nothing is lost.
#
#   scripts/faults/consumer-pause.sh [STRATEGY]     # default synchronized
set -euo pipefail
source "$(dirname "$0")/../lib/fault-run.sh"
fault_begin consumer-pause "${1:-synchronized}"
fault_service A
fault_load main --ports "$A_PORT" --producers 2 --consumers 1
fault_busy main
fault_load paused --ports "$A_PORT" --producers 0 --consumers 2 --create false --drain false --abandon 0 --hold-ms 400
fault_busy paused
fault_step "SIGSTOP of the consumer process for $((2 * FAULT_LEASE + 1))s"
kill -STOP "${LOAD_PID[paused]}"
sleep $((2 * FAULT_LEASE + 1))
kill -CONT "${LOAD_PID[paused]}"
fault_step "SIGCONT"
fault_end
