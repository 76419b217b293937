# shellcheck shell=bash
# The benchmark scripts' load generator, scripts/bench/RequestPathLoad.java, compiled once per run.
#
#   source "$ROOT/scripts/lib/load-client.sh"
#   load_client "$OUT"            # then: "${CLIENT[@]}" --port "$PORT" --producers 4 ...
#
# It runs on the default java with a small serial-GC heap, so that it takes as little of the
# machine's CPU as it can. BACKLOG (the client's --backlog: messages pushed and not yet completed
# that producers wait for; its default 1,000, 0 for no bound) is passed on when set.

# Compiles the client into DIR/classes and sets CLIENT to the command that runs it.
load_client() {
	local dir="$1"
	mkdir -p "$dir/classes"
	javac -d "$dir/classes" "$(dirname "${BASH_SOURCE[0]}")/../bench/RequestPathLoad.java"
	CLIENT=(java -XX:+UseSerialGC -Xmx256m -Xss256k -cp "$dir/classes" RequestPathLoad ${BACKLOG:+--backlog "$BACKLOG"})
}

# The header of record_cell's rows.
cell_header() {
	printf '%-6s %-11s %5s %10s %11s %8s %7s %5s\n' round server n cycles/s "cpu us/cyc" load errors lost
}

# record_cell OUT SERVER CLIENTS ROUND LOAD: appends what the client wrote for that cell
# (OUT/SERVER-CLIENTS-ROUND.json) to OUT/results.jsonl and prints its row under cell_header.
record_cell() {
	python3 - "$@" <<-'EOF'
		import json, os, sys
		out, server, n, rnd, load = sys.argv[1:]
		r = json.load(open(os.path.join(out, f"{server}-{n}-{rnd}.json")))
		row = dict(server=server, clients=int(n), round=int(rnd), load=float(load), cycles=r["cyclesPerSecond"],
		           us=r["cpuUsPerCycle"], errors=r["errors"], lost=r["lost"])
		open(os.path.join(out, "results.jsonl"), "a").write(json.dumps(row) + "\n")
		print(f"{rnd:<6} {server:<11} {n:>5} {row['cycles']:10,.0f} {row['us']:11.1f} {load:>8} {row['errors']:7}"
		      f" {row['lost']:5}")
	EOF
}
