// A string's characters (docs/language.md: strings index, slice and iterate
// by character): UTF-8 code points, an invalid byte standing alone.
//
// Indexing `s[i]` and slicing `s[i:j]` read the bytes in place: an ASCII
// string (the common case) is indexed directly; any other keeps where each
// of its characters starts, made once per string (Value::text_chars), so
// `s[i]` costs O(1) and `s[i:j]` O(j - i) however long the string is.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tg::interp {

// The byte length of the character starting with byte `lead`, given the
// bytes left (a truncated sequence is one byte).
inline size_t char_bytes(unsigned char lead, size_t left) {
    size_t n = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    return n > left ? 1 : n;
}

class TextChars {
public:
    using Starts = std::unique_ptr<const std::vector<size_t>>;
    // Where each character of s starts, then s.size(); null when every
    // byte is a character (ASCII, or no bytes): then character k is byte k.
    static Starts starts_of(std::string_view s);

    // With the starts a string keeps (Value::text_chars; null: ASCII), read
    // while that string lives.
    TextChars(std::string_view s, const std::vector<size_t>* starts) : s_(s), starts_(starts) {}
    explicit TextChars(std::string_view s) : s_(s), owned_(starts_of(s)), starts_(owned_.get()) {}

    int64_t size() const {
        return starts_ ? static_cast<int64_t>(starts_->size()) - 1 : static_cast<int64_t>(s_.size());
    }
    std::string_view at(int64_t k) const {
        if (!starts_) return s_.substr(static_cast<size_t>(k), 1);
        const size_t b = (*starts_)[static_cast<size_t>(k)];
        return s_.substr(b, (*starts_)[static_cast<size_t>(k) + 1] - b);
    }
    // Characters lo .. hi - 1 (0 <= lo <= hi <= size()), read in place: a slice by step 1.
    std::string_view range(int64_t lo, int64_t hi) const {
        if (!starts_) return s_.substr(static_cast<size_t>(lo), static_cast<size_t>(hi - lo));
        const size_t b = (*starts_)[static_cast<size_t>(lo)];
        return s_.substr(b, (*starts_)[static_cast<size_t>(hi)] - b);
    }
    // The characters at these positions, joined (a slice).
    std::string gather(std::span<const int64_t> positions) const;
    // Every character as its own string (iteration).
    std::vector<std::string> all() const;

private:
    std::string_view s_;
    Starts owned_;  // (made by the constructor that has no string object to keep them)
    const std::vector<size_t>* starts_;
};

}  // namespace tg::interp
