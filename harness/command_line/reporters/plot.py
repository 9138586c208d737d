#!/usr/bin/env python3
"""harness/command_line/reporters/plot.py — draws a JSON file the judge writes for --plot (kinds rank,
compare and history; schema in plot_input.py beside it) as a PNG or SVG picture.

Usage: harness/command_line/reporters/plot.py INPUT.json OUTPUT.png|OUTPUT.svg
       harness/command_line/reporters/plot.py --check   (exit 0 when matplotlib is found, else 3)

  rank     GFLOP/s per shape for each solution with cuBLAS marked, and the ratio to
           cuBLAS per shape with a line at 1.0
  compare  GFLOP/s per shape of the old and the new solution, and new/old per shape with
           its interval and p-value; significant bars (the interval excludes 1, p below
           alpha) are coloured
  history  the score of every attempt over time, one line per solution

Exit status: 0 drawn; 2 a bad command line or input file (the message says what is wrong);
3 matplotlib missing (Debian: apt-get install python3-matplotlib).
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_input  # noqa: E402  (found through the line above)

SYSTEM_PYTHON = "/usr/bin/python3"
SOLUTION_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
                    "#d62728", "#7f7f7f", "#393b79", "#637939"]  # enough for a ladder of 12 rungs


def fail(status, message):
    print(f"plot.py: {message}", file=sys.stderr)
    sys.exit(status)


def pyplot():
    """matplotlib's pyplot on the headless Agg backend. Debian's python3-matplotlib serves
    /usr/bin/python3 only, so when the python3 first in PATH (pyenv, a venv) lacks it,
    the script runs itself again under the system's interpreter."""
    try:
        import matplotlib
    except ImportError:
        if os.path.realpath(sys.executable) != os.path.realpath(SYSTEM_PYTHON) and os.access(SYSTEM_PYTHON, os.X_OK):
            os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)
        fail(3, "matplotlib is missing: install it with `apt-get install python3-matplotlib`")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def tick_labels(shapes):
    return [f"{s['name']}\n{plot_input.shape_label(s)}" for s in shapes]


def title(doc, default):
    text = doc.get("title", default)
    return f"{text} — {doc['gpu']}" if "gpu" in doc else text


def grouped_bars(ax, shapes, series):
    """Bars side by side per shape, one group member per (label, values, colour)."""
    width = 0.8 / len(series)
    for i, (label, values, colour) in enumerate(series):
        xs = [x + (i - (len(series) - 1) / 2) * width for x in range(len(shapes))]
        present = [(x, v) for x, v in zip(xs, values) if v is not None]
        ax.bar([x for x, _ in present], [v for _, v in present], width, label=label, color=colour)
    ax.set_xticks(range(len(shapes)))


