#!/usr/bin/env bash
# The core's JMH throughput before and after a change, in one run: QueueServiceBenchmark.Thrpt,
# every strategy (or STRATEGIES), each setup of SETUPS, idLookup false and true, with -prof gc.
# Base and new run back to back per strategy and setup, base first in odd rounds and new first in
# even ones, so that a change of the machine's load through the run (it rises as the JIT and the
# benchmarks' own threads heat it) hits both alike; all of idLookup=false comes first. Results: one JMH JSON file per run in OUT.
#
#   scripts/bench/jmh-before-after.sh BASE_TREE      # BASE_TREE: a worktree of the base commit
#     e.g. git worktree add /tmp/base 1c6f6ef && scripts/bench/jmh-before-after.sh /tmp/base
#
# Environment: ROUNDS (2), SETUPS ("1-1 4-4"), LOOKUPS ("false true"), STRATEGIES (all), WARMUPS (2), ITERATIONS (3),
# TIME (1s), JDK17_HOME, OUT (target/jmh/before-after/<time>), LOCK (/tmp/qs-bench.lock: held
# while benchmarks run, not while building, so that other benchmarks on the machine wait). JDK 17, ParallelGC, -Xms2g -Xmx2g,
# one fork each. The table: scripts/bench/jmh-before-after-table.py OUT.
# A strategy that the base cannot benchmark is skipped, with the reason printed: one its enum lacks,
# and REDIS where its benchmark cannot build a Redis core (no JmhCores). REDIS runs on a redis-server
# of the script's own (scripts/lib/service.sh's start_shared_redis), its port in -Dqs.redis.port.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=../lib/service.sh
source scripts/lib/service.sh # start_shared_redis, for the strategy REDIS

base_tree=$(cd "${1:?usage: jmh-before-after.sh BASE_TREE}" && pwd)
rounds=${ROUNDS:-2}
setups=${SETUPS:-"1-1 4-4"}
java=${JDK17_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}/bin/java
out=${OUT:-target/jmh/before-after/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out" && out=$(cd "$out" && pwd)
tmp="$out/tmp"
mkdir -p "$tmp"

# Builds one tree's test class path into $out/<name>, a copy no later build can change.
build() {
	local tree=$1 name=$2
	(cd "$tree" && ./mvnw -q -B test-compile dependency:build-classpath \
		-Dmdep.outputFile=target/jmh/classpath.txt -Dmdep.includeScope=test)
	mkdir -p "$out/$name"
	cp -r "$tree/target/classes" "$tree/target/test-classes" "$out/$name/"
	echo "$out/$name/test-classes:$out/$name/classes:$(cat "$tree/target/jmh/classpath.txt")" >"$out/$name.cp"
}
build "$base_tree" base
build . new
# enum constants, from the profile names of the new build
strategies=${STRATEGIES:-$("$java" -cp "$out/new/classes" io.github.qsbench.config.StrategyList | tr 'a-z-' 'A-Z_')}
# (a base from before StrategyList lists none: then nothing is skipped for that reason)
base_strategies=$("$java" -cp "$out/base/classes" io.github.qsbench.config.StrategyList 2>/dev/null | tr 'a-z-\n' 'A-Z_ ' || true)
comparable=""
for strategy in $strategies; do
	if [[ -n "$base_strategies" && " $base_strategies " != *" $strategy "* ]]; then
		echo "$strategy: skipped: the base has no such strategy"
	elif [[ "$strategy" == REDIS && ! -f "$out/base/test-classes/io/github/qsbench/jmh/JmhCores.class" ]]; then
		echo "$strategy: skipped: the base's benchmark cannot build a Redis core (it has no JmhCores)"
	else
		comparable+="${comparable:+ }$strategy"
	fi
done
strategies=$comparable
echo "$strategies" >"$out/strategies.txt"
redis_args=()
if [[ " $strategies " == *" REDIS "* ]]; then
	trap stop_shared_redis EXIT
	start_shared_redis
	redis_args=(-jvmArgsAppend "-Dqs.redis.port=$SHARED_REDIS_PORT")
fi

{
	echo "- Built $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) CPUs"
	echo "- Base $(git -C "$base_tree" rev-parse --short HEAD), new $(git rev-parse --short HEAD)$(git diff --quiet || echo ' + uncommitted')"
	echo "- $("$java" -version 2>&1 | head -1); -XX:+UseParallelGC -Xms2g -Xmx2g; 1 fork, ${WARMUPS:-2} x ${TIME:-1s} warmup, ${ITERATIONS:-3} x ${TIME:-1s}"
} >"$out/notes.md"

exec 9>"${LOCK:-/tmp/qs-bench.lock}"
flock 9
echo "- Started $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)" >>"$out/notes.md"
for lookup in ${LOOKUPS:-false true}; do
	for round in $(seq 1 "$rounds"); do
		for setup in $setups; do
			for strategy in $strategies; do
				order="base new"
				((round % 2 == 0)) && order="new base"
				for version in $order; do
					result="$out/r$round-$setup-$strategy-$lookup-$version.json"
					"$java" -Djava.io.tmpdir="$tmp" -cp "$(cat "$out/$version.cp")" org.openjdk.jmh.Main \
						'QueueServiceBenchmark\.Thrpt\.' -tg "${setup/-/,}" -p strategy="$strategy" \
						-p idLookup="$lookup" -p completion=GUARDED -wi "${WARMUPS:-2}" -w "${TIME:-1s}" \
						-i "${ITERATIONS:-3}" -r "${TIME:-1s}" -f 1 -foe true -prof gc \
						-jvmArgs "-Djava.io.tmpdir=$tmp -XX:+UseParallelGC -Xms2g -Xmx2g" ${redis_args[@]+"${redis_args[@]}"} \
						-rf json -rff "$result" >"$result.log" 2>&1 || { echo "failed: $result.log" >&2; exit 1; }
					echo "idLookup $lookup, round $round, $setup, $strategy, $version, load $(cut -d' ' -f1 /proc/loadavg)"
				done
			done
		done
	done
done
echo "- Ended $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)" >>"$out/notes.md"
flock -u 9
echo "$out"
