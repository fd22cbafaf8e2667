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
