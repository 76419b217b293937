#!/usr/bin/env python3
"""Live heap from `jcmd PID GC.class_histogram` (which runs a full GC first).

  heap_histogram.py total FILE                 total live bytes
  heap_histogram.py diff BEFORE AFTER N [TOP]  bytes per held message: total and the classes that grew most
"""
import re
import sys

ROW = re.compile(r"^\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)")
TOTAL = re.compile(r"^Total\s+(\d+)\s+(\d+)")


def read(path):
    classes, total = {}, None
    with open(path) as lines:
        for line in lines:
            row = ROW.match(line)
            if row:
                classes[row.group(3)] = (int(row.group(1)), int(row.group(2)))
            elif TOTAL.match(line):
                total = int(TOTAL.match(line).group(2))
    return classes, total


def main(argv):
    if argv[1] == "total":
        print(read(argv[2])[1])
        return 0
    before, before_total = read(argv[2])
    after, after_total = read(argv[3])
    held = int(argv[4])
    top = int(argv[5]) if len(argv) > 5 else 6
    print(f"{(after_total - before_total) / held:.1f}")
    grown = []
    for name, (instances, size) in after.items():
        old_instances, old_size = before.get(name, (0, 0))
        grown.append(((size - old_size) / held, (instances - old_instances) / held, name))
    for per_message, instances, name in sorted(grown, reverse=True)[:top]:
        print(f"  {per_message:7.1f} B  {instances:5.2f} objects  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
