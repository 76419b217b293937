#!/usr/bin/env python3
"""Summary table of an end-to-end study run (scripts/e2e-study.sh) as Markdown on stdout.

Reads, per run, the counts the simulation wrote (<strategy>-<preset>.json, ceiling-<preset>.json)
and the response-time percentiles of Gatling's own HTML report (report-*/index.html).

    python3 scripts/e2e-summary.py target/e2e-study/<time> --strategies synchronized ... --presets 1-1 4-4
"""
import argparse
import html
import json
import os
import platform
import re
import subprocess
import sys

ROW = re.compile(r'<tr id="[^"]*"[^>]*>(.*?)</tr>', re.S)
NAME = re.compile(r'class="ellipsed-name">([^<]*)</span>')
CELL = re.compile(r'<td class="value [a-z]+ col-(\d+)">([^<]*)</td>')
# Columns of Gatling's statistics table: 2 total, 3 OK, 4 KO, 8 p50, 10 p95, 11 p99 (gatling.conf
# sets percentile1..4 to 50, 75, 95, 99).
COLUMNS = {"total": 2, "ko": 4, "p50": 8, "p95": 10, "p99": 11}


def report_stats(report_dir):
    """{request name: {total, ko, p50, p95, p99}} from a Gatling report's statistics table."""
    path = os.path.join(report_dir, "index.html")
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        page = f.read()
    stats = {}
    for row in ROW.findall(page):
        name = NAME.search(row)
        if not name:
            continue
        cells = {int(col): value for col, value in CELL.findall(row)}
        stats[html.unescape(name.group(1))] = {
            key: cells.get(col, "-") for key, col in COLUMNS.items()
        }
    return stats


def load(path):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def cpu_per_request(out, name, stats):
    """The service's CPU time over the run (<name>.cpu: utime + stime in clock ticks before and
    after) divided by the requests Gatling made in it (all of them, warm-up of the run, drain
    and checks included), in microseconds."""
    path = os.path.join(out, f"{name}.cpu")
    total = stats.get("All Requests", {}).get("total", "-")
    if not os.path.exists(path) or not str(total).replace(",", "").isdigit():
        return None
    with open(path, encoding="utf-8") as f:
        ticks = [int(line) for line in f.read().split()]
    if len(ticks) != 2:
        return None
    ticks_per_second = os.sysconf("SC_CLK_TCK")
    return (ticks[1] - ticks[0]) / ticks_per_second * 1e6 / int(str(total).replace(",", ""))


def cpu(value):
    return f"{value:,.0f}" if value is not None else "-"


