#include "stdlib/idx.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>

#include "stdlib/budget.hpp"
#include "stdlib/gzip.hpp"
#include "stdlib/npy.hpp"

namespace tg::stdlib {

namespace {

[[noreturn]] void bad(const std::string& what) { throw FileError(what); }
[[noreturn]] void truncated(const std::string& where) { bad("truncated: the file ends " + where); }

struct IdxType {
    uint8_t code;
    const char* name;  // the file's element type, as the messages name it
    size_t size;
    DType dtype;       // what tg reads it as
};
constexpr IdxType kTypes[] = {{0x08, "u8", 1, DType::I32},  {0x09, "i8", 1, DType::I32},  {0x0B, "i16", 2, DType::I32},
                              {0x0C, "i32", 4, DType::I32}, {0x0D, "f32", 4, DType::F32}, {0x0E, "f64", 8, DType::F64}};

const IdxType& type_of(uint8_t code) {
    for (const IdxType& t : kTypes)
        if (t.code == code) return t;
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", code);
    bad(std::string("unknown IDX type ") + hex +
        "; the types are 0x08 (u8), 0x09 (i8), 0x0B (i16), 0x0C (i32), 0x0D (f32) and 0x0E (f64)");
}

// The big-endian unsigned integer of N bytes at p.
template <size_t N>
uint64_t big_endian(const unsigned char* p) {
    uint64_t v = 0;
    for (size_t k = 0; k < N; ++k) v = v << 8 | p[k];
    return v;
}

// Each element of N bytes at `src`, converted by `as`, into `dst`.
template <size_t N, class T, class As>
void convert(const unsigned char* src, size_t n, T* dst, As as) {
    for (size_t i = 0; i < n; ++i) dst[i] = as(big_endian<N>(src + i * N));
}

void read_data(const IdxType& type, const unsigned char* src, Tensor& t) {
    const size_t n = static_cast<size_t>(t.numel());
    spend_work(static_cast<int64_t>(n));
    switch (type.code) {
        case 0x08: return convert<1>(src, n, t.data<int32_t>(), [](uint64_t v) { return static_cast<int32_t>(v); });
        case 0x09:
            return convert<1>(src, n, t.data<int32_t>(), [](uint64_t v) { return int32_t{static_cast<int8_t>(v)}; });
        case 0x0B:
            return convert<2>(src, n, t.data<int32_t>(), [](uint64_t v) { return int32_t{static_cast<int16_t>(v)}; });
        case 0x0C: return convert<4>(src, n, t.data<int32_t>(), [](uint64_t v) { return static_cast<int32_t>(v); });
        case 0x0D:
            return convert<4>(src, n, t.data<float>(),
                              [](uint64_t v) { return std::bit_cast<float>(static_cast<uint32_t>(v)); });
        default: return convert<8>(src, n, t.data<double>(), [](uint64_t v) { return std::bit_cast<double>(v); });
    }
}

}  // namespace

Tensor idx_decode(std::string_view bytes) {
    const size_t magic_seen = std::min<size_t>(bytes.size(), 2);
    if (bytes.substr(0, magic_seen) != std::string_view("\0\0", magic_seen)) {
        if (is_gzip(bytes)) bad("not an IDX file: it is gzip-compressed (a name ending in .gz is decompressed)");
        bad("not an IDX file: it does not start with two zero bytes");
    }
    if (bytes.size() < 4) truncated("inside the IDX magic number (0, 0, type, rank)");
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    const IdxType& type = type_of(p[2]);
    const size_t rank = p[3];
    if (rank == 0) bad("bad header: the rank is 0 (an IDX file has at least one dimension)");
    if (rank > static_cast<size_t>(kMaxRank))
        bad("the shape has " + std::to_string(rank) + " axes; tg tensors have at most " + std::to_string(kMaxRank));
    const size_t header = 4 + 4 * rank;
    if (bytes.size() < header)
        truncated("inside the header: " + std::to_string(rank) + " sizes need " + std::to_string(header) +
                  " bytes with the magic number, there are " + std::to_string(bytes.size()));
    Shape shape;
    for (size_t i = 0; i < rank; ++i) shape.push_back(static_cast<int64_t>(big_endian<4>(p + 4 + 4 * i)));
    int64_t numel = 0;
    try {
        numel = shape.numel();  // NumPy's rule: the nonzero dimensions' product must fit
    } catch (const OpError&) {
        bad("the shape " + shape.to_string() + " is too large");
    }
    size_t data_bytes = 0;
    if (__builtin_mul_overflow(static_cast<size_t>(numel), type.size, &data_bytes))
        bad("the shape " + shape.to_string() + " is too large");
    const size_t available = bytes.size() - header;
    if (available != data_bytes) {
        const std::string need = "the shape " + shape.to_string() + " of " + type.name + " needs " +
                                 std::to_string(data_bytes) + " bytes of data, ";
        if (available < data_bytes) truncated("early: " + need + "there are " + std::to_string(available));
        bad("the data does not match the header: " + need + "there are " + std::to_string(available));
    }
    Tensor t = Tensor::empty(type.dtype, shape);  // charged to the memory limit
    read_data(type, p + header, t);
    return t;
}

}  // namespace tg::stdlib
