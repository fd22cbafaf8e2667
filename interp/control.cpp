#include "interp/control.hpp"

#include "interp/values/dict.hpp"
#include "interp/values/set.hpp"
#include "interp/values/text_chars.hpp"
#include "interp/batching/batching.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/tracing/trace.hpp"
#include "stdlib/op_table.hpp"

namespace tg::interp {

bool truth(const Value& v) {
    switch (v.kind()) {
    case Kind::Tensor:
        if (const Scalar* s = v.scalar()) return s->nonzero();
        return stdlib::truth(v.tensor());  // a symbolic tensor: the caller converts (autograph.cpp)
    case Kind::List: case Kind::Tuple: return !v.items().empty();
    case Kind::Dict: return v.dict().size() != 0;
    case Kind::Set: return v.set().size() != 0;
    case Kind::Str: return !v.text().empty();
    case Kind::None: case Kind::Undefined: return false;
    default: return true;
    }
}

Iterable::Iterable(Value v, Runtime& rt) : v_(std::move(v)), rt_(&rt) {
    switch (v_.kind()) {
    case Kind::List: case Kind::Tuple: size_ = static_cast<int64_t>(v_.items().size()); break;
    case Kind::Tensor:
        if (v_.tensor_type().shape.rank() == 0) throw Error("cannot iterate over a 0-d tensor");
        size_ = v_.tensor_type().shape[0];
        break;
    case Kind::Str: {
        std::vector<Value> chars;
        for (auto& c : TextChars(v_.text()).all()) chars.push_back(Value::str(std::move(c)));
        v_ = Value::tuple(std::move(chars));
        size_ = static_cast<int64_t>(v_.items().size());
        break;
    }
    case Kind::Dict: {  // its keys, in order
        std::vector<Value> keys;
        for (const DictKey& k : v_.dict().keys()) keys.push_back(key_value(k));
        v_ = Value::tuple(std::move(keys));
        size_ = static_cast<int64_t>(v_.items().size());
        break;
    }
    case Kind::Set:  // its elements, in order (docs/language.md "Sets")
        v_ = Value::tuple(set_values(v_.set()));
        size_ = static_cast<int64_t>(v_.items().size());
        break;
    default: throw Error(std::string("cannot iterate over a ") + kind_name(v_.kind()));
    }
}

Value Iterable::item(int64_t i) const {
    if (v_.is_tensor()) {
        stdlib::IndexItem idx;
        idx.kind = stdlib::IndexItem::Int;
        idx.index = i;
        return v_.is_symbolic() || v_.transformed() ? index_tensor(*rt_, v_, std::span<const stdlib::IndexItem>(&idx, 1))
                                : Value(stdlib::index(v_.tensor(), std::span<const stdlib::IndexItem>(&idx, 1)));
    }
    return v_.items()[static_cast<size_t>(i)];
}

bool is_range_call(const lang::Expr& e) {
    if (e.kind != lang::ExprKind::Call) return false;
    const lang::Call& c = e.as<lang::Call>();
    if (c.callee->kind != lang::ExprKind::Name || !c.keywords.empty()) return false;
    const lang::Name& n = c.callee->as<lang::Name>();
    return n.scope == lang::Scope::Builtin && n.id == "range";
}

}  // namespace tg::interp
