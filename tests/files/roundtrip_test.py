#!/usr/bin/env python3
"""Round trips of .npy / .npz files between tg and NumPy, and the datasets tg
reads (IDX, .gz) against NumPy (docs/language.md "Files").

usage: roundtrip_test.py TG_BINARY

1. NumPy writes .npy files — every dtype of tg (bool i32 i64 f32 f64), C and
   Fortran order, 0-d, empty, big-endian, versions 1.0 / 2.0 / 3.0 — and .npz
   archives (np.savez: stored; np.savez_compressed: deflated). A generated tg
   script loads each, prints its dtype and shape, and saves it again. The
   printed dtype and shape must be NumPy's, and NumPy must read back the
   same values bit for bit (NaN payloads and -0.0 included); each .npy tg
   writes must be byte-identical to what np.save writes for the same array.
2. tg builds tensors of its own (views, transposes, weak scalars, a dict,
   the empty dict) and saves them; NumPy loads them and compares with the
   same arrays built in NumPy.
3. Datasets as published: IDX files (every type: u8 i8 i16 i32 f32 f64;
   ranks 1 to 4; named -ubyte and .idx; plain and gzipped as MNIST ships
   them) and .npy.gz / .npz.gz / .csv.gz (Python's gzip, one member or
   several) are read by tg, saved as .npy, and must be what NumPy reads
   from the same files (IDX's integers as int32, bit for bit).
4. Atomic writes: a save that fails while writing (the file-size limit,
   RLIMIT_FSIZE) leaves the old file as it was and no temporary file; a value
   that does not fit its format is refused before any file is touched.
Exits 1 with a list of failures.
"""
import gzip
import io
import os
import resource
import signal
import subprocess
import sys
import tempfile
import zipfile

import numpy as np

TG_DTYPE = {np.dtype(np.bool_): "bool", np.dtype(np.int32): "i32", np.dtype(np.int64): "i64",
            np.dtype(np.float32): "f32", np.dtype(np.float64): "f64"}
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def sample(dtype, shape, rng):
    """Values that exercise the dtype: extremes for integers, specials for floats."""
    n = int(np.prod(shape))
    if dtype == np.bool_:
        flat = rng.random(n) > 0.5
    elif np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        flat = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        flat[: min(n, 2)] = [info.min, info.max][: min(n, 2)]
    else:
        flat = (rng.standard_normal(n) * 1e3).astype(dtype)
        specials = np.array([np.nan, np.inf, -np.inf, -0.0, np.finfo(dtype).tiny / 4, np.finfo(dtype).max], dtype=dtype)
        flat[: min(n, len(specials))] = specials[: min(n, len(specials))]
    return flat.astype(dtype).reshape(shape)


def numpy_written_arrays():
    rng = np.random.default_rng(20)
    out = {}
    for dtype in TG_DTYPE:
        for shape in [(), (0,), (5,), (2, 3), (3, 0), (2, 3, 4)]:
            a = sample(dtype, shape, rng)
            name = f"{TG_DTYPE[dtype]}_{'x'.join(map(str, shape)) or 'scalar'}"
            out[name + "_c"] = a
            if len(shape) >= 2:
                out[name + "_f"] = np.asfortranarray(a)
            if dtype != np.bool_ and shape in [(5,), (2, 3, 4)]:
                big = a.astype(a.dtype.newbyteorder(">"))
                out[name + "_be"] = big
                out[name + "_be_f"] = np.asfortranarray(big)
    return out


def native_c(a):
    """The array in this machine's byte order and C order (0-d stays 0-d, unlike np.ascontiguousarray)."""
    a = np.asarray(a)
    return a.astype(a.dtype.newbyteorder("="), order="C")


def np_save_bytes(a):
    buf = io.BytesIO()
    np.save(buf, native_c(a))
    return buf.getvalue()


def run_tg(tg, script, cwd, limit_file_size=None):
    path = os.path.join(cwd, "script.tg")
    with open(path, "w") as f:
        f.write(script)

    def limits():
        if limit_file_size is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_size, limit_file_size))

    return subprocess.run([tg, "run", "--eager", "script.tg"], cwd=cwd, capture_output=True, text=True, timeout=120,
                          preexec_fn=limits)


