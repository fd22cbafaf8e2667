// display(x, ...): shows values as the host shows them (tg::Options::display;
// a notebook: tables and pictures, docs/notebooks.md), else as the REPL echoes
// them: repr and a newline (docs/builtins.md).
#include "interp/builtins/builtins.hpp"
#include "interp/error.hpp"
#include "interp/runtime.hpp"
#include "interp/tracing/trace.hpp"
#include "interp/values/printing.hpp"

namespace tg::interp {

void add_display_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto fn = [](Runtime& rt, const CallArgs& a) {
        if (!a.keywords.empty()) throw Error("display: takes no keyword arguments");
        // host-side like print's terminal check: what it shows is the host's business
        if (rt.trace) dynamic_value_error("display: cannot be called inside a @graph function");
        for (const Value& v : a.positional) {
            if (rt.options.display) rt.options.display(v);
            else rt.write(repr_of(v) + "\n");
        }
        return Value::none();
    };
    out.emplace_back("display", Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{"display", fn, nullptr})));
    add_help_builtins(out);
}

}  // namespace tg::interp
