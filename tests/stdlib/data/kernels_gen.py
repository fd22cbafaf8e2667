#!/usr/bin/python3
"""Generates kernels_cases.txt: expected values of the stdlib kernels computed
independently with NumPy / SciPy / PyTorch (run with /usr/bin/python3, which
has them). The table is committed; rerun this script only when cases change:

    /usr/bin/python3 tests/stdlib/data/kernels_gen.py > tests/stdlib/data/kernels_cases.txt

Each case names an op of the op table, its tensor inputs, its static
arguments by keyword, and the expected result (dtype, shape, values). Where tg
differs from NumPy by design (tg's dtypes: sum of bool -> i64, mean of ints ->
f32, i32 + f32 -> f32, ...) the reference computes NumPy's value and converts
it to tg's dtype; the comments below say where.

Format (read by test_kernels_table.cpp), one item per line:
    case <name> <op> <transpose input 0 first: 0|1> <rtol>
    in <dtype> <rank> <dims...> : <values...>     (or "... : formula", see Formula)
    attr <name> none | int <v> | float <v> | bool <0|1> | ints <n> <v...> | dtype <name>
    out <dtype> <rank> <dims...> : <values...>
Values are Python reprs (nan, inf, -inf included), bools 0/1.
"""
import math
import sys

import numpy as np
import scipy.special
import torch

from table_format import CASES, DT, ORDER, Formula, case, float_of, formula, name_of, num, promote, random_tensor, tensor  # noqa: F401


rng = np.random.default_rng(12345)


def rand(shape, name):
    return random_tensor(rng, shape, name)


# ---------------------------------------------------------------- reductions
def np_reduce(op, x, axis, keepdims):
    name = name_of(x)
    if op == "sum":
        r = np.sum(x, axis=axis, keepdims=keepdims, dtype=np.int64 if name in ("bool", "i32", "i64") else None)
    elif op == "prod":
        r = np.prod(x, axis=axis, keepdims=keepdims, dtype=np.int64 if name in ("bool", "i32", "i64") else None)
    elif op == "mean":  # tg: mean of bool/ints is f32 (NumPy: f64)
        r = np.mean(x.astype(np.float64) if name not in ("f32", "f64") else x, axis=axis, keepdims=keepdims)
        r = np.asarray(r).astype(DT[float_of(name)])
    elif op == "max":
        r = np.max(x, axis=axis, keepdims=keepdims)
    elif op == "min":
        r = np.min(x, axis=axis, keepdims=keepdims)
    elif op == "any":
        r = np.any(x, axis=axis, keepdims=keepdims)
    elif op == "all":
        r = np.all(x, axis=axis, keepdims=keepdims)
    elif op == "argmax":
        r = np.argmax(x, axis=axis, keepdims=keepdims).astype(np.int64)
    elif op == "argmin":
        r = np.argmin(x, axis=axis, keepdims=keepdims).astype(np.int64)
    elif op == "logsumexp":  # tg: ints -> f32; computed here in f64
        fx = x.astype(np.float64)
        if fx.size == 0:  # scipy refuses; tg gives log(0) = -inf
            r = np.log(np.sum(np.exp(fx), axis=axis, keepdims=keepdims))
        else:
            r = scipy.special.logsumexp(fx, axis=axis, keepdims=keepdims)
        r = np.asarray(r).astype(DT[float_of(name)])
    return np.asarray(r)


