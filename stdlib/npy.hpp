// NumPy's .npy format (docs/language.md "Files"): one tensor, a header and its data.
//
//   \x93NUMPY <major> <minor> <header length: u16 (1.0) or u32 (2.0, 3.0)>
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }   + spaces + \n
//   <the elements, in C or Fortran order, in the descr's byte order>
//
// Reading is strict and never trusts the header: the dict must have exactly
// the keys descr, fortran_order and shape (a Python literal, as NumPy writes
// it), the dtype one of tg's (|b1 <i4 <i8 <f4 <f8, or big-endian >), and the
// data exactly as long as the shape says — checked against the bytes there
// are before the tensor is allocated, so a hostile header cannot ask for a
// huge allocation. Writing produces the bytes NumPy 1.24's np.save writes
// (version 1.0, C order, little-endian, the header padded to 64 bytes).
//
// Errors are FileError whose message says what is wrong without
// naming the file ("truncated: ..."): the caller knows the file's name.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "stdlib/errors.hpp"
#include "stdlib/tensor.hpp"

namespace tg::stdlib {

// A file that cannot be opened, read or written, or whose contents are not
// what its format requires.
struct FileError : OpError {
    using OpError::OpError;
};

// Headers longer than this are refused (NumPy 1.24's max_header_size; tg
// writes headers of at most 128 bytes).
inline constexpr size_t kNpyMaxHeaderBytes = 10000;

struct NpyHeader {
    DType dtype = DType::F32;
    bool swap_bytes = false;     // the data's byte order is not this machine's
    bool fortran_order = false;
    Shape shape;
    size_t data_offset = 0;      // bytes before the data: magic, length, dict, padding
    size_t data_bytes = 0;       // numel * itemsize (checked against overflow)
};

// Where the data starts, from the first bytes of a file (at least 12 of them,
// or the whole file if it is shorter): checks the magic and the version and
// reads the header length. Throws FileError.
size_t npy_data_offset(std::string_view start);

// Parses the header: `bytes` holds at least the first npy_data_offset(bytes)
// bytes of the file. Throws FileError.
NpyHeader npy_parse_header(std::string_view bytes);

// Reads `n` bytes (fewer only at the end of the input) into dst; returns the
// count. Throws FileError when reading fails.
using ByteReader = std::function<size_t(void* dst, size_t n)>;

// Reads a whole .npy of `total_bytes` bytes from `read`: the header, then —
// once its size matches the bytes left — the data straight into the tensor
// (byte-swapped and from Fortran order as needed; bool bytes become 0/1).
// Checks that nothing follows the data. The tensor's allocation counts
// against the current Budget (the memory limit).
Tensor npy_read(size_t total_bytes, const ByteReader& read);

// npy_read over bytes in memory (the fuzz target's entry).
Tensor npy_decode(std::string_view bytes);

// The header np.save writes for a C-ordered little-endian tensor of this
// dtype and shape (the data follows it directly).
std::string npy_header(DType dtype, const Shape& shape);

// The descr string of a dtype as NumPy writes it ('<f4', '|b1', ...).
const char* npy_descr(DType dtype);

}  // namespace tg::stdlib
