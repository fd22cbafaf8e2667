#!/usr/bin/python3
# Writes the NumPy script tests of tests/scripts/pystd/ (NumPy's argument
# forms: clip with a None bound, pad's modes and values, unique's return_*
# and axis, sort / argsort with kind= and descending=, isclose's equal_nan,
# einsum's implicit output and `...`; ndarray's methods and their varargs
# forms; dtype= of sum, mean, prod, cumsum, cumprod) the way tests/scripts/numpy/make_refs.py writes its own, with its
# Case and write: data/FAMILY.npz (inputs, NumPy's outputs, finite-difference
# gradients) and FAMILY.tg for the families forms, methods and dtypes, checked by
# refs_module.tg (a link to the NumPy tests' one). Run once by hand with
# Debian's python3-numpy:
#     /usr/bin/python3 tests/scripts/pystd/make_refs.py [FAMILY...]
# then `tests/run_scripts.py --update build/tg tests/scripts/pystd` and
# review the .out files (every line ends in True). The tests need no NumPy.
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "numpy"))
import make_refs as base  # noqa: E402  (its families run only as a program)

base.HERE = HERE
base.rng = np.random.default_rng(40)
Case, u, ints = base.Case, base.u, base.ints


def desc_sort(x, axis=-1):
    """torch.sort(descending=True)'s values: NaN first"""
    return np.flip(np.sort(x, axis=axis), axis=axis)