def same_array(got, want, what):
    want = native_c(want)
    check(got.dtype == want.dtype, f"{what}: dtype {got.dtype} != {want.dtype}")
    check(got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}")
    check(got.tobytes() == want.tobytes(), f"{what}: values differ:\n{got!r}\n{want!r}")


def numpy_to_tg_and_back(tg, tmp):
    arrays = numpy_written_arrays()
    os.makedirs(os.path.join(tmp, "in"))
    os.makedirs(os.path.join(tmp, "out"))
    for name, a in arrays.items():
        np.save(os.path.join(tmp, "in", name + ".npy"), a)
    versions = {"f32_2x3_v2": (2, 0), "f64_2x3_f_v3": (3, 0)}
    for name, version in versions.items():
        a = np.asfortranarray(sample(np.float64, (2, 3), np.random.default_rng(1))) if name.endswith("_f_v3") else \
            sample(np.float32, (2, 3), np.random.default_rng(2))
        arrays[name] = a
        with open(os.path.join(tmp, "in", name + ".npy"), "wb") as f:
            np.lib.format.write_array(f, a, version=version)
    members = {k: arrays[k] for k in ["f32_2x3_c", "i64_2x3x4_f", "bool_scalar_c", "f64_0_c", "i32_5_be"]}
    np.savez(os.path.join(tmp, "in", "stored.npz"), **members)
    np.savez_compressed(os.path.join(tmp, "in", "deflated.npz"), **members)

    lines = []
    for name in arrays:
        lines += [f'x = load("in/{name}.npy")', f'print("{name}", x.dtype, x.shape)', f'save("out/{name}.npy", x)']
    for name in ["stored", "deflated"]:
        lines += [f'd = load("in/{name}.npz")', f'print("{name}", d.keys())', f'save("out/{name}.npz", d)']
    r = run_tg(tg, "\n".join(lines) + "\n", tmp)
    check(r.returncode == 0, f"tg failed loading NumPy's files:\n{r.stderr}")
    printed = r.stdout.splitlines()
    expected = [f"{name} {TG_DTYPE[native_c(a).dtype]} {a.shape}" for name, a in arrays.items()]
    expected += [f"{name} {list(members)}" for name in ["stored", "deflated"]]
    for got, want in zip(printed, expected):
        check(got == want, f"tg printed {got!r}, NumPy has {want!r}")
    check(len(printed) == len(expected), f"tg printed {len(printed)} lines, expected {len(expected)}")
    for name, a in arrays.items():
        path = os.path.join(tmp, "out", name + ".npy")
        if not os.path.exists(path):
            failures.append(f"tg did not write {name}.npy")
            continue
        same_array(np.load(path), a, name)
        with open(path, "rb") as f:
            check(f.read() == np_save_bytes(a), f"{name}.npy: tg's bytes differ from np.save's")
    for name in ["stored", "deflated"]:
        path = os.path.join(tmp, "out", name + ".npz")
        with zipfile.ZipFile(path) as z:
            check([i.filename for i in z.infolist()] == [k + ".npy" for k in members], f"{name}.npz: member names")
            check(all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist()), f"{name}.npz: not stored")
        with np.load(path) as back:
            check(list(back.keys()) == list(members), f"{name}.npz: keys {list(back.keys())}")
            for k, a in members.items():
                same_array(back[k], a, f"{name}.npz[{k}]")


# What tg saves (its own expressions) and the same arrays built in NumPy.
TG_BUILT = [
    ("f32_specials", "tensor([[1.5, -0.0, inf], [nan, 1e-45, 3.4e38]], dtype=f32)",
     np.array([[1.5, -0.0, np.inf], [np.nan, 1e-45, 3.4e38]], dtype=np.float32)),
    ("f64_third", "f64(1) / 3", np.float64(1) / 3),
    ("i64_weak_scalar", "3", np.int64(3)),
    ("f32_weak_scalar", "0.1", np.float32(0.1)),
    ("bool_mask", "arange(5) > 2", np.arange(5) > 2),
    ("i32_3d", "reshape(arange(24, dtype=i32), (2, 3, 4))", np.arange(24, dtype=np.int32).reshape(2, 3, 4)),
    ("f64_transposed", "transpose(reshape(arange(6, dtype=f64), (2, 3)))", np.arange(6, dtype=np.float64).reshape(2, 3).T),
    ("i64_strided", "arange(10)[::3]", np.arange(10)[::3]),
    ("i32_empty", "zeros((0, 3), dtype=i32)", np.zeros((0, 3), dtype=np.int32)),
]


