#!/usr/bin/python3
"""Generates math_cases.txt: NumPy's values for the element-wise math,
statistics and scans (log2 ... reciprocal, isinf, atan2, var, std,
median, norm, cumsum, cumprod), on every dtype, with the edge cases (0-d,
empty, NaN, inf, negative axes, keepdims, ddof). Same format and reader as
kernels_cases.txt (test_kernels_table.cpp).

    /usr/bin/python3 tests/stdlib/data/math_gen.py > tests/stdlib/data/math_cases.txt

Where tg differs from NumPy by design the reference is NumPy's value converted
to tg's dtype: bool and integers give f32 where NumPy gives f64 (the float
functions, var, std, median, norm); trunc keeps integer dtypes; atan2
promotes like tg's division (i64 with f32 gives f32). Float references are
computed in f64 and rounded to the result dtype once.
"""
import math
import warnings

import numpy as np

from table_format import CASES, DT, case, float_of, name_of, promote, random_tensor

rng = np.random.default_rng(2020)
DTYPES = ["bool", "i32", "i64", "f32", "f64"]


def rand(shape, name):
    return random_tensor(rng, shape, name)


# ---------------------------------------------------------------- element-wise
FLOATS = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 0.999, -0.999, 2.5, -3.7, 1e-3, -1e-7, 10.0, -20.0, 100.0, -100.0,
          float("inf"), float("-inf"), float("nan")]
INTS = [-9, -2, -1, 0, 1, 2, 3, 7, 100]


def gelu(x):  # 0.5 * x * (1 + erf(x / sqrt(2))), without the cancellation at x << 0
    return np.vectorize(lambda v: 0.5 * v * math.erfc(-v / math.sqrt(2)), otypes=[np.float64])(x)


