#!/usr/bin/env python3
"""Writes the Markdown summary of a soak run from what scripts/soak.sh recorded in its folder
(samples.csv, counts.json, settings.env); can be rerun on an old run's folder.

    python3 scripts/soak-summary.py target/soak/<run> [docs/soak.md]
"""
import csv
import json
import os
import platform
import shlex
import subprocess
import sys


def mib(value):
    return int(value) / 1048576


def main(out, summary):
    settings = dict(token.split("=", 1) for token in shlex.split(open(os.path.join(out, "settings.env")).read()))
    rows = list(csv.DictReader(open(os.path.join(out, "samples.csv"))))
    counts_file = os.path.join(out, "counts.json")
    counts = json.load(open(counts_file)) if os.path.exists(counts_file) else {}
    rc = int(settings["GATLING_RC"])
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    under_load = [mib(r["heap_after_gc_bytes"]) for r in rows if r["minute"] not in ("0", "end")]
    start, end = rows[0], rows[-1]
    s = settings
    lines = [
        "# Soak test",
        "",
        f"Run {os.path.basename(os.path.normpath(out))} (UTC) on {platform.node() or 'this machine'}: "
        f"{os.cpu_count()} CPUs, {java}; load average {s['LOAD_BEFORE']} before, {s['LOAD_AFTER']} after "
        "(a shared machine).",
        "",
        f"Service: strategy `{s['STRATEGY']}`, `-Xmx{s['HEAP']}`, lease {s['LEASE']}, default caps. Load: Gatling "
        f"QueueSimulation, preset {s['PRESET']} (consumers-producers), {s['RATE']} pushes/s for {s['MINUTES']} minutes, "
        f"{float(s['ABANDON']) * 100:.0f}% of first deliveries abandoned (never completed, so delivered again after "
        "their lease), then a drain of at most 180 s. Command: "
        f"`MINUTES={s['MINUTES']} STRATEGY={s['STRATEGY']} PRESET={s['PRESET']} RATE={s['RATE']} "
        f"ABANDON={s['ABANDON']} LEASE={s['LEASE']} HEAP={s['HEAP']} scripts/soak.sh`.",
        "",
        "Each minute: a forced GC (`jcmd GC.run`), then heap used (`jvm_memory_used_bytes{area=heap}`), resident set "
        "size, the service's counters and the exact ready and in-flight counts of `GET /queues`. Minute 0 is before "
        "the load, `end` after the drain.",
        "",
        "| minute | heap after GC (MiB) | RSS (MiB) | pushed | completed | redelivered | ready | in flight |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r['minute']} | {mib(r['heap_after_gc_bytes']):.1f} | {mib(r['rss_bytes']):.0f} | "
                     f"{r['pushed']} | {r['completed']} | {r['redelivered']} | {r['ready']} | {r['inflight']} |")
    lines += ["", "## Verdict", ""]
    lines.append(f"- Heap after GC at rest: {mib(start['heap_after_gc_bytes']):.1f} MiB before the load, "
                 f"{mib(end['heap_after_gc_bytes']):.1f} MiB after the drain: what the run held is gone.")
    if len(under_load) >= 2:
        half = len(under_load) // 2
        lines.append(f"- Heap after GC under load: {min(under_load):.1f} to {max(under_load):.1f} MiB; mean "
                     f"{sum(under_load[:half]) / half:.1f} MiB over the first half of the minutes, "
                     f"{sum(under_load[half:]) / (len(under_load) - half):.1f} MiB over the second; "
                     f"last three minutes {', '.join(f'{h:.1f}' for h in under_load[-3:])} MiB.")
    lines.append(f"- RSS: {mib(start['rss_bytes']):.0f} MiB before the load, "
                 f"{max(mib(r['rss_bytes']) for r in rows):.0f} MiB at most, {mib(end['rss_bytes']):.0f} MiB at the end.")
    lines.append(f"- After the drain the service held {end['ready']} ready and {end['inflight']} in-flight messages; "
                 f"it counted {end['pushed']} pushed and {end['completed']} completed "
                 f"(difference {int(end['pushed']) - int(end['completed'])}).")
    if counts:
        lines.append(f"- Client side: pushed {counts.get('pushed')}, completed {counts.get('completedDistinct')} "
                     f"distinct, abandoned {counts.get('abandoned')}, redelivered after abandonment "
                     f"{counts.get('redeliveredAfterAbandon')}, duplicates {counts.get('duplicates')}.")
    verdict = "passed" if rc == 0 else f"FAILED (exit {rc})"
    lines.append(f"- Gatling's assertions (no failed request, queues empty, nothing lost): {verdict}.")
    text = "\n".join(lines) + "\n"
    print(text)
    if summary:
        open(summary, "w").write(text)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "")
