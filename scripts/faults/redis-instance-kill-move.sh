#!/usr/bin/env bash
# kill -9 of one of two redis instances on one Redis while it runs a message move task and while
# its clients hold FIFO message groups (issue 49): the load sends to a standard queue and to two
# FIFO queues (three groups per producer thread), and a dead-letter queue of FAULT_MOVE (3,000)
# messages is moved to the standard queue by a StartMessageMoveTask made on instance A
# (FAULT_MOVE_RATE, 200 a second); a second load process polls A only and holds what it gets
# 1.5 s (its leases are 2 s) before completing it. Once the task has moved some (200) and the
# holder's polls are under way, A gets kill -9. The task's heartbeat goes silent; after 30 s by
# the service's clock B takes it over and finishes it; the leases A's clients held lapse or are
# completed through B. The checker: nothing lost, nothing delivered twice beyond a lease, every
# dead letter moved once (under one id of the destination, never also left in the source), the
# task read COMPLETED with all moved, each FIFO group in order. After the check, what was in
# flight through A at the kill and who finished the task is printed (RUN/kill.txt).
#
#   scripts/faults/redis-instance-kill-move.sh
#
# Environment: FAULT_MOVE (3000), FAULT_MOVE_RATE (200), and fault-run.sh's. About two minutes
# here, start-ups included; 127.0.0.1 only.
set -euo pipefail
source "$(dirname "$0")/../lib/fault-run.sh"
MOVE="${FAULT_MOVE:-3000}"
MOVE_RATE="${FAULT_MOVE_RATE:-200}"
SHAPE=(--queues 1 --fifo-queues 2 --groups 3)
fault_begin redis-instance-kill-move redis
fault_service A
fault_service B
# A first: the mover and the first producer and consumer threads talk to A, the others to B
fault_load main --ports "$A_PORT,$B_PORT" "${SHAPE[@]}" --producers 3 --consumers 3 \
	--move "$MOVE" --move-rate "$MOVE_RATE" --move-after 1 --move-wait 100
fault_busy main 200
fault_load holder --ports "$A_PORT,$B_PORT" "${SHAPE[@]}" --create false --drain false --producers 0 \
	--consumers 2 --hold-ms 1500

# moved_on PORT: the dead-letter queue's task as that instance lists it: "STATUS MOVED TO_MOVE"
moved_on() {
	curl -sS --max-time 5 "http://127.0.0.1:$1/" -H 'Content-Type: application/x-amz-json-1.0' \
		-H 'X-Amz-Target: AmazonSQS.ListMessageMoveTasks' \
		-d '{"SourceArn":"arn:aws:sqs:us-east-1:000000000000:history-dlq"}' |
		python3 -c 'import json,sys; r=json.load(sys.stdin).get("Results") or [{}]; t=r[0]
print(t.get("Status", "none"), t.get("ApproximateNumberOfMessagesMoved", 0), t.get("ApproximateNumberOfMessagesToMove", 0))'
}
fault_busy holder 4
state=""
for ((i = 0; i < 300; i++)); do
	state="$(moved_on "$B_PORT" || true)"
	read -r status moved _ <<<"$state"
	if [[ "$status" == RUNNING ]] && ((moved >= 200)); then
		break
	fi
	sleep 0.1
done
[[ "$state" == RUNNING* ]] || { echo "the move task is not running before the kill: $state" >&2; exit 1; }
KILLED_AT="$(python3 -c 'import time; print(time.monotonic_ns())')"
fault_step "kill -9 of instance A (pid $A_PID) mid move task (status moved to-move: $state)"
kill -9 "$A_PID"
wait "$A_PID" 2>/dev/null || true
A_PID=""
fault_step "the task as B lists it just after the kill: $(moved_on "$B_PORT")"
status=0
fault_end || status=$?
python3 - "$RUN" "$A_PORT" "$KILLED_AT" "$state" <<-'EOF' | tee "$RUN/kill.txt"
	import json, pathlib, sys
	run, a_port, killed, at_kill = pathlib.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
	ops = [json.loads(l) for f in sorted(run.glob("*.jsonl")) for l in open(f) if l.strip()]
	done = {}  # lease token -> earliest acknowledged completion invoke
	for op in ops:
	    if op["op"] == "complete" and op["result"] == "ok":
	        done[op["lease"]] = min(done.get(op["lease"], op["invoke"]), op["invoke"])
	    for e in op.get("entries", []) if op["op"] == "complete-batch" else []:
	        if e.get("result") == "ok":
	            done[e["lease"]] = min(done.get(e["lease"], op["invoke"]), op["invoke"])
	held = [d for op in ops if op["op"] == "poll" and op.get("port") == a_port and op["queue"].endswith(".fifo")
	        and op["result"] == "ok" and op["return"] < killed
	        for d in op["deliveries"] if d["leaseFrom"] + d["leaseMs"] * 10**6 > killed and done.get(d["lease"], 2**63) > killed]
	groups = {(op["queue"], op["group"]) for op in ops if op.get("group")}
	value_group = {op["values"][0]: (op["queue"], op["group"]) for op in ops if op.get("group")}
	statuses = [op for op in ops if op["op"] == "move-status"]
	last = max(statuses, key=lambda op: op["return"]) if statuses else {}
	print(f"FIFO deliveries leased through A and not completed at the kill: {len(held)}"
	      f" (of {len({value_group.get(d['value']) for d in held})} groups; {len(groups)} groups in all)")
	print(f"move task at the kill (status, moved, to move): {at_kill}; at the end, read on port {last.get('port')}:"
	      f" {last.get('status')} {last.get('moved')} of {last.get('toMove')},"
	      f" {(last.get('return', killed) - killed) / 1e9:.1f} s after the kill")
	EOF
exit "$status"
