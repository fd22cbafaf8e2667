#!/usr/bin/python3
# Writes PyTorch's values for the neural-network builtins' script tests
# (tests/scripts/nn_functional/*.tg): inputs, outputs, and the gradients of
# sum(y * u) for a fixed cotangent u, one .npz per builtin in data/. Run once
# by hand with Debian's python3-torch (1.13) and python3-numpy:
#     /usr/bin/python3 tests/scripts/nn_functional/make_refs.py
# The tests themselves read the .npz files and do not need PyTorch.
import os
import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)
rng = np.random.default_rng(0)


def t(*shape, lo=-1.0, hi=1.0):
    return torch.tensor(rng.uniform(lo, hi, size=shape).astype(np.float32), requires_grad=True)


def case(out, name, fn, *inputs):
    """y = fn(*inputs); the gradients of sum(y * u) for each input."""
    y = fn(*inputs)
    u = torch.tensor(rng.uniform(-1, 1, size=tuple(y.shape)).astype(np.float32))
    grads = torch.autograd.grad((y * u).sum(), inputs, allow_unused=True)
    out[name + "_y"] = y.detach().numpy()
    out[name + "_u"] = u.numpy()
    for i, (x, g) in enumerate(zip(inputs, grads)):
        out[f"{name}_x{i}"] = x.detach().numpy()
        out[f"{name}_g{i}"] = g.numpy() if g is not None else np.zeros(x.shape, np.float32)


def save(file, out):
    np.savez(os.path.join(HERE, "data", file), **out)


def conv():
    out = {}
    case(out, "plain", lambda x, w, b: F.conv2d(x, w, b), t(2, 3, 7, 6), t(4, 3, 3, 2), t(4))
    case(out, "strided", lambda x, w: F.conv2d(x, w, stride=2, padding=1), t(2, 3, 7, 6), t(4, 3, 3, 3))
    case(out, "same", lambda x, w: F.conv2d(x, w, padding="same", dilation=2), t(1, 2, 6, 7), t(3, 2, 2, 3))
    case(out, "groups", lambda x, w, b: F.conv2d(x, w, b, stride=(1, 2), groups=2), t(2, 4, 5, 6), t(6, 2, 3, 3), t(6))
    case(out, "conv1d", lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=1), t(2, 3, 10), t(4, 3, 3), t(4))
    case(out, "conv1d_same", lambda x, w: F.conv1d(x, w, padding="same"), t(2, 3, 9), t(2, 3, 4))
    case(out, "transpose", lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1),
         t(2, 4, 4, 3), t(4, 3, 3, 3), t(3))
    case(out, "transpose_groups", lambda x, w: F.conv_transpose2d(x, w, stride=(2, 1), groups=2, dilation=(1, 2)),
         t(1, 4, 3, 3), t(4, 2, 2, 3))
    save("conv.npz", out)


def pool():
    out = {}
    x = t(2, 3, 7, 7)
    case(out, "max", lambda x: F.max_pool2d(x, 2), x)
    case(out, "max_pad", lambda x: F.max_pool2d(x, 3, stride=2, padding=1), x)
    case(out, "max_ceil", lambda x: F.max_pool2d(x, 2, ceil_mode=True), x)
    case(out, "max_dilation", lambda x: F.max_pool2d(x, 2, stride=1, dilation=2), x)
    case(out, "avg", lambda x: F.avg_pool2d(x, 2), x)
    case(out, "avg_pad", lambda x: F.avg_pool2d(x, 3, stride=2, padding=1), x)
    case(out, "avg_pad_exclude", lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False), x)
    case(out, "avg_ceil", lambda x: F.avg_pool2d(x, 2, ceil_mode=True), x)
    case(out, "avg_divisor", lambda x: F.avg_pool2d(x, (2, 3), divisor_override=5), x)
    save("pool.npz", out)


def resize():
    out = {}
    x = t(1, 2, 4, 5)
    case(out, "nearest_size", lambda x: F.interpolate(x, size=(7, 3)), x)
    case(out, "nearest_scale", lambda x: F.interpolate(x, scale_factor=2), x)
    case(out, "bilinear", lambda x: F.interpolate(x, size=(7, 8), mode="bilinear", align_corners=False), x)
    case(out, "bilinear_corners", lambda x: F.interpolate(x, size=(7, 8), mode="bilinear", align_corners=True), x)
    case(out, "bilinear_scale", lambda x: F.interpolate(x, scale_factor=1.5, mode="bilinear"), x)
    case(out, "linear", lambda x: F.interpolate(x, scale_factor=2.5, mode="linear"), t(2, 3, 4))
    save("resize.npz", out)


def norm():
    out = {}
    x = t(4, 3, 5, 2, lo=-2, hi=2)
    rm, rv = torch.tensor([0.1, -0.2, 0.3]), torch.tensor([1.0, 0.5, 2.0])
    out["running_mean"], out["running_var"] = rm.numpy(), rv.numpy()
    case(out, "bn_eval", lambda x, w, b: F.batch_norm(x, rm, rv, w, b, training=False), x, t(3), t(3))
    rm2, rv2 = rm.clone(), rv.clone()
    case(out, "bn_train", lambda x, w, b: F.batch_norm(x, rm2, rv2, w, b, training=True, momentum=0.2), x, t(3), t(3))
    out["bn_train_mean"], out["bn_train_var"] = rm2.numpy(), rv2.numpy()
    case(out, "ln", lambda x, w, b: F.layer_norm(x, (5, 2), w, b), x, t(5, 2), t(5, 2))
    case(out, "ln_plain", lambda x: F.layer_norm(x, (6,)), t(3, 6, lo=-2, hi=2))
    case(out, "gn", lambda x, w, b: F.group_norm(x, 3, w, b), t(2, 6, 4, lo=-2, hi=2), t(6), t(6))
    save("norm.npz", out)


def act():
    out = {}
    x = t(3, 7, lo=-4, hi=4)
    for name, fn in [("leaky_relu", lambda x: F.leaky_relu(x, 0.1)), ("elu", F.elu), ("celu", lambda x: F.celu(x, 0.5)),
                     ("selu", F.selu), ("silu", F.silu), ("mish", F.mish),
                     ("hardtanh", lambda x: F.hardtanh(x, -0.5, 2.0)), ("relu6", F.relu6),
                     ("hardsigmoid", F.hardsigmoid), ("hardswish", F.hardswish), ("logsigmoid", F.logsigmoid),
                     ("softsign", F.softsign), ("tanhshrink", F.tanhshrink)]:
        case(out, name, fn, x)
    w = t(6, 3)
    idx = torch.tensor([[1, 5, 1], [0, 2, 1]])
    case(out, "embedding", lambda w: F.embedding(idx, w), w)
    out["embedding_idx"] = idx.numpy()
    save("act.npz", out)


conv()
pool()
resize()
norm()
act()
