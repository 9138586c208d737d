#!/usr/bin/env python3
"""One line per judge JSON report: verdict counts, and GFLOP/s with the fraction of
cuBLAS for every case that was timed against it. Used by scripts/gpu-check."""
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
    lines = [f"{name:16} on {device}: {verdicts}"]
    for c in report["cases"]:
        if c.get("fraction_of_cublas") is None:
            continue
        t = c["timing"]
        lines.append(
            f"    {c['name']:24} {c['gflops']:9.1f} GFLOP/s  median {t['median_ms']:.3f} ms"
            f"  spread {100 * t['relative_spread']:.1f}%  cuBLAS {report_cublas_gflops(c):9.1f} GFLOP/s"
            f"  = {100 * c['fraction_of_cublas']:.1f}% of cuBLAS  (SM {t['sm_clock_mhz']} MHz)")
    return "\n".join(lines)


def report_cublas_gflops(case):
    flops = 2.0 * case["M"] * case["N"] * case["K"]
    return flops / (case["baseline_cublas"]["median_ms"] * 1e6)


if __name__ == "__main__":
    for path in sys.argv[1:]:
        try:
            print(summarize(path))
        except (OSError, ValueError, KeyError) as error:
            print(f"{path}: no usable report ({error})")
