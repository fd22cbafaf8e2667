// The dataset formats of load / loadtxt (stdlib/idx, gzip): IDX files as
// MNIST ships them, and gzip streams. Every type and rank is read with its
// values, every kind of damage is an error saying what is wrong, and
// decompression is bounded. (The .npy / .npz / CSV readers:
// test_files_formats.cpp; IDX and .gz against NumPy and Python's gzip:
// tests/files/roundtrip_test.py.)
#include <doctest/doctest.h>

#include <zlib.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "stdlib/budget.hpp"
#include "stdlib/gzip.hpp"
#include "stdlib/idx.hpp"
#include "stdlib/npy.hpp"

using namespace tg::stdlib;

namespace {

// `data` gzip-compressed as gzip -9 would (zlib's gzip wrapper).
std::string gzip(std::string_view data) {
    z_stream s{};
    REQUIRE(deflateInit2(&s, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY) == Z_OK);
    std::string out(deflateBound(&s, data.size()), '\0');
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    s.avail_in = static_cast<uInt>(data.size());
    s.next_out = reinterpret_cast<Bytef*>(out.data());
    s.avail_out = static_cast<uInt>(out.size());
    REQUIRE(deflate(&s, Z_FINISH) == Z_STREAM_END);
    out.resize(s.total_out);
    deflateEnd(&s);
    return out;
}

std::string gunzip(std::string_view bytes, size_t max_bytes = kMaxGunzipBytes) {
    return std::string(Gunzipped(bytes, max_bytes).bytes());
}

template <class E = FileError, class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return "";
}

std::string gzip_error(std::string_view bytes, size_t max_bytes = kMaxGunzipBytes) {
    return error_of([&] { gunzip(bytes, max_bytes); });
}

// An IDX file: the magic number, the sizes (big-endian u32), then `data`.
std::string idx(uint8_t type, std::vector<uint32_t> dims, const std::string& data) {
    std::string out{'\0', '\0', static_cast<char>(type), static_cast<char>(dims.size())};
    for (uint32_t d : dims)
        for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((d >> shift) & 0xff);
    return out + data;
}

// The big-endian bytes of each value.
template <class T>
std::string big(std::initializer_list<T> values) {
    std::string s;
    for (T v : values) {
        const auto bits = std::bit_cast<std::conditional_t<sizeof(T) == 8, uint64_t,
                                                           std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>>>(v);
        for (int shift = 8 * (sizeof(T) - 1); shift >= 0; shift -= 8) s += static_cast<char>((bits >> shift) & 0xff);
    }
    return s;
}

std::string idx_error(const std::string& bytes) {
    return error_of([&] { idx_decode(bytes); });
}

}  // namespace

TEST_CASE("gzip: a stream decompresses, concatenated members read as one") {
    CHECK(gunzip(gzip("hello, world\n")) == "hello, world\n");
    CHECK(gunzip(gzip("")).empty());
    CHECK(gunzip(gzip("ab") + gzip("") + gzip("cd")) == "abcd");  // what `cat a.gz b.gz` makes
    // larger than the first allocation and than one inflate step, in several members
    std::string text;
    for (int64_t i = 0; i < 300000; ++i) text += std::to_string(i * 7919 % 100003) + ",";
    CHECK(gunzip(gzip(text)) == text);
    CHECK(gunzip(gzip(text.substr(0, 100000)) + gzip(text.substr(100000))) == text);
    // a stream of exactly the limit is read; one byte more is not
    const std::string zeros(1 << 20, '\0');
    CHECK(gunzip(gzip(zeros), zeros.size()).size() == zeros.size());
    CHECK(gzip_error(gzip(zeros + "x"), zeros.size()) ==
          "it decompresses to more than 1.0 MiB, tg's limit for a .gz file (a gzip bomb?)");
}

