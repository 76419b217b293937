# shellcheck shell=bash
# Starting and stopping the packaged service, shared by the scripts (source it, do not run it):
#
#   source "$ROOT/scripts/lib/service.sh"
#   trap stop_service EXIT                 # or call stop_service from your own cleanup
#   SERVICE_LOG="$OUT/service.log" start_service synchronized -Xmx256m -- --qs.lease-timeout=5s
#   curl "$BASE_URL/queues"                # PORT, BASE_URL and SERVICE_PID are set
#   stop_service
#   for strategy in $(strategies); do ...  # the profile names, from the Strategy enum
#
#   trap 'stop_service_as A; stop_service_as B' EXIT   # two (or more) at once
#   start_service_as A synchronized -Xmx512m && start_service_as B concurrent-atomic -Xmx512m
#   curl "$A_BASE_URL/queues" "$B_BASE_URL/queues"      # A_PORT, A_BASE_URL, A_PID; B_...
#
# start_service PROFILE [JVM options...] [-- application arguments...]
#   Starts target/queue-service-*.jar (or SERVICE_JAR, e.g. an older build to compare) with `java`
#   (or SERVICE_JAVA, e.g. another JDK's bin/java) on 127.0.0.1 at a free port with that strategy
#   profile ("" for none: the default strategy), waits for /actuator/health and returns 0, or prints the
#   end of the log and returns 1 when the service dies or is not healthy within
#   SERVICE_START_SECONDS (default 60). Output goes to SERVICE_LOG (default
#   target/service-PROFILE.log). Sets PORT, BASE_URL and SERVICE_PID: one such service at a time,
#   stop it before starting the next. It turns on the process section of /actuator/info and knows
#   its own service by the pid there (another process may take the port first on a shared
#   machine); SERVICE_PROCESS_INFO=false leaves /actuator/info as the service's own, for a script
#   that measures that endpoint, and knows its service by the socket it listens on instead
#   (Linux's /proc).
# stop_service      stops it (SIGTERM, graceful) and waits; safe to call twice or when none runs.
# start_service_as NAME PROFILE [JVM options...] [-- application arguments...]
#   The same, for a service named NAME (a shell identifier) beside the others: sets NAME_PORT,
#   NAME_BASE_URL and NAME_PID instead; its log defaults to target/service-NAME-PROFILE.log.
# stop_service_as NAME   stops that one, as stop_service does.
# free_port         prints a free TCP port on 127.0.0.1.
# free_cluster_ports N
#   prints N distinct free ports of 127.0.0.1 whose port + 10000 (a Redis Cluster node's bus) is
#   free too, on one line.
# strategies [--table-names]
#   prints the strategy profile names (or the JMH report's table names), one a line, from the
#   compiled Strategy enum (io.github.qsbench.config.StrategyList); needs target/classes (any
#   build).
#
# The redis profile needs a Redis. When the application arguments (or -D JVM options, or
# SPRING_DATA_REDIS_* in the environment) name none (no --spring.data.redis.* setting), the start
# functions run the service on the script's own Redis: start_shared_redis, then
# --spring.data.redis.host=127.0.0.1 --spring.data.redis.port=SHARED_REDIS_PORT and, unless the
# arguments set --qs.redis.namespace, a namespace of its own (qsN:), so that two services at once
# share no queues, as two in-process strategies do not. A service started when no other service
# of the script runs on that Redis starts on an empty one (FLUSHALL), as an in-process strategy
# starts empty. Which Redis a redis service uses is printed; SERVICE_REDIS_PID (NAME_REDIS_PID)
# is the shared redis-server's pid when it uses that one, else empty (add it to a CPU measurement:
# the strategy's work is done there too).
# start_shared_redis
#   Starts the script's own redis-server unless it runs already: in memory (--save ""
#   --appendonly no), on a free port of 127.0.0.1, in a temporary directory of its own
#   (REDIS_SERVER: another binary). Sets SHARED_REDIS_PORT and SHARED_REDIS_PID. It is not a child
#   of the script (a bare `wait` does not wait for it) and holds none of its file descriptors (a
#   flock, a pipe); it stops when the script (the shell that sourced this file) exits, or by
#   stop_shared_redis. stop_service leaves it running for the next start.
# stop_shared_redis  stops it now and deletes its directory; safe to call twice or when none runs.
#
# What a memory script reads of the service start_service started (BASE_URL, SERVICE_PID):
# service_health     prints its /actuator/health status (UP, DOWN, ...), or "no answer".
# service_metric NAME
#   prints the value of the first sample of the Prometheus series NAME (with or without labels)
#   at /actuator/prometheus; nothing when there is none.
# service_live_heap_mib
#   prints its live heap in MiB (one decimal) after a full GC (jcmd GC.class_histogram, read by
#   scripts/heap_histogram.py), or "n/a (jcmd failed)".

