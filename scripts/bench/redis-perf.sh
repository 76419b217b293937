#!/usr/bin/env bash
# Where Redis's time goes a push-lease-complete cycle: perf's samples of redis-server (user space
# and kernel, with call graphs) under RequestPathLoad's raw commands (redis), the strategy's own
# scripts (redis-lua) and the floor's (redis-lua-floor: raw Redis's commands each called from a
# script, scripts/bench/lua-floor/), one after the other on one Redis, each sampled for SAMPLE s
# after WARMUP s of the same load. See docs/redis.md ("The third bar").
#
#   flock /tmp/qs-bench.lock scripts/bench/redis-perf.sh
#   MODES="redis-lua" SCRIPTS=/tmp/other-scripts flock /tmp/qs-bench.lock scripts/bench/redis-perf.sh
#
# It prints each mode's cycles a second, the sampled µs a cycle (kernel and user space), then those
# µs by group of functions (the Lua VM, allocation, number formatting and parsing, clocks and
# latency tracking, dictionary lookups, the kernel, the rest) and by function, the modes side by side.
# Needs perf (Debian's linux-perf) and the right to profile redis-server (root, or
# kernel.perf_event_paranoid at most 1). Environment: MODES ("redis redis-lua redis-lua-floor"),
# SCRIPTS (the redis-lua mode's scripts: this checkout's), CLIENTS (4+4), QUEUES (8), WARMUP (10),
# SAMPLE (8), TOP (40 functions), OUT.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=../lib/service.sh
source "$ROOT/scripts/lib/service.sh"
# shellcheck source=../lib/load-client.sh
source "$ROOT/scripts/lib/load-client.sh"
MODES="${MODES:-redis redis-lua redis-lua-floor}"
SCRIPTS="${SCRIPTS:-$ROOT/src/main/resources/io/github/qsbench/redis}"
CLIENTS="${CLIENTS:-4+4}"
WARMUP="${WARMUP:-10}"
SAMPLE="${SAMPLE:-8}"
OUT="${OUT:-$ROOT/target/redis-perf/$(date -u +%Y%m%dT%H%M%SZ)}"
command -v perf >/dev/null || { echo "redis-perf.sh: no perf on the PATH: apt-get install linux-perf" >&2; exit 1; }
mkdir -p "$OUT"
load_client "$OUT"
trap stop_shared_redis EXIT
start_shared_redis
echo "start $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg); clients $CLIENTS on ${QUEUES:-8} queues"
for mode in $MODES; do
	case "$mode" in
		redis) target=(--mode redis) ;;
		redis-lua) target=(--mode redis-lua --scripts "$SCRIPTS") ;;
		redis-lua-floor) target=(--mode redis-lua --scripts "$ROOT/scripts/bench/lua-floor") ;;
		*) echo "redis-perf.sh: no mode $mode" >&2 && exit 1 ;;
	esac
	qs_redis_command "$SHARED_REDIS_PORT" FLUSHALL >/dev/null
	"${CLIENT[@]}" "${target[@]}" --port "$SHARED_REDIS_PORT" --pid "$SHARED_REDIS_PID" --queues "${QUEUES:-8}" \
		--producers "${CLIENTS%+*}" --consumers "${CLIENTS#*+}" --warmup "$WARMUP" --seconds "$((SAMPLE + 4))" \
		>"$OUT/$mode.json" 2>"$OUT/$mode.err" &
	client=$!
	sleep "$((WARMUP + 2))"
	perf record -F 1999 -g -p "$SHARED_REDIS_PID" -o "$OUT/$mode.data" -- sleep "$SAMPLE" >/dev/null 2>"$OUT/$mode.perf.log"
	wait "$client"
done
echo "end $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg); perf data in $OUT"
python3 - "$OUT" "$SAMPLE" "${TOP:-40}" $MODES <<-'EOF'
	import json, re, subprocess, sys
	out, sample, top, modes = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
	GROUPS = [  # (group, pattern of a user-space function's name), the first that matches
	    ("Lua VM (unnamed static functions)", r"^0x"),
	    ("Lua API and VM", r"^lua"),
	    ("number formatting and parsing", r"printf|strtod|str_to_mpn|hack_digit|mpn_|round_and_return"),
	    ("allocation", r"malloc|free|realloc|calloc|je_|zmalloc|zfree|zrealloc|extent_|arena_|tcache_"),
	    ("clocks and latency tracking", r"gettimeofday|ustime|hdr_|latency|getMonotonic|clock_gettime"),
	    ("dictionary lookups (commands, keys)", r"dictFind|strcasecmp|siphash|lookupCommand|dictSds|dictGen"),
	]
	def samples(mode):
	    """(samples, 'k' or '.', function) of each function perf sampled."""
	    report = subprocess.run(["perf", "report", "-i", f"{out}/{mode}.data", "--no-children", "--sort", "sym",
	                             "-n", "--stdio", "-g", "none"], capture_output=True, text=True, check=True).stdout
	    return [(int(m.group(1)), m.group(2), m.group(3).strip())
	            for m in re.finditer(r"^\s+[\d.]+%\s+(\d+)\s+\[(.)\]\s+(.*)$", report, re.M)]
	def group(kind, name):
	    return "kernel" if kind == "k" else next((g for g, p in GROUPS if re.search(p, name)), "the rest of Redis and libc")
	rate = {}
	by_group, by_function = {}, {}
	for mode in modes:
	    cycles = json.load(open(f"{out}/{mode}.json"))["cyclesPerSecond"]
	    us = 1e6 / 1999 / (cycles * sample)  # a sample's µs, per cycle
	    rows = samples(mode)
	    kernel = sum(n for n, kind, _ in rows if kind == "k") * us
	    total = sum(n for n, _, _ in rows) * us
	    print(f"{mode}: {cycles:,.0f} cycles/s, sampled {total:.1f} µs of Redis a cycle: kernel {kernel:.1f},"
	          f" user space {total - kernel:.1f}")
	    for n, kind, name in rows:
	        by_group.setdefault(group(kind, name), {}).setdefault(mode, 0.0)
	        by_group[group(kind, name)][mode] += n * us
	        key = f"[k] {name}" if kind == "k" else name
	        by_function.setdefault(key, {}).setdefault(mode, 0.0)
	        by_function[key][mode] += n * us
	last = "redis-lua" if "redis-lua" in modes else modes[-1]  # the rows ranked by its cost
	tables = [("group", by_group, None)] + ([("function", by_function, top)] if top > 0 else [])
	for title, table, rows in tables:
	    print(f"\nµs a cycle by {title}" + (f", the {rows} that cost {last} most" if rows else ""))
	    print(f"  {'':52}" + "".join(f"{m:>16}" for m in modes))
	    ranked = sorted(table.items(), key=lambda kv: -kv[1].get(last, 0.0))
	    for name, by_mode in ranked[:rows]:
	        print(f"  {name[:52]:52}" + "".join(f"{by_mode.get(m, 0.0):16.2f}" for m in modes))
EOF
