#include "interp/builtins/list_methods.hpp"

#include <algorithm>

#include "interp/builtins/builtins.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/method_signatures.hpp"

namespace tg::interp {

Value call_list_method(Runtime& rt, Method m, Value& list, const CallArgs& call) {
    const std::span<const Value> args = call.positional;
    const std::string_view name = m.name();
    check_method_arguments(m, call);  // what each takes: interp/method_signatures.cpp
    // Python's position of the first item equal to v, or -1
    auto find = [&](const Value& v) -> int64_t {
        const auto& xs = list.items();
        for (size_t i = 0; i < xs.size(); ++i)
            if (values_equal(rt, xs[i], v)) return static_cast<int64_t>(i);
        return -1;
    };
    // every method but append reads or moves the whole list (the limits act by work, stdlib/budget.hpp)
    if (name != "append") stdlib::spend_work(static_cast<int64_t>(list.items().size()));
    if (name == "append") {
        list.list_mut().push_back(args[0]);
        return Value::none();
    }
    if (name == "extend") {
        if (!args[0].is_sequence())
            throw Error(std::string("extend: argument must be a list or a tuple, not ") + kind_name(args[0].kind()));
        Value other = args[0];  // may be the list itself
        stdlib::check_fits(Value::slots_bytes(other.items().size()), "a list");
        auto& xs = list.list_mut();
        xs.insert(xs.end(), other.items().begin(), other.items().end());
        return Value::none();
    }
    if (name == "pop") {
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
    if (name == "insert") {
        // Python clamps the position: insert(100, v) appends, insert(-100, v) prepends
        const int64_t n = static_cast<int64_t>(list.items().size());
        int64_t i = to_int(args[0], "insert: argument `index`");
        if (i < 0) i = std::max<int64_t>(i + n, 0);
        i = std::min(i, n);
        auto& xs = list.list_mut();
        xs.insert(xs.begin() + i, args[1]);
        return Value::none();
    }
    if (name == "remove") {
        const int64_t k = find(args[0]);
        if (k < 0) throw Error("remove: the value is not in the list");
        auto& xs = list.list_mut();
        xs.erase(xs.begin() + k);
        return Value::none();
    }
    if (name == "count") {
        int64_t c = 0;
        for (const Value& x : list.items()) c += values_equal(rt, x, args[0]) ? 1 : 0;
        return Value::from_int(c);
    }
    if (name == "sort") {
        list = Value::list(sort_values(rt, list.items_copy(), call, "sort"));
        return Value::none();
    }
    if (name == "copy") {
        return Value::list(list.items_copy());  // value semantics: a copy is the same value
    }
    // index
    const int64_t k = find(args[0]);
    if (k < 0) throw Error("index: the value is not in the list");
    return Value::from_int(k);
}

}  // namespace tg::interp