REDUCTIONS = ["sum", "mean", "max", "min", "prod", "any", "all", "argmax", "argmin", "logsumexp"]
for op in REDUCTIONS:
    for dname in ["f32", "f64", "i32", "i64", "bool"]:
        if op == "logsumexp" and dname == "bool":
            continue
        for shape in [(), (7,), (3, 4), (2, 3, 5)]:
            x = rand(shape, dname)
            if op == "prod" and dname in ("f32", "f64"):
                x = (x * 0.5 + 1).astype(DT[dname])
            axes = [None] + list(range(-len(shape), len(shape)))
            if len(shape) >= 2 and op not in ("argmax", "argmin"):
                axes += [(0, len(shape) - 1), tuple(range(len(shape)))]
            for axis in axes:
                for keepdims in ([False, True] if axis is not None or shape == (3, 4) else [False]):
                    ax_name = "none" if axis is None else str(axis).replace(" ", "").replace(",", "_").replace("(", "").replace(")", "")
                    nm = "%s_%s_%s_ax%s%s" % (op, dname, "x".join(map(str, shape)) or "0d", ax_name, "_k" if keepdims else "")
                    kw = {}
                    if axis is not None:
                        kw["axis"] = axis
                    if keepdims:
                        kw["keepdims"] = True
                    case(nm, op, [x], np_reduce(op, x, axis, keepdims), **kw)
                    # The same on a transposed (non-contiguous) view of x.T's transpose.
                    if len(shape) >= 2 and dname in ("f32", "i64"):
                        xt = np.ascontiguousarray(x.T)
                        case(nm + "_T", op, [xt], np_reduce(op, xt.T, axis, keepdims), transpose_first=True, **kw)

# Long runs: pairwise/blocked paths (contiguous axis and strided axis).
x = formula((600, 300), np.float32)
for axis in [None, 0, 1]:
    case("sum_f32_long_ax%s" % axis, "sum", [x], np.asarray(np.sum(np.asarray(x).astype(np.float64), axis=axis)).astype(np.float32), rtol=1e-5, **({} if axis is None else {"axis": axis}))
    case("max_f32_long_ax%s" % axis, "max", [x], np.asarray(np.max(np.asarray(x), axis=axis)), **({} if axis is None else {"axis": axis}))
    case("mean_f32_long_ax%s" % axis, "mean", [x], np.asarray(np.mean(np.asarray(x).astype(np.float64), axis=axis)).astype(np.float32), rtol=1e-5, **({} if axis is None else {"axis": axis}))
x = formula((1100, 3), np.float64)
case("sum_f64_rows_ax0", "sum", [x], np.sum(np.asarray(x), axis=0), rtol=1e-12, axis=0)
case("min_f64_rows_ax0", "min", [x], np.min(np.asarray(x), axis=0), axis=0)

# NaN and inf.
xn = np.array([[1.0, np.nan, 3.0], [np.inf, -np.inf, 2.0], [-1.0, 5.0, np.nan]], np.float32)
for op in ["sum", "mean", "max", "min", "argmax", "argmin", "any", "all", "prod"]:
    for axis in [None, 0, 1]:
        case("%s_nan_ax%s" % (op, axis), op, [xn], np_reduce(op, xn, axis, False), **({} if axis is None else {"axis": axis}))
xi = np.array([[1.0, np.inf, 3.0], [-np.inf, -np.inf, 2.0], [np.nan, 5.0, 0.0]], np.float64)
for axis in [None, 0, 1]:
    with np.errstate(all="ignore"):
        case("logsumexp_inf_ax%s" % axis, "logsumexp", [xi], np_reduce("logsumexp", xi, axis, False), **({} if axis is None else {"axis": axis}))
big = np.array([1000.0, 1000.0, -1000.0], np.float32)
case("logsumexp_big", "logsumexp", [big], np.asarray(scipy.special.logsumexp(big.astype(np.float64))).astype(np.float32))

# Empty tensors (max/min/argmax/argmin of an empty axis are errors: tested in C++).
e = np.zeros((0, 3), np.float32)
with np.errstate(all="ignore"):
    for op in ["sum", "mean", "prod", "any", "all", "logsumexp"]:
        for axis in [None, 0, 1]:
            case("%s_empty_ax%s" % (op, axis), op, [e], np_reduce(op, e, axis, False), **({} if axis is None else {"axis": axis}))
    for op in ["max", "min", "argmax"]:
        case("%s_empty_ax1" % op, op, [e], np_reduce(op, e, 1, False), axis=1)
    case("sum_empty_i32_ax0", "sum", [np.zeros((0, 2), np.int32)], np.zeros((2,), np.int64), axis=0)

# ---------------------------------------------------------------- matmul / dot / outer
def tg_matmul_ref(a, b, fn=np.matmul):
    dt = promote(name_of(a), name_of(b))
    if dt == "bool":
        r = fn(a.astype(np.int64), b.astype(np.int64)) != 0
        return np.asarray(r)
    return np.asarray(fn(a.astype(DT[dt]), b.astype(DT[dt]))).astype(DT[dt])


