// `tg dap`'s requests that look into a stopped program: threads, stackTrace,
// scopes, variables, evaluate, setVariable, exceptionInfo. Each reads its
// arguments here, on the reader thread, and answers from the interpreter's
// thread, where the stop's frames are valid (cli/dap_program.hpp).
#include <filesystem>

#include "cli/dap_session.hpp"

namespace tg::cli {

namespace {

using nlohmann::json;

void require_thread_1(const json& a) {
    const int64_t one = 1;
    if (int_arg(a, "threadId", &one) != 1) throw RequestError("no such thread: a tg program has one, 1");
}

// "f [@graph]", "f [@graph] [compiled]": the Call Stack view tells eager
// frames from traced and compiled ones (docs/debugging.md).
std::string frame_name(const DebugFrame& f) {
    std::string name = f.function();
    if (f.is_graph()) name += " [@graph]";
    if (f.is_compiled()) name += " [compiled]";
    return name;
}

// A frame's source, or null for code that is no file ("<string>", "<debugger>").
json frame_source(const DebugFrame& f) {
    const std::string file = f.file();
    if (file.empty() || file.front() == '<') return nullptr;
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(file, ec);
    const std::string path = ec ? file : abs.lexically_normal().string();
    return {{"path", path}, {"name", std::filesystem::path(path).filename().string()}};
}

}  // namespace

void Session::on_stop(std::function<json(const StopView&)> body) {
    Program& p = program();
    Transport& transport = transport_;
    auto task = [request = request_, &transport, body = std::move(body)](const StopView& v) {
        try {
            transport.send(response_to(request, body(v)));
        } catch (const Error& e) {
            transport.send(error_response_to(request, e.message()));
        } catch (const std::exception& e) {
            transport.send(error_response_to(request, e.what()));
        }
    };
    if (!p.when_stopped(std::move(task))) throw RequestError(p.not_stopped_reason());
    answered_later_ = true;
}

json Session::threads(const Args&) {
    // one thread, also before launch and after the end: clients ask at any time
    return {{"threads", json::array({{{"id", 1}, {"name", "main"}}})}};
}

json Session::stack_trace(const Args& a) {
    require_thread_1(a);
    const int64_t zero = 0;
    const int64_t start = int_arg(a, "startFrame", &zero), levels = int_arg(a, "levels", &zero);
    if (start < 0 || levels < 0) throw RequestError("`startFrame` and `levels` must not be negative");
    const int line_shift = line_base_ - 1, column_shift = column_base_ - 1;
    on_stop([=](const StopView& v) {
        const auto& frames = v.stop.frames;
        const size_t from = std::min(frames.size(), static_cast<size_t>(start));
        const size_t to = levels > 0 ? std::min(frames.size(), from + static_cast<size_t>(levels)) : frames.size();
        json out = json::array();
        for (size_t i = from; i < to; ++i) {
            const DebugFrame& f = frames[i];
            json frame = {{"id", v.first_frame_id + static_cast<int>(i)},
                          {"name", frame_name(f)},
                          {"line", f.line() + line_shift},
                          {"column", std::max(f.col(), 1) + column_shift}};
            if (json source = frame_source(f); !source.is_null()) frame["source"] = source;
            else frame["presentationHint"] = "subtle";
            out.push_back(std::move(frame));
        }
        return json{{"stackFrames", out}, {"totalFrames", frames.size()}};
    });
    return nullptr;
}

json Session::scopes(const Args& a) {
    const int frame_id = static_cast<int>(int_arg(a, "frameId"));
    on_stop([frame_id](const StopView& v) {
        const size_t index = v.frame_index(frame_id);
        json out = json::array();
        // a module's top level has no locals: its variables are the Globals
        if (v.stop.frames[index].function() != "<module>")
            out.push_back({{"name", "Locals"},
                           {"presentationHint", "locals"},
                           {"variablesReference", v.variables.add_scope({index, false})},
                           {"expensive", false}});
        out.push_back({{"name", "Globals"},
                       {"variablesReference", v.variables.add_scope({index, true})},
                       {"expensive", false}});
        return json{{"scopes", out}};
    });
    return nullptr;
}

json Session::variables(const Args& a) {
    const int ref = static_cast<int>(int_arg(a, "variablesReference"));
    const std::string none;
    const std::string filter = string_arg(a, "filter", &none);
    if (!filter.empty() && filter != "named" && filter != "indexed")
        throw RequestError("`filter` is \"named\" or \"indexed\"");
    const int64_t zero = 0;
    const int64_t start = int_arg(a, "start", &zero), count = int_arg(a, "count", &zero);
    if (start < 0 || count < 0) throw RequestError("`start` and `count` must not be negative");
    on_stop([=](const StopView& v) {
        return v.variables.children(ref, v.stop, filter, static_cast<size_t>(start), static_cast<size_t>(count));
    });
    return nullptr;
}

json Session::evaluate(const Args& a) {
    const std::string expression = string_arg(a, "expression");
    const std::string none;
    const std::string context = string_arg(a, "context", &none);
    const bool has_frame = a.contains("frameId") && !a["frameId"].is_null();
    const int frame_id = has_frame ? static_cast<int>(int_arg(a, "frameId")) : 0;
    on_stop([=](const StopView& v) {
        // no frame named: the innermost, where the program stopped
        const size_t index = has_frame ? v.frame_index(frame_id) : 0;
        if (index >= v.stop.frames.size()) throw RequestError("the stop has no frames");
        const Value result = v.stop.frames[index].evaluate(expression);
        return v.variables.evaluated(result, context == "repl");
    });
    return nullptr;
}

json Session::set_variable(const Args& a) {
    const int ref = static_cast<int>(int_arg(a, "variablesReference"));
    const std::string name = string_arg(a, "name"), text = string_arg(a, "value");
    on_stop([=](const StopView& v) {
        const std::optional<VariableStore::Scope> scope = v.variables.scope(ref);
        if (!scope)
            throw RequestError("only a frame's variables can be set (in Locals or Globals), not the parts of a value");
        const DebugFrame& f = v.stop.frames.at(scope->frame);
        if (f.is_compiled()) throw RequestError("`" + f.function() + "` is running compiled code: its variables cannot be set");
        auto has = [&](const std::vector<std::pair<std::string, Value>>& vars) {
            for (const auto& [n, value] : vars)
                if (n == name) return true;
            return false;
        };
        if (!has(scope->globals ? f.globals() : f.locals()))
            throw RequestError("no variable `" + name + "` in " + (scope->globals ? "Globals" : "Locals"));
        // DebugFrame::set prefers a local: a global it hides is not set that way
        if (scope->globals && has(f.locals()))
            throw RequestError("`" + name + "` is also a local variable of `" + f.function() + "`: set it in Locals");
        const Value value = f.evaluate(text);
        f.set(name, value);
        const json shown = v.variables.variable(name, value);
        json body = {{"value", shown["value"]}, {"variablesReference", shown["variablesReference"]}};
        for (const char* key : {"type", "namedVariables", "indexedVariables"})
            if (shown.contains(key)) body[key] = shown[key];
        return body;
    });
    return nullptr;
}

json Session::exception_info(const Args& a) {
    require_thread_1(a);
    on_stop([](const StopView& v) {
        if (!v.stop.error) throw RequestError("the program did not stop at an error");
        const Error& e = *v.stop.error;
        // tg has no try/except: every error is unhandled
        return json{{"exceptionId", "error"},
                    {"description", e.message()},
                    {"breakMode", "unhandled"},
                    {"details", {{"message", e.message()}, {"stackTrace", e.rendered()}}}};
    });
    return nullptr;
}

}  // namespace tg::cli
