#!/usr/bin/python3
"""Generates shape_ops_cases.txt: NumPy's results for the layout, selection
and solve ops (flip roll tile repeat pad diag tril triu take sort argsort inv
solve det) on every dtype each takes, with negative axes and the edge cases
(empty, 0-d, size 1, NaN for sorting). Same format as kernels_cases.txt
(see kernels_gen.py), read by test_kernels_table.cpp. Rerun only when the
cases change:

    /usr/bin/python3 tests/stdlib/data/shape_ops_gen.py > tests/stdlib/data/shape_ops_cases.txt
    /usr/bin/python3 tests/stdlib/data/shape_ops_gen.py --eager > tests/stdlib/data/shape_ops_eager.txt

The second table holds unique and nonzero, which are not table ops (their
result shapes depend on the data): one "out" line per result tensor.

Where tg differs from NumPy by design the reference converts: inv/solve/det
of bool and integers compute in f32 (NumPy: f64); argsort gives i64. Static
arguments are given as the op receives them: pad's widths canonical
([before, after] for all axes, or one pair per axis, flattened).
"""
import sys

import numpy as np

from table_format import DT, attr, name_of, tensor as table_tensor

ALL = list(DT)


def tensor(a):
    return table_tensor(np.asarray(a))


CASES = []


def case(name, op, inputs, expected, rtol=None, **attrs):
    expected = np.asarray(expected)
    if rtol is None:
        rtol = 1e-5 if expected.dtype == np.float32 else 1e-12
    name = name.replace(" ", "")  # names are one word (tuples in them lose their spaces)
    lines = ["case %s %s 0 %r" % (name, op, rtol)]
    lines += ["in " + tensor(x) for x in inputs]
    lines += ["attr %s %s" % (k, attr(v)) for k, v in attrs.items()]
    lines.append("out " + tensor(expected))
    CASES.append("\n".join(lines))


rng = np.random.default_rng(2024)


def rand(shape, name):
    if name == "bool":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if name in ("i32", "i64"):
        return rng.integers(-9, 10, size=shape).astype(DT[name])
    return rng.standard_normal(size=shape).astype(DT[name])


SHAPES = [(), (1,), (5,), (2, 3), (2, 3, 4), (0, 3)]

# ---------------------------------------------------------------- flip
for dt in ALL:
    for s in SHAPES:
        x = rand(s, dt)
        axes = [None] + list(range(-len(s), len(s))) + ([(0, len(s) - 1)] if len(s) >= 2 else [])
        for ax in axes:
            case("flip_%s_%s_ax%s" % (dt, "x".join(map(str, s)) or "0d", ax), "flip", [x], np.flip(x, ax), axis=ax)

# ---------------------------------------------------------------- roll
for dt in ALL:
    for s in SHAPES:
        x = rand(s, dt)
        combos = [(2, None), (-7, None)]
        if len(s) >= 1:
            combos += [(1, -1), (-4, 0)]
        if len(s) >= 2:
            combos += [((1, 2), (0, 1)), ((3, -1), (1, 1)), (5, (0, -1))]
        for shift, ax in combos:
            case("roll_%s_%s_%s_%s" % (dt, "x".join(map(str, s)) or "0d", shift, ax), "roll", [x],
                 np.roll(x, shift, ax), shift=shift if isinstance(shift, tuple) else shift, axis=ax)

# ---------------------------------------------------------------- tile
for dt in ALL:
    for s in [(), (3,), (2, 3), (0, 2)]:
        x = rand(s, dt)
        for reps in [(2,), (2, 1), (1, 3), (2, 1, 2), (0,), (3, 2)]:
            case("tile_%s_%s_%s" % (dt, "x".join(map(str, s)) or "0d", reps), "tile", [x], np.tile(x, reps), reps=reps)

# ---------------------------------------------------------------- repeat
for dt in ALL:
    for s in [(), (3,), (2, 3), (0, 2)]:
        x = rand(s, dt)
        combos = [((2,), None), ((0,), None)]
        if len(s) >= 1:
            combos += [((3,), -1)]
            if s[0] > 0:
                combos += [(tuple(range(1, s[0] + 1)), 0)]
        if s == (2, 3):
            combos += [((2,), 1), ((1, 0, 2), -1)]
        for n, ax in combos:
            ref = np.repeat(x, n if len(n) > 1 else n[0], ax)
            case("repeat_%s_%s_%s_%s" % (dt, "x".join(map(str, s)) or "0d", n, ax), "repeat", [x], ref, n=n, axis=ax)

