#!/usr/bin/env python3
"""Checks every problem below testcases/ against the descriptor schema of docs/problems.md.

For each folder holding a problem.json: the descriptor's keys and types, that every role and
dimension names a parameter, that gemm/batch expressions are products of the dimensions, that
starter.cu's entry point has the descriptor's parameters (whitespace aside), that statement.md
exists, and that its cases name their shape in the problem's dimensions, set only its scalars,
use distinct seeds and keep operands of 2^31 elements or more in huge/.

    testcases/check-problems.py [TESTCASES]      # exit 0: all good; 1: problems listed
Standard library only, so it runs wherever python3 does.
"""
import json
import re
import sys
import textwrap
from pathlib import Path

KEYS = ["name", "site", "title", "url", "entry", "parameters", "roles", "dims", "gemm", "batch", "op",
        "dtype", "scaling", "epilogue", "quantization", "structure", "tolerance", "baseline", "scalars"]
REQUIRED = ["name", "site", "title", "url", "entry", "parameters", "roles", "dims", "gemm", "dtype",
            "tolerance", "baseline"]
ENTRY_OF_SITE = {"LeetGPU": "solve", "Tensara": "solution", "KernelBench": "solve"}
POINTER_TYPES = {"const float *": "fp32", "float *": "fp32", "const half *": "fp16", "half *": "fp16",
                 "const __nv_bfloat16 *": "bf16", "__nv_bfloat16 *": "bf16",
                 "const int8_t *": "int8", "int8_t *": "int8"}
INTEGER_TYPES = {"int", "size_t"}
SCALAR_TYPES = INTEGER_TYPES | {"float"}
OPERAND_ROLES = {"A", "B", "C", "bias", "E", "x", "y", "diagonal"}
OUTPUT_ROLES = {"C", "y"}
FLOAT_ROLES = {"alpha", "beta", "slope", "scale", "scale_A", "scale_B", "scale_C"}
INT_ROLES = {"zero_point_A", "zero_point_B", "zero_point_C", "nnz"}
DTYPES = {"fp32", "fp16", "bf16", "int8", "int32"}
EPILOGUE_ARGS = {"bias": {}, "relu": {}, "leaky_relu": {"slope": "float"}, "multiply": {"by": "operand"},
                 "swish": {}, "scale": {"by": "float"}, "sigmoid_sum": {}, "triangle": {"keep": "side"}}
STRUCTURES = {"general", "symmetric", "lower", "upper", "diagonal", "masked"}
BASELINES = {"cublasSgemm", "cublasSgemv", "cublasSgemmStridedBatched", "cublasGemmEx",
             "cublasGemmStridedBatchedEx", "cublasLtMatmul", "cublasSdgmm", "cublasStrmm", "cublasSsymm"}
CATEGORIES = ["sample", "secret", "perf", "rank", "huge"]
DATA_WORDS = {"uniform": 2, "integers": 2, "normal": 0, "mixed": 0, "sparse": 1}
TWO_POW_31 = 2**31
SECRET_WORK_LIMIT = 1.5e9  # multiply-adds: the default suite must stay quick
DEFAULT_PROBLEM = "leetgpu/2-matrix-multiplication"


class Report:
    def __init__(self, testcases):
        self.errors = []
        self.prefix = str(testcases.resolve().parent) + "/"

    def error(self, where, what):
        where = str(where)
        where = where[len(self.prefix):] if where.startswith(self.prefix) else where
        self.errors.append(f"{where}: {what}")


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def product_terms(expression):
    return [term.strip() for term in expression.split("*")]


def check_product(report, where, expression, dims, allow_zero=False):
    if not isinstance(expression, str) or not expression.strip():
        report.error(where, f"{expression!r} is not a product of dimensions")
        return
    if allow_zero and expression.strip() == "0":
        return
    if expression.strip() == "1":
        return
    for term in product_terms(expression):
        if term not in dims:
            report.error(where, f"'{term}' in '{expression}' is not one of dims {dims}")


def evaluate(expression, values):
    result = 1
    for term in product_terms(expression):
        result *= int(term) if term.isdigit() else values[term]
    return result


def normalise_type(text):
    text = re.sub(r"\s+", " ", text.strip())
    text = re.sub(r"\s*\*\s*", " *", text)
    return text.replace("__half", "half")