def forms():
    v, m, t3 = u(5), u(3, 4), u(2, 3, 4)
    with_nan = np.array([0.5, np.nan, -1.0, 0.5, 2.0, np.nan, -1.0], np.float32)
    iv = ints(9, lo=-3, hi=4)
    cases = [
        # clip with one bound
        Case("clip_no_lo", "clip({0}, None, 0.3)", lambda x: np.clip(x, None, 0.3), m, wrt=(0,)),
        Case("clip_no_hi", "clip({0}, -0.2, None)", lambda x: np.clip(x, -0.2, None), m, wrt=(0,)),
        Case("clip_keywords", "clip({0}, a_min=-0.5, a_max=0.5)", lambda x: np.clip(x, a_min=-0.5, a_max=0.5), v, wrt=(0,)),
        Case("clip_method_max", "{0}.clip(max=1)", lambda x: x.clip(max=1), iv),
        # pad: modes, per-side widths, widths past the axis, constant values
        Case("pad_reflect", "pad({0}, (2, 3), mode=\"reflect\")", lambda x: np.pad(x, (2, 3), mode="reflect"), v, wrt=(0,)),
        Case("pad_reflect_wide", "pad({0}, (4, 7), \"reflect\")", lambda x: np.pad(x, (4, 7), "reflect"), u(3), wrt=(0,)),
        Case("pad_symmetric", "pad({0}, ((1, 2), (3, 0)), mode=\"symmetric\")",
             lambda x: np.pad(x, ((1, 2), (3, 0)), mode="symmetric"), m, wrt=(0,)),
        Case("pad_symmetric_wide", "pad({0}, (4, 7), mode=\"symmetric\")", lambda x: np.pad(x, (4, 7), mode="symmetric"),
             u(3), wrt=(0,)),
        Case("pad_edge", "pad({0}, ((0, 2), (1, 1), (2, 0)), mode=\"edge\")",
             lambda x: np.pad(x, ((0, 2), (1, 1), (2, 0)), mode="edge"), t3, wrt=(0,)),
        Case("pad_wrap", "pad({0}, (2, 4), mode=\"wrap\")", lambda x: np.pad(x, (2, 4), mode="wrap"), v, wrt=(0,)),
        Case("pad_wrap_wide", "pad({0}, (0, 7), mode=\"wrap\")", lambda x: np.pad(x, (0, 7), mode="wrap"), u(3)),
        Case("pad_wrap_2d", "pad({0}, 1, mode=\"wrap\")", lambda x: np.pad(x, 1, mode="wrap"), ints(3, 3)),
        Case("pad_edge_one", "pad({0}, 2, \"reflect\")", lambda x: np.pad(x, 2, "reflect"), u(1)),
        Case("pad_values", "pad({0}, (1, 2), constant_values=(7, 9))", lambda x: np.pad(x, (1, 2), constant_values=(7, 9)),
             iv),
        Case("pad_values_axes", "pad({0}, ((1, 0), (2, 1)), constant_values=((-1.5, 2.5), (3.0, -4.0)))",
             lambda x: np.pad(x, ((1, 0), (2, 1)), constant_values=((-1.5, 2.5), (3.0, -4.0))), m, wrt=(0,)),
        Case("pad_value_cast", "pad({0}, 1, constant_values=2.75)", lambda x: np.pad(x, 1, constant_values=2.75),
             ints(2, 2)),
        # sort / argsort: kind= accepted, descending (NaN first, stable among equal elements)
        Case("sort_kind", "sort({0}, axis=0, kind=\"stable\")", lambda x: np.sort(x, axis=0, kind="stable"), m, wrt=(0,)),
        Case("argsort_kind", "argsort({0}, kind=\"mergesort\")", lambda x: np.argsort(x, kind="mergesort"), iv),
        Case("sort_desc", "sort({0}, descending=True)", desc_sort, with_nan),
        Case("sort_desc_axis", "sort({0}, axis=0, descending=True)", lambda x: desc_sort(x, 0), m, wrt=(0,)),
        Case("sort_desc_none", "sort({0}, axis=None, descending=True)", lambda x: desc_sort(x.ravel()), ints(3, 3)),
        Case("argsort_desc", "argsort({0}, descending=True)", lambda x: np.argsort(-x, kind="stable"), iv),
        Case("argsort_desc_2d", "argsort({0}, axis=1, descending=True)", lambda x: np.argsort(-x, axis=1, kind="stable"),
             ints(3, 5, lo=0, hi=3)),
        # isclose / allclose with equal_nan
        Case("isclose_equal_nan", "isclose({0}, {1}, equal_nan=True)", lambda a, b: np.isclose(a, b, equal_nan=True),
             with_nan, with_nan + np.float32(1e-6)),
        Case("allclose_equal_nan", "allclose({0}, {1}, equal_nan=True)",
             lambda a, b: np.array(np.allclose(a, b, equal_nan=True)), with_nan, with_nan.copy()),
        Case("allclose_nan", "allclose({0}, {1})", lambda a, b: np.array(np.allclose(a, b)), with_nan, with_nan.copy()),
        # einsum: the implicit output, `...`
        Case("einsum_implicit", "einsum(\"ij,jk\", {0}, {1})", lambda a, b: np.einsum("ij,jk", a, b), m, u(4, 2),
             wrt=(0, 1)),
        Case("einsum_implicit_order", "einsum(\"ba\", {0})", lambda a: np.einsum("ba", a), m, wrt=(0,)),
        Case("einsum_implicit_trace", "einsum(\"ii\", {0})", lambda a: np.einsum("ii", a), u(3, 3), wrt=(0,)),
        Case("einsum_ellipsis", "einsum(\"...ij,...jk->...ik\", {0}, {1})",
             lambda a, b: np.einsum("...ij,...jk->...ik", a, b), t3, u(4, 2), wrt=(0, 1)),
        Case("einsum_ellipsis_implicit", "einsum(\"...j,j\", {0}, {1})", lambda a, b: np.einsum("...j,j", a, b), t3, u(4),
             wrt=(0, 1)),
        Case("einsum_ellipsis_broadcast", "einsum(\"...i,...i->...\", {0}, {1})",
             lambda a, b: np.einsum("...i,...i->...", a, b), u(2, 1, 4), u(3, 4), wrt=(0, 1)),
        # ndarray's methods and attributes
        Case("method_item", "{0}.item(5) + {0}.item(2, -1)", lambda x: np.array(x.item(5) + x.item(2, -1), np.float32), m),
        Case("method_mT", "{0}.mT", lambda x: np.swapaxes(x, -1, -2), t3, wrt=(0,)),
        Case("method_real_imag", "{0}.real * 2.0 + {0}.imag + {0}.conj()", lambda x: x.real * 2 + x.imag + x.conj(), m,
             wrt=(0,)),
    ]
    uniques = [
        Case("unique_all", "list(unique({0}, return_index=True, return_inverse=True, return_counts=True))",
             lambda x: list(np.unique(x, return_index=True, return_inverse=True, return_counts=True)), with_nan,
             graph=False),
        Case("unique_ints_2d", "list(unique({0}, return_inverse=True))",
             lambda x: list(np.unique(x, return_inverse=True)), ints(3, 4, lo=0, hi=4), graph=False),
        Case("unique_counts", "list(unique({0}, return_counts=True))", lambda x: list(np.unique(x, return_counts=True)),
             iv, graph=False),
        Case("unique_axis0", "list(unique({0}, axis=0, return_index=True, return_inverse=True, return_counts=True))",
             lambda x: list(np.unique(x, axis=0, return_index=True, return_inverse=True, return_counts=True)),
             np.array([[1, 2, 0], [0, 5, 1], [1, 2, 0], [0, 5, 0]], np.int64), graph=False),
        Case("unique_axis1", "list(unique({0}, axis=-1, return_counts=True))",
             lambda x: list(np.unique(x, axis=-1, return_counts=True)),
             np.array([[1.5, 0.5, 1.5, 0.5], [2.0, 3.0, 2.0, 3.0]], np.float32), graph=False),
        Case("unique_grad", "unique({0})", np.unique, np.array([0.5, 0.25, -1.0, 2.0], np.float32), wrt=(0,),
             graph=False),
    ]
    base.write("forms", cases + uniques, "NumPy's argument forms")


