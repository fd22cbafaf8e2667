#include "cli/kernel/kernel_interpreter.hpp"

#include "cli/kernel/cell_text.hpp"

#include <xeus/xhelper.hpp>

namespace tg::kernel {

KernelInterpreter::KernelInterpreter(Options options, std::atomic<bool>* interrupt)
    : interrupt_(interrupt), session_(std::make_unique<Session>(std::move(options), static_cast<Publisher&>(*this), interrupt)) {
    xeus::register_interpreter(this);
}

nl::json KernelInterpreter::execute_request_impl(int execution_counter, const std::string& code, bool silent, bool,
                                                 nl::json, bool) {
    count_ = execution_counter;
    silent_ = silent;
    interrupt_->store(false);  // an interrupt that came while idle does not stop this cell
    std::optional<CellError> e = session_->execute(code, execution_counter);
    if (!e) return xeus::create_successful_reply();
    if (!silent) publish_execution_error(e->ename, e->evalue, e->traceback);
    // by hand: xeus 2.4's create_error_reply swaps ename and evalue
    return {{"status", "error"}, {"ename", e->ename}, {"evalue", e->evalue}, {"traceback", e->traceback}};
}

// Names in scope, builtins, keywords, module members and methods after `.`:
// the engine the REPL's Tab uses (Interpreter::complete, docs/repl.md).
nl::json KernelInterpreter::complete_request_impl(const std::string& code, int cursor_pos) {
    const size_t at = byte_offset(code, static_cast<size_t>(std::max(cursor_pos, 0)));
    Completions c = session_->interpreter().complete(code, at);
    nl::json matches = nl::json::array(), types = nl::json::array();
    const int start = static_cast<int>(code_points(code, c.start)), end = static_cast<int>(code_points(code, c.end));
    for (const Completion& item : c.items) {
        matches.push_back(item.text);
        types.push_back({{"text", item.text}, {"type", item.kind}, {"signature", item.detail}, {"start", start}, {"end", end}});
    }
    return xeus::create_complete_reply(matches, start, end, {{"_jupyter_types_experimental", types}});
}

// Shift-Tab: the builtin reference's line or a function's signature and comment
// (Interpreter::help).
nl::json KernelInterpreter::inspect_request_impl(const std::string& code, int cursor_pos, int) {
    const std::string name = name_at(code, byte_offset(code, static_cast<size_t>(std::max(cursor_pos, 0))));
    const std::string text = name.empty() ? "" : session_->interpreter().help(name);
    if (text.empty()) return xeus::create_inspect_reply(false);
    return xeus::create_inspect_reply(true, {{"text/plain", text}});
}

nl::json KernelInterpreter::is_complete_request_impl(const std::string& code) {
    const std::string status = completeness(code);
    return xeus::create_is_complete_reply(status, status == "incomplete" ? "    " : "");
}

nl::json KernelInterpreter::kernel_info_request_impl() {
    return xeus::create_info_reply("5.3", "tg", version(), "tg", version(), "text/x-tg", ".tg", "python", "python",
                                   "", std::string("tg ") + version() + " — docs/notebooks.md");
}

void KernelInterpreter::stream(const std::string& name, std::string_view text) {
    if (!silent_) publish_stream(name, std::string(text));
}

void KernelInterpreter::display(const nlohmann::json& bundle) {
    if (!silent_) display_data(bundle, nl::json::object(), nl::json::object());
}

void KernelInterpreter::result(const nlohmann::json& bundle) {
    if (!silent_) publish_execution_result(count_, bundle, nl::json::object());
}

}  // namespace tg::kernel
