#!/usr/bin/env bash
# docs/findings.md in one command: the plan in study/plan.yml (the core under JMH in rounds, the
# service end to end in paired starts, every round's order shuffled from the plan's seed), its
# results into results/study/, then the page from those results alone.
#
#   flock /tmp/qs-bench.lock scripts/study.sh --standard   # run what is not yet in results/study, then the page
#   scripts/study.sh --standard --dry-run                  # the plan, what is left of it, its predicted time
#   scripts/study.sh --report-only                         # the page again from results/study, nothing measured
#   scripts/study.sh --report-only --check                 # CI: fail if the page is not what its results give
#   flock /tmp/qs-bench.lock scripts/study.sh --standard --again=e2e   # measure one half again (core|e2e) on
#                                                          # this build, the other half's results kept
#
# Resume: every run writes one result file; run the same command again after an interruption and
# the files already there are skipped (the order is the plan's, so a resumed study runs what an
# uninterrupted one would have). --fresh empties RESULTS first; --again=KIND only that half (resume
# an interrupted --again run without it). machine.txt names the build of each part. A result belongs
# to the plan it was measured under: change study/plan.yml and start a fresh RESULTS.
# Environment: PLAN (study/plan.yml), RESULTS (results/study), PAGE (docs/findings.md),
# JDK17_HOME, JDK25_HOME (the JDKs the plan's `java: 17|25` name).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/service.sh
source scripts/lib/service.sh # start_service, stop_service
# shellcheck source=lib/load-client.sh
source scripts/lib/load-client.sh # load_client, CLIENT

standard=false dry_run=false report_only=false check=false fresh=false again=""
for arg in "$@"; do
	case "$arg" in
		--standard) standard=true ;;
		--dry-run) dry_run=true ;;
		--report-only) report_only=true ;;
		--check) check=true ;;
		--fresh) fresh=true ;;
		--again=core | --again=e2e) again="${arg#--again=}" ;;
		-h | --help) sed -n '2,19p' "$0"; exit 0 ;;
		*) echo "unknown option: $arg (--standard [--dry-run] [--fresh | --again=core|e2e] | --report-only [--check])" >&2; exit 2 ;;
	esac
done
$standard || $report_only || { echo "say --standard or --report-only" >&2; exit 2; }
PLAN="${PLAN:-study/plan.yml}" RESULTS="${RESULTS:-results/study}" PAGE="${PAGE:-docs/findings.md}"

java_home() { # 17 | 25
	case "$1" in
		17) echo "${JDK17_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}" ;;
		25) echo "${JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}" ;;
		*) echo "study: no JDK $1 known (say JDK${1}_HOME)" >&2; return 1 ;;
	esac
}

echo "== building the service, the benchmarks and the page's writer"
goals=(test-compile)
$report_only || goals=(package -DskipTests)
./mvnw -B -q -Dfray.skip=true "${goals[@]}" dependency:build-classpath \
	-Dmdep.outputFile=target/jmh/classpath.txt -Dmdep.includeScope=test
# Forks and services run from a copy, so a build in this tree during the study cannot change them.
study=target/study
rm -rf "$study/classes" && mkdir -p "$study/classes"
cp -r target/classes target/test-classes "$study/classes/"
cp="$study/classes/test-classes:$study/classes/classes:$(cat target/jmh/classpath.txt)"
writer() { java -Djava.awt.headless=true -cp "$cp" "$@"; }

