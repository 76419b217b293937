#!/usr/bin/env bash
# The service on Redis (its redis strategy) beside Redis itself under one load generator,
# RequestPathLoad: cycles/s (messages pushed, delivered and completed), server CPU per cycle split
# into the JVM(s)' and Redis's, and messages lost, of each setup at CLIENTS producers + consumers,
# alternated, in the same run, each setup's rate over raw Redis's, and issue 49's three bars round by
# round with a verdict over the rounds: the geometric mean of their ratios and its 95% t interval, met
# or not only where the whole interval is on one side (docs/redis.md, "Issue 49's bars").
#
# Installs nothing: it expects Debian's redis-server and redis-cli on the PATH (or REDIS_SERVER,
# REDIS_CLI):
#   apt-get update && apt-get install -y redis-server
#
#   flock /tmp/qs-bench.lock scripts/bench/redis.sh
#   ROUNDS=3 CLIENTS="4+4 16+16" CLUSTER=1 scripts/bench/redis.sh -- --spring.threads.virtual.enabled=false
#
# Arguments are JVM options for the service, then after -- its application arguments (as
# start_service takes them; the script adds the profile redis and where Redis is). The service is
# target/queue-service-*.jar (or SERVICE_JAR), built first (./mvnw -DskipTests package) when there
# is none or it has no redis profile, started with SERVICE_JAVA (default java; on JDK 24+ the
# service serves on virtual threads unless --spring.threads.virtual.enabled=false says otherwise)
# through scripts/lib/service.sh. Redis runs on free ports of 127.0.0.1 in a temporary directory,
# in memory (--save "" --appendonly no), started and stopped by the script. The setups:
#   redis       Redis itself under RequestPathLoad's redis mode: LPUSH, LMOVE to an in-flight list,
#               LREM from it (plain lists, no Lua), one connection per client; CPU is redis-server's
#   redis-lua   Redis under RequestPathLoad's redis-lua mode: the same load through the redis
#               strategy's own Lua scripts (EVALSHA as RedisQS calls them), by the same lean client:
#               what the strategy's semantics cost Redis, without the service; CPU is redis-server's
#   redis-streams   Redis under RequestPathLoad's redis-streams mode: XADD, XREADGROUP, XACK + XDEL
#               in one write, a stream and a consumer group per queue: the lease on Redis's own
#               commands, the design docs/redis.md proposes instead of the scripts; CPU is redis-server's
#   redis-streams-lua   that design with what the strategy's scripts check on every call, under
#               RequestPathLoad's redis-streams-lua mode: one EVALSHA each of scripts/bench/streams/'s
#               push.lua (XLEN for the cap, XADD), lease.lua (XAUTOCLAIM of a lapsed lease, ZRANGE of
#               a delayed set, else XREADGROUP; XCLAIM ... TIME for the lease's own end) and
#               complete.lua (XACK, XDEL); CPU is redis-server's
#   redis-lua-floor   Redis under RequestPathLoad's redis-lua mode with scripts/bench/lua-floor/'s
#               scripts: raw Redis's three commands (RPUSH, LMOVE, LPOP), each inside a script sent as
#               the strategy's are (EVALSHA, their keys and arguments): what a script call itself costs
#               Redis, the floor under the third bar for any design of scripts; CPU is redis-server's
#   service     one service on that Redis (--spring.data.redis.port) under the queue mode;
#               CPU is the JVM's + redis-server's
#   2-services  two services on that same Redis, producer i and consumer i on service i % 2;
#               CPU is both JVMs' + redis-server's
#   batch       the service of "service" under the queue mode's batches of 10 (--batch 10: a REST
#               batch push, a poll of up to 10 and a completions batch, each one script call)
#   waiting     the service of "service" with consumers that long-poll (--wait 1: ?wait=1, as Gatling's
#               waiting preset polls): each poll looks at once and waits only when nothing is ready;
#               only when named
#   fair        the service of "service" with each push naming one of 8 message groups (--groups 8:
#               ?group=, round robin), so that the queues are fair queues (docs/api.md): each push
#               pushed held and put in its group, released at once while its group is quiet; only
#               when named
#   replicated  one service on a Redis of its own that has a replica (--replicaof), pushes answered
#               once the master has them; CPU is the JVM's + both redis-servers'; only when named
#   acknowledged  the same, with qs.redis.replicas-to-acknowledge=1: each push answered once the
#               replica has it (Redis's WAIT, one round for the pushes that asked meanwhile): what
#               that durability costs beside "replicated"; only when named
#   acknowledged-pushes  the same with qs.redis.acknowledged-writes=pushes too: pushes wait for the
#               replica, leases and completions do not; only when named
#   in-process  the same service jar on its default in-process strategy (no Redis): the HTTP path
#               alone, the reference for the bound below; CPU is the JVM's
#   async-probe issue 48's Jetty probe (scripts/lib/jetty-probe.sh) in its redis mode: push, poll and
#               complete as a Jetty core handler that calls the strategy's scripts through Lettuce's
#               asynchronous API and answers from its callback (no thread waits for Redis), on that
#               Redis; not the service (no application layer, metrics or limits): what the service
#               could reach on that path; CPU is the probe's JVM's + redis-server's; only when named
#   inline-probe  the same probe in its redis-inline mode: the same scripts over one Redis connection
#               that the probe's own Jetty selector watches, so that one thread reads each request,
#               writes its command, reads the reply and writes the answer (no hand-off between
#               threads): the one-loop design docs/redis.md proposes for the first bar, measured
#               before it is built into the service; only when named
#   pass-probe  inline-probe with the commands of all the requests one pass of the selector read
#               written together at the pass's end (pipelined: redis-pass mode); only when named
#   group-probe inline-probe with the operations of all the requests one pass read, on any queues, sent
#               at the pass's end as one call of the probe's own script (group.lua: a group commit
#               across queues in which no thread waits; redis-group mode); only when named
#   netty-probe the probe's routes on Netty's HTTP server (scripts/bench/jetty-hot-path/NettyLoop.java)
#               with Lettuce given the server's own event loop, a connection on it: one thread reads
#               each request, writes its command, reads the reply and writes the answer, as in
#               inline-probe, but through Lettuce (netty-shared way); only when named
#   netty-apart-probe  the same with Lettuce on its own event loops and one shared connection, as the
#               service uses it: each request handed to Lettuce's loop and back (netty-apart way);
#               only when named
# and with BASELINE_JAR (an older build, to compare two builds in one run, alternated):
#   service-base, batch-base, waiting-base, fair-base   "service", "batch", "waiting" and "fair" on a service started
#               from BASELINE_JAR, on the same Redis
#   redis-lua-base   "redis-lua" with the Lua scripts inside BASELINE_JAR (built from this
#               script's commit or later: complete.lua's arguments lost the queue's name there, and
#               an older complete.lua answers every completion NOT_FOUND, counted as errors; an
#               older lease.lua reads its third argument, now the lease's end, as a length, which
#               costs it the same)
# and with CLUSTER=1:
#   cluster-3   one service on a Redis Cluster of 3 masters (no replicas), started by the script
#               (--spring.data.redis.cluster.nodes); CPU is the JVM's + the 3 redis-servers'
#   cluster-1   one service on a Redis Cluster of 1 master (a lone cluster node given every slot)
#   cluster-3-base   "cluster-3" on a service started from BASELINE_JAR; only when named
# All the servers run throughout (the second service idles in the one-service cells). Each setup is
# warmed up for WARMUP s at 4+4 first. Each round runs, for each client count, every setup (in the
# reverse order every other round), each for SETTLE s uncounted then DURATION s counted, after which
# the consumers drain; lost is pushed minus completed after the drain. Every Redis is flushed
# (FLUSHALL) between cells. The load: QUEUES queues (8; with 1 every client shares one queue, where the
# service's calls made at the same time share a script), 100-byte bodies, 5 ms pause after an empty poll.
# Every cell also gives the load generator's own CPU per cycle (client): on one machine the client,
# the service(s) and Redis share the cores, so the summary adds a bound: the most cycles/s the
# service on Redis could reach on these cores (nproc) if its Redis calls cost its JVM nothing, from
# the in-process cell's client and JVM CPU per cycle plus the service cell's Redis CPU per cycle,
# and splits each setup's JVM CPU, the part of it in the kernel, and context switches per cycle by
# thread (RequestPathLoad's serverThreads: carriers of virtual threads or Tomcat's workers, Jetty's
# selectors, Lettuce's event loop, the JIT's compilers...).
# Environment: CLIENTS ("4+4": producers+consumers, space-separated, e.g. "4+4 16+16"; N alone is
# N+N), QUEUES (8), ROUNDS (2), DURATION (10), SETTLE (2), WARMUP (30: less leaves JIT compilation in
# the windows of the setups run least, see the JIT line of the summary), HEAP (512m), CLUSTER (0), SERVICE_JAR,
# SERVICE_JAVA, REDIS_SERVER, REDIS_CLI, OUT, BASELINE_JAR, SETUPS (a space-separated subset of the
# setups, in that order, e.g. SETUPS="redis redis-lua service batch"). Each cell also keeps Redis's
# INFO commandstats (reset before the cell) in OUT/<cell>.commandstats: calls and µs per command and
# script.
#   BASELINE_JAR=/path/old.jar SETUPS="redis redis-lua service service-base batch batch-base" \
#     flock /tmp/qs-bench.lock scripts/bench/redis.sh
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=../lib/service.sh
source "$ROOT/scripts/lib/service.sh"
# shellcheck source=../lib/load-client.sh
source "$ROOT/scripts/lib/load-client.sh"
CLIENTS="${CLIENTS:-4+4}"
QUEUES="${QUEUES:-8}"
ROUNDS="${ROUNDS:-2}"
DURATION="${DURATION:-10}"
SETTLE="${SETTLE:-2}"
WARMUP="${WARMUP:-30}"
HEAP="${HEAP:-512m}"
CLUSTER="${CLUSTER:-0}"
# a loaded 2-core machine can take a minute to start the service
export SERVICE_START_SECONDS="${SERVICE_START_SECONDS:-240}"
REDIS_SERVER="${REDIS_SERVER:-redis-server}"
REDIS_CLI="${REDIS_CLI:-redis-cli}"
OUT="${OUT:-$ROOT/target/redis/$(date -u +%Y%m%dT%H%M%SZ)}"
for tool in "$REDIS_SERVER" "$REDIS_CLI"; do
	command -v "$tool" >/dev/null || {
		echo "no $tool: apt-get update && apt-get install -y redis-server (or set REDIS_SERVER, REDIS_CLI)" >&2
		exit 2
	}
