#!/usr/bin/env python3
"""Writes the files of tests/scripts/files: good ones NumPy writes, and one
damaged file per kind of damage the readers must report (docs/language.md "Files").
Run from anywhere: python3 tests/scripts/files/data/gen.py"""
import io
import os
import zipfile

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))


def write(name, data):
    with open(os.path.join(here, name), "wb") as f:
        f.write(data)


def npy_bytes(a):
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


def npy_with_dict(text, data=b""):
    """A .npy 1.0 file whose header dict is `text` (padded as NumPy pads it)."""
    header = text.encode("latin1")
    header += b" " * (64 - (10 + len(header) + 1) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header + data


# good files
matrix = np.arange(6, dtype=np.float32).reshape(2, 3) / 4
write("matrix.npy", npy_bytes(matrix))
write("fortran_i64.npy", npy_bytes(np.asfortranarray(np.arange(6, dtype=np.int64).reshape(2, 3))))
write("big_endian_f64.npy", npy_bytes(np.array([1.5, -2.25, 1e300], dtype=">f8")))
write("flags.npy", npy_bytes(np.array([True, False, True])))
write("scalar_i32.npy", npy_bytes(np.int32(-7)))
buf = io.BytesIO()
np.savez_compressed(buf, w=matrix, b=np.array([1, 2], dtype=np.int32))
write("params.npz", buf.getvalue())
write("table.csv", b"# x, y, z\n1, 2.5, -3\n\n4,5e-1,6  # a comment\n")
write("header_row.csv", b"a;b\n1;2\n3;4\n")
write("one_row.csv", b"1,2,3\n")

# damaged files, one per kind of damage
good = npy_bytes(np.arange(4, dtype=np.float32))
write("truncated_data.npy", good[:-3])
write("truncated_header.npy", good[:30])
write("wrong_magic.npy", b"\x93NUMPX" + good[6:])
write("version_9.npy", good[:6] + b"\x09\x00" + good[8:])
write("bad_header.npy", npy_with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (4,) 'x'}", good[-16:]))
write("size_mismatch.npy", good + b"\x00" * 4)
write("unicode_dtype.npy", npy_bytes(np.array(["a", "bc"], dtype="<U10")))
write("object_dtype.npy", npy_with_dict("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", b"\x80\x04" * 8))
write("hostile_shape.npy", npy_with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000, 1000000), }",
                                          b"\x00" * 16))
write("not_a_zip.npz", b"this is a text file, not a zip archive\n")
zipped = io.BytesIO()
with zipfile.ZipFile(zipped, "w", zipfile.ZIP_STORED) as z:
    z.writestr("a.npy", good)
data = bytearray(zipped.getvalue())
data[data.index(good) + len(good) - 1] ^= 0xFF  # one byte of the member's data: its CRC no longer matches
write("bad_crc.npz", bytes(data))
write("truncated.npz", zipped.getvalue()[: len(zipped.getvalue()) // 2])
other = io.BytesIO()
with zipfile.ZipFile(other, "w") as z:
    z.writestr("notes.txt", "hello")
write("not_npy_member.npz", other.getvalue())
write("ragged.csv", b"1,2,3\n4,5,6\n7,8\n")
write("bad_value.csv", b"1,2\n3,four\n")

# IDX files (MNIST's format) and gzip-compressed files: good ones, then one
# per kind of damage. gzip.compress(mtime=0) makes the same bytes every run.
import gzip


def idx_bytes(a, type_code=None):
    """An IDX file of `a`: 0, 0, the type, the rank, big-endian u32 sizes, big-endian data."""
    codes = {"u1": 0x08, "i1": 0x09, "i2": 0x0B, "i4": 0x0C, "f4": 0x0D, "f8": 0x0E}
    code = type_code if type_code is not None else codes[a.dtype.str[1:]]
    head = bytes([0, 0, code, a.ndim]) + b"".join(int(d).to_bytes(4, "big") for d in a.shape)
    return head + a.astype(a.dtype.newbyteorder(">")).tobytes()


def gz(data):
    return gzip.compress(data, mtime=0)


images = (np.arange(24, dtype=np.uint8) * 11).reshape(2, 3, 4)  # up to 253
write("images-idx3-ubyte.gz", gz(idx_bytes(images)))
write("labels-idx1-ubyte", idx_bytes(np.array([7, 0, 255], dtype=np.uint8)))
write("signal.idx", idx_bytes(np.array([[-1.5, 0.25], [1e30, -0.0]], dtype=np.float32)))
write("deltas.idx.gz", gz(idx_bytes(np.array([-32768, -1, 0, 32767], dtype=np.int16))))
write("matrix.npy.gz", gz(npy_bytes(matrix)))
buf = io.BytesIO()
np.savez(buf, w=matrix, b=np.array([1, 2], dtype=np.int32))
write("params.npz.gz", gz(buf.getvalue()))
write("table.csv.gz", gz(b"# x, y, z\n1, 2.5, -3\n\n4,5e-1,6  # a comment\n"))

good_idx = idx_bytes(np.arange(6, dtype=np.uint8).reshape(2, 3))
write("wrong_magic-ubyte", b"\x01\x00" + good_idx[2:])
write("unknown_type.idx", good_idx[:2] + b"\x0a" + good_idx[3:])
write("rank_zero.idx", b"\x00\x00\x08\x00" + good_idx[4:])
write("huge_rank.idx", b"\x00\x00\x08\xc8" + good_idx[4:])
write("overflow-ubyte", b"\x00\x00\x0e\x03" + b"\xff\xff\xff\xff" * 3)
write("truncated_sizes.idx", good_idx[:10])
write("short-ubyte.gz", gz(idx_bytes(np.zeros((60000, 28, 28), dtype=np.uint8))[:1000]))
write("trailing-ubyte", good_idx + b"\x00")
npy_gz = gz(good)
write("truncated.npy.gz", npy_gz[: len(npy_gz) // 2])
corrupt = bytearray(npy_gz)
corrupt[-8] ^= 0xFF  # the trailer's CRC-32 no longer matches the data
write("corrupt.npy.gz", bytes(corrupt))
write("not_gzip.csv.gz", b"1,2,3\n")
write("trailing.npy.gz", npy_gz + b"junk")