QS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PORT=""
BASE_URL=""
SERVICE_PID=""
SERVICE_REDIS_PID=""
SHARED_REDIS_PORT=""
SHARED_REDIS_PID=""
QS_REDIS_DIR=""
QS_REDIS_WATCH_PID=""
QS_REDIS_STARTS=0
QS_REDIS_SERVICES=()

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# free_cluster_ports N: N distinct free ports of 127.0.0.1 whose port + 10000 (the cluster bus) is
# free too.
free_cluster_ports() {
	python3 - "$1" <<-'EOF'
		import socket, sys
		held = []
		while len(held) < 2 * int(sys.argv[1]):
		    s = socket.socket()
		    s.bind(("127.0.0.1", 0))
		    port = s.getsockname()[1]
		    bus = socket.socket()
		    try:
		        if port + 10000 > 65535:
		            raise OSError
		        bus.bind(("127.0.0.1", port + 10000))
		    except OSError:
		        s.close()
		        bus.close()
		        continue
		    held += [s, bus]
		print(" ".join(str(s.getsockname()[1]) for s in held[0::2]))
		for s in held:
		    s.close()
	EOF
}

strategies() {
	if [[ ! -d "$QS_ROOT/target/classes/io" ]]; then
		echo "strategies: no compiled classes in $QS_ROOT/target/classes: build first (./mvnw package)" >&2
		return 1
	fi
	java -cp "$QS_ROOT/target/classes" io.github.qsbench.config.StrategyList "$@"
}

start_service() { # profile [jvm options...] [-- app args...]
	qs_start PORT BASE_URL SERVICE_PID "" "$@"
}

start_service_as() { # name profile [jvm options...] [-- app args...]
	local name="$1"
	shift
	qs_start "${name}_PORT" "${name}_BASE_URL" "${name}_PID" "$name" "$@"
}

stop_service() {
	qs_stop SERVICE_PID
}

stop_service_as() { # name
	qs_stop "${1}_PID"
}

