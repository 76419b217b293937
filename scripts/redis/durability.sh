#!/usr/bin/env bash
# What a crash loses with the redis strategy: two service instances on one Redis with an append-only
# file take pushes from a probe (scripts/redis/durability_probe.py, 4 writers per instance), then
# every service instance and Redis are killed with SIGKILL at once, mid-load. Redis is restarted on
# the same directory (it replays its AOF), and the acknowledged pushes (201 answers) are compared
# with the messages Redis holds: lost = acknowledged and gone. Also printed: how many acknowledged
# pushes fell in the last second before the kill (the most `appendfsync everysec` may lose when the
# machine itself goes down). A SIGKILL of Redis loses none of what it wrote to its AOF, fsynced or
# not: the kernel keeps the written pages; `everysec` risks its last second only to a crash of the
# machine or the OS, which this script cannot cause. `off` (no AOF) shows what the AOF saves.
#
#   flock /tmp/qs-bench.lock scripts/redis/durability.sh              # off, everysec, always
#   FSYNC="always" ROUNDS=3 scripts/redis/durability.sh
#
# Environment: FSYNC ("off everysec always"), ROUNDS (2), LOAD_SECONDS before the kill (5), SERVICE_JAR,
# SERVICE_JAVA. Needs redis-server and redis-cli (apt-get install redis-server) and a built jar.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=../lib/service.sh
source "$ROOT/scripts/lib/service.sh"
FSYNC="${FSYNC:-off everysec always}"
ROUNDS="${ROUNDS:-2}"
LOAD_SECONDS="${LOAD_SECONDS:-5}"
OUT="${OUT:-$ROOT/target/redis-durability/$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$OUT"
export SERVICE_START_SECONDS="${SERVICE_START_SECONDS:-240}"

REDIS_PID=""
cleanup() {
	stop_service_as A
	stop_service_as B
	[[ -n "$REDIS_PID" ]] && kill -9 "$REDIS_PID" 2>/dev/null || true
}
trap cleanup EXIT

start_redis() { # dir port fsync ("off": no append-only file)
	local persistence=(--appendonly yes --appendfsync "$3")
	[[ "$3" == off ]] && persistence=(--appendonly no)
	redis-server --bind 127.0.0.1 --port "$2" --dir "$1" --save "" "${persistence[@]}" \
		--daemonize no --logfile "$1/redis.log" &
	REDIS_PID=$!
	for _ in $(seq 100); do
		[[ "$(redis-cli -p "$2" ping 2>/dev/null)" == PONG ]] \
			&& redis-cli -p "$2" info persistence | grep -q '^loading:0' && return 0
		sleep 0.1
	done
	echo "redis did not start: $(tail -5 "$1/redis.log")" >&2
	return 1
}

printf '%-9s %5s %8s %8s %10s %14s\n' fsync round acked held lost "acked<1s" | tee "$OUT/summary.txt"
for round in $(seq "$ROUNDS"); do
	for fsync in $FSYNC; do
		dir="$(mktemp -d)"
		port="$(free_port)"
		start_redis "$dir" "$port" "$fsync"
		redis_args=(-- --spring.data.redis.port="$port" --qs.redis.namespace=durable:)
		SERVICE_LOG="$OUT/A-$fsync-$round.log" start_service_as A redis -Xmx256m "${redis_args[@]}" >/dev/null
		SERVICE_LOG="$OUT/B-$fsync-$round.log" start_service_as B redis -Xmx256m "${redis_args[@]}" >/dev/null
		python3 "$ROOT/scripts/redis/durability_probe.py" --ports "$A_PORT,$B_PORT" --seconds 600 \
			>"$OUT/acked-$fsync-$round.json" &
		probe=$!
		sleep "$LOAD_SECONDS"
		killed_at="$(date +%s.%N)"
		kill -9 "$A_PID" "$B_PID" "$REDIS_PID"
		wait "$probe"
		{ wait "$A_PID" "$B_PID" "$REDIS_PID"; } 2>/dev/null || true
		A_PID="" B_PID="" REDIS_PID=""
		start_redis "$dir" "$port" "$fsync"
		redis-cli -p "$port" hkeys 'durable:{durable}:bodies' >"$OUT/held-$fsync-$round.txt"
		python3 - "$OUT/acked-$fsync-$round.json" "$OUT/held-$fsync-$round.txt" "$killed_at" "$fsync" "$round" <<'PY' | tee -a "$OUT/summary.txt"
import json, sys
acked = json.load(open(sys.argv[1]))["acked"]
held = {int(line) for line in open(sys.argv[2]) if line.strip()}
killed = float(sys.argv[3])
lost = [i for i, *_ in acked if i not in held]
recent = sum(1 for _, at, _ in acked if at > killed - 1)
print(f"{sys.argv[4]:<9} {sys.argv[5]:>5} {len(acked):>8} {len(held):>8} {len(lost):>10} {recent:>14}")
PY
		kill "$REDIS_PID" 2>/dev/null; wait "$REDIS_PID" 2>/dev/null || true
		REDIS_PID=""
		rm -rf "$dir"
	done
done
echo "details in $OUT"
