#!/usr/bin/env bash
# A service instance stopped gracefully mid-load: two redis instances on one Redis share the
# load, and one gets SIGTERM. Its waiting long polls are answered (204) before it stops, its
# clients move to the other instance once their connections are refused, and nothing is lost:
# the messages are in Redis. (An in-process strategy keeps its messages in the instance, so its
# SIGTERM loses what it held by design: this fault is for the redis strategy.)
#
#   scripts/faults/service-sigterm.sh
set -euo pipefail
source "$(dirname "$0")/../lib/fault-run.sh"
fault_begin service-sigterm redis
fault_service A
fault_service B
fault_load main --ports "$A_PORT,$B_PORT" --producers 2 --consumers 4
fault_busy main 200
fault_step "SIGTERM of instance A (pid $A_PID)"
stop_service_as A
fault_step "instance A stopped"
fault_end
