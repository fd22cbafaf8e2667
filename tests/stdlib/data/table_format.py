"""The case format of kernels_cases.txt and math_cases.txt (read by
tests/stdlib/test_kernels_table.cpp): the writer shared by kernels_gen.py and
math_gen.py. `case(...)` appends one case to CASES; see kernels_gen.py's
docstring for the format."""
import numpy as np

DT = {"bool": np.bool_, "i32": np.int32, "i64": np.int64, "f32": np.float32, "f64": np.float64}
ORDER = ["bool", "i32", "i64", "f32", "f64"]
CPP = {"bool": "DType::Bool", "i32": "DType::I32", "i64": "DType::I64", "f32": "DType::F32", "f64": "DType::F64"}


def name_of(a):
    for k, v in DT.items():
        if a.dtype == v:
            return k
    raise ValueError(a.dtype)


def promote(*names):
    return max(names, key=ORDER.index)


def float_of(name):
    return name if name in ("f32", "f64") else "f32"


def num(v):
    return repr(float(v))


class Formula(np.ndarray):
    """An input too long to list: element i (row-major) is ((i * 7919) % 1000) / 1000 - 0.5,
    computed in f64 and rounded to the dtype; the C++ side recomputes it."""


def formula(shape, dtype):
    n = int(np.prod(shape))
    v = (((np.arange(n, dtype=np.int64) * 7919) % 1000) / 1000.0 - 0.5).astype(dtype).reshape(shape)
    return v.view(Formula)


def tensor(a):
    head = "%s %d %s" % (name_of(a), a.ndim, " ".join(str(d) for d in a.shape))
    if isinstance(a, Formula):
        return head + " : formula"
    a = np.asarray(a)
    return head + " : " + " ".join(num(v) for v in a.reshape(-1))


def attr(v):
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "bool %d" % v
    if isinstance(v, int):
        return "int %d" % v
    if isinstance(v, float):
        return "float %s" % num(v)
    if isinstance(v, tuple):
        return "ints %d %s" % (len(v), " ".join(str(x) for x in v))
    if isinstance(v, str):
        return "dtype %s" % v
    raise TypeError(v)


CASES = []


def case(name, op, inputs, expected, transpose_first=False, rtol=None, **attrs):
    expected = np.asarray(expected)
    if rtol is None:
        rtol = 2e-6 if expected.dtype == np.float32 else 1e-12
    lines = ["case %s %s %d %r" % (name, op, transpose_first, rtol)]
    lines += ["in " + tensor(x if isinstance(x, Formula) else np.asarray(x)) for x in inputs]
    lines += ["attr %s %s" % (k, attr(v)) for k, v in attrs.items()]
    lines.append("out " + tensor(expected))
    CASES.append("\n".join(lines))


def random_tensor(rng, shape, name):
    """bool: 0/1; integers: -9..9; floats: standard normal."""
    if name == "bool":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if name in ("i32", "i64"):
        return rng.integers(-9, 10, size=shape).astype(DT[name])
    return rng.standard_normal(size=shape).astype(DT[name])
