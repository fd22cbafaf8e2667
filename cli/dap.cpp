// `tg dap` (docs/debugging.md "VS Code"): the session's course — initialize,
// launch, breakpoints, configurationDone, running, stopping, ending. The
// requests that look into a stopped program are in dap_inspect.cpp.
#include "cli/dap.hpp"

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "api/tool_api.hpp"
#include "cli/dap_session.hpp"

namespace tg::cli {

namespace {

using nlohmann::json;

// How long ending the session waits for the program's thread after
// terminating it: a statement or a compiled loop notices within
// milliseconds; a single long op (a huge matmul) may take longer.
constexpr std::chrono::seconds kEndTimeout{5};

std::string absolute_path(const std::string& p) {
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(p, ec);
    return ec ? p : abs.lexically_normal().string();
}

// How many lines `path` has; std::nullopt when it cannot be read.
std::optional<int> line_count(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    int lines = 0;
    char last = '\n';
    for (char c; in.get(c); last = c)
        if (c == '\n') ++lines;
    return last == '\n' ? lines : lines + 1;
}

bool is_identifier(const std::string& s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    for (unsigned char c : s)
        if (!std::isalnum(c) && c != '_') return false;
    return true;
}

// launch's `env`: a string sets the variable, null removes it.
void apply_environment(const json& env) {
    if (!env.is_object()) throw RequestError("`env` must be an object of strings");
    for (const auto& [name, value] : env.items()) {
        if (name.empty() || name.find('=') != std::string::npos)
            throw RequestError("`env`: '" + name + "' is not a variable name");
        if (value.is_null()) ::unsetenv(name.c_str());
        else if (value.is_string()) ::setenv(name.c_str(), value.get<std::string>().c_str(), 1);
        else throw RequestError("`env`: the value of " + name + " must be a string or null");
    }
}

std::vector<std::string> string_list(const json& a, const char* name) {
    std::vector<std::string> out;
    const auto it = a.find(name);
    if (it == a.end() || it->is_null()) return out;
    if (!it->is_array()) throw RequestError(std::string("`") + name + "` must be a list of strings");
    for (const json& s : *it) {
        if (!s.is_string()) throw RequestError(std::string("`") + name + "` must be a list of strings");
        out.push_back(s.get<std::string>());
    }
    return out;
}

json capabilities() {
    // tg has no try/except: every error is uncaught, and both filters stop where it is raised
    json filters = json::array({{{"filter", "raised"}, {"label", "Raised errors"}, {"default", false}},
                                {{"filter", "uncaught"}, {"label", "Uncaught errors"}, {"default", true}}});
    return {{"supportsConfigurationDoneRequest", true},
            {"supportsConditionalBreakpoints", true},
            {"supportsHitConditionalBreakpoints", true},
            {"supportsLogPoints", true},
            {"supportsFunctionBreakpoints", true},
            {"supportsEvaluateForHovers", true},
            {"supportsSetVariable", true},
            {"supportsTerminateRequest", true},
            {"supportsExceptionInfoRequest", true},
            {"exceptionBreakpointFilters", filters}};
}

}  // namespace

// ---------------------------------------------------------------- arguments

std::string string_arg(const json& a, const char* name, const std::string* fallback) {
    const auto it = a.find(name);
    if (it == a.end() || it->is_null()) {
        if (fallback) return *fallback;
        throw RequestError(std::string("`") + name + "` is required");
    }
    if (!it->is_string()) throw RequestError(std::string("`") + name + "` must be a string");
    return it->get<std::string>();
}

int64_t int_arg(const json& a, const char* name, const int64_t* fallback) {
    const auto it = a.find(name);
    if (it == a.end() || it->is_null()) {
        if (fallback) return *fallback;
        throw RequestError(std::string("`") + name + "` is required");
    }
    if (!it->is_number_integer()) throw RequestError(std::string("`") + name + "` must be a whole number");
    return it->get<int64_t>();
}

bool bool_arg(const json& a, const char* name, bool fallback) {
    const auto it = a.find(name);
    if (it == a.end() || it->is_null()) return fallback;
    if (!it->is_boolean()) throw RequestError(std::string("`") + name + "` must be true or false");
    return it->get<bool>();
}

// ---------------------------------------------------------------- dispatch

Session::~Session() = default;

bool Session::handle(const std::string& text) {
    json message;
    try {
        message = json::parse(text);
    } catch (const json::exception& e) {
        log_problem(std::string("a message that is not JSON (") + e.what() + "): skipped");
        return true;
    }
    if (!message.is_object()) {
        log_problem("a message that is not a JSON object: skipped");
        return true;
    }
    const auto type = message.find("type");
    if (type != message.end() && *type == "response") return true;  // tg dap sends no requests to answer
    const auto seq = message.find("seq");
    const auto command = message.find("command");
    if (type == message.end() || *type != "request" || seq == message.end() || !seq->is_number_integer() ||
        command == message.end() || !command->is_string()) {
        if (seq != message.end() && seq->is_number_integer())
            transport_.send(error_response_to(message, "not a request: it needs \"type\": \"request\", a seq and a command"));
        else
            log_problem("a message that is not a request (no type, seq or command): skipped");
        return true;
    }
    dispatch(message);
    return !done_;
}

void Session::dispatch(const json& request) {
    static const std::map<std::string, Handler> handlers = {
        {"initialize", &Session::initialize},
        {"launch", &Session::launch},
        {"setBreakpoints", &Session::set_breakpoints},
        {"setFunctionBreakpoints", &Session::set_function_breakpoints},
        {"setExceptionBreakpoints", &Session::set_exception_breakpoints},
        {"configurationDone", &Session::configuration_done},
        {"threads", &Session::threads},
        {"stackTrace", &Session::stack_trace},
        {"scopes", &Session::scopes},
        {"variables", &Session::variables},
        {"evaluate", &Session::evaluate},
        {"setVariable", &Session::set_variable},
        {"exceptionInfo", &Session::exception_info},
        {"continue", &Session::continue_},
        {"next", &Session::next},
        {"stepIn", &Session::step_in},
        {"stepOut", &Session::step_out},
        {"pause", &Session::pause},
        {"terminate", &Session::terminate},
        {"disconnect", &Session::disconnect},
    };
    request_ = request;
    answered_later_ = false;
    after_response_ = nullptr;
    const std::string command = request.at("command").get<std::string>();
    try {
        const auto handler = handlers.find(command);
        if (handler == handlers.end()) throw RequestError("tg dap does not know the request `" + command + "`");
        const json args = request.contains("arguments") ? request.at("arguments") : json::object();
        if (!args.is_object()) throw RequestError("`arguments` must be an object");
        json body = (this->*handler->second)(args);
        if (!answered_later_) transport_.send(response_to(request, std::move(body)));
        if (after_response_) after_response_();
    } catch (const RequestError& e) {
        transport_.send(error_response_to(request, e.what()));
    } catch (const Error& e) {
        transport_.send(error_response_to(request, e.message()));
    } catch (const std::exception& e) {
        transport_.send(error_response_to(request, std::string("tg dap: ") + e.what()));
    }
}

Program& Session::program() {
    if (!program_) throw RequestError("no program: send launch (and configurationDone) first");
    return *program_;
}

// ---------------------------------------------------------------- setting up

json Session::initialize(const Args& a) {
    if (initialized_) throw RequestError("the session is initialized already");
    initialized_ = true;
    line_base_ = bool_arg(a, "linesStartAt1", true) ? 1 : 0;
    column_base_ = bool_arg(a, "columnsStartAt1", true) ? 1 : 0;
    after_response_ = [this] { transport_.send(event_message("initialized")); };
    return capabilities();
}

json Session::launch(const Args& a) {
    if (program_) throw RequestError("a program is launched already (one per session)");
    LaunchConfig config;
    config.program = string_arg(a, "program");
    if (config.program.empty()) throw RequestError("`program` is empty: name the .tg script to run");
    config.args = string_list(a, "args");
    config.stop_on_entry = bool_arg(a, "stopOnEntry", false);
    config.no_debug = bool_arg(a, "noDebug", false);
    const std::string none;
    if (const std::string cwd = string_arg(a, "cwd", &none); !cwd.empty() && ::chdir(cwd.c_str()) != 0)
        throw RequestError("cannot change to the folder '" + cwd + "': " + std::strerror(errno));
    if (a.contains("env") && !a["env"].is_null()) apply_environment(a["env"]);
    config.program = absolute_path(config.program);  // frames name it so; the client matches absolute paths
    std::error_code ec;
    if (std::filesystem::is_directory(config.program, ec))
        throw RequestError("'" + config.program + "' is a folder, not a .tg script");
    try {
        (void)read_file(config.program);
    } catch (const Error& e) {
        throw RequestError(e.message());
    }
    Options options = base_;
    // made here, after `env`: it may set TG_PATH
    options.load_module = file_module_loader(options.module_paths, options.use_tg_path);
    program_ = std::make_unique<Program>(std::move(options), std::move(config), breakpoints_,
                                         [this](json m) { transport_.send(std::move(m)); });
    if (configured_) after_response_ = [this] { program_->start(); };
    return nullptr;
}

json Session::set_breakpoints(const Args& a) {
    if (!a.contains("source") || !a["source"].is_object()) throw RequestError("`source` is required");
    const std::string path = absolute_path(string_arg(a["source"], "path"));
    const std::optional<int> lines = line_count(path);
    json list = a.contains("breakpoints") ? a["breakpoints"] : json::array();
    if (!list.is_array()) throw RequestError("`breakpoints` must be a list");
    std::vector<BreakpointTable::Entry> entries;
    for (const json& b : list) {
        if (!b.is_object()) throw RequestError("each of `breakpoints` must be an object with a line");
        const std::string none;
        BreakpointTable::Entry e;
        e.spec.file = path;
        e.spec.line = tg_line(static_cast<int>(int_arg(b, "line")));
        e.spec.condition = string_arg(b, "condition", &none);
        e.spec.hit_condition = string_arg(b, "hitCondition", &none);
        e.spec.log_message = string_arg(b, "logMessage", &none);
        if (!lines) e.verified = false, e.message = "cannot read " + path;
        else if (e.spec.line < 1 || e.spec.line > *lines)
            e.verified = false, e.message = "line " + std::to_string(e.spec.line) + " is not in the file (it has " +
                                            std::to_string(*lines) + " lines)";
        else if (!e.spec.hit_condition.empty() && !valid_hit_condition(e.spec.hit_condition))
            e.verified = false, e.message = "a hit condition is N, >= N, > N, <= N, < N, == N or % N";
        entries.push_back(std::move(e));
    }
    const json source = {{"path", path}, {"name", std::filesystem::path(path).filename().string()}};
    json out = json::array();
    for (const BreakpointTable::Entry& e : breakpoints_.replace(path, std::move(entries))) {
        json b = {{"id", e.id}, {"verified", e.verified}, {"line", client_line(e.spec.line)}, {"source", source}};
        if (!e.message.empty()) b["message"] = e.message;
        out.push_back(std::move(b));
    }
    if (program_) program_->breakpoints_changed();
    return {{"breakpoints", out}};
}

json Session::set_function_breakpoints(const Args& a) {
    const json list = a.contains("breakpoints") ? a["breakpoints"] : json();
    if (!list.is_array()) throw RequestError("`breakpoints` must be a list");
    std::vector<BreakpointTable::Entry> entries;
    for (const json& b : list) {
        if (!b.is_object()) throw RequestError("each of `breakpoints` must be an object with a name");
        const std::string none;
        BreakpointTable::Entry e;
        e.spec.function = string_arg(b, "name");
        e.spec.condition = string_arg(b, "condition", &none);
        e.spec.hit_condition = string_arg(b, "hitCondition", &none);
        if (!is_identifier(e.spec.function)) e.verified = false, e.message = "not a function name";
        else if (!e.spec.hit_condition.empty() && !valid_hit_condition(e.spec.hit_condition))
            e.verified = false, e.message = "a hit condition is N, >= N, > N, <= N, < N, == N or % N";
        entries.push_back(std::move(e));
    }
    json out = json::array();
    for (const BreakpointTable::Entry& e : breakpoints_.replace(BreakpointTable::kFunctions, std::move(entries))) {
        json b = {{"id", e.id}, {"verified", e.verified}};
        if (!e.message.empty()) b["message"] = e.message;
        out.push_back(std::move(b));
    }
    if (program_) program_->breakpoints_changed();
    return {{"breakpoints", out}};
}

json Session::set_exception_breakpoints(const Args& a) {
    bool stop = false;
    for (const std::string& f : string_list(a, "filters")) stop = stop || f == "raised" || f == "uncaught";
    if (a.contains("filterOptions") && a["filterOptions"].is_array())
        for (const json& o : a["filterOptions"])
            if (o.is_object()) {
                const std::string id = o.value("filterId", "");
                stop = stop || id == "raised" || id == "uncaught";
            }
    breakpoints_.set_stop_on_raise(stop);
    if (program_) program_->breakpoints_changed();
    return nullptr;
}

json Session::configuration_done(const Args&) {
    if (configured_) throw RequestError("configurationDone came already");
    configured_ = true;
    if (program_) after_response_ = [this] { program_->start(); };  // else launch starts it
    return nullptr;
}

// ---------------------------------------------------------------- running and stopping

json Session::resume(const Args& a, Resume how) {
    Program& p = program();
    const int64_t one = 1;
    if (int_arg(a, "threadId", &one) != 1) throw RequestError("no such thread: a tg program has one, 1");
    // only this thread ends a stop, so the check holds until after_response_
    if (p.state() != Program::State::Stopped) throw RequestError(p.not_stopped_reason());
    after_response_ = [&p, how] { p.resume(how); };
    return nullptr;
}

json Session::continue_(const Args& a) {
    resume(a, Resume::Continue);
    return {{"allThreadsContinued", true}};
}
json Session::next(const Args& a) { return resume(a, Resume::StepOver); }
json Session::step_in(const Args& a) { return resume(a, Resume::StepIn); }
json Session::step_out(const Args& a) { return resume(a, Resume::StepOut); }

json Session::pause(const Args&) {
    Program& p = program();
    switch (p.state()) {
    case Program::State::Stopped: return nullptr;  // stopped already
    case Program::State::Running:
        if (!p.pause()) throw RequestError("the program runs without the debugger (noDebug): it cannot pause");
        return nullptr;
    default: throw RequestError(p.not_stopped_reason());
    }
}

json Session::terminate(const Args&) {
    Program& p = program();
    after_response_ = [&p] { p.terminate(); };
    return nullptr;
}

json Session::disconnect(const Args&) {
    done_ = true;
    if (program_) {
        program_->terminate();
        if (!program_->wait_ended(kEndTimeout)) log_problem("the program did not end in time");
    }
    return nullptr;
}

bool Session::end() {
    done_ = true;
    if (!program_) return true;
    program_->terminate();
    if (program_->wait_ended(kEndTimeout)) return true;
    log_problem("the program did not end in time");
    return false;
}

// ---------------------------------------------------------------- the entry point

int dap(Options base, int port) {
    // a client that goes away is an end of input, not a reason to die
    std::signal(SIGPIPE, SIG_IGN);
    std::string error;
    std::unique_ptr<Transport> transport = open_transport(port, error);
    if (!transport) {
        log_problem(error);
        return 1;
    }
    auto session = std::make_unique<Session>(std::move(base), *transport);
    while (std::optional<std::string> message = transport->read_message())
        if (!session->handle(*message)) break;
    if (!session->end()) {
        // the program's thread is stuck in one long op: the process ends
        // without waiting for it (or destroying what it uses)
        std::fflush(nullptr);
        std::_Exit(0);
    }
    session.reset();
    return 0;
}

}  // namespace tg::cli
