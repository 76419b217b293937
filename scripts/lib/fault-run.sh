# shellcheck shell=bash
# The steps every fault script under scripts/faults/ shares (source it, do not run it): a run
# directory, the history load client (scripts/faults/HistoryLoad.java) compiled once, the
# service(s) started by scripts/lib/service.sh, Redis servers of the script's own (with an
# append-only file, restartable on their port) or a Redis Cluster of them, and the end: wait for
# the loads, stop everything, check the histories with io.github.qsbench.history.HistoryCheck from the packaged jar, and add
# the report to a results file that scripts/faults/run-all.sh turns into docs/faults.md.
#
#   source "$ROOT/scripts/lib/fault-run.sh"
#   fault_begin consumer-pause synchronized   # sets FAULT, STRATEGY, RUN (its directory)
#   fault_service A                           # the strategy's service: A_PORT, A_PID (redis: shared Redis)
#   fault_load main --ports "$A_PORT"         # a load process in the background: LOAD_PID[main]
#   ... inject the fault ...
#   fault_end                                 # waits, stops, checks; returns the checker's status
#
# Environment: FAULT_SECONDS (load seconds, 12), FAULT_LEASE (s, 2), FAULT_SEED (1), FAULT_OUT
# (target/faults), FAULT_RESULTS (FAULT_OUT/results.tsv), SERVICE_JAR, SERVICE_JAVA. Loopback only.

QS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=service.sh
source "$QS_ROOT/scripts/lib/service.sh"

export SERVICE_START_SECONDS="${SERVICE_START_SECONDS:-240}"
FAULT_SECONDS="${FAULT_SECONDS:-12}"
FAULT_LEASE="${FAULT_LEASE:-2}"
FAULT_SEED="${FAULT_SEED:-1}"
FAULT_OUT="${FAULT_OUT:-$QS_ROOT/target/faults}"
FAULT_RESULTS="${FAULT_RESULTS:-$FAULT_OUT/results.tsv}"
declare -A LOAD_PID=()
FAULT_SERVICES=()
FAULT_REDIS_PIDS=()
FAULT_REDIS_ARGS=()
declare -A FAULT_CLUSTER_PID=()

# fault_begin NAME STRATEGY: the run's directory (emptied), the client compiled, cleanup on exit.
fault_begin() {
	FAULT="$1"
	STRATEGY="$2"
	RUN="$FAULT_OUT/$FAULT-$STRATEGY"
	rm -rf "$RUN"
	mkdir -p "$RUN" "$FAULT_OUT/classes"
	if [[ ! -f "$FAULT_OUT/classes/HistoryLoad.class" \
		|| "$QS_ROOT/scripts/faults/HistoryLoad.java" -nt "$FAULT_OUT/classes/HistoryLoad.class" ]]; then
		javac -d "$FAULT_OUT/classes" "$QS_ROOT/scripts/faults/HistoryLoad.java"
	fi
	local jars=("$QS_ROOT"/target/queue-service-*.jar)
	FAULT_JAR="${SERVICE_JAR:-${jars[0]}}"
	[[ -f "$FAULT_JAR" ]] || { echo "fault_begin: no jar: run ./mvnw -DskipTests package first" >&2; return 1; }
	trap fault_cleanup EXIT
	fault_step "$FAULT with $STRATEGY: load ${FAULT_SECONDS}s, leases ${FAULT_LEASE}s, seed $FAULT_SEED, in $RUN"
}

fault_step() { echo "== fault [$(date -u +%H:%M:%S)] $*"; }

# fault_service NAME [application arguments...]: starts the strategy's service named NAME (sets
# NAME_PORT, NAME_PID). Instances of the redis strategy share the namespace faults: on the Redis
# fault_redis started (FAULT_REDIS_ARGS), else on service.sh's own in-memory one.
fault_service() {
	local name="$1"
	shift
	local args=("$@")
	if [[ "$STRATEGY" == redis ]]; then
		args+=(--qs.redis.namespace=faults: ${FAULT_REDIS_ARGS[@]+"${FAULT_REDIS_ARGS[@]}"})
	fi
	SERVICE_LOG="$RUN/service-$name.log" start_service_as "$name" "$STRATEGY" -Xmx256m -- "${args[@]}" >/dev/null
	FAULT_SERVICES+=("$name")
	local port="${name}_PORT"
	fault_step "service $name up on port ${!port}"
}

