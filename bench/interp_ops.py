# The same loop as bench/interp_ops.tg, for CPython with NumPy.
import sys

import numpy as np

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
a = np.ones(4, np.float32)
b = np.arange(4, dtype=np.float32) * np.float32(1.0)
x = np.float32(1.5)
c, d = a, x
for i in range(n):
    c = a + b
    d = x * np.float32(2.0)
print(np.sum(c) + d)
