#!/usr/bin/env python3
"""Summary of an end-to-end study run (scripts/e2e-study.sh) as Markdown on stdout.

Reads the study's manifest (runs.tsv: one line per run with its build (this or the baseline), strategy,
preset, batch size, long polling, runtime and the service's CPU ticks around it), the counts each simulation wrote
(runs/<id>.json) and the latency percentiles of Gatling's own HTML report (runs/<id>/*/index.html).
Writes figures.json beside the manifest (the numbers StudyCharts draws, one PNG per preset).

    python3 scripts/e2e-summary.py target/e2e-study/<time> [--charts RELATIVE_DIR] [--jmh docs/jmh-study/REPORT.md]
"""
import argparse
import csv
import glob
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
THESIS_PRESETS = ("1-1", "4-1", "1-4", "4-4")
# The JMH study's names (docs/jmh-study/REPORT.md abbreviates them) of the thesis's profiles.
JMH_NAMES = {"synchronized": "S", "read-write-lock": "RWL", "concurrent-pojo": "CP", "concurrent-atomic": "CA"}


def report_stats(run_dir):
    """{request name: {total, ko, p50, p95, p99}} from the statistics table of a run's Gatling report."""
    pages = sorted(glob.glob(os.path.join(run_dir, "*", "index.html")))
    if not pages:
        return {}
    with open(pages[-1], encoding="utf-8") as f:
        page = f.read()
    stats = {}
    for row in ROW.findall(page):
        name = NAME.search(row)
        if not name:
            continue
        cells = {int(col): value for col, value in CELL.findall(row)}
        stats[html.unescape(name.group(1))] = {key: cells.get(col, "-") for key, col in COLUMNS.items()}
    return stats


def ko_statuses(run_dir):
    """The HTTP statuses failed checks found in a run ("found 429"), from Gatling's simulation.log
    (binary since Gatling 3.12, its strings readable): which kinds of failure, not how many."""
    logs = sorted(glob.glob(os.path.join(run_dir, "*", "simulation.log")))
    if not logs:
        return set()
    with open(logs[-1], "rb") as f:
        return {int(code) for code in re.findall(rb"found (\d{3})", f.read())}


def capped(stats, run_dir):
    """True when the run's only failed requests are pushes answered 429: producers outran the
    consumers until a cap of qs.limits refused them (a load the preset did not mean to cap)."""
    failed = {name for name, s in stats.items() if name != "All Requests" and s.get("ko") not in ("0", 0, "-")}
    return failed == {"push"} and ko_statuses(run_dir) == {429}


def load(path):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def variant(run):
    """How a run differs from single messages on JDK 17 platform threads, e.g. 'batch 100, 25-virtual'."""
    batch = int(run["batch"])
    wait = int(run["wait"])
    parts = ["single" if batch == 1 else f"batch {batch}"]
    if wait > 0:
        parts.append(f"long poll {wait} s")
    parts.append(run["runtime"])
    return ", ".join(parts)


def latency(stats, name):
    s = stats.get(name)
    return f"{s['p50']} / {s['p99']}" if s else "-"


def number(value, digits=0):
    return "n/a" if value is None else f"{value:,.{digits}f}"


def total_requests(stats):
    total = str(stats.get("All Requests", {}).get("total", "-")).replace(",", "")
    return int(total) if total.isdigit() else None


def cpu_per_request(run, stats, clk_tck):
    """The service's CPU time around the run (/proc, utime + stime) over every request the run made
    (ramp, drain and checks included), in microseconds: what a request costs the server."""
    requests = total_requests(stats)
    if not run.get("cpu_ticks") or not requests:
        return None
    return int(run["cpu_ticks"]) / clk_tck * 1e6 / requests