def latency(stats, name):
    s = stats.get(name)
    return f"{s['p50']} / {s['p95']} / {s['p99']}" if s else "-"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--strategies", nargs="+", required=True)
    parser.add_argument("--presets", nargs="+", required=True)
    parser.add_argument("--baseline", help="the baseline jar, when the run measured one too (BASELINE_JAR)")
    args = parser.parse_args()
    builds = [""] + (["@baseline"] if args.baseline else [])
    out = args.out

    def text(name):
        path = os.path.join(out, name)
        return open(path).read().strip() if os.path.exists(path) else "?"

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    print(f"# End-to-end study: {os.path.basename(os.path.normpath(out))}")
    print()
    print(f"- commit {commit or '?'}, {java}, {platform.system()} {platform.release()}, "
          f"{os.cpu_count()} CPUs")
    print(f"- load average (1, 5, 15 min) at start: {' '.join(text('loadavg-start').split()[:3])}; "
          f"at end: {' '.join(text('loadavg-end').split()[:3])}")
    print("- Gatling and the service share these CPUs (and the machine is shared with other work): "
          "absolute numbers are a floor; compare the ratios within one run.")
    print("- Each strategy ran on a fresh service (`-Xms512m -Xmx512m`) after an unrecorded warm-up; "
          "presets are consumers-producers; every run is closed-loop (each virtual user waits for "
          "its answer), unthrottled unless a rate is shown.")
    print("- cycles/s: completes answered 204 inside the load window / window; req/s: push, poll and "
          "complete requests answered inside the window / window; of ceiling: req/s divided by the "
          "no-op request's req/s at the same number of users. Latencies (ms, Gatling's report, whole "
          "run) are p50 / p95 / p99. Errors: failed requests (KO) including the nothing-lost checks.")
    print("- CPU µs/req: the service's CPU time (utime + stime of its process) during the run divided "
          "by the requests the run made (drain and checks included): what a request costs the server, "
          "whatever Gatling costs.")
    if args.baseline:
        print(f"- `@baseline` rows: the same runs against `{args.baseline}` in this run (its ceiling "
              "too); of baseline CPU: CPU µs/req over the baseline's in the same strategy and preset.")
    print()

    ceilings = {}
    paths = {load(os.path.join(out, f"ceiling-{p}.json")) and load(os.path.join(out, f"ceiling-{p}.json")).get("path")
             for p in args.presets} - {None}
    print(f"## Ceiling: a no-op request (`GET {', '.join(sorted(paths)) or '?'}`) at the same number of users")
    print()
    print("| build | preset | users | req/s | CPU µs/req | p50 / p95 / p99 ms | errors |")
    print("|---|---|---:|---:|---:|---|---:|")
    for build in builds:
        for preset in args.presets:
            counts = load(os.path.join(out, f"ceiling{build}-{preset}.json"))
            stats = report_stats(os.path.join(out, f"report-ceiling{build}-{preset}"))
            if not counts:
                print(f"| {build or 'this'} | {preset} | - | missing | - | - | - |")
                continue
            rps = counts["requestsInWindow"] / counts["windowSeconds"]
            ceilings[build, preset] = rps
            ko = stats.get("All Requests", {}).get("ko", "-")
            print(f"| {build or 'this'} | {preset} | {counts['users']} | {rps:,.0f} "
                  f"| {cpu(cpu_per_request(out, f'ceiling{build}-{preset}', stats))} | {latency(stats, 'no-op')} | {ko} |")
    print()

    print("## Per strategy")
    print()
    print("| strategy | preset | cycles/s | req/s | of ceiling | CPU µs/req | "
          + ("of baseline CPU | " if args.baseline else "")
          + "push p50/p95/p99 | poll p50/p95/p99 "
          "| complete p50/p95/p99 | empty polls | errors | duplicates | nothing lost (pushed) |")
    print("|---|---|---:|---:|---:|---:|" + ("---:|" if args.baseline else "") + "---|---|---|---:|---:|---:|---|")
    failed = False
    for strategy, build in [(s, b) for s in args.strategies for b in builds]:
        for preset in args.presets:
            counts = load(os.path.join(out, f"{strategy}{build}-{preset}.json"))
            stats = report_stats(os.path.join(out, f"report-{strategy}{build}-{preset}"))
            if not counts:
                print(f"| {strategy}{build} | {preset} | missing | | | | | | | | | |")
                failed = True
                continue
            window = counts["windowSeconds"]
            cycles = counts["completedInWindow"] / window
            rps = counts["requestsInWindow"] / window
            fraction = f"{rps / ceilings[build, preset]:.2f}" if (build, preset) in ceilings else "-"
            per_request = cpu_per_request(out, f"{strategy}{build}-{preset}", stats)
            versus = ""
            if args.baseline:
                base_stats = report_stats(os.path.join(out, f"report-{strategy}@baseline-{preset}"))
                base = cpu_per_request(out, f"{strategy}@baseline-{preset}", base_stats)
                versus = (f"{per_request / base:.2f} | " if per_request is not None and base else "- | ")
            ko = stats.get("All Requests", {}).get("ko", "?")
            lossless = (counts["pushed"] == counts.get("completedDistinct")
                        and counts.get("serverPushed") == counts["pushed"]
                        and counts.get("serverCompleted") == counts["completed"])
            failed |= not lossless or ko not in ("0", 0)
            same = f"yes ({counts['pushed']:,})" if lossless else \
                f"NO: pushed {counts['pushed']}, completed {counts.get('completedDistinct')}"
            print(f"| {strategy}{build} | {preset} | {cycles:,.0f} | {rps:,.0f} | {fraction} "
                  f"| {cpu(per_request)} | {versus}{latency(stats, 'push')} | {latency(stats, 'poll')} | {latency(stats, 'complete')} "
                  f"| {counts['emptyPolls']:,} | {ko} | {counts['duplicates']} | {same} |")
    print()
    print("## Ranking by cycles/s")
    print()
    for preset in args.presets:
        ranked = []
        for strategy in args.strategies:
            counts = load(os.path.join(out, f"{strategy}-{preset}.json"))
            if counts:
                ranked.append((counts["completedInWindow"] / counts["windowSeconds"], strategy))
        ranked.sort(reverse=True)
        if ranked:
            best = ranked[0][0] or 1
            line = ", ".join(f"{s} {c:,.0f} ({c / best:.0%})" for c, s in ranked)
            print(f"- {preset}: {line}")
    print()
    print("Gatling's HTML reports: `report-<strategy>-<preset>/index.html` and "
          "`report-ceiling-<preset>/index.html` in the study's output folder.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
