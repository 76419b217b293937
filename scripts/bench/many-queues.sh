#!/usr/bin/env bash
# What many queues cost the redis strategy when nothing happens on them: Q queues of one message
# each, then the listing's time (GET /queues, R times) and, with the gauges started by one
# Prometheus scrape, the service JVM's and Redis's CPU over IDLE quiet seconds (the gauges read
# every queue's counts once a second, RedisGauges). This build and, with BASELINE_JAR, an older one,
# each on a Redis of its own, one after the other (the order reversed every other round). See
# docs/redis.md.
#
#   flock /tmp/qs-bench.lock scripts/bench/many-queues.sh
#   BASELINE_JAR=/tmp/base.jar Q=10000 ROUNDS=2 flock /tmp/qs-bench.lock scripts/bench/many-queues.sh
#
# The services are target/queue-service-*.jar (or SERVICE_JAR) and BASELINE_JAR, started with
# SERVICE_JAVA (default java) through scripts/lib/service.sh on the script's own Redis (Debian's
# redis-server on the PATH), emptied before each. Environment: Q (10000), R (5), IDLE (10),
# ROUNDS (1), SERVICE_JAR, BASELINE_JAR, SERVICE_JAVA.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=../lib/service.sh
source "$ROOT/scripts/lib/service.sh"
Q="${Q:-10000}"
R="${R:-5}"
IDLE="${IDLE:-10}"
ROUNDS="${ROUNDS:-1}"
BUILDS=(NEW)
[[ -n "${BASELINE_JAR:-}" ]] && BUILDS+=(BASE)
trap 'stop_service; stop_shared_redis' EXIT
echo "start $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg); Q=$Q"
echo "round build listing-ms(each) JVM-%core Redis-%core"
for round in $(seq 1 "$ROUNDS"); do
	order=("${BUILDS[@]}")
	if ((round % 2 == 0 && ${#BUILDS[@]} == 2)); then
		order=(BASE NEW)
	fi
	for build in "${order[@]}"; do
		jar="${SERVICE_JAR:-}"
		[[ "$build" == BASE ]] && jar="$BASELINE_JAR"
		stop_shared_redis # a Redis of its own for each, so that no queue of the other's is read
		SERVICE_JAR="$jar" SERVICE_LOG="${TMPDIR:-/tmp}/many-queues-$build.log" start_service redis -Xmx512m
		python3 - "$PORT" "$Q" "$R" "$IDLE" "$SERVICE_PID" "$SHARED_REDIS_PID" "$round $build" <<-'EOF'
			import http.client, os, sys, time
			port, q, r, idle = (int(arg) for arg in sys.argv[1:5])
			jvm, redis, label = sys.argv[5:8]
			http = http.client.HTTPConnection("127.0.0.1", port)
			def call(method, path, body=None):
			    http.request(method, path, body)
			    answer = http.getresponse()
			    return answer.status, answer.read()
			for i in range(q):
			    status, _ = call("POST", f"/queues/many-{i}/messages", "x")
			    assert status == 201, status
			listings = []
			for _ in range(r):
			    start = time.monotonic()
			    status, _ = call("GET", "/queues")
			    listings.append((time.monotonic() - start) * 1000)
			    assert status == 200, status
			call("GET", "/actuator/prometheus")
			time.sleep(3)
			def cpu(pid):
			    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
			    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
			before, start = (cpu(jvm), cpu(redis)), time.monotonic()
			time.sleep(idle)
			took = time.monotonic() - start
			print(f"{label} {'/'.join(f'{x:.0f}' for x in listings)} {100 * (cpu(jvm) - before[0]) / took:.0f} "
			      f"{100 * (cpu(redis) - before[1]) / took:.0f}")
		EOF
		stop_service
	done
done
echo "end $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
