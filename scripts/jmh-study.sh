#!/usr/bin/env bash
# The JMH study of issue 3: the thesis's QueueServiceBenchmark (every strategy, setups 1-1, 4-1,
# 1-4 and 4-4 readers-writers) under each JDK and garbage collector asked for, then the report
# (Markdown + one chart per setup) with the thesis's tables beside ours.
#
#   scripts/jmh-study.sh                 # default: about 20 minutes on 2 cores per four strategies
#   scripts/jmh-study.sh --thesis        # the thesis's 20 warmups, 20 iterations, 10 forks (hours)
#   scripts/jmh-study.sh --smoke         # CI: setup 1-1, one short iteration, one fork
#
# On a shared machine hold the benchmark lock so that no other benchmark overlaps:
#   flock /tmp/qs-bench.lock scripts/jmh-study.sh --report target/jmh/report
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/jmh-study.sh [options]
  --warmups N       warmup iterations per fork            (default 3;  thesis 20)
  --iterations N    measurement iterations per fork       (default 5;  thesis 20)
  --forks N         forks per benchmark                   (default 2;  thesis 10)
  --time T          length of every iteration, JMH syntax (default 1s; thesis 1s)
  --thesis          the thesis's settings: --warmups 20 --iterations 20 --forks 10 --time 1s
  --setups "R-W…"   readers-writers setups                (default "1-1 4-1 1-4 4-4")
  --jdks "…"        17, 25, current, or a JDK home path   (default "17 25")
  --gcs "…"         collectors: parallel g1 serial z …    (default "parallel g1")
  --heap ARGS       fork heap flags                       (default "-Xms2g -Xmx2g")
  --id-lookup V     false (the thesis's core) or true (the HTTP service's)   (default false)
  --strategies "…"  Strategy constants, e.g. "SYNCHRONIZED STAMPED_LOCK"    (default: all)
                    REDIS (in "all") runs on a redis-server this script starts and stops itself
                    (scripts/lib/service.sh's start_shared_redis; Debian's redis-server, or REDIS_SERVER)
  --thesis-completion "…"  these strategies also run with completion=THESIS (the thesis's unguarded
                    message.complete(), racy by design; only strategies on AbstractQS), in the same
                    run, so the report can split what the guarded completion costs
                    (default: the thesis's four; "none" to skip)
  --variant-flags F one more run per JDK and collector of the --thesis-completion strategies, in both
                    completion modes, with the extra fork flags F, e.g. "-XX:+UseBiasedLocking"
                    (JDK 17 only: a JDK that rejects the flags is skipped)   (default: none)
  --smoke           CI smoke: --setups 1-1 --warmups 0 --iterations 1 --forks 1 --time 200ms
                    --jdks current --gcs parallel --thesis-completion SYNCHRONIZED, into target/jmh/smoke
  --results DIR     JMH JSON files, emptied first         (default target/jmh/results)
  --report DIR      REPORT.md and charts                  (default target/jmh/report; "none": no report)
  --per-strategy    one JMH run and result file per strategy (jdkJ-GC-STRATEGY-R-W.json) instead of one
                    per setup: the unit --resume skips (needs --strategies or takes every strategy)
  --resume          keep --results and skip every result file already there (an interrupted study
                    goes on where it stopped)
Progress: before each JMH run, how many are done and the time left (from the pace so far, else an
estimate of FORK_SECONDS (default 3) of start-up per fork plus its iterations).
Environment: JDK17_HOME, JDK25_HOME override where the JDKs 17 and 25 are;
  JMH_STUDY_NOTE is added to the report's run notes (say whether the machine was shared);
  STUDY_AFTER_SECONDS: seconds of work after this script, added to the time left (scripts/study.sh).
EOF
}

cd "$(dirname "$0")/.."
# shellcheck source=lib/service.sh
source scripts/lib/service.sh # start_shared_redis, for the strategy REDIS

warmups=3 iterations=5 forks=2 time=1s
setups="1-1 4-1 1-4 4-4" jdks="17 25" gcs="parallel g1" heap="-Xms2g -Xmx2g" id_lookup=false strategies=""
thesis_completion="SYNCHRONIZED READ_WRITE_LOCK CONCURRENT_POJO CONCURRENT_ATOMIC" variant_flags=""
results=target/jmh/results report=target/jmh/report per_strategy=false resume=false
while [[ $# -gt 0 ]]; do
  case "$1" in
    --warmups) warmups=$2; shift 2 ;;
    --iterations) iterations=$2; shift 2 ;;
    --forks) forks=$2; shift 2 ;;
    --time) time=$2; shift 2 ;;
    --thesis) warmups=20 iterations=20 forks=10 time=1s; shift ;;
    --setups) setups=$2; shift 2 ;;
    --jdks) jdks=$2; shift 2 ;;
    --gcs) gcs=$2; shift 2 ;;
    --heap) heap=$2; shift 2 ;;
    --id-lookup) id_lookup=$2; shift 2 ;;
    --strategies) strategies=$2; shift 2 ;;
    --thesis-completion) thesis_completion=$2; shift 2 ;;
    --variant-flags) variant_flags=$2; shift 2 ;;
    --smoke) setups=1-1 warmups=0 iterations=1 forks=1 time=200ms jdks=current gcs=parallel thesis_completion=SYNCHRONIZED
             results=target/jmh/smoke/results report=target/jmh/smoke/report; shift ;;
    --results) results=$2; shift 2 ;;
    --report) report=$2; shift 2 ;;
    --per-strategy) per_strategy=true; shift ;;
    --resume) resume=true; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
  esac
