#!/usr/bin/env bash
# What an open connection costs the service's heap: idle kept-alive connections (one request
# answered, then silent) and connections trickling request headers (a first header byte, then
# nothing), N of each kind in turn, the heap used after a full GC before and while they are open.
# See docs/configuration.md, "Connections".
#
#   flock /tmp/qs-bench.lock scripts/bench/connection-memory.sh
#   N=5000 scripts/bench/connection-memory.sh --server.tomcat.max-connections=12000
#
# Arguments: application arguments for the service
# (target/queue-service-*.jar or SERVICE_JAR, started with SERVICE_JAVA through scripts/lib/service.sh).
# Environment: N (3000; mind ulimit -n), HEAP (512m), OUT.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# shellcheck source=../lib/service.sh
source "$ROOT/scripts/lib/service.sh"
N="${N:-3000}"
HEAP="${HEAP:-512m}"
# a loaded 2-core machine can take a minute to start the service
export SERVICE_START_SECONDS="${SERVICE_START_SECONDS:-240}"
OUT="${OUT:-$ROOT/target/connection-memory/$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$OUT"
trap stop_service EXIT INT TERM
SERVICE_LOG="$OUT/service.log" start_service "" "-Xms$HEAP" "-Xmx$HEAP" -- \
	--qs.http.request-header-timeout=60s --server.tomcat.connection-timeout=60s --server.tomcat.keep-alive-timeout=60s "$@"
echo "connection memory: $N connections of each kind | $("${SERVICE_JAVA:-java}" -version 2>&1 | head -1) -Xmx$HEAP $* | $(date -u +%FT%TZ)"
python3 - "$PORT" "$SERVICE_PID" "$N" <<-'EOF'
	import re, socket, subprocess, sys, time
	port, pid, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
	def heap_after_gc():
	    subprocess.run(["jcmd", pid, "GC.run"], capture_output=True, check=True)
	    info = subprocess.run(["jcmd", pid, "GC.heap_info"], capture_output=True, text=True, check=True).stdout
	    return int(re.search(r"used (\d+)K", info).group(1)) * 1024
	def measure(kind, open_one):
	    before = heap_after_gc()
	    sockets = [open_one() for _ in range(n)]
	    time.sleep(2)
	    during = heap_after_gc()
	    alive = 0
	    for s in sockets:
	        s.setblocking(False)
	        try:
	            alive += 1 if s.recv(1) else 0
	        except BlockingIOError:
	            alive += 1
	        except OSError:
	            pass
	    for s in sockets:
	        s.close()
	    time.sleep(2)
	    print(f"{kind:<9} {n} open ({alive} still open when measured): heap after GC {before / 2**20:.1f} -> "
	          f"{during / 2**20:.1f} MiB, {(during - before) / n / 1024:.1f} KiB per connection")
	def idle():
	    s = socket.create_connection(("127.0.0.1", port))
	    s.sendall(b"GET /queues HTTP/1.1\r\nHost: x\r\n\r\n")
	    data = b""
	    while b"\r\n\r\n" not in data:
	        data += s.recv(4096)
	    return s
	def trickling():
	    s = socket.create_connection(("127.0.0.1", port))
	    s.sendall(b"G")
	    return s
	measure("idle", idle)
	measure("trickling", trickling)
EOF
