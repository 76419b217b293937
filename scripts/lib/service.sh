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
#   stop it before starting the next.
# stop_service      stops it (SIGTERM, graceful) and waits; safe to call twice or when none runs.
# start_service_as NAME PROFILE [JVM options...] [-- application arguments...]
#   The same, for a service named NAME (a shell identifier) beside the others: sets NAME_PORT,
#   NAME_BASE_URL and NAME_PID instead; its log defaults to target/service-NAME-PROFILE.log.
# stop_service_as NAME   stops that one, as stop_service does.
# free_port         prints a free TCP port on 127.0.0.1.
# strategies [--table-names]
#   prints the strategy profile names (or the JMH report's table names), one a line, from the
#   compiled Strategy enum (io.github.qsbench.config.StrategyList); needs target/classes (any
#   build).

QS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PORT=""
BASE_URL=""
SERVICE_PID=""

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
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
	local log="${SERVICE_LOG:-$QS_ROOT/target/service-${name:+$name-}${profile:-default}.log}"
	mkdir -p "$(dirname "$log")"
	local port url
	port="$(free_port)"
	url="http://127.0.0.1:$port"
	printf -v "$port_var" '%s' "$port"
	printf -v "$url_var" '%s' "$url"
	"${SERVICE_JAVA:-java}" "${jvm[@]}" -jar "$jar" --server.address=127.0.0.1 --server.port="$port" "${app[@]}" >"$log" 2>&1 &
	pid=$!
	printf -v "$pid_var" '%s' "$pid"
	local deadline=$((SECONDS + ${SERVICE_START_SECONDS:-60}))
	while ((SECONDS < deadline)); do
		if curl -fsS "$url/actuator/health" >/dev/null 2>&1; then
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

# qs_stop PID_VAR: stops the service whose pid that variable holds, and empties it.
qs_stop() {
	local pid="${!1:-}"
	if [[ -n "$pid" ]]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		printf -v "$1" '%s' ""
	fi
	return 0
}