done

java_home() {
  case "$1" in
    17) echo "${JDK17_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}" ;;
    25) echo "${JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}" ;;
    current) if [[ -n "${JAVA_HOME:-}" ]]; then echo "$JAVA_HOME"; else dirname "$(dirname "$(readlink -f "$(command -v java)")")"; fi ;;
    *) echo "$1" ;;
  esac
}

gc_flag() {
  case "$1" in
    parallel) echo -XX:+UseParallelGC ;;
    g1) echo -XX:+UseG1GC ;;
    serial) echo -XX:+UseSerialGC ;;
    z) echo -XX:+UseZGC ;;
    shenandoah) echo -XX:+UseShenandoahGC ;;
    *) echo "unknown collector: $1" >&2; exit 2 ;;
  esac
}

[[ "$id_lookup" == true || "$id_lookup" == false ]] || { echo "--id-lookup takes true or false" >&2; exit 2; }
[[ "$thesis_completion" == none ]] && thesis_completion=""
if [[ -n "$thesis_completion" && "$id_lookup" == true ]]; then
  echo "--thesis-completion needs --id-lookup false (the thesis's core); skipping it" >&2
  thesis_completion="" variant_flags=""
fi
for jdk in $jdks; do
  [[ -x "$(java_home "$jdk")/bin/java" ]] || { echo "no JDK for '$jdk' at $(java_home "$jdk")" >&2; exit 2; }
done

# JMH takes a machine-wide lock file in java.io.tmpdir; a folder of our own keeps our runs from
# waiting on (or blocking) other projects' JMH runs. The benchmark's own lock is flock, above.
tmp=target/jmh-tmp
classpath_file=target/jmh/classpath.txt
mkdir -p "$tmp" target/jmh
$resume || rm -rf "$results"
mkdir -p "$results"

echo "== building the test class path once"
./mvnw -q -B test-compile dependency:build-classpath \
  -Dmdep.outputFile="$classpath_file" -Dmdep.includeScope=test
# Forks load classes from a copy, so a build in this tree during the study cannot change them.
classes=target/jmh/classes
rm -rf "$classes" && mkdir -p "$classes" && cp -r target/classes target/test-classes "$classes"/
cp="$classes/test-classes:$classes/classes:$(cat "$classpath_file")"

# The strategy REDIS measures RedisQS on a redis-server: one for the whole study, in memory, on a
# free port that the forks read from -Dqs.redis.port (JmhCores); each iteration's core empties
# its own namespace.
redis_args=()
if [[ -z "$strategies" || " $strategies " == *" REDIS "* ]]; then
  trap stop_shared_redis EXIT
  start_shared_redis
  redis_args=(-jvmArgsAppend "-Dqs.redis.port=$SHARED_REDIS_PORT")
fi

# The units of work: one JMH run per setup (and completion mode), or per strategy with --per-strategy.
if $per_strategy && [[ -z "$strategies" ]]; then
  strategies="$(strategies | tr 'a-z-' 'A-Z_' | xargs)"
fi
units_per_setup=1
$per_strategy && units_per_setup=$(wc -w <<<"$strategies")
n_strategies=$(wc -w <<<"${strategies:-$(strategies | xargs)}")
seconds_of() { case "$1" in *ms) awk -v ms="${1%ms}" 'BEGIN {print ms / 1000}' ;; *s) echo "${1%s}" ;; *) echo "$1" ;; esac; }
fork_seconds=$(awk -v f="${FORK_SECONDS:-3}" -v n=$((warmups + iterations)) -v t="$(seconds_of "$time")" 'BEGIN {print f + n * t}')
extra_units=0
[[ -n "$thesis_completion" ]] && extra_units=$((extra_units + 1))
[[ -n "$thesis_completion" && -n "$variant_flags" ]] && extra_units=$((extra_units + 1))
units_all=$(( $(wc -w <<<"$jdks") * $(wc -w <<<"$gcs") * $(wc -w <<<"$setups") * (units_per_setup + extra_units) ))
unit_estimate=$(awk -v f="$fork_seconds" -v k="$forks" -v n="$n_strategies" -v u="$units_per_setup" 'BEGIN {printf "%d", f * k * n / u}')
units_done=0 units_run=0 session_start=$(date -u +%s)
progress() { # text
  local elapsed=$(( $(date -u +%s) - session_start )) per left
  per=$unit_estimate
  (( units_run > 0 )) && per=$(( elapsed / units_run ))
  left=$(( (units_all - units_done) * per + ${STUDY_AFTER_SECONDS:-0} ))
  echo "[$units_done/$units_all JMH runs] $1; $(( elapsed / 60 )) min so far, about $(( (left + 59) / 60 )) min left"
}

