#!/usr/bin/env python3
"""The fault runs' table: reads the results file the fault scripts append to (fault, strategy,
checker status, the checker's first line: JSON with strategy, framework, report) and prints a
Markdown table, one row per run, or replaces the lines between '<!-- faults table -->' and
'<!-- end of faults table -->' of a document with it (--into FILE)."""
import json
import sys

FAMILY = {"THESIS": "thesis", "SPLIT": "lanes", "LANE_LOCKED": "lanes", "EXTERNAL": "Redis"}
BEGIN, END = "<!-- faults table -->", "<!-- end of faults table -->"


def table(path):
    rows = [
        "| fault | strategy (family) | checked | operations | acknowledged pushes | lost | duplicated | indeterminate | recovered | redelivered | longest gap (ms) | longest gap of a queue (ms) |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for line in open(path):
        fault, strategy, status, checked = line.rstrip("\n").split("\t", 3)
        try:
            result = json.loads(checked)
        except ValueError:
            rows.append(f"| {fault} | {strategy} | did not run ({checked[:60]}) | | | | | | | | | |")
            continue
        r = result["report"]
        verdict = "passed" if status == "0" else "**failed**"
        queue_gap = f"{r['longestQueueGapMs']:,}" if "longestQueueGapMs" in r else ""
        rows.append(
            f"| {fault} | {strategy} ({FAMILY[result['framework']]}) | {verdict} | {r['operations']:,} "
            f"| {r['acknowledged']:,} | {r['lost']} | {r['duplicated']} | {r['indeterminate']} "
            f"| {r['recovered']} | {r['redelivered']} | {r['longestGapMs']:,} | {queue_gap} |"
        )
    return "\n".join(rows)


def main():
    args = sys.argv[1:]
    text = table(args[0])
    if len(args) == 3 and args[1] == "--into":
        doc = open(args[2]).read()
        head, rest = doc.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        open(args[2], "w").write(f"{head}{BEGIN}\n{text}\n{END}{tail}")
    else:
        print(text)


if __name__ == "__main__":
    main()