MM_SHAPES = [((2, 3), (3, 4)), ((3,), (3, 4)), ((2, 3), (3,)), ((5,), (5,)), ((4, 2, 3), (3, 5)),
             ((2, 3), (4, 3, 2)), ((2, 1, 2, 3), (3, 3, 2)), ((1, 3), (3, 1)), ((2, 0), (0, 3)),
             ((0, 3), (3, 2)), ((3, 4, 1), (1, 2)), ((2, 2, 3), (2, 3, 2))]
for i, (sa, sb) in enumerate(MM_SHAPES):
    for da, db in [("f32", "f32"), ("f64", "f64"), ("i32", "i32"), ("i64", "i64"), ("bool", "bool"), ("i32", "f32"), ("f32", "f64"), ("i64", "f32")]:
        a, b = rand(sa, da), rand(sb, db)
        rt = 1e-5 if promote(da, db) == "f32" else 1e-12
        case("matmul_%d_%s_%s" % (i, da, db), "matmul", [a, b], tg_matmul_ref(a, b), rtol=rt)
# transposed operands (BLAS reads them as transposes): input 0 is transposed first
for da in ["f32", "f64", "i64"]:
    a, b = rand((3, 4), da), rand((3, 5), da)  # a.T @ b
    case("matmul_Ta_%s" % da, "matmul", [a, b], tg_matmul_ref(a.T, b), transpose_first=True, rtol=1e-5)
for da in ["f32", "f64", "i64"]:
    a, b = rand((3, 4), da), rand((3, 5), da)  # a.T @ b  # tg gets a.T (a transposed view) @ b

# dot
DOT_SHAPES = [((3,), (3,)), ((2, 3), (3, 4)), ((2, 3), (3,)), ((3,), (3, 2)), ((2, 3, 4), (4,)), ((2, 3, 4), (5, 4, 2)), ((4,), (2, 4, 3)), ((), (2, 3)), ((2, 3), ())]
for i, (sa, sb) in enumerate(DOT_SHAPES):
    for da, db in [("f32", "f32"), ("i64", "i64"), ("f64", "i32")]:
        a, b = rand(sa, da), rand(sb, db)
        rt = 1e-5 if promote(da, db) == "f32" else 1e-12
        case("dot_%d_%s_%s" % (i, da, db), "dot", [a, b], tg_matmul_ref(a, b, np.dot), rtol=rt)
for i, (sa, sb) in enumerate([((3,), (4,)), ((2, 2), (3,)), ((), (2,)), ((0,), (3,))]):
    for da, db in [("f32", "f32"), ("i32", "i64"), ("bool", "bool"), ("i32", "f64")]:
        a, b = rand(sa, da), rand(sb, db)
        case("outer_%d_%s_%s" % (i, da, db), "outer", [a, b], tg_matmul_ref(a, b, np.outer))

# ---------------------------------------------------------------- shape ops
x = rand((2, 3, 4), "f32")
for axes in [None, (2, 0, 1), (0, 1, 2), (-1, -3, -2)]:
    case("transpose_%s" % (str(axes).replace(" ", "")), "transpose", [x], np.transpose(x, axes), **({} if axes is None else {"axes": axes}))
x1 = rand((5,), "i32")
case("transpose_1d", "transpose", [x1], x1)
for shape in [(6, 4), (-1,), (2, -1, 3), (24,), (4, 3, 2)]:
    case("reshape_%s" % str(shape).replace(" ", ""), "reshape", [x], x.reshape(shape), shape=shape)
case("reshape_T", "reshape", [np.ascontiguousarray(x.T)], x.reshape(6, 4), transpose_first=True, shape=(6, 4))
case("reshape_0d", "reshape", [np.array(3.5, np.float32)], np.array([[3.5]], np.float32), shape=(1, 1))
case("reshape_to_0d", "reshape", [np.array([[7]], np.int64)], np.array(7, np.int64), shape=())
case("reshape_empty", "reshape", [np.zeros((0, 4), np.float32)], np.zeros((2, 0, 2), np.float32), shape=(2, 0, 2))
for axis in [0, 1, 3, -1, -4, (0, 2)]:
    case("expand_dims_%s" % str(axis).replace(" ", ""), "expand_dims", [x], np.expand_dims(x, axis), axis=axis)
