#!/usr/bin/env python3
"""One line per judge JSON report: verdict counts, the sum of the cases' wall times, and
GFLOP/s with the fraction of cuBLAS for every case that was timed against it, with the
wall time per phase of the worker (generate, reference, solve, verify, timing, baseline)
so a slow phase of the judge itself is visible. Used by scripts/gpu-check."""
import collections
import json
import sys


def summarize(path):
    with open(path) as f:
        report = json.load(f)
    counts = collections.Counter(c["verdict"] for c in report["cases"])
    name = report["solution"].split("/")[-1]
    device = report["device"].get("name", "?")
    verdicts = ", ".join(f"{n} {v}" for v, n in sorted(counts.items()))
    wall = sum(c.get("wall_seconds", 0) for c in report["cases"])
    lines = [f"{name:16} on {device}: {verdicts}; cases' wall time {wall:.1f} s"]
    for c in report["cases"]:
        if c["name"].startswith("huge/") or c.get("fraction_of_cublas") is not None:
            lines.append(f"    {c['name']:24} wall {c.get('wall_seconds', 0):.2f} s: {phases(c)}")
        if c.get("fraction_of_cublas") is None:
            continue
        t = c["timing"]
        lines.append(
            f"    {c['name']:24} {c['gflops']:9.1f} GFLOP/s  median {t['median_ms']:.3f} ms"
            f"  spread {100 * t['relative_spread']:.1f}%  cuBLAS {report_cublas_gflops(c):9.1f} GFLOP/s"
            f"  = {100 * c['fraction_of_cublas']:.1f}% of cuBLAS  (SM {t['sm_clock_mhz']} MHz)")
    return "\n".join(lines)


def phases(case):
    spent = case.get("phases_s", {})
    verified = case.get("verification", {}).get("how", "")
    return ", ".join(f"{k} {v:.3f}" for k, v in spent.items()) + f"; verified {verified}"


def report_cublas_gflops(case):
    flops = 2.0 * case["M"] * case["N"] * case["K"]
    return flops / (case["baseline_cublas"]["median_ms"] * 1e6)


if __name__ == "__main__":
    for path in sys.argv[1:]:
        try:
            print(summarize(path))
        except (OSError, ValueError, KeyError) as error:
            print(f"{path}: no usable report ({error})")
