# The MLP training step of bench/mlp.tg (16 -> 64 (tanh) -> 1, batch 32, MSE
# loss, SGD) in NumPy with the same hand-written gradients, in PyTorch eager
# with the same hand-written math ("torch") or with autograd
# ("torch-autograd": loss.backward(), then the SGD update under no_grad),
# or with autograd inside a TorchScript function ("torchscript-autograd":
# torch.jit.script of the whole step, torch.autograd.grad inside).
# Same data and loop as bench/mlp.tg. Run by bench/run_mlp_bench and
# bench/run_grad_bench.
# usage: /usr/bin/python3 bench/mlp.py numpy|torch|torch-autograd|torchscript-autograd [STEPS] [BLOCKS]
# env: TORCH_THREADS (default 1)
import os
import sys
import time

lib = sys.argv[1]
steps = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
blocks = int(sys.argv[3]) if len(sys.argv) > 3 else 5
lr = 0.05

if lib == "numpy":
    import numpy as np

    f32 = np.float32
    x = np.sin(np.arange(32 * 16, dtype=f32).reshape(32, 16) * f32(0.37))
    y = np.cos(x.sum(axis=1, keepdims=True))
    w1 = np.sin(np.arange(16 * 64, dtype=f32).reshape(16, 64) * f32(0.11)) * f32(0.25)
    b1 = np.zeros(64, dtype=f32)
    w2 = np.cos(np.arange(64, dtype=f32).reshape(64, 1) * f32(0.23)) * f32(0.25)
    b2 = np.zeros(1, dtype=f32)
    lr32 = f32(lr)

    def step(w1, b1, w2, b2):
        h = np.tanh(x @ w1 + b1)
        out = h @ w2 + b2
        d = out - y
        loss = np.mean(d * d)
        g_out = d * f32(2.0 / 32.0)
        gw2 = h.T @ g_out
        gb2 = g_out.sum(axis=0)
        g_z = (g_out @ w2.T) * (f32(1.0) - h * h)
        gw1 = x.T @ g_z
        gb1 = g_z.sum(axis=0)
        return w1 - lr32 * gw1, b1 - lr32 * gb1, w2 - lr32 * gw2, b2 - lr32 * gb2, loss

    def total(t):
        return float(t.sum())
else:
    import torch

    torch.set_num_threads(int(os.environ.get("TORCH_THREADS", "1")))
    f32 = torch.float32
    x = torch.sin(torch.arange(32 * 16, dtype=f32).reshape(32, 16) * 0.37)
    y = torch.cos(x.sum(dim=1, keepdim=True))
    w1 = torch.sin(torch.arange(16 * 64, dtype=f32).reshape(16, 64) * 0.11) * 0.25
    b1 = torch.zeros(64, dtype=f32)
    w2 = torch.cos(torch.arange(64, dtype=f32).reshape(64, 1) * 0.23) * 0.25
    b2 = torch.zeros(1, dtype=f32)

    if lib == "torch":
        def step(w1, b1, w2, b2):
            h = torch.tanh(x @ w1 + b1)
            out = h @ w2 + b2
            d = out - y
            loss = torch.mean(d * d)
            g_out = d * (2.0 / 32.0)
            gw2 = h.T @ g_out
            gb2 = g_out.sum(dim=0)
            g_z = (g_out @ w2.T) * (1.0 - h * h)
            gw1 = x.T @ g_z
            gb1 = g_z.sum(dim=0)
            return w1 - lr * gw1, b1 - lr * gb1, w2 - lr * gw2, b2 - lr * gb2, loss
    elif lib == "torchscript-autograd":
        @torch.jit.script
        def script_step(w1, b1, w2, b2, x, y, lr: float):
            h = torch.tanh(x @ w1 + b1)
            out = h @ w2 + b2
            loss = torch.mean((out - y) ** 2)
            grads = torch.autograd.grad([loss], [w1, b1, w2, b2])
            new = []
            for p, g in zip([w1, b1, w2, b2], grads):
                assert g is not None
                new.append((p - lr * g).detach().requires_grad_(True))
            return new[0], new[1], new[2], new[3], loss.detach()

        for p in (w1, b1, w2, b2):
            p.requires_grad_(True)

        def step(w1, b1, w2, b2):
            return script_step(w1, b1, w2, b2, x, y, lr)
    else:
        for p in (w1, b1, w2, b2):
            p.requires_grad_(True)

        def step(w1, b1, w2, b2):
            h = torch.tanh(x @ w1 + b1)
            out = h @ w2 + b2
            loss = torch.mean((out - y) ** 2)
            loss.backward()
            with torch.no_grad():
                for p in (w1, b1, w2, b2):
                    p -= lr * p.grad
                    p.grad = None
            return w1, b1, w2, b2, loss.detach()

    def total(t):
        return float(t.detach().sum())

w1, b1, w2, b2, loss = step(w1, b1, w2, b2)
print("loss_first", float(loss))
times = []
for _ in range(blocks):
    t = time.perf_counter()
    for _ in range(steps):
        w1, b1, w2, b2, loss = step(w1, b1, w2, b2)
    times.append(time.perf_counter() - t)
print("block_s", " ".join(repr(v) for v in times))
print("loss_last", float(loss))
print("params", total(w1), total(b1), total(w2), total(b2))
