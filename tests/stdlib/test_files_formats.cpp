// The file formats of load / save / loadtxt (stdlib/npy, npz, csv): headers
// NumPy writes are read, every kind of damage is an error saying what is
// wrong, and nothing a header claims is trusted before it is checked.
// (Round trips against NumPy itself: tests/files/roundtrip_test.py.)
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "stdlib/budget.hpp"
#include "stdlib/csv.hpp"
#include "stdlib/npy.hpp"
#include "stdlib/npz.hpp"

using namespace tg::stdlib;

namespace {

// A .npy 1.0 file: magic, the dict padded as NumPy pads it, then `data`.
std::string npy(const std::string& dict, const std::string& data, int major = 1) {
    std::string header = dict;
    const size_t prefix = major == 1 ? 10 : 12;
    header.append(64 - (prefix + header.size() + 1) % 64, ' ');
    header += '\n';
    std::string out("\x93NUMPY", 6);
    out += static_cast<char>(major);
    out += '\0';
    for (size_t i = 0; i < prefix - 8; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
    return out + header + data;
}

template <class T>
std::string raw(std::initializer_list<T> values) {
    std::string s;
    for (T v : values) s.append(reinterpret_cast<const char*>(&v), sizeof v);
    return s;
}

std::string error_of(const std::string& bytes) {
    try {
        npy_decode(bytes);
    } catch (const FileError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("npy: a header as np.save writes it") {
    const std::string bytes =
        npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", raw<float>({1, 2, 3, 4, 5, 6}));
    Tensor t = npy_decode(bytes);
    CHECK(t.dtype() == DType::F32);
    CHECK(t.shape() == Shape{2, 3});
    CHECK(t.data<float>()[5] == 6.0f);
    // npy_header writes what np.save would (checked byte for byte against NumPy in tests/files)
    const std::string h = npy_header(DType::F32, Shape{2, 3});
    CHECK(h.size() % 64 == 0);
    const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    CHECK(h.substr(10, dict.size()) == dict);
    CHECK(npy_decode(h + raw<float>({1, 2, 3, 4, 5, 6})).data<float>()[4] == 5.0f);
}

TEST_CASE("npy: dtypes, byte orders, Fortran order, 0-d, empty, versions") {
    // big-endian i32 1, 2
    Tensor be = npy_decode(npy("{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }",
                               std::string("\0\0\0\x01\0\0\0\x02", 8)));
    CHECK(be.dtype() == DType::I32);
    CHECK(be.data<int32_t>()[1] == 2);
    // Fortran order: the file holds columns first
    Tensor f = npy_decode(npy("{'descr': '<i8', 'fortran_order': True, 'shape': (2, 3), }",
                              raw<int64_t>({0, 3, 1, 4, 2, 5})));
    for (int64_t i = 0; i < 6; ++i) CHECK(f.data<int64_t>()[i] == i);
    Tensor scalar = npy_decode(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", raw<double>({2.5})));
    CHECK(scalar.rank() == 0);
    CHECK(scalar.item_f64() == 2.5);
    Tensor empty = npy_decode(npy("{'descr': '|b1', 'fortran_order': False, 'shape': (0, 4), }", ""));
    CHECK(empty.shape() == Shape{0, 4});
    // a bool byte other than 0/1 reads as True, stored as 1
    Tensor b = npy_decode(npy("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", std::string("\x07\x00", 2)));
    CHECK(reinterpret_cast<const uint8_t*>(b.raw_data())[0] == 1);
    // version 2.0 (a 4-byte header length) and double quotes, keys in any order
    Tensor v2 = npy_decode(npy("{\"shape\": (1,), \"fortran_order\": False, \"descr\": \"<f4\"}", raw<float>({7}), 2));
    CHECK(v2.data<float>()[0] == 7.0f);
}

TEST_CASE("npy: every kind of damage is an error that says what is wrong") {
    const std::string good = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", raw<float>({1, 2}));
    auto has = [](const std::string& bytes, const std::string& part) {
        const std::string e = error_of(bytes);
        CAPTURE(e);
        CHECK(e.find(part) != std::string::npos);
    };
    has("", "truncated");
    has(good.substr(0, 4), "truncated");
    has(good.substr(0, 9), "truncated");
    has(good.substr(0, 40), "truncated: the file ends inside the header");
    has(good.substr(0, good.size() - 1), "truncated: the file ends early: the shape (2,) of f32 needs 8 bytes of data, there are 7");
    has(good + "x", "the data does not match the header: the shape (2,) of f32 needs 8 bytes of data, there are 9");
    has("PK\x03\x04 not numpy", "not a .npy file");
    has("\x93NUMPZ\x01\x00", "not a .npy file");
    std::string v4 = good;
    v4[6] = 4;
    has(v4, "unsupported .npy version 4.0");
    std::string huge = good;
    huge[8] = '\xff';
    huge[9] = '\xff';
    has(huge, "the header is 65535 bytes long; tg reads headers of at most 10000");
    auto header = [&](const std::string& dict, const std::string& part) {
        CAPTURE(dict);
        has(npy(dict, raw<float>({1, 2})), part);
    };
    header("{'descr': '<U10', 'fortran_order': False, 'shape': (2,), }", "unsupported dtype '<U10'");
    header("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", "unsupported dtype '|O'");
    header("{'descr': '<u4', 'fortran_order': False, 'shape': (2,), }", "unsupported dtype '<u4'");
    header("{'descr': '|f4', 'fortran_order': False, 'shape': (2,), }", "unsupported dtype '|f4'");
    header("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", "structured dtype");
    header("{'descr': '<f4', 'fortran_order': False}", "the key 'shape' is missing");
    header("{'descr': '<f4', 'shape': (2,), }", "the key 'fortran_order' is missing");
    header("{'fortran_order': False, 'shape': (2,), }", "the key 'descr' is missing");
    header("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", "'descr' appears twice");
    header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1}", "unexpected key 'extra'");
    header("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }", "fortran_order must be True or False");
    header("{'descr': '<f4', 'fortran_order': False, 'shape': (2), }", "a 1-d shape is written (n,)");
    header("{'descr': '<f4', 'fortran_order': False, 'shape': [2], }", "the shape must be a tuple");
    header("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", "expected a dimension");
    header("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 1, 2), }", "at most 8");
    // found by the npy fuzzer: no elements, but the nonzero dimensions' product overflows (strides would)
    header("{'descr': '<f8', 'fortran_order': False, 'shape': (0, 28900, 100000001, 10010, 5, 10, 100000000, 0), }",
           "the shape (0, 28900, 100000001, 10010, 5, 10, 100000000, 0) is too large");
    header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x", "unexpected text after the dict");
    header("['descr', '<f4']", "must be a dict");
    header("{'descr': '<f4, 'fortran_order': False, 'shape': (2,), }", "expected ',' or '}'");
    // the header's last byte must be a newline
    std::string no_newline = good;
    no_newline[good.find('\n')] = ' ';
    has(no_newline, "does not end with a newline");
}

TEST_CASE("npy: a hostile shape is refused before anything is allocated") {
    // 2^40 f64 elements claimed, 16 bytes present: the size check comes first
    const std::string e = error_of(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1099511627776,), }",
                                       raw<double>({1, 2})));
    CHECK(e == "truncated: the file ends early: the shape (1099511627776,) of f64 needs 8796093022208 bytes of data, "
               "there are 16");
    CHECK(error_of(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", ""))
              .find("is too large") != std::string::npos);
    // the memory limit applies to what a valid file needs
    Budget* b = Budget::create();
    b->max_bytes = 16;
    {
        Budget::Scope scope(b);
        const std::string big = npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", raw<double>({1, 2, 3, 4}));
        CHECK_THROWS_AS(npy_decode(big), LimitError);
    }
    b->release();
}

TEST_CASE("npz: damaged archives are errors") {
    auto error = [](const std::string& bytes) -> std::string {
        try {
            npz_decode(bytes);
        } catch (const FileError& e) {
            return e.what();
        }
        return "";
    };
    CHECK(error("") == "not a .npz file: it is empty");
    CHECK(error("this is not a zip archive at all, just some text") == "not a .npz file: it is not a zip archive");
    // an empty archive (what np.savez() writes with no arrays) is an empty dict
    CHECK(npz_decode(std::string("PK\x05\x06", 4) + std::string(18, '\0')).empty());
}

TEST_CASE("loadtxt: NumPy's rules for rows, comments and squeezing") {
    TextTableOptions o;
    Tensor t = parse_text_table("# a comment\n1, 2 ,3\n\n 4,5,6 # trailing\r\n", o);
    CHECK(t.shape() == Shape{2, 3});
    CHECK(t.dtype() == DType::F32);
    CHECK(t.data<float>()[4] == 5.0f);
    CHECK(parse_text_table("1,2,3\n", o).shape() == Shape{3});
    CHECK(parse_text_table("1\n2\n", o).shape() == Shape{2});
    CHECK(parse_text_table("7\n", o).rank() == 0);
    CHECK(parse_text_table("# nothing\n\n", o).shape() == Shape{0});
    o.skiprows = 1;
    CHECK(parse_text_table("a,b\n1,2\n", o).shape() == Shape{2});
    o.skiprows = 0;
    o.delimiter.reset();
    o.dtype = DType::I64;
    Tensor w = parse_text_table("1  -2\t+3\n4 5 6\n", o);
    CHECK(w.data<int64_t>()[1] == -2);
    CHECK(w.data<int64_t>()[2] == 3);
    o.dtype = DType::Bool;
    CHECK(parse_text_table("0 2\n", o).data<bool>()[1] == true);
    o.dtype = DType::F64;
    Tensor special = parse_text_table("nan inf -inf 1e400 1e-400 -1e-400 -1e400\n", o);
    CHECK(std::isnan(special.data<double>()[0]));
    CHECK(special.data<double>()[3] == HUGE_VAL);
    // below the smallest is zero with its sign (NumPy's 0.0 and -0.0), not inf
    CHECK(special.data<double>()[4] == 0.0);
    CHECK_FALSE(std::signbit(special.data<double>()[4]));
    CHECK(special.data<double>()[5] == 0.0);
    CHECK(std::signbit(special.data<double>()[5]));
    CHECK(special.data<double>()[6] == -HUGE_VAL);
}

TEST_CASE("loadtxt: ragged rows and bad values name the line") {
    auto error = [](const std::string& text, DType d = DType::F32) -> std::string {
        TextTableOptions o;
        o.dtype = d;
        try {
            parse_text_table(text, o);
        } catch (const FileError& e) {
            return e.what();
        }
        return "";
    };
    CHECK(error("1,2,3\n# c\n4,5\n") == "line 3 has 2 values, but line 1 has 3");
    CHECK(error("1,2\n3,abc\n") == "line 2, value 2: 'abc' is not a number (loading as f32)");
    CHECK(error("1,,2\n") == "line 1, value 2: empty value");
    CHECK(error("1.5\n", DType::I32) == "line 1, value 1: '1.5' is not an integer (loading as i32)");
    CHECK(error("3000000000\n", DType::I32) == "line 1, value 1: '3000000000' is out of range for i32");
    CHECK(error("99999999999999999999\n", DType::I64) == "line 1, value 1: '99999999999999999999' is out of range for i64");
}
