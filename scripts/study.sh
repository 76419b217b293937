#!/usr/bin/env bash
# The whole study of docs/findings.md in one command: the JMH part (scripts/jmh-study.sh, the fork
# as the unit, one result file per strategy, round and setup) and the end-to-end part
# (scripts/e2e-study.sh, every strategy in the same cells, an order shuffled per round with SEED,
# three rounds, JDK 17 on platform threads and JDK 25 on virtual threads), then the page's tables
# and charts (io.github.qsbench.jmh.report.Findings rewrites the generated blocks of the page).
#
#   flock /tmp/qs-bench.lock scripts/study.sh --quick    # about 20 minutes on 2 cores; wide intervals
#   flock /tmp/qs-bench.lock scripts/study.sh --standard # about 5.7 h: what docs/findings.md shows
#   flock /tmp/qs-bench.lock scripts/study.sh --full     # hours: --dry-run prints the estimate
#   scripts/study.sh --full --dry-run                    # the plan and its time, nothing run
#   OUT=docs/findings/data scripts/study.sh --standard --report-only   # the page again from its data
#   flock /tmp/qs-bench.lock scripts/study.sh --standard --curves # the warm-up curves instead (~85 min)
#
# Resume: the results go to OUT (default target/study/<mode>); run the same
# command again after an interruption and every result file already there is skipped (JMH: one file
# per round, JDK, setup and strategy; end to end: every run recorded ok). --fresh empties OUT first.
# Progress: every JMH run and every end-to-end run prints how many are done and the time left.
# The page's data: the files the page was written from (JMH JSON per round and strategy; the end-to-end
# figures.json, warmups.tsv, settings.json, runs.tsv; log.txt, seed) are copied to CHARTS/data, so
# that --report-only can write the page again from them, and a later run can add to them (copy them
# into an OUT and run again: whatever is there is skipped).
# Parts: the end-to-end runs go to OUT/E2E_PART (default e2e); the page pools every OUT/e2e*
# folder cell by cell, so cells can be added to a study later without measuring the others again:
#   E2E_PART=e2e-more E2E_CELLS="1-4/b1/w0/25-virtual" JMH_ROUNDS=0 scripts/study.sh --standard
# (JMH_ROUNDS=0 measures end to end alone; E2E_REPS=0 the core alone, for example another JDK:
# JMH_JDKS=17 JMH_SETUPS="1-1 4-4" E2E_REPS=0 scripts/study.sh --standard)
# (a part keeps its own plan, order.tsv, and settings: resuming it runs only what that plan has not
# done, and asked for another plan or settings it stops and says what differs). A cell
# that a part warmed longer (a higher E2E_WARMUP_MAX) measures again replaces the cell's runs of the
# parts warmed less, which the page lists as set aside: that is how cells get measured warm again.
#
# The strategies are the Strategy enum's (scripts/lib/service.sh `strategies`). --quick measures
# every strategy in the core but only E2E_QUICK_STRATEGIES end to end (default concurrent-atomic and
# synchronized: the thesis's headline question), since each strategy costs a service start per
# runtime and round (10 s on a quiet machine, 35-40 s at a load of 20). --standard measures every
# strategy in both, in three JMH rounds of the setups 1-1 and 4-4 on JDK 25 and, end to end, on
# both runtimes, 1-1, 4-1, 4-4, a hot queue and the workloads that separate strategies (10,000 in
# flight per queue, 10,000 queues, batches of 100); --full measures every strategy in every setup,
# JDK and workload.
#
# Warm-up curves (--curves, instead of the study, into OUT/curve-jmh and OUT/curve-e2e): how long the
# core and the service take to settle, measured with no stopping rule, from which the study's warm-up
# was chosen: JMH forks with no warm-up and CURVE_ITERATIONS (20) iterations of JMH_TIME, every
# strategy in CURVE_SETUPS (all four); service starts of CURVE_STRATEGIES warmed by CURVE_WINDOWS (10)
# windows each in CURVE_CELLS (4-4 on both runtimes); CURVE_ITERATIONS=0 leaves out the core's curve,
# CURVE_WINDOWS=0 the service's. The page shows them where OUT has them.
#
# Options: --quick | --standard | --full, --dry-run, --fresh, --report-only (nothing measured: the page
# from OUT), --curves.
# Environment: OUT, E2E_PART, SEED (default: the time, kept in OUT), PAGE (docs/findings.md; a page that does
# not exist starts as a copy of it), CHARTS (docs/findings), NOTE (added to the page's settings: say
# whether the machine was shared), E2E_QUICK_STRATEGIES, STUDY_STRATEGIES (a narrower study, to try
# the script out: these profiles only), and the settings below by name.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
# shellcheck source=lib/service.sh
source scripts/lib/service.sh

