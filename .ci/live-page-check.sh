#!/usr/bin/env bash
# Check of the live page (what .ci/run calls after the end-to-end check): the packaged service under
# a short load of push, poll and complete, its page (GET /) opened in headless Chromium (Debian's,
# driven by puppeteer-core from .ci/tools), which must receive data in every chart and name the
# strategy; a chart whose meter does not exist shows "not measured" and fails the check. Saves a
# screenshot taken under the load. Then the queue browser below the charts: a queue listed with its
# counts, a message browsed, a purge that asks first (dismissed: nothing goes; accepted: 0 left);
# screenshot browser.png (docs/queue-browser.png is a copy). Then the Compare section: a comparison of
# concurrent-atomic and lane-adaptive started from the page with the shortest settings (two child
# JVMs of the packaged jar), which must finish with both ranked and a verdict each; screenshot
# compare.png (docs/compare.png is a copy).
# Environment: LIVE_STRATEGY (default concurrent-atomic), LIVE_LOAD_SECONDS (default 30, bounds the
# load; the page is checked while it runs), LIVE_OUT (default target/live-page-check).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
source scripts/lib/service.sh
STRATEGY="${LIVE_STRATEGY:-concurrent-atomic}"
LOAD_SECONDS="${LIVE_LOAD_SECONDS:-30}"
OUT="${LIVE_OUT:-$ROOT/target/live-page-check}"
LOAD_PID=""
mkdir -p "$OUT"

cleanup() {
	if [[ -n "$LOAD_PID" ]]; then
		kill "$LOAD_PID" 2>/dev/null || true
		wait "$LOAD_PID" 2>/dev/null || true
	fi
	stop_service
}
trap cleanup EXIT INT TERM

step() { echo "== live page: $*"; }

if ! command -v chromium >/dev/null; then
	step "installing chromium from Debian's package"
	if [[ "$(id -u)" != 0 ]]; then
		echo "chromium is missing: apt-get install chromium (as root)" >&2
		exit 1
	fi
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
chromium --version 2>/dev/null | head -1

(cd .ci/tools && npm ci --no-audit --no-fund --loglevel=error)
if ! compgen -G "target/queue-service-*.jar" >/dev/null; then
	step "packaging the service"
	./mvnw -B -q package -DskipTests
fi

SERVICE_LOG="$OUT/service.log" start_service "$STRATEGY"

step "load: 4 clients pushing, polling and completing for at most $LOAD_SECONDS s"
python3 - "$PORT" "$LOAD_SECONDS" >"$OUT/load.log" 2>&1 <<'PY' &
import http.client, json, sys, threading, time
port, seconds = int(sys.argv[1]), float(sys.argv[2])
end = time.monotonic() + seconds
counts = [0] * 4

def client(n):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    def call(method, path, body=None):
        conn.request(method, path, body=body, headers={"Content-Type": "text/plain"} if body else {})
        response = conn.getresponse()
        return response.status, response.read()
    while time.monotonic() < end:
        queue = f"/queues/live-{n % 2}/messages"
        status, body = call("POST", queue, f"message {counts[n]}")
        if status != 201:
            raise SystemExit(f"push answered {status}: {body}")
        status, body = call("GET", queue)
        if status == 200:
            message = json.loads(body)
            status, _ = call("DELETE", f"{queue}/{message['id']}")
            if status not in (204, 404):
                raise SystemExit(f"complete answered {status}")
        counts[n] += 1

threads = [threading.Thread(target=client, args=(n,)) for n in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(f"round trips: {sum(counts)}")
PY
LOAD_PID=$!

step "opening $BASE_URL/ in headless chromium"
node .ci/tools/live-page-check.mjs "$BASE_URL/" "$STRATEGY" "$OUT/live-page.png" 3 $((LOAD_SECONDS - 5)) \
	"$OUT/browser.png" "$OUT/compare.png"
wait "$LOAD_PID"
LOAD_PID=""
cat "$OUT/load.log"
step "passed; screenshots: $OUT/live-page.png (under load), $OUT/browser.png (the queue browser), $OUT/compare.png (a comparison)"