def tg_to_numpy(tg, tmp):
    os.makedirs(os.path.join(tmp, "tg"))
    lines = [f'save("tg/{name}.npy", {expr})' for name, expr, _ in TG_BUILT]
    lines.append('save("tg/dict.npz", {"w": reshape(arange(6, dtype=f32), (3, 2)), "b": tensor([1, 2], dtype=i32), '
                 '"flag": True})')
    lines.append('save("tg/empty.npz", {})')
    # a checkpoint: a tree of tensors, one member per leaf named by its path
    lines.append('save("tg/tree.npz", {"l1": {"w": ones((2, 2)), "b": zeros(2)}, "layers": [tensor([1, 2]), None, '
                 '(f64(2.5),)]})')
    r = run_tg(tg, "\n".join(lines) + "\n", tmp)
    check(r.returncode == 0, f"tg failed saving:\n{r.stderr}")
    for name, _, want in TG_BUILT:
        path = os.path.join(tmp, "tg", name + ".npy")
        if os.path.exists(path):
            same_array(np.load(path), np.asarray(want), name)
        else:
            failures.append(f"tg did not write {name}.npy")
    with np.load(os.path.join(tmp, "tg", "dict.npz")) as d:
        check(list(d.keys()) == ["w", "b", "flag"], f"dict.npz keys {list(d.keys())}")
        same_array(d["w"], np.arange(6, dtype=np.float32).reshape(3, 2), "dict.npz[w]")
        same_array(d["b"], np.array([1, 2], dtype=np.int32), "dict.npz[b]")
        same_array(d["flag"], np.array(True), "dict.npz[flag]")
    with np.load(os.path.join(tmp, "tg", "tree.npz")) as d:
        check(list(d.keys()) == ["l1/w", "l1/b", "layers/0", "layers/2/0"], f"tree.npz keys {list(d.keys())}")
        same_array(d["l1/w"], np.ones((2, 2), np.float32), "tree.npz[l1/w]")
        same_array(d["layers/0"], np.array([1, 2], np.int64), "tree.npz[layers/0]")
        same_array(d["layers/2/0"], np.array(2.5), "tree.npz[layers/2/0]")
    with np.load(os.path.join(tmp, "tg", "empty.npz")) as d:
        check(list(d.keys()) == [], "empty.npz has members")
    left = [f for f in os.listdir(os.path.join(tmp, "tg")) if f.startswith(".")]
    check(not left, f"temporary files left: {left}")


IDX_CODES = {np.dtype(np.uint8): 0x08, np.dtype(np.int8): 0x09, np.dtype(np.int16): 0x0B,
             np.dtype(np.int32): 0x0C, np.dtype(np.float32): 0x0D, np.dtype(np.float64): 0x0E}


def idx_bytes(a):
    """MNIST's IDX format: 0, 0, type, rank, big-endian u32 sizes, big-endian data."""
    head = bytes([0, 0, IDX_CODES[a.dtype], a.ndim]) + b"".join(int(d).to_bytes(4, "big") for d in a.shape)
    return head + a.astype(a.dtype.newbyteorder(">")).tobytes()