case("expand_dims_0d", "expand_dims", [np.array(2, np.int32)], np.array([2], np.int32), axis=0)
y = rand((1, 3, 1, 2), "f64")
for axis in [None, 0, 2, -2, (0, 2)]:
    case("squeeze_%s" % str(axis).replace(" ", ""), "squeeze", [y], np.squeeze(y, axis), **({} if axis is None else {"axis": axis}))
case("squeeze_to_0d", "squeeze", [np.array([[5.0]], np.float32)], np.array(5.0, np.float32))
case("flatten", "flatten", [x], x.reshape(-1))
case("flatten_T", "flatten", [np.ascontiguousarray(x.T)], x.reshape(-1), transpose_first=True)
case("flatten_0d", "flatten", [np.array(True)], np.array([True]))
for src, dst in [((3,), (2, 3)), ((2, 1), (2, 4)), ((), (3, 2)), ((1, 3), (2, 2, 3)), ((3,), (3,)), ((2, 1), (0, 2, 5))]:
    v = rand(src, "i64")
    case("broadcast_to_%s_%s" % ("x".join(map(str, src)) or "0d", "x".join(map(str, dst))), "broadcast_to", [v], np.broadcast_to(v, dst), shape=dst)
# concat / stack (dtypes promote like arithmetic: tg order bool < i32 < i64 < f32 < f64)
for axis in [0, 1, -1]:
    a, b, c = rand((2, 3), "f32"), rand((2, 3), "f32"), rand((2, 3), "f32")
    case("concat_ax%d" % axis, "concat", [a, b, c], np.concatenate([a, b, c], axis), axis=axis)
    case("stack_ax%d" % axis, "stack", [a, b, c], np.stack([a, b, c], axis), axis=axis)
a, b = rand((1, 3), "i32"), rand((2, 3), "f64")
case("concat_mixed", "concat", [a, b], np.concatenate([a.astype(np.float64), b]))
a, b = rand((2, 2), "bool"), rand((2, 1), "i64")
case("concat_bool_i64_ax1", "concat", [a, b], np.concatenate([a.astype(np.int64), b], 1), axis=1)
a, b = rand((4,), "i32"), rand((4,), "f32")
case("stack_mixed", "stack", [a, b], np.stack([a.astype(np.float32), b]))
case("stack_0d", "stack", [np.array(1.0, np.float32), np.array(2.0, np.float32)], np.array([1.0, 2.0], np.float32))
p, q = rand((2,), "i64"), rand((2,), "i64")
case("stack_end", "stack", [p, q], np.stack([p, q], 1), axis=1)
z, w = np.zeros((0, 2), np.float32), rand((1, 2), "f32")
case("concat_empty", "concat", [z, w], np.concatenate([z, w]))
idx = np.array([[0, 2], [1, 0]], np.int64)
case("one_hot", "one_hot", [idx], np.eye(3, dtype=np.float32)[idx], n=3)
case("one_hot_i32_f64", "one_hot", [np.array([3, 0], np.int32)], np.eye(4, dtype=np.float64)[[3, 0]], n=4, dtype="f64")
case("one_hot_0d", "one_hot", [np.array(1, np.int64)], np.array([0, 1], np.int64), n=2, dtype="i64")

