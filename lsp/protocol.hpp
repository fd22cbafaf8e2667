// The Language Server Protocol's ways of naming places (docs/editors.md):
// file URIs, and positions counted from 0 in UTF-16 code units (the
// protocol's default) or in code points ("utf-32", when the client offers
// it) — tg's own locations count code points from 1 (lang/source.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "lang/source.hpp"

namespace tg::lsp {

// How positions count characters on this connection.
struct Positions {
    bool utf16 = true;

    nlohmann::json position(const lang::Source& src, lang::Loc loc) const;
    nlohmann::json range(const lang::Source& src, lang::Loc start, lang::Loc end) const;
    // A protocol position (throws nlohmann::json::exception when it is not
    // one); clamped to the text.
    lang::Loc loc(const lang::Source& src, const nlohmann::json& position) const;
    // The same on a text without a Source: its byte offset.
    size_t offset(std::string_view text, const nlohmann::json& position) const;
};

// file:///a/b%20c.tg -> /a/b c.tg; other schemes: the URI itself (an
// untitled buffer is still analysed, its imports are looked for nowhere).
std::string path_of_uri(std::string_view uri);
std::string uri_of_path(std::string_view path);

// JSON-RPC error codes (the Language Server Protocol's list).
namespace rpc_error {
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kServerNotInitialized = -32002;
}  // namespace rpc_error

}  // namespace tg::lsp
