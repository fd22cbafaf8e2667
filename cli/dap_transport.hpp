// The messages of `tg dap` (docs/debugging.md "VS Code"): Debug Adapter
// Protocol responses and events, over the Content-Length framed transport
// it shares with `tg lsp` (cli/rpc_transport.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "cli/rpc_transport.hpp"

namespace tg::cli {

// A response to `request`: success with `body`, or failure with `message`.
nlohmann::json response_to(const nlohmann::json& request, nlohmann::json body);
nlohmann::json error_response_to(const nlohmann::json& request, const std::string& message);
nlohmann::json event_message(const std::string& name, nlohmann::json body = nlohmann::json::object());

// A message of the adapter itself (not of the program) on stderr.
void log_problem(const std::string& text);

}  // namespace tg::cli