def figures(run, counts, stats, clk_tck):
    """The run's figures; None where not measured."""
    window = counts["windowSeconds"]
    completed = counts["completed"]
    cpu = counts.get("serverCpuSeconds")
    cpu_source = "metric"
    if cpu is None and run.get("cpu_ticks"):
        cpu = int(run["cpu_ticks"]) / clk_tck
        cpu_source = "/proc"
    contention = counts.get("contentionSeconds")
    ko = stats.get("All Requests", {}).get("ko", "?")
    lossless = (counts["pushed"] == counts.get("completedDistinct")
                and counts.get("serverPushed") == counts["pushed"]
                and counts.get("serverCompleted") == completed
                and counts.get("completesUnexpected", 0) == 0
                and counts.get("refusedDeliveredOnce", 0) == 0)
    return {
        "preset": run["preset"],
        "variant": variant(run),
        "strategy": run["strategy"],
        "messagesPerSecond": counts["completedInWindow"] / window,
        "deliveredPerSecond": counts.get("deliveredInWindow", 0) / window,
        "requestsPerSecond": counts["requestsInWindow"] / window,
        "cpuMicrosPerMessage": (1e6 * cpu / completed) if cpu is not None and completed else None,
        "cpuMicrosPerRequest": cpu_per_request(run, stats, clk_tck),
        "cpuSource": cpu_source if cpu is not None else None,
        "contentionPerSecond": (contention / window) if contention is not None else None,
        "p50": {k: stats.get(k, {}).get("p50") for k in ("push", "poll", "complete")},
        "p99": {k: stats.get(k, {}).get("p99") for k in ("push", "poll", "complete")},
        "ok": run["status"] == "ok" and lossless and ko in ("0", 0) and counts["pushed"] > 0,
        "capped": False,
        "lossless": lossless,
        "ko": ko,
    }


