#include "interp/list_methods.hpp"

#include "interp/dispatch.hpp"
#include "interp/error.hpp"

namespace tg::interp {

bool is_list_method(std::string_view name) {
    return name == "append" || name == "pop" || name == "extend" || name == "index";
}
bool mutates_list(std::string_view name) { return name != "index"; }

Value call_list_method(Runtime& rt, std::string_view name, Value& list, std::span<const Value> args) {
    auto arity = [&](size_t lo, size_t hi) {
        if (args.size() < lo || args.size() > hi) {
            std::string n = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
            throw Error(std::string(name) + ": takes " + n + (hi == 1 ? " argument" : " arguments") + " but " +
                        std::to_string(args.size()) + " were given");
        }
    };
    if (name == "append") {
        arity(1, 1);
        list.list_mut().push_back(args[0]);
        return Value::none();
    }
    if (name == "extend") {
        arity(1, 1);
        if (!args[0].is_sequence())
            throw Error(std::string("extend: argument must be a list or a tuple, not ") + kind_name(args[0].kind()));
        Value other = args[0];  // may be the list itself
        auto& xs = list.list_mut();
        xs.insert(xs.end(), other.items().begin(), other.items().end());
        return Value::none();
    }
    if (name == "pop") {
        arity(0, 1);
        int64_t n = static_cast<int64_t>(list.items().size());
        if (n == 0) throw Error("pop: the list is empty");
        int64_t i = args.empty() ? -1 : to_int(args[0], "pop: argument `index`");
        int64_t k = i < 0 ? i + n : i;
        if (k < 0 || k >= n)
            throw Error("pop: index " + std::to_string(i) + " is out of range for length " + std::to_string(n));
        auto& xs = list.list_mut();
        Value v = std::move(xs[static_cast<size_t>(k)]);
        xs.erase(xs.begin() + k);
        return v;
    }
    // index
    arity(1, 1);
    const auto& xs = list.items();
    for (size_t i = 0; i < xs.size(); ++i)
        if (values_equal(rt, xs[i], args[0])) return Value::from_int(static_cast<int64_t>(i));
    throw Error("index: the value is not in the list");
}

}  // namespace tg::interp
