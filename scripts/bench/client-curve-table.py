#!/usr/bin/env python3
"""The tables of a client-curve run (scripts/bench/client-curve.sh): one per strategy and runtime,
a row per client count, per jar the mean over rounds of cycles/s and server CPU µs per cycle (with
the rounds' range), the CPU per cycle over that at 4+4 (the issue's flatness: at most 1.25), and,
with perf, context switches per cycle. With two or more jars, the last column sets the last jar's
CPU per cycle over the first's.

    python3 scripts/bench/client-curve-table.py target/client-curve/<time>/results.jsonl
"""
import collections
import json
import sys


def mean(values):
    return sum(values) / len(values) if values else float("nan")


def spread(values, fmt):
    if len(values) < 2:
        return ""
    return f" ({fmt.format(min(values))}-{fmt.format(max(values))})"


def main(path):
    rows = [json.loads(line) for line in open(path) if line.strip()]
    cells = collections.defaultdict(list)
    order = {"strategy": [], "runtime": [], "jar": [], "clients": []}
    for row in rows:
        cells[(row["strategy"], row["runtime"], row["jar"], row["clients"])].append(row)
        for key in order:
            if row[key] not in order[key]:
                order[key].append(row[key])
    clients = sorted(order["clients"])
    jars = order["jar"]
    perf = any("context-switches" in row for row in rows)
    for strategy in order["strategy"]:
        for runtime in order["runtime"]:
            if not any((strategy, runtime, jar, n) in cells for jar in jars for n in clients):
                continue
            print(f"\n{strategy}, {runtime}\n")
            head = ["clients"]
            for jar in jars:
                head += [f"{jar} cycles/s", f"{jar} µs/cycle", f"{jar} ×4+4"]
                if perf:
                    head += [f"{jar} cs/cycle"]
            if len(jars) > 1:
                head += [f"µs/cycle {jars[-1]}/{jars[0]}"]
            print("| " + " | ".join(head) + " |")
            print("|" + "---|" * len(head))
            for n in clients:
                line = [f"{n}+{n}"]
                us_of = {}
                for jar in jars:
                    runs = cells.get((strategy, runtime, jar, n), [])
                    base = cells.get((strategy, runtime, jar, 4), [])
                    cycles = [r["cycles"] for r in runs]
                    us = [r["us"] for r in runs if r["us"] > 0]
                    us_of[jar] = mean(us)
                    line += [f"{mean(cycles):,.0f}{spread(cycles, '{:,.0f}')}" if runs else "-",
                             f"{mean(us):.0f}{spread(us, '{:.0f}')}" if us else "-",
                             f"{mean(us) / mean([r['us'] for r in base]):.2f}" if us and base else "-"]
                    if perf:
                        cs = [r["context-switches"] for r in runs if "context-switches" in r]
                        line += [f"{mean(cs):.1f}" if cs else "-"]
                if len(jars) > 1:
                    a, b = us_of.get(jars[0]), us_of.get(jars[-1])
                    line += [f"{b / a:.2f}" if a and b and a == a and b == b else "-"]
                print("| " + " | ".join(line) + " |")
    errors = sum(row["errors"] for row in rows)
    loads = [row["load"] for row in rows]
    print(f"\n{len(rows)} windows, {errors} errors, load average at the windows' start {min(loads):.2f}-{max(loads):.2f}")


if __name__ == "__main__":
    main(sys.argv[1])
