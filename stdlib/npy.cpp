#include "stdlib/npy.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <vector>

namespace tg::stdlib {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr size_t kPreludeMax = 12;  // magic (6) + version (2) + length (4 in 2.0/3.0)

[[noreturn]] void bad(const std::string& what) { throw FileError(what); }
[[noreturn]] void truncated(const std::string& where) { bad("truncated: the file ends " + where); }

uint32_t little_endian(std::string_view b, size_t at, size_t n) {
    uint32_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= static_cast<uint32_t>(static_cast<uint8_t>(b[at + i])) << (8 * i);
    return v;
}

// The dict of the header, a Python literal:
//   dict  := '{' (key ':' value (',' key ':' value)* ','?)? '}'
//   key   := string;  value := string | 'True' | 'False' | tuple
//   tuple := '(' ')' | '(' int ',' (int (',' int)* ','?)? ')'
// Strings are quoted with ' or " and hold no escapes (no descr of tg's has one).
class DictParser {
public:
    explicit DictParser(std::string_view text) : s_(text) {}

    NpyHeader parse() {
        std::optional<std::string> descr;
        std::optional<bool> fortran;
        std::optional<std::vector<int64_t>> shape;
        expect('{', "the header must be a dict starting with '{'");
        while (!peek('}')) {
            const std::string key = string("a key in quotes");
            expect(':', "expected ':' after the key '" + key + "'");
            if (key == "descr") {
                if (descr) bad("bad header: the key 'descr' appears twice");
                if (peek('[')) bad("unsupported dtype: a structured dtype (a list of fields); tg reads bool, i32, i64, f32 and f64");
                descr = string("the descr as a string such as '<f4'");
            } else if (key == "fortran_order") {
                if (fortran) bad("bad header: the key 'fortran_order' appears twice");
                fortran = boolean();
            } else if (key == "shape") {
                if (shape) bad("bad header: the key 'shape' appears twice");
                shape = tuple();
            } else {
                bad("bad header: unexpected key '" + key + "' (a .npy header has descr, fortran_order and shape)");
            }
            if (!peek('}')) expect(',', "expected ',' or '}' after the value of '" + key + "'");
        }
        expect('}', "expected '}'");
        skip_spaces();
        if (pos_ != s_.size()) error("unexpected text after the dict");
        if (!descr) bad("bad header: the key 'descr' is missing");
        if (!fortran) bad("bad header: the key 'fortran_order' is missing");
        if (!shape) bad("bad header: the key 'shape' is missing");
        NpyHeader h;
        set_dtype(h, *descr);
        h.fortran_order = *fortran;
        if (shape->size() > static_cast<size_t>(kMaxRank))
            bad("the shape has " + std::to_string(shape->size()) + " axes; tg tensors have at most " +
                std::to_string(kMaxRank));
        for (int64_t d : *shape) h.shape.push_back(d);
        return h;
    }

private:
    std::string_view s_;
    size_t pos_ = 0;

