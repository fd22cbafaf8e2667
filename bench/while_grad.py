# The loop of bench/while_grad.tg (10,000 iterations of
# x = x + 0.001 * tanh(w * x + 0.5) on 64 f32 values, loss mean(x * x)) in
# PyTorch eager: "value" runs it under no_grad, "grad" with autograd
# (loss.backward() through every iteration's recorded ops). Same data and
# output format as bench/while_grad.tg. Run by bench/run_grad_bench.
# usage: /usr/bin/python3 bench/while_grad.py value|grad [N] [REPS]
# env: TORCH_THREADS (default 1)
import os
import sys
import time

import torch

mode = sys.argv[1] if len(sys.argv) > 1 else "grad"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
reps = int(sys.argv[3]) if len(sys.argv) > 3 else 5
torch.set_num_threads(int(os.environ.get("TORCH_THREADS", "1")))
f32 = torch.float32
w0 = torch.sin(torch.arange(64, dtype=f32) * 0.3)
x0 = torch.cos(torch.arange(64, dtype=f32) * 0.7)


def simulate(w, x):
    i = 0
    while i < n:
        x = x + 0.001 * torch.tanh(w * x + 0.5)
        i += 1
    return torch.mean(x * x)


def once():
    if mode == "value":
        with torch.no_grad():
            return simulate(w0, x0), None
    w = w0.clone().requires_grad_(True)
    x = x0.clone().requires_grad_(True)
    loss = simulate(w, x)
    loss.backward()
    return loss.detach(), (w.grad, x.grad)


loss, g = once()
times = []
for _ in range(reps):
    t = time.perf_counter()
    loss, g = once()
    times.append(time.perf_counter() - t)
print("call_s", " ".join(repr(v) for v in times))
print("loss", float(loss))
if g is not None:
    print("grads", float(g[0].sum()), float(g[1].sum()))