mode="" dry_run=false fresh=false report_only=false curves=false
for arg in "$@"; do
	case "$arg" in
		--quick) mode=quick ;;
		--standard) mode=standard ;;
		--full) mode=full ;;
		--dry-run) dry_run=true ;;
		--fresh) fresh=true ;;
		--curves) curves=true ;;
		--report-only) report_only=true ;;
		-h | --help) sed -n '2,30p' "$0"; exit 0 ;;
		*) echo "unknown option: $arg (--quick | --standard | --full, --dry-run, --fresh, --report-only, --curves)" >&2; exit 2 ;;
	esac
done
[[ -n "$mode" ]] || { echo "say --quick, --standard or --full" >&2; exit 2; }

if [[ "$mode" == quick || "$mode" == standard ]]; then
	if [[ "$mode" == quick ]]; then
		: "${JMH_ROUNDS:=1}" "${JMH_JDKS:=17}" "${JMH_WARMUPS:=1}" "${JMH_ITERATIONS:=3}" "${JMH_TIME:=200ms}"
	else
		: "${JMH_ROUNDS:=3}" "${JMH_JDKS:=25}" "${JMH_WARMUPS:=4}" "${JMH_ITERATIONS:=4}" "${JMH_TIME:=500ms}"
	fi
	: "${JMH_SETUPS:=1-1 4-4}" "${JMH_FORKS:=5}"
	# Warm-up: 3 s windows until two in a row agree within 10% in CPU per message. Measured here
	# (docs/findings.md, "Warm-up end to end"), a start settles after 4-5 such windows and the rule
	# first holds at 5-7; --quick stops at 3 to stay within 20 minutes, and says so.
	warmup_max=8
	[[ "$mode" == quick ]] && warmup_max=3
	: "${E2E_DURATION:=4}" "${E2E_RAMP:=2}" "${E2E_WARMUP:=3}" "${E2E_WARMUP_MAX:=$warmup_max}" "${E2E_FIRST_WARMUP:=10}"
	: "${E2E_QUICK_STRATEGIES:=concurrent-atomic synchronized}"
else
	: "${JMH_ROUNDS:=3}" "${JMH_JDKS:=17 25}" "${JMH_SETUPS:=1-1 4-1 1-4 4-4}" "${JMH_FORKS:=5}"
	: "${JMH_WARMUPS:=5}" "${JMH_ITERATIONS:=5}" "${JMH_TIME:=1s}"
	: "${E2E_DURATION:=15}" "${E2E_RAMP:=3}" "${E2E_WARMUP:=5}" "${E2E_WARMUP_MAX:=8}" "${E2E_FIRST_WARMUP:=20}"
fi
# The end-to-end cells: --quick the headline three; --standard the thesis's setups but 1-4 (whose
# drain makes its cell 40 s), the hot queue and the separating workloads on both runtimes; --full all.
if [[ "$mode" == quick ]]; then
	cells="4-4/b1/w0/17-platform 4-4/b1/w0/25-virtual hot-queue/b1/w2/25-virtual"
else
	thesis="1-1 4-1 4-4"
	[[ "$mode" == full ]] && thesis="1-1 4-1 1-4 4-4"
	cells=""
	for runtime in 17-platform 25-virtual; do
		for preset in $thesis deep-inflight many-queues; do cells+="$preset/b1/w0/$runtime "; done
		cells+="hot-queue/b1/w2/$runtime large-batches/b100/w0/$runtime "
	done
