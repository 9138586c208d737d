"""The JSON files that plot.py (beside this file) and scripts/ladder-table read, written by the judge:
their schema, and a loader that says exactly what is wrong with a bad one.

Every file is one object with "kind" and optional "title" and "gpu" (the GPU's name):

  {"kind": "rank",                       several solutions over the same shapes
   "shapes": [{"name": "perf/01-cube-4096", "M": 4096, "N": 4096, "K": 4096,
               "cublas_gflops": 50800.0}],            (null or absent: cuBLAS not timed)
   "solutions": [{"name": "01-naive.cu",                 in ladder order: rung 1 first
                  "gflops": {"perf/01-cube-4096": 5380.0}}],   (a shape left out: not timed)
   "peak_gflops": 66908.16,                           optional: the FP32 peak of the run
   "peak_formula": "132 SMs × 128 FP32 lanes × 2 FLOP × 1980 MHz = 66.9 TFLOP/s"}  optional

  {"kind": "compare",                    an old and a new solution, shape by shape
   "old": "02-tiled.cu", "new": "tiled-v2.cu",
   "shapes": [{"name": "perf/01-cube-4096", "M": 4096, "N": 4096, "K": 4096,
               "old_gflops": 8090.0, "new_gflops": 9100.0,
               "p_value": 0.0003,                     Mann–Whitney U, two-sided
               "interval": [1.11, 1.14],              optional: new/old's interval, low ≤ high
               "significant": true}],                 optional: the interval excludes 1 and p < alpha
   "level": 0.99}                                     optional: the intervals' confidence level

  {"kind": "history",                    scores over time, one line per solution
   "metric": "geomean_ratio_to_cublas",               or "percent_of_peak"
   "attempts": [{"time": "2025-06-01T12:34:56Z", "solution": "02-tiled.cu", "score": 0.16}]}

GFLOP/s are 2·M·N·K / median time; M×N is A, N×K is B, the inner dimension is N.
"""
import datetime
import json
import math

METRIC_LABELS = {
    "geomean_ratio_to_cublas": "geometric-mean ratio to cuBLAS (cuBLAS time / yours)",
    "percent_of_peak": "% of FP32 peak (geometric mean)",
}


class BadInput(Exception):
    """The file is not what the schema above describes; the message says where."""


def _require(condition, where, what):
    if not condition:
        raise BadInput(f"{where}: {what}")


def _number(value, where, positive=True, allow_none=False):
    if value is None and allow_none:
        return None
    _require(isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value),
             where, f"expected a number, found {json.dumps(value)}")
    if positive:
        _require(value > 0, where, f"expected a positive number, found {value}")
    return float(value)


def _text(value, where):
    _require(isinstance(value, str) and value != "", where, f"expected a non-empty string, found {json.dumps(value)}")
    return value


def _list(value, where):
    _require(isinstance(value, list) and value, where, "expected a non-empty list")
    return value


def _object(value, where):
    _require(isinstance(value, dict), where, f"expected an object, found {json.dumps(value)[:40]}")
    return value


def _shape(entry, where):
    _object(entry, where)
    for key in ("M", "N", "K"):
        _require(isinstance(entry.get(key), int) and not isinstance(entry.get(key), bool) and entry[key] > 0,
                 f"{where}.{key}", f"expected a positive integer, found {json.dumps(entry.get(key))}")
    _text(entry.get("name"), f"{where}.name")


def _check_rank(doc):
    shapes = _list(doc.get("shapes"), "shapes")
    for i, shape in enumerate(shapes):
        _shape(shape, f"shapes[{i}]")
        _number(shape.get("cublas_gflops"), f"shapes[{i}].cublas_gflops", allow_none=True)
    names = [s["name"] for s in shapes]
    _require(len(set(names)) == len(names), "shapes", "two shapes have the same name")
    for i, solution in enumerate(_list(doc.get("solutions"), "solutions")):
        _object(solution, f"solutions[{i}]")
        _text(solution.get("name"), f"solutions[{i}].name")
        gflops = _object(solution.get("gflops"), f"solutions[{i}].gflops")
        for shape_name, value in gflops.items():
            _require(shape_name in names, f"solutions[{i}].gflops", f"no shape named {shape_name!r}")
            _number(value, f"solutions[{i}].gflops[{shape_name!r}]")
    if "peak_gflops" in doc:
        _number(doc["peak_gflops"], "peak_gflops")


def _check_compare(doc):
    _text(doc.get("old"), "old")
    _text(doc.get("new"), "new")
    for i, shape in enumerate(_list(doc.get("shapes"), "shapes")):
        _shape(shape, f"shapes[{i}]")
        _number(shape.get("old_gflops"), f"shapes[{i}].old_gflops")
        _number(shape.get("new_gflops"), f"shapes[{i}].new_gflops")
        p = _number(shape.get("p_value"), f"shapes[{i}].p_value", positive=False)
        _require(0 <= p <= 1, f"shapes[{i}].p_value", f"expected a probability, found {p}")
        if "significant" in shape:
            _require(isinstance(shape["significant"], bool), f"shapes[{i}].significant", "expected true or false")
        if "interval" in shape:
            where = f"shapes[{i}].interval"
            _require(isinstance(shape["interval"], list) and len(shape["interval"]) == 2, where,
                     "expected [low, high]")
            low, high = (_number(end, where) for end in shape["interval"])
            _require(low <= high, where, f"expected low ≤ high, found {low} > {high}")
    if "level" in doc:
        level = _number(doc["level"], "level")
        _require(level < 1, "level", f"expected a confidence level below 1, found {level}")


def parse_time(text, where):
    """ISO 8601 in UTC as the judge writes it, "2025-06-01T12:34:56Z"."""
    try:
        return datetime.datetime.strptime(_text(text, where), "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        raise BadInput(f"{where}: expected a UTC time like 2025-06-01T12:34:56Z, found {text!r}") from None


def _check_history(doc):
    _require(doc.get("metric") in METRIC_LABELS, "metric", f"expected one of {', '.join(METRIC_LABELS)}")
    for i, attempt in enumerate(_list(doc.get("attempts"), "attempts")):
        _object(attempt, f"attempts[{i}]")
        parse_time(attempt.get("time"), f"attempts[{i}].time")
        _text(attempt.get("solution"), f"attempts[{i}].solution")
        _number(attempt.get("score"), f"attempts[{i}].score")


CHECKS = {"rank": _check_rank, "compare": _check_compare, "history": _check_history}


def load(path, kinds=tuple(CHECKS)):
    """The document in path, checked against its kind's schema; BadInput otherwise."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise BadInput(f"cannot read it: {e.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise BadInput(f"not JSON: {e}") from None
    _object(doc, "the document")
    kind = doc.get("kind")
    _require(kind in kinds, "kind", f"expected {' or '.join(map(repr, kinds))}, found {json.dumps(kind)}")
    for key in ("title", "gpu"):
        if key in doc:
            _text(doc[key], key)
    CHECKS[kind](doc)
    return doc


def shape_label(shape):
    """'4096³' for a cube, '8192×6144×4096' otherwise (M×N×K)."""
    if shape["M"] == shape["N"] == shape["K"]:
        return f"{shape['M']}³"
    return f"{shape['M']}×{shape['N']}×{shape['K']}"


def geometric_mean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))
