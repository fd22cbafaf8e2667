#!/usr/bin/env python3
"""An exported dynamic-batch MLP runs in ONNX Runtime and in tg at any batch size.

    dynamic_test.py TG

tests/onnx/cases/dynamic_mlp.tg trains an MLP (a dict of weights), saves
its checkpoint, and saves inputs and tg's eager predictions at batch sizes
1, 7 and 256. The test exports `predict` with `tg export --params ckpt.npz`
three ways — `f32[batch,4]` with the weights as constants, `f32[?,4]` with
--params-as-inputs, both as ONNX, and `f32[batch,4]` as .tgx — and a
gradient whose mean over the batch needs the batch size at run time, and requires
ONNX Runtime (tests/onnx/run_ort.js) and the loaded .tgx (run by tg) to give
tg's predictions at every batch size from one file each (docs/deploying.md
"Dynamic dimensions"). ONNX Runtime as in ort_test.py: skipped (exit 77)
without it unless TG_REQUIRE_ORT=1.
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
SIZES = [1, 7, 256]
PARAMS = ["p_l1_w.npy", "p_l1_b.npy", "p_l2_w.npy", "p_l2_b.npy"]


def find_ort():
    for d in [os.environ.get("TG_ORT_DIR"), REPO / ".cache" / "ort"]:
        if d and (pathlib.Path(d) / "node_modules" / "onnxruntime-node").is_dir():
            return pathlib.Path(d) / "node_modules"
    return None


def run(cmd, cwd):
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(map(str, cmd))}\n{r.stdout}{r.stderr}")
    return r.stdout


def agree(name, got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return f"{name}: {got.dtype}{got.shape}, tg gives {want.dtype}{want.shape}"
    if np.issubdtype(want.dtype, np.floating):
        scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
        if not np.allclose(got, want, rtol=1e-5, atol=1e-4 * scale):
            return f"{name}: differs by up to {float(np.max(np.abs(got - want)))}"
    elif not np.array_equal(got, want):
        return f"{name}: differs"
    return ""


def main():
    tg = pathlib.Path(sys.argv[1]).resolve()
    node_modules = find_ort()
    node = shutil.which("node") or shutil.which("nodejs")
    if node_modules is None or node is None:
        print("skipped: no ONNX Runtime (node and onnxruntime-node in .cache/ort)")
        sys.exit(1 if os.environ.get("TG_REQUIRE_ORT") == "1" else 77)
    work = pathlib.Path(tempfile.mkdtemp(prefix="tg-onnx-dynamic-"))
    try:
        shutil.copy(HERE / "cases" / "dynamic_mlp.tg", work)
        out = run([tg, "dynamic_mlp.tg"], work)
        if "loss falls: True" not in out:
            sys.exit("FAIL: the MLP did not train: " + out)
        export = [tg, "export", "dynamic_mlp.tg", "--function", "predict", "--params", "ckpt.npz"]
        run(export + ["--args", "f32[batch,4]", "--format", "onnx", "-o", "const.onnx"], work)
        run(export + ["--params-as-inputs", "--args", "f32[?,4]", "--format", "onnx", "-o", "inputs.onnx"], work)
        run(export + ["--args", "f32[batch,4]", "-o", "mlp.tgx"], work)
        run([tg, "export", "dynamic_mlp.tg", "--function", "mean_square_grad", "--args", "f32[batch,4]", "--format",
             "onnx", "-o", "grad.onnx"], work)
        jobs, problems = [], []
        for n in SIZES:
            outs = [f"y{n}_{k}.npy" for k in range(3)]
            jobs.append({"model": "const.onnx", "inputs": [f"x{n}.npy"], "outputs": [f"c{n}_{k}.npy" for k in range(3)]})
            jobs.append({"model": "inputs.onnx", "inputs": PARAMS + [f"x{n}.npy"],
                         "outputs": [f"i{n}_{k}.npy" for k in range(3)]})
            jobs.append({"model": "grad.onnx", "inputs": [f"x{n}.npy"], "outputs": [f"o{n}.npy"]})
        (work / "jobs.json").write_text(json.dumps([dict(j, **{k: [str(work / p) for p in j[k]] for k in ("inputs", "outputs")},
                                                         model=str(work / j["model"])) for j in jobs]))
        env = dict(os.environ, NODE_PATH=str(node_modules))
        r = subprocess.run([node, str(HERE / "run_ort.js"), str(work / "jobs.json")], capture_output=True, text=True,
                           env=env, timeout=300)
        for line in r.stdout.splitlines():
            res = json.loads(line)
            if not res.get("ok"):
                problems.append(f"{res.get('model')}: ONNX Runtime: {res.get('error')}")
        if r.returncode != 0 and not problems:
            problems.append("run_ort.js failed: " + r.stderr)
        # the .tgx, loaded and run by tg at each size
        script = "g = load('mlp.tgx')\n" + "".join(
            f"r = g(load('x{n}.npy'))\n" + "".join(f"save('t{n}_{k}.npy', r[{k}])\n" for k in range(3)) for n in SIZES)
        (work / "run_tgx.tg").write_text(script)
        run([tg, "run_tgx.tg"], work)
        for n in SIZES:
            for k in range(3):
                want = np.load(work / f"y{n}_{k}.npy")
                for prefix, what in [("c", "ONNX, weights as constants"), ("i", "ONNX, weights as inputs"),
                                     ("t", ".tgx in tg")]:
                    path = work / f"{prefix}{n}_{k}.npy"
                    if not path.exists():
                        problems.append(f"{what}, batch {n}: no output {k}")
                        continue
                    if why := agree(f"{what}, batch {n}, output {k}", np.load(path), want):
                        problems.append(why)
        for n in SIZES:
            if why := agree(f"ONNX, a gradient's size constant, batch {n}", np.load(work / f"o{n}.npy"),
                            np.load(work / f"g{n}.npy")):
                problems.append(why)
        if problems:
            sys.exit("FAIL:\n  " + "\n  ".join(problems))
        print(f"ok: a dynamic-batch MLP agrees with tg at batch sizes {SIZES} (ONNX Runtime twice, .tgx in tg)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