# ---------------------------------------------------------------- creation
case("zeros", "zeros", [], np.zeros((2, 3), np.float32), shape=(2, 3))
case("zeros_int_shape", "zeros", [], np.zeros((4,), np.float32), shape=4)
case("zeros_i32", "zeros", [], np.zeros((2,), np.int32), shape=(2,), dtype="i32")
case("zeros_0d", "zeros", [], np.zeros((), np.float64), shape=(), dtype="f64")
case("ones", "ones", [], np.ones((3, 1), np.float32), shape=(3, 1))
case("ones_bool", "ones", [], np.ones((2,), np.bool_), shape=(2,), dtype="bool")
case("ones_empty", "ones", [], np.ones((0, 2), np.float32), shape=(0, 2))
case("full_f32", "full", [np.array(2.5, np.float32)], np.full((2, 2), 2.5, np.float32), shape=(2, 2))
case("full_i64", "full", [np.array(7, np.int64)], np.full((3,), 7, np.int64), shape=(3,))
case("full_cast", "full", [np.array(2.7, np.float32)], np.full((2,), 2, np.int32), shape=(2,), dtype="i32")
case("full_row", "full", [np.array([1, 2, 3], np.int64)], np.tile(np.array([1, 2, 3], np.int64), (2, 1)), shape=(2, 3))
xl = rand((2, 3), "i32")
case("zeros_like", "zeros_like", [xl], np.zeros_like(xl))
case("ones_like", "ones_like", [rand((4,), "f64")], np.ones((4,), np.float64))
case("ones_like_0d", "ones_like", [np.array(True)], np.array(True))
ARANGE = [((5,), {}), ((2, 7), {}), ((1, 10, 3), {}), ((10, 1, -3), {}), ((5, 1), {}), ((0.0, 1.0, 0.1), {}),
          ((1.5,), {}), ((-1, 1, 0.5), {}), ((0, 5), {"dtype": "f64"}), ((0.5, 4.0), {"dtype": "i32"}), ((3, 3), {}),
          ((-7, 8, 4), {}), ((1.0, 0.0, -0.25), {})]
for i, (args, kw) in enumerate(ARANGE):
    all_int = all(isinstance(a, int) for a in args)
    ref = np.arange(*[float(a) for a in args], dtype=np.float64) if not all_int else np.arange(*args, dtype=np.int64)
    # tg: ints -> i64 exact; any float -> f32 (computed as start + i*step in f64)
    if not all_int:
        start = float(args[0]) if len(args) > 1 else 0.0
        step = float(args[2]) if len(args) > 2 else 1.0
        ref = np.array([start + k * step for k in range(len(ref))], np.float64)
    out_dt = kw.get("dtype", "i64" if all_int else "f32")
    if out_dt in ("i32", "i64") and not all_int:
        ref = np.trunc(ref)
    ref = ref.astype(DT[out_dt])
    names = ["start", "stop", "step"]
    attrs = {names[j]: a for j, a in enumerate(args)}
    attrs.update(kw)
    case("arange_%d" % i, "arange", [], ref, **attrs)
for i, (a, b, n) in enumerate([(0.0, 1.0, 5), (2, 10, 4), (1.0, -1.0, 3), (0.0, 1.0, 1), (0.0, 1.0, 0), (0.1, 0.7, 7)]):
    case("linspace_%d" % i, "linspace", [], np.linspace(a, b, n, dtype=np.float64).astype(np.float32), start=a, stop=b, num=n)
case("eye_3", "eye", [], np.eye(3, dtype=np.float32), n=3)
case("eye_0", "eye", [], np.eye(0, dtype=np.float32), n=0)
case("eye_i64", "eye", [], np.eye(2, dtype=np.int64), n=2, dtype="i64")
case("tensor_cast", "tensor", [np.array([1.7, -2.7], np.float64)], np.array([1, -2], np.int32), dtype="i32")
case("tensor_keep", "tensor", [np.array([[1, 2]], np.int64)], np.array([[1, 2]], np.int64))
case("tensor_bool", "tensor", [np.array([0.0, 0.5, np.nan], np.float32)], np.array([False, True, True]), dtype="bool")

# ---------------------------------------------------------------- nn
def softmax_ref(x, axis):
    return scipy.special.softmax(x.astype(np.float64), axis=axis).astype(DT[float_of(name_of(x))])


def log_softmax_ref(x, axis):
    return scipy.special.log_softmax(x.astype(np.float64), axis=axis).astype(DT[float_of(name_of(x))])


for dname in ["f32", "f64", "i64"]:
    x = rand((3, 4, 5), dname)
    for axis in [-1, 0, 1, 2, -2]:
        kw = {} if axis == -1 else {"axis": axis}
        case("softmax_%s_ax%d" % (dname, axis), "softmax", [x], softmax_ref(x, axis), rtol=1e-5, **kw)
        case("log_softmax_%s_ax%d" % (dname, axis), "log_softmax", [x], log_softmax_ref(x, axis), rtol=1e-5, **kw)
    case("softmax_%s_T" % dname, "softmax", [np.ascontiguousarray(x.T)], softmax_ref(x, -1), transpose_first=True, rtol=1e-5)