def methods():
    """ndarray's methods: every builtin is a method of its first argument,
    with NumPy's varargs forms (x.reshape(3, 4), x.transpose(1, 0), x.sum(0))"""
    m, t3, v = u(3, 4), u(2, 3, 4), u(6)
    im = ints(3, 4, lo=-3, hi=4)
    cases = [
        Case("m_reshape_varargs", "{0}.reshape(4, 3)", lambda x: x.reshape(4, 3), m, wrt=(0,)),
        Case("m_reshape_tuple", "{0}.reshape((2, -1))", lambda x: x.reshape((2, -1)), m, wrt=(0,)),
        Case("m_reshape_neg", "{0}.reshape(-1, 2, 2)", lambda x: x.reshape(-1, 2, 2), m),
        Case("m_transpose_varargs", "{0}.transpose(2, 0, 1)", lambda x: x.transpose(2, 0, 1), t3, wrt=(0,)),
        Case("m_transpose_none", "{0}.transpose()", lambda x: x.transpose(), t3),
        Case("m_transpose_tuple", "{0}.transpose((1, 0, 2))", lambda x: x.transpose((1, 0, 2)), t3),
        Case("m_T", "{0}.T", lambda x: x.T, m, wrt=(0,)),
        Case("m_sum_axis", "{0}.sum(0)", lambda x: x.sum(0), m, wrt=(0,)),
        Case("m_sum_axes", "{0}.sum((0, 2))", lambda x: x.sum((0, 2)), t3, wrt=(0,)),
        Case("m_sum_keepdims", "{0}.sum(1, keepdims=True)", lambda x: x.sum(1, keepdims=True), m),
        Case("m_sum_varargs_keywords", "{0}.sum(0, 2, keepdims=True)", lambda x: x.sum((0, 2), keepdims=True), t3,
             wrt=(0,)),
        Case("m_mean", "{0}.mean(axis=-1)", lambda x: x.mean(axis=-1), t3, wrt=(0,)),
        Case("m_std_ddof", "{0}.std(ddof=1)", lambda x: x.std(ddof=1), m, wrt=(0,)),
        Case("m_var_axis", "{0}.var(0)", lambda x: x.var(0), m, wrt=(0,)),
        Case("m_max_min", "{0}.max(1) - {0}.min()", lambda x: x.max(1) - x.min(), m, wrt=(0,)),
        Case("m_prod", "{0}.prod(0)", lambda x: x.prod(0), m, wrt=(0,)),
        Case("m_ptp", "{0}.ptp(1)", lambda x: np.ptp(x, 1), m, wrt=(0,)),
        Case("m_argmax", "{0}.argmax()", lambda x: x.argmax(), m),
        Case("m_argmax_axis", "{0}.argmax(1)", lambda x: x.argmax(1), m),
        Case("m_argmin_axis", "{0}.argmin(axis=0)", lambda x: x.argmin(axis=0), im),
        Case("m_any_all", "{0}.any(0) & {0}.all(1, keepdims=True)", lambda x: x.any(0) & x.all(1, keepdims=True), im),
        Case("m_cumsum", "{0}.cumsum()", lambda x: x.cumsum(), m, wrt=(0,)),
        Case("m_cumsum_axis", "{0}.cumsum(1)", lambda x: x.cumsum(1), im),
        Case("m_cumprod_axis", "{0}.cumprod(0)", lambda x: x.cumprod(0), m, wrt=(0,)),
        Case("m_ravel", "{0}.ravel()", lambda x: x.ravel(), t3, wrt=(0,)),
        Case("m_flatten", "{0}.flatten()", lambda x: x.flatten(), im),
        Case("m_astype_name", "{0}.astype(\"f8\")", lambda x: x.astype("f8"), im),
        Case("m_astype_int", "{0}.astype(\"int32\")", lambda x: x.astype("int32"), m * 4),
        Case("m_clip", "{0}.clip(-0.25, 0.5)", lambda x: x.clip(-0.25, 0.5), m, wrt=(0,)),
        Case("m_clip_min", "{0}.clip(min=0)", lambda x: x.clip(min=0), im),
        Case("m_round", "{0}.round()", lambda x: x.round(), m * 3, wrt=(0,)),
        Case("m_round_decimals", "{0}.round(2)", lambda x: x.round(2), m),
        Case("m_round_neg", "{0}.round(-1)", lambda x: x.round(-1), im * 7),
        Case("m_squeeze", "{0}.squeeze(1)", lambda x: x.squeeze(1), u(3, 1, 2), wrt=(0,)),
        Case("m_swapaxes", "{0}.swapaxes(0, 2)", lambda x: x.swapaxes(0, 2), t3, wrt=(0,)),
        Case("m_diagonal", "{0}.diagonal(1)", lambda x: x.diagonal(1), m, wrt=(0,)),
        Case("m_trace", "{0}.trace()", lambda x: x.trace(), m, wrt=(0,)),
        Case("m_repeat", "{0}.repeat(2, axis=0)", lambda x: x.repeat(2, axis=0), m, wrt=(0,)),
        Case("m_take", "{0}.take([0, 5, -1])", lambda x: x.take([0, 5, -1]), m, wrt=(0,)),
        Case("m_dot", "{0}.dot({1})", lambda a, b: a.dot(b), m, u(4, 2), wrt=(0, 1)),
        Case("m_sort", "{0}.sort(0)", lambda x: np.sort(x, 0), m, wrt=(0,)),
        Case("m_argsort", "{0}.argsort()", lambda x: x.argsort(kind="stable"), im),
        Case("m_searchsorted", "{0}.searchsorted({1})", lambda a, b: a.searchsorted(b), np.sort(v), u(4)),
        Case("m_item", "{0}.item(1, 2)", lambda x: np.array(x.item(1, 2), np.float32), m),
        Case("m_nonzero", "list({0}.nonzero())", lambda x: list(x.nonzero()), im, graph=False),
    ]
    base.write("methods", cases, "ndarray's methods and their varargs forms")


