#include "cli/kernel/session.hpp"

#include "cli/kernel/magics.hpp"
#include "cli/kernel/mime.hpp"

namespace tg::kernel {

CellError cell_error(const Error& e) {
    CellError out{"Error", e.message(), {}};
    const std::string& r = e.rendered();
    for (size_t start = 0; start < r.size();) {
        size_t end = r.find('\n', start);
        if (end == std::string::npos) end = r.size();
        out.traceback.push_back(r.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

Session::Session(Options options, Publisher& out, const std::atomic<bool>* interrupt)
    : options_(std::move(options)), out_(out) {
    options_.write_output = [this](std::string_view s) { out_.stream("stdout", s); };
    options_.write_log = [this](std::string_view s) { out_.stream("stderr", s); };
    options_.display = [this](const Value& v) { out_.display(mime_bundle(v)); };
    options_.interrupt = interrupt;
    options_.output_is_terminal = false;
    reset();
}

void Session::reset() { interp_ = std::make_unique<Interpreter>(options_); }

std::optional<CellError> Session::execute(std::string_view code, int count) {
    const std::string name = "<cell:" + std::to_string(count) + ">";
    std::string rest;
    if (std::optional<CellError> e = run_magics(*this, code, name, rest)) return e;
    if (rest.find_first_not_of(" \t\r\n") == std::string::npos) return std::nullopt;
    return run_code(rest, name);
}

std::optional<CellError> Session::run_code(std::string_view code, const std::string& name) {
    try {
        if (options_.trace) {
            // the traced form echoes values as text, in order with print() (docs/repl.md)
            interp_->run_traced(code, name);
            return std::nullopt;
        }
        std::optional<Value> last;
        interp_->run_interactive(code, name, [&](const Value& v) { last = v; });
        if (last) out_.result(mime_bundle(*last));
    } catch (const Error& e) {
        return cell_error(e);
    }
    return std::nullopt;
}

}  // namespace tg::kernel