fi
: "${E2E_CELLS:=${cells% }}"
: "${E2E_REPS:=3}" "${E2E_PART:=e2e}" "${PAGE:=docs/findings.md}" "${CHARTS:=docs/findings}" "${NOTE:=}"
[[ "$E2E_PART" =~ ^e2e[a-z0-9-]*$ ]] || { echo "E2E_PART must be e2e or start with e2e- (the page reads OUT/e2e*)" >&2; exit 2; }
OUT="${OUT:-$ROOT/target/study/$mode}"

# the page's writer (Findings, run at the end) runs on the test classpath, written here
writer_classpath=(dependency:build-classpath -Dmdep.outputFile=target/jmh/classpath.txt -Dmdep.includeScope=test)
if $report_only; then # the page's writer as this tree has it, not a stale build's
	echo "== building the page's writer"
	./mvnw -B -q test-compile "${writer_classpath[@]}"
elif [[ ! -d target/classes/io ]] || ! $dry_run; then
	echo "== building the service and the simulations"
	./mvnw -B -q package -DskipTests -Djcstress.skip "${writer_classpath[@]}"
	./mvnw -B -q -f gatling/pom.xml test-compile \
		org.apache.maven.plugins:maven-dependency-plugin:3.10.0:build-classpath \
		-Dmdep.outputFile="$ROOT/gatling/target/classpath.txt" -Dmdep.includeScope=test
fi
all_strategies="$(strategies | xargs)"
if [[ -n "${STUDY_STRATEGIES:-}" ]]; then # a narrower study, for trying the script out
	for s in $STUDY_STRATEGIES; do
		[[ " $all_strategies " == *" $s "* ]] || { echo "no strategy '$s' in the enum: $all_strategies" >&2; exit 2; }
	done
	all_strategies="$STUDY_STRATEGIES"
fi
e2e_strategies="$all_strategies"
if [[ "$mode" == quick ]]; then
	e2e_strategies=""
	for s in $E2E_QUICK_STRATEGIES; do
		[[ " $all_strategies " == *" $s "* ]] || continue
		e2e_strategies+="$s "
	done
	e2e_strategies="${e2e_strategies% }"
fi
jmh_strategies="$(tr 'a-z-' 'A-Z_' <<<"$all_strategies")"

# The time each part takes, estimated as the parts themselves do (a JMH fork: start-up plus its
# iterations; an end-to-end run: ramp, window and checks; a service start: start-up and warm-up).
seconds_of() { case "$1" in *ms) awk -v ms="${1%ms}" 'BEGIN {print ms / 1000}' ;; *s) echo "${1%s}" ;; *) echo "$1" ;; esac; }
n_strategies=$(wc -w <<<"$all_strategies")
jmh_seconds=$(awk -v r="$JMH_ROUNDS" -v j="$(wc -w <<<"$JMH_JDKS")" -v s="$(wc -w <<<"$JMH_SETUPS")" \
	-v n="$n_strategies" -v f="$JMH_FORKS" -v i=$((JMH_WARMUPS + JMH_ITERATIONS)) -v t="$(seconds_of "$JMH_TIME")" \
	'BEGIN {printf "%d", r * j * s * n * f * (3 + i * t) + r * 30}')
n_e2e=$(wc -w <<<"$e2e_strategies")
# Measured here (2026-11-27, quiet): a separate-cells start (2 GB heap, 10,000-queue cap) takes 8 s
# more than a plain one; deep-inflight's 10 s ramp and its 10,000 leases per queue add 13 s to its
# cell, many-queues' 10,000 queues 2 s, 1-4's drain (four producers' backlog, one consumer) 30 s.
n_starts=0 n_separate=0
for key in $(tr ' ' '\n' <<<"$E2E_CELLS" | awk -F/ '{k = $4; if ($1 ~ /^(deep-inflight|many-queues|large-batches)$/) k = k "+separate"; print k}' | sort -u); do
	n_starts=$((n_starts + 1))
	if [[ "$key" == *+separate ]]; then n_separate=$((n_separate + 1)); fi
