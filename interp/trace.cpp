#include "interp/trace.hpp"

#include "interp/dispatch.hpp"
#include "interp/printing.hpp"
#include "interp/runtime.hpp"

namespace tg::interp {

using tracer::TextPiece;

const Value& Capture::current() const {
    return module ? module->globals[static_cast<size_t>(slot)] : env->slots[static_cast<size_t>(slot)];
}

void TraceState::capture(std::string name, ModuleState* m, std::shared_ptr<Env> env, int slot, const Value& v) {
    for (const Capture& c : captures)
        if (c.module == m && c.env == env && c.slot == slot) return;
    captures.push_back(Capture{std::move(name), m, std::move(env), slot, v});
}

tracer::ValueId value_id(TraceState& t, const Value& v) {
    if (const SymObj* s = v.sym()) return s->id;
    return t.graph.constant(v.tensor(), t.here());
}

Value symbolic(TraceState& t, tracer::ValueId id) { return Value::symbolic(id, t.graph.tensor_type(id)); }

bool has_symbolic(const Value& v) {
    if (v.is_symbolic() || v.sym_str()) return true;
    if (v.is_sequence())
        for (const Value& x : v.items())
            if (has_symbolic(x)) return true;
    return false;
}

tracer::ValueId none_set(Runtime& rt, const std::vector<Value*>& flags) {
    Value any = *flags[0];
    for (size_t i = 1; i < flags.size(); ++i) any = binary(rt, lang::BinOp::BitOr, any, *flags[i]);
    return unary(rt, lang::UnaryOp::Invert, any).sym()->id;
}

void dynamic_value_error(const std::string& message) { throw Error(message).as(TraceErrorKind::Conversion); }

void unsupported_in_graph(const std::string& what) {
    throw Error("the tracer cannot express " + what).as(TraceErrorKind::Unsupported);
}

namespace {
void text(tracer::Template& out, std::string s) {
    if (s.empty()) return;
    if (!out.empty() && out.back().kind == TextPiece::Text) out.back().text += s;
    else out.push_back(TextPiece{TextPiece::Text, std::move(s), 0});
}
}  // namespace

void append_str(TraceState& t, tracer::Template& out, std::vector<tracer::ValueId>& operands, const Value& v,
                bool repr, bool in_container) {
    if (!has_symbolic(v)) {
        text(out, repr ? repr_of(v) : in_container ? element_str(v) : str_of(v));
        return;
    }
    if (const SymObj* s = v.sym()) {
        out.push_back(TextPiece{repr ? TextPiece::Repr : TextPiece::Str, {}, static_cast<uint32_t>(operands.size())});
        operands.push_back(s->id);
        return;
    }
    if (const SymStrObj* s = v.sym_str()) {
        if (repr || in_container) unsupported_in_graph("repr of a string that shows tensor values");
        uint32_t base = static_cast<uint32_t>(operands.size());
        for (const TextPiece& p : s->text) {
            if (p.kind == TextPiece::Text) {
                text(out, p.text);
            } else {
                TextPiece q = p;
                q.operand += base;
                out.push_back(q);
            }
        }
        operands.insert(operands.end(), s->operands.begin(), s->operands.end());
        return;
    }
    // a list or tuple holding symbolic tensors: as seq_str in printing.cpp
    const auto& items = v.items();
    bool list = v.is(Kind::List);
    text(out, list ? "[" : "(");
    for (size_t i = 0; i < items.size(); ++i) {
        if (i) text(out, ", ");
        append_str(t, out, operands, items[i], false, true);
    }
    if (!list && items.size() == 1) text(out, ",");
    text(out, list ? "]" : ")");
}

Value make_str(tracer::Template text_, std::vector<tracer::ValueId> operands) {
    if (operands.empty()) {
        std::string s;
        for (const TextPiece& p : text_) s += p.text;
        return Value::str(std::move(s));
    }
    return Value::symbolic_str(std::make_shared<SymStrObj>(SymStrObj{std::move(text_), std::move(operands)}));
}

}  // namespace tg::interp
