# The element-wise chain tanh(x * 0.5 + 1.0) * sigmoid(x) - x * x on n f32
# values, NumPy or PyTorch eager (on $TORCH_THREADS threads, default 1), the
# same input and loop as bench/chain.tg. Run by bench/run_chain_bench.
# usage: /usr/bin/python3 bench/chain.py numpy|torch [N] [REPS]
import os
import sys
import time

lib = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000_000
reps = int(sys.argv[3]) if len(sys.argv) > 3 else 20

if lib == "numpy":
    import numpy as np

    x = (np.arange(n, dtype=np.float32) - np.float32(n // 2)) * np.float32(4.76837158203125e-07)

    def chain(x):
        return np.tanh(x * np.float32(0.5) + np.float32(1.0)) * (np.float32(1.0) / (np.float32(1.0) + np.exp(-x))) - x * x

    def to_f64_sum(y):
        return float(y.astype(np.float64).sum())
else:
    import torch

    torch.set_num_threads(int(os.environ.get("TORCH_THREADS", "1")))
    x = (torch.arange(n, dtype=torch.float32) - float(n // 2)) * 4.76837158203125e-07

    def chain(x):
        return torch.tanh(x * 0.5 + 1.0) * torch.sigmoid(x) - x * x

    def to_f64_sum(y):
        return float(y.double().sum())

t = time.perf_counter()
y = chain(x)
first = time.perf_counter() - t
times = []
for _ in range(reps):
    y = None  # as in chain.tg: drop the previous result first
    t = time.perf_counter()
    y = chain(x)
    times.append(time.perf_counter() - t)
print("first", first)
print("times", " ".join(repr(v) for v in times))
k = n // 100 + 1
print("sum", repr(sum(to_f64_sum(y[i:i + k]) for i in range(0, n, k))))  # in slices, as chain.tg
print("sample", " ".join(repr(float(y[i])) for i in range(0, n, n // 10 + 1)))