    [[noreturn]] void error(const std::string& what) const {
        bad("bad header: " + what + " (at character " + std::to_string(pos_ + 1) + " of the header)");
    }
    void skip_spaces() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
    }
    bool peek(char c) {
        skip_spaces();
        return pos_ < s_.size() && s_[pos_] == c;
    }
    void expect(char c, const std::string& what) {
        if (!peek(c)) error(what);
        ++pos_;
    }
    std::string string(const std::string& what) {
        skip_spaces();
        if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) error("expected " + what);
        const char quote = s_[pos_++];
        const size_t start = pos_;
        while (pos_ < s_.size() && s_[pos_] != quote) {
            if (s_[pos_] == '\\' || s_[pos_] == '\n') error("unexpected character in a string");
            ++pos_;
        }
        if (pos_ >= s_.size()) error("unterminated string");
        return std::string(s_.substr(start, pos_++ - start));
    }
    bool boolean() {
        skip_spaces();
        for (auto [word, value] : {std::pair{std::string_view("True"), true}, std::pair{std::string_view("False"), false}})
            if (s_.substr(pos_, word.size()) == word) {
                pos_ += word.size();
                return value;
            }
        error("fortran_order must be True or False");
    }
    int64_t integer() {
        skip_spaces();
        if (pos_ >= s_.size() || s_[pos_] < '0' || s_[pos_] > '9') error("expected a dimension (an integer >= 0)");
        int64_t v = 0;
        while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
            if (v > (INT64_MAX - 9) / 10) error("a dimension is too large");
            v = v * 10 + (s_[pos_++] - '0');
        }
        return v;
    }
    std::vector<int64_t> tuple() {
        expect('(', "the shape must be a tuple such as (2, 3)");
        std::vector<int64_t> dims;
        if (peek(')')) {
            ++pos_;
            return dims;
        }
        dims.push_back(integer());
        // (3) is an int in Python, not a tuple: a 1-tuple needs its comma
        expect(',', "expected ',' after the first dimension (a 1-d shape is written (n,))");
        while (!peek(')')) {
            dims.push_back(integer());
            if (dims.size() > 64) error("too many dimensions");
            if (!peek(')')) expect(',', "expected ',' or ')' in the shape");
        }
        ++pos_;
        return dims;
    }
    static void set_dtype(NpyHeader& h, const std::string& descr) {
        constexpr bool little = std::endian::native == std::endian::little;
        struct Known {
            std::string_view code;
            DType dtype;
        };
        static constexpr Known known[] = {{"b1", DType::Bool}, {"i4", DType::I32}, {"i8", DType::I64},
                                          {"f4", DType::F32},  {"f8", DType::F64}};
        if (descr.size() == 3)
            for (const Known& k : known) {
                if (descr.substr(1) != k.code) continue;
                const char order = descr[0];
                // one-byte bools have no byte order: '|' (NumPy) or '<' / '>' (other writers)
                if (order == '|' && k.dtype != DType::Bool) break;
                if (order != '<' && order != '>' && order != '|') break;
                h.dtype = k.dtype;
                h.swap_bytes = k.dtype != DType::Bool && (order == '<') != little;
                return;
            }
        bad("unsupported dtype '" + descr + "'; tg reads bool, i32, i64, f32 and f64 ('|b1', '<i4', '<i8', '<f4', '<f8', "
            "or big-endian '>')");
    }
};

template <size_t N>
void swap_each(char* p, size_t count) {
    for (size_t i = 0; i < count; ++i, p += N) std::reverse(p, p + N);
}

// The data as read becomes a tensor: byte order, bools as 0/1, Fortran order to C.
Tensor finish(Tensor t, const NpyHeader& h) {
    const size_t n = static_cast<size_t>(t.numel());
    char* p = static_cast<char*>(t.raw_data());
    if (h.swap_bytes) {
        if (dtype_size(h.dtype) == 4) swap_each<4>(p, n);
        else swap_each<8>(p, n);
    }
    if (h.dtype == DType::Bool)
        for (size_t i = 0; i < n; ++i) p[i] = p[i] != 0;  // any other byte is a bool no kernel expects
    if (!h.fortran_order || h.shape.rank() < 2 || n == 0) return t;
    Strides fortran;
    int64_t stride = 1;
    for (int64_t d : h.shape) {
        fortran.push_back(stride);
        stride *= std::max<int64_t>(d, 1);
    }
    return t.view(h.shape, fortran, 0).copy();
}

}  // namespace

size_t npy_data_offset(std::string_view start) {
    const size_t magic_seen = std::min(start.size(), kMagic.size());
    if (start.substr(0, magic_seen) != kMagic.substr(0, magic_seen))
        bad("not a .npy file: it does not start with \\x93NUMPY");
    if (start.size() < 10) truncated("inside the .npy preamble (magic, version, header length)");
    const int major = static_cast<uint8_t>(start[6]), minor = static_cast<uint8_t>(start[7]);
    if (minor != 0 || major < 1 || major > 3)
        bad("unsupported .npy version " + std::to_string(major) + "." + std::to_string(minor) +
            " (tg reads 1.0, 2.0 and 3.0)");
    const size_t length_bytes = major == 1 ? 2 : 4;
    if (start.size() < 8 + length_bytes) truncated("inside the .npy preamble (magic, version, header length)");
    const size_t header = little_endian(start, 8, length_bytes);
    if (header > kNpyMaxHeaderBytes)
        bad("the header is " + std::to_string(header) + " bytes long; tg reads headers of at most " +
            std::to_string(kNpyMaxHeaderBytes));
    return 8 + length_bytes + header;
}

