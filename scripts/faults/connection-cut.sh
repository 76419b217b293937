#!/usr/bin/env bash
# Connections cut mid-request: a fifth of the consumers' polls are cut, half of them long polls
# whose client closes its socket while it waits, half polls whose client resets the connection
# before the answer can be written. Whatever such a poll leased comes back when its lease
# lapses: never lost, never stuck (the final drain finds every queue empty).
#
#   scripts/faults/connection-cut.sh [STRATEGY]     # default synchronized
set -euo pipefail
source "$(dirname "$0")/../lib/fault-run.sh"
fault_begin connection-cut "${1:-synchronized}"
fault_service A
fault_load main --ports "$A_PORT" --producers 2 --consumers 3 --cut 0.2
fault_end
