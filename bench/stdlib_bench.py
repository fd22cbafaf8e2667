#!/usr/bin/python3
"""The NumPy and PyTorch side of bench/stdlib_bench.cpp: the same operations,
printed as "library name nanoseconds" lines (medians)."""
import time

import numpy as np
import torch

torch.set_num_threads(1)


def time_ns(iters, reps, f):
    ts = []
    for _ in range(reps):
        t0 = time.thread_time_ns()  # CPU time: the machine is shared
        for _ in range(iters):
            f()
        ts.append((time.thread_time_ns() - t0) / iters)
    ts.sort()
    return ts[len(ts) // 2]


def run(lib, mod, scalar, vec, big):
    a, b = scalar(1.5), scalar(2.25)
    print(lib, 'scalar_add', round(time_ns(200000, 7, lambda: a + b), 1))
    print(lib, 'scalar_mul_weak', round(time_ns(200000, 7, lambda: a * 0.5), 1))
    print(lib, 'scalar_exp', round(time_ns(200000, 7, lambda: mod.exp(a)), 1))
    v4, w4 = vec([1, 2, 3, 4]), vec([5, 6, 7, 8])
    print(lib, 'vec4_add', round(time_ns(200000, 7, lambda: v4 + w4), 1))
    print(lib, 'vec4_exp', round(time_ns(200000, 7, lambda: mod.exp(v4)), 1))
    i = np.arange(10_000_000)
    x = big((i % 1000).astype(np.float32) * np.float32(0.001) - np.float32(0.5))
    y = big((i % 777).astype(np.float32) * np.float32(0.002))
    print(lib, 'big_add', round(time_ns(1, 15, lambda: x + y)))
    print(lib, 'big_mul_scalar', round(time_ns(1, 15, lambda: x * 2.0)))
    print(lib, 'big_exp', round(time_ns(1, 9, lambda: mod.exp(x))))
    print(lib, 'big_tanh', round(time_ns(1, 9, lambda: mod.tanh(x))))
    sig = (lambda v: 1 / (1 + np.exp(-v))) if mod is np else torch.sigmoid
    print(lib, 'big_expr', round(time_ns(1, 9, lambda: mod.tanh(x * 0.5 + 1) * sig(x) - x * x)))


run('numpy', np, lambda v: np.array(v, dtype=np.float32), lambda v: np.array(v, dtype=np.float32), lambda a: a)
run('torch', torch, lambda v: torch.tensor(v, dtype=torch.float32), lambda v: torch.tensor(v, dtype=torch.float32),
    lambda a: torch.from_numpy(a))
