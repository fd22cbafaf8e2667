#include "tracer/carried_merge.hpp"

namespace tg::tracer {

using stdlib::TensorType;

std::optional<TensorType> join(const TensorType& a, const TensorType& b) {
    if (!(a.shape == b.shape)) return std::nullopt;
    if (a.dtype == b.dtype) return TensorType{a.dtype, a.shape, a.weak && b.weak};
    if (a.weak == b.weak) return std::nullopt;
    const TensorType& w = a.weak ? a : b;
    const TensorType& s = a.weak ? b : a;
    const bool same_kind = (stdlib::is_int(w.dtype) && stdlib::is_int(s.dtype)) ||
                           (stdlib::is_float(w.dtype) && stdlib::is_float(s.dtype));
    if (!same_kind) return std::nullopt;
    return TensorType{s.dtype, s.shape, false};
}

namespace {

// "i32" / "i64 (an int literal)".
std::string dtype_desc(const TensorType& t) {
    std::string s = stdlib::dtype_name(t.dtype);
    if (t.weak) s += stdlib::is_float(t.dtype) ? " (a float literal)" : " (an int literal)";
    return s;
}

// What to write instead, when an int literal meets a float tensor (`s = 0`
// before `s = s + x`): eager would print the literal as `0`, the graph as `0.0`.
std::string literal_hint(const TensorType& a, const TensorType& b) {
    const TensorType& w = a.weak ? a : b;
    const TensorType& s = a.weak ? b : a;
    if (a.weak != b.weak && stdlib::is_int(w.dtype) && stdlib::is_float(s.dtype))
        return "; write the int literal as a float (`1.0` for `1`) so that every path gives a float";
    return "";
}

// "has <noun> A in one branch and B in the other" / "changes <noun> from A to B"
std::string differs(const std::string& noun, const Mismatch& m, MergeSite site) {
    if (site == MergeSite::Branches) return "has " + noun + m.a + " in one branch and " + m.b + " in the other";
    return "changes " + noun + "from " + m.a + " to " + m.b;
}

}  // namespace

Mismatch type_mismatch(const TensorType& a, const TensorType& b) {
    if (a.dtype != b.dtype) return {Mismatch::DType, dtype_desc(a), dtype_desc(b), literal_hint(a, b)};
    return {Mismatch::Shape, a.shape.to_string(), b.shape.to_string(), ""};
}

std::string mismatch_message(const std::string& var, const Mismatch& m, MergeSite site, const std::string& where) {
    const bool branches = site == MergeSite::Branches;
    const char* dict_hint = branches ? "; a dict must have the same keys, in the same order, on both paths"
                                     : "; a dict carried around a loop must keep its keys";
    std::string text, hint = m.hint;
    switch (m.what) {
    case Mismatch::Kind:
        text = branches ? "is " + m.a + " in one branch and " + m.b + " in the other" : "changes from " + m.a + " to " + m.b;
        break;
    case Mismatch::Length: text = differs("length ", m, site); break;
    case Mismatch::Key:
        text = branches ? "has the key " + m.a + " in one branch but not in the other"
                        : std::string(m.b == "first" ? "loses" : "gains") + " the key " + m.a;
        hint = dict_hint;
        break;
    case Mismatch::KeyOrder:
        text = branches ? "has the keys in the order " + m.a + " in one branch and " + m.b + " in the other"
                        : "changes the order of its keys from " + m.a + " to " + m.b;
        hint = dict_hint;
        break;
    case Mismatch::Value: text = branches ? differs("the value ", m, site) : differs("", m, site); break;
    case Mismatch::DType: text = differs("dtype ", m, site); break;
    case Mismatch::Shape: text = differs("shape ", m, site); break;
    }
    return "`" + var + "` " + text + where + hint;
}

}  // namespace tg::tracer
