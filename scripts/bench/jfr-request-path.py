#!/usr/bin/env python3
"""Where a request's CPU goes on the REST fast path, by part of the path, from a JFR recording.

    jfr print --events jdk.ExecutionSample --stack-depth 256 rec.jfr > samples.txt
    jfr print --events jdk.CPUTimeSample --stack-depth 256 rec.jfr > cpu.txt    # JDK 25
    python3 scripts/bench/jfr-request-path.py samples.txt [--threads TEXT] [--top 15]

Each sample goes to one part: its stack is read from the top frame (the running one) down, and
the first frame that belongs to a part decides (a HashMap.get that the filter calls is the
filter's; a socket write under Tomcat's output buffer is the answer's writing; Jackson under the
filter is the answer's JSON). The parts, in the order a frame is checked against them:

- the syscalls (native socket write and read, epoll and eventfd): first, since a native frame
  is on top and the Java frames below it would claim it otherwise,
- the core (io.github.qsbench.core), metrics (Micrometer, Prometheus, the service's timers),
  the application layer (io.github.qsbench.application), JSON (Jackson),
- writing the answer (Tomcat's output buffers, the socket write), reading and parsing the
  request (the socket read, Tomcat's input buffer, header and URI parsing, mapping),
- the service's web code (io.github.qsbench.rest and .http: QueueFastPath on Tomcat before it,
  HotRouteHandler and SqsSelectorRoute on Jetty),
- the container's connector otherwise (Tomcat's poller, processor, valves, filter chain, sockets;
  Jetty's selector, channel and handlers; Jetty's utilities, such as its tries and buffer pools,
  are charged to the frame that called them),
- virtual-thread scheduling (Continuation, VirtualThread, ForkJoinPool), and the rest.

ExecutionSample sees only threads running Java code; kernel time (the syscalls themselves)
shows as the process's stime, so report it beside this table. jdk.CPUTimeSample (JDK 25,
experimental) samples by CPU time, kernel time in syscalls included, and charges it to the
Java frame that made the call.
"""
import argparse
import collections
import re

from jfr_samples import samples

WRITE = ("org.apache.catalina.connector.OutputBuffer", "org.apache.catalina.connector.CoyoteOutputStream",
         "org.apache.catalina.connector.CoyoteWriter", "org.apache.coyote.http11.Http11OutputBuffer",
         "org.apache.coyote.http11.filters.", "org.apache.coyote.Response",
         "org.apache.tomcat.util.net.SocketWrapperBase.write", "org.apache.tomcat.util.net.SocketWrapperBase.flush",
         "org.apache.tomcat.util.net.NioEndpoint$NioSocketWrapper.doWrite", "org.apache.tomcat.util.net.NioChannel.write",
         "org.apache.catalina.connector.Response.finishResponse", "org.apache.coyote.http11.Http11Processor.prepareResponse",
         "org.apache.coyote.AbstractProcessor.action",
         # Jetty 12
         "org.eclipse.jetty.http.HttpGenerator", "org.eclipse.jetty.io.WriteFlusher",
         "org.eclipse.jetty.io.SocketChannelEndPoint.flush", "org.eclipse.jetty.server.internal.HttpConnection$SendCallback",
         "org.eclipse.jetty.server.internal.HttpChannelState$ChannelResponse.write")
READ = ("org.apache.coyote.http11.Http11InputBuffer", "org.apache.tomcat.util.http.", "org.apache.tomcat.util.buf.",
        "org.apache.catalina.connector.CoyoteAdapter.postParseRequest", "org.apache.catalina.mapper.",
        "org.apache.tomcat.util.net.NioEndpoint$NioSocketWrapper.read",
        "org.apache.tomcat.util.net.NioEndpoint$NioSocketWrapper.fillReadBuffer",
        "org.apache.tomcat.util.net.NioChannel.read", "org.apache.catalina.connector.InputBuffer",
        "org.apache.catalina.connector.CoyoteInputStream", "org.apache.catalina.connector.Request.parse",
        # Jetty 12
        "org.eclipse.jetty.http.HttpParser", "org.eclipse.jetty.io.SocketChannelEndPoint.fill",
        "org.eclipse.jetty.server.internal.HttpConnection.fillRequestBuffer",
        "org.eclipse.jetty.server.internal.HttpConnection.parseRequestBuffer", "org.eclipse.jetty.http.HttpURI",
        "org.eclipse.jetty.http.HttpFields", "org.eclipse.jetty.io.Content")
