"""The stack samples of a `jfr print` text dump, shared by jfr-layers.py and jfr-request-path.py.

    jfr print --events jdk.ExecutionSample --stack-depth 256 rec.jfr > samples.txt
    jfr print --events jdk.CPUTimeSample --stack-depth 256 rec.jfr > cpu.txt    # JDK 25

Reads any sampling event (jdk.ExecutionSample names its thread sampledThread, jdk.CPUTimeSample
eventThread) and yields, per sample, its thread's name ("" for an unnamed virtual thread) and its
frames as (class, method) from the top (the running frame) down.
"""
import re

FRAME = re.compile(r"^\s+([\w$.<>]+)\.([\w$<>]+)\(")
THREAD = re.compile(r'(?:sampledThread|eventThread) = "([^"]*)"')
START = re.compile(r"startTime = (\d\d:\d\d:\d\d)")


def samples(path, thread_filter="", between=None):
    """Samples whose thread name contains thread_filter and, with between (HH:MM:SS, HH:MM:SS,
    the recording's clock, inclusive), taken in that window."""
    thread, frames, in_stack, time = "", [], False, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("jdk."):
                thread, frames, in_stack, time = "", [], False, None
            elif "startTime" in line and not in_stack:
                m = START.search(line)
                time = m.group(1) if m else None
            elif ("sampledThread" in line or "eventThread" in line) and not in_stack:
                m = THREAD.search(line)
                thread = m.group(1) if m else ""
            elif "stackTrace = [" in line:
                in_stack = True
            elif in_stack and line.strip() == "]":
                in_stack = False
                inside = between is None or (time is not None and between[0] <= time <= between[1])
                if frames and thread_filter in thread and inside:
                    yield thread, frames
            elif in_stack:
                m = FRAME.match(line)
                if m:
                    frames.append((m.group(1), m.group(2)))