# fault_load NAME [HistoryLoad options...]: one load process in the background, its history in
# RUN/NAME.jsonl; LOAD_PID[NAME].
fault_load() {
	local name="$1"
	shift
	java -XX:+UseSerialGC -Xmx128m -cp "$FAULT_OUT/classes" HistoryLoad --name "$name" --seed "$FAULT_SEED" \
		--seconds "$FAULT_SECONDS" --lease "$FAULT_LEASE" --out "$RUN/$name.jsonl" "$@" \
		>"$RUN/load-$name.log" 2>&1 &
	LOAD_PID[$name]=$!
}

# fault_busy NAME [LINES]: waits (up to 30 s) until load NAME has recorded LINES operations (20):
# it is at work, not starting. Its history is flushed once a second.
fault_busy() {
	local file="$RUN/$1.jsonl" lines="${2:-20}" i
	for ((i = 0; i < 300; i++)); do
		if [[ -f "$file" ]] && (($(wc -l <"$file") >= lines)); then
			return 0
		fi
		sleep 0.1
	done
	echo "fault_busy: load $1 recorded fewer than $lines operations in 30 s" >&2
	return 1
}

# fault_redis PORT DIR FSYNC [redis-server options...]: a redis-server of the script's own on
# PORT with its files in DIR (an append-only file with that appendfsync, or "off" for none);
# FAULT_REDIS_PID. Call again with the same arguments to restart it on its files.
fault_redis() {
	local port="$1" dir="$2" fsync="$3"
	shift 3
	local persistence=(--appendonly yes --appendfsync "$fsync")
	[[ "$fsync" == off ]] && persistence=(--appendonly no)
	mkdir -p "$dir"
	FAULT_REDIS_PID="$(qs_detached "$dir/redis.log" redis-server --bind 127.0.0.1 --port "$port" --dir "$dir" \
		--save "" "${persistence[@]}" --daemonize no "$@")"
	FAULT_REDIS_PIDS+=("$FAULT_REDIS_PID")
	FAULT_REDIS_ARGS=(--spring.data.redis.host=127.0.0.1 "--spring.data.redis.port=$port")
	local i
	for ((i = 0; i < 100; i++)); do
		if [[ "$(qs_redis_command "$port" PING)" == +PONG ]]; then
			return 0
		fi
		sleep 0.1
	done
	tail -5 "$dir/redis.log" >&2
	echo "fault_redis: redis-server did not start on $port" >&2
	return 1
}

# fault_redis_cluster MASTERS REPLICAS FSYNC: a Redis Cluster of the script's own: MASTERS
# masters with REPLICAS replicas each (redis-cli --cluster create, as docs/redis.md makes one),
# every node a fault_redis on a free port (its bus on port + 10000) in RUN/redis-PORT, its
# cluster-node-timeout FAULT_CLUSTER_NODE_TIMEOUT ms (2000); waits until every node sees the
# cluster ok and every replica is in sync. FAULT_CLUSTER_PORTS (masters first), FAULT_REDIS_ARGS
# (the nodes, for the services). Restart a node with fault_cluster_node PORT.
fault_redis_cluster() {
	local masters="$1" replicas="$2"
	FAULT_CLUSTER_FSYNC="$3"
	read -r -a FAULT_CLUSTER_PORTS <<<"$(free_cluster_ports $((masters * (1 + replicas))))"
	local port nodes=()
	for port in "${FAULT_CLUSTER_PORTS[@]}"; do
		fault_cluster_node "$port"
		nodes+=("127.0.0.1:$port")
	done
	redis-cli --cluster create "${nodes[@]}" --cluster-replicas "$replicas" --cluster-yes \
		>"$RUN/cluster-create.log" 2>&1 || { cat "$RUN/cluster-create.log" >&2; return 1; }
	fault_cluster_await "${FAULT_CLUSTER_PORTS[@]}"
	FAULT_REDIS_ARGS=("--spring.data.redis.cluster.nodes=$(IFS=,; echo "${nodes[*]}")")
	fault_step "Redis Cluster up: $masters masters, $replicas replica(s) each, appendfsync $FAULT_CLUSTER_FSYNC," \
		"cluster-node-timeout ${FAULT_CLUSTER_NODE_TIMEOUT:-2000} ms, on ${FAULT_CLUSTER_PORTS[*]}"
}

# fault_cluster_node PORT: starts (or restarts, on its append-only file and nodes.conf) the
# cluster node on PORT; its pid in FAULT_CLUSTER_PID[PORT] and FAULT_REDIS_PID.
fault_cluster_node() {
	fault_redis "$1" "$RUN/redis-$1" "$FAULT_CLUSTER_FSYNC" --cluster-enabled yes --cluster-config-file nodes.conf \
		--cluster-node-timeout "${FAULT_CLUSTER_NODE_TIMEOUT:-2000}"
	FAULT_CLUSTER_PID[$1]="$FAULT_REDIS_PID"
}