# qs_start PORT_VAR URL_VAR PID_VAR NAME PROFILE ...: what start_service and start_service_as do,
# into the variables named.
qs_start() {
	local port_var="$1" url_var="$2" pid_var="$3" name="$4" profile="$5"
	shift 5
	local jvm=() app=()
	while [[ $# -gt 0 && "$1" != "--" ]]; do
		jvm+=("$1")
		shift
	done
	[[ $# -gt 0 ]] && shift
	app=("$@")
	[[ -n "$profile" ]] && app+=("--spring.profiles.active=$profile")
	local pid="${!pid_var:-}"
	if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
		echo "start_service: a service${name:+ named $name} is already running (pid $pid)" >&2
		return 1
	fi
	local jar="${SERVICE_JAR:-}"
	if [[ -z "$jar" ]]; then
		local jars=("$QS_ROOT"/target/queue-service-*.jar)
		jar="${jars[0]}"
	fi
	if [[ ! -f "$jar" ]]; then
		echo "start_service: no jar in $QS_ROOT/target: run ./mvnw -DskipTests package first" >&2
		return 1
	fi
	local redis_pid_var="${pid_var%PID}REDIS_PID" on_shared_redis=false
	printf -v "$redis_pid_var" '%s' ""
	if [[ "$profile" == redis ]]; then
		local named
		named="$(qs_named_redis "${jvm[@]}" "${app[@]}")"
		if [[ -n "$named" ]]; then
			echo "service ${name:+$name }'redis' uses the Redis its settings name: $named"
		else
			start_shared_redis || return 1
			local fresh="" namespace=""
			if qs_shared_redis_idle; then
				[[ "$(qs_redis_command "$SHARED_REDIS_PORT" FLUSHALL)" == +OK ]] || {
					echo "start_service: FLUSHALL on the script's Redis at 127.0.0.1:$SHARED_REDIS_PORT failed" >&2
					return 1
				}
				fresh=", emptied first"
			fi
			app+=(--spring.data.redis.host=127.0.0.1 "--spring.data.redis.port=$SHARED_REDIS_PORT")
			if [[ " ${app[*]} " != *" --qs.redis.namespace="* ]]; then
				QS_REDIS_STARTS=$((QS_REDIS_STARTS + 1))
				namespace="qs$QS_REDIS_STARTS:"
				app+=("--qs.redis.namespace=$namespace")
			fi
			on_shared_redis=true
			echo "service ${name:+$name }'redis' uses the script's own Redis at 127.0.0.1:$SHARED_REDIS_PORT" \
				"(redis-server pid $SHARED_REDIS_PID${namespace:+, namespace $namespace}$fresh)"
		fi
	fi
	local log="${SERVICE_LOG:-$QS_ROOT/target/service-${name:+$name-}${profile:-default}.log}"
	mkdir -p "$(dirname "$log")"
	local port url
	port="$(free_port)"
	url="http://127.0.0.1:$port"
	printf -v "$port_var" '%s' "$port"
	printf -v "$url_var" '%s' "$url"
	# /actuator/info with the process's pid (unless SERVICE_PROCESS_INFO=false): the health check
	# below knows its own service by it
	local info=(--management.info.process.enabled=true)
	[[ "${SERVICE_PROCESS_INFO:-true}" == false ]] && info=()
	"${SERVICE_JAVA:-java}" "${jvm[@]}" -jar "$jar" --server.address=127.0.0.1 --server.port="$port" \
		${info[@]+"${info[@]}"} "${app[@]}" >"$log" 2>&1 &
	pid=$!
	printf -v "$pid_var" '%s' "$pid"
	if $on_shared_redis; then
		QS_REDIS_SERVICES+=("$pid")
		printf -v "$redis_pid_var" '%s' "$SHARED_REDIS_PID"
	fi
	local deadline=$((SECONDS + ${SERVICE_START_SECONDS:-60}))
	while ((SECONDS < deadline)); do
		# healthy, and this process: on a shared machine another service may take the port first
		if curl -fsS "$url/actuator/health" >/dev/null 2>&1 && qs_answers_as "$pid" "$url" "$port"; then
			echo "service ${name:+$name }'${profile:-default}' up at $url (pid $pid, log $log)"
			return 0
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			wait "$pid" 2>/dev/null || true
			printf -v "$pid_var" '%s' ""
			tail -n 40 "$log" >&2
			echo "start_service: service ${name:+$name }'${profile:-default}' died at start-up (log $log)" >&2
			return 1
		fi
		sleep 0.5
	done
	tail -n 40 "$log" >&2
	echo "start_service: service ${name:+$name }'${profile:-default}' not healthy after ${SERVICE_START_SECONDS:-60} s (log $log)" >&2
	qs_stop "$pid_var"
	return 1
}

# qs_answers_as PID URL PORT: whether the service answering at URL is process PID: by the pid in
# its /actuator/info, or with SERVICE_PROCESS_INFO=false by a socket of PID's listening on PORT.
qs_answers_as() {
	local pid="$1" url="$2" port="$3"
	if [[ "${SERVICE_PROCESS_INFO:-true}" != false ]]; then
		curl -fsS "$url/actuator/info" 2>/dev/null | grep -q "\"pid\":$pid[,}]"
		return
	fi
	local hex inode
	hex="$(printf ':%04X' "$port")"
	# the listening sockets (state 0A) on that port in PID's network namespace, then whether PID
	# holds one of them
	for inode in $(awk -v port="$hex" '$4 == "0A" && substr($2, length($2) - 4) == port { print $10 }' \
		"/proc/$pid/net/tcp" "/proc/$pid/net/tcp6" 2>/dev/null); do
		if find "/proc/$pid/fd" -lname "socket:\[$inode\]" 2>/dev/null | grep -q .; then
			return 0
		fi
	done
	return 1
}

# qs_stop PID_VAR: stops the service whose pid that variable holds, and empties it (and the
# matching ..._REDIS_PID).
qs_stop() {
	local pid="${!1:-}"
	if [[ -n "$pid" ]]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		printf -v "$1" '%s' ""
		printf -v "${1%PID}REDIS_PID" '%s' ""
	fi
	return 0
}

start_shared_redis() {
	if [[ -n "$SHARED_REDIS_PID" ]] && kill -0 "$SHARED_REDIS_PID" 2>/dev/null; then
		return 0
	fi
	stop_shared_redis # what is left of one that died
	local server="${REDIS_SERVER:-redis-server}"
	if ! command -v "$server" >/dev/null; then
		echo "start_shared_redis: no $server on the PATH: apt-get install redis-server (or set REDIS_SERVER)" >&2
		return 1
	fi
	local dir port pid attempt deadline
	dir="$(mktemp -d "${TMPDIR:-/tmp}/qs-redis.XXXXXX")"
	for attempt in 1 2 3 4 5; do
		port="$(free_port)"
		: >"$dir/redis.log"
		pid="$(qs_detached "$dir/redis.log" "$server" --save "" --appendonly no --bind 127.0.0.1 --port "$port" \
			--daemonize no --dir "$dir")"
		deadline=$((SECONDS + 10))
		while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do
			if [[ "$(qs_redis_command "$port" PING)" == +PONG ]]; then
				SHARED_REDIS_PORT="$port"
				SHARED_REDIS_PID="$pid"
				QS_REDIS_DIR="$dir"
				QS_REDIS_SERVICES=()
				# Stops it (and deletes its directory) once the shell that sourced this file is gone,
				# whatever its traps do.
				QS_REDIS_WATCH_PID="$(qs_detached /dev/null bash -c '
					while kill -0 "$2" 2>/dev/null; do
						if ! kill -0 "$1" 2>/dev/null; then
							kill "$2" 2>/dev/null
							for _ in $(seq 1 50); do kill -0 "$2" 2>/dev/null || break; sleep 0.1; done
							kill -0 "$2" 2>/dev/null && kill -9 "$2"
							break
						fi
						sleep 1
					done
					rm -rf "$3"' qs-redis-watch "$$" "$pid" "$dir")"
				echo "started the script's own Redis: $("$server" --version | cut -d' ' -f1-3) at 127.0.0.1:$port" \
					"(pid $pid, in memory, directory $dir; it stops when this script exits)"
				return 0
			fi
			sleep 0.1
		done
		kill "$pid" 2>/dev/null || true
		# another process took the port between free_port and the server's bind: try another
		grep -q 'Address already in use' "$dir/redis.log" || break
	done
	tail -n 20 "$dir/redis.log" >&2
	echo "start_shared_redis: $server did not start (its log above)" >&2
	rm -rf "$dir"
	return 1
}

stop_shared_redis() {
	if [[ -n "$QS_REDIS_WATCH_PID" ]]; then
		kill "$QS_REDIS_WATCH_PID" 2>/dev/null || true
	fi
	if [[ -n "$SHARED_REDIS_PID" ]]; then
		kill "$SHARED_REDIS_PID" 2>/dev/null || true
		local i
		# not a child of this shell: no wait, so look
		for ((i = 0; i < 100; i++)); do
			kill -0 "$SHARED_REDIS_PID" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "$SHARED_REDIS_PID" 2>/dev/null; then
			kill -9 "$SHARED_REDIS_PID" 2>/dev/null || true
		fi
	fi
	if [[ -n "$QS_REDIS_DIR" ]]; then
		rm -rf "$QS_REDIS_DIR"
	fi
	SHARED_REDIS_PORT=""
	SHARED_REDIS_PID=""
	QS_REDIS_DIR=""
	QS_REDIS_WATCH_PID=""
	QS_REDIS_SERVICES=()
	return 0
}

# qs_named_redis [JVM options and application arguments...]: prints those that name a Redis
# (--spring.data.redis.*, -Dspring.data.redis.*, and SPRING_DATA_REDIS_* of the environment);
# nothing when none does.
qs_named_redis() {
	local arg named=()
	for arg in "$@"; do
		if [[ "$arg" == --spring.data.redis.* || "$arg" == -Dspring.data.redis.* ]]; then
			named+=("$arg")
		fi
	done
	for arg in $(compgen -e); do
		if [[ "$arg" == SPRING_DATA_REDIS_* ]]; then
			named+=("$arg=${!arg}")
		fi
	done
	if ((${#named[@]})); then
		echo "${named[*]}"
	fi
	return 0
}

# qs_shared_redis_idle: whether no service started on the shared Redis still runs.
qs_shared_redis_idle() {
	local pid
	for pid in ${QS_REDIS_SERVICES[@]+"${QS_REDIS_SERVICES[@]}"}; do
		if kill -0 "$pid" 2>/dev/null; then
			return 1
		fi
	done
	QS_REDIS_SERVICES=()
	return 0
}

# qs_redis_command PORT WORD...: sends one inline command to the Redis at 127.0.0.1:PORT and
# prints the first line of its answer (+PONG, +OK, -ERR ...); nothing when it does not answer.
# Needs no redis-cli.
qs_redis_command() {
	local port="$1"
	shift
	(
		exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 0
		printf '%s\r\n' "$*" >&3
		IFS= read -r -t 10 reply <&3 || exit 0
		printf '%s\n' "${reply%$'\r'}"
	) 2>/dev/null || true
}

# qs_detached LOG COMMAND...: starts COMMAND in the background, but not as a child of this shell
# (a bare `wait` in the caller does not wait for it), with stdin from /dev/null, stdout and
# stderr appended to LOG and none of the shell's other file descriptors (a flock's, a pipe's);
# prints its pid.
qs_detached() {
	local log="$1"
	shift
	(
		for fd in /proc/"$BASHPID"/fd/*; do
			fd="${fd##*/}"
			if ((fd > 2)); then
				eval "exec $fd>&-" 2>/dev/null || true
			fi
		done
		"$@" </dev/null >>"$log" 2>&1 &
		echo "$!"
	)
}

service_health() {
	curl -sS --max-time 10 "$BASE_URL/actuator/health" 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])' 2>/dev/null || echo "no answer"
}

service_metric() { # name
	curl -fsS --max-time 10 "$BASE_URL/actuator/prometheus" 2>/dev/null |
		awk -v m="$1" '$1 ~ "^"m"[{ ]" || $1 == m {print $2; exit}'
}

service_live_heap_mib() {
	local histogram
	histogram="$(mktemp)"
	timeout 120 jcmd "$SERVICE_PID" GC.class_histogram >"$histogram" 2>/dev/null &&
		python3 "$QS_ROOT/scripts/heap_histogram.py" total "$histogram" | awk '{printf "%.1f", $1 / 1048576}' ||
		echo "n/a (jcmd failed)"
	rm -f "$histogram"
}