def gelu_tanh(x):  # 0.5 * x * (1 + tanh(u)) = x / (1 + exp(-2u))
    return x / (1 + np.exp(-2 * math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


UNARY = {
    "log2": np.log2, "log10": np.log10, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
    "sinh": np.sinh, "cosh": np.cosh, "erf": np.vectorize(math.erf, otypes=[np.float64]), "gelu": gelu,
    "gelu_tanh": gelu_tanh, "softplus": lambda x: np.logaddexp(x, 0.0), "reciprocal": lambda x: 1.0 / x,
}
PREDICATES = {"isinf": np.isinf, "isnan": np.isnan, "isfinite": np.isfinite}

with np.errstate(all="ignore"):
    for dname in DTYPES:
        vals = [False, True] if dname == "bool" else INTS if dname in ("i32", "i64") else FLOATS
        x = np.array(vals, DT[dname])
        for op, fn in UNARY.items():
            r = np.asarray(fn(x.astype(np.float64))).astype(DT[float_of(dname)])
            case("%s_%s" % (op, dname), op, [x], r, rtol=2e-6 if float_of(dname) == "f32" else 1e-13)
            if dname == "f32":  # 0-d and a strided 2-d view
                case("%s_0d" % op, op, [x[4]], r[4])
                m = np.ascontiguousarray(x[:18].reshape(3, 6).T)
                case("%s_T" % op, op, [m], r[:18].reshape(3, 6), transpose_first=True)
        for op, fn in PREDICATES.items():
            case("%s_%s" % (op, dname), op, [x], fn(x))
        # trunc keeps every dtype (NumPy: floats for bool and integers)
        case("trunc_%s" % dname, "trunc", [x], np.trunc(x) if dname in ("f32", "f64") else x)
    case("isinf_0d", "isinf", [np.array(-np.inf, np.float64)], np.array(True))
    case("trunc_empty", "trunc", [np.zeros((0, 2), np.float32)], np.zeros((0, 2), np.float32))

    # atan2(y, x): signed zeros, infinities, NaN; broadcasting; tg's promotion
    ys = np.array([0.0, -0.0, 1.0, -1.0, 0.0, -0.0, np.inf, -np.inf, np.inf, 2.0, np.nan, 3.0])
    xs = np.array([0.0, 0.0, -0.0, -0.0, -1.0, -1.0, np.inf, -np.inf, 1.0, np.inf, 1.0, -4.0])
    for dname in ("f32", "f64"):
        y, x = ys.astype(DT[dname]), xs.astype(DT[dname])
        case("atan2_%s" % dname, "atan2", [y, x], np.arctan2(ys, xs).astype(DT[dname]))
    for da, db in [("i32", "i32"), ("i64", "f32"), ("bool", "bool"), ("f32", "f64"), ("i64", "i64"), ("bool", "i32")]:
        a, b = rand((3, 4), da), rand((4,), db)
        out = promote(da, db)
        r = np.arctan2(a.astype(np.float64), b.astype(np.float64)).astype(DT[float_of(out)])
        case("atan2_%s_%s" % (da, db), "atan2", [a, b], r, rtol=2e-6 if float_of(out) == "f32" else 1e-13)
    case("atan2_0d", "atan2", [np.array(1.0, np.float32), np.array(-1.0, np.float32)], np.float32(np.arctan2(1.0, -1.0)))


# ---------------------------------------------------------------- var, std, median
def stat_ref(op, x, axis, keepdims, ddof=0):
    fx = x.astype(np.float64)
    with np.errstate(all="ignore"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if op == "var":
                r = np.var(fx, axis=axis, keepdims=keepdims, ddof=ddof)
            elif op == "std":
                r = np.std(fx, axis=axis, keepdims=keepdims, ddof=ddof)
            else:
                r = np.median(fx, axis=axis, keepdims=keepdims)
    return np.asarray(r).astype(DT[float_of(name_of(x))])


def axis_name(axis):
    return "none" if axis is None else str(axis).replace(" ", "").replace(",", "_").replace("(", "").replace(")", "")


def kw_of(axis, keepdims, **more):
    kw = dict(more)
    if axis is not None:
        kw["axis"] = axis
    if keepdims:
        kw["keepdims"] = True
    return kw


for op in ["var", "std", "median"]:
    for dname in DTYPES:
        for shape in [(), (7,), (3, 4), (2, 3, 5)]:
            x = rand(shape, dname)
            axes = [None] + list(range(-len(shape), len(shape)))
            if len(shape) >= 2:
                axes += [(0, len(shape) - 1)]
            for axis in axes:
                for keepdims in ([False, True] if axis is not None or shape == (3, 4) else [False]):
                    nm = "%s_%s_%s_ax%s%s" % (op, dname, "x".join(map(str, shape)) or "0d", axis_name(axis), "_k" if keepdims else "")
                    case(nm, op, [x], stat_ref(op, x, axis, keepdims), **kw_of(axis, keepdims))
            if op != "median" and shape == (3, 4):
                for ddof in [1, 2, 4, 5]:  # 4 = n: inf (or NaN); 5 > n
                    case("%s_%s_ddof%d" % (op, dname, ddof), op, [x], stat_ref(op, x, 1, False, ddof), axis=1, ddof=ddof)
                case("%s_%s_ddof1.5" % (op, dname), op, [x], stat_ref(op, x, None, False, 1.5), ddof=1.5)
    if op != "median":
        case("%s_const_ddof1" % op, op, [np.ones((1, 3), np.float32)], stat_ref(op, np.ones((1, 3), np.float32), 0, False, 1), axis=0, ddof=1)
    x = rand((3, 4), "f32")
    case("%s_T" % op, op, [np.ascontiguousarray(x.T)], stat_ref(op, x, 1, False), transpose_first=True, axis=1)
    xn = np.array([[1.0, np.nan, 3.0, 0.0], [np.inf, 2.0, -1.0, 5.0], [4.0, 4.0, -np.inf, 1.0]], np.float64)
    for axis in [None, 0, 1]:
        case("%s_nan_ax%s" % (op, axis), op, [xn], stat_ref(op, xn, axis, False), **kw_of(axis, False))
    e = np.zeros((0, 3), np.float32)
    for axis in [None, 0, 1]:
        case("%s_empty_ax%s" % (op, axis), op, [e], stat_ref(op, e, axis, False), **kw_of(axis, False))
# median: even counts, ties, large integers
for x in [np.array([3, 1, 4, 1, 5, 9], np.int64), np.array([2.0, 2.0, 2.0, 1.0], np.float32),
          np.array([[5, 5, 1, 7], [0, -3, 8, 8]], np.int32), np.array([True, False, True, True])]:
    case("median_even_%s_%d" % (name_of(x), x.size), "median", [x], stat_ref("median", x, -1, False), axis=-1)
x = rng.standard_normal((40, 41))
case("var_long_ax0", "var", [x], stat_ref("var", x, 0, False), axis=0)
case("median_long_ax1", "median", [x], stat_ref("median", x, 1, False), axis=1)


# ---------------------------------------------------------------- norm
def norm_ref(x, ord, axis, keepdims):
    r = np.linalg.norm(x.astype(np.float64), ord=ord, axis=axis, keepdims=keepdims)
    return np.asarray(r).astype(DT[float_of(name_of(x))])


for dname in DTYPES:
    for shape in [(), (5,), (3, 4), (2, 3, 4)]:
        x = rand(shape, dname)
        for ord in [None, 1, 2, float("inf")]:
            axes = [None] if len(shape) <= 1 or ord is None else []
            axes += list(range(-len(shape), len(shape))) if len(shape) else []
            if len(shape) >= 2 and ord is None:
                axes += [(0, len(shape) - 1)]
            for axis in axes:
                for keepdims in ([False, True] if axis is not None else [False]):
                    if shape == () and ord is not None:
                        ref = np.asarray(abs(x.astype(np.float64))).astype(DT[float_of(dname)])  # NumPy: an error
                    else:
                        ref = norm_ref(x, ord, axis, keepdims)
                    nm = "norm_%s_%s_ord%s_ax%s%s" % (dname, "x".join(map(str, shape)) or "0d", ord, axis_name(axis), "_k" if keepdims else "")
                    kw = kw_of(axis, keepdims)
                    if ord is not None:
                        kw["ord"] = ord
                    case(nm, "norm", [x], ref, **kw)
xn = np.array([[3.0, -4.0, np.nan], [np.inf, 1.0, -2.0]], np.float32)
for ord in [None, 1, 2, float("inf")]:
    case("norm_nan_ord%s" % ord, "norm", [xn], norm_ref(xn, ord, 1, False), axis=1, **({} if ord is None else {"ord": ord}))
e = np.zeros((0, 3), np.float32)
case("norm_empty", "norm", [e], np.float32(0.0))
case("norm_empty_ord1_ax0", "norm", [e], np.zeros(3, np.float32), axis=0, ord=1)
case("norm_empty_inf_ax1", "norm", [e], np.zeros(0, np.float32), axis=1, ord=float("inf"))


# ---------------------------------------------------------------- cumsum, cumprod
def scan_ref(op, x, axis):
    fn = np.cumsum if op == "cumsum" else np.cumprod
    dt = None if name_of(x) in ("f32", "f64") else np.int64
    return np.asarray(fn(x, axis=axis, dtype=dt))


for op in ["cumsum", "cumprod"]:
    for dname in DTYPES:
        for shape in [(), (6,), (3, 4), (2, 3, 4)]:
            x = rand(shape, dname)
            axes = [None] + (list(range(-len(shape), len(shape))) if len(shape) else [0, -1])
            for axis in axes:
                case("%s_%s_%s_ax%s" % (op, dname, "x".join(map(str, shape)) or "0d", axis_name(axis)), op, [x],
                     scan_ref(op, x, axis), **({} if axis is None else {"axis": axis}))
    x = rand((3, 4), "f64")
    case("%s_T" % op, op, [np.ascontiguousarray(x.T)], scan_ref(op, x, 0), transpose_first=True, axis=0)
    xn = np.array([[1.0, np.nan, 3.0], [np.inf, 2.0, -np.inf]], np.float32)
    for axis in [None, 0, 1]:
        with np.errstate(all="ignore"):
            case("%s_nan_ax%s" % (op, axis), op, [xn], scan_ref(op, xn, axis), **({} if axis is None else {"axis": axis}))
    e = np.zeros((0, 3), np.int32)
    for axis in [None, 0, 1]:
        case("%s_empty_ax%s" % (op, axis), op, [e], scan_ref(op, e, axis), **({} if axis is None else {"axis": axis}))
    big = np.array([2 ** 31 - 1, 2 ** 31 - 1, 3], np.int32)  # i32 accumulates in i64: no wrap
    case("%s_i32_wide" % op, op, [big], scan_ref(op, big, None))
with np.errstate(all="ignore"):
    w = np.array([2 ** 62, 2 ** 62, 2 ** 62], np.int64)  # i64 wraps, as NumPy
    case("cumsum_i64_wraps", "cumsum", [w], np.cumsum(w))
    case("cumprod_i64_wraps", "cumprod", [np.array([2 ** 40, 2 ** 40, 3], np.int64)], np.cumprod(np.array([2 ** 40, 2 ** 40, 3], np.int64)))

print("# Generated by math_gen.py (NumPy %s). Do not edit." % np.__version__)
print("# %d cases." % len(CASES))
for c in CASES:
    print(c)
