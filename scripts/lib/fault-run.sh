# shellcheck shell=bash
# The steps every fault script under scripts/faults/ shares (source it, do not run it): a run
# directory, the history load client (scripts/faults/HistoryLoad.java) compiled once, the
# service(s) started by scripts/lib/service.sh, Redis servers of the script's own (with an
# append-only file, restartable on their port), and the end: wait for the loads, stop everything,
# check the histories with io.github.qsbench.history.HistoryCheck from the packaged jar, and add
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

# fault_redis PORT DIR FSYNC: a redis-server of the script's own on PORT with its files in DIR
# (an append-only file with that appendfsync, or "off" for none); FAULT_REDIS_PID. Call again
# with the same arguments to restart it on its files.
fault_redis() {
	local port="$1" dir="$2" fsync="$3"
	local persistence=(--appendonly yes --appendfsync "$fsync")
	[[ "$fsync" == off ]] && persistence=(--appendonly no)
	mkdir -p "$dir"
	FAULT_REDIS_PID="$(qs_detached "$dir/redis.log" redis-server --bind 127.0.0.1 --port "$port" --dir "$dir" \
		--save "" "${persistence[@]}" --daemonize no)"
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
