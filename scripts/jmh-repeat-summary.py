#!/usr/bin/env python3
"""Summarizes the runs of scripts/jmh-repeat.sh: reads each run's REPORT.md ("Ranking by messages
delivered") and prints, per setup, each strategy's delivered messages per µs in every run, its
ratio to ConcurrentAtomic (median and range), and how many runs ranked it first and put it at 2x
ConcurrentAtomic or more.

    jmh-repeat-summary.py target/jmh/repeat/<time>
"""
import pathlib
import re
import statistics
import sys

SUMMARY = re.compile(r"<summary>.* (\d+-\d+), (JDK .*)</summary>")
ROW = re.compile(r"^\| (\d+) \| (\w+) \| [\w-]+ \| ([0-9.]+) \|")


def rankings(report):
    """{(setup, runtime): {strategy: delivered}} of one REPORT.md."""
    found, key, section = {}, None, False
    for line in report.read_text().splitlines():
        if line.startswith("## "):
            section = line.startswith("## Ranking by messages delivered")
        if not section:
            continue
        match = SUMMARY.search(line)
        if match:
            key = (match.group(1), match.group(2))
            found[key] = {}
            continue
        match = ROW.match(line)
        if key and match:
            found[key][match.group(2)] = float(match.group(3))
    return found


def main(out):
    out = pathlib.Path(out)
    runs = sorted(out.glob("run-*/report/REPORT.md"), key=lambda p: int(p.parent.parent.name.split("-")[1]))
    if not runs:
        sys.exit(f"no run-*/report/REPORT.md under {out}")
    per_run = [rankings(r) for r in runs]
    command = (out / "command.txt").read_text().strip() if (out / "command.txt").exists() else "?"
    print("# How often the JMH ranking holds\n")
    print(f"- {len(runs)} runs of `{command}`, one after another, from `{out}`")
    notes = [(r.parent.parent / "results" / "notes.md") for r in runs]
    loads = [re.search(r"load before: ([0-9. ]+)", n.read_text()) for n in notes if n.exists()]
    print("- load average (1, 5, 15 min) before each run: " + "; ".join(m.group(1).strip() for m in loads if m))
    print("- **delivered**: messages delivered per µs (JMH reader score times the share of polls that found one), "
          "per run; **÷ CA**: its ratio to ConcurrentAtomic in the same run; **first**: runs in which it delivered "
          "most; **≥ 2× CA**: runs in which it delivered at least twice ConcurrentAtomic.\n")
    keys = sorted({k for run in per_run for k in run}, key=lambda k: (k[1], ["1-1", "4-1", "1-4", "4-4"].index(k[0])
                                                                      if k[0] in ["1-1", "4-1", "1-4", "4-4"] else 9))
    for key in keys:
        setup, runtime = key
        tables = [run.get(key, {}) for run in per_run]
        names = sorted({n for t in tables for n in t})
        print(f"## {setup}, {runtime}\n")
        print("| strategy | delivered per run | ÷ CA median (min-max) | first | ≥ 2× CA |")
        print("|---|---|---|---:|---:|")
        rows = []
        for name in names:
            values = [t.get(name) for t in tables]
            ratios = [t[name] / t["ConcurrentAtomic"] for t in tables if name in t and t.get("ConcurrentAtomic")]
            first = sum(1 for t in tables if t and max(t, key=t.get) == name)
            twice = sum(1 for r in ratios if r >= 2)
            median = statistics.median(ratios) if ratios else float("nan")
            rows.append((median, name, values, ratios, first, twice))
        for median, name, values, ratios, first, twice in sorted(rows, key=lambda r: -r[0]):
            shown = ", ".join("–" if v is None else f"{v:.2f}" for v in values)
            spread = f"{median:.2f}× ({min(ratios):.2f}-{max(ratios):.2f})" if ratios else "n/a"
            print(f"| {name} | {shown} | {spread} | {first}/{len(tables)} | {twice}/{len(ratios)} |")
        print()


if __name__ == "__main__":
    main(sys.argv[1])
