# bench/batch_sizes.tg's layer in NumPy and PyTorch eager (which never
# retrace): per-call time at the same batch sizes, the same data and math.
# usage: python3 bench/batch_sizes.py numpy|torch [CALLS]
import sys
import time

import numpy as np

way = sys.argv[1]
calls = int(sys.argv[2]) if len(sys.argv) > 2 else 200
w = (np.sin(np.arange(64 * 32, dtype=np.float32).reshape(64, 32) * np.float32(0.13)) * np.float32(0.2))
b = np.cos(np.arange(32, dtype=np.float32)) * np.float32(0.1)


def batch(n):
    return np.sin(np.arange(n * 64, dtype=np.float32).reshape(n, 64) * np.float32(0.017))


if way == "numpy":
    def layer(x, w, b):
        z = x * np.float32(0.5) + np.float32(1.0)
        u = np.tanh(z) * x - np.exp(-(x * x)) + np.sqrt(np.abs(x) + np.float32(1.0))
        h = np.tanh(u @ w + b)
        return (h * h).sum(axis=1), u.mean()
    conv = lambda a: a
else:
    import torch
    torch.set_num_threads(1)
    def layer(x, w, b):
        z = x * 0.5 + 1.0
        u = torch.tanh(z) * x - torch.exp(-(x * x)) + torch.sqrt(torch.abs(x) + 1.0)
        h = torch.tanh(u @ w + b)
        return (h * h).sum(dim=1), u.mean()
    conv = torch.from_numpy
    w, b = conv(w), conv(b)

sizes = [8 * k + 3 for k in range(50)]
t = time.perf_counter()
for n in sizes:
    r, m = layer(conv(batch(n)), w, b)
print("sweep_s", time.perf_counter() - t)
for n in [16, 128, 395]:
    x = conv(batch(n))
    line = "call_us %d" % n
    for k in range(5):
        t = time.perf_counter()
        for i in range(calls):
            r, m = layer(x, w, b)
        line += " %g" % ((time.perf_counter() - t) / calls * 1e6)
    print(line)
    print("check_%d" % n, float(r.sum()), float(m))