def datasets_from_numpy(tg, tmp):
    folder = os.path.join(tmp, "datasets")
    os.makedirs(os.path.join(folder, "out"))
    rng = np.random.default_rng(30)
    expected = {}  # the file's name -> what tg must read from it
    for dtype in IDX_CODES:
        for shape in [(7,), (2, 3), (2, 3, 4), (2, 1, 3, 2), (0, 28, 28)]:
            a = sample(dtype, shape, rng)
            base = f"{dtype.name}_{len(shape)}d{'_empty' if 0 in shape else ''}"
            want = a.astype(np.int32) if dtype.kind in "iu" else a
            for name, data in [(base + "-ubyte", idx_bytes(a)), (base + ".idx.gz", gzip.compress(idx_bytes(a))),
                               (base + "-ubyte.gz", gzip.compress(idx_bytes(a)[:9]) + gzip.compress(idx_bytes(a)[9:]))]:
                open(os.path.join(folder, name), "wb").write(data)
                expected[name] = want
    for dtype in TG_DTYPE:
        a = sample(dtype, (3, 4), rng)
        name = f"{TG_DTYPE[dtype]}.npy.gz"
        open(os.path.join(folder, name), "wb").write(gzip.compress(np_save_bytes(a)))
        expected[name] = a
    members = {"w": sample(np.float32, (2, 3), rng), "n": sample(np.int64, (4,), rng)}
    buf = io.BytesIO()
    np.savez_compressed(buf, **members)
    open(os.path.join(folder, "params.npz.gz"), "wb").write(gzip.compress(buf.getvalue()))
    table = np.round(rng.standard_normal((5, 3)) * 100, 3)
    np.savetxt(os.path.join(folder, "table.csv.gz"), table, delimiter=",")  # NumPy gzips a name ending in .gz

    lines = [f'save("datasets/out/{i}.npy", load("datasets/{name}"))' for i, name in enumerate(expected)]
    lines += ['p = load("datasets/params.npz.gz")', 'save("datasets/out/params.npz", p)',
              'save("datasets/out/table.npy", loadtxt("datasets/table.csv.gz", dtype=f64))']
    r = run_tg(tg, "\n".join(lines) + "\n", tmp)
    check(r.returncode == 0, f"tg failed loading IDX / .gz files:\n{r.stderr}")
    if r.returncode != 0:
        return
    for i, (name, want) in enumerate(expected.items()):
        same_array(np.load(os.path.join(folder, "out", f"{i}.npy")), want, name)
    with np.load(os.path.join(folder, "out", "params.npz")) as back:
        for k, a in members.items():
            same_array(back[k], a, f"params.npz.gz[{k}]")
    same_array(np.load(os.path.join(folder, "out", "table.npy")),
               np.loadtxt(os.path.join(folder, "table.csv.gz"), delimiter=","), "table.csv.gz")


def atomic_writes(tg, tmp):
    folder = os.path.join(tmp, "atomic")
    os.makedirs(folder)
    for ext, value in [("npy", "zeros((1000000,), dtype=f64)"), ("npz", '{"big": zeros((1000000,), dtype=f64)}')]:
        target = os.path.join(folder, "old." + ext)
        with open(target, "wb") as f:
            f.write(b"the old contents")
        # 8 MB to write, 1 MB allowed: the write fails in the middle
        r = run_tg(tg, f'save("atomic/old.{ext}", {value})\n', tmp, limit_file_size=1 << 20)
        check(r.returncode == 1, f"a save past the file-size limit did not fail ({ext}): {r.stderr}")
        check(f"save: 'atomic/old.{ext}': cannot write" in r.stderr, f"the failed save's error ({ext}): {r.stderr}")
        check("script.tg:1:1" in r.stderr, f"the failed save's error is not located ({ext}): {r.stderr}")
        with open(target, "rb") as f:
            check(f.read() == b"the old contents", f"a failed save changed the old .{ext} file")
    # a value that does not fit is refused before any file exists
    r = run_tg(tg, 'save("atomic/new.npz", {"a": 1, "b": [1, "x"]})\n', tmp)
    check(r.returncode == 1 and "but 'b/1' is a str" in r.stderr, f"npz of a str: {r.stderr}")
    check(sorted(os.listdir(folder)) == ["old.npy", "old.npz"], f"files left behind: {sorted(os.listdir(folder))}")


def main():
    tg = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="tg-files-") as tmp:
        numpy_to_tg_and_back(tg, tmp)
        tg_to_numpy(tg, tmp)
        datasets_from_numpy(tg, tmp)
        atomic_writes(tg, tmp)
    for f in failures:
        print("FAIL:", f)
    print(f"{'FAILED' if failures else 'ok'}: .npy / .npz round trips with NumPy {np.__version__}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