done
n_cells=$(wc -w <<<"$E2E_CELLS")
cells_seconds=$(tr ' ' '\n' <<<"$E2E_CELLS" | awk -F/ -v base=$((E2E_RAMP + E2E_DURATION + 4)) \
	'{s += base} $1 == "deep-inflight" {s += 13} $1 == "many-queues" {s += 2} $1 == "1-4" {s += 30} END {print s + 0}')
e2e_seconds=$(((E2E_REPS > 0) * E2E_FIRST_WARMUP + E2E_REPS * n_e2e * (n_starts * (8 + E2E_WARMUP_MAX * (E2E_WARMUP + 4) / 2) + n_separate * 8 + cells_seconds)))
: "${CURVE_SETUPS:=1-1 4-1 1-4 4-4}" "${CURVE_ITERATIONS:=20}" "${CURVE_WINDOWS:=10}"
: "${CURVE_STRATEGIES:=synchronized concurrent-atomic lane-adaptive}" "${CURVE_CELLS:=4-4/b1/w0/17-platform 4-4/b1/w0/25-virtual}"
if $curves; then # one round, no warm-up; one start per strategy and runtime, a fixed number of windows
	jmh_seconds=$(awk -v j="$(wc -w <<<"$JMH_JDKS")" -v s="$(wc -w <<<"$CURVE_SETUPS")" -v n="$n_strategies" \
		-v f="$JMH_FORKS" -v i="$CURVE_ITERATIONS" -v t="$(seconds_of "$JMH_TIME")" 'BEGIN {printf "%d", (i > 0) * (j * s * n * f * (3 + i * t) + 30)}')
	e2e_seconds=$(((CURVE_WINDOWS > 0) * (E2E_FIRST_WARMUP + $(wc -w <<<"$CURVE_STRATEGIES") * $(wc -w <<<"$CURVE_CELLS") * (8 + CURVE_WINDOWS * (E2E_WARMUP + 4) + E2E_RAMP + E2E_DURATION + 4))))
fi
total_minutes=$(((jmh_seconds + e2e_seconds + 59) / 60))
if $curves && ! $report_only; then
	echo "curves --$mode -> $OUT/curve-jmh, $OUT/curve-e2e: about $total_minutes min (JMH $(((jmh_seconds + 59) / 60)) min:" \
		"JDK [$JMH_JDKS] x setups [$CURVE_SETUPS] x $n_strategies strategies x $JMH_FORKS forks of 0+$CURVE_ITERATIONS x $JMH_TIME;" \
		"end to end $(((e2e_seconds + 59) / 60)) min: [$CURVE_STRATEGIES] x [$CURVE_CELLS], $CURVE_WINDOWS windows of ${E2E_WARMUP}s a start)"
fi
$report_only || $curves || echo "study --$mode -> $OUT: about $total_minutes min (JMH $(((jmh_seconds + 59) / 60)) min: $JMH_ROUNDS round(s) x JDK [$JMH_JDKS]" \
	"x setups [$JMH_SETUPS] x $n_strategies strategies x $JMH_FORKS forks of $JMH_WARMUPS+$JMH_ITERATIONS x $JMH_TIME;" \
	"end to end $(((e2e_seconds + 59) / 60)) min: $E2E_REPS rounds x $n_e2e strategies [$e2e_strategies] x $n_cells cells [$E2E_CELLS]," \
	"$n_starts service start(s) per strategy and round)"
if [[ "$mode" == quick ]]; then
	echo "--quick: few forks, short iterations, a few strategies end to end and a warm-up cut at 3 windows: its intervals are wide"
fi
$dry_run && exit 0

$fresh && ! $report_only && rm -rf "$OUT"
if ! $report_only; then
	mkdir -p "$OUT/jmh"
	if [[ ! -f "$OUT/seed" ]]; then echo "${SEED:-$(date +%s)}" >"$OUT/seed"; fi
	# the study's mode, which the page's settings name; curves into a study's OUT leave it
	if ! $curves || [[ ! -f "$OUT/mode" ]]; then echo "$mode" >"$OUT/mode"; fi
	SEED="$(cat "$OUT/seed")"
	started=$(date +%s)
