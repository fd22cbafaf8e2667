#include "interp/values/printing.hpp"

#include "interp/tracing/graph_value.hpp"

#include "stdlib/budget.hpp"
#include "interp/values/dict.hpp"
#include "interp/values/set.hpp"
#include "interp/runtime.hpp"
#include "stdlib/format.hpp"

namespace tg::interp {

std::string quote(std::string_view s) {
    char q = (s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos) ? '"' : '\'';
    std::string out(1, q);
    for (char c : s) {
        switch (c) {
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        case '\\': out += "\\\\"; break;
        default:
            if (c == q) {
                out += '\\';
                out += c;
            } else if ((c >= 0 && c < 0x20) || c == 0x7f) {  // the other control characters, as Python's \x0b
                out += "\\x";
                out += "0123456789abcdef"[(c >> 4) & 0xf];
                out += "0123456789abcdef"[c & 0xf];
            } else {
                out += c;
            }
        }
    }
    out += q;
    return out;
}

namespace {

std::string seq_str(const Value& v) {
    const auto& items = v.items();
    bool list = v.is(Kind::List);
    std::string out = list ? "[" : "(";
    for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += ", ";
        stdlib::poll_limits();  // str of a huge (or deeply shared) list is long work: the interrupt and deadline act
        out += element_str(items[i]);
    }
    if (!list && items.size() == 1) out += ",";
    out += list ? "]" : ")";
    return out;
}

// {'w': 1.0, 'b': [1, 2]}, as Python prints a dict.
std::string dict_str(const DictObj& d) {
    std::string out = "{";
    for (size_t i = 0; i < d.size(); ++i) {
        if (i) out += ", ";
        stdlib::poll_limits();
        out += key_repr(d.keys()[i]) + ": " + element_str(d.values()[i]);
    }
    return out + "}";
}

}  // namespace

std::string element_str(const Value& v) {
    if (v.is(Kind::Str)) return quote(v.text());
    if (v.is(Kind::Graph)) return graph_repr(v.graph());
    return str_of(v);
}

std::string str_of(const Value& v) {
    switch (v.kind()) {
    case Kind::Undefined: return "<undefined>";
    case Kind::None: return "None";
    case Kind::Tensor:
        // (an int's digits without a tensor made: f-strings and str() of counters)
        if (const Scalar* s = v.scalar(); s && stdlib::is_int(s->dtype)) return std::to_string(s->i);
        return stdlib::to_str(v.tensor());
    case Kind::List: case Kind::Tuple: return seq_str(v);
    case Kind::Str: return v.text();
    case Kind::Function: return "<function " + v.function().name + ">";
    case Kind::Builtin: return "<function " + v.builtin().name + ">";
    case Kind::DType: return stdlib::dtype_name(v.dtype());
    case Kind::Module: return "<module " + v.module()->name + ">";
    case Kind::BoundMethod: return "<function " + str_of(v.bound().fn).substr(10);
    case Kind::Dict: return dict_str(v.dict());
    case Kind::Set: return set_str(v.set());
    case Kind::Graph: return graph_str(v.graph());
    case Kind::Spec: return tracer::spec_repr(v.spec().spec);
    }
    return "?";
}

std::string repr_of(const Value& v) {
    if (v.is_tensor()) return stdlib::to_repr(v.tensor());
    if (v.is(Kind::Str)) return quote(v.text());
    if (v.is(Kind::Graph)) return graph_repr(v.graph());
    return str_of(v);
}

std::string format_value(const Value& v, std::string_view spec) {
    if (spec.empty()) return str_of(v);
    if (v.is_tensor()) return stdlib::format_tensor(v.tensor(), spec);
    return stdlib::format_string(str_of(v), spec);
}

}  // namespace tg::interp
