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
# Replication is asynchronous, and on one machine a replica trails its master by microseconds, so
# a plain kill loses nothing. The lagging variants make the replica trail as a loaded network
# would: 1.5 s before the kill it is stopped (SIGSTOP) and its link dropped (CLIENT KILL TYPE
# replica), so the master answers writes its replica never gets; resumed right after the kill, it
# is promoted without them. "lagging" measures what the service then loses (it answers a push
# once the master has it); "acknowledged" runs the service with qs.redis.replicas-to-acknowledge=1
# (a push answered once the replicas of its queue's master and of the id counter's master have
# it), and checks that nothing answered is lost; "acknowledged-pushes" adds
# qs.redis.acknowledged-writes=pushes (leases and completions answered once the master has them)
# and checks that nothing answered is lost, judging redeliveries by at-least-once, the guarantee
# that setting keeps across a failover.
#
#   scripts/faults/redis-cluster-kill.sh [lagging|acknowledged|acknowledged-pushes]
set -euo pipefail
source "$(dirname "$0")/../lib/fault-run.sh"
VARIANT="${1:-}"
case "$VARIANT" in
	'') ACKNOWLEDGE=() ;;
	lagging) ACKNOWLEDGE=() ;;
	acknowledged) ACKNOWLEDGE=(--qs.redis.replicas-to-acknowledge=1) ;;
	acknowledged-pushes) ACKNOWLEDGE=(--qs.redis.replicas-to-acknowledge=1 --qs.redis.acknowledged-writes=pushes) ;;
	*) echo "usage: $0 [lagging|acknowledged|acknowledged-pushes]" >&2; exit 2 ;;
esac
fault_begin "redis-cluster-kill${VARIANT:+-$VARIANT}" redis
fault_redis_cluster 3 1 always
fault_service A --spring.data.redis.timeout=1s ${ACKNOWLEDGE[@]+"${ACKNOWLEDGE[@]}"}
fault_service B --spring.data.redis.timeout=1s ${ACKNOWLEDGE[@]+"${ACKNOWLEDGE[@]}"}
fault_load main --ports "$A_PORT,$B_PORT" --producers 2 --consumers 2
fault_busy main 200
VICTIM="$(fault_cluster_master '{history-0}')"
for WITNESS in "${FAULT_CLUSTER_PORTS[@]}"; do
	[[ "$WITNESS" != "$VICTIM" ]] && break
done
fault_step "the id counter faults:ids is on the master on $(fault_cluster_master faults:ids)"
if [[ -n "$VARIANT" ]]; then
	LAGGING="$(fault_cluster_replica "$VICTIM")"
	fault_step "the replica on $LAGGING stopped and its link dropped: the master on $VICTIM goes on alone"
	kill -STOP "${FAULT_CLUSTER_PID[$LAGGING]}"
	redis-cli -p "$VICTIM" client kill type replica >/dev/null
	sleep 1.5
fi
fault_step "kill -9 of the master on $VICTIM (pid ${FAULT_CLUSTER_PID[$VICTIM]}), serving history-0's slot"
kill -9 "${FAULT_CLUSTER_PID[$VICTIM]}"
[[ -n "$VARIANT" ]] && kill -CONT "${FAULT_CLUSTER_PID[$LAGGING]}"
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
case "$VARIANT" in
	lagging) fault_end --measure-loss ;;
	acknowledged-pushes) fault_end --delivery at-least-once ;;
	*) fault_end ;;
esac