fi
if $curves && ! $report_only; then
	if ((CURVE_ITERATIONS > 0)); then
		echo "== warm-up curve: the core"
		STUDY_AFTER_SECONDS=$e2e_seconds JMH_STUDY_NOTE="$NOTE" scripts/jmh-study.sh --per-strategy --resume \
			--jdks "$JMH_JDKS" --gcs parallel --setups "$CURVE_SETUPS" --forks "$JMH_FORKS" \
			--warmups 0 --iterations "$CURVE_ITERATIONS" --time "$JMH_TIME" \
			--thesis-completion none --strategies "$jmh_strategies" --results "$OUT/curve-jmh" --report none
	fi
	if ((CURVE_WINDOWS > 0)); then
		echo "== warm-up curve: end to end"
		OUT="$OUT/curve-e2e" STRATEGIES="$CURVE_STRATEGIES" FULL_STRATEGIES=all CELLS="$CURVE_CELLS" REPS=1 SEED="$SEED" \
			DURATION="$E2E_DURATION" RAMP="$E2E_RAMP" WARMUP="$E2E_WARMUP" WARMUP_MAX="$CURVE_WINDOWS" WARMUP_TOLERANCE=0 \
			FIRST_WARMUP="$E2E_FIRST_WARMUP" BUILD=false SUMMARY="" scripts/e2e-study.sh ||
			echo "some end-to-end runs failed: run the same command again to retry them" >&2
	fi
	# kept apart from the study's start and end lines, which the page's settings count
	echo "$(date -u -d "@$started" '+%Y-%m-%d %H:%M UTC') warm-up curves, $((($(date +%s) - started + 59) / 60)) min" >>"$OUT/log.txt"
	if [[ -z "$(ls -A "$OUT/jmh")" ]]; then # no study here: the page would lose its tables
		echo "curves in $OUT; no study there to write the page from (copy docs/findings/data into OUT first)"
		exit 0
	fi
elif ! $report_only; then
	echo "$(date -u '+%Y-%m-%d %H:%M UTC') start, load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/log.txt"
	# ---- JMH: one round after another, each a scripts/jmh-study.sh run that skips what is there
	for ((round = 1; round <= JMH_ROUNDS; round++)); do
		echo "== JMH round $round of $JMH_ROUNDS"
		after=$((jmh_seconds * (JMH_ROUNDS - round) / JMH_ROUNDS + e2e_seconds))
		STUDY_AFTER_SECONDS=$after JMH_STUDY_NOTE="$NOTE" scripts/jmh-study.sh --per-strategy --resume \
			--jdks "$JMH_JDKS" --gcs parallel --setups "$JMH_SETUPS" --forks "$JMH_FORKS" \
			--warmups "$JMH_WARMUPS" --iterations "$JMH_ITERATIONS" --time "$JMH_TIME" \
			--thesis-completion none --strategies "$jmh_strategies" \
			--results "$OUT/jmh/round-$round" --report none
	done

	# ---- end to end: the same cells for every strategy, shuffled per round (E2E_REPS=0: none,
	# the core alone, as JMH_ROUNDS=0 is end to end alone)
	if ((E2E_REPS > 0)); then
		echo "== end to end"
		# A part added later is shuffled with a seed of its own (the time, kept in its
		# settings.json): with the study's seed it would start the strategies in the same order as
		# the first part did.
		part_seed="$SEED"
		[[ "$E2E_PART" == e2e ]] || part_seed="$(date +%s)"
		OUT="$OUT/$E2E_PART" STRATEGIES="$e2e_strategies" FULL_STRATEGIES=all CELLS="$E2E_CELLS" REPS="$E2E_REPS" \
			SEED="$part_seed" DURATION="$E2E_DURATION" RAMP="$E2E_RAMP" WARMUP="$E2E_WARMUP" WARMUP_MAX="$E2E_WARMUP_MAX" \
			FIRST_WARMUP="$E2E_FIRST_WARMUP" BUILD=false SUMMARY="" STUDY_AFTER_SECONDS=30 \
			scripts/e2e-study.sh || echo "the end-to-end part did not finish (above: failed runs, which the same command runs again, or another plan or settings than OUT/$E2E_PART holds)" >&2
	fi
	minutes=$((($(date +%s) - started + 59) / 60))
	echo "$(date -u '+%Y-%m-%d %H:%M UTC') end after $minutes min, load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/log.txt"
