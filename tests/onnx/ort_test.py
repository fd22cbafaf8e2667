#!/usr/bin/env python3
"""Every graph the script tests trace, exported to ONNX and run in ONNX Runtime.

    ort_test.py TG [--keep DIR] [--min N] [SCRIPT_DIR...]

1. Runs every .tg script under tests/scripts that uses @graph (and
   examples/) with `--no-jit --dump-graphs`: each trace is written as a graph
   value (.tgx; its inputs the traced tensors, its result a tuple).
2. Per graph: draws inputs at random with NumPy by the graph's input specs
   (floats normal(0, 1), ints in [1, 6), bools fair), and runs a small tg
   script that saves the graph as .onnx, runs it in tg on those inputs and
   saves the outputs. When tg raises on the drawn inputs (an index out of
   range, ...), other inputs are drawn, up to 3 times; a graph that runs
   over 3 s on them (a loop that never ends for such inputs) is skipped.
3. Runs every model in ONNX Runtime at once (tests/onnx/run_ort.js, Node and
   the npm package onnxruntime-node) and compares: ints and bools exactly,
   floats within docs/graph.md's tolerance (relative 1e-5 for f32, 1e-9 for f64, or
   absolute 1e-6 / 1e-12 near 0), NaN where tg has NaN.

Graphs that cannot be exported (print, assert, random ops, host functions,
ops without an ONNX mapping) are skipped and listed with the reason. The
test fails on any disagreement or ONNX Runtime error, when fewer than --min
graphs were compared, and when one of REQUIRED (the edges of
tests/onnx/cases/edges.tg, the MLP trained in tests/onnx/cases/mlp.tg, If
and Loop with break and early return) was skipped, and (for the whole
suite) when an op of MAPPED is in no graph that agreed. ONNX Runtime is looked up in $TG_ORT_DIR or
<repo>/.cache/ort (scripts/install-deps installs it there); without it the
test fails if TG_REQUIRE_ORT=1 (CI, scripts/test) and is skipped (exit 77)
otherwise.
"""
import argparse
import ast
import collections
import concurrent.futures as cf
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
DTYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64, "bool": np.bool_}
TOL = {np.float32: (1e-5, 1e-6), np.float64: (1e-9, 1e-12)}
# Sums of many products (matmul, conv2d: hundreds of terms, and layers of
# them) round differently in ONNX Runtime's kernels: an element also agrees
# when within this fraction of the output's largest magnitude.
NORM_TOL = {np.float32: 1e-4, np.float64: 1e-12}
# Graphs that must be among those that agree (when their folder is tested):
# the edges where ONNX's ops differ from tg's, the trained MLP, and If / Loop
# with break and early return.
REQUIRED = [
    "tests/onnx/cases/edges.tg: " + f for f in
    ["floor_mod_int.1", "floor_mod_float.1", "nan_extremes.1", "arg_ties.1", "rounding_and_casts.1", "logic.1",
     "unary_functions.1", "log_add_exp.1", "reductions.1", "shapes.1", "nn_helpers.1", "fill_and_scatter_add.1", "layouts.1",
     "sorting.1", "conv_layers.1", "conv_gradients.1"]
] + [
    "tests/onnx/cases/mlp.tg: predict.1",
    "tests/scripts/graph/if_dynamic.tg: g.1",
    "tests/scripts/graph/break_while.tg: sum_until_negative.1",
    "tests/scripts/graph/return_in_loop.tg: index_of.1",
    "tests/scripts/graph/return_in_loop.tg: is_prime.1",
]
# Graphs known to disagree, each with its reason: counted as skipped (the
# reason shown); one that agrees again fails the run, so the list empties
# as the fixes land.
KNOWN_DISAGREE = {
    "tests/scripts/numpy/stats.tg: f_cov_ddof.1":
        "known: ONNX Runtime's MatMulScaleFusion folds cov's division by N into MatMul's alpha, a float "
        "attribute, so an f64 (x @ x.T) / 5 is off by ~1.5e-8 relative there (docs/exporting-onnx.md)",
}
# Every op the exporter maps (onnx_export/map_*.cpp), as the IR text names
# it: each must be in at least one graph that agrees (when the whole suite
# runs). Creation ops are computed at export time and usually folded, so
# they are not listed.
MAPPED = set("""
neg invert logical_not abs exp expm1 log log1p sqrt rsqrt sin cos tan tanh sigmoid relu floor ceil round sign square
isnan isfinite isinf log2 log10 asin acos atan sinh cosh erf gelu gelu_tanh softplus trunc reciprocal
add sub mul div floordiv mod pow maximum minimum eq ne lt le gt ge bitand bitor bitxor left_shift right_shift atan2 logaddexp
where clip astype sum mean max min prod argmax argmin any all logsumexp var std
matmul dot outer transpose reshape expand_dims squeeze flatten broadcast_to concat stack flip tile tril triu take
roll repeat pad diag norm det sort argsort median _gather _scatter _scatter_add softmax log_softmax cross_entropy mse cumsum cumprod one_hot full zeros_like ones_like
conv2d conv_transpose2d _conv2d_weight_grad max_pool2d _max_pool2d_backward
const cond while index index_assign truth undef
""".split())
ATTEMPTS = 3
TIMEOUT = 3  # seconds of one tg run on drawn inputs


