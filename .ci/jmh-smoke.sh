#!/usr/bin/env bash
# CI smoke of the JMH study (issue 3): setup 1-1, every strategy, one short iteration, one fork,
# then checks that the report was written with its tables. Asserts no timing. About a minute.
# REDIS runs on a redis-server that the study starts and stops itself (redis-server on the PATH:
# .ci/run installs Debian's).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/service.sh

scripts/jmh-study.sh --smoke

report=target/jmh/smoke/report/REPORT.md
fail() { echo "jmh-smoke: $*" >&2; exit 1; }
[[ -s "$report" ]] || fail "no report at $report"
[[ -s target/jmh/smoke/report/uncontended.png ]] || fail "no chart for the uncontended setup"
for heading in '## Machine and settings' '## Summary' '## Uncontended (1 reader, 1 writer)' \
    '### Thesis 2017 (published)' '### Ranking side by side' '### Total as a ratio to ReadWriteLock and Synchronized' \
    '### Allocation and garbage collection' '### Polls that delivered and polls that found nothing' \
    '## Ranking by messages delivered' '## The guarded completion and the JDK'; do
  grep -qF -- "$heading" "$report" || fail "report lacks '$heading'"
done
grep -qF '| Idx | BM | Implementation | Score (ops/us) | ± Error (CI) | Rel. G. | Acc. G. |' "$report" \
  || fail "report lacks the score overview table"
grep -qF '| Idx | CI min | CI max | Obs. min | Obs. max | SD |' "$report" || fail "report lacks the deviations table"
ours=$(awk '/^### Ours/{on=1} /^### Thesis/{on=0} on' "$report")
for name in $(strategies --table-names); do # every strategy, from the Strategy enum
  grep -qE "^\| T[0-9]+ \| Total \| $name \| [0-9]" <<<"$ours" || fail "no measured Total row for $name"
done
echo "jmh-smoke: OK ($report)"