def parse_starter(report, path, entry):
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"//[^\n]*", "", text)
    match = re.search(r'extern\s+"C"\s+void\s+' + re.escape(entry) + r"\s*\(([^)]*)\)", text)
    if not match:
        report.error(path, f'no extern "C" void {entry}(...)')
        return None
    parameters = []
    for piece in match.group(1).split(","):
        piece = re.sub(r"\s+", " ", piece.strip())
        found = re.fullmatch(r"(.*?[\s*])([A-Za-z_]\w*)", piece)
        if not found:
            report.error(path, f"cannot read the parameter '{piece}'")
            return None
        type_text = normalise_type(found.group(1))
        # A top-level const on a by-value parameter is not part of the function's type (C++
        # [dcl.fct]), so `const float scale` declares the same entry point as `float scale`.
        if not type_text.endswith("*") and type_text.startswith("const "):
            type_text = type_text[len("const "):]
        parameters.append({"name": found.group(2), "type": type_text})
    return parameters


def check_parameters(report, where, parameters):
    names = {}
    if not isinstance(parameters, list) or not parameters:
        report.error(where, "parameters must be a non-empty list")
        return names
    for index, parameter in enumerate(parameters):
        here = f"{where}: parameters[{index}]"
        if not isinstance(parameter, dict) or set(parameter) != {"name", "type"}:
            report.error(here, 'must be {"name": ..., "type": ...}')
            continue
        name, type_text = parameter["name"], parameter["type"]
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_]\w*", name):
            report.error(here, f"{name!r} is not a C identifier")
        elif name in names:
            report.error(here, f"'{name}' appears twice")
        if type_text not in POINTER_TYPES and type_text not in SCALAR_TYPES:
            report.error(here, f"type {type_text!r} is not one of the schema's types")
        names[name] = type_text
    return names


def check_roles(report, where, roles, types):
    if not isinstance(roles, dict) or not roles:
        report.error(where, "roles must be a non-empty object")
        return {}
    for role, parameter in roles.items():
        here = f"{where}: roles.{role}"
        if role not in OPERAND_ROLES | FLOAT_ROLES | INT_ROLES:
            report.error(here, "not a role of the schema")
            continue
        if parameter not in types:
            report.error(here, f"'{parameter}' is not a parameter")
            continue
        type_text = types[parameter]
        if role in OPERAND_ROLES:
            if type_text not in POINTER_TYPES:
                report.error(here, f"'{parameter}' is {type_text}, not a pointer")
            elif (role in OUTPUT_ROLES) == type_text.startswith("const "):
                wanted = "a writable pointer" if role in OUTPUT_ROLES else "a const pointer"
                report.error(here, f"'{parameter}' ({type_text}) should be {wanted}")
        elif role in FLOAT_ROLES and type_text != "float":
            report.error(here, f"'{parameter}' is {type_text}, not float")
        elif role in INT_ROLES and type_text not in INTEGER_TYPES:
            report.error(here, f"'{parameter}' is {type_text}, not an integer")
    for operand in ("A", "B", "C"):
        if operand not in roles:
            report.error(where, f"roles has no {operand}: every problem names its A, B and C")
    return roles