TEST_CASE("gzip: every kind of damage is an error that says what is wrong") {
    const std::string good = gzip("1,2,3\n4,5,6\n");
    CHECK(gzip_error("") == "not a gzip file: it is empty");
    CHECK(gzip_error("\x1f") == "truncated: the gzip stream ends early");
    CHECK(gzip_error("1,2,3\n") == "not a gzip file: it does not start with \\x1f\\x8b");
    for (size_t cut : {size_t{2}, size_t{5}, size_t{10}, good.size() / 2, good.size() - 4, good.size() - 1}) {
        CAPTURE(cut);
        CHECK(gzip_error(good.substr(0, cut)) == "truncated: the gzip stream ends early");
    }
    std::string method = good;
    method[2] = 7;  // deflate is method 8
    CHECK(gzip_error(method) == "corrupt gzip data: unknown compression method");
    std::string block = good;
    block[10] = '\xff';  // the first block's type: 3 is reserved
    CHECK(gzip_error(block) == "corrupt gzip data: invalid block type");
    std::string crc = good;
    crc[good.size() - 8] ^= 1;  // the trailer's CRC-32
    CHECK(gzip_error(crc) == "corrupt gzip data: incorrect data check");
    std::string length = good;
    length[good.size() - 4] ^= 1;  // the trailer's length
    CHECK(gzip_error(length) == "corrupt gzip data: incorrect length check");
    CHECK(gzip_error(good + "xyz") == "there are 3 bytes after the gzip stream");
    CHECK(gzip_error(good + std::string(4, '\0')) == "there are 4 bytes after the gzip stream");
    // a trailer claiming 4 GiB over a few bytes: only a hint, the stream's own length decides
    std::string lying = good;
    for (size_t i = good.size() - 4; i < good.size(); ++i) lying[i] = '\xff';
    CHECK(gzip_error(lying) == "corrupt gzip data: incorrect length check");
}

TEST_CASE("gzip: a bomb is an error at the limit or at the memory limit, before it is all in memory") {
    const std::string bomb = gzip(std::string(size_t{64} << 20, '\0'));  // 64 MiB of zeros in ~64 KiB
    CHECK(bomb.size() < (size_t{128} << 10));
    CHECK(gzip_error(bomb, size_t{8} << 20) ==
          "it decompresses to more than 8.0 MiB, tg's limit for a .gz file (a gzip bomb?)");
    Budget* b = Budget::create();
    b->max_bytes = int64_t{4} << 20;
    {
        Budget::Scope scope(b);
        const std::string e = error_of<LimitError>([&] { gunzip(bomb); });
        CAPTURE(e);
        CHECK(e.rfind("memory limit exceeded: decompressing it (", 0) == 0);
        CHECK(e.find("would pass max_memory_bytes = 4.0 MiB") != std::string::npos);
        CHECK(b->used() == 0);  // all given back
        // what is held while the bytes are used counts
        {
            const Gunzipped small(gzip(std::string(100000, 'a')));
            CHECK(b->used() == 100000);
        }
        CHECK(b->used() == 0);
    }
    b->release();
}

TEST_CASE("idx: every type, ranks 1 to 4, big-endian values") {
    Tensor u8 = idx_decode(idx(0x08, {3}, std::string("\x00\xff\x07", 3)));
    CHECK(u8.dtype() == DType::I32);
    CHECK(u8.shape() == Shape{3});
    CHECK(u8.data<int32_t>()[1] == 255);
    Tensor i8 = idx_decode(idx(0x09, {1, 3}, std::string("\x80\x7f\xff", 3)));
    CHECK(i8.shape() == Shape{1, 3});
    CHECK(i8.data<int32_t>()[0] == -128);
    CHECK(i8.data<int32_t>()[1] == 127);
    CHECK(i8.data<int32_t>()[2] == -1);
    Tensor i16 = idx_decode(idx(0x0B, {2, 1, 2}, big<int16_t>({-32768, 32767, -2, 258})));
    CHECK(i16.shape() == Shape{2, 1, 2});
    CHECK(i16.data<int32_t>()[0] == -32768);
    CHECK(i16.data<int32_t>()[3] == 258);
    Tensor i32 = idx_decode(idx(0x0C, {1, 1, 1, 2}, big<int32_t>({INT32_MIN, 16909060})));
    CHECK(i32.shape() == Shape{1, 1, 1, 2});
    CHECK(i32.data<int32_t>()[0] == INT32_MIN);
    CHECK(i32.data<int32_t>()[1] == 0x01020304);
    Tensor f32 = idx_decode(idx(0x0D, {3}, big<float>({1.5f, -0.0f, INFINITY})));
    CHECK(f32.dtype() == DType::F32);
    CHECK(f32.data<float>()[0] == 1.5f);
    CHECK(std::signbit(f32.data<float>()[1]));
    CHECK(std::isinf(f32.data<float>()[2]));
    Tensor f64 = idx_decode(idx(0x0E, {2, 1}, big<double>({1e300, -2.25})));
    CHECK(f64.dtype() == DType::F64);
    CHECK(f64.data<double>()[0] == 1e300);
    CHECK(f64.data<double>()[1] == -2.25);
    CHECK(idx_decode(idx(0x08, {0, 28, 28}, "")).shape() == Shape{0, 28, 28});
    // MNIST's labels file, gzipped as it ships
    CHECK(idx_decode(Gunzipped(gzip(idx(0x08, {2}, "\x05\x09"))).bytes()).data<int32_t>()[1] == 9);
}

