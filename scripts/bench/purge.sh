#!/usr/bin/env bash
# How long a purge takes on the redis strategy: N messages pushed to a fresh queue (REST batches of
# 100) and left ready, leased (in flight, 600 s leases) or delayed (600 s), then one timed
# DELETE /queues/{q}/messages, for this build and, with BASELINE_JAR, an older one on the same Redis,
# alternated (the order reversed every other round). A purge drains ready messages by leases and
# discards the rest by browses of the queue's head (QueueLifecycle, Sweep): on Redis its cost is
# round trips, one script per call of the core. See docs/redis.md.
#
#   flock /tmp/qs-bench.lock scripts/bench/purge.sh
#   BASELINE_JAR=/tmp/base.jar N=50000 ROUNDS=3 flock /tmp/qs-bench.lock scripts/bench/purge.sh
#
# The services are target/queue-service-*.jar (or SERVICE_JAR) and BASELINE_JAR, started with
# SERVICE_JAVA (default java) through scripts/lib/service.sh on the script's own Redis (Debian's
# redis-server on the PATH). Environment: N (50000), ROUNDS (2), STATES ("ready inflight delayed"),
# SERVICE_JAR, BASELINE_JAR, SERVICE_JAVA.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=../lib/service.sh
source "$ROOT/scripts/lib/service.sh"
N="${N:-50000}"
ROUNDS="${ROUNDS:-2}"
STATES="${STATES:-ready inflight delayed}"
BUILDS=(NEW)
trap 'stop_service_as NEW; stop_service_as BASE' EXIT
ARGS=(-Xmx512m -- "--qs.limits.max-messages-per-queue=$((N * 2))")
SERVICE_LOG="${TMPDIR:-/tmp}/purge-new.log" start_service_as NEW redis "${ARGS[@]}"
if [[ -n "${BASELINE_JAR:-}" ]]; then
	SERVICE_JAR="$BASELINE_JAR" SERVICE_LOG="${TMPDIR:-/tmp}/purge-base.log" start_service_as BASE redis "${ARGS[@]}"
	BUILDS+=(BASE)
fi
echo "start $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg); N=$N"
echo "round build state seconds µs/message"
for round in $(seq 1 "$ROUNDS"); do
	order=("${BUILDS[@]}")
	if ((round % 2 == 0 && ${#BUILDS[@]} == 2)); then
		order=(BASE NEW)
	fi
	for build in "${order[@]}"; do
		port_var="${build}_PORT"
		for state in $STATES; do
			python3 - "${!port_var}" "purge-$build-$state-$round" "$N" "$state" "$round $build" <<-'EOF'
				import http.client, json, sys, time
				port, queue, n, state, label = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
				http = http.client.HTTPConnection("127.0.0.1", port)
				def call(method, path, body=None):
				    http.request(method, path, body, {"Content-Type": "application/json"} if body else {})
				    answer = http.getresponse()
				    return answer.status, answer.read()
				batch = json.dumps({"messages": ["x" * 100] * 100})
				delay = "?delay=600" if state == "delayed" else ""
				for _ in range(n // 100):
				    status, _ = call("POST", f"/queues/{queue}/messages/batch{delay}", batch)
				    assert status == 201, status
				leased = 0
				while state == "inflight" and leased < n:
				    status, body = call("GET", f"/queues/{queue}/messages?max=100&lease=600")
				    assert status == 200, status
				    leased += len(json.loads(body)["messages"])
				start = time.monotonic()
				status, _ = call("DELETE", f"/queues/{queue}/messages")
				took = time.monotonic() - start
				assert status == 204, status
				status, _ = call("GET", f"/queues/{queue}")
				assert status == 404, f"the queue still holds messages after its purge: {status}"
				print(f"{label} {state} {took:.3f} {took * 1e6 / n:.1f}")
			EOF
		done
	done
done
echo "end $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