started=$(date -u +%s)
{
  echo "- Command: \`scripts/jmh-study.sh --warmups $warmups --iterations $iterations --forks $forks --time $time" \
       "--setups \"$setups\" --jdks \"$jdks\" --gcs \"$gcs\" --heap \"$heap\" --id-lookup $id_lookup${strategies:+ --strategies \"$strategies\"}" \
       "--thesis-completion \"${thesis_completion:-none}\"${variant_flags:+ --variant-flags \"$variant_flags\"}\`"
  echo "- Started $(date -u '+%Y-%m-%d %H:%M UTC'); load before: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
  if [[ -n "$SHARED_REDIS_PORT" ]]; then
    echo "- Redis (strategy REDIS): $("${REDIS_SERVER:-redis-server}" --version | cut -d' ' -f1-3) on this machine," \
         "started by the script: in memory, 127.0.0.1, one server for every fork"
  fi
} >> "$results/notes.md"

# One JMH invocation: $1 result file, $2 strategies (space-separated, empty: all), $3 completion
# modes (comma-separated), $4 extra fork flags.
jmh() {
  local out=$1 only=$2 completion=$3 flags=$4
  if $resume && [[ -s "$out" ]]; then
    units_done=$((units_done + 1))
    return
  fi
  progress "JDK $jdk, $gc GC, $readers reader(s), $writers writer(s), ${only:-every strategy}, completion $completion${flags:+, $flags} -> $out"
  # -tg follows the group's methods in name order: reader, then writer.
  "$home/bin/java" -Djava.io.tmpdir="$tmp" -cp "$cp" org.openjdk.jmh.Main \
    'QueueServiceBenchmark\.Thrpt\.' -tg "$readers,$writers" -p idLookup="$id_lookup" -p completion="$completion" \
    ${only:+-p strategy="${only// /,}"} \
    -wi "$warmups" -w "$time" -i "$iterations" -r "$time" -f "$forks" -foe true -prof gc \
    -jvmArgs "-Djava.io.tmpdir=$tmp $(gc_flag "$gc") $heap${flags:+ $flags}" ${redis_args[@]+"${redis_args[@]}"} \
    -rf json -rff "$out.part"
  mv "$out.part" "$out"
  units_done=$((units_done + 1)) units_run=$((units_run + 1))
}

for jdk in $jdks; do
  home=$(java_home "$jdk")
  variant=""
  if [[ -n "$variant_flags" && -n "$thesis_completion" ]]; then
    # shellcheck disable=SC2086 # the flags are words
    if "$home/bin/java" $variant_flags -version >/dev/null 2>&1; then
      variant=$variant_flags
    else
      echo "- JDK $jdk rejects \`$variant_flags\`: no variant run on it" | tee -a "$results/notes.md"
    fi
  fi
  for gc in $gcs; do
    for setup in $setups; do
      readers=${setup%-*} writers=${setup#*-}
      if $per_strategy; then
        for one in $strategies; do
          jmh "$results/jdk$jdk-$gc-$(tr 'A-Z_' 'a-z_' <<<"$one")-$readers-$writers.json" "$one" GUARDED ""
        done
      else
        jmh "$results/jdk$jdk-$gc-$readers-$writers.json" "$strategies" GUARDED ""
      fi
      if [[ -n "$thesis_completion" ]]; then
        jmh "$results/jdk$jdk-$gc-thesis-completion-$readers-$writers.json" "$thesis_completion" THESIS ""
      fi
      if [[ -n "$variant" ]]; then
        jmh "$results/jdk$jdk-$gc-variant-$readers-$writers.json" "$thesis_completion" GUARDED,THESIS "$variant"
      fi
    done
  done
done

stop_shared_redis
minutes=$(( ($(date -u +%s) - started + 59) / 60 ))
echo "- Finished $(date -u '+%Y-%m-%d %H:%M UTC') after about $minutes min; load after: $(cut -d' ' -f1-3 /proc/loadavg)" \
  >> "$results/notes.md"
if [[ -n "${JMH_STUDY_NOTE:-}" ]]; then echo "- $JMH_STUDY_NOTE" >> "$results/notes.md"; fi

if [[ "$report" != none ]]; then
  echo "== report"
  java -Djava.awt.headless=true -cp "$cp" io.github.qsbench.jmh.report.StudyReport "$results" "$report"
fi
