#include "stdlib/gzip.hpp"

#include <zlib.h>

#include <algorithm>
#include <climits>

#include "stdlib/npy.hpp"

namespace tg::stdlib {

namespace {

[[noreturn]] void bad(const std::string& what) { throw FileError(what); }

constexpr size_t kFirstChunk = size_t{64} << 10;
// One inflate call writes at most this much: the limits are polled between calls.
constexpr size_t kStepBytes = size_t{1} << 20;
// The trailer's length is trusted for the first allocation only up to this
// ratio to the compressed size (a lying trailer costs at most this much).
constexpr size_t kHintRatio = 64;

// The length the last member's trailer states (mod 2^32): a hint, never trusted.
size_t trailer_length(std::string_view in) {
    if (in.size() < 18) return 0;  // a 10-byte header and an 8-byte trailer at least
    size_t n = 0;
    for (size_t i = 0; i < 4; ++i) n |= size_t{static_cast<uint8_t>(in[in.size() - 4 + i])} << (8 * i);
    return n;
}

class Inflater {
public:
    Inflater() {
        // 16 + MAX_WBITS: a gzip wrapper (header, CRC-32 and length checked), not zlib's or raw deflate
        if (inflateInit2(&s_, 16 + MAX_WBITS) != Z_OK) bad("cannot decompress: zlib could not start");
    }
    ~Inflater() { inflateEnd(&s_); }
    Inflater(const Inflater&) = delete;
    Inflater& operator=(const Inflater&) = delete;
    z_stream* operator->() { return &s_; }
    z_stream* get() { return &s_; }

private:
    z_stream s_{};
};

[[noreturn]] void too_large(size_t max_bytes) {
    bad("it decompresses to more than " + human_bytes(max_bytes) + ", tg's limit for a .gz file (a gzip bomb?)");
}

std::string zlib_message(const z_stream& s, const char* otherwise) { return s.msg ? s.msg : otherwise; }

}  // namespace

bool is_gzip(std::string_view bytes) { return bytes.size() >= 2 && bytes[0] == '\x1f' && bytes[1] == '\x8b'; }

void Gunzipped::grow(size_t produced, size_t max_bytes) {
    if (produced > max_bytes) too_large(max_bytes);
    // one byte past the limit tells a stream of exactly max_bytes from a longer one
    resize(std::min(std::max(out_.size() * 2, kFirstChunk), max_bytes + 1), produced);
}

void Gunzipped::resize(size_t size, size_t produced) {
    try {
        charge_.set(size, "decompressed data");
    } catch (const LimitError&) {
        const Budget* b = Budget::current();
        throw LimitError("memory limit exceeded: decompressing it (" + human_bytes(produced) + " so far) into " +
                         human_bytes(size) + " would pass max_memory_bytes = " +
                         human_bytes(static_cast<size_t>(b ? b->max_bytes : 0)));
    }
    out_.resize(size);
}

Gunzipped::Gunzipped(std::string_view in, size_t max_bytes) {
    if (in.empty()) bad("not a gzip file: it is empty");
    if (in == "\x1f") bad("truncated: the gzip stream ends early");
    if (!is_gzip(in)) bad("not a gzip file: it does not start with \\x1f\\x8b");
    Inflater z;
    // the first allocation: the trailer's length when it is plausible
    const size_t hint = std::min({trailer_length(in), in.size() * kHintRatio + kFirstChunk, max_bytes + 1});
    if (hint > 0) resize(hint, 0);
    size_t consumed = 0, produced = 0;
    for (;;) {
        if (produced == out_.size()) grow(produced, max_bytes);
        const size_t in_step = std::min<size_t>(in.size() - consumed, UINT_MAX);
        const size_t out_step = std::min(out_.size() - produced, kStepBytes);
        z->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + consumed));
        z->avail_in = static_cast<uInt>(in_step);
        z->next_out = reinterpret_cast<Bytef*>(out_.data() + produced);
        z->avail_out = static_cast<uInt>(out_step);
        const int r = inflate(z.get(), Z_NO_FLUSH);
        consumed += in_step - z->avail_in;
        produced += out_step - z->avail_out;
        spend_work(static_cast<int64_t>(out_step - z->avail_out));
        if (r == Z_STREAM_END) {
            if (consumed == in.size()) break;
            // another member follows (gzip reads concatenated members as one file)
            if (!is_gzip(in.substr(consumed)))
                bad("there are " + std::to_string(in.size() - consumed) + " bytes after the gzip stream");
            inflateReset(z.get());
            continue;
        }
        if (r == Z_DATA_ERROR || r == Z_NEED_DICT) bad("corrupt gzip data: " + zlib_message(*z.get(), "invalid data"));
        if (r == Z_MEM_ERROR) bad("cannot decompress: out of memory");
        if (r != Z_OK && r != Z_BUF_ERROR) bad("cannot decompress: " + zlib_message(*z.get(), "zlib failed"));
        // no progress with all input given: the stream stops before its end
        if (consumed == in.size() && produced < out_.size()) bad("truncated: the gzip stream ends early");
    }
    if (produced > max_bytes) too_large(max_bytes);  // the stream ended at the byte past the limit
    out_.resize(produced);
    if (out_.capacity() > produced + kFirstChunk) out_.shrink_to_fit();
    charge_.set(produced, "decompressed data");
}

}  // namespace tg::stdlib