def find_ort():
    for d in [os.environ.get("TG_ORT_DIR"), REPO / ".cache" / "ort"]:
        if d and (pathlib.Path(d) / "node_modules" / "onnxruntime-node").is_dir():
            return pathlib.Path(d) / "node_modules"
    return None


def graph_scripts(dirs):
    for d in dirs:
        for p in sorted(pathlib.Path(d).rglob("*.tg")):
            if "@graph" in p.read_text(errors="replace"):
                yield p


def tg_run(tg, args, cwd, timeout=20):
    try:
        return subprocess.run([tg, "run", "--no-jit", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def dump(tg, script, out):
    """The traces of one script, as .tgx files in `out`."""
    out.mkdir(parents=True)
    tg_run(tg, ["--dump-graphs", str(out), script.name], script.parent)
    return sorted(out.glob("*.tgx"))


def describe(tg, tgx_files, work):
    """Input and output specs of each graph: {path: (inputs, outputs)}, each a list of (shape, dtype)."""
    lines = ["for p in [" + ", ".join(json.dumps(str(p)) for p in tgx_files) + "]:",
             "    g = load(p)",
             "    print('graph', p)",
             "    for s in g.inputs:",
             "        print('in', s.shape, s.dtype)",
             "    for s in g.outputs:",
             "        print('out', s.shape, s.dtype)"]
    src = work / "describe.tg"
    src.write_text("\n".join(lines) + "\n")
    r = tg_run(tg, [str(src)], work, timeout=60)
    if r is None or r.returncode != 0:
        raise SystemExit("describing the graphs failed:\n" + (r.stderr if r else "timeout"))
    specs, cur = {}, None
    for line in r.stdout.splitlines():
        kind, rest = line.split(" ", 1)
        if kind == "graph":
            cur = specs.setdefault(rest, ([], []))
            continue
        shape, dtype = rest.rsplit(" ", 1)
        cur[0 if kind == "in" else 1].append((ast.literal_eval(shape), DTYPES[dtype]))
    return specs


def draw(rng, shape, dtype):
    if dtype in (np.float32, np.float64):
        return rng.standard_normal(shape).astype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    return rng.integers(1, 6, shape).astype(dtype)


def run_in_tg(tg, tgx, specs, work, index):
    """Exports `tgx` and runs it in tg on random inputs. Returns (status, detail, job)."""
    base = work / f"g{index}"
    ins, outs = specs
    onnx_path = base.with_suffix(".onnx")
    last = ""
    for attempt in range(ATTEMPTS):
        rng = np.random.default_rng(1000 * index + attempt)
        in_files = []
        for k, (shape, dtype) in enumerate(ins):
            f = pathlib.Path(f"{base}.in{k}.npy")
            np.save(f, draw(rng, shape, dtype))
            in_files.append(f)
        lines = [f"g = load({json.dumps(str(tgx))})",
                 f"save({json.dumps(str(onnx_path))}, g)",
                 "r = g(" + ", ".join(f"load({json.dumps(str(f))})" for f in in_files) + ")"]
        for k in range(len(outs)):
            lines.append(f"save({json.dumps(f'{base}.tg{k}.npy')}, r[{k}])")
        src = pathlib.Path(f"{base}.tg")
        src.write_text("\n".join(lines) + "\n")
        r = tg_run(tg, [str(src)], work, timeout=TIMEOUT)
        if r is None:  # a loop that does not end for such inputs: others would not help
            return "no-inputs", f"tg ran over {TIMEOUT} s on the drawn inputs", None
        if r.returncode == 0:
            job = {"model": str(onnx_path), "inputs": [str(f) for f in in_files],
                   "outputs": [f"{base}.ort{k}.npy" for k in range(len(outs))]}
            return "ok", "", job
        err = r.stderr.strip().splitlines()
        message = next((l for l in err if "error:" in l), err[0] if err else "exit %d" % r.returncode)
        if re.search(r"error: save: ", message):
            return "unexportable", message.split("error: ", 1)[1], None
        last = "tg raises on the drawn inputs: " + message.split("error: ", 1)[-1]
    return "no-inputs", last, None


def agree(tg_out, ort_out):
    if tg_out.shape != ort_out.shape:
        return f"shape {tg_out.shape} vs ONNX Runtime's {ort_out.shape}"
    if tg_out.dtype != ort_out.dtype:
        return f"dtype {tg_out.dtype} vs ONNX Runtime's {ort_out.dtype}"
    if tg_out.dtype.type in TOL:
        rtol, atol = TOL[tg_out.dtype.type]
        finite = np.abs(tg_out[np.isfinite(tg_out)])
        if finite.size:
            atol = max(atol, NORM_TOL[tg_out.dtype.type] * float(finite.max()))
        if not np.allclose(ort_out, tg_out, rtol=rtol, atol=atol, equal_nan=True):
            i = np.unravel_index(np.argmax(~np.isclose(ort_out, tg_out, rtol=rtol, atol=atol, equal_nan=True)), tg_out.shape)
            return f"at {tuple(int(x) for x in i)}: tg {tg_out[i]!r}, ONNX Runtime {ort_out[i]!r}"
    elif not np.array_equal(tg_out, ort_out):
        i = np.unravel_index(np.argmax(tg_out != ort_out), tg_out.shape)
        return f"at {tuple(int(x) for x in i)}: tg {tg_out[i]!r}, ONNX Runtime {ort_out[i]!r}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tg")
    ap.add_argument("dirs", nargs="*")
    ap.add_argument("--keep", help="keep the files in this folder")
    ap.add_argument("--min", type=int, default=40, help="fail when fewer graphs were compared")
    a = ap.parse_args()
    tg = str(pathlib.Path(a.tg).resolve())
    node_modules = find_ort()
    node = shutil.which("node") or shutil.which("nodejs")
    if node_modules is None or node is None:
        what = "node" if node is None else "onnxruntime-node (in $TG_ORT_DIR or .cache/ort)"
        if os.environ.get("TG_REQUIRE_ORT") == "1":
            print(f"FAIL: {what} is missing (scripts/install-deps installs it)")
            return 1
        print(f"SKIP: {what} is missing (scripts/install-deps installs it)")
        return 77
    dirs = [pathlib.Path(d).resolve() for d in a.dirs] or [REPO / "tests" / "scripts", REPO / "examples", HERE / "cases"]
    # tg saves with fsync: on tmpfs that costs nothing
    shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    work = pathlib.Path(a.keep or tempfile.mkdtemp(prefix="tg-ort-", dir=shm)).resolve()
    if a.keep and work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    scripts = list(graph_scripts(dirs))
    with cf.ThreadPoolExecutor(max_workers=2) as ex:
        tgx_lists = list(ex.map(lambda ip: dump(tg, ip[1], work / f"s{ip[0]}"), enumerate(scripts)))
    origin = {}
    for script, files in zip(scripts, tgx_lists):
        for f in files:
            origin[f] = f"{script.relative_to(REPO)}: {f.stem}"
    tgx_files = sorted(origin, key=lambda f: origin[f])
    t0 = time.time()
    specs = describe(tg, tgx_files, work)
    with cf.ThreadPoolExecutor(max_workers=2) as ex:
        results = list(ex.map(lambda ip: run_in_tg(tg, ip[1], specs[str(ip[1])], work, ip[0]), enumerate(tgx_files)))
    t1 = time.time()
    jobs = [job for status, _, job in results if status == "ok"]
    (work / "jobs.json").write_text(json.dumps(jobs))
    env = dict(os.environ, NODE_PATH=str(node_modules))
    r = subprocess.run([node, str(HERE / "run_ort.js"), str(work / "jobs.json")], capture_output=True, text=True,
                       env=env, timeout=300)
    if r.returncode != 0:
        print("run_ort.js failed:\n" + r.stderr)
        return 1
    t2 = time.time()
    ort = {json.loads(l)["model"]: json.loads(l) for l in r.stdout.splitlines()}
    failures, compared, agreed, exercised = [], 0, set(), set()
    skipped = collections.defaultdict(list)
    for f, (status, detail, job) in zip(tgx_files, results):
        name = origin[f]
        if status != "ok":
            skipped[detail].append(name)
            continue
        res = ort[job["model"]]
        if not res["ok"]:
            failures.append(f"{name}: ONNX Runtime: {res['error']}")
            continue
        base = job["model"][: -len(".onnx")]
        known = KNOWN_DISAGREE.get(name)
        for k, out in enumerate(job["outputs"]):
            why = agree(np.load(f"{base}.tg{k}.npy"), np.load(out))
            if why:
                if known:
                    skipped[known].append(name)
                else:
                    failures.append(f"{name}: output {k}: {why}")
                break
        else:
            if known:
                failures.append(f"{name}: agrees now: remove it from KNOWN_DISAGREE")
                continue
            compared += 1
            agreed.add(name)
            exercised.update(re.findall(r"= ([a-z_0-9]+)", f.with_suffix(".txt").read_text()))
    print(f"{len(scripts)} scripts with @graph, {len(tgx_files)} traces; {compared} agree in ONNX Runtime; "
          f"{sum(len(v) for v in skipped.values())} skipped (tg {t1 - t0:.1f} s, ONNX Runtime {t2 - t1:.1f} s):")
    for why, names in sorted(skipped.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(names):3d}  {why}")
        for n in names[:3]:
            print(f"         {n}")
    tested = set(origin.values())
    for name in REQUIRED:
        if name in tested and name not in agreed:
            failures.append(f"{name}: required to agree in ONNX Runtime, but it was skipped")
    if not a.dirs and MAPPED - exercised:
        failures.append("mapped ops in no graph that agrees: " + " ".join(sorted(MAPPED - exercised)))
    for f in failures:
        print("FAIL " + f)
    if not a.keep:
        shutil.rmtree(work)
    if failures:
        return 1
    if compared < a.min:
        print(f"FAIL: only {compared} graphs compared (at least {a.min} expected)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
