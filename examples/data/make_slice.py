#!/usr/bin/python3
# Writes the small slice of Fashion-MNIST the LeNet example runs on in the
# tests (examples/lenet_fashion_mnist.tg): the first 256 training and 128
# test images and labels, in the dataset's own format (gzipped IDX), from
# Debian's dataset-fashion-mnist (scripts/get-datasets installs it). Run once
# by hand; the full dataset is not needed by any test.
import gzip
import os
import struct

SRC = "/usr/share/datasets/fashion-mnist"
HERE = os.path.dirname(os.path.abspath(__file__))


def slice_idx(name, count):
    with gzip.open(os.path.join(SRC, name + ".gz"), "rb") as f:
        data = f.read()
    rank = data[3]
    dims = list(struct.unpack(">" + "I" * rank, data[4:4 + 4 * rank]))
    item = 1
    for d in dims[1:]:
        item *= d
    body = data[4 + 4 * rank:4 + 4 * rank + count * item]
    dims[0] = count
    header = data[:4] + struct.pack(">" + "I" * rank, *dims)
    with gzip.GzipFile(os.path.join(HERE, "fashion-mnist-slice", name + ".gz"), "wb", mtime=0) as out:
        out.write(header + body)


os.makedirs(os.path.join(HERE, "fashion-mnist-slice"), exist_ok=True)
slice_idx("train-images-idx3-ubyte", 256)
slice_idx("train-labels-idx1-ubyte", 256)
slice_idx("t10k-images-idx3-ubyte", 128)
slice_idx("t10k-labels-idx1-ubyte", 128)
