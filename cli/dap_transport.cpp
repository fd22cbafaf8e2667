// The shapes of Debug Adapter Protocol responses and events (`tg dap`).
#include "cli/dap_transport.hpp"

namespace tg::cli {

void log_problem(const std::string& text) { log_problem("tg dap", text); }

nlohmann::json response_to(const nlohmann::json& request, nlohmann::json body) {
    nlohmann::json r = {{"type", "response"},
                        {"request_seq", request.value("seq", 0)},
                        {"command", request.value("command", "")},
                        {"success", true}};
    if (!body.is_null()) r["body"] = std::move(body);
    return r;
}

nlohmann::json error_response_to(const nlohmann::json& request, const std::string& message) {
    nlohmann::json r = {{"type", "response"}, {"success", false}, {"message", message}};
    // a request too broken to name its seq or command still gets an answer
    const auto seq = request.find("seq");
    r["request_seq"] = seq != request.end() && seq->is_number_integer() ? seq->get<int64_t>() : 0;
    const auto command = request.find("command");
    r["command"] = command != request.end() && command->is_string() ? command->get<std::string>() : "";
    return r;
}

nlohmann::json event_message(const std::string& name, nlohmann::json body) {
    return {{"type", "event"}, {"event", name}, {"body", std::move(body)}};
}

}  // namespace tg::cli