PARTS = [
    # native frames first: with jdk.CPUTimeSample their samples are mostly the syscall's kernel time
    ("syscall: socket write (write0: TCP send, loopback delivery, waking the reader)",
     ("sun.nio.ch.SocketDispatcher.write", "sun.nio.ch.IOUtil.write", "sun.nio.ch.SocketChannelImpl.write")),
    ("syscall: socket read (read0)", ("sun.nio.ch.SocketDispatcher.read", "sun.nio.ch.IOUtil.read",
                                      "sun.nio.ch.SocketChannelImpl.read")),
    ("syscall: epoll and wake-ups (Tomcat's poller or Jetty's selector, eventfd)", ("sun.nio.ch.EPoll", "sun.nio.ch.EventFD",
                                                                "sun.nio.ch.IOUtil.drain")),
    ("core", ("io.github.qsbench.core.",)),
    ("metrics", ("io.micrometer.", "io.prometheus.", "io.github.qsbench.metrics.",
                 "io.github.qsbench.http.ServerRequestTimers", "io.github.qsbench.live.")),
    ("application layer", ("io.github.qsbench.application.",)),
    ("JSON (Jackson)", ("tools.jackson.", "com.fasterxml.jackson.")),
    ("writing the answer (the container, socket write)", WRITE),
    ("reading and parsing the request (the container, socket read)", READ),
    ("the filter and the service's web code", ("io.github.qsbench.",)),
    ("Spring", ("org.springframework.",)),
    ("the container's connector otherwise (Tomcat's poller, processor, valves, chain; Jetty's selector, "
     "channel, handlers)", ("org.apache.", "org.eclipse.jetty.server.", "org.eclipse.jetty.io.",
                             "org.eclipse.jetty.util.thread.")),
    ("virtual-thread scheduling", ("jdk.internal.vm.Continuation", "java.lang.VirtualThread",
                                   "java.util.concurrent.ForkJoin", "jdk.internal.misc.Unsafe.park",
                                   "jdk.internal.misc.Unsafe.unpark", "java.util.concurrent.locks.LockSupport")),
]


def part(frames):
    for cls, method in frames:
        name = f"{cls}.{method}"
        for label, prefixes in PARTS:
            if name.startswith(prefixes):
                return label
    return "other (JDK, JFR)"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("samples")
    parser.add_argument("--threads", default="")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    parts, threads, tops = collections.Counter(), collections.Counter(), collections.Counter()
    n = 0
    for thread, frames in samples(args.samples, args.threads):
        n += 1
        parts[part(frames)] += 1
        threads[re.sub(r"\d+", "N", thread) or "(virtual, unnamed)"] += 1
        tops[f"{frames[0][0]}.{frames[0][1]}"] += 1
    if n == 0:
        print("no samples")
        return
    print(f"{n} samples\n\n| part of the path | samples | share |\n|---|---:|---:|")
    for label, count in parts.most_common():
        print(f"| {label} | {count} | {count / n:.1%} |")
    print("\n| thread | samples |\n|---|---:|")
    for label, count in threads.most_common(8):
        print(f"| `{label}` | {count} |")
    print(f"\n| top frame (self) | samples |\n|---|---:|")
    for label, count in tops.most_common(args.top):
        print(f"| `{label}` | {count} |")


if __name__ == "__main__":
    main()
