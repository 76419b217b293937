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


def latency(stats, name):
    s = stats.get(name)
    return f"{s['p50']} / {s['p95']} / {s['p99']}" if s else "-"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--strategies", nargs="+", required=True)
    parser.add_argument("--presets", nargs="+", required=True)
    args = parser.parse_args()
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
    print()

    ceilings = {}
    paths = {load(os.path.join(out, f"ceiling-{p}.json")) and load(os.path.join(out, f"ceiling-{p}.json")).get("path")
             for p in args.presets} - {None}
    print(f"## Ceiling: a no-op request (`GET {', '.join(sorted(paths)) or '?'}`) at the same number of users")
    print()
    print("| preset | users | req/s | p50 / p95 / p99 ms | errors |")
    print("|---|---:|---:|---|---:|")
    for preset in args.presets:
        counts = load(os.path.join(out, f"ceiling-{preset}.json"))
        stats = report_stats(os.path.join(out, f"report-ceiling-{preset}"))
        if not counts:
            print(f"| {preset} | - | missing | - | - |")
            continue
        rps = counts["requestsInWindow"] / counts["windowSeconds"]
        ceilings[preset] = rps
        ko = stats.get("All Requests", {}).get("ko", "-")
        print(f"| {preset} | {counts['users']} | {rps:,.0f} | {latency(stats, 'no-op')} | {ko} |")
    print()

    print("## Per strategy")
    print()
    print("| strategy | preset | cycles/s | req/s | of ceiling | push p50/p95/p99 | poll p50/p95/p99 "
          "| complete p50/p95/p99 | empty polls | errors | duplicates | nothing lost (pushed) |")
    print("|---|---|---:|---:|---:|---|---|---|---:|---:|---:|---|")
    failed = False
    for strategy in args.strategies:
        for preset in args.presets:
            counts = load(os.path.join(out, f"{strategy}-{preset}.json"))
            stats = report_stats(os.path.join(out, f"report-{strategy}-{preset}"))
            if not counts:
                print(f"| {strategy} | {preset} | missing | | | | | | | | | |")
                failed = True
                continue
            window = counts["windowSeconds"]
            cycles = counts["completedInWindow"] / window
            rps = counts["requestsInWindow"] / window
            fraction = f"{rps / ceilings[preset]:.2f}" if preset in ceilings else "-"
            ko = stats.get("All Requests", {}).get("ko", "?")
            lossless = (counts["pushed"] == counts.get("completedDistinct")
                        and counts.get("serverPushed") == counts["pushed"]
                        and counts.get("serverCompleted") == counts["completed"])
            failed |= not lossless or ko not in ("0", 0)
            same = f"yes ({counts['pushed']:,})" if lossless else \
                f"NO: pushed {counts['pushed']}, completed {counts.get('completedDistinct')}"
            print(f"| {strategy} | {preset} | {cycles:,.0f} | {rps:,.0f} | {fraction} "
                  f"| {latency(stats, 'push')} | {latency(stats, 'poll')} | {latency(stats, 'complete')} "
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