NpyHeader npy_parse_header(std::string_view bytes) {
    const size_t end = npy_data_offset(bytes);
    if (bytes.size() < end) truncated("inside the header");
    const size_t dict_start = static_cast<uint8_t>(bytes[6]) == 1 ? 10 : 12;
    std::string_view text = bytes.substr(dict_start, end - dict_start);
    // NumPy pads the dict with spaces and ends the header with a newline
    if (text.empty() || text.back() != '\n') bad("bad header: it does not end with a newline");
    text.remove_suffix(1);
    NpyHeader h = DictParser(text).parse();
    h.data_offset = end;
    const size_t item = dtype_size(h.dtype);
    int64_t numel = 0;
    try {
        numel = h.shape.numel();  // NumPy's rule: the nonzero dimensions' product must fit
    } catch (const OpError&) {
        bad("the shape " + h.shape.to_string() + " is too large");
    }
    size_t total = 0;
    if (__builtin_mul_overflow(static_cast<size_t>(numel), item, &total))
        bad("the shape " + h.shape.to_string() + " is too large");
    h.data_bytes = total;
    return h;
}

Tensor npy_read(size_t total_bytes, const ByteReader& read) {
    std::string head(std::min(total_bytes, kPreludeMax), '\0');
    if (read(head.data(), head.size()) != head.size()) truncated("inside the .npy preamble");
    const size_t offset = npy_data_offset(head);
    if (offset > total_bytes) truncated("inside the header");
    const size_t had = head.size();
    if (offset < had) bad("bad header: it is too short to hold the dict");
    head.resize(offset);
    if (offset > had && read(head.data() + had, offset - had) != offset - had) truncated("inside the header");
    const NpyHeader h = npy_parse_header(head);
    const size_t available = total_bytes - offset;
    if (available != h.data_bytes) {
        const std::string need = "the shape " + h.shape.to_string() + " of " + dtype_name(h.dtype) + " needs " +
                                 std::to_string(h.data_bytes) + " bytes of data, ";
        if (available < h.data_bytes) truncated("early: " + need + "there are " + std::to_string(available));
        bad("the data does not match the header: " + need + "there are " + std::to_string(available));
    }
    Tensor t = Tensor::empty(h.dtype, h.shape);  // charged to the memory limit
    if (h.data_bytes && read(t.raw_data(), h.data_bytes) != h.data_bytes)
        truncated("early: fewer bytes of data could be read than its size says");
    char extra;
    if (read(&extra, 1) != 0) bad("the data does not match the header: there are bytes after the data");
    return finish(std::move(t), h);
}

Tensor npy_decode(std::string_view bytes) {
    size_t pos = 0;
    return npy_read(bytes.size(), [&](void* dst, size_t n) {
        n = std::min(n, bytes.size() - pos);
        std::memcpy(dst, bytes.data() + pos, n);
        pos += n;
        return n;
    });
}

const char* npy_descr(DType dtype) {
    switch (dtype) {
        case DType::Bool: return "|b1";
        case DType::I32: return "<i4";
        case DType::I64: return "<i8";
        case DType::F32: return "<f4";
        case DType::F64: break;
    }
    return "<f8";
}

std::string npy_header(DType dtype, const Shape& shape) {
    static_assert(std::endian::native == std::endian::little, "npy_header writes the data in the machine's order");
    std::string dict = std::string("{'descr': '") + npy_descr(dtype) + "', 'fortran_order': False, 'shape': " +
                       shape.to_string() + ", }";
    // np.save leaves room for the first dimension to grow to 21 digits in place
    if (shape.rank() > 0) dict.append(21 - std::to_string(shape[0]).size(), ' ');
    // then pads so that the data starts at a multiple of 64 bytes (a whole
    // 64 when it already would: NumPy's arithmetic)
    const size_t used = 10 + dict.size() + 1;
    dict.append(64 - used % 64, ' ');
    dict += '\n';
    std::string out(kMagic);
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(dict.size() & 0xff);
    out += static_cast<char>(dict.size() >> 8);
    return out + dict;
}

}  // namespace tg::stdlib