def dtypes():
    """dtype= of the sums and products: the dtype they accumulate in and
    give (NumPy's; the dtype of each result is checked too)"""
    i32, i64, f = ints(3, 4, dtype=np.int32), ints(3, 4), u(3, 4, lo=-2, hi=2)
    big = np.array([[2**31 - 1, 5, 7], [-2**31, -3, 2**30]], np.int32)  # sums and products wrap in i32
    t3 = u(2, 3, 4)
    b = ints(3, 4, lo=0, hi=2) > 0
    few = ints(2, 3, lo=1, hi=6, dtype=np.int32)
    D = dict(same_dtype=True)
    cases = [
        Case("sum_i32_f64", "sum({0}, dtype=f64)", lambda x: np.sum(x, dtype=np.float64), i32, **D),
        Case("sum_i32_i32", "sum({0}, axis=1, dtype=i32)", lambda x: np.sum(x, axis=1, dtype=np.int32), big, **D),
        Case("sum_i64_i32", "sum({0}, dtype=\"int32\")", lambda x: np.sum(x, dtype=np.int32), big.astype(np.int64), **D),
        Case("sum_f32_f64", "sum({0}, axis=0, dtype=f64)", lambda x: np.sum(x, axis=0, dtype=np.float64), f, wrt=(0,), **D),
        Case("sum_f32_i64", "sum({0}, dtype=i64)", lambda x: np.sum(x, dtype=np.int64), f, **D),
        Case("sum_keepdims", "sum({0}, 0, True, dtype=\"f8\")", lambda x: np.sum(x, 0, keepdims=True, dtype="f8"), i64, **D),
        Case("sum_bool", "sum({0}, axis=0, dtype=bool)", lambda x: np.sum(x, axis=0, dtype=bool), i64, **D),
        Case("sum_of_bools", "sum({0}, dtype=i32)", lambda x: np.sum(x, dtype=np.int32), b, **D),
        Case("sum_none", "sum({0}, dtype=None)", lambda x: np.sum(x), i64, **D),
        Case("sum_method", "{0}.sum(dtype=f64)", lambda x: x.sum(dtype=np.float64), i32, **D),
        Case("sum_method_varargs", "{0}.sum(0, 2, dtype=f64)", lambda x: x.sum((0, 2), dtype=np.float64), t3, wrt=(0,), **D),
        Case("prod_i32_f64", "prod({0}, axis=1, dtype=f64)", lambda x: np.prod(x, axis=1, dtype=np.float64), few, **D),
        Case("prod_i32_i32", "prod({0}, axis=0, dtype=i32)", lambda x: np.prod(x, axis=0, dtype=np.int32), big, **D),
        Case("prod_f32_f64", "prod({0}, 1, dtype=f64)", lambda x: np.prod(x, 1, dtype=np.float64), f, wrt=(0,), **D),
        Case("prod_bool", "prod({0}, axis=1, dtype=bool)", lambda x: np.prod(x, axis=1, dtype=bool), i64, **D),
        Case("prod_method", "{0}.prod(dtype=f32)", lambda x: x.prod(dtype=np.float32), few, **D),
        Case("mean_i32_f64", "mean({0}, dtype=f64)", lambda x: np.mean(x, dtype=np.float64), i32, **D),
        Case("mean_i64_i64", "mean({0}, axis=1, dtype=i64)", lambda x: np.mean(x, axis=1, dtype=np.int64), i64, **D),
        Case("mean_i32_i32", "mean({0}, axis=1, dtype=i32)", lambda x: np.mean(x, axis=1, dtype=np.int32), big, **D),
        Case("mean_f32_i32", "mean({0}, axis=0, keepdims=True, dtype=i32)",
             lambda x: np.mean(x, axis=0, keepdims=True, dtype=np.int32), f * 3, **D),
        Case("mean_f32_f64", "mean({0}, axis=-1, dtype=f64)", lambda x: np.mean(x, axis=-1, dtype=np.float64), f, wrt=(0,), **D),
        Case("mean_bool", "mean({0}, 0, dtype=bool)", lambda x: np.mean(x, 0, dtype=bool), b, **D),
        Case("mean_method", "{0}.mean(1, dtype=\"float64\")", lambda x: x.mean(1, dtype=np.float64), i64, **D),
        Case("cumsum_i32_f64", "cumsum({0}, dtype=f64)", lambda x: np.cumsum(x, dtype=np.float64), i32, **D),
        Case("cumsum_i64_i32", "cumsum({0}, axis=1, dtype=i32)", lambda x: np.cumsum(x, axis=1, dtype=np.int32),
             big.astype(np.int64), **D),
        Case("cumsum_f32_f64", "cumsum({0}, 0, dtype=f64)", lambda x: np.cumsum(x, 0, dtype=np.float64), f, wrt=(0,), **D),
        Case("cumsum_f32_i32", "cumsum({0}, axis=1, dtype=i32)", lambda x: np.cumsum(x, axis=1, dtype=np.int32), f * 3, **D),
        Case("cumsum_bool", "cumsum({0}, dtype=bool)", lambda x: np.cumsum(x, dtype=bool), i64, **D),
        Case("cumsum_method", "{0}.cumsum(1, dtype=f32)", lambda x: x.cumsum(1, dtype=np.float32), i32, **D),
        Case("cumprod_i32_f64", "cumprod({0}, axis=1, dtype=f64)", lambda x: np.cumprod(x, axis=1, dtype=np.float64),
             few, **D),
        Case("cumprod_i32_i32", "cumprod({0}, dtype=i32)", lambda x: np.cumprod(x, dtype=np.int32), big, **D),
        Case("cumprod_f32_f64", "cumprod({0}, axis=0, dtype=f64)", lambda x: np.cumprod(x, axis=0, dtype=np.float64), f,
             wrt=(0,), **D),
        Case("cumprod_method", "{0}.cumprod(dtype=i64)", lambda x: x.cumprod(dtype=np.int64), few, **D),
        # var and std: float dtypes only (tg refuses an integer one, docs/numpy.md)
        Case("var_f32_f64", "var({0}, dtype=f64)", lambda x: np.var(x, dtype=np.float64), f, wrt=(0,), **D),
        Case("var_i32_f64", "var({0}, axis=1, dtype=f64)", lambda x: np.var(x, axis=1, dtype=np.float64), i32, **D),
        Case("var_method", "{0}.var(dtype=f32)", lambda x: x.var(dtype=np.float32), i32, **D),
        Case("std_f32_f64", "std({0}, axis=0, ddof=1, dtype=f64)", lambda x: np.std(x, axis=0, ddof=1, dtype=np.float64),
             f, wrt=(0,), **D),
        Case("std_method", "{0}.std(1, dtype=\"float64\")", lambda x: x.std(1, dtype=np.float64), i64, **D),
        Case("std_none", "std({0}, dtype=None)", lambda x: np.std(x, dtype=np.float32), f, **D),
    ]
    base.write("dtypes", cases, "dtype= of sum, prod, mean, cumsum, cumprod, var and std")


forms()
methods()
dtypes()  # last: the families before it keep their random inputs