def check_descriptor(report, path, descriptor, expected_name):
    where = str(path)
    if not isinstance(descriptor, dict):
        report.error(where, "the descriptor must be a JSON object")
        return None
    for key in descriptor:
        if key not in KEYS:
            report.error(where, f"unknown key '{key}'")
    for key in REQUIRED:
        if key not in descriptor:
            report.error(where, f"missing key '{key}'")
    if any(key not in descriptor for key in ("parameters", "dims", "roles", "gemm")):
        return None
    if descriptor.get("name") != expected_name:
        report.error(where, f"name {descriptor.get('name')!r} should be '{expected_name}' (its folder)")
    site = descriptor.get("site")
    if site not in ENTRY_OF_SITE:
        report.error(where, f"site {site!r} is not one of {sorted(ENTRY_OF_SITE)}")
    elif descriptor.get("entry") != ENTRY_OF_SITE[site]:
        report.error(where, f"entry {descriptor.get('entry')!r}: {site}'s entry point is {ENTRY_OF_SITE[site]}")
    for key in ("title", "url"):
        if not isinstance(descriptor.get(key), str) or not descriptor.get(key):
            report.error(where, f"{key} must be a non-empty string")

    types = check_parameters(report, where, descriptor["parameters"])
    roles = check_roles(report, where, descriptor["roles"], types)
    dims = descriptor["dims"]
    if not isinstance(dims, list) or not dims:
        report.error(where, "dims must be a non-empty list")
        dims = []
    for dim in dims:
        if types.get(dim) not in INTEGER_TYPES:
            report.error(where, f"dims: '{dim}' is not an integer parameter")
    if len(set(dims)) != len(dims):
        report.error(where, "dims: a dimension appears twice")
    named = set(dims) | set(roles.values())
    for name in types:
        if name not in named:
            report.error(where, f"parameter '{name}' is neither a role nor a dimension")

    gemm = descriptor["gemm"]
    if not isinstance(gemm, dict) or set(gemm) != {"M", "N", "K"}:
        report.error(where, "gemm must have exactly the keys M, N, K")
    else:
        for key, expression in gemm.items():
            check_product(report, f"{where}: gemm.{key}", expression, dims)

    if "batch" in descriptor:
        batch = descriptor["batch"]
        if not isinstance(batch, dict) or set(batch) != {"count", "stride_A", "stride_B", "stride_C"}:
            report.error(where, "batch must have exactly count, stride_A, stride_B, stride_C")
        else:
            check_product(report, f"{where}: batch.count", batch["count"], dims)
            for key in ("stride_A", "stride_B", "stride_C"):
                check_product(report, f"{where}: batch.{key}", batch[key], dims, allow_zero=True)

    op = descriptor.get("op", {})
    if not isinstance(op, dict) or not set(op) <= {"A", "B"} or not set(op.values()) <= {"N", "T"}:
        report.error(where, 'op must be like {"A": "N", "B": "T"}')

    dtype = descriptor["dtype"]
    if not isinstance(dtype, dict) or set(dtype) != {"A", "B", "accumulate", "C"}:
        report.error(where, "dtype must have exactly the keys A, B, accumulate, C")
    else:
        for key, value in dtype.items():
            if value not in DTYPES:
                report.error(where, f"dtype.{key}: {value!r} is not one of {sorted(DTYPES)}")
        for role, key in (("A", "A"), ("B", "B"), ("C", "C"), ("x", "B"), ("y", "C"), ("diagonal", "A")):
            parameter = roles.get(role)
            if parameter in types and POINTER_TYPES.get(types[parameter], dtype[key]) != dtype[key]:
                report.error(where, f"dtype.{key} is {dtype[key]} but '{parameter}' is {types[parameter]}")

    if "scaling" in descriptor:
        scaling = descriptor["scaling"]
        if not isinstance(scaling, dict) or not set(scaling) <= {"alpha", "beta", "c_read"}:
            report.error(where, "scaling has only alpha, beta and c_read")
        else:
            for key in ("alpha", "beta"):
                if key in scaling and types.get(scaling[key]) != "float":
                    report.error(where, f"scaling.{key}: '{scaling[key]}' is not a float parameter")
            if not isinstance(scaling.get("c_read", False), bool):
                report.error(where, "scaling.c_read must be true or false")

    for index, step in enumerate(descriptor.get("epilogue", [])):
        here = f"{where}: epilogue[{index}]"
        if not isinstance(step, dict) or step.get("op") not in EPILOGUE_ARGS:
            report.error(here, f"op must be one of {sorted(EPILOGUE_ARGS)}")
            continue
        arguments = EPILOGUE_ARGS[step["op"]]
        if set(step) - {"op"} != set(arguments):
            report.error(here, f"{step['op']} takes {sorted(arguments) or 'no arguments'}")
            continue
        for argument, kind in arguments.items():
            value = step[argument]
            if kind == "float" and types.get(value) != "float":
                report.error(here, f"{argument}: '{value}' is not a float parameter")
            if kind == "operand" and value not in roles:
                report.error(here, f"{argument}: '{value}' is not a role of this problem")
            if kind == "side" and value not in ("lower", "upper"):
                report.error(here, f"{argument}: '{value}' is neither lower nor upper")
        if step["op"] == "bias" and "bias" not in roles:
            report.error(here, "a bias step needs a bias role")

    if "quantization" in descriptor:
        quantization = descriptor["quantization"]
        if not isinstance(quantization, dict) or set(quantization) != {"scales", "zero_points", "rounding", "clamp"}:
            report.error(where, "quantization must have scales, zero_points, rounding, clamp")
        else:
            for key, wanted in (("scales", {"float"}), ("zero_points", INTEGER_TYPES)):
                names = quantization[key]
                if not isinstance(names, list) or len(names) != 3 or any(types.get(n) not in wanted for n in names):
                    report.error(where, f"quantization.{key}: three {'/'.join(sorted(wanted))} parameters")
            if quantization["rounding"] != "half_even":
                report.error(where, "quantization.rounding: only half_even is known")
            clamp = quantization["clamp"]
            if not (isinstance(clamp, list) and len(clamp) == 2 and all(isinstance(v, int) for v in clamp)
                    and clamp[0] < clamp[1]):
                report.error(where, "quantization.clamp must be [low, high] integers")

    if "structure" in descriptor:
        structure = descriptor["structure"]
        if not isinstance(structure, dict):
            report.error(where, "structure must be an object")
        else:
            masked = False
            for key, value in structure.items():
                if key == "density":
                    continue
                if key not in ("A", "B"):
                    report.error(where, f"structure.{key}: only the operands A and B have a structure")
                elif value not in STRUCTURES:
                    report.error(where, f"structure.{key}: {value!r} is not one of {sorted(STRUCTURES)}")
                masked |= value == "masked"
            density = structure.get("density")
            if masked != (density is not None):
                report.error(where, "structure: density goes with masked, and only with it")
            elif density is not None and not (is_number(density) and 0 < density <= 1):
                report.error(where, "structure.density must be in (0, 1]")

    tolerance = descriptor["tolerance"]
    if not isinstance(tolerance, dict) or set(tolerance) != {"atol", "rtol"} or not all(
            is_number(v) and v >= 0 for v in tolerance.values()):
        report.error(where, "tolerance must be {atol, rtol}, non-negative numbers")

    if descriptor["baseline"] not in BASELINES:
        report.error(where, f"baseline {descriptor['baseline']!r} is not one of {sorted(BASELINES)}")

    # A case sets a scalar by its role (`scalar slope 0.2` sets the parameter in the role slope);
    # the defaults are named the same way.
    settable = {role for role, parameter in roles.items()
                if role in FLOAT_ROLES | INT_ROLES and role != "nnz" and parameter not in dims}
    scalars = descriptor.get("scalars", {})
    for name, value in scalars.items():
        if name not in settable:
            report.error(where, f"scalars.{name}: not the role of a scalar parameter")
        elif not is_number(value):
            report.error(where, f"scalars.{name}: {value!r} is not a number")
    return {"types": types, "roles": roles, "dims": dims, "gemm": gemm, "scalars": scalars, "settable": settable,
            "batch": descriptor.get("batch"), "structure": descriptor.get("structure", {})}


