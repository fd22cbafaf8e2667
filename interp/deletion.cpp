// `del` (docs/language.md "del"), list slice assignment (`xs[a:b] = ys`,
// docs/language.md "Lists") and the variables a `global` / `nonlocal`
// statement lets a function assign (docs/language.md "Scopes").
#include <algorithm>

#include "interp/control.hpp"
#include "interp/evaluator.hpp"
#include "interp/target_indices.hpp"
#include "interp/values/dict.hpp"

namespace tg::interp {

using namespace lang;

void Evaluator::exec_delete(const Delete& d) {
    for (const auto& t : d.targets) delete_target(*t);
}

void Evaluator::delete_target(const Expr& t) {
    switch (t.kind) {
    case ExprKind::Name: {
        const Name& n = t.as<Name>();
        load(n);  // "`x` is not defined", as Python's NameError
        store_slot(n) = Value();
        return;
    }
    case ExprKind::Tuple:
        for (const auto& e : t.as<TupleExpr>().elts) delete_target(*e);
        return;
    case ExprKind::List:
        for (const auto& e : t.as<ListExpr>().elts) delete_target(*e);
        return;
    case ExprKind::Index: delete_item(t.as<Index>()); return;
    default: fail("cannot delete this expression", t.loc);
    }
}

void Evaluator::delete_item(const Index& t) {
    TargetIndices indices(*this, t);
    Value* base = lvalue(*t.value);
    if (!base) fail("cannot delete an item of this expression (delete an item of a variable)", t.loc);
    if (base->is(Kind::Dict)) {
        const DictKey k = index_key(t);
        if (!base->dict_mut().erase(k)) fail("key " + key_repr(k) + " is not in the dict", t.loc);
        return;
    }
    if (base->is_tensor())
        fail("cannot delete items of a tensor: its shape is fixed (select the rest with an index or a mask)", t.loc);
    if (!base->is(Kind::List)) fail(std::string("a ") + kind_name(base->kind()) + " does not support item deletion", t.loc);
    const std::vector<stdlib::IndexItem> items = located_index_items(t);
    if (items.size() != 1 || items[0].kind == stdlib::IndexItem::Ellipsis)
        fail("list indices must be an int or a slice", t.loc);
    auto& xs = base->list_mut();
    const int64_t n = static_cast<int64_t>(xs.size());
    if (items[0].kind == stdlib::IndexItem::Int) {
        const int64_t k = items[0].index < 0 ? items[0].index + n : items[0].index;
        if (k < 0 || k >= n)
            fail("list index " + std::to_string(items[0].index) + " is out of range for length " + std::to_string(n),
                 t.loc);
        xs.erase(xs.begin() + k);
        return;
    }
    std::vector<int64_t> gone;
    try {
        gone = slice_positions(items[0], n);
    } catch (Error& e) {
        e.locate(source(), t.loc);
        throw;
    }
    std::vector<bool> drop(static_cast<size_t>(n), false);
    for (int64_t k : gone) drop[static_cast<size_t>(k)] = true;
    size_t kept = 0;
    for (size_t i = 0; i < xs.size(); ++i)
        if (!drop[i]) xs[kept++] = std::move(xs[i]);
    xs.resize(kept);
}

// xs[a:b] = ys replaces the items a to b by ys' items (any number of them);
// with a step other than 1, ys must have one item per position (Python).
void Evaluator::assign_list_slice(Value& base, const stdlib::IndexItem& slice, const Value& v) {
    std::vector<Value> ys;
    if (v.is_sequence()) {
        ys = v.items_copy();
    } else {
        const std::string what = v.is_tensor() ? "0-d tensor" : kind_name(v.kind());
        auto not_iterable = [&] {
            return Error("can only assign a list, tuple, str, dict or tensor with axes to a list slice, not a " + what);
        };
        if (!v.is_tensor() && !v.is(Kind::Str) && !v.is(Kind::Dict)) throw not_iterable();
        try {
            Iterable it(v, rt_);
            for (int64_t i = 0; i < it.size(); ++i) ys.push_back(it.item(i));
        } catch (Error&) {
            throw not_iterable();  // a 0-d tensor
        }
    }
    auto& xs = base.list_mut();
    const int64_t n = static_cast<int64_t>(xs.size());
    if (slice.step.value_or(1) != 1) {
        const std::vector<int64_t> at = slice_positions(slice, n);
        if (at.size() != ys.size())
            throw Error("cannot assign a sequence of size " + std::to_string(ys.size()) +
                        " to an extended slice of size " + std::to_string(at.size()));
        for (size_t i = 0; i < at.size(); ++i) xs[static_cast<size_t>(at[i])] = std::move(ys[i]);
        return;
    }
    auto bound = [n](std::optional<int64_t> b, int64_t dflt) {
        int64_t x = b.value_or(dflt);
        if (x < 0) x += n;
        return std::clamp<int64_t>(x, 0, n);
    };
    const int64_t lo = bound(slice.lo, 0);
    const int64_t hi = std::max(lo, bound(slice.hi, n));
    xs.erase(xs.begin() + lo, xs.begin() + hi);
    xs.insert(xs.begin() + lo, std::make_move_iterator(ys.begin()), std::make_move_iterator(ys.end()));
}

// A variable of the module or of an enclosing function that this function
// declared `global` / `nonlocal`. Inside @graph only the traced functions'
// own variables may be assigned: a trace runs once per input signature, so
// a write outside it would happen once, not at every call.
Value& Evaluator::outer_slot(const Name& n) {
    if (n.scope == lang::Scope::Global) {
        if (rt_.trace)
            fail("cannot assign the module's variable `" + n.id +
                     "` inside a @graph function: a traced function runs once per input signature (return the "
                     "value and assign it outside)",
                 n.loc);
        return f_->module->globals[n.slot];
    }
    Env* e = f_->env;
    for (int d = 0; d < n.depth; ++d) e = e->parent.get();
    if (rt_.trace && !e->traced)
        fail("cannot assign `" + n.id +
                 "` of a function outside the @graph function being traced (return the value and assign it there)",
             n.loc);
    return e->slots[n.slot];
}

}  // namespace tg::interp
