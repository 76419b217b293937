#!/usr/bin/env bash
# Two strategies side by side: two services of the packaged jar on this machine at the same moment,
# one Gatling load spread evenly over both (QueueSimulation -DbaseUrls), so that whatever else the
# machine does weighs on both alike; then messages/s per service.
#
#   flock /tmp/qs-bench.lock scripts/side-by-side.sh STRATEGY_A STRATEGY_B [PRESET]
#   flock /tmp/qs-bench.lock scripts/side-by-side.sh synchronized concurrent-atomic 4-4
#   GATLING_ARGS="-Dconsumers=8 -Dproducers=8" scripts/side-by-side.sh synchronized concurrent-atomic
#
# The preset's users are split between the two (4-4 gives each service 2 consumers and 2
# producers; a preset with one consumer or producer needs GATLING_ARGS with even counts, as above
# for 4-4 on each). Each service gets its own queues and is checked on its own (nothing lost, queues
# empty). While it runs, the live page showing both is printed. Builds the jar when there is none
# (or BUILD=true); Gatling compiles the simulations itself.
#
# Environment: DURATION (counted window, s, default 20), RAMP (s before it, default 3), HEAP (each
# service's heap, default 512m), SERVICE_ARGS (application arguments for both, e.g.
# "--qs.lease-timeout=10m" for preset deep-inflight, "--spring.threads.virtual.enabled=true" with
# SERVICE_JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java for hot-queue), SERVICE_JAVA, GATLING_ARGS
# (more -D properties of QueueSimulation), BUILD, OUT (default target/side-by-side/<UTC time>).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
if [[ $# -lt 2 || $# -gt 3 ]]; then
	echo "usage: $0 STRATEGY_A STRATEGY_B [PRESET]" >&2
	exit 2
fi
STRATEGY_A="$1"
STRATEGY_B="$2"
PRESET="${3:-4-4}"
DURATION="${DURATION:-20}"
RAMP="${RAMP:-3}"
HEAP="${HEAP:-512m}"
OUT="${OUT:-$ROOT/target/side-by-side/$(date -u +%Y%m%dT%H%M%SZ)}"
read -r -a service_args <<<"${SERVICE_ARGS:-}"
read -r -a gatling_args <<<"${GATLING_ARGS:-}"

# shellcheck source=scripts/lib/service.sh
source "$ROOT/scripts/lib/service.sh"
jars=("$ROOT"/target/queue-service-*.jar)
if [[ "${BUILD:-}" == true || ! -f "${jars[0]}" ]]; then
	"$ROOT/mvnw" -B -q -DskipTests package
fi

# shellcheck disable=SC2317 # called by the trap
cleanup() {
	stop_service_as A
	stop_service_as B
}
trap cleanup EXIT
trap "exit 130" INT
trap "exit 143" TERM

mkdir -p "$OUT"
SERVICE_LOG="$OUT/service-a-$STRATEGY_A.log" start_service_as A "$STRATEGY_A" -Xms"$HEAP" -Xmx"$HEAP" -- "${service_args[@]}"
SERVICE_LOG="$OUT/service-b-$STRATEGY_B.log" start_service_as B "$STRATEGY_B" -Xms"$HEAP" -Xmx"$HEAP" -- "${service_args[@]}"
echo "live page: http://127.0.0.1:$A_PORT/?instances=http://127.0.0.1:$A_PORT,http://127.0.0.1:$B_PORT"

status=0
"$ROOT/mvnw" -B -q -f "$ROOT/gatling/pom.xml" gatling:test -Dpreset="$PRESET" -DbaseUrls="$A_BASE_URL,$B_BASE_URL" \
	-DrampSeconds="$RAMP" -DdurationSeconds="$DURATION" -DcountsFile="$OUT/counts.json" "${gatling_args[@]}" \
	>"$OUT/gatling.log" 2>&1 || status=$?
if [[ ! -f "$OUT/counts.json" ]]; then
	tail -n 40 "$OUT/gatling.log" >&2
	echo "side-by-side: Gatling wrote no counts (log $OUT/gatling.log)" >&2
	exit 1
fi
python3 - "$OUT/counts.json" <<'EOF'
import json, sys
run = json.load(open(sys.argv[1]))
window = run["windowSeconds"]
print(f"{run['preset']}, {window:.0f} s window after {run['rampSeconds']:.0f} s ramp:")
for i in run["instances"]:
    print(f"  {i['strategy']:<40} {i['baseUrl']:<24} {i['consumers']}-{i['producers']}"
          f"  {i['completedInWindow'] / window:>10,.0f} messages/s"
          f"  (duplicates {i['duplicates']}, nothing lost: {i['pushed'] == i.get('completedDistinct')})")
print(f"  {'total':<40} {'':<24} {run['consumers']}-{run['producers']}"
      f"  {run['completedInWindow'] / window:>10,.0f} messages/s")
EOF
if ((status != 0)); then
	grep -E "LOST|KO|failed" "$OUT/gatling.log" | head -n 20 >&2 || true
	echo "side-by-side: a check failed (log $OUT/gatling.log)" >&2
fi
echo "counts, Gatling's log and the services' logs in $OUT (report under gatling/target/gatling/)"
exit "$status"
