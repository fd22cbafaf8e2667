// help(x): prints what the builtin reference says of a builtin or method, or
// a tg function's signature and leading comment (interp/help.hpp;
// docs/builtins.md, docs/repl.md "Completion and help").
#include "interp/builtins/builtins.hpp"
#include "interp/check_args.hpp"
#include "interp/error.hpp"
#include "interp/help.hpp"
#include "interp/runtime.hpp"
#include "interp/tracing/trace.hpp"
#include "interp/values/printing.hpp"

namespace tg::interp {

void add_help_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto fn = [](Runtime& rt, const CallArgs& a) {
        check_arguments("help(x, /)", a);  // docs/builtins.md
        // it prints documentation: nothing a graph can compute
        if (rt.trace) dynamic_value_error("help: cannot be called inside a @graph function");
        const Value& v = a.positional[0];
        if (!v.is(Kind::Str) && !v.is(Kind::Function) && !v.is(Kind::Builtin) && !v.is(Kind::BoundMethod))
            throw Error(std::string("help: takes a function, a builtin, a method or a name as a string, not a ") +
                        kind_name(v.kind()));
        std::string text = help_for_value(rt.main_module(), v);
        if (text.empty()) throw Error("help: nothing is documented for " + repr_of(v));
        rt.write(text);
        return Value::none();
    };
    out.emplace_back("help", Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{"help", fn, nullptr})));
}

}  // namespace tg::interp
