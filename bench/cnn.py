# LeNet-5 on Fashion-MNIST and single convolutions, the PyTorch side of
# bench/run_cnn_bench (and the data both sides read):
#   data DIR     write into DIR what bench/cnn.tg and this file read: the
#                batch order (one fixed shuffle of the 60,000 training
#                images), LeNet-5's initial weights (PyTorch's default init,
#                drawn with NumPy) and the inputs of the single-convolution
#                timings
#   train DIR [BATCHES]   decode the IDX gz files (NumPy here, tg's `load`
#                in bench/cnn.tg), one epoch of SGD (momentum 0.9, lr 0.01,
#                batch 64) in that order, then the accuracy on the 10,000
#                test images
#   ops DIR [REPS]        conv2d forward, and forward + backward (the
#                gradients of sum(conv2d(x, w) * dy) with respect to x and w)
# Same model, data, order and printed keys as bench/cnn.tg.
# usage: /usr/bin/python3 bench/cnn.py data|train|ops DIR [N]
# env: TORCH_THREADS (default 1)
import gzip
import os
import sys
import time

import numpy as np

DATA = "/usr/share/datasets/fashion-mnist"
BATCH = 64
LR = 0.01
MOMENTUM = 0.9
# LeNet-5's parameters in the order both programs unpack them: conv weights
# (out, in, kh, kw), linear weights (in, out), biases.
LAYERS = [("c1", (6, 1, 5, 5)), ("c2", (16, 6, 5, 5)), ("f1", (400, 120)), ("f2", (120, 84)), ("f3", (84, 10))]
# The single-convolution shapes: name, (n, c, h, w), out channels, kernel, padding.
OPS = [("conv1", (64, 1, 28, 28), 6, 5, 2), ("conv2", (64, 6, 14, 14), 16, 5, 0), ("conv32", (16, 32, 64, 64), 32, 3, 1)]


def idx(name):
    """An IDX file (gzip) as a NumPy array."""
    with gzip.open(os.path.join(DATA, name)) as f:
        raw = f.read()
    ndim = raw[3]
    dims = [int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim)]
    return np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)


def images(name):
    x = idx(name).astype(np.float32) / np.float32(255.0)
    return ((x - np.float32(0.2860)) / np.float32(0.3530)).reshape(-1, 1, 28, 28)


def write_data(out):
    rng = np.random.default_rng(5)
    np.save(os.path.join(out, "order.npy"), rng.permutation(60000).astype(np.int64))
    for name, shape in LAYERS:
        fan_in = int(np.prod(shape[1:])) if len(shape) == 4 else shape[0]
        bound = 1.0 / np.sqrt(fan_in)  # PyTorch's Conv2d / Linear default (kaiming_uniform with a = sqrt(5))
        out_ch = shape[0] if len(shape) == 4 else shape[1]
        np.save(os.path.join(out, name + "_w.npy"), rng.uniform(-bound, bound, shape).astype(np.float32))
        np.save(os.path.join(out, name + "_b.npy"), rng.uniform(-bound, bound, (out_ch,)).astype(np.float32))
    for name, (n, c, h, w), o, k, pad in OPS:
        ho, wo = h + 2 * pad - k + 1, w + 2 * pad - k + 1
        np.save(os.path.join(out, name + "_x.npy"), rng.standard_normal((n, c, h, w)).astype(np.float32))
        np.save(os.path.join(out, name + "_w.npy"), (rng.standard_normal((o, c, k, k)) * 0.1).astype(np.float32))
        np.save(os.path.join(out, name + "_dy.npy"), rng.standard_normal((n, o, ho, wo)).astype(np.float32))


if sys.argv[1] == "data":
    write_data(sys.argv[2])
    sys.exit(0)

import torch
import torch.nn.functional as F

torch.set_num_threads(int(os.environ.get("TORCH_THREADS", "1")))
d = sys.argv[2]


def load(name):
    return torch.from_numpy(np.load(os.path.join(d, name + ".npy")))


def forward(p, x):
    c1w, c1b, c2w, c2b, f1w, f1b, f2w, f2b, f3w, f3b = p
    h = F.max_pool2d(F.relu(F.conv2d(x, c1w, c1b, padding=2)), 2)
    h = F.max_pool2d(F.relu(F.conv2d(h, c2w, c2b)), 2)
    h = h.reshape(h.shape[0], 400)
    h = F.relu(h @ f1w + f1b)
    h = F.relu(h @ f2w + f2b)
    return h @ f3w + f3b


def train():
    order = np.load(os.path.join(d, "order.npy"))
    xs = torch.from_numpy(images("train-images-idx3-ubyte.gz")[order])
    ys = torch.from_numpy(idx("train-labels-idx1-ubyte.gz")[order].astype(np.int64))
    batches = (len(xs) + BATCH - 1) // BATCH
    if len(sys.argv) > 3:
        batches = min(batches, int(sys.argv[3]))
    params = [load(name + suffix).requires_grad_() for name, _ in LAYERS for suffix in ("_w", "_b")]
    opt = torch.optim.SGD(params, lr=LR, momentum=MOMENTUM)
    losses = []
    t0 = time.perf_counter()
    for i in range(batches):
        loss = F.cross_entropy(forward(params, xs[i * BATCH:(i + 1) * BATCH]), ys[i * BATCH:(i + 1) * BATCH])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        losses.append(loss.detach())
        if i == 0:
            first = time.perf_counter() - t0
    epoch = time.perf_counter() - t0
    tx = torch.from_numpy(images("t10k-images-idx3-ubyte.gz"))
    ty = torch.from_numpy(idx("t10k-labels-idx1-ubyte.gz").astype(np.int64))
    correct = 0
    with torch.no_grad():
        for i in range(0, len(tx), 1000):
            correct += int((forward(params, tx[i:i + 1000]).argmax(dim=1) == ty[i:i + 1000]).sum())
    print("batches", batches)
    print("epoch_s", repr(epoch))
    print("first_step_s", repr(first))
    print("loss_first", float(losses[0]))
    print("loss_last", float(losses[-1]))
    print("test_accuracy", correct / len(tx))


def ops():
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    for name, _, _, _, pad in OPS:
        x, w, dy = load(name + "_x"), load(name + "_w"), load(name + "_dy")
        fwd, both = [], []
        for _ in range(reps):
            t = time.perf_counter()
            y = F.conv2d(x, w, padding=pad)
            fwd.append(time.perf_counter() - t)
            del y
        xg, wg = x.clone().requires_grad_(), w.clone().requires_grad_()
        for _ in range(reps):
            t = time.perf_counter()
            gx, gw = torch.autograd.grad((F.conv2d(xg, wg, padding=pad) * dy).sum(), (xg, wg))
            both.append(time.perf_counter() - t)
        print("fwd_" + name, " ".join(repr(v) for v in fwd))
        print("fwdbwd_" + name, " ".join(repr(v) for v in both))
        print("sums_" + name, float(F.conv2d(x, w, padding=pad).sum()), float(gx.sum()), float(gw.sum()))


if sys.argv[1] == "train":
    train()
else:
    ops()