# ---------------------------------------------------------------- pad
for dt in ALL:
    for s in [(), (3,), (2, 3), (0, 2), (1, 2, 2)]:
        x = rand(s, dt)
        forms = [((1, 1), 1), ((2, 0), (2, 0)), ((0, 0), 0)]
        if len(s) >= 1:
            per = tuple((i % 3, (i + 1) % 2) for i in range(len(s)))
            forms.append((tuple(v for p in per for v in p), per))
        for canon, np_form in forms:
            for value in [0, 3]:
                ref = np.pad(x, np_form, mode="constant", constant_values=value)
                case("pad_%s_%s_%s_v%d" % (dt, "x".join(map(str, s)) or "0d", canon, value), "pad", [x], ref,
                     widths=canon, value=value)

# ---------------------------------------------------------------- diag, tril, triu
for dt in ALL:
    for s in [(1,), (4,), (0,), (3, 3), (2, 4), (4, 2), (0, 3)]:
        x = rand(s, dt)
        case("diag_%s_%s" % (dt, "x".join(map(str, s))), "diag", [x], np.diag(x))
    for s in [(3,), (3, 3), (2, 4), (4, 2), (2, 3, 3), (0, 2)]:
        x = rand(s, dt)
        for k in [0, 1, -1, 5, -5]:
            case("tril_%s_%s_k%d" % (dt, "x".join(map(str, s)), k), "tril", [x], np.tril(x, k), k=k)
            case("triu_%s_%s_k%d" % (dt, "x".join(map(str, s)), k), "triu", [x], np.triu(x, k), k=k)

