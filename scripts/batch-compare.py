#!/usr/bin/env python3
"""scripts/batch-compare.py — ./judge batch against each file judged alone (scripts/gpu-check
--part batch): per submission, the worst verdict of every batch given and of the lone run,
whether they agree, and, per case timed beside cuBLAS in both, how far a batch's GFLOP/s is
from the first batch's (the noise of judging the same kernel twice is the yardstick).

Usage: batch-compare.py WALL_FILE ALONE_DIR LABEL=BATCH_JSON [LABEL=BATCH_JSON…]
  WALL_FILE  lines "LABEL SECONDS", the wall time of each batch and of "alone" (all files)
  ALONE_DIR  NAME.json (the lone run's --json) and NAME.status (its exit status) per file
Exit status 0 when every verdict agrees, 1 otherwise, 2 for a bad input.
"""
import json
import os
import sys

WORST_OF_STATUS = {0: "AC", 1: "WA", 2: "TLE", 3: "RE", 4: "CE", 6: "no GPU"}


def load(path):
    with open(path) as f:
        return json.load(f)


def alone_verdict(folder, name):
    """The lone run's worst verdict: its report's, else its exit status's."""
    stem = os.path.splitext(name)[0]
    status_path = os.path.join(folder, stem + ".status")
    if not os.path.exists(status_path):
        return None, {}
    status = int(open(status_path).read().strip() or -1)
    report_path = os.path.join(folder, stem + ".json")
    gflops = {}
    if os.path.exists(report_path):
        try:
            gflops = case_gflops(load(report_path))
        except (ValueError, OSError):
            pass
    return WORST_OF_STATUS.get(status, "JE"), gflops


def case_gflops(report):
    # Only the cases timed with the whole budget beside cuBLAS: a correctness case's few
    # microseconds move by more than their own size from run to run, and say nothing of lanes.
    return {c.get("name"): c["gflops"] for c in report.get("cases", [])
            if c.get("gflops") and "fraction_of_cublas" in c}


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    walls = {}
    for line in open(argv[1]):
        words = line.split()
        if len(words) == 2:
            walls[words[0]] = float(words[1])
    alone_dir = argv[2]
    batches = []
    for spec in argv[3:]:
        label, _, path = spec.partition("=")
        batch = load(path)
        folder = batch["batch"]["results"]
        rows = {}
        for row in batch["rows"]:
            gflops = {}
            if row.get("report"):
                try:
                    gflops = case_gflops(load(os.path.join(folder, row["report"])))
                except (ValueError, OSError):
                    pass
            worst = row["worst"] or "no GPU"  # a row with no verdict: nothing was run
            rows[os.path.basename(row["submission"])] = (worst, row.get("gpu", ""), gflops)
        batches.append((label, rows))

    names = sorted({name for _, rows in batches for name in rows})
    width = max([len(n) for n in names] + [10])
    header = "submission".ljust(width) + "  " + "  ".join(label.ljust(12) for label, _ in batches)
    print(header + "  alone   agree  worst GFLOP/s change (perf cases) vs " + batches[0][0])
    disagreements = 0
    for name in names:
        verdicts = [rows.get(name, ("—", "", {})) for _, rows in batches]
        lone, lone_gflops = alone_verdict(alone_dir, name)
        agree = all(v[0] == verdicts[0][0] for v in verdicts) and (lone is None or lone == verdicts[0][0])
        disagreements += 0 if agree else 1
        # The largest relative GFLOP/s change of any case timed in both, per other batch and alone.
        changes = []
        base = verdicts[0][2]
        for other in [v[2] for v in verdicts[1:]] + [lone_gflops]:
            common = [c for c in base if c in other and base[c] > 0]
            if common:
                changes.append(max(abs(other[c] / base[c] - 1) for c in common))
        change = "—" if not changes else "%.1f%%" % (100 * max(changes))
        cells = "  ".join((v[0] + (" @" + v[1] if v[1] else "")).ljust(12) for v in verdicts)
        print(name.ljust(width) + "  " + cells + "  " + (lone or "—").ljust(6) + "  " +
              ("yes" if agree else "NO").ljust(5) + "  " + change)
    print()
    for label, seconds in walls.items():
        print("wall %-12s %.1f s" % (label, seconds))
    print("%d of %d submissions agree" % (len(names) - disagreements, len(names)))
    return 0 if disagreements == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
