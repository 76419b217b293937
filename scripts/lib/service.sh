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
# start_service PROFILE [JVM options...] [-- application arguments...]
#   Starts target/queue-service-*.jar (or SERVICE_JAR, e.g. an older build to compare) with `java`
#   (or SERVICE_JAVA, e.g. another JDK's bin/java) on 127.0.0.1 at a free port with that strategy
#   profile ("" for none: the default strategy), waits for /actuator/health and returns 0, or prints the
#   end of the log and returns 1 when the service dies or is not healthy within
#   SERVICE_START_SECONDS (default 60). Output goes to SERVICE_LOG (default
#   target/service-PROFILE.log). One service at a time: stop it before starting the next.
# stop_service      stops it (SIGTERM, graceful) and waits; safe to call twice or when none runs.
# free_port         prints a free TCP port on 127.0.0.1.
# strategies [--thesis-names]
#   prints the strategy profile names (or the thesis's names), one a line, from the compiled
#   Strategy enum (io.github.qsbench.config.StrategyList); needs target/classes (any build).

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
	local profile="$1"
	shift
	local jvm=() app=()
	while [[ $# -gt 0 && "$1" != "--" ]]; do
		jvm+=("$1")
		shift
	done
	[[ $# -gt 0 ]] && shift
	app=("$@")
	[[ -n "$profile" ]] && app+=("--spring.profiles.active=$profile")
	if [[ -n "$SERVICE_PID" ]] && kill -0 "$SERVICE_PID" 2>/dev/null; then
		echo "start_service: a service is already running (pid $SERVICE_PID)" >&2
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
	local log="${SERVICE_LOG:-$QS_ROOT/target/service-${profile:-default}.log}"
	mkdir -p "$(dirname "$log")"
	PORT="$(free_port)"
	BASE_URL="http://127.0.0.1:$PORT"
	"${SERVICE_JAVA:-java}" "${jvm[@]}" -jar "$jar" --server.address=127.0.0.1 --server.port="$PORT" "${app[@]}" >"$log" 2>&1 &
	SERVICE_PID=$!
	local deadline=$((SECONDS + ${SERVICE_START_SECONDS:-60}))
	while ((SECONDS < deadline)); do
		if curl -fsS "$BASE_URL/actuator/health" >/dev/null 2>&1; then
			echo "service '${profile:-default}' up at $BASE_URL (pid $SERVICE_PID, log $log)"
			return 0
		fi
		if ! kill -0 "$SERVICE_PID" 2>/dev/null; then
			wait "$SERVICE_PID" 2>/dev/null || true
			SERVICE_PID=""
			tail -n 40 "$log" >&2
			echo "start_service: service '${profile:-default}' died at start-up (log $log)" >&2
			return 1
		fi
		sleep 0.5
	done
	tail -n 40 "$log" >&2
	echo "start_service: service '${profile:-default}' not healthy after ${SERVICE_START_SECONDS:-60} s (log $log)" >&2
	stop_service
	return 1
}

stop_service() {
	if [[ -n "$SERVICE_PID" ]]; then
		kill "$SERVICE_PID" 2>/dev/null || true
		wait "$SERVICE_PID" 2>/dev/null || true
		SERVICE_PID=""
	fi
	return 0
}