# ---------------------------------------------------------------- take
for dt in ALL:
    for s in [(5,), (2, 3), (3, 4, 2), (1,)]:
        x = rand(s, dt)
        n = int(np.prod(s))
        for idx_dt in ["i32", "i64"]:
            idx = np.array([0, n - 1, -1, n // 2], dtype=DT[idx_dt])
            case("take_%s_%s_flat_%s" % (dt, "x".join(map(str, s)), idx_dt), "take", [x, idx], np.take(x, idx), axis=None)
            for ax in range(-len(s), len(s)):
                m = s[ax]
                idx2 = np.array([[0, m - 1], [-m, m // 2]], dtype=DT[idx_dt])
                case("take_%s_%s_ax%d_%s" % (dt, "x".join(map(str, s)), ax, idx_dt), "take", [x, idx2],
                     np.take(x, idx2, axis=ax), axis=ax)
    x = rand((3,), dt)
    case("take_%s_0d_index" % dt, "take", [x, np.array(-2, dtype=np.int64)], np.take(x, np.int64(-2)), axis=None)
    case("take_%s_empty_index" % dt, "take", [x, np.zeros((0,), np.int64)], np.take(x, np.zeros((0,), np.int64)),
         axis=0)

# ---------------------------------------------------------------- sort, argsort
for dt in ALL:
    for s in [(), (1,), (7,), (3, 4), (2, 3, 4), (0, 3)]:
        x = rand(s, dt)
        if dt in ("i32", "i64") and len(s) >= 1:
            x = (x % 3).astype(DT[dt])  # many ties: stability shows
        axes = [None] + list(range(-len(s), len(s)))
        for ax in axes:
            tag = "%s_%s_ax%s" % (dt, "x".join(map(str, s)) or "0d", ax)
            case("sort_" + tag, "sort", [x], np.sort(x, axis=ax), axis=ax)
            case("argsort_" + tag, "argsort", [x], np.argsort(x, axis=ax, kind="stable").astype(np.int64), axis=ax)
for dt in ["f32", "f64"]:
    x = np.array([[3.0, np.nan, -1.0, np.inf, -np.inf, 0.5, np.nan, -0.0]], dtype=DT[dt])
    case("sort_nan_%s" % dt, "sort", [x], np.sort(x, axis=-1), axis=-1)
    case("argsort_nan_%s" % dt, "argsort", [x], np.argsort(x, axis=-1, kind="stable").astype(np.int64), axis=-1)


# ---------------------------------------------------------------- inv, solve, det
def well_conditioned(shape, dt):
    a = rng.standard_normal(size=shape)
    n = shape[-1]
    a = a + n * np.eye(n)
    if dt in ("i32", "i64", "bool"):
        a = np.round(a).astype(DT[dt])
        if dt == "bool":
            a = np.broadcast_to(np.eye(n, dtype=bool), shape).copy()
            if n > 1:
                a[..., 0, -1] = True
    return a.astype(DT[dt])


def as_float(dt):
    return DT[dt] if dt in ("f32", "f64") else np.float32


for dt in ALL:
    for s in [(1, 1), (3, 3), (2, 4, 4), (0, 0), (2, 0, 0)]:
        a = well_conditioned(s, dt)
        f = as_float(dt)
        tag = "%s_%s" % (dt, "x".join(map(str, s)))
        case("inv_" + tag, "inv", [a], np.linalg.inv(a.astype(np.float64)).astype(f), rtol=1e-4 if f == np.float32 else 1e-10)
        case("det_" + tag, "det", [a], np.asarray(np.linalg.det(a.astype(np.float64))).astype(f),
             rtol=1e-4 if f == np.float32 else 1e-10)
    for sa, sb in [((3, 3), (3,)), ((3, 3), (3, 2)), ((2, 3, 3), (2, 3)), ((2, 3, 3), (1, 3, 2)), ((3, 3), (2, 3, 4)),
                   ((1, 3, 3), (2, 3, 2))]:
        a = well_conditioned(sa, dt)
        b = rand(sb, dt)
        f = as_float(dt)
        ref = np.linalg.solve(a.astype(np.float64), b.astype(np.float64)).astype(f)
        case("solve_%s_%s_%s" % (dt, "x".join(map(str, sa)), "x".join(map(str, sb))), "solve", [a, b], ref,
             rtol=1e-4 if f == np.float32 else 1e-10)
# a singular matrix: det is 0 (inv and solve raise: test_shape_ops.cpp)
for dt in ["f32", "f64"]:
    a = np.array([[1.0, 2.0], [2.0, 4.0]], dtype=DT[dt])
    case("det_singular_%s" % dt, "det", [a], np.asarray(np.linalg.det(a)).astype(DT[dt]), rtol=1e-6)

# ---------------------------------------------------------------- unique, nonzero (eager only: not table
# ops; read by test_shape_ops.cpp, one "out" line per result tensor)
EAGER = []


def eager_case(name, fn, x, outs):
    lines = ["case %s %s" % (name, fn), "in " + tensor(x)] + ["out " + tensor(o) for o in outs]
    EAGER.append("\n".join(lines))


for dt in ALL:
    for s in [(), (1,), (0,), (9,), (3, 4), (2, 2, 3)]:
        x = rand(s, dt)
        if dt not in ("bool",) and x.size:
            x = (x.astype(np.float64) // 1 % 4).astype(DT[dt])  # repeats and zeros
        tag = "%s_%s" % (dt, "x".join(map(str, s)) or "0d")
        eager_case("unique_" + tag, "unique", x, [np.unique(x)])
        eager_case("nonzero_" + tag, "nonzero", x, [i.astype(np.int64) for i in np.nonzero(np.atleast_1d(x))])
for dt in ["f32", "f64"]:
    x = np.array([2.0, np.nan, -1.0, np.nan, 2.0, -0.0, 0.0], dtype=DT[dt])
    eager_case("unique_nan_" + dt, "unique", x, [np.unique(x)])

if len(sys.argv) > 1 and sys.argv[1] == "--eager":
    print("# Generated by shape_ops_gen.py --eager (NumPy %s). Do not edit." % np.__version__)
    print("\n".join(EAGER))
else:
    print("# Generated by shape_ops_gen.py (NumPy %s). Do not edit." % np.__version__)
    print("# %d cases." % len(CASES))
    print("\n".join(CASES))
