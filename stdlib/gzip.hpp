// gzip-compressed files (RFC 1952; docs/language.md "Files"): `load` of
// `x.npy.gz`, `x.npz.gz`, an IDX file as MNIST ships it
// (`train-images-idx3-ubyte.gz`), and `loadtxt` of `t.csv.gz`, decompressed
// through zlib into memory, then read by the format's reader of bytes.
//
// Decompression is bounded and never trusts the stream: the output grows as
// it is produced (the trailer's size is only a hint for the first
// allocation, itself bounded by the compressed size), is counted against the
// current Budget (the memory limit) while held, and stops with an error at
// kMaxGunzipBytes, so a gzip bomb is an error, not an exhausted machine.
// zlib checks each member's CRC-32 and length; concatenated members (what
// `cat a.gz b.gz` makes, and gzip reads as one file) are read as one stream;
// anything else after the last member is an error.
//
// Errors are FileError whose message does not name the file ("truncated:
// the gzip stream ends early"): the caller knows the file's name. The memory
// limit is a LimitError.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "stdlib/budget.hpp"

namespace tg::stdlib {

// The most a .gz file may decompress to: 4 GiB (what gzip's 32-bit length
// field can state; Fashion-MNIST's largest file is 45 MiB).
inline constexpr size_t kMaxGunzipBytes = size_t{4} << 30;

// Whether `bytes` start as a gzip stream does (0x1f 0x8b).
bool is_gzip(std::string_view bytes);

// The decompressed bytes of a whole gzip stream, counted against the
// current Budget while held. Throws FileError (not gzip, truncated,
// corrupt, more than `max_bytes`) or LimitError (the memory limit).
class Gunzipped {
public:
    explicit Gunzipped(std::string_view compressed, size_t max_bytes = kMaxGunzipBytes);
    Gunzipped(const Gunzipped&) = delete;
    Gunzipped& operator=(const Gunzipped&) = delete;
    std::string_view bytes() const { return out_; }

private:
    void grow(size_t produced, size_t max_bytes);
    void resize(size_t size, size_t produced);  // charged first

    Charge charge_;  // declared before out_: the memory is charged before it is taken, given back after
    std::string out_;
};

}  // namespace tg::stdlib