fi

# ---- the page, from what OUT holds (of this run and of any before it into the same OUT)
[[ -f "$OUT/log.txt" && -f "$OUT/seed" ]] || { echo "no study in $OUT (no log.txt or seed)" >&2; exit 2; }
[[ -f "$OUT/mode" ]] && mode="$(cat "$OUT/mode")"
SEED="$(cat "$OUT/seed")"
first="$(grep -m1 ' start,' "$OUT/log.txt" | cut -d' ' -f1-3)"
last="$(grep ' end after' "$OUT/log.txt" | tail -1 | cut -d' ' -f1-3)"
measured=$(awk '/ end after / {for (i = 1; i <= NF; i++) if ($i == "after") m += $(i + 1)} END {print m + 0}' "$OUT/log.txt")
sessions=$(grep -c ' end after' "$OUT/log.txt" || true)
part_seeds="" # a part added later was shuffled with its own OUT's seed, kept in its settings.json
for part in "$OUT"/e2e*/; do
	seed="$(grep -o '"seed": [0-9]*' "$part/settings.json" 2>/dev/null | grep -o '[0-9]*$' || true)"
	if [[ -n "$seed" && "$seed" != "$SEED" ]]; then part_seeds+=", end-to-end part $(basename "$part") seed $seed"; fi
done
note="Run: \`scripts/study.sh --$mode\` (seed $SEED$part_seeds), $first to ${last:-(not ended)}, $measured min of measuring in $sessions invocation(s), on $(nproc) CPUs.${NOTE:+ $NOTE}"
case "$mode" in
	quick) note+=" A --quick run: few forks and rounds, so its intervals are wide." ;;
	standard) note+=" A --standard run: 4 s end-to-end windows, so the end-to-end intervals are wide." ;;
esac
cp="$ROOT/target/test-classes:$ROOT/target/classes:$(cat target/jmh/classpath.txt)"
if [[ ! -f "$PAGE" ]]; then # a page of its own: the findings page's text around the tables
	mkdir -p "$(dirname "$PAGE")"
	cp docs/findings.md "$PAGE"
fi
parts=() # every end-to-end part of the study, pooled cell by cell
for part in "$OUT"/e2e*/; do
	if [[ -f "$part/figures.json" ]]; then parts+=(--e2e "${part%/}"); fi
done
curve_args=() # the warm-up curves, where OUT has them
if [[ -d "$OUT/curve-jmh" ]]; then curve_args+=(--jmh-curve "$OUT/curve-jmh"); fi
if [[ -f "$OUT/curve-e2e/warmups.tsv" ]]; then curve_args+=(--e2e-curve "$OUT/curve-e2e"); fi
java -Djava.awt.headless=true -cp "$cp" io.github.qsbench.jmh.report.Findings --page "$PAGE" --charts "$CHARTS" \
	--jmh "$OUT/jmh" ${parts[@]+"${parts[@]}"} ${curve_args[@]+"${curve_args[@]}"} --note "$note"

# ---- the page's data beside its charts, unless the page was written from there: each file the page
# was written from, copied one by one so that a file that cannot be copied stops the study
data="$(realpath -m "$CHARTS/data")"
if [[ "$(realpath -m "$OUT")" != "$data" ]]; then
	rm -rf "$data"
	mkdir -p "$data"
	(
		cd "$OUT"
		{
			ls log.txt seed mode
			find jmh -type f \( -name '*.json' -o -name '*.md' \)
			if [[ -d curve-jmh ]]; then find curve-jmh -type f -name '*.json'; fi
			for f in curve-e2e/{warmups.tsv,settings.json,runs.tsv,order.tsv}; do
				if [[ -f "$f" ]]; then echo "$f"; fi
			done
			for part in e2e*/; do
				for f in figures.json warmups.tsv settings.json runs.tsv order.tsv; do
					if [[ -f "$part$f" ]]; then echo "$part$f"; fi
				done
			done
		} | while read -r f; do cp --parents "$f" "$data/"; done
	)
fi
echo "done: $PAGE, $CHARTS/ (its data in $data); results in $OUT"