done
for c in $CLIENTS; do
	[[ "$c" =~ ^[0-9]+(\+[0-9]+)?$ ]] || { echo "bad CLIENTS entry '$c': P+C or N" >&2; exit 2; }
done

JVM_ARGS=()
while [[ $# -gt 0 && "$1" != "--" ]]; do
	JVM_ARGS+=("$1")
	shift
done
[[ $# -gt 0 ]] && shift
APP_ARGS=("$@")

if [[ -z "${SERVICE_JAR:-}" ]]; then
	jars=("$ROOT"/target/queue-service-*.jar)
	if [[ ! -f "${jars[0]}" ]] || ! unzip -Z1 "${jars[0]}" BOOT-INF/classes/application-redis.properties >/dev/null 2>&1; then
		echo "building the jar (none in target/, or one without the redis strategy)"
		(cd "$ROOT" && ./mvnw -B -q -DskipTests package)
	fi
fi
load_client "$OUT"

REDIS_DIR="$(mktemp -d "${TMPDIR:-/tmp}/qs-redis.XXXXXX")"
REDIS_PIDS=()
REDIS_PORTS=()
cleanup() {
	local name pid
	for name in A B C D E F G R K P; do # every start_service_as / start_on_redis name below
		stop_service_as "$name"
	done
	for pid in ${ASYNC_PID:-} ${INLINE_PID:-} ${PASS_PID:-} ${GROUP_PID:-} ${NETTY_PID:-} ${NETTY_APART_PID:-}; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	for pid in "${REDIS_PIDS[@]}"; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$REDIS_DIR"
}
trap cleanup EXIT INT TERM

# start_redis PORT [redis-server options...]: a redis-server on 127.0.0.1:PORT, in memory, with its
# own directory under REDIS_DIR; waits until it answers PING. Sets REDIS_PID.
start_redis() {
	local port="$1"
	shift
	mkdir -p "$REDIS_DIR/$port"
	"$REDIS_SERVER" --port "$port" --bind 127.0.0.1 --save "" --appendonly no --dir "$REDIS_DIR/$port" \
		--logfile "$OUT/redis-$port.log" "$@" &
	REDIS_PID=$!
	REDIS_PIDS+=("$REDIS_PID")
	REDIS_PORTS+=("$port")
	for _ in $(seq 1 100); do
		[[ "$("$REDIS_CLI" -p "$port" ping 2>/dev/null)" == PONG ]] && return 0
		kill -0 "$REDIS_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "redis-server at $port did not start (log $OUT/redis-$port.log)" >&2
	return 1
}

# wait_cluster_ok PORT...: until every node says cluster_state:ok.
wait_cluster_ok() {
	local port
	for port in "$@"; do
		for _ in $(seq 1 100); do
			"$REDIS_CLI" -p "$port" cluster info 2>/dev/null | grep -q '^cluster_state:ok' && continue 2
			sleep 0.1
		done
		echo "the cluster node at $port is not ok: $("$REDIS_CLI" -p "$port" cluster info | head -1)" >&2
		return 1
	done
}

CLUSTER_OPTS=(--cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout 5000)
# start_cluster3: 3 masters, slots spread by redis-cli. Sets CLUSTER3_PORTS and CLUSTER3_PIDS.
start_cluster3() {
	read -r -a CLUSTER3_PORTS <<<"$(free_cluster_ports 3)"
	CLUSTER3_PIDS=()
	local port nodes=()
	for port in "${CLUSTER3_PORTS[@]}"; do
		start_redis "$port" "${CLUSTER_OPTS[@]}"
		CLUSTER3_PIDS+=("$REDIS_PID")
		nodes+=("127.0.0.1:$port")
	done
	"$REDIS_CLI" --cluster create "${nodes[@]}" --cluster-replicas 0 --cluster-yes >"$OUT/cluster-3-create.log" 2>&1 ||
		{ cat "$OUT/cluster-3-create.log" >&2; return 1; }
	wait_cluster_ok "${CLUSTER3_PORTS[@]}"
}

# start_cluster1: one cluster node that owns all 16384 slots (redis-cli --cluster create wants 3
# masters). Sets CLUSTER1_PORT and CLUSTER1_PID.
start_cluster1() {
	CLUSTER1_PORT="$(free_cluster_ports 1)"
	start_redis "$CLUSTER1_PORT" "${CLUSTER_OPTS[@]}"
	CLUSTER1_PID="$REDIS_PID"
	local answer
	answer="$("$REDIS_CLI" -p "$CLUSTER1_PORT" cluster addslotsrange 0 16383)"
	[[ "$answer" == OK ]] || { echo "cluster addslotsrange at $CLUSTER1_PORT answered: $answer" >&2; return 1; }
	wait_cluster_ok "$CLUSTER1_PORT"
}

flush_redis() {
	local port
	for port in "${REDIS_PORTS[@]}"; do
		# a replica is emptied by its master's FLUSHALL, and refuses its own
		[[ " ${REPLICA_PORTS[*]:-} " == *" $port "* ]] || "$REDIS_CLI" -p "$port" flushall >/dev/null
	done
}

# start_on_redis NAME redis-arguments...: a service named NAME with the redis profile.
start_on_redis() {
	local name="$1"
	shift
	SERVICE_LOG="$OUT/service-$name.log" start_service_as "$name" redis "-Xms$HEAP" "-Xmx$HEAP" "${JVM_ARGS[@]}" \
		-- "${APP_ARGS[@]}" "$@"
}

REDIS_PORT="$(free_port)"
start_redis "$REDIS_PORT"
STANDALONE_PID="$REDIS_PID"
if [[ -n "${SETUPS:-}" ]]; then
	read -r -a SETUPS <<<"$SETUPS"
else
	SETUPS=(redis redis-lua redis-lua-floor redis-streams redis-streams-lua in-process service batch 2-services)
	[[ -n "${BASELINE_JAR:-}" ]] && SETUPS+=(redis-lua-base service-base batch-base)
	[[ "$CLUSTER" == 1 ]] && SETUPS+=(cluster-3 cluster-1)
fi
if [[ "$CLUSTER" == 1 ]]; then
	start_cluster3
	start_cluster1
fi
start_on_redis A --spring.data.redis.host=127.0.0.1 --spring.data.redis.port="$REDIS_PORT"
wants() { [[ " ${SETUPS[*]} " == *" $1 "* ]]; }
if wants 2-services; then
	start_on_redis B --spring.data.redis.host=127.0.0.1 --spring.data.redis.port="$REDIS_PORT"
fi
if wants redis-lua-base; then
	mkdir -p "$REDIS_DIR/base-scripts"
	unzip -q -j -o "$BASELINE_JAR" 'BOOT-INF/classes/io/github/qsbench/redis/*.lua' -d "$REDIS_DIR/base-scripts"
fi
if wants service-base || wants batch-base || wants waiting-base || wants fair-base; then
	SERVICE_JAR="$BASELINE_JAR" start_on_redis F --spring.data.redis.host=127.0.0.1 --spring.data.redis.port="$REDIS_PORT"
fi
# start_probe NAME WAY [SELECTORS]: issue 48's Jetty probe (scripts/lib/jetty-probe.sh) in WAY on
# SELECTORS selectors (1); sets NAME_PORT and NAME_PID.
start_probe() {
	local name="$1" way="$2" selectors="${3:-1}" port
	if [[ -z "${PROBE+x}" ]]; then
		# shellcheck source=../lib/jetty-probe.sh
		source "$ROOT/scripts/lib/jetty-probe.sh"
		jetty_probe "$OUT/probe" "${SERVICE_JAR:-$(ls "$ROOT"/target/queue-service-*.jar | head -1)}" "${SERVICE_JAVA:-java}" \
			"-Xms$HEAP" "-Xmx$HEAP"
	fi
	port="$(free_port)"
	"${PROBE[@]}" "$port" "$selectors" "$way" >"$OUT/probe-$name.log" 2>&1 &
	printf -v "${name}_PID" '%s' "$!"
	printf -v "${name}_PORT" '%s' "$port"
	for _ in $(seq 1 100); do
		grep -q "up at" "$OUT/probe-$name.log" 2>/dev/null && break
		sleep 0.1
	done
}
if wants async-probe; then
	start_probe ASYNC "redis:$REDIS_PORT"
fi
if wants inline-probe; then
	start_probe INLINE "redis-inline:$REDIS_PORT"
fi
if wants pass-probe; then
	start_probe PASS "redis-pass:$REDIS_PORT"
fi
if wants group-probe; then
	start_probe GROUP "redis-group:$REDIS_PORT"
fi
if wants netty-probe; then
	start_probe NETTY "netty-shared:$REDIS_PORT"
fi
if wants netty-apart-probe; then
	start_probe NETTY_APART "netty-apart:$REDIS_PORT"
fi
if wants replicated || wants acknowledged || wants acknowledged-pushes; then
	REPLICATED_PORT="$(free_port)"
	start_redis "$REPLICATED_PORT"
	REPLICATED_PID="$REDIS_PID"
	REPLICA_PORTS=("$(free_port)")
	start_redis "${REPLICA_PORTS[0]}" --replicaof 127.0.0.1 "$REPLICATED_PORT"
	REPLICATED_PIDS="$REPLICATED_PID,$REDIS_PID"
	for _ in $(seq 1 300); do
		"$REDIS_CLI" -p "${REPLICA_PORTS[0]}" info replication | grep -q '^master_link_status:up' && break
		sleep 0.1
	done
	wants replicated && start_on_redis R --spring.data.redis.host=127.0.0.1 --spring.data.redis.port="$REPLICATED_PORT"
	wants acknowledged && start_on_redis K --spring.data.redis.host=127.0.0.1 \
		--spring.data.redis.port="$REPLICATED_PORT" --qs.redis.replicas-to-acknowledge=1
	wants acknowledged-pushes && start_on_redis P --spring.data.redis.host=127.0.0.1 \
		--spring.data.redis.port="$REPLICATED_PORT" --qs.redis.replicas-to-acknowledge=1 \
		--qs.redis.acknowledged-writes=pushes
fi
if wants in-process; then
	SERVICE_LOG="$OUT/service-E.log" start_service_as E "" "-Xms$HEAP" "-Xmx$HEAP" "${JVM_ARGS[@]}" -- "${APP_ARGS[@]}"
fi
if [[ "$CLUSTER" == 1 ]]; then
	start_on_redis C --spring.data.redis.cluster.nodes="$(printf '127.0.0.1:%s,' "${CLUSTER3_PORTS[@]}" | sed 's/,$//')"
	start_on_redis D --spring.data.redis.cluster.nodes="127.0.0.1:$CLUSTER1_PORT"
	if wants cluster-3-base; then
		SERVICE_JAR="$BASELINE_JAR" start_on_redis G \
			--spring.data.redis.cluster.nodes="$(printf '127.0.0.1:%s,' "${CLUSTER3_PORTS[@]}" | sed 's/,$//')"
	fi
fi

# target SETUP: sets TARGET (RequestPathLoad's mode, ports and pids), JVMS and REDISES (pids,
# comma-separated), and STATS_PORT (the Redis whose INFO commandstats the cell keeps).
target() {
	STATS_PORT="$REDIS_PORT"
	case "$1" in
		redis) JVMS="" REDISES="$STANDALONE_PID" TARGET=(--mode redis --port "$REDIS_PORT") ;;
		redis-lua)
			JVMS="" REDISES="$STANDALONE_PID"
			TARGET=(--mode redis-lua --port "$REDIS_PORT" --scripts "$ROOT/src/main/resources/io/github/qsbench/redis")
			;;
		redis-lua-floor)
			JVMS="" REDISES="$STANDALONE_PID"
			TARGET=(--mode redis-lua --port "$REDIS_PORT" --scripts "$ROOT/scripts/bench/lua-floor")
			;;
		redis-streams) JVMS="" REDISES="$STANDALONE_PID" TARGET=(--mode redis-streams --port "$REDIS_PORT") ;;
		redis-streams-lua)
			JVMS="" REDISES="$STANDALONE_PID"
			TARGET=(--mode redis-streams-lua --port "$REDIS_PORT" --scripts "$ROOT/scripts/bench/streams")
			;;
		in-process) JVMS="$E_PID" REDISES="" TARGET=(--mode queue --port "$E_PORT") ;;
		async-probe) JVMS="$ASYNC_PID" REDISES="$STANDALONE_PID" TARGET=(--mode queue --port "$ASYNC_PORT") ;;
		inline-probe) JVMS="$INLINE_PID" REDISES="$STANDALONE_PID" TARGET=(--mode queue --port "$INLINE_PORT") ;;
		pass-probe) JVMS="$PASS_PID" REDISES="$STANDALONE_PID" TARGET=(--mode queue --port "$PASS_PORT") ;;
		group-probe) JVMS="$GROUP_PID" REDISES="$STANDALONE_PID" TARGET=(--mode queue --port "$GROUP_PORT") ;;
		netty-probe) JVMS="$NETTY_PID" REDISES="$STANDALONE_PID" TARGET=(--mode queue --port "$NETTY_PORT") ;;
		netty-apart-probe)
			JVMS="$NETTY_APART_PID" REDISES="$STANDALONE_PID" TARGET=(--mode queue --port "$NETTY_APART_PORT")
			;;
		redis-lua-base)
			JVMS="" REDISES="$STANDALONE_PID"
			TARGET=(--mode redis-lua --port "$REDIS_PORT" --scripts "$REDIS_DIR/base-scripts")
			;;
		service) JVMS="$A_PID" REDISES="$STANDALONE_PID" TARGET=(--mode queue --port "$A_PORT") ;;
		batch) JVMS="$A_PID" REDISES="$STANDALONE_PID" TARGET=(--mode queue --batch 10 --port "$A_PORT") ;;
		fair) JVMS="$A_PID" REDISES="$STANDALONE_PID" TARGET=(--mode queue --groups 8 --port "$A_PORT") ;;
		fair-base) JVMS="$F_PID" REDISES="$STANDALONE_PID" TARGET=(--mode queue --groups 8 --port "$F_PORT") ;;
		service-base) JVMS="$F_PID" REDISES="$STANDALONE_PID" TARGET=(--mode queue --port "$F_PORT") ;;
		batch-base) JVMS="$F_PID" REDISES="$STANDALONE_PID" TARGET=(--mode queue --batch 10 --port "$F_PORT") ;;
		waiting) JVMS="$A_PID" REDISES="$STANDALONE_PID" TARGET=(--mode queue --wait 1 --port "$A_PORT") ;;
		waiting-base) JVMS="$F_PID" REDISES="$STANDALONE_PID" TARGET=(--mode queue --wait 1 --port "$F_PORT") ;;
		2-services) JVMS="$A_PID,$B_PID" REDISES="$STANDALONE_PID" TARGET=(--mode queue --port "$A_PORT,$B_PORT") ;;
		replicated | acknowledged | acknowledged-pushes)
			STATS_PORT="$REPLICATED_PORT" REDISES="$REPLICATED_PIDS"
			case "$1" in
				replicated) JVMS="$R_PID" TARGET=(--mode queue --port "$R_PORT") ;;
				acknowledged) JVMS="$K_PID" TARGET=(--mode queue --port "$K_PORT") ;;
				*) JVMS="$P_PID" TARGET=(--mode queue --port "$P_PORT") ;;
			esac
			;;
		cluster-3)
			JVMS="$C_PID" REDISES="$(
				IFS=,
				echo "${CLUSTER3_PIDS[*]}"
			)" TARGET=(--mode queue --port "$C_PORT")
			;;
		cluster-1) JVMS="$D_PID" REDISES="$CLUSTER1_PID" TARGET=(--mode queue --port "$D_PORT") ;;
		cluster-3-base)
			JVMS="$G_PID" REDISES="$(
				IFS=,
				echo "${CLUSTER3_PIDS[*]}"
			)" TARGET=(--mode queue --port "$G_PORT")
			;;
	esac
	local pids="$JVMS${JVMS:+${REDISES:+,}}$REDISES"
	TARGET+=(--pid "$pids" --queues "$QUEUES")
}

