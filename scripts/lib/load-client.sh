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
