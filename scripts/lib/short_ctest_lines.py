#!/usr/bin/env python3
"""Passes CTest's output through with each test's line fitted to 100 columns.

CTest pads a test's name with dots to the longest name (lines of 170 columns here) and
writes "Start" lines as long. Here a result line becomes "  12/571 Passed  0.05 s  NAME",
a start line "Start 12: NAME", each NAME cut with "…" where the line would pass 100
columns; every other line (a failed test's output, the closing summary CI reads) is
passed as it is. The full names are in Testing/Temporary/LastTest.log.
"""
import re
import sys

WIDTH = 100
RESULT = re.compile(r"^\s*(\d+/\d+) Test\s+#\d+: (.*?) \.*\s*(\**)(\w[\w ]*?)\s+([\d.]+) sec$")
START = re.compile(r"^\s*Start\s+(\d+): (.*)$")


def fitted(head, name):
    room = WIDTH - len(head)
    return head + (name if len(name) <= room else name[: room - 1] + "…")


for line in sys.stdin:
    line = line.rstrip("\n")
    result = RESULT.match(line)
    start = START.match(line)
    if result:
        counter, name, _, verdict, seconds = result.groups()
        line = fitted(f"{counter:>9} {verdict:<8} {float(seconds):6.2f} s  ", name)
    elif start:
        line = fitted(f"    Start {start.group(1)}: ", start.group(2))
    print(line, flush=True)