# fault_cluster_await PORT...: waits (up to 60 s) until each of those nodes sees the cluster
# ok and, if it is a replica, its link to its master up and its initial sync done.
fault_cluster_await() {
	local port info i
	for port in "$@"; do
		for ((i = 0; i < 600; i++)); do
			info="$(redis-cli -p "$port" cluster info 2>/dev/null)$(redis-cli -p "$port" info replication 2>/dev/null)"
			if [[ "$info" == *cluster_state:ok* && ("$info" == *role:master* \
				|| ("$info" == *master_link_status:up* && "$info" == *master_sync_in_progress:0*)) ]]; then
				continue 2
			fi
			sleep 0.1
		done
		echo "fault_cluster_await: the node on $port is not ready: $(echo "$info" | grep -E 'cluster_state|role|master_link_status')" >&2
		return 1
	done
}

# fault_cluster_master KEY [PORT]: prints the port of the master that serves KEY's slot, as the
# node on PORT (the first node) sees it.
fault_cluster_master() {
	local port="${2:-${FAULT_CLUSTER_PORTS[0]}}" slot
	slot="$(redis-cli -p "$port" cluster keyslot "$1")"
	redis-cli -p "$port" cluster nodes | awk -v slot="$slot" '
		$3 ~ /master/ && $3 !~ /fail/ {
			for (i = 9; i <= NF; i++) {
				n = split($i, range, "-")
				if (n == 1) range[2] = range[1]
				if (slot >= range[1] && slot <= range[2]) { split($2, address, "[:@]"); print address[2]; exit }
			}
		}'
}

# fault_cluster_replica PORT: prints the port of a replica of the master on PORT.
fault_cluster_replica() {
	local master
	master="$(redis-cli -p "$1" cluster myid)"
	redis-cli -p "$1" cluster nodes | awk -v master="$master" '
		$3 ~ /slave/ && $4 == master { split($2, address, "[:@]"); print address[2]; exit }'
}

# fault_end [HistoryCheck options...]: waits for the loads, stops the services, checks every
# history of the run and appends "fault, strategy, status, report" to FAULT_RESULTS; returns the
# checker's status (0: the guarantee held).
fault_end() {
	local name status=0
	for name in "${!LOAD_PID[@]}"; do
		wait "${LOAD_PID[$name]}" || { echo "load $name failed: $(tail -3 "$RUN/load-$name.log")" >&2; status=1; }
	done
	LOAD_PID=()
	for name in ${FAULT_SERVICES[@]+"${FAULT_SERVICES[@]}"}; do
		stop_service_as "$name"
	done
	FAULT_SERVICES=()
	fault_step "checking $(cat "$RUN"/*.jsonl | wc -l) operations"
	printf '%s\n' --strategy "$STRATEGY" "$@" >"$RUN/check.args"
	fault_check "$RUN" || status=$?
	cat "$RUN/check.txt"
	mkdir -p "$(dirname "$FAULT_RESULTS")"
	printf '%s\t%s\t%s\t%s\n' "$FAULT" "$STRATEGY" "$status" "$(head -1 "$RUN/check.txt")" >>"$FAULT_RESULTS"
	fault_step "$FAULT with $STRATEGY: $([[ $status == 0 ]] && echo passed || echo FAILED)"
	return "$status"
}

# fault_check RUN: checks that run's histories with the options its fault_end wrote
# (RUN/check.args) into RUN/check.txt; returns the checker's status. Run again on kept
# histories, it checks them with the jar's checker of now (scripts/faults/run-all.sh --recheck).
fault_check() {
	local args=()
	mapfile -t args <"$1/check.args"
	java -cp "$FAULT_JAR" -Dloader.main=io.github.qsbench.history.HistoryCheck \
		org.springframework.boot.loader.launch.PropertiesLauncher "${args[@]}" "$1"/*.jsonl >"$1/check.txt" 2>&1
}

fault_cleanup() {
	local name pid
	for name in "${!LOAD_PID[@]}"; do
		kill -CONT "${LOAD_PID[$name]}" 2>/dev/null || true
		kill "${LOAD_PID[$name]}" 2>/dev/null || true
	done
	for name in ${FAULT_SERVICES[@]+"${FAULT_SERVICES[@]}"}; do
		local pid_var="${name}_PID"
		[[ -n "${!pid_var:-}" ]] && kill -CONT "${!pid_var}" 2>/dev/null
		stop_service_as "$name"
	done
	for pid in ${FAULT_REDIS_PIDS[@]+"${FAULT_REDIS_PIDS[@]}"}; do
		kill -CONT "$pid" 2>/dev/null || true
		kill -9 "$pid" 2>/dev/null || true
	done
	stop_shared_redis
}
