#!/usr/bin/env bash
# What whole-queue work costs the redis strategy, where its cost is round trips (one script per
# call of the core), for this build and, with BASELINE_JAR, an older one, each on a Redis of its own,
# one after the other (the order reversed every other round). See docs/redis.md ("Every lever
# measured").
#   purge   N messages pushed to a fresh queue (REST batches of 100) and left ready, leased (in
#           flight, 600 s leases) or delayed (600 s), then one timed DELETE /queues/{q}/messages: a
#           purge drains ready messages by leases and discards the rest by browses of the queue's
#           head (QueueLifecycle, Sweep); and Redis's memory a message held before the purge
#   many    Q queues of one message each, then the listing's time (GET /queues, R times) and the
#           service JVM's and Redis's CPU over IDLE quiet seconds, while the gauges read every queue's
#           counts (RedisGauges: once a second, or resting nine times a reading's time where that is
#           longer; the live page's sampler reads the gauges from the start)
#   fifo    F FIFO queues of one message each, then the same at rest, where the FIFO settlement
#           (FifoSettlement) also passes over every FIFO queue, at the same pace as the gauges
#   batches the SQS face's batches of 10 on one standard queue (AWS JSON protocol), B of each in turn:
#           SendMessageBatch, ReceiveMessage of 10, ChangeMessageVisibilityBatch, DeleteMessageBatch;
#           each one's batches a second and the scripts Redis ran a batch (issue 49: one a batch)
# At rest it prints how often each of those passes ran (from Redis's INFO commandstats: at rest only they
# call HLEN and SSCAN).
# Each part on a service and a Redis of its own.
#
#   flock /tmp/qs-bench.lock scripts/bench/redis-queues.sh
#   BASELINE_JAR=/tmp/base.jar ROUNDS=2 flock /tmp/qs-bench.lock scripts/bench/redis-queues.sh
#
# The services are target/queue-service-*.jar (or SERVICE_JAR) and BASELINE_JAR, started with
# SERVICE_JAVA (default java) through scripts/lib/service.sh on the script's own Redis (Debian's
# redis-server and redis-cli on the PATH). Environment: PARTS ("purge many fifo batches"), N (50000),
# STATES ("ready inflight delayed"), Q (10000), R (5), F (3000), IDLE (10), B (1000), ROUNDS (1),
# SERVICE_JAR, BASELINE_JAR, SERVICE_JAVA.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=../lib/service.sh
source "$ROOT/scripts/lib/service.sh"
BUILDS=(NEW)
[[ -n "${BASELINE_JAR:-}" ]] && BUILDS+=(BASE)
trap 'stop_service; stop_shared_redis' EXIT
echo "start $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "${ROUNDS:-1}"); do
	order=("${BUILDS[@]}")
	if ((round % 2 == 0 && ${#BUILDS[@]} == 2)); then
		order=(BASE NEW)
	fi
	for build in "${order[@]}"; do
		jar="${SERVICE_JAR:-}"
		[[ "$build" == BASE ]] && jar="$BASELINE_JAR"
		for part in ${PARTS:-purge many fifo batches}; do
			stop_shared_redis # a Redis of its own for each part
			SERVICE_JAR="$jar" SERVICE_LOG="${TMPDIR:-/tmp}/redis-queues-$build.log" start_service redis -Xmx512m \
				-- --qs.limits.max-messages-per-queue=$((2 * ${N:-50000}))
			python3 - "$PORT" "$SERVICE_PID" "$SHARED_REDIS_PID" "round $round, $build" "$part" "$SHARED_REDIS_PORT" <<-'EOF'
				import http.client, json, os, re, subprocess, sys, time
				port, jvm, redis, label, part = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
				redis_port = int(sys.argv[6])
				n, states = int(os.environ.get("N", 50000)), os.environ.get("STATES", "ready inflight delayed").split()
				q, r, f, idle, b = (int(os.environ.get(k, d))
				                    for k, d in (("Q", 10000), ("R", 5), ("F", 3000), ("IDLE", 10), ("B", 1000)))
				http = http.client.HTTPConnection("127.0.0.1", port)
				def call(method, path, body=None, expect=None):
				    http.request(method, path, body, {"Content-Type": "application/json"} if body and body[0] == "{" else {})
				    answer = http.getresponse()
				    data = answer.read()
				    assert expect is None or answer.status in (expect if isinstance(expect, tuple) else (expect,)), \
				        (method, path, answer.status, data[:200])
				    return data
				def cpu(pid):
				    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
				    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
				def info(section):
				    return subprocess.check_output(["redis-cli", "-p", str(redis_port), "info", section])
				def memory():
				    """Redis's used_memory, in bytes."""
				    return int(re.search(rb"used_memory:(\d+)", info("memory")).group(1))
				def calls():
				    """Redis's calls of each command so far, from INFO commandstats (commands scripts run count)."""
				    return {name.decode(): int(n) for name, n in re.findall(rb"cmdstat_([a-z]+):calls=(\d+)", info("commandstats"))}
				def at_rest(queues, fifo=0):
				    """CPU at rest, and how often the gauges read each queue (one HLEN a queue, in held.lua or, before
				    it, stats.lua) and the FIFO settlement passes (fifo-heal.lua's one SSCAN a FIFO queue)."""
				    time.sleep(3)
				    before, start = (cpu(jvm), cpu(redis), calls()), time.monotonic()
				    time.sleep(idle)
				    took = time.monotonic() - start
				    after = calls()
				    rate = lambda name: (after.get(name, 0) - before[2].get(name, 0)) / took
				    passes = f", the FIFO settlement {rate('sscan') / fifo:.2f} passes a second" if fifo else ""
				    return (f"at rest the JVM {100 * (cpu(jvm) - before[0]) / took:.0f}% of a core, "
				            f"Redis {100 * (cpu(redis) - before[1]) / took:.0f}%, "
				            f"{rate('evalsha') + rate('eval'):,.0f} scripts a second: the gauges "
				            f"{rate('hlen') / queues:.2f} readings a second{passes}")
				if part == "purge":
				    batch = json.dumps({"messages": ["x" * 100] * 100})
				    for state in states:
				        queue = f"purge-{state}"
				        empty = memory()
				        for _ in range(n // 100):
				            call("POST", f"/queues/{queue}/messages/batch" + ("?delay=600" if state == "delayed" else ""), batch, 201)
				        leased = 0
				        while state == "inflight" and leased < n:
				            leased += len(json.loads(call("GET", f"/queues/{queue}/messages?max=100&lease=600", None, 200))["messages"])
				        per_message = (memory() - empty) / n
				        start = time.monotonic()
				        call("DELETE", f"/queues/{queue}/messages", None, 204)
				        took = time.monotonic() - start
				        call("GET", f"/queues/{queue}", None, 404)  # nothing left
				        print(f"{label}: purge of {n:,} {state}: {took:.3f} s, {took * 1e6 / n:.1f} µs a message "
				              f"(Redis held {per_message:,.0f} bytes a message before it)", flush=True)
				elif part == "many":
				    for i in range(q):
				        call("POST", f"/queues/many-{i}/messages", "x", 201)
				    listings = []
				    for _ in range(r):
				        start = time.monotonic()
				        call("GET", "/queues", None, 200)
				        listings.append((time.monotonic() - start) * 1000)
				    call("GET", "/actuator/prometheus", None, 200)  # reads the gauges, as the live page's sampler does
				    print(f"{label}: {q:,} queues: a listing {', '.join(f'{x:.0f}' for x in listings)} ms; {at_rest(q)}")
				elif part == "fifo":
				    for i in range(f):
				        call("PUT", f"/queues/fifo-{i}.fifo", json.dumps({"fifo": True, "contentBasedDeduplication": True}),
				             (200, 201))
				        call("POST", f"/queues/fifo-{i}.fifo/messages?group=g", "x", 201)
				    print(f"{label}: {f:,} FIFO queues: {at_rest(f, f)}")
				elif part == "batches":
				    def sqs(action, **body):
				        http.request("POST", "/", json.dumps(body), {"Content-Type": "application/x-amz-json-1.0",
				                                                     "X-Amz-Target": f"AmazonSQS.{action}"})
				        answer = http.getresponse()
				        data = json.loads(answer.read() or b"{}")
				        assert answer.status == 200 and not data.get("Failed"), (action, answer.status, data)
				        return data
				    url = sqs("CreateQueue", QueueName="batches")["QueueUrl"]
				    handles = []
				    def send(_):
				        sqs("SendMessageBatch", QueueUrl=url, Entries=[{"Id": str(i), "MessageBody": "x" * 100} for i in range(10)])
				    def receive(_):
				        messages = sqs("ReceiveMessage", QueueUrl=url, MaxNumberOfMessages=10, VisibilityTimeout=600)["Messages"]
				        assert len(messages) == 10
				        handles.append([m["ReceiptHandle"] for m in messages])
				    def change(i):
				        sqs("ChangeMessageVisibilityBatch", QueueUrl=url,
				            Entries=[{"Id": str(j), "ReceiptHandle": h, "VisibilityTimeout": 900} for j, h in enumerate(handles[i])])
				    def delete(i):
				        sqs("DeleteMessageBatch", QueueUrl=url, Entries=[{"Id": str(j), "ReceiptHandle": h} for j, h in enumerate(handles[i])])
				    for action, step in (("SendMessageBatch", send), ("ReceiveMessage of 10", receive),
				                         ("ChangeMessageVisibilityBatch", change), ("DeleteMessageBatch", delete)):
				        before, start = calls(), time.monotonic()
				        for i in range(b):
				            step(i)
				        took, after = time.monotonic() - start, calls()
				        scripts = sum(after.get(c, 0) - before.get(c, 0) for c in ("evalsha", "eval")) / b
				        print(f"{label}: {action}: {b / took:,.0f} batches a second, {scripts:.2f} scripts a batch", flush=True)
				    left = sqs("GetQueueAttributes", QueueUrl=url, AttributeNames=["All"])["Attributes"]
				    assert left["ApproximateNumberOfMessages"] == left["ApproximateNumberOfMessagesNotVisible"] == "0", left
			EOF
			stop_service
		done
	done
done
echo "end $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