def operand_sizes(problem, values):
    """Elements of A, B and C in memory, so the 2^31 limit can be checked."""
    gemm = problem["gemm"]
    m, n, k = (evaluate(gemm[key], values) for key in ("M", "N", "K"))
    a, b, c = m * n, n * k, m * k
    diagonal = problem["structure"].get("A") == "diagonal"
    if diagonal:
        a = m  # only the diagonal is stored, and each output is one product
    batch = problem["batch"]
    count = 1
    if batch:
        count = evaluate(batch["count"], values)
        a, b, c = (size * (count if evaluate(batch[f"stride_{key}"], values) else 1)
                   for size, key in ((a, "A"), (b, "B"), (c, "C")))
    work = count * m * k * (1 if diagonal else n)
    return a, b, c, work


def check_case(report, path, category, problem, seeds):
    shape = None
    settable = problem["settable"]
    set_scalars = set()
    keys_seen = set()
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        here = f"{path}:{number}"
        if not words:
            continue
        key, rest = words[0], words[1:]
        if key != "scalar":
            if key in keys_seen:
                report.error(here, f"'{key}' appears twice")
            keys_seen.add(key)
        if key == "shape":
            if len(rest) != len(problem["dims"]) or not all(w.isdigit() and 1 <= int(w) < TWO_POW_31 for w in rest):
                report.error(here, f"shape needs {len(problem['dims'])} sizes in [1, 2^31): {' '.join(problem['dims'])}")
            else:
                shape = dict(zip(problem["dims"], map(int, rest)))
        elif key == "data":
            if not rest or rest[0] not in DATA_WORDS or len(rest) - 1 != DATA_WORDS[rest[0]]:
                report.error(here, f"data: unknown distribution '{' '.join(rest)}'")
        elif key == "seed":
            if len(rest) != 1 or not rest[0].isdigit():
                report.error(here, "seed needs one integer")
            elif rest[0] in seeds:
                report.error(here, f"seed {rest[0]} is also used by {seeds[rest[0]]}")
            else:
                seeds[rest[0]] = str(path).removeprefix(report.prefix)
        elif key == "scalar":
            if len(rest) != 2 or rest[0] not in settable:
                report.error(here, f"scalar ROLE VALUE, ROLE one of {sorted(settable) or 'none: no scalars'}")
                continue
            try:
                value = float(rest[1])
            except ValueError:
                report.error(here, f"'{rest[1]}' is not a number")
                continue
            if problem["types"][problem["roles"][rest[0]]] in INTEGER_TYPES and value != int(value):
                report.error(here, f"{rest[0]} is an integer parameter")
            if rest[0] in set_scalars:
                report.error(here, f"scalar {rest[0]} is set twice")
            set_scalars.add(rest[0])
        elif key != "time_limit":
            report.error(here, f"unknown key '{key}'")
    if shape is None:
        report.error(path, "no valid shape line")
        return
    if not problem["sound"]:
        return  # sizes come from the descriptor's expressions, reported above
    for name in sorted(settable - set_scalars - set(problem["scalars"])):
        report.error(path, f"scalar '{name}' has no default and the case does not set it")
    a, b, c, work = operand_sizes(problem, shape)
    over = max(a, b, c) >= TWO_POW_31
    if over and category != "huge":
        report.error(path, "an operand has 2^31 elements or more: the case belongs in huge/")
    if not over and category == "huge":
        report.error(path, "no operand reaches 2^31 elements: the case does not belong in huge/")
    if category == "secret" and work > SECRET_WORK_LIMIT:
        report.error(path, f"{work:.3g} multiply-adds: too slow for a secret case")


