#!/usr/bin/env bash
# kill -9 of a Redis Cluster master mid-load, as production runs a cluster: three masters with a
# replica each (appendfsync always on every node), two service instances on it. The master killed
# is the one serving the first queue's slot (and, on this layout, the id counter every push
# increments). The cluster fails over: after cluster-node-timeout (2 s here; 15 s by default) the
# other masters mark it failed and its replica is promoted; the old master is then restarted on
# its append-only file and rejoins as a replica of the promoted one (its data replaced by the new
# master's). Operations on that slot in the outage are indeterminate or refused; nothing
# acknowledged may be lost, nothing delivered beyond the guarantee.
#
#   scripts/faults/redis-cluster-kill.sh
set -euo pipefail
source "$(dirname "$0")/../lib/fault-run.sh"
fault_begin redis-cluster-kill redis
fault_redis_cluster 3 1 always
fault_service A --spring.data.redis.timeout=1s
fault_service B --spring.data.redis.timeout=1s
fault_load main --ports "$A_PORT,$B_PORT" --producers 2 --consumers 2
fault_busy main 200
VICTIM="$(fault_cluster_master '{history-0}')"
for WITNESS in "${FAULT_CLUSTER_PORTS[@]}"; do
	[[ "$WITNESS" != "$VICTIM" ]] && break
done
fault_step "kill -9 of the master on $VICTIM (pid ${FAULT_CLUSTER_PID[$VICTIM]}), serving history-0's slot"
kill -9 "${FAULT_CLUSTER_PID[$VICTIM]}"
killed="$(date +%s%N)"
until PROMOTED="$(fault_cluster_master '{history-0}' "$WITNESS")" && [[ -n "$PROMOTED" && "$PROMOTED" != "$VICTIM" ]]; do
	(($(date +%s%N) - killed < 60000000000)) || { echo "no failover within 60 s" >&2; exit 1; }
	sleep 0.05
done
fault_step "failover: the replica on $PROMOTED serves the slot, $((($(date +%s%N) - killed) / 1000000)) ms after the kill"
fault_cluster_node "$VICTIM"
until [[ "$(redis-cli -p "$VICTIM" info replication 2>/dev/null)" == *role:slave* ]]; do
	sleep 0.05
done
fault_cluster_await "$VICTIM"
fault_step "the old master, restarted on its append-only file, is a replica of $PROMOTED and in sync," \
	"$((($(date +%s%N) - killed) / 1000000)) ms after the kill"
fault_end
