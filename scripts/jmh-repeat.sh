#!/usr/bin/env bash
# How often a JMH ranking holds: the JMH study (scripts/jmh-study.sh) run REPS times in a row with
# the same options, then one table per setup of each strategy's delivered messages per µs in every
# run, its ratio to ConcurrentAtomic, and how many runs ranked it first or put it at 2x CA or more.
# One run ranks two designs no closer than the machine's run-to-run spread; this says how often.
#
#   flock /tmp/qs-bench.lock scripts/jmh-repeat.sh                    # 5 runs, the defaults below
#   REPS=3 scripts/jmh-repeat.sh --strategies "CONCURRENT_ATOMIC LANE_ADAPTIVE" --forks 2
#
# Options are jmh-study.sh's; the defaults are a new user's short run: JDK 17 Parallel, one fork,
# 2 + 3 iterations of 1 s, the four strategies the headline compares. Environment: REPS (5), OUT
# (target/jmh/repeat/<UTC time>), SUMMARY (a copy of the summary, e.g. docs/archive/jmh-study/REPEATS.md; default none).
set -euo pipefail
cd "$(dirname "$0")/.."

REPS="${REPS:-5}"
OUT="${OUT:-target/jmh/repeat/$(date -u +%Y%m%dT%H%M%SZ)}"
SUMMARY="${SUMMARY-}"
[[ $# -gt 0 ]] || set -- --jdks 17 --gcs parallel --forks 1 --warmups 2 --iterations 3 --time 1s \
	--thesis-completion none --strategies "CONCURRENT_ATOMIC CONCURRENT_POJO LANE_LOCKED LANE_ADAPTIVE"

mkdir -p "$OUT"
echo "scripts/jmh-study.sh $*" >"$OUT/command.txt"
for rep in $(seq 1 "$REPS"); do
	echo "== run $rep of $REPS, load $(cut -d' ' -f1-3 /proc/loadavg)"
	scripts/jmh-study.sh "$@" --results "$OUT/run-$rep/results" --report "$OUT/run-$rep/report"
done
python3 scripts/jmh-repeat-summary.py "$OUT" >"$OUT/REPEATS.md"
if [[ -n "$SUMMARY" ]]; then cp "$OUT/REPEATS.md" "$SUMMARY"; fi
cat "$OUT/REPEATS.md"
