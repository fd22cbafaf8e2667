#!/usr/bin/python3
# Writes PyTorch's parameters for the optim script tests
# (tests/scripts/optim/*.tg): torch.optim's optimizers, its learning-rate
# schedulers and clip_grad_norm_ run STEPS steps on a small quadratic loss,
#     loss = sum(cw * (w - tw) ** 2) + sum(cb * (b - tb) ** 2),
# in f32 and in f64; data/refs.npz holds the problem (w0, b0, tw, tb, cw, cb)
# and, per case, the parameters after every step (<case>_<dtype>_w, _b: one
# row per step) and the learning rate each step used (<case>_lr). Run once by
# hand with Debian's python3-torch (1.13) and python3-numpy:
#     /usr/bin/python3 tests/scripts/optim/make_refs.py
# The tests themselves read the .npz file and do not need PyTorch.
import math
import os
import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = 10
PROBLEM = {
    "w0": np.array([0.5, -1.5, 2.0]),
    "b0": np.array([[1.0, -0.5], [0.25, 3.0]]),
    "tw": np.array([1.0, 0.0, -1.0]),
    "tb": np.array([[0.0, 1.0], [-1.0, 0.5]]),
    "cw": np.array([1.0, 0.5, 2.0]),
    "cb": np.array([[0.3, 1.5], [1.0, 0.1]]),
}


def warmup_cosine(peak, warmup_steps, decay_steps, end):
    """optax.warmup_cosine_decay_schedule(0.0, peak, warmup_steps, decay_steps, end),
    written as optax's join_schedules of linear_schedule and cosine_decay_schedule."""
    def linear(count):
        frac = 1.0 - min(max(count, 0), warmup_steps) / warmup_steps
        return (0.0 - peak) * frac + peak

    def cosine(count):
        steps = decay_steps - warmup_steps
        alpha = end / peak
        count = min(count, steps)
        decayed = (1 - alpha) * 0.5 * (1 + math.cos(math.pi * count / steps)) + alpha
        return peak * decayed

    return lambda count: linear(count) if count < warmup_steps else cosine(count - warmup_steps)


# name: (optimizer from the parameters, scheduler from the optimizer or None, clip_grad_norm_'s max_norm or None)
CASES = {
    "sgd": (lambda p: torch.optim.SGD(p, lr=0.1), None, None),
    "sgd_momentum": (lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9), None, None),
    "sgd_nesterov": (lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.1), None, None),
    "sgd_dampening": (lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.8, dampening=0.3, weight_decay=0.01), None, None),
    "adam": (lambda p: torch.optim.Adam(p, lr=0.05), None, None),
    "adam_l2": (lambda p: torch.optim.Adam(p, lr=0.05, betas=(0.8, 0.99), weight_decay=0.1), None, None),
    "adamw_default": (lambda p: torch.optim.AdamW(p), None, None),
    "adamw": (lambda p: torch.optim.AdamW(p, lr=0.05, weight_decay=0.1), None, None),
    "rmsprop_default": (lambda p: torch.optim.RMSprop(p), None, None),
    "rmsprop_centered": (lambda p: torch.optim.RMSprop(p, lr=0.01, centered=True), None, None),
    "rmsprop_momentum": (lambda p: torch.optim.RMSprop(p, lr=0.01, alpha=0.9, momentum=0.9, centered=True,
                                                       weight_decay=0.1), None, None),
    "adagrad_default": (lambda p: torch.optim.Adagrad(p), None, None),
    "adagrad": (lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.05, weight_decay=0.1,
                                              initial_accumulator_value=0.1, eps=1e-6), None, None),
    # schedules (tg: optim.step, exponential, cosine_decay, warmup_cosine)
    "sgd_step": (lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
                 lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=3, gamma=0.5), None),
    "adam_exponential": (lambda p: torch.optim.Adam(p, lr=0.05),
                         lambda o: torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.8), None),
    "adamw_cosine": (lambda p: torch.optim.AdamW(p, lr=0.05),
                     lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=10, eta_min=0.005), None),
    "rmsprop_warmup_cosine": (lambda p: torch.optim.RMSprop(p, lr=0.01),
                              lambda o: torch.optim.lr_scheduler.LambdaLR(
                                  o, lambda n: warmup_cosine(0.01, 3, 8, 0.001)(n) / 0.01), None),
    "adagrad_step": (lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.05),
                     lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=4, gamma=0.3), None),
    # clip_grad_norm_ before the step (tg: optim.chain([optim.clip_by_global_norm(...), ...]))
    "clip_sgd": (lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9), None, 1.0),
    "clip_adamw_cosine": (lambda p: torch.optim.AdamW(p, lr=0.05),
                          lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=10), 5.0),
}


def run(make_opt, make_sched, max_norm, dtype):
    w = torch.tensor(PROBLEM["w0"], dtype=dtype, requires_grad=True)
    b = torch.tensor(PROBLEM["b0"], dtype=dtype, requires_grad=True)
    tw, tb, cw, cb = (torch.tensor(PROBLEM[k], dtype=dtype) for k in ("tw", "tb", "cw", "cb"))
    opt = make_opt([w, b])
    sched = make_sched(opt) if make_sched else None
    ws, bs, lrs = [], [], []
    for _ in range(STEPS):
        opt.zero_grad()
        loss = (cw * (w - tw) ** 2).sum() + (cb * (b - tb) ** 2).sum()
        loss.backward()
        if max_norm is not None:
            torch.nn.utils.clip_grad_norm_([w, b], max_norm)
        lrs.append(opt.param_groups[0]["lr"])
        opt.step()
        if sched:
            sched.step()
        ws.append(w.detach().numpy().copy())
        bs.append(b.detach().numpy().copy())
    return np.stack(ws), np.stack(bs), np.array(lrs)


def main():
    out = dict(PROBLEM)
    for name, (make_opt, make_sched, max_norm) in CASES.items():
        for dtype, tag in ((torch.float32, "f32"), (torch.float64, "f64")):
            ws, bs, lrs = run(make_opt, make_sched, max_norm, dtype)
            out[f"{name}_{tag}_w"] = ws
            out[f"{name}_{tag}_b"] = bs
        out[f"{name}_lr"] = lrs
    np.savez(os.path.join(HERE, "data", "refs.npz"), **out)


main()
