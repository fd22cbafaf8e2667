// `tg lsp`'s protocol engine (docs/editors.md): takes each JSON-RPC
// message of a Language Server Protocol client and gives the messages to
// send back; no I/O of its own (cli/lsp.cpp reads and writes, and decides
// when the diagnostics are due; the fuzz target drives it directly). A
// malformed message gets an error response; nothing a client sends ends the
// server but `exit`.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "lsp/protocol.hpp"
#include "lsp/workspace.hpp"

namespace tg::lsp {

class Server {
public:
    Server() = default;

    // The responses and notifications for one message's text.
    std::vector<nlohmann::json> handle(std::string_view text);

    // Documents whose diagnostics changed since they were last published.
    bool diagnostics_due() const { return !dirty_.empty(); }
    std::vector<nlohmann::json> publish_diagnostics();
    // How long to wait for more edits before publishing (the client may set
    // it: initializationOptions.diagnosticsDelay, milliseconds).
    int diagnostics_delay_ms() const { return delay_ms_; }

    bool exited() const { return exited_; }
    int exit_code() const { return shutdown_ ? 0 : 1; }

private:
    nlohmann::json request(const std::string& method, const nlohmann::json& params);
    void notification(const std::string& method, const nlohmann::json& params);
    nlohmann::json initialize(const nlohmann::json& params);
    void change(const nlohmann::json& params);
    nlohmann::json diagnostics_of(const std::string& path);
    std::string path_of(const nlohmann::json& params) const;

    Workspace ws_;
    Positions positions_;
    std::vector<nlohmann::json> pending_;  // what a notification sends (didClose: clear the diagnostics)
    std::set<std::string> dirty_;
    std::map<std::string, std::string> uris_;  // path -> the URI the client named it by
    int delay_ms_ = 25;
    bool initialized_ = false;
    bool shutdown_ = false;
    bool exited_ = false;
};

}  // namespace tg::lsp