if $standard; then
	$fresh && ! $dry_run && rm -rf "$RESULTS"
	if [[ -n "$again" ]] && ! $dry_run && [[ -d "$RESULTS/$again" ]]; then
		rm -rf "${RESULTS:?}/$again"
		awk -F'\t' -v kind="$again" '$1 != kind' "$RESULTS/runs.tsv" >"$RESULTS/runs.tsv.kept"
		mv "$RESULTS/runs.tsv.kept" "$RESULTS/runs.tsv"
	fi
	writer io.github.qsbench.jmh.report.StudyPlan dry-run "$PLAN" "$RESULTS"
	$dry_run && exit 0
	mkdir -p "$RESULTS"
	jars=(target/queue-service-*.jar)
	cp "${jars[0]}" "$study/service.jar"
	load_client "$study"
	if [[ ! -f "$RESULTS/machine.txt" ]]; then
		{
			echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(uname -sr)"
			for v in 17 25; do echo "JDK $v: $("$(java_home $v)/bin/java" -version 2>&1 | head -1)"; done
			echo "Built from commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo ' with changes')"
		} >"$RESULTS/machine.txt"
	fi
	[[ -f "$RESULTS/runs.tsv" ]] || printf 'kind\tround\tstart\tend\tload\tlabel\n' >"$RESULTS/runs.tsv"
	trap stop_service EXIT INT TERM
	mapfile -t runs < <(writer io.github.qsbench.jmh.report.StudyPlan runs "$PLAN" "$RESULTS")
	total=${#runs[@]} done=0 began=$SECONDS
	# A resumed study may run on a newer build: the page names each build and what it measured.
	if ((total > 0)) && [[ -s "$RESULTS/runs.tsv" ]] && (($(wc -l <"$RESULTS/runs.tsv") > 1)); then
		echo "Resumed $(date -u +%Y-%m-%d) from commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo ' with changes'): its last $total runs ($(printf '%s\n' "${runs[@]}" | cut -f1 | sort -u | paste -sd/))" >>"$RESULTS/machine.txt"
	fi
	for line in "${runs[@]}"; do
		IFS=$'\t' read -r -a f <<<"$line"
		kind="${f[0]}" round="${f[1]}" label="${f[2]}" file="${f[3]}" java="$(java_home "${f[4]}")/bin/java"
		mkdir -p "$(dirname "$file")"
		log="$study/logs/${file#"$RESULTS"/}.log" # logs beside the build, results alone in RESULTS
		mkdir -p "$(dirname "$log")"
		start="$(date -u +%H:%M:%S)" load="$(cut -d' ' -f1 /proc/loadavg)"
		left=""
		((done > 0)) && left=", about $(((SECONDS - began) * (total - done) / done / 60)) min left"
		echo "== $((done + 1))/$total$left: $kind round $round, $label (load $load)"
		if [[ "$kind" == core ]]; then
			"$java" -cp "$cp" org.openjdk.jmh.Main 'io\.github\.qsbench\.jmh\.QueueServiceBenchmark\.Thrpt\.' \
				-p strategy="${f[5]}" -p eviction="${f[6]}" -tg "${f[7]}" -wi "${f[8]}" -w "${f[9]}" \
				-i "${f[10]}" -r "${f[11]}" -f 1 -foe true -jvm "$java" -jvmArgs "${f[12]}" \
				-rf json -rff "$file.part" >"$log" 2>&1 || { tail -20 "$log"; exit 1; }
		else
			# shellcheck disable=SC2086 # the plan's JVM options and arguments, word by word
			SERVICE_JAVA="$java" SERVICE_JAR="$study/service.jar" SERVICE_LOG="${log%.log}.service.log" \
				SERVICE_PROCESS_INFO=false start_service "${f[5]}" ${f[6]} -- ${f[7]} >/dev/null
			# shellcheck disable=SC2086
			"${CLIENT[@]}" --port "$PORT" --pid "$SERVICE_PID" --mode queue ${f[8]} --warmup "${f[9]}" \
				--seconds "${f[10]}" >"$file.part" 2>"$log" || { cat "$log" >&2; exit 1; }
			stop_service
		fi
		mv "$file.part" "$file"
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$round" "$start" "$(date -u +%H:%M:%S)" "$load" "$label" \
			>>"$RESULTS/runs.tsv"
		done=$((done + 1))
	done
fi

if $check; then
	expected="$(mktemp -d)"
	cp "$PAGE" "$expected/page.md"
	writer io.github.qsbench.jmh.report.FindingsPage "$PLAN" "$RESULTS" "$PAGE"
	if ! diff -u "$expected/page.md" "$PAGE"; then
		echo "study: $PAGE is not what $RESULTS gives (above: what the results give, with +)" >&2
		exit 1
	fi
	echo "study: $PAGE is what $RESULTS gives"
else
	writer io.github.qsbench.jmh.report.FindingsPage "$PLAN" "$RESULTS" "$PAGE"
fi
