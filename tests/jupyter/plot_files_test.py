#!/usr/bin/env python3
"""Figures of the plot module saved from a script (docs/notebooks.md "Plots").

    plot_files_test.py TG

Runs a tg script that saves a line plot (two labelled series, log scale),
a scatter, a histogram and an image grid as .svg and .png, then checks each
file: the SVG parses as XML with an <svg> root and the elements of what was
drawn (a polyline per line, the title and legend text); the PNG has PNG's
signature and the 720 x 480 size of its IHDR. Bad arguments are errors
located in the caller's line (its traceback), and a figure that cannot be
drawn is an error at the save call, with no file left behind.
"""
import os
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SCRIPT = """import plot
losses = exp(-arange(50.0) / 10.0) + 0.01
fig = plot.line(losses, label="train", title="loss curve", xlabel="step", ylabel="loss", ylog=True)
fig = plot.line(losses * 1.5, label="validation", on=fig)
save("loss.svg", fig)
save("loss.png", fig)
save("scatter.svg", plot.scatter([1.0, 2.0, 3.0], [3.0, 1.0, 2.0], label="points"))
save("hist.svg", plot.hist(random_normal((500,)), bins=12, title="histogram"))
save("images.png", plot.imshow(reshape(arange(4 * 64.0), (4, 8, 8)), title="grid"))
print("saved")
"""

ERRORS = [
    ('import plot\nfig = plot.line([[1.0, 2.0]])\n', "plot.line: y must be 1-D, got shape (1, 2)", ":2:"),
    ('import plot\nfig = plot.scatter([1.0], [1.0, 2.0])\n', "plot.scatter: x and y differ in length", ":2:"),
    ('import plot\nfig = plot.imshow(zeros((2, 2, 2, 2)))\n', "plot.imshow: image must be 2-D", ":2:"),
    ('import plot\nfig = plot.hist([1.0], bins=0)\n', "plot.hist: bins must be a positive int", ":2:"),
    ('import plot\nfig = plot.line([1.0], title=3)\n', "plot: title must be a str", ":2:"),
    ('import plot\nsave("bad.svg", plot.line([1.0, -1.0], ylog=True))\n',
     "save: cannot draw the figure: a log-scale y axis cannot show -1", ":2:1:"),
    ('save("bad.svg", tensor([1.0]))\n', "save: a .svg or .png file holds a figure of the plot module, not a tensor", ":1:1:"),
]


def run(tg, folder, text):
    with open(os.path.join(folder, "s.tg"), "w") as f:
        f.write(text)
    return subprocess.run([tg, "s.tg"], cwd=folder, capture_output=True, text=True, timeout=120)


def check_svg(path, texts, element, at_least):
    root = ET.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
    found = [e for e in root.iter() if e.tag.endswith("}" + element)]
    assert len(found) >= at_least, f"{path}: {len(found)} <{element}>, expected >= {at_least}"
    words = " ".join("".join(e.itertext()) for e in root.iter() if e.tag.endswith("}text"))
    for t in texts:
        assert t in words, f"{path}: no text {t!r} in {words[:300]!r}"


# Every training example takes `--plot FILE` as its last two arguments.
PLOTTING_EXAMPLES = [
    ("nn_moons", "nn_moons: loss per epoch", "epoch"),
    ("training_loop", "training_loop: loss per step", "step"),
    ("linear_regression", "linear_regression: loss per step", "step"),
    ("two_moons", "two_moons: loss per step", "step"),
    ("mlp_digits", "mlp_digits: loss per batch", "batch"),
    ("lenet_fashion_mnist", "LeNet-5 on Fashion-MNIST: loss per batch", "batch"),
]


def check_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (720, 480), (width, height)


def main():
    tg = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as d:
        r = run(tg, d, SCRIPT)
        assert r.returncode == 0 and r.stdout == "saved\n", r.stdout + r.stderr
        check_svg(os.path.join(d, "loss.svg"), ["loss curve", "step", "train", "validation"], "polyline", 2)
        check_svg(os.path.join(d, "scatter.svg"), ["points"], "polyline", 1)
        check_svg(os.path.join(d, "hist.svg"), ["histogram"], "polyline", 12)
        check_png(os.path.join(d, "loss.png"))
        check_png(os.path.join(d, "images.png"))
        for text, message, where in ERRORS:
            r = run(tg, d, text)
            assert r.returncode == 1, (text, r.stdout, r.stderr)
            assert message in r.stderr, (text, r.stderr)
            assert "s.tg" + where in r.stderr, (text, r.stderr)  # located in the caller's line
            assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
        assert not os.path.exists(os.path.join(d, "bad.svg")), "a failed save left a file"
        # the training examples plot their loss curves when asked, their output unchanged
        examples = os.path.join(os.path.dirname(__file__), "..", "..", "examples")
        for name, title, xlabel in PLOTTING_EXAMPLES:
            example = os.path.join(examples, name + ".tg")
            r = subprocess.run([tg, name + ".tg", "--plot", os.path.join(d, name + ".svg")], cwd=examples,
                               capture_output=True, text=True, timeout=300)  # (their data paths are relative)
            assert r.returncode == 0, r.stderr
            assert r.stdout == open(example[:-3] + ".out").read(), (name, r.stdout)
            check_svg(os.path.join(d, name + ".svg"), [title, xlabel], "polyline", 1)
    print("plot files: 5 figures,", len(PLOTTING_EXAMPLES), "examples and", len(ERRORS), "errors checked")


if __name__ == "__main__":
    main()
