#!/usr/bin/python3
"""Writes PyTorch's answers for the `nn` module's tests (tests/nn/*.tg).

Run once by hand, from anywhere, with a Python that has torch (1.13) and
NumPy:  /usr/bin/python3 tests/nn/refs_gen.py
It rewrites tests/nn/refs/<layer>.npz: the inputs, the weights and PyTorch's
outputs (and gradients of sum(sin(y)) where they say something), a few KB
each. The tg tests load them and compare with allclose, so they do not need
PyTorch. Everything is f32 and drawn from a fixed seed; rerunning gives the
same files.
"""
import os

import numpy as np
import torch
import torch.nn as tnn
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "refs")


def arr(t):
    return t.detach().numpy().astype(np.float32) if t.dtype.is_floating_point else t.detach().numpy()


def save(name, **tensors):
    np.savez(os.path.join(OUT, name + ".npz"), **{k: arr(v) for k, v in tensors.items()})


def grads_of(y, *inputs):
    """Gradients of sum(sin(y)) with respect to inputs (a cotangent that is not all ones)."""
    return torch.autograd.grad(torch.sin(y).sum(), inputs)


def linear():
    m = tnn.Linear(3, 5)
    x = torch.randn(4, 3, requires_grad=True)
    y = m(x)
    dx, dw, db = grads_of(y, x, m.weight, m.bias)
    m2 = tnn.Linear(3, 2, bias=False)
    save("linear", x=x, weight=m.weight, bias=m.bias, y=y, dx=dx, dweight=dw, dbias=db,
         weight_nobias=m2.weight, y_nobias=m2(x))


def conv2d():
    m = tnn.Conv2d(3, 4, 3, stride=2, padding=1)
    x = torch.randn(2, 3, 6, 6, requires_grad=True)
    y = m(x)
    dx, dw, db = grads_of(y, x, m.weight, m.bias)
    # groups, dilation, a pair of kernel sizes, no bias
    g = tnn.Conv2d(4, 6, (3, 2), padding=(2, 1), dilation=2, groups=2, bias=False)
    xg = torch.randn(1, 4, 7, 5)
    save("conv2d", x=x, weight=m.weight, bias=m.bias, y=y, dx=dx, dweight=dw, dbias=db,
         xg=xg, weight_g=g.weight, y_g=g(xg))


def batch_norm():
    m = tnn.BatchNorm2d(3, momentum=0.1, eps=1e-5)
    with torch.no_grad():
        m.weight.copy_(torch.rand(3) + 0.5)
        m.bias.copy_(torch.randn(3))
    x = torch.randn(4, 3, 2, 2, requires_grad=True) * 2.0 + 1.0
    m.train()
    y = m(x)
    dx, dw, db = grads_of(y, x, m.weight, m.bias)
    mean1, var1 = m.running_mean.clone(), m.running_var.clone()
    x2 = torch.randn(4, 3, 2, 2) - 0.5
    y2 = m(x2)  # a second training step: running stats from the first
    m.eval()
    x3 = torch.randn(2, 3, 2, 2)
    y3 = m(x3)
    # BatchNorm1d on (N, C), without affine parameters
    m1 = tnn.BatchNorm1d(3, affine=False)
    x4 = torch.randn(6, 3)
    y4 = m1(x4)
    save("batch_norm", x=x, weight=m.weight, bias=m.bias, y=y, dx=dx, dweight=dw, dbias=db,
         running_mean1=mean1, running_var1=var1, x2=x2, y2=y2, running_mean2=m.running_mean,
         running_var2=m.running_var, x3=x3, y3=y3, x4=x4, y4=y4, running_mean4=m1.running_mean,
         running_var4=m1.running_var)


def layer_norm():
    m = tnn.LayerNorm(4)
    with torch.no_grad():
        m.weight.copy_(torch.rand(4) + 0.5)
        m.bias.copy_(torch.randn(4))
    x = torch.randn(2, 3, 4, requires_grad=True)
    y = m(x)
    dx, dw, db = grads_of(y, x, m.weight, m.bias)
    m2 = tnn.LayerNorm((3, 4), elementwise_affine=False)
    save("layer_norm", x=x, weight=m.weight, bias=m.bias, y=y, dx=dx, dweight=dw, dbias=db, y2=m2(x))


def embedding():
    m = tnn.Embedding(10, 4)
    idx = torch.tensor([[1, 2, 4], [4, 3, 9]])
    y = m(idx)
    (dw,) = grads_of(y, m.weight)
    save("embedding", weight=m.weight, indices=idx, y=y, dweight=dw)


def sequential():
    """An MLP with batch norm, trained 3 steps of SGD with momentum on
    cross-entropy: the parameters, running stats and losses after them."""
    net = tnn.Sequential(tnn.Linear(3, 8), tnn.BatchNorm1d(8), tnn.ReLU(), tnn.Linear(8, 2))
    init = {k: v.clone() for k, v in net.state_dict().items()}
    x = torch.randn(16, 3)
    labels = torch.randint(0, 2, (16,))
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = F.cross_entropy(net(x), labels)
        loss.backward()
        opt.step()
        losses.append(loss.detach())
    net.eval()
    y_eval = net(x)
    after = net.state_dict()
    tensors = {"x": x, "labels": labels, "losses": torch.stack(losses), "y_eval": y_eval}
    for k in ("0.weight", "0.bias", "1.weight", "1.bias", "1.running_mean", "1.running_var", "3.weight", "3.bias"):
        name = k.replace(".", "_")
        tensors["init_" + name] = init[k]
        tensors["after_" + name] = after[k]
    save("sequential", **tensors)


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(0)
    for make in (linear, conv2d, batch_norm, layer_norm, embedding, sequential):
        make()
    for f in sorted(os.listdir(OUT)):
        print("%-20s %6d bytes" % (f, os.path.getsize(os.path.join(OUT, f))))


if __name__ == "__main__":
    main()