java_line="$("${SERVICE_JAVA:-java}" -version 2>&1 | head -1)"
virtual=""
for arg in "${APP_ARGS[@]}"; do
	[[ "$arg" == --spring.threads.virtual.enabled=* ]] && virtual="${arg#*=}"
done
if [[ -z "$virtual" ]]; then
	feature="$(sed -E 's/.*version "(1\.)?([0-9]+).*/\2/' <<<"$java_line")"
	virtual=false
	((feature >= 24)) && virtual=true
	virtual="$virtual (the service's default on JDK $feature)"
fi
echo "service on Redis vs Redis: service redis strategy ($java_line; virtual threads $virtual;" \
	"-Xmx$HEAP${JVM_ARGS[*]:+ ${JVM_ARGS[*]}}${APP_ARGS[*]:+ ${APP_ARGS[*]}}) at $A_PORT${B_PORT:+ and $B_PORT} on $("$REDIS_SERVER" --version | cut -d' ' -f1-3)" \
	"at $REDIS_PORT${CLUSTER3_PORTS:+, cluster-3 service at $C_PORT on ${CLUSTER3_PORTS[*]}, cluster-1 service at $D_PORT on $CLUSTER1_PORT}" \
	"| clients $CLIENTS on $QUEUES queues, rounds $ROUNDS, ${SETTLE}+${DURATION}s windows | output $OUT"