def jmh_rankings(path):
    """{setup: ranking} from the JMH report's summary table, column 'JDK 17 Parallel' (the study's JDK)."""
    if not path or not os.path.exists(path):
        return {}, None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("## Summary", 1)[-1].splitlines()
    header, rankings = None, {}
    for line in lines:
        if not line.startswith("|"):
            if header and rankings:
                break
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if header is None:
            header = cells
            continue
        setup = cells[0].split()[-1]
        if setup in THESIS_PRESETS:
            column = next((i for i, h in enumerate(header) if h.startswith("JDK 17")), None)
            if column is not None and column < len(cells):
                rankings[setup] = cells[column]
    column_name = next((h for h in (header or []) if h.startswith("JDK 17")), None)
    return rankings, column_name


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--charts", default="charts",
                        help="where the PNGs are, relative to the summary's own location")
    parser.add_argument("--jmh", default=os.path.join(os.path.dirname(__file__), "..", "docs", "jmh-study",
                                                      "REPORT.md"))
    args = parser.parse_args()
    out = args.out

    def text(name):
        path = os.path.join(out, name)
        return open(path).read().strip() if os.path.exists(path) else "?"

    settings = load(os.path.join(out, "settings.json")) or {}
    with open(os.path.join(out, "runs.tsv"), encoding="utf-8") as f:
        runs = list(csv.DictReader(f, delimiter="\t"))
    for run in runs:
        run.setdefault("build", "this")
        run["label"] = run["strategy"] + ("@baseline" if run["build"] == "baseline" else "")
    clk_tck = int(settings.get("clkTck", 100))

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(f"# End-to-end study: {os.path.basename(os.path.normpath(out))}")
    print()
    print(f"- commit {commit or '?'}, {platform.system()} {platform.release()}, {os.cpu_count()} CPUs; "
          f"service `{settings.get('serviceJvm', '?')}`; Gatling on `{settings.get('gatlingJava', '?')}`")
    for runtime, version in sorted(settings.get("runtimes", {}).items()):
        print(f"- runtime `{runtime}`: {version}")
    print(f"- load average (1, 5, 15 min) at start: {' '.join(text('loadavg-start').split()[:3])}; "
          f"at end: {' '.join(text('loadavg-end').split()[:3])}")
    print(f"- {settings.get('duration', '?')} s counted load window per run after a {settings.get('ramp', 0)} s "
          f"ramp, {settings.get('warmup', '?')} s unrecorded "
          f"warm-up per service; preset `backpressure` against a service capped at "
          f"`qs.limits.max-total-bytes={settings.get('backpressureBytes', '?')}`; matrix: {settings.get('matrix', '?')}")
    print("- Gatling and the service share these CPUs (and the machine may be shared with other work): "
          "absolute numbers are a floor; compare within one run. One run per cell, no repetitions.")
    print("- **messages/s**: messages completed (204) inside the load window / window; **delivered/s** the same "
          "for deliveries. **CPU µs/msg**: the service's process CPU time (user + system, all threads: "
          "requests, GC, JIT) from the baseline before the load to the check after the drain, divided by the "
          "messages completed in that time (every message pushed in the run). **CPU µs/req**: the service's "
          "CPU time around the run (`/proc/<pid>/stat`) over every request the run made (Gatling's total, "
          "ramp, drain and checks included). **of ceiling**: requests/s inside the window over the no-op "
          "request's at the same preset and build. **contention s/s**: "
          "`qs_contention_seconds_total` moved inside the window / window (seconds request threads "
          "waited on the core's locks per second of load), n/a where the service does not export it. **p50 / p99**: "
          "milliseconds, Gatling's report, whole run, one request (a batch is one request). **lost**: every "
          "pushed message completed, the service's counters agree, and no completion refused except for a "
          "message delivered twice.")
    if settings.get("baselineJar"):
        print(f"- `@baseline` rows: the same cells against an older build, `{settings['baselineJar']}`, "
              "in this run (its ceiling too); they are left out of the rankings and pictures.")
    print()

    ceilings = {}
    ceiling_runs = [r for r in runs if r["strategy"] == "ceiling"]
    if ceiling_runs:
        print("## Ceiling: a request that touches no queue (`GET /actuator/info`) at the same number of users")
        print()
        print("| build | preset | users | req/s | CPU µs/req | p50 / p99 ms | errors |")
        print("|---|---|---:|---:|---:|---|---:|")
        for run in ceiling_runs:
            counts = load(os.path.join(out, "runs", run["id"] + ".json"))
            stats = report_stats(os.path.join(out, "runs", run["id"]))
            if not counts:
                print(f"| {run['build']} | {run['preset']} | - | missing | - | - | - |")
                continue
            rps = counts["requestsInWindow"] / counts["windowSeconds"]
            ceilings[run["build"], run["preset"]] = rps
            print(f"| {run['build']} | {run['preset']} | {counts['users']} | {rps:,.0f} "
                  f"| {number(cpu_per_request(run, stats, clk_tck))} | {latency(stats, 'no-op')} "
                  f"| {stats.get('All Requests', {}).get('ko', '-')} |")
        print()

    rows = []
    baseline_rows = []
    any_capped = False
    failed = False
    presets = []
    for run in runs:
        if run["strategy"] != "ceiling" and run["preset"] not in presets:
            presets.append(run["preset"])
    print("## Per preset")
    for preset in presets:
        print()
        print(f"### {preset}")
        print()
        print("| strategy | variant | messages/s | delivered/s | req/s | of ceiling | CPU µs/msg | CPU µs/req "
              "| contention s/s | push p50 / p99 | poll p50 / p99 | complete p50 / p99 | empty polls | 429s "
              "| duplicates | errors | nothing lost |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|---:|---:|---:|---:|---|")
        for run in (r for r in runs if r["preset"] == preset and r["strategy"] != "ceiling"):
            counts = load(os.path.join(out, "runs", run["id"] + ".json"))
            stats = report_stats(os.path.join(out, "runs", run["id"]))
            if not counts or "completedInWindow" not in counts:
                print(f"| {run['label']} | {variant(run)} | missing (see runs/{run['id']}.log) "
                      f"| | | | | | | | | | | | | | |")
                failed = True
                continue
            fig = figures(run, counts, stats, clk_tck)
            fig["build"] = run["build"]
            if not fig["ok"] and fig["lossless"] and counts["pushed"] > 0 and capped(stats, os.path.join(out, "runs", run["id"])):
                # Nothing lost, only pushes refused at a cap: its rates are measured, and shown marked.
                fig["ok"] = fig["capped"] = True
                any_capped = True
            single = run["batch"] == "1" and run["wait"] == "0" and run["runtime"] == "17-platform"
            ceiling = ceilings.get((run["build"], preset)) if single else None
            fig["ofCeiling"] = fig["requestsPerSecond"] / ceiling if ceiling else None
            if fig["ok"] and run["build"] == "this":
                rows.append(fig)  # rankings and pictures: this build's runs that passed only
            if fig["ok"] and run["build"] == "baseline":
                baseline_rows.append(fig)
            failed |= not fig["ok"] or fig["capped"]
            if not counts["pushed"]:
                lost = "nothing pushed"
            elif fig["lossless"]:
                lost = f"yes ({counts['pushed']:,})"
            else:
                lost = f"NO: pushed {counts['pushed']}, completed {counts.get('completedDistinct')}"
            empty = f"{counts['emptyPolls']:,}"
            if counts.get("earlyEmptyLongPolls"):
                empty += f" ({counts['earlyEmptyLongPolls']:,} long polls not held)"
            cpu = number(fig["cpuMicrosPerMessage"], 1) + (" (/proc)" if fig["cpuSource"] == "/proc" else "")
            ko_cell = f"{fig['ko']} (429)" if fig["capped"] else fig["ko"]
            shown = fig["variant"] + (" (cap hit)" if fig["capped"] else "")
            print(f"| {run['label']} | {shown} | {fig['messagesPerSecond']:,.0f} "
                  f"| {fig['deliveredPerSecond']:,.0f} | {fig['requestsPerSecond']:,.0f} | {number(fig['ofCeiling'], 2)} "
                  f"| {cpu} | {number(fig['cpuMicrosPerRequest'])} | {number(fig['contentionPerSecond'], 4)} "
                  f"| {latency(stats, 'push')} | {latency(stats, 'poll')} | {latency(stats, 'complete')} "
                  f"| {empty} | {counts.get('backPressured', 0):,} | {counts['duplicates']} "
                  f"| {ko_cell} | {lost} |")
        print()
        print(f"![{preset}]({args.charts}/{preset}.png)")

    print()
    if any_capped:
        print("**cap hit**: pushes answered 429 (a cap of `qs.limits`, half the heap by default) in a preset "
              "that does not expect back pressure: the producers outran the consumers until the queues held "
              "the cap. Nothing was lost and the rates are measured, but such a run counts its 429s as "
              "errors; it is shown and ranked, marked.")
        print()
    print("## Per strategy at a glance")
    print()
    print("messages/s (CPU µs per message) in the cells every strategy ran; contention s/s at 4-4 single, JDK 17; "
          "* cap hit.")
    print()
    glance = [("4-4", "single, 17-platform"), ("4-4", "batch 10, 17-platform"), ("4-4", "batch 100, 17-platform"),
              ("4-4", "single, 25-platform"), ("4-4", "single, 25-virtual"), ("waiting", "single, 17-platform"),
              ("waiting", f"single, long poll {settings.get('wait', 2)} s, 17-platform")]
    waits = {r["variant"] for r in rows if r["preset"] == "waiting" and "long poll" in r["variant"]}
    if waits:
        glance[-1] = ("waiting", sorted(waits)[0])
    glance = [g for g in glance if any(r["preset"] == g[0] and r["variant"] == g[1] for r in rows)]
    print("| strategy | " + " | ".join(f"{p} {v}" for p, v in glance) + " | contention 4-4 |")
    print("|---|" + "---:|" * (len(glance) + 1))
    by = {(r["strategy"], r["preset"], r["variant"]): r for r in rows}
    for strategy in dict.fromkeys(r["strategy"] for r in rows):
        cells = []
        for p, v in glance:
            r = by.get((strategy, p, v))
            cells.append(f"{r['messagesPerSecond']:,.0f}{'*' if r['capped'] else ''} "
                         f"({number(r['cpuMicrosPerMessage'])})" if r else "-")
        base = by.get((strategy, "4-4", "single, 17-platform"))
        cells.append(number(base["contentionPerSecond"], 4) if base else "-")
        print(f"| {strategy} | " + " | ".join(cells) + " |")

    if baseline_rows:
        print()
        print("## Against the baseline build (issue 9, item 1)")
        print()
        print("Same cell, same run: the server's CPU per request of this build over the baseline's, and each "
              "build's requests/s as a fraction of its own no-op ceiling.")
        print()
        print("| strategy | cell | req/s | of ceiling | CPU µs/req | baseline req/s | baseline of ceiling "
              "| baseline CPU µs/req | CPU per request, this / baseline |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for b in baseline_rows:
            r = by.get((b["strategy"], b["preset"], b["variant"]))
            if not r:
                continue
            ratio = (r["cpuMicrosPerRequest"] / b["cpuMicrosPerRequest"]
                     if r["cpuMicrosPerRequest"] and b["cpuMicrosPerRequest"] else None)
            print(f"| {b['strategy']} | {b['preset']} {b['variant']} | {r['requestsPerSecond']:,.0f} "
                  f"| {number(r['ofCeiling'], 2)} | {number(r['cpuMicrosPerRequest'])} "
                  f"| {b['requestsPerSecond']:,.0f} | {number(b['ofCeiling'], 2)} "
                  f"| {number(b['cpuMicrosPerRequest'])} | {number(ratio, 2)} |")

    print()
    print("## Ranking by messages/s")
    print()
    print("Per preset and variant, best first, each as a share of the best; spread = worst / best. Runs that "
          "failed (errors, a loss, nothing pushed) are left out here and in the pictures; * cap hit (shown).")
    jmh, jmh_column = jmh_rankings(args.jmh)
    for preset in presets:
        print()
        print(f"- **{preset}**")
        for name in dict.fromkeys(r["variant"] for r in rows if r["preset"] == preset):
            ranked = sorted(((r["messagesPerSecond"], r["strategy"] + ("*" if r["capped"] else "")) for r in rows
                             if r["preset"] == preset and r["variant"] == name), reverse=True)
            if not ranked:
                continue
            best = ranked[0][0] or 1
            order = ", ".join(f"{s} {c:,.0f} ({c / best:.0%})" for c, s in ranked)
            print(f"  - {name}: {order}; spread {ranked[-1][0] / best:.2f}")
        if preset in jmh:
            names = ", ".join(f"{v} = {k}" for k, v in JMH_NAMES.items())
            print(f"  - JMH study ({jmh_column}, Total): {jmh[preset]} ({names})")
    print()
    print("Gatling's HTML reports: `runs/<id>/*/index.html` in the study's output folder; the service's log "
          "per service start in `services/`.")
    print()
    print("## Reading")
    print()
    print("<!-- To be written by whoever ran the study, from the tables and pictures above: do the strategies")
    print("     now separate end to end (batches of 100 take most of the HTTP cost per message away; virtual")
    print("     threads on JDK 25 no longer pin a carrier in synchronized), and does their order match the JMH")
    print("     study's (the JMH lines under each thesis preset)? Also: what long polling does to CPU per message")
    print("     in `waiting`, and what back pressure does to latency. Say what the machine was doing. -->")
    print()
    print("_Not written yet._")

    with open(os.path.join(out, "figures.json"), "w", encoding="utf-8") as f:
        json.dump(rows, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
