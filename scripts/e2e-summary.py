#!/usr/bin/env python3
"""Summary of an end-to-end study run (scripts/e2e-study.sh) as Markdown on stdout.

Reads the study's manifest (runs.tsv: one line per run with its repetition, build (this or the
baseline), strategy, preset, batch size, long polling, runtime, the service's and Gatling's CPU ticks
around it and the machine's busy and total ticks over the same time), the counts each simulation wrote
(runs/<id>.json) and the latency percentiles of Gatling's own HTML report (runs/<id>/*/index.html).
Writes figures.json beside the manifest: "runs" (one row per passed run) and "workloads" (per
workload = preset/bBATCH/wWAIT/RUNTIME, per strategy: median and range of messages/s over the
repetitions, core share, noisy flag), which StudyCharts draws, one PNG per workload.

A strategy's cell is flagged noisy when its repetitions spread (max / min of messages/s above
--noisy-spread, default 1.3) or when other work used the machine during its runs (the machine's busy
share minus the service's and Gatling's own CPU, median over the repetitions, above --noisy-other,
default 0.25 of all CPUs).

    python3 scripts/e2e-summary.py target/e2e-study/<time> [--charts RELATIVE_DIR] [--jmh docs/archive/jmh-study/REPORT.md]
"""
import argparse
import contextlib
import csv
import io
import glob
import html
import json
import os
import platform
import re
import statistics
import subprocess
import sys

ROW = re.compile(r'<tr id="[^"]*"[^>]*>(.*?)</tr>', re.S)
NAME = re.compile(r'class="ellipsed-name">([^<]*)</span>')
CELL = re.compile(r'<td class="value [a-z]+ col-(\d+)">([^<]*)</td>')
# Columns of Gatling's statistics table: 2 total, 3 OK, 4 KO, 8 p50, 10 p95, 11 p99 (gatling.conf
# sets percentile1..4 to 50, 75, 95, 99).
COLUMNS = {"total": 2, "ko": 4, "p50": 8, "p95": 10, "p99": 11}
THESIS_PRESETS = ("1-1", "4-1", "1-4", "4-4")
THESIS_STRATEGIES = ("synchronized", "read-write-lock", "concurrent-pojo", "concurrent-atomic")
# The order workloads are shown in (presets not listed come after, by name).
PRESET_ORDER = ("1-1", "4-1", "1-4", "4-4", "heavy", "waiting", "mixed", "fast", "backpressure",
                "deep-inflight", "many-queues", "hot-queue", "large-batches")
# The JMH study's names (its REPORT.md, e.g. docs/archive/jmh-study/REPORT.md, abbreviates them) of the thesis's profiles.
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


def cell_of(run):
    """The run's workload as the study names it: PRESET/bBATCH/wWAIT/RUNTIME."""
    return f"{run['preset']}/b{run['batch']}/w{run['wait']}/{run['runtime']}"


def cell_order(cell):
    preset, batch, wait, runtime = cell.split("/")
    rank = PRESET_ORDER.index(preset) if preset in PRESET_ORDER else len(PRESET_ORDER)
    return rank, preset, int(batch[1:]), int(wait[1:]), runtime


def ticks(run, name):
    value = run.get(name)
    return int(value) if value not in (None, "") else None


