#!/usr/bin/env python3
"""Where a request thread's CPU goes, by layer, from a JFR recording's execution samples.

    jfr print --events jdk.ExecutionSample --stack-depth 256 rec.jfr > samples.txt
    python3 scripts/bench/jfr-layers.py samples.txt [--threads exec] [--top 25] [--between 02:05:06 02:05:28]

Only samples of threads whose name contains --threads (Tomcat's request workers,
http-nio-...-exec-N, by default) are counted, and with --between only those taken in that window
(HH:MM:SS, the recording's clock, inclusive), so one recording from start-up can serve several
load windows. Each frame gets a layer from its class. Tables:
- self by layer: the layer of the sample's top frame, where JDK frames (java., jdk., sun.) are
  charged to the nearest caller that is not JDK code (a HashMap.get that Spring calls is Spring's);
- total by layer: samples with at least one frame of that layer (layers nest, so these overlap);
- top methods by self (the top frame itself) and by total (a method anywhere on the stack, once
  per sample);
- with --focus, the share of samples whose stack holds a frame containing each given text (a
  subtree: "DispatcherServlet.doDispatch", "TypeDescriptor.annotationsMatch", ...).
"""
import argparse
import collections

from jfr_samples import samples

LAYERS = [
    ("our code: core", ("io.github.qsbench.core.",)),
    ("our code: web, application, metrics", ("io.github.qsbench.",)),
    ("observation, Micrometer", ("io.micrometer.", "io.prometheus.", "org.springframework.boot.micrometer.",
                                 "org.springframework.http.server.observation.",
                                 "org.springframework.web.filter.ServerHttpObservationFilter")),
    ("JSON (Jackson, converters)", ("tools.jackson.", "com.fasterxml.jackson.", "org.springframework.http.converter.")),
    ("Spring MVC dispatch, filters", ("org.springframework.",)),
    ("Tomcat", ("org.apache.",)),
    ("logging", ("ch.qos.logback.", "org.slf4j.", "org.apache.logging.")),
]
JDK = ("java.", "jdk.", "sun.", "com.sun.")


def layer(cls):
    for name, prefixes in LAYERS:
        if cls.startswith(prefixes):
            return name
    return "JDK" if cls.startswith(JDK) else "other"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("samples")
    parser.add_argument("--threads", default="-exec-")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--focus", nargs="*", default=[])
    parser.add_argument("--between", nargs=2, metavar=("START", "END"), help="HH:MM:SS HH:MM:SS")
    args = parser.parse_args()

    n = 0
    self_layer = collections.Counter()
    total_layer = collections.Counter()
    self_method = collections.Counter()
    total_method = collections.Counter()
    focus = collections.Counter()
    for _, frames in samples(args.samples, args.threads, args.between):
        names = [f"{c}.{m}" for c, m in frames]
        for text in args.focus:
            if any(text in name for name in names):
                focus[text] += 1
        n += 1
        top_cls, top_m = frames[0]
        self_method[f"{top_cls}.{top_m}"] += 1
        self_layer[next((layer(c) for c, _ in frames if not c.startswith(JDK)), "JDK")] += 1
        for name in {layer(c) for c, _ in frames}:
            total_layer[name] += 1
        for name in {f"{c}.{m}" for c, m in frames}:
            total_method[name] += 1
    if n == 0:
        print("no samples")
        return

    def table(title, counter, limit=None):
        print(f"\n{title}\n")
        print("| | samples | share |")
        print("|---|---:|---:|")
        for name, count in counter.most_common(limit):
            print(f"| `{name}` | {count} | {count / n:.1%} |")

    print(f"{n} execution samples of threads matching '{args.threads}'")
    table("Self, by layer (JDK frames charged to their caller)", self_layer)
    table("Total, by layer (a sample counts once for every layer on its stack)", total_layer)
    table(f"Top {args.top} methods by self", self_method, args.top)
    table(f"Top {args.top} methods by total", total_method, args.top)
    if args.focus:
        table("Subtrees (samples with such a frame on the stack)",
              collections.Counter({text: focus[text] for text in args.focus}))


if __name__ == "__main__":
    main()