echo "start $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for setup in "${SETUPS[@]}"; do
	target "$setup"
	"${CLIENT[@]}" "${TARGET[@]}" --seconds "$WARMUP" >"$OUT/warmup-$setup.json" 2>"$OUT/warmup-$setup.err" || true
	flush_redis
done

printf '%-6s %-11s %7s %10s %11s %8s %8s %8s %6s %7s %7s\n' round setup clients cycles/s "cpu us/cyc" jvm redis client lost load errors
: >"$OUT/results.jsonl"
for round in $(seq 1 "$ROUNDS"); do
	order=("${SETUPS[@]}")
	if ((round % 2 == 0)); then
		order=()
		for ((i = ${#SETUPS[@]} - 1; i >= 0; i--)); do order+=("${SETUPS[i]}"); done
	fi
	for c in $CLIENTS; do
		producers="${c%+*}"
		consumers="${c#*+}"
		for setup in "${order[@]}"; do
			target "$setup"
			for pid in ${JVMS//,/ }; do
				jcmd "$pid" GC.run >/dev/null || true
			done
			cell="$setup-$producers+$consumers-$round"
			load="$(cut -d' ' -f1 /proc/loadavg)"
			"$REDIS_CLI" -p "$STATS_PORT" config resetstat >/dev/null
			"${CLIENT[@]}" "${TARGET[@]}" --producers "$producers" --consumers "$consumers" --warmup "$SETTLE" \
				--seconds "$DURATION" >"$OUT/$cell.json" 2>"$OUT/$cell.err" || true
			"$REDIS_CLI" -p "$STATS_PORT" info commandstats >"$OUT/$cell.commandstats" || true
			flush_redis
			python3 - "$OUT" "$cell" "$setup" "$producers+$consumers" "$round" "$load" "$JVMS" "$REDISES" <<-'EOF'
				import json, os, sys
				out, cell, setup, clients, rnd, load, jvms, redises = sys.argv[1:]
				r = json.load(open(os.path.join(out, f"{cell}.json")))
				by_pid = r.get("serverCpuMsByPid") or {jvms or redises: r["serverCpuMs"]}
				part = lambda pids: sum(by_pid[p] for p in pids.split(",") if p) * 1000 / max(r["cycles"], 1)
				row = dict(setup=setup, clients=clients, round=int(rnd), load=float(load), cycles=r["cyclesPerSecond"],
				           us=r["cpuUsPerCycle"], jvm=part(jvms), redis=part(redises), client=r["clientCpuUsPerCycle"],
				           lost=r["lost"], errors=r["errors"], threads={})
				if setup.startswith("redis"):  # Redis is the one server: its CPU in the kernel, apart
				    row["redis_kernel"] = r["serverSystemMs"] * 1000 / max(r["cycles"], 1)
				for pid in filter(None, jvms.split(",")):
				    for name, (ms, switches, system_ms) in r.get("serverThreads", {}).get(pid, {}).items():
				        sums = row["threads"].setdefault(name, [0, 0, 0])
				        sums[0] += ms * 1000 / max(r["cycles"], 1)
				        sums[1] += switches / max(r["cycles"], 1)
				        sums[2] += system_ms * 1000 / max(r["cycles"], 1)
				open(os.path.join(out, "results.jsonl"), "a").write(json.dumps(row) + "\n")
				print(f"{rnd:<6} {setup:<11} {clients:>7} {row['cycles']:10,.0f} {row['us']:11.1f} {row['jvm']:8.1f} "
				      f"{row['redis']:8.1f} {row['client']:8.1f} {row['lost']:6} {load:>7} {row['errors']:7}")
			EOF
		done
	done
done
echo "end $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$OUT/results.jsonl" "$(nproc)" <<-'EOF'
	import collections, json, math, statistics, sys
	rows = [json.loads(line) for line in open(sys.argv[1])]
	by = collections.defaultdict(list)
	for r in rows:
	    by[(r["setup"], r["clients"])].append(r)
	mean = lambda rs, k: sum(r[k] for r in rs) / len(rs)

	def rounds(num, den, key):
	    """The ratio of num's key to den's in each round both ran, the round as the unit."""
	    d = {r["round"]: r[key] for r in den}
	    return "by round " + ", ".join(f"{r[key] / d[r['round']]:.2f}" for r in sorted(num, key=lambda r: r["round"])
	                                   if d.get(r["round"]))
	# Student's t, 97.5th percentile, by degrees of freedom (1 to 30; 1.96 beyond)
	T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
	        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]

	def paired(num, den, key):
	    """The geometric mean of the rounds' ratios num/den, the round as the unit, and its 95% t interval
	    (None without two rounds measured both); and the number of those rounds."""
	    d = {r["round"]: r[key] for r in den}
	    logs = [math.log(r[key] / d[r["round"]]) for r in num if d.get(r["round"]) and r[key] > 0]
	    n = len(logs)
	    if n == 0:
	        return None, None, 0
	    centre = sum(logs) / n
	    if n < 2:
	        return math.exp(centre), None, 1
	    t = T975[n - 2] if n - 1 <= len(T975) else 1.96
	    half = t * statistics.stdev(logs) / math.sqrt(n)
	    return math.exp(centre), (math.exp(centre - half), math.exp(centre + half)), n

	def interval(num, den, key):
	    """paired() in words."""
	    mean_ratio, bounds, n = paired(num, den, key)
	    if n == 0:
	        return "no round measured both"
	    if bounds is None:
	        return f"{mean_ratio:.2f} in one round, no interval"
	    return f"{mean_ratio:.2f}, 95% interval {bounds[0]:.2f}-{bounds[1]:.2f} over {n} rounds"

	def bar(num, den, key, target, at_least):
	    """interval() with a bar's verdict: met or not met only where the whole interval is on one side of the
	    target (one round's ratio stands for its own interval)."""
	    mean_ratio, bounds, n = paired(num, den, key)
	    if n == 0:
	        return interval(num, den, key)
	    low, high = bounds or (mean_ratio, mean_ratio)
	    good_side = (low >= target) if at_least else (high <= target)
	    bad_side = (high < target) if at_least else (low > target)
	    verdict = "met" if good_side else "NOT met" if bad_side else "undecided: the interval holds the target, more rounds"
	    return f"{interval(num, den, key)} ({verdict}; {'at least' if at_least else 'at most'} {target:g})"

	def split(rs):
	    """Redis's CPU a cycle split into user space and the kernel."""
	    return (f"{mean(rs, 'redis') - mean(rs, 'redis_kernel'):.1f} µs a cycle in user space, "
	            f"{mean(rs, 'redis_kernel'):.1f} in the kernel")

	setups = list(dict.fromkeys(r["setup"] for r in rows))
	clients = list(dict.fromkeys(r["clients"] for r in rows))
	print("\n| setup | clients | cycles/s | CPU µs/cycle | JVM(s) µs/cycle | Redis µs/cycle | client µs/cycle | lost | errors | / raw Redis cycles/s |")
	print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for c in clients:
	    raw = by[("redis", c)]
	    for s in setups:
	        rs = by[(s, c)]
	        ratio = mean(rs, "cycles") / mean(raw, "cycles") if raw and mean(raw, "cycles") > 0 else float("nan")
	        if not rs:
	            continue
	        jvm = f"{mean(rs, 'jvm'):.0f}" if not s.startswith("redis") else "-"
	        redis = f"{mean(rs, 'redis'):.0f}" if s != "in-process" else "-"
	        print(f"| {s} | {c} | {mean(rs, 'cycles'):,.0f} | {mean(rs, 'us'):.0f} | {jvm} | {redis} | {mean(rs, 'client'):.0f} "
	              f"| {sum(r['lost'] for r in rs)} | {sum(r['errors'] for r in rs)} | **{ratio:.2f}** |")
	for c in clients:
	    raw, lua, service, batch = (by[(s, c)] for s in ("redis", "redis-lua", "service", "batch"))
	    if raw and lua and service:
	        print(f"\nissue 49 at {c}: the service on Redis / the scripts driven directly: "
	              f"{bar(service, lua, 'cycles', 0.8, True)}; {rounds(service, lua, 'cycles')}")
	    if raw and batch:
	        print(f"issue 49 at {c}: batches of 10 / raw Redis: {bar(batch, raw, 'cycles', 1, True)}; "
	              f"{rounds(batch, raw, 'cycles')}")
	    if raw and lua:
	        print(f"issue 49 at {c}: the scripts' Redis CPU per cycle / raw commands': {bar(lua, raw, 'redis', 1.5, False)}; "
	              f"{rounds(lua, raw, 'redis')}")
	        if all("redis_kernel" in r for r in lua + raw):
	            print(f"  Redis: the scripts {split(lua)}; raw commands {split(raw)}")
	    floor = by[("redis-lua-floor", c)]
	    if raw and floor:
	        print(f"floor at {c}: raw commands inside the scripts' calls, Redis CPU per cycle / raw commands': "
	              f"{interval(floor, raw, 'redis')}; {rounds(floor, raw, 'redis')}")
	        if all("redis_kernel" in r for r in floor):
	            print(f"  Redis: the floor {split(floor)}")
	        if lua:
	            print(f"  the strategy's scripts / that floor: {interval(lua, floor, 'redis')}; {rounds(lua, floor, 'redis')}")
	    for probe in ("async-probe", "inline-probe", "pass-probe", "group-probe", "netty-probe", "netty-apart-probe"):
	        if lua and by[(probe, c)]:
	            print(f"probed at {c}: {probe} / the scripts driven directly: {interval(by[(probe, c)], lua, 'cycles')} "
	                  f"(JVM {mean(by[(probe, c)], 'jvm'):.0f} µs/cycle): what that design reaches beside the first bar; "
	                  f"{rounds(by[(probe, c)], lua, 'cycles')}")
	    replicated = by[("replicated", c)]
	    for acknowledged in ("acknowledged", "acknowledged-pushes"):
	        if replicated and by[(acknowledged, c)]:
	            print(f"durability at {c}: {acknowledged} / replicated, cycles/s: "
	                  f"{interval(by[(acknowledged, c)], replicated, 'cycles')}; {rounds(by[(acknowledged, c)], replicated, 'cycles')}")
	    if by[("acknowledged", c)] and by[("acknowledged-pushes", c)]:
	        print(f"durability at {c}: acknowledged-pushes / acknowledged, cycles/s: "
	              f"{interval(by[('acknowledged-pushes', c)], by[('acknowledged', c)], 'cycles')}")
	    for streams, what in (("redis-streams", "Redis Streams"),
	                          ("redis-streams-lua", "Redis Streams with the scripts' checks (cap, lapsed leases, delays)")):
	        if raw and by[(streams, c)]:
	            rs = by[(streams, c)]
	            print(f"proposed at {c}: {what}: Redis CPU per cycle / raw commands': "
	                  f"{mean(rs, 'redis') / mean(raw, 'redis'):.2f} ({mean(rs, 'redis'):.0f} against {mean(raw, 'redis'):.0f} µs; "
	                  f"cycles/s {mean(rs, 'cycles') / mean(raw, 'cycles'):.2f} of raw; CPU {rounds(rs, raw, 'redis')})")
	    for new, old in (("redis-lua", "redis-lua-base"), ("service", "service-base"), ("batch", "batch-base"),
	                     ("waiting", "waiting-base"), ("fair", "fair-base"),
	                     ("cluster-3", "cluster-3-base")):
	        if by[(new, c)] and by[(old, c)]:
	            print(f"this build / BASELINE_JAR, {new} at {c}: cycles/s {interval(by[(new, c)], by[(old, c)], 'cycles')} "
	                  f"({rounds(by[(new, c)], by[(old, c)], 'cycles')}); "
	                  f"CPU µs/cycle {mean(by[(new, c)], 'us'):.0f} against {mean(by[(old, c)], 'us'):.0f}, "
	                  f"{interval(by[(new, c)], by[(old, c)], 'us')}")
	print()
	for c in clients:
	    raw, lua, service = by[("redis", c)], by[("redis-lua", c)], by[("service", c)]
	    if raw and lua and service:
	        print(f"the gap at {c}, split: the strategy's scripts called directly cost Redis {mean(lua, 'redis'):.0f} µs/cycle "
	              f"against raw Redis's {mean(raw, 'redis'):.0f} and reach {mean(lua, 'cycles') / mean(raw, 'cycles'):.2f} of its "
	              f"cycles/s; the service (its Redis client and HTTP) reaches {mean(service, 'cycles') / mean(lua, 'cycles'):.2f} "
	              f"of the scripts' own")
	cores = int(sys.argv[2])
	for c in clients:
	    inproc, service, raw, lua = (by[(s, c)] for s in ("in-process", "service", "redis", "redis-lua"))
	    if inproc and service and raw:
	        floor = mean(inproc, "client") + mean(inproc, "jvm") + mean(service, "redis")
	        bound = cores * 1e6 / floor
	        scripts = (f", {bound / mean(lua, 'cycles'):.2f} of the scripts' (the first bar's ceiling on these cores)"
	                   if lua else "")
	        print(f"bound at {c}: on {cores} cores a service on Redis whose Redis calls cost its JVM nothing would still pay "
	              f"the client's and the HTTP path's CPU (in-process cell: {mean(inproc, 'client'):.0f} + {mean(inproc, 'jvm'):.0f} "
	              f"µs/cycle) and Redis's ({mean(service, 'redis'):.0f}): at most {bound:,.0f} cycles/s, "
	              f"{bound / mean(raw, 'cycles'):.2f} of raw Redis's{scripts}; the JVM's Redis calls now cost "
	              f"{mean(service, 'jvm') - mean(inproc, 'jvm'):.0f} µs/cycle more than the in-process path")
	print("\nthe JVM(s)' CPU (of it in the kernel) and context switches per cycle by thread (mean of the rounds; the four "
	      "that cost most):")
	for c in clients:
	    for s in setups:
	        rs = by[(s, c)]
	        names = {n for r in rs for n in r["threads"]}
	        part = {n: [sum(r["threads"].get(n, [0, 0, 0])[i] for r in rs) / len(rs) for i in (0, 1, 2)] for n in names}
	        top = sorted(part.items(), key=lambda item: -item[1][0])[:4]
	        if top:
	            print(f"  {s} {c}: " + "; ".join(f"{n} {cpu:.0f} µs ({system:.0f}), {switches:.1f}"
	                                             for n, (cpu, switches, system) in top))
	            if mean(rs, "jvm") > 0:
	                kernel = sum(system for _, _, system in part.values())
	                print(f"    in the kernel: {kernel:.0f} of the JVM(s)' {mean(rs, 'jvm'):.0f} µs a cycle "
	                      f"({kernel / mean(rs, 'jvm'):.0%})")
	        jit = sum(cpu for n, (cpu, _, _) in part.items() if "CompilerThre" in n)
	        if rs and not s.startswith("redis") and jit > 0.1 * mean(rs, "jvm"):
	            print(f"    (the JIT compilers took {jit:.0f} µs of its {mean(rs, 'jvm'):.0f}: still warming up; a longer WARMUP "
	                  f"leaves them out)")
	for c in clients:
	    if by[("cluster-3", c)] and by[("cluster-1", c)]:
	        print(f"cluster-3 / cluster-1 cycles/s at {c}: "
	              f"{mean(by[('cluster-3', c)], 'cycles') / mean(by[('cluster-1', c)], 'cycles'):.2f}")
EOF
