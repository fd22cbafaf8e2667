// libFuzzer target: the language server's engine (lsp/server.hpp) fed with
// an editing session. The input is the document first opened; numbers
// taken from its end (FuzzedDataProvider) choose what follows: incremental
// edits at any position (past the end of a line or of the text too) that
// insert pieces of the input, whole-text changes, every kind of request at
// any position, and diagnostics after each change. Nothing may crash, hang
// or leak; every request gets a response.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "lsp/server.hpp"

namespace {

using nlohmann::json;

const char* const kRequests[] = {"textDocument/hover",         "textDocument/definition", "textDocument/references",
                                 "textDocument/completion",    "textDocument/signatureHelp",
                                 "textDocument/documentSymbol"};

json position(FuzzedDataProvider& in) {
    return {{"line", in.ConsumeIntegralInRange<int>(-1, 80)}, {"character", in.ConsumeIntegralInRange<int>(-1, 120)}};
}

// A piece of the input: edits insert what a tg file is made of.
std::string piece(FuzzedDataProvider& in, const std::string& all) {
    if (all.empty()) return "";
    const size_t at = in.ConsumeIntegralInRange<size_t>(0, all.size() - 1);
    return all.substr(at, in.ConsumeIntegralInRange<size_t>(0, 48));
}

// The text of a message; invalid UTF-8 (from the input) replaced, as a
// client's JSON library would have it.
std::string text(const json& message) { return message.dump(-1, ' ', false, json::error_handler_t::replace); }

size_t answers(const std::vector<json>& out) {
    size_t n = 0;
    for (const json& m : out) n += text(m).size();
    return n;
}

size_t send(tg::lsp::Server& server, const json& message) { return answers(server.handle(text(message))); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 8192) return -1;  // longer inputs only slow the search
    const std::string all(reinterpret_cast<const char*>(data), size);
    FuzzedDataProvider in(data, size);
    tg::lsp::Server server;
    const std::string uri = "file:///fuzz/main.tg";
    const json doc = {{"uri", uri}};
    size_t total = send(server, {{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"}, {"params", {{"capabilities", json::object()}}}});
    total += send(server, {{"jsonrpc", "2.0"}, {"method", "textDocument/didOpen"},
                           {"params", {{"textDocument", {{"uri", uri}, {"languageId", "tg"}, {"version", 1}, {"text", all}}}}}});
    const int steps = in.ConsumeIntegralInRange(0, 12);
    for (int i = 0; i < steps; ++i) {
        const int what = in.ConsumeIntegralInRange(0, 8);
        json params = {{"textDocument", doc}};
        if (what == 0 || what == 1) {
            json change = {{"text", piece(in, all)}};
            if (what == 0) change["range"] = {{"start", position(in)}, {"end", position(in)}};
            params["contentChanges"] = json::array({change});
            total += send(server, {{"jsonrpc", "2.0"}, {"method", "textDocument/didChange"}, {"params", params}});
            total += answers(server.publish_diagnostics());
        } else if (what == 2) {
            total += answers(server.handle(piece(in, all)));  // not a message at all
        } else {
            params["position"] = position(in);
            params["context"] = {{"includeDeclaration", in.ConsumeBool()}};
            total += send(server, {{"jsonrpc", "2.0"}, {"id", i + 1}, {"method", kRequests[what - 3]}, {"params", params}});
        }
    }
    total += answers(server.publish_diagnostics());
    total += send(server, {{"jsonrpc", "2.0"}, {"id", 99}, {"method", "shutdown"}});
    return total == size_t(-1) ? -1 : 0;
}
