#!/usr/bin/env bash
# Overload: each queue may hold 50 messages (qs.limits.max-messages-per-queue), four producers
# outrun one consumer, and pushes are refused (429, SQS OverLimit) and retried by the client with
# the same values. A refused push that was pushed anyway would show as one value under two ids:
# none may.
#
#   scripts/faults/overload.sh [STRATEGY]           # default synchronized
set -euo pipefail
source "$(dirname "$0")/../lib/fault-run.sh"
fault_begin overload "${1:-synchronized}"
fault_service A --qs.limits.max-messages-per-queue=50
fault_load main --ports "$A_PORT" --producers 4 --consumers 1
fault_end
refused="$(grep -c '"result":"refused"' "$RUN/main.jsonl" || true)"
fault_step "pushes refused and retried: $refused"
((refused > 0)) || { echo "overload: no push was refused: the fault did not happen" >&2; exit 1; }