TEST_CASE("idx: every malformed header is one error that says what is wrong") {
    const std::string good = idx(0x08, {2, 3}, "abcdef");
    CHECK(idx_decode(good).shape() == Shape{2, 3});
    CHECK(idx_error("") == "truncated: the file ends inside the IDX magic number (0, 0, type, rank)");
    CHECK(idx_error(good.substr(0, 3)) == "truncated: the file ends inside the IDX magic number (0, 0, type, rank)");
    CHECK(idx_error("\x01\x00\x08\x01") == "not an IDX file: it does not start with two zero bytes");
    CHECK(idx_error("P5 28 28\n") == "not an IDX file: it does not start with two zero bytes");
    CHECK(idx_error(gzip(good)) == "not an IDX file: it is gzip-compressed (a name ending in .gz is decompressed)");
    CHECK(idx_error(idx(0x0A, {1}, "x")) ==
          "unknown IDX type 0x0A; the types are 0x08 (u8), 0x09 (i8), 0x0B (i16), 0x0C (i32), 0x0D (f32) and 0x0E (f64)");
    CHECK(idx_error(idx(0xFF, {1}, "x")).rfind("unknown IDX type 0xFF;", 0) == 0);
    CHECK(idx_error(idx(0x08, {}, "x")) == "bad header: the rank is 0 (an IDX file has at least one dimension)");
    CHECK(idx_error(idx(0x08, std::vector<uint32_t>(9, 1), "x")) == "the shape has 9 axes; tg tensors have at most 8");
    CHECK(idx_error(std::string("\0\0\x08\xff", 4)) == "the shape has 255 axes; tg tensors have at most 8");
    CHECK(idx_error(good.substr(0, 10)) ==
          "truncated: the file ends inside the header: 2 sizes need 12 bytes with the magic number, there are 10");
    // sizes whose product overflows, with data and without
    CHECK(idx_error(idx(0x0E, {4294967295u, 4294967295u, 4294967295u}, "")) ==
          "the shape (4294967295, 4294967295, 4294967295) is too large");
    CHECK(idx_error(idx(0x0E, {0, 4294967295u, 4294967295u, 4294967295u}, "")) ==
          "the shape (0, 4294967295, 4294967295, 4294967295) is too large");
    CHECK(idx_error(idx(0x0E, {1u << 31, 1u << 30}, "")) == "the shape (2147483648, 1073741824) is too large");
    // a shape the data does not fill, or more data than it says
    CHECK(idx_error(idx(0x08, {60000, 28, 28}, "abc")) ==
          "truncated: the file ends early: the shape (60000, 28, 28) of u8 needs 47040000 bytes of data, there are 3");
    CHECK(idx_error(idx(0x0B, {2}, "abc")) ==
          "truncated: the file ends early: the shape (2,) of i16 needs 4 bytes of data, there are 3");
    CHECK(idx_error(good + "g") ==
          "the data does not match the header: the shape (2, 3) of u8 needs 6 bytes of data, there are 7");
    // the memory limit applies to what a valid file needs (a u8 is an i32 in tg: 4 bytes)
    Budget* b = Budget::create();
    b->max_bytes = 16;
    {
        Budget::Scope scope(b);
        CHECK_THROWS_AS(idx_decode(idx(0x08, {5}, "abcde")), LimitError);
        CHECK(idx_decode(idx(0x08, {4}, "abcd")).numel() == 4);
    }
    b->release();
}