def outside_legend(ax):
    """Right of the plot, where it hides no bar."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", frameon=False)


def spans_decades(values):
    values = [v for v in values if v]
    return len(values) > 1 and max(values) / min(values) > 30


def plot_rank(plt, doc):
    shapes, solutions = doc["shapes"], doc["solutions"]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(max(8, 1.6 * len(shapes) + 4), 8), sharex=True)
    series = [(s["name"], [s["gflops"].get(shape["name"]) for shape in shapes],
               SOLUTION_COLOURS[i % len(SOLUTION_COLOURS)]) for i, s in enumerate(solutions)]
    grouped_bars(top, shapes, series)
    cublas = [shape.get("cublas_gflops") for shape in shapes]
    timed = [(x, v) for x, v in enumerate(cublas) if v is not None]
    if timed:
        top.hlines([v for _, v in timed], [x - 0.45 for x, _ in timed], [x + 0.45 for x, _ in timed], color="black",
                   linewidth=2.5, label="cuBLAS SGEMM", zorder=3)
    if spans_decades([v for _, values, _ in series for v in values] + cublas):
        top.set_yscale("log")
    top.set_ylabel("GFLOP/s (2·M·N·K / median time)")
    top.set_title(title(doc, "GFLOP/s per shape"))
    outside_legend(top)
    top.grid(axis="y", alpha=0.3)

    ratios = [(name, [v / c if v is not None and c is not None else None for v, c in zip(values, cublas)], colour)
              for name, values, colour in series]
    grouped_bars(bottom, shapes, ratios)
    bottom.axhline(1.0, color="black", linestyle="--", linewidth=1, label="cuBLAS = 1.0")
    bottom.set_ylabel("ratio to cuBLAS (cuBLAS time / yours)")
    bottom.set_title("ratio to cuBLAS per shape (above 1.0: faster than cuBLAS)")
    bottom.set_xticklabels(tick_labels(shapes), fontsize="small")
    outside_legend(bottom)
    bottom.grid(axis="y", alpha=0.3)
    return fig


def plot_compare(plt, doc):
    shapes = doc["shapes"]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(max(8, 1.6 * len(shapes) + 4), 8), sharex=True)
    grouped_bars(top, shapes, [(doc["old"] + " (old)", [s["old_gflops"] for s in shapes], "#9e9e9e"),
                               (doc["new"] + " (new)", [s["new_gflops"] for s in shapes], "#1f77b4")])
    top.set_ylabel("GFLOP/s (2·M·N·K / median time)")
    top.set_title(title(doc, f"{doc['new']} against {doc['old']}"))
    outside_legend(top)
    top.grid(axis="y", alpha=0.3)

    ratios = [s["new_gflops"] / s["old_gflops"] for s in shapes]
    colours = []
    for s, ratio in zip(shapes, ratios):
        significant = s.get("significant", s["p_value"] < 0.05)
        colours.append("#9e9e9e" if not significant else "#2ca02c" if ratio > 1 else "#d62728")
    errors = [[max(0.0, r - s["interval"][0]) if "interval" in s else 0.0 for s, r in zip(shapes, ratios)],
              [max(0.0, s["interval"][1] - r) if "interval" in s else 0.0 for s, r in zip(shapes, ratios)]]
    level = doc.get("level", 0.99)
    bars = bottom.bar(range(len(shapes)), ratios, 0.6, color=colours, yerr=errors, capsize=4)
    for bar, s in zip(bars, shapes):
        bottom.annotate(f"p = {s['p_value']:.2g}", (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                        xytext=(0, 3), textcoords="offset points", ha="center", fontsize="small")
    bottom.axhline(1.0, color="black", linestyle="--", linewidth=1)
    bottom.set_ylim(0, max(ratios + [s["interval"][1] for s in shapes if "interval" in s] + [1.0]) * 1.2)
    bottom.set_ylabel("new / old (GFLOP/s)")
    bottom.set_title(f"speed-up per shape with its {100 * level:.3g}% interval "
                     "(green faster, red slower, grey not significant)")
    bottom.set_xticks(range(len(shapes)))
    bottom.set_xticklabels(tick_labels(shapes), fontsize="small")
    bottom.grid(axis="y", alpha=0.3)
    return fig


def plot_history(plt, doc):
    from matplotlib import dates

    by_solution = {}
    for attempt in doc["attempts"]:
        when = plot_input.parse_time(attempt["time"], "time")
        by_solution.setdefault(attempt["solution"], []).append((when, attempt["score"]))
    fig, ax = plt.subplots(figsize=(9, 5))
    for i, (solution, points) in enumerate(by_solution.items()):
        points.sort()
        ax.plot([t for t, _ in points], [s for _, s in points], marker="o", label=solution,
                color=SOLUTION_COLOURS[i % len(SOLUTION_COLOURS)])
    low, high = ax.get_ylim()
    if doc["metric"] == "geomean_ratio_to_cublas" and low <= 1.0 <= high:
        ax.axhline(1.0, color="black", linestyle="--", linewidth=1, label="cuBLAS = 1.0")
    ax.set_ylabel(plot_input.METRIC_LABELS[doc["metric"]])
    ax.set_xlabel("time (UTC)")
    ax.set_title(title(doc, "score per attempt"))
    outside_legend(ax)
    ax.grid(alpha=0.3)
    locator = dates.AutoDateLocator()
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(dates.ConciseDateFormatter(locator))
    return fig


PLOTTERS = {"rank": plot_rank, "compare": plot_compare, "history": plot_history}


def main():
    if sys.argv[1:] == ["--check"]:  # scripts/lib/ensure-matplotlib.sh asks before a run with --plot
        pyplot()
        return
    parser = argparse.ArgumentParser(description="Draw a judge JSON file (rank, compare, history) as PNG or SVG.")
    parser.add_argument("input", help="the JSON file the judge wrote")
    parser.add_argument("output", help="the picture to write, ending in .png or .svg")
    args = parser.parse_args()
    extension = os.path.splitext(args.output)[1].lower()
    if extension not in (".png", ".svg"):
        fail(2, f"{args.output}: the output must end in .png or .svg")
    try:
        doc = plot_input.load(args.input)
    except plot_input.BadInput as e:
        fail(2, f"bad input {args.input}: {e}")
    plt = pyplot()
    fig = PLOTTERS[doc["kind"]](plt, doc)
    fig.tight_layout()
    try:
        # No date in the file: the same input draws the same bytes.
        fig.savefig(args.output, dpi=120, metadata={"Date": None} if extension == ".svg" else {})
    except OSError as e:
        fail(2, f"cannot write {args.output}: {e.strerror}")


if __name__ == "__main__":
    main()