def machine_figures(run, counts=None, clk_tck=100):
    """The machine's busy share of all its CPUs, and the share busy with neither the service nor
    Gatling (other work; the kernel's share of both included): inside the load window where the
    simulation measured it (/proc/stat, the service's process_cpu_time_ns_total and Gatling's own
    CPU at the window's edges), else over the whole run (ramp, window, drain, checks: runs.tsv);
    None where not recorded."""
    counts = counts or {}
    w_busy, w_total = counts.get("machineBusyTicks"), counts.get("machineTotalTicks")
    if w_busy and w_total:
        service, gatling = counts.get("serviceCpuSecondsInWindow"), counts.get("gatlingCpuSeconds")
        if service is None or gatling is None:
            return w_busy / w_total, None
        return w_busy / w_total, max(0.0, (w_busy / clk_tck - service - gatling) / (w_total / clk_tck))
    busy, total = ticks(run, "machine_busy"), ticks(run, "machine_total")
    if not busy or not total:
        return None, None
    own = (ticks(run, "cpu_ticks") or 0) + (ticks(run, "gatling_ticks") or 0)
    if ticks(run, "cpu_ticks") is None or ticks(run, "gatling_ticks") is None:
        return busy / total, None
    return busy / total, max(0.0, (busy - own) / total)


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
    core = counts.get("coreSeconds")
    http_seconds = counts.get("httpServerSeconds")
    machine_busy, machine_other = machine_figures(run, counts, clk_tck)
    ko = stats.get("All Requests", {}).get("ko", "?")
    lossless = (counts["pushed"] == counts.get("completedDistinct")
                and counts.get("serverPushed") == counts["pushed"]
                and counts.get("serverCompleted") == completed
                and counts.get("completesUnexpected", 0) == 0
                and counts.get("refusedDeliveredOnce", 0) == 0)
    return {
        "preset": run["preset"],
        "variant": variant(run),
        "cell": cell_of(run),
        "rep": int(run.get("rep") or 1),
        "strategy": run["strategy"],
        "messagesPerSecond": counts["completedInWindow"] / window,
        "deliveredPerSecond": counts.get("deliveredInWindow", 0) / window,
        "requestsPerSecond": counts["requestsInWindow"] / window,
        "cpuMicrosPerMessage": (1e6 * cpu / completed) if cpu is not None and completed else None,
        "cpuMicrosPerRequest": cpu_per_request(run, stats, clk_tck),
        "cpuSource": cpu_source if cpu is not None else None,
        "contentionPerSecond": (contention / window) if contention is not None else None,
        "coreShare": (core / http_seconds) if core is not None and http_seconds else None,
        "coreMicrosPerMessage": (1e6 * core / counts["completedInWindow"])
        if core is not None and counts["completedInWindow"] else None,
        "machineBusy": machine_busy,
        "machineOther": machine_other,
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


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def share(value):
    return "n/a" if value is None else f"{value:.0%}"


def aggregate(rows, attempts, noisy_spread, noisy_other):
    """{cell: [per strategy: median, range, n and the medians of the other figures]}, strategies
    best first (median messages/s)."""
    by = {}
    for row in rows:
        by.setdefault((row["cell"], row["strategy"]), []).append(row)
    workloads = {}
    for (cell, strategy), reps in by.items():
        rates = [r["messagesPerSecond"] for r in reps]
        low, high = min(rates), max(rates)
        spread = (high / low) if len(rates) > 1 and low > 0 else None
        other = median(r["machineOther"] for r in reps)
        reasons = []
        if spread is not None and spread > noisy_spread:
            reasons.append(f"spread {spread:.2f}")
        if other is not None and other > noisy_other:
            reasons.append(f"other load {other:.0%}")
        workloads.setdefault(cell, []).append({
            "strategy": strategy,
            "thesis": strategy in THESIS_STRATEGIES,
            "median": median(rates),
            "min": low,
            "max": high,
            "n": len(rates),
            "runs": attempts.get((cell, strategy), len(rates)),
            "spread": spread,
            "cpuMicrosPerMessage": median(r["cpuMicrosPerMessage"] for r in reps),
            "coreShare": median(r["coreShare"] for r in reps),
            "coreMicrosPerMessage": median(r["coreMicrosPerMessage"] for r in reps),
            "contentionPerSecond": median(r["contentionPerSecond"] for r in reps),
            "machineBusy": median(r["machineBusy"] for r in reps),
            "machineOther": other,
            "capped": any(r["capped"] for r in reps),
            "noisy": bool(reasons),
            "noisyWhy": ", ".join(reasons),
        })
    for strategies in workloads.values():
        strategies.sort(key=lambda s: -s["median"])
    return dict(sorted(workloads.items(), key=lambda item: cell_order(item[0])))


def separation(strategies):
    """Groups of strategies, best first, whose min-max ranges chain into each other: a strategy joins
    the group above it when its best repetition reaches the lowest repetition of that group. Two
    groups separate beyond the run-to-run spread; strategies of one group do not."""
    groups = []
    for s in strategies:  # best median first
        if groups and s["max"] >= min(m["min"] for m in groups[-1]):
            groups[-1].append(s)
        else:
            groups.append([s])
    return groups


def separation_line(strategies):
    if len(strategies) < 2:
        return "one strategy only"
    groups = separation(strategies)
    best, worst = strategies[0], strategies[-1]
    single = [s["strategy"] for s in strategies if s["n"] < 2]
    caveat = (f" (with a single passed run: {', '.join(single)}, whose spread is unknown)" if single else "")
    ratio = worst["median"] / best["median"] if best["median"] else 0
    if len(groups) == 1:
        return (f"**no strategy separates beyond the run-to-run spread**: every range overlaps a neighbour's; "
                f"best {best['strategy']} {best['median']:,.0f}, worst {worst['strategy']} {worst['median']:,.0f} "
                f"({ratio:.2f} of the best){caveat}")
    order = " > ".join("{" + ", ".join(s["strategy"] for s in g) + "}" if len(g) > 1 else g[0]["strategy"]
                       for g in groups)
    apart = "do not overlap" if worst["max"] < best["min"] else "overlap"
    return (f"**{len(groups)} groups separate beyond the run-to-run spread**: {order}; best {best['strategy']} "
            f"{best['median']:,.0f} vs worst {worst['strategy']} {worst['median']:,.0f} ({ratio:.2f} of the best), "
            f"their ranges {apart}{caveat}")


def print_workloads(workloads, args, jmh, jmh_column, reps, noisy_spread, noisy_other):
    print("## Per workload, over the repetitions")
    print()
    print(f"Each strategy ran each workload (preset/bBATCH/wWAIT/RUNTIME) {reps} time(s), each repetition on a "
          "fresh service start, in a shuffled order. **messages/s**: the median over the repetitions that passed, "
          "**range** min-max and **n** passed / run. **CPU µs/msg**, **core share** (time request threads spent "
          "inside the queue core, `qs_core_seconds_total`, over the time spent answering requests, "
          "`http_server_requests_seconds_sum`, both inside the window), **core µs/msg** (core seconds in the "
          "window / messages completed in it), **contention s/s**, **machine busy** (all CPUs, every process, "
          "inside the window; over the whole run where the simulation did not measure it) and **other** (busy minus the service's and Gatling's own CPU: other work on the "
          "machine): medians over the repetitions; n/a where the service does not export the counter. "
          f"**noisy**: the repetitions spread by more than {noisy_spread:g}x (max / min messages/s), or other "
          f"work took more than {noisy_other:.0%} of the machine's CPUs (median over the repetitions): read such "
          "a row with care. **Separate**: strategies are grouped, best median first, while the range of one "
          "reaches the lowest repetition of the group above; groups that do not reach each other separate "
          "beyond the run-to-run spread. Thesis strategies in bold.")
    for cell, strategies in workloads.items():
        print()
        print(f"### {cell}")
        print()
        print("| # | strategy | messages/s | range | n | max/min | CPU µs/msg | core share | core µs/msg "
              "| contention s/s | machine busy | other | noisy |")
        print("|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for i, s in enumerate(strategies, 1):
            name = f"**{s['strategy']}**" if s["thesis"] else s["strategy"]
            print(f"| {i} | {name}{'*' if s['capped'] else ''} | {s['median']:,.0f} | {s['min']:,.0f}-{s['max']:,.0f} "
                  f"| {s['n']}/{s['runs']} | {number(s['spread'], 2)} | {number(s['cpuMicrosPerMessage'], 1)} "
                  f"| {share(s['coreShare'])} | {number(s['coreMicrosPerMessage'], 1)} "
                  f"| {number(s['contentionPerSecond'], 4)} | {share(s['machineBusy'])} | {share(s['machineOther'])} "
                  f"| {'**noisy** (' + s['noisyWhy'] + ')' if s['noisy'] else '-'} |")
        print()
        print(f"- Separate: {separation_line(strategies)}.")
        preset = cell.split("/")[0]
        if cell == f"{preset}/b1/w0/17-platform" and preset in jmh:
            names = ", ".join(f"{v} = {k}" for k, v in JMH_NAMES.items())
            print(f"- JMH study ({jmh_column}, Total): {jmh[preset]} ({names})")
        print()
        print(f"![{cell}]({args.charts}/{chart_name(cell)}.png)")
    print()


def medians_of(reps):
    """One row of a strategy's repetitions of one cell: the first's names, the numbers' medians."""
    row = dict(reps[0])
    for key, value in reps[0].items():
        if isinstance(value, float) or key in ("messagesPerSecond", "requestsPerSecond", "cpuMicrosPerMessage",
                                                "cpuMicrosPerRequest", "contentionPerSecond", "ofCeiling"):
            row[key] = median(r.get(key) for r in reps)
    row["capped"] = any(r["capped"] for r in reps)
    return row


def chart_name(cell):
    return cell.replace("/", "_")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--charts", default="charts",
                        help="where the PNGs are, relative to the summary's own location")
    parser.add_argument("--jmh", default=os.path.join(os.path.dirname(__file__), "..", "docs", "jmh-study",
                                                      "REPORT.md"))
    parser.add_argument("--noisy-spread", type=float, default=1.3,
                        help="max / min of a cell's messages/s over the repetitions above which it is noisy")
    parser.add_argument("--noisy-other", type=float, default=0.25,
                        help="share of all CPUs busy with other work than the service and Gatling above which "
                             "a cell is noisy")
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
        run["rep"] = run.get("rep") or "1"
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
          "absolute numbers are a floor; compare within one study. "
          f"{settings.get('reps', 1)} repetition(s) per strategy and cell, each on its own service start; "
          f"order: {settings.get('order', 'enum order, one run per cell')}, SEED={settings.get('seed', '-')} "
          "(`order.tsv` in the output folder has it).")
    if settings.get("serviceSettings"):
        print("- service settings by preset: " + "; ".join(f"`{k}`: {v}" for k, v in settings["serviceSettings"].items()))
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

    # The details (ceiling, every run) are written first and printed after the headline (per workload).
    header_out = sys.stdout
    details = io.StringIO()
    sys.stdout = details
    ceilings = {}
    ceiling_runs = [r for r in runs if r["strategy"] == "ceiling"]
    if ceiling_runs:
        print("## Ceiling: a request that touches no queue (`GET /actuator/info`) at the same number of users")
        print()
        print("Every repetition's run; the fractions of the ceiling below use the median of its repetitions.")
        print()
        print("| build | preset | rep | users | req/s | CPU µs/req | p50 / p99 ms | errors |")
        print("|---|---|---:|---:|---:|---:|---|---:|")
        ceiling_rates = {}
        for run in sorted(ceiling_runs, key=lambda r: (r["build"], r["preset"], int(r["rep"]))):
            counts = load(os.path.join(out, "runs", run["id"] + ".json"))
            stats = report_stats(os.path.join(out, "runs", run["id"]))
            if not counts:
                print(f"| {run['build']} | {run['preset']} | {run['rep']} | - | missing | - | - | - |")
                continue
            rps = counts["requestsInWindow"] / counts["windowSeconds"]
            ceiling_rates.setdefault((run["build"], run["preset"]), []).append(rps)
            print(f"| {run['build']} | {run['preset']} | {run['rep']} | {counts['users']} | {rps:,.0f} "
                  f"| {number(cpu_per_request(run, stats, clk_tck))} | {latency(stats, 'no-op')} "
                  f"| {stats.get('All Requests', {}).get('ko', '-')} |")
        print()
        ceilings = {key: statistics.median(rates) for key, rates in ceiling_rates.items()}

    attempts = {}
    rows = []
    baseline_rows = []
    any_capped = False
    failed = False
    presets = []
    for run in runs:
        if run["strategy"] != "ceiling" and run["preset"] not in presets:
            presets.append(run["preset"])
    print("## Every run, per preset")
    print()
    print("One row per run (repetition **rep**), in the order of strategy and variant; **core share**: "
          "`qs_core_seconds_total` over `http_server_requests_seconds_sum` inside the window; **machine "
          "busy / other**: the machine's busy share of all CPUs inside the window (else over the run), and the "
          "share not used by the service or Gatling; **load 1 min** before and after the run.")
    for preset in sorted(presets, key=lambda p: cell_order(f"{p}/b1/w0/x")):
        print()
        print(f"### {preset}")
        print()
        print("| strategy | variant | rep | messages/s | delivered/s | req/s | of ceiling | CPU µs/msg | CPU µs/req "
              "| contention s/s | core share | core µs/msg | machine busy / other | load 1 min "
              "| push p50 / p99 | poll p50 / p99 | complete p50 / p99 | empty polls | 429s "
              "| duplicates | errors | nothing lost |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|---|---:|---:|---:|---:|---|")
        for run in sorted((r for r in runs if r["preset"] == preset and r["strategy"] != "ceiling"),
                          key=lambda r: (r["label"], cell_order(cell_of(r)), int(r["rep"]))):
            counts = load(os.path.join(out, "runs", run["id"] + ".json"))
            stats = report_stats(os.path.join(out, "runs", run["id"]))
            if run["build"] == "this":
                key = (cell_of(run), run["strategy"])
                attempts[key] = attempts.get(key, 0) + 1
            if not counts or "completedInWindow" not in counts:
                print(f"| {run['label']} | {variant(run)} | {run['rep']} | missing (see runs/{run['id']}.log) "
                      f"| | | | | | | | | | | | | | | | | |")
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
            load_cell = f"{run.get('load1_start') or '?'} → {run.get('load1_end') or '?'}"
            print(f"| {run['label']} | {shown} | {run['rep']} | {fig['messagesPerSecond']:,.0f} "
                  f"| {fig['deliveredPerSecond']:,.0f} | {fig['requestsPerSecond']:,.0f} | {number(fig['ofCeiling'], 2)} "
                  f"| {cpu} | {number(fig['cpuMicrosPerRequest'])} | {number(fig['contentionPerSecond'], 4)} "
                  f"| {share(fig['coreShare'])} | {number(fig['coreMicrosPerMessage'], 1)} "
                  f"| {share(fig['machineBusy'])} / {share(fig['machineOther'])} | {load_cell} "
                  f"| {latency(stats, 'push')} | {latency(stats, 'poll')} | {latency(stats, 'complete')} "
                  f"| {empty} | {counts.get('backPressured', 0):,} | {counts['duplicates']} "
                  f"| {ko_cell} | {lost} |")

    print()
    sys.stdout = header_out
    reps = settings.get("reps", max((int(r["rep"]) for r in runs), default=1))
    workloads = aggregate(rows, attempts, args.noisy_spread, args.noisy_other)
    jmh, jmh_column = jmh_rankings(args.jmh)
    print_workloads(workloads, args, jmh, jmh_column, reps, args.noisy_spread, args.noisy_other)
    print(details.getvalue(), end="")
    if any_capped:
        print("**cap hit**: pushes answered 429 (a cap of `qs.limits`, half the heap by default) in a preset "
              "that does not expect back pressure: the producers outran the consumers until the queues held "
              "the cap. Nothing was lost and the rates are measured, but such a run counts its 429s as "
              "errors; it is shown and ranked, marked.")
        print()
    print("## Per strategy at a glance")
    print()
    print("Median messages/s over the repetitions (median CPU µs per message) in the cells every strategy ran; "
          "contention s/s at 4-4 single, JDK 17; * cap hit.")
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
    by = {}
    for r in rows:
        by.setdefault((r["strategy"], r["preset"], r["variant"]), []).append(r)
    by = {key: medians_of(reps_) for key, reps_ in by.items()}
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
        baseline_by = {}
        for b in baseline_rows:
            baseline_by.setdefault((b["strategy"], b["preset"], b["variant"]), []).append(b)
        for b in (medians_of(reps_) for reps_ in baseline_by.values()):
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
        json.dump({"runs": rows, "workloads": [{"workload": cell, "chart": chart_name(cell), "strategies": strategies}
                                               for cell, strategies in workloads.items()]}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
