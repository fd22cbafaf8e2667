#include "lsp/types.hpp"

#include <algorithm>
#include <climits>

#include "stdlib/dtype.hpp"
#include "stdlib/errors.hpp"

namespace tg::lsp {

using namespace lang;
using stdlib::TensorType;

namespace {

const char* kind_name(StaticType::Kind k) {
    switch (k) {
    case StaticType::Int: return "int";
    case StaticType::Float: return "float";
    case StaticType::Bool: return "bool";
    case StaticType::Str: return "str";
    case StaticType::None: return "None";
    case StaticType::List: return "list";
    case StaticType::Tuple: return "tuple";
    case StaticType::Dict: return "dict";
    case StaticType::Function: return "function";
    case StaticType::Module: return "module";
    case StaticType::DType: return "dtype";
    default: return "";
    }
}

std::string tensor_text(const TensorType& t) {
    std::string s = std::string(stdlib::dtype_name(t.dtype)) + "[";
    for (int i = 0; i < t.shape.rank(); ++i) s += (i ? ", " : "") + std::to_string(t.shape[i]);
    return s + "]";
}

StaticType number(StaticType::Kind kind, stdlib::DType dtype) {
    StaticType t;
    t.kind = kind;
    t.converts = true;
    t.tensor = {dtype, {}, true};  // a Python number is a weak 0-d operand (docs/language.md "Values")
    return t;
}

const char* op_name(BinOp op) {
    switch (op) {
    case BinOp::Add: return "add";
    case BinOp::Sub: return "sub";
    case BinOp::Mul: return "mul";
    case BinOp::Div: return "div";
    case BinOp::FloorDiv: return "floordiv";
    case BinOp::Mod: return "mod";
    case BinOp::Pow: return "pow";
    case BinOp::MatMul: return "matmul";
    case BinOp::BitAnd: return "bitand";
    case BinOp::BitOr: return "bitor";
    case BinOp::BitXor: return "bitxor";
    case BinOp::LShift: return "left_shift";
    case BinOp::RShift: return "right_shift";
    }
    return "";
}

}  // namespace

std::string StaticType::describe() const {
    if (kind == Tensor) return tensor_text(tensor);
    if (kind == Int && int_value) return "int = " + std::to_string(*int_value);
    if ((kind == Tuple || kind == List) && ints) {
        std::string s = std::string(kind_name(kind)) + " " + (kind == Tuple ? "(" : "[");
        for (size_t i = 0; i < ints->size(); ++i) s += (i ? ", " : "") + std::to_string((*ints)[i]);
        return s + (kind == Tuple ? (ints->size() == 1 ? ",)" : ")") : "]");
    }
    if (kind == DType) return std::string("dtype ") + stdlib::dtype_name(dtype);
    return kind_name(kind);
}

StaticType Types::of_symbol(int symbol) {
    if (symbol < 0) return {};
    if (auto it = symbols_.find(symbol); it != symbols_.end()) return it->second;
    const Symbol& s = ix_.symbols()[size_t(symbol)];
    StaticType out;
    if (s.kind == SymbolKind::Function) out.kind = StaticType::Function;
    if (s.kind == SymbolKind::Module) out.kind = StaticType::Module;
    // a variable: known when every definition is `name = value` and all give one type
    bool simple = s.kind == SymbolKind::Variable && !s.values.empty() && s.values.size() == s.defs.size();
    for (DefKind k : s.def_kinds) simple = simple && k == DefKind::Assign;
    if (simple && !busy_[symbol]) {
        busy_[symbol] = true;
        out = of(*s.values[0], s.scope);
        for (size_t i = 1; i < s.values.size() && out.known(); ++i)
            if (of(*s.values[i], s.scope).describe() != out.describe()) out = {};
        busy_[symbol] = false;
    }
    if (!busy_[symbol]) symbols_[symbol] = out;
    return out;
}

StaticType Types::sequence(const std::vector<ExprPtr>& elts, int scope, StaticType::Kind kind) {
    StaticType t;
    t.kind = kind;
    std::vector<int64_t> ints;
    std::vector<StaticType> items;
    for (const ExprPtr& e : elts) {
        items.push_back(e ? of(*e, scope) : StaticType{});
        if (items.back().int_value && items.back().kind == StaticType::Int) ints.push_back(*items.back().int_value);
    }
    if (ints.size() == elts.size()) t.ints = ints;
    // nested numbers: what tensor(data) makes of them (stdlib::tensor_from_nested)
    bool same = !items.empty(), any_float = false, all_bool = true;
    for (const StaticType& i : items) {
        same = same && i.converts && i.tensor.shape == items[0].tensor.shape;
        any_float = any_float || stdlib::is_float(i.tensor.dtype);
        all_bool = all_bool && i.tensor.dtype == stdlib::DType::Bool;
    }
    if (same) {
        t.converts = true;
        t.tensor.shape.push_back(static_cast<int64_t>(items.size()));
        for (int64_t d : items[0].tensor.shape) t.tensor.shape.push_back(d);
        t.tensor.dtype = any_float ? stdlib::DType::F32 : all_bool ? stdlib::DType::Bool : stdlib::DType::I64;
    }
    return t;
}

StaticType Types::of(const Expr& e, int scope) {
    try {
        switch (e.kind) {
        case ExprKind::Int: {
            StaticType t = number(StaticType::Int, stdlib::DType::I64);
            t.int_value = e.as<IntLit>().value;
            return t;
        }
        case ExprKind::Float: return number(StaticType::Float, stdlib::DType::F32);
        case ExprKind::Bool: {
            StaticType t = number(StaticType::Bool, stdlib::DType::Bool);
            t.int_value = e.as<BoolLit>().value;
            return t;
        }
        case ExprKind::Str: case ExprKind::FString: return StaticType::of_kind(StaticType::Str);
        case ExprKind::NoneLit: return StaticType::of_kind(StaticType::None);
        case ExprKind::Dict: return StaticType::of_kind(StaticType::Dict);
        case ExprKind::ListComp:
            if (e.as<ListComp>().is_set) return {};  // (sets have no static type here)
            return StaticType::of_kind(e.as<ListComp>().key ? StaticType::Dict : StaticType::List);
        case ExprKind::Lambda: return StaticType::of_kind(StaticType::Function);
        case ExprKind::List: return sequence(e.as<ListExpr>().elts, scope, StaticType::List);
        case ExprKind::Tuple: return sequence(e.as<TupleExpr>().elts, scope, StaticType::Tuple);
        case ExprKind::Unary: {
            const auto& u = e.as<Unary>();
            StaticType t = u.operand ? of(*u.operand, scope) : StaticType{};
            if (u.op == UnaryOp::Neg && t.int_value && t.kind == StaticType::Int)
                t.int_value = *t.int_value == INT64_MIN ? std::nullopt : std::optional<int64_t>(-*t.int_value);
            else if (u.op != UnaryOp::Pos && t.kind != StaticType::Tensor) t = {};
            return t;
        }
        case ExprKind::Binary: return binary(e.as<Binary>(), scope);
        case ExprKind::Attribute: return attribute(e.as<Attribute>(), scope);
        case ExprKind::Call: return call(e.as<Call>(), scope);
        case ExprKind::Name: {
            const std::string& id = e.as<Name>().id;
            const int sym = ix_.lookup(id, scope);
            if (sym >= 0) return of_symbol(sym);
            if (auto d = stdlib::dtype_from_name(id)) {
                StaticType t = StaticType::of_kind(StaticType::DType);
                t.dtype = *d;
                return t;
            }
            return {};
        }
        default: return {};
        }
    } catch (const stdlib::OpError&) {
        return {};  // a shape past the rank limit: unknown
    }
}

StaticType Types::binary(const Binary& b, int scope) {
    if (!b.lhs || !b.rhs) return {};
    const StaticType l = of(*b.lhs, scope), r = of(*b.rhs, scope);
    if (l.kind == StaticType::Int && r.kind == StaticType::Int && l.int_value && r.int_value) {
        StaticType t = l;
        // what the program would compute, when it fits (an overflow is the run's to report)
        const int64_t x = *l.int_value, y = *r.int_value;
        int64_t v = 0;
        bool ok = false;
        switch (b.op) {
        case BinOp::Add: ok = !__builtin_add_overflow(x, y, &v); break;
        case BinOp::Sub: ok = !__builtin_sub_overflow(x, y, &v); break;
        case BinOp::Mul: ok = !__builtin_mul_overflow(x, y, &v); break;
        case BinOp::FloorDiv:
            ok = y != 0 && !(x == INT64_MIN && y == -1);
            if (ok) v = x / y - ((x % y != 0 && (x < 0) != (y < 0)) ? 1 : 0);  // floors, as Python's //
            break;
        default: break;
        }
        if (!ok) return {};
        t.int_value = v;
        return t;
    }
    if (l.kind != StaticType::Tensor && r.kind != StaticType::Tensor) return {};
    if (!(l.kind == StaticType::Tensor || l.converts) || !(r.kind == StaticType::Tensor || r.converts)) return {};
    const stdlib::OpDef* op = stdlib::find_op(op_name(b.op));
    if (!op) return {};
    return apply(*op, {l.tensor, r.tensor}, std::vector<stdlib::Attr>(op->params.size()), b.loc,
                 static_cast<uint32_t>(std::string_view(to_string(b.op)).size()));
}

// A tensor's attributes (docs/language.md "Tensor, list and string methods").
StaticType Types::attribute(const Attribute& a, int scope) {
    const StaticType r = a.value ? of(*a.value, scope) : StaticType{};
    if (r.kind != StaticType::Tensor) return {};
    const auto& dims = r.tensor.shape.dims();
    StaticType t;
    if (a.attr == "shape") {
        t = StaticType::of_kind(StaticType::Tuple);
        t.ints = std::vector<int64_t>(dims.begin(), dims.end());
    } else if (a.attr == "ndim" || a.attr == "size") {
        t = number(StaticType::Int, stdlib::DType::I64);
        t.int_value = a.attr == "ndim" ? r.tensor.shape.rank() : r.tensor.shape.numel();
    } else if (a.attr == "dtype") {
        t = StaticType::of_kind(StaticType::DType);
        t.dtype = r.tensor.dtype;
    } else if (a.attr == "T" && ops_.count("transpose")) {
        const stdlib::OpDef& op = *ops_.at("transpose");
        std::vector<stdlib::Attr> attrs(1);  // x; the others take their defaults
        stdlib::complete_attrs(op, attrs);
        return apply(op, {r.tensor}, std::move(attrs), a.loc, 1);
    }
    return t;
}

StaticType Types::apply(const stdlib::OpDef& op, std::vector<TensorType> inputs, std::vector<stdlib::Attr> attrs,
                        Loc loc, uint32_t length, bool report) {
    try {
        StaticType t = StaticType::of_kind(StaticType::Tensor);
        t.tensor = op.infer(stdlib::TypeArgs{inputs, attrs});
        return t;
    } catch (const stdlib::OpError& e) {
        if (report) problems_.push_back({nullptr, loc, length, e.what()});
        return {};
    }
}

std::vector<ShapeProblem> Types::problems() {
    problems_.clear();
    for (const Symbol& s : ix_.symbols())
        for (const Expr* v : s.values) (void)of(*v, s.scope);
    for (const CallSite& c : ix_.calls()) (void)of(*c.call, c.scope);
    std::vector<ShapeProblem> out;
    for (ShapeProblem& p : problems_) {
        bool seen = false;
        for (const ShapeProblem& o : out) seen = seen || (o.loc == p.loc && o.message == p.message);
        if (!seen) out.push_back(std::move(p));
    }
    return out;
}

}  // namespace tg::lsp