big = np.array([[1000.0, 1001.0, 999.0], [-1000.0, -1000.0, -1000.0]], np.float32)
case("softmax_big", "softmax", [big], softmax_ref(big, -1), rtol=1e-5)
case("log_softmax_big", "log_softmax", [big], log_softmax_ref(big, -1), rtol=1e-5)
special = np.array([[0.0, -np.inf, 1.0], [np.nan, 0.0, 1.0], [np.inf, 0.0, 1.0], [-np.inf, -np.inf, -np.inf]], np.float64)
with np.errstate(all="ignore"):
    case("softmax_special", "softmax", [special], scipy.special.softmax(special, axis=-1))
    case("log_softmax_special", "log_softmax", [special], scipy.special.log_softmax(special, axis=-1))
case("softmax_empty", "softmax", [np.zeros((0, 3), np.float32)], np.zeros((0, 3), np.float32))


def ce_ref(logits, labels):
    out_dt = DT[float_of(name_of(logits))]
    t = torch.nn.functional.cross_entropy(torch.tensor(logits.astype(np.float64)).reshape(-1, logits.shape[-1]),
                                          torch.tensor(labels.astype(np.int64)).reshape(-1))
    return np.array(t.item(), out_dt)


for dname in ["f32", "f64"]:
    lg = rand((6, 5), dname) * 3
    lb = rng.integers(0, 5, size=(6,)).astype(np.int64)
    case("cross_entropy_%s" % dname, "cross_entropy", [lg.astype(DT[dname]), lb], ce_ref(lg.astype(DT[dname]), lb), rtol=1e-5)
lg = rand((2, 3, 4), "f32")
lb = rng.integers(0, 4, size=(2, 3)).astype(np.int32)
case("cross_entropy_3d_i32", "cross_entropy", [lg, lb], ce_ref(lg, lb), rtol=1e-5)
lg = rand((5,), "f64")
case("cross_entropy_1d", "cross_entropy", [lg, np.array(2, np.int64)], ce_ref(lg, np.array(2)), rtol=1e-12)
lg = np.array([[1000.0, 0.0, -1000.0], [5.0, 5.0, 5.0]], np.float32)
lb = np.array([2, 1], np.int64)
case("cross_entropy_big", "cross_entropy", [lg, lb], ce_ref(lg, lb), rtol=1e-5)
lg = np.array([[1, 2, 3]], np.int64)
case("cross_entropy_int_logits", "cross_entropy", [lg, np.array([0], np.int64)], ce_ref(lg, np.array([0])), rtol=1e-5)
with np.errstate(all="ignore"):
    case("cross_entropy_empty", "cross_entropy", [np.zeros((0, 3), np.float32), np.zeros((0,), np.int64)], np.array(np.nan, np.float32))
for (sa, da), (sb, db) in [(((2, 3), "f32"), ((2, 3), "f32")), (((2, 3), "f64"), ((3,), "f32")), (((4,), "i64"), ((4,), "i32")),
                           (((), "f32"), ((2, 2), "f32")), (((3, 1), "f32"), ((1, 4), "f64"))]:
    a, b = rand(sa, da), rand(sb, db)
    dt = float_of(promote(da, db))
    ref = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    case("mse_%s_%s_%s_%s" % ("x".join(map(str, sa)) or "0d", da, "x".join(map(str, sb)) or "0d", db), "mse", [a, b], np.array(ref, DT[dt]), rtol=1e-5)
with np.errstate(all="ignore"):
    case("mse_empty", "mse", [np.zeros((0,), np.float32), np.zeros((0,), np.float32)], np.array(np.nan, np.float32))
    a = np.array([1.0, np.inf, 2.0], np.float32)
    case("mse_inf", "mse", [a, np.zeros(3, np.float32)], np.array(np.inf, np.float32))

print("# Generated by kernels_gen.py (NumPy %s, SciPy %s, PyTorch %s). Do not edit." % (np.__version__, scipy.__version__, torch.__version__))
print("# %d cases." % len(CASES))
for c in CASES:
    print(c)
