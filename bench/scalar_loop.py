# The scalar loop `s += (i * i) % 7` (Python ints: int64 under both
# compilers) under Numba @njit or as a TorchScript function
# (torch.jit.script), for bench/run_scalar_loop_bench. The first call,
# loop(1), compiles it (TorchScript: scripts and profiles). Prints the sum,
# then `loop_s T` (the timed call only).
# usage: /usr/bin/python3 bench/scalar_loop.py numba|torchscript [N]
import sys
import time


def loop(n: int) -> int:
    s = 0
    i = 0
    while i < n:
        s += (i * i) % 7
        i += 1
    return s


if sys.argv[1] == "numba":
    from numba import njit

    loop = njit(loop)
else:
    import torch

    loop = torch.jit.script(loop)

n = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000_000
loop(1)
t0 = time.perf_counter()
s = loop(n)
t1 = time.perf_counter()
print(s)
print("loop_s", t1 - t0)
