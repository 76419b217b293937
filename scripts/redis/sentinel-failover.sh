#!/usr/bin/env bash
# What a Redis Sentinel failover costs the redis strategy: a master, its replica and one Sentinel
# (quorum 1); a service connected through the Sentinel (spring.data.redis.sentinel.*) takes pushes
# from the probe (scripts/redis/durability_probe.py, 4 writers); FAILOVER_AT seconds in, the
# operator's `SENTINEL FAILOVER`. The old master stays up: until the Sentinel demotes it (and drops
# its clients, which then ask the Sentinel again) it still takes writes, which its demotion throws
# away. The setups (SETUPS, each in turn, every round):
#   none          Redis's defaults and the service's;
#   min-replicas  min-replicas-to-write 1 (and min-replicas-max-lag 1): the master refuses writes
#                 once its replica stops following it, which the service answers 503;
#   acknowledged  the service's qs.redis.replicas-to-acknowledge=1: a push is answered 201 only once
#                 the replica has it (Redis's WAIT), else 503.
# The probe retries nothing. Printed per round: pushes acknowledged (201), held by the new master
# afterwards, lost (acknowledged and gone, by body), ids acknowledged twice (a lost write's id given
# again by the new master), the longest time without an acknowledgement (s), refused (other answers,
# by status).
#
#   flock /tmp/qs-bench.lock scripts/redis/sentinel-failover.sh
#   SETUPS=acknowledged ROUNDS=3 scripts/redis/sentinel-failover.sh
#
# Environment: SETUPS ("none min-replicas acknowledged"), ROUNDS (1), LOAD_SECONDS (15),
# FAILOVER_AT (3), SERVICE_JAR, SERVICE_JAVA. Needs redis-server and redis-cli
# (apt-get install redis-server) and a built jar.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=../lib/service.sh
source "$ROOT/scripts/lib/service.sh"
SETUPS="${SETUPS:-none min-replicas acknowledged}"
ROUNDS="${ROUNDS:-1}"
LOAD_SECONDS="${LOAD_SECONDS:-15}"
FAILOVER_AT="${FAILOVER_AT:-3}"
OUT="${OUT:-$ROOT/target/redis-sentinel-failover/$(date -u +%Y%m%dT%H%M%SZ)}"
MASTER=qs-master
mkdir -p "$OUT"
export SERVICE_START_SECONDS="${SERVICE_START_SECONDS:-240}"

PIDS=()
cleanup() {
	stop_service
	for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

start_redis() { # dir port [options...]: a redis-server (or Sentinel) in the background
	local dir="$1" port="$2"
	shift 2
	redis-server "$@" --bind 127.0.0.1 --port "$port" --dir "$dir" --save "" --appendonly no \
		--daemonize no --logfile "$dir/redis-$port.log" &
	PIDS+=($!)
	for _ in $(seq 100); do
		[[ "$(redis-cli -p "$port" ping 2>/dev/null)" == PONG ]] && return 0
		sleep 0.1
	done
	echo "redis-server on $port did not start: $(tail -5 "$dir/redis-$port.log")" >&2
	return 1
}

await() { # seconds command...: until the command succeeds
	local tries=$(($1 * 10))
	shift
	for _ in $(seq "$tries"); do "$@" && return 0; sleep 0.1; done
	echo "timed out waiting for: $*" >&2
	return 1
}
linked() { redis-cli -p "$1" info replication | grep -q '^master_link_status:up'; }
known() { redis-cli -p "$1" sentinel replicas "$MASTER" | grep -qx "$2"; }
master_is() { [[ "$(redis-cli -p "$1" sentinel get-master-addr-by-name "$MASTER" | tail -1)" == "$2" ]]; }

printf '%-12s %5s %8s %8s %8s %8s %7s  %s\n' setup round acked held lost "ids x2" "gap s" refused | tee "$OUT/summary.txt"
for round in $(seq "$ROUNDS"); do
	for setup in $SETUPS; do
		case "$setup" in
		none) min=0 ack=0 ;;
		min-replicas) min=1 ack=0 ;;
		acknowledged) min=0 ack=1 ;;
		*) echo "unknown setup $setup: none, min-replicas or acknowledged" >&2; exit 2 ;;
		esac
		dir="$(mktemp -d)"
		read -r master replica sentinel <<<"$(free_port) $(free_port) $(free_port)"
		guard=(--min-replicas-to-write "$min" --min-replicas-max-lag 1)
		start_redis "$dir" "$master" "${guard[@]}"
		start_redis "$dir" "$replica" "${guard[@]}" --replicaof 127.0.0.1 "$master"
		: >"$dir/sentinel.conf"
		start_redis "$dir" "$sentinel" "$dir/sentinel.conf" --sentinel \
			--sentinel monitor "$MASTER" 127.0.0.1 "$master" 1 \
			--sentinel down-after-milliseconds "$MASTER" 1000 --sentinel failover-timeout "$MASTER" 10000
		await 30 linked "$replica"
		await 30 known "$sentinel" "$replica"
		SERVICE_LOG="$OUT/service-$setup-$round.log" start_service redis -Xmx256m -- \
			--spring.data.redis.sentinel.master="$MASTER" --spring.data.redis.sentinel.nodes=127.0.0.1:"$sentinel" \
			--qs.redis.namespace=failover: --qs.redis.replicas-to-acknowledge="$ack" >/dev/null
		python3 "$ROOT/scripts/redis/durability_probe.py" --ports "$PORT" --queue failover \
			--seconds "$LOAD_SECONDS" >"$OUT/acked-$setup-$round.json" &
		probe=$!
		sleep "$FAILOVER_AT"
		redis-cli -p "$sentinel" sentinel failover "$MASTER" >/dev/null
		wait "$probe"
		await 30 master_is "$sentinel" "$replica"
		await 30 linked "$master"
		redis-cli -p "$replica" --raw hgetall 'failover:{failover}:bodies' >"$OUT/held-$setup-$round.txt"
		python3 - "$OUT/acked-$setup-$round.json" "$OUT/held-$setup-$round.txt" "$setup" "$round" <<'PY' | tee -a "$OUT/summary.txt"
import collections, json, re, sys
probe = json.load(open(sys.argv[1]))
acked = probe["acked"]
held = set(re.findall(r"probe-[0-9]+-[0-9]+-[0-9]+", open(sys.argv[2], encoding="latin-1").read()))
lost = [body for _, _, body in acked if body not in held]
reused = sum(n - 1 for n in collections.Counter(i for i, _, _ in acked).values())
refused = ", ".join(f"{n} x {status}" for status, n in sorted(probe["refused"].items())) or "0"
times = sorted(at for _, at, _ in acked)
gap = max((b - a for a, b in zip(times, times[1:])), default=0)
print(f"{sys.argv[3]:<12} {sys.argv[4]:>5} {len(acked):>8} {len(held):>8} {len(lost):>8} {reused:>8} {gap:>7.1f}  {refused}")
PY
		stop_service
		for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
		for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
		PIDS=()
		rm -rf "$dir"
	done
done
echo "details in $OUT"
