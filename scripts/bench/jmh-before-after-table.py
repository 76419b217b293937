#!/usr/bin/env python3
"""The Markdown table of a scripts/bench/jmh-before-after.sh run: per setup, id lookup and
strategy, delivered messages per microsecond of base and new in each round, their ratio
(mean new / mean base), whether it lies inside the run's spread, and allocation per operation.

A ratio is inside the spread when the ranges of base's and new's rounds overlap, or when it
differs from 1 by no more than base's own round-to-round range (relative to its mean).

Usage: scripts/bench/jmh-before-after-table.py OUT
"""
import json
import pathlib
import re
import sys
from collections import defaultdict

NAME = re.compile(r"r(\d+)-(\d+-\d+)-([A-Z_]+)-(?:true|false)-(base|new)\.json$")


def main(out):
    runs = defaultdict(lambda: defaultdict(dict))  # (setup, lookup, strategy) -> version -> round -> (delivered, B/op)
    for path in sorted(pathlib.Path(out).glob("r*-*.json")):
        match = NAME.search(path.name)
        if not match:
            continue
        rnd, setup, strategy, version = match.groups()
        for result in json.loads(path.read_text()):
            lookup = result["params"]["idLookup"]
            metrics = result["secondaryMetrics"]
            delivered = metrics["delivered"]["score"]
            alloc = metrics.get("gc.alloc.rate.norm", metrics.get("·gc.alloc.rate.norm", {})).get("score", float("nan"))
            runs[(setup, lookup, strategy)][version][int(rnd)] = (delivered, alloc)
    rounds = sorted({r for v in runs.values() for by_round in v.values() for r in by_round})
    head = ["setup", "idLookup", "strategy"]
    head += [f"{v} r{r}" for r in rounds for v in ("base", "new")]
    head += ["new/base", "inside spread", "B/op base", "B/op new"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    outside = compared = 0
    for (setup, lookup, strategy), versions in sorted(runs.items(), key=lambda kv: (kv[0][0], kv[0][1], order(kv[0][2]))):
        base = [versions["base"][r][0] for r in rounds if r in versions["base"]]
        new = [versions["new"][r][0] for r in rounds if r in versions["new"]]
        if not base or not new:
            continue  # a run cut short: nothing to compare
        compared += 1
        mean_base, mean_new = sum(base) / len(base), sum(new) / len(new)
        ratio = mean_new / mean_base
        overlap = min(new) <= max(base) and max(new) >= min(base)
        inside = overlap or abs(ratio - 1) <= (max(base) - min(base)) / mean_base
        outside += not inside
        row = [setup, lookup, strategy]
        for r in rounds:
            for v in ("base", "new"):
                row.append(f"{versions[v][r][0]:.3f}" if r in versions[v] else "")
        row += [f"{ratio:.2f}", "yes" if inside else "**no**"]
        for v in ("base", "new"):
            allocs = [versions[v][r][1] for r in rounds if r in versions[v]]
            row.append(f"{sum(allocs) / len(allocs):.1f}")
        print("| " + " | ".join(row) + " |")
    print(f"\n{outside} of {compared} ratios outside the run's spread.")


def order(strategy):
    """The strategies in the enum's order, as the new build lists them."""
    return ORDER.index(strategy) if strategy in ORDER else len(ORDER)


ORDER = []

if __name__ == "__main__":
    out_dir = sys.argv[1]
    listed = pathlib.Path(out_dir, "strategies.txt")
    if listed.exists():
        ORDER = listed.read_text().split()
    main(out_dir)