def check_problem(report, descriptor_path, testcases, seeds):
    folder = descriptor_path.parent
    relative = folder.relative_to(testcases).as_posix()
    expected = DEFAULT_PROBLEM if relative == "." else relative
    try:
        descriptor = json.loads(descriptor_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        report.error(descriptor_path, f"not readable JSON: {error}")
        return
    errors_before = len(report.errors)
    problem = check_descriptor(report, descriptor_path, descriptor, expected)
    if problem is not None:
        problem["sound"] = len(report.errors) == errors_before
    if problem is None or relative == ".":
        return  # the default problem's cases use the seed's format (shape M N K)
    if not (folder / "statement.md").is_file():
        report.error(folder, "no statement.md")
    starter = folder / "starter.cu"
    if not starter.is_file():
        report.error(folder, "no starter.cu")
    else:
        found = parse_starter(report, starter, descriptor.get("entry", ""))
        wanted = [{"name": p["name"], "type": normalise_type(p["type"])} for p in descriptor["parameters"]]
        if found is not None and found != wanted:
            shown = ", ".join(f"{p['type']} {p['name']}" for p in found)
            report.error(starter, f"the entry point's parameters ({shown}) differ from problem.json's")
    cases = 0
    for category in CATEGORIES:
        for path in sorted((folder / category).rglob("*.case")):
            check_case(report, path, category, problem, seeds)
            cases += 1
    if not any((folder / category).is_dir() for category in ("sample", "secret")):
        report.error(folder, "no sample/ or secret/ cases")
    return cases


def main():
    testcases = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent).resolve()
    report = Report(testcases)
    seeds = {}
    problems = cases = 0
    for descriptor_path in sorted(testcases.rglob("problem.json")):
        cases += check_problem(report, descriptor_path, testcases, seeds) or 0
        problems += 1
    for line in report.errors:
        print(textwrap.fill(line, 100, subsequent_indent="    ", break_long_words=False))
    print(f"{problems} problems, {cases} cases checked: {len(report.errors)} problems found")
    return 1 if report.errors or problems == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
