#include "interp/values/text_chars.hpp"

#include <algorithm>

namespace tg::interp {

TextChars::Starts TextChars::starts_of(std::string_view s) {
    const bool ascii = std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    if (ascii) return nullptr;
    auto starts = std::make_unique<std::vector<size_t>>();
    starts->reserve(s.size() + 1);
    for (size_t i = 0; i < s.size(); i += char_bytes(static_cast<unsigned char>(s[i]), s.size() - i))
        starts->push_back(i);
    starts->push_back(s.size());
    return starts;
}

std::string TextChars::gather(std::span<const int64_t> positions) const {
    std::string out;
    out.reserve(positions.size());
    for (int64_t k : positions) out += at(k);
    return out;
}

std::vector<std::string> TextChars::all() const {
    std::vector<std::string> out;
    out.reserve(static_cast<size_t>(size()));
    for (int64_t k = 0; k < size(); ++k) out.emplace_back(at(k));
    return out;
}

}  // namespace tg::interp
