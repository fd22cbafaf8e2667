// The IDX format of MNIST and Fashion-MNIST (http://yann.lecun.com/exdb/mnist/,
// "FILE FORMATS FOR THE MNIST DATABASE"; docs/language.md "Files"): one tensor.
//
//   0x00 0x00 <type: u8> <rank: u8>     the magic number
//   <rank sizes: big-endian u32>        the shape
//   <the elements, C order, big-endian>
//
//   type: 0x08 u8, 0x09 i8, 0x0B i16, 0x0C i32, 0x0D f32, 0x0E f64
//
// tg has no 8- or 16-bit dtypes: the integer types are read as i32 (every
// value exact, as NumPy's astype(np.int32)), f32 as f32, f64 as f64. Reading
// is strict, as the .npy reader's (stdlib/npy.hpp): the magic, the type, a
// rank of 1 to 8 (tg's kMaxRank), a shape whose size fits, and data exactly
// as long as the shape says (checked before the tensor is allocated; nothing
// may follow it).
//
// Errors are FileError whose message says what is wrong without naming the
// file ("not an IDX file: ..."): the caller knows the file's name.
#pragma once

#include <string_view>

#include "stdlib/tensor.hpp"

namespace tg::stdlib {

// Reads a whole IDX file from its bytes. The tensor's allocation counts
// against the current Budget (the memory limit). Throws FileError.
Tensor idx_decode(std::string_view bytes);

}  // namespace tg::stdlib
