#include "interp/tracing/trace.hpp"

#include <algorithm>

#include "interp/values/dict.hpp"
#include "interp/dispatch.hpp"
#include "interp/values/printing.hpp"
#include "interp/runtime.hpp"

namespace tg::interp {

using tracer::TextPiece;

const Value& Capture::current() const {
    return module ? module->globals[static_cast<size_t>(slot)] : env->slots[static_cast<size_t>(slot)];
}

namespace {

// A value in a retrace reason: strings quoted, long ones cut.
std::string short_str(const Value& v) {
    std::string s = v.is(Kind::Str) ? quote(v.text()) : str_of(v);
    if (s.size() > 40) s = s.substr(0, 37) + "...";
    return s;
}

}  // namespace

std::string Capture::traced_display() const { return short_str(value); }
std::string Capture::current_display() const { return short_str(current()); }

void TraceState::capture(std::string name, ModuleState* m, std::shared_ptr<Env> env, int slot, const Value& v) {
    for (const Capture& c : captures)
        if (c.module == m && c.env == env && c.slot == slot) return;
    captures.push_back(Capture{std::move(name), m, std::move(env), slot, v});
}

tracer::ValueId value_id(TraceState& t, const Value& v) {
    if (const SymObj* s = v.sym()) return s->id;
    // A concrete tensor being differentiated by an eager grad, reached from
    // code being traced: the graph could not carry its gradient.
    if (v.tracked()) unsupported_in_graph("a tensor that an eager grad() differentiates");
    return t.graph.constant(v.tensor(), t.here());
}

Value symbolic(TraceState& t, tracer::ValueId id) { return Value::symbolic(id, t.graph.tensor_type(id)); }

bool has_symbolic(const Value& v) {
    if (v.is_symbolic() || v.sym_str()) return true;
    if (const BatchObj* b = v.batched()) return has_symbolic(b->value);
    if (const auto xs = v.children())
        for (const Value& x : *xs)
            if (has_symbolic(x)) return true;
    return false;
}

tracer::ValueId none_set(Runtime& rt, const std::vector<Value*>& flags) {
    Value any = *flags[0];
    for (size_t i = 1; i < flags.size(); ++i) any = binary(rt, lang::BinOp::BitOr, any, *flags[i]);
    return unary(rt, lang::UnaryOp::Invert, any).sym()->id;
}

void dynamic_value_error(const std::string& message) { throw Error(message).as(TraceErrorKind::Conversion); }

namespace {
void symbolic_ids(const Value& v, std::vector<tracer::ValueId>& out) {
    if (const SymObj* s = v.sym()) out.push_back(s->id);
    else if (const auto xs = v.children())
        for (const Value& x : *xs) symbolic_ids(x, out);
}
}  // namespace

std::vector<std::string> params_behind(const TraceState& t, const Value& v) {
    const tracer::Graph& g = t.graph;
    std::vector<tracer::ValueId> todo;
    symbolic_ids(v, todo);
    std::vector<bool> seen(g.num_values(), false);
    std::vector<std::string> names;
    while (!todo.empty()) {
        const tracer::ValueId id = todo.back();
        todo.pop_back();
        if (id >= seen.size() || seen[id]) continue;
        seen[id] = true;
        const tracer::ValueInfo& info = g.value(id);
        std::span<const tracer::ValueId> from;
        if (info.def != tracer::kNoId) {
            const tracer::Node& n = g.node(info.def);
            from = n.operands;
            // a cond/while result also depends on what its regions read from outside
            for (tracer::RegionId r : n.regions)
                g.walk(r, [&](tracer::NodeId m) {
                    const auto& ops = g.node(m).operands;
                    todo.insert(todo.end(), ops.begin(), ops.end());
                });
        } else if (info.region == tracer::Graph::kBody) {
            // an input of the function: "xs[0]" is a leaf of the parameter `xs`
            std::string name = info.name.substr(0, info.name.find('['));
            if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
            continue;
        } else {
            // an argument of a cond/while region: whatever its node takes in
            from = g.node(g.region(info.region).owner).operands;
        }
        todo.insert(todo.end(), from.begin(), from.end());
    }
    // in the order of the parameters
    std::vector<std::string> ordered;
    for (tracer::ValueId in : g.inputs()) {
        const std::string& full = g.value(in).name;
        std::string name = full.substr(0, full.find('['));
        if (std::find(names.begin(), names.end(), name) != names.end() &&
            std::find(ordered.begin(), ordered.end(), name) == ordered.end())
            ordered.push_back(name);
    }
    return ordered;
}

void dynamic_value_error(const TraceState& t, const std::string& message, const Value& v) {
    std::vector<std::string> names = params_behind(t, v);
    std::string msg = message;
    if (!names.empty()) {
        std::string list, tuple;
        for (size_t i = 0; i < names.size(); ++i) {
            list += (i ? (i + 1 == names.size() ? " and " : ", ") : "") + ("`" + names[i] + "`");
            tuple += (i ? ", " : "") + ("\"" + names[i] + "\"");
        }
        if (names.size() == 1) tuple += ",";
        msg += "; it comes from the argument" + std::string(names.size() > 1 ? "s " : " ") + list + " of `" +
               t.graph.name() + "`: declare @graph(static=(" + tuple + ")) to trace with " +
               (names.size() > 1 ? "their values" : "its value") + " known";
    }
    dynamic_value_error(msg);
}

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
    if (v.is(Kind::Dict)) {  // as dict_str in printing.cpp
        const DictObj& d = v.dict();
        text(out, "{");
        for (size_t i = 0; i < d.size(); ++i) {
            text(out, (i ? ", " : "") + key_repr(d.keys()[i]) + ": ");
            append_str(t, out, operands, d.values()[i], false, true);
        }
        text(out, "}");
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

void TraceState::read_size(const Value& x, int axis, lang::Loc at, const lang::SourcePtr& src) {
    if (const SymObj* sym = x.sym()) size_reads.push_back({sym->id, axis, at, src ? src : source});
}

}  // namespace tg::interp
