// The AST of a tg program (docs/language.md). Every node carries its source
// location, per docs/language.md "Errors": an operation at its operator token, a call at the
// start of the callee's name, an index at its `[`, a statement at its first
// token.
//
// Nodes are plain structs with a kind tag, so the evaluator switches on the
// kind (no virtual dispatch per node) and casts with `as<T>()`.
// The resolver in interp/ fills the `Name::slot` annotations after parsing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lang/source.hpp"

namespace tg::lang {

// ---------------------------------------------------------------- expressions

enum class ExprKind : uint8_t {
    Name, Int, Float, Str, FString, Bool, NoneLit, Ellipsis,
    Unary, Binary, BoolOp, Compare, IfExp,
    Call, Attribute, Index, Slice,
    List, Tuple, Lambda, ListComp,
    Dict, Set, Starred,
};

enum class UnaryOp : uint8_t { Neg, Pos, Not, Invert };
enum class BinOp : uint8_t { Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, BitAnd, BitOr, BitXor, LShift, RShift };
enum class CmpOp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, In, NotIn, Is, IsNot };
// `in` / `not in` (membership) and `is` / `is not` (identity with None).
inline bool is_membership(CmpOp op) { return op == CmpOp::In || op == CmpOp::NotIn; }
inline bool is_identity(CmpOp op) { return op == CmpOp::Is || op == CmpOp::IsNot; }

const char* to_string(UnaryOp op);   // "-", "+", "not", "~"
const char* to_string(BinOp op);     // "+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>"
const char* to_string(CmpOp op);     // "==", ...

struct Expr {
    ExprKind kind;
    // Facts the interpreter works out about this node once and keeps (bits
    // it defines; 0: none yet). Read and written with std::atomic_ref.
    mutable uint8_t cached_facts = 0;
    Loc loc;
    explicit Expr(ExprKind k, Loc l = {}) : kind(k), loc(l) {}
    virtual ~Expr() = default;
    template <class T> T& as() { return static_cast<T&>(*this); }
    template <class T> const T& as() const { return static_cast<const T&>(*this); }
};
using ExprPtr = std::unique_ptr<Expr>;

// Code the interpreter compiles for an expression once, when it resolves
// names (interp/scalar_code.hpp: pure scalar arithmetic as a flat program).
// Owned by the node; opaque to lang/.
struct ExprCode {
    virtual ~ExprCode() = default;
};

// How a Name was resolved (filled by interp's resolver; the parser leaves Unresolved).
enum class Scope : uint8_t { Unresolved, Local, Enclosing, Global, Builtin };

struct Name : Expr {
    std::string id;
    Scope scope = Scope::Unresolved;
    int32_t slot = -1;   // local slot, or index into the enclosing/global table
    uint16_t depth = 0;  // for Enclosing: how many function levels out
    // Named in a `global` / `nonlocal` statement of the function this use is
    // in: it may be assigned and changed there (docs/language.md "Scopes").
    bool declared_outer = false;
    Name(std::string i, Loc l) : Expr(ExprKind::Name, l), id(std::move(i)) {}
};

struct IntLit : Expr {  // 42, 1_000_000 (value fits in int64; larger is a syntax error)
    int64_t value;
    IntLit(int64_t v, Loc l) : Expr(ExprKind::Int, l), value(v) {}
};
struct FloatLit : Expr {  // 1.0 .5 2. 1e-3 — the exact double nearest the literal
    double value;
    FloatLit(double v, Loc l) : Expr(ExprKind::Float, l), value(v) {}
};
struct StrLit : Expr {  // escapes already decoded
    std::string value;
    // The interpreter's value of the literal, made at its first evaluation
    // and shared by every later one (interp's Evaluator::str_literal).
    mutable std::unique_ptr<ExprCode> made;
    StrLit(std::string v, Loc l) : Expr(ExprKind::Str, l), value(std::move(v)) {}
};
struct BoolLit : Expr {
    bool value;
    BoolLit(bool v, Loc l) : Expr(ExprKind::Bool, l), value(v) {}
};
struct NoneLit : Expr {
    explicit NoneLit(Loc l) : Expr(ExprKind::NoneLit, l) {}
};
struct EllipsisLit : Expr {  // `...` inside an index
    explicit EllipsisLit(Loc l) : Expr(ExprKind::Ellipsis, l) {}
};

// f"step {i}: {loss:.4f}". Parts alternate freely between literal text and
// replacement fields; `{{` / `}}` are already decoded into text.
struct FStringPart {
    std::string text;   // literal text, used when expr is null
    ExprPtr expr;       // a replacement field
    std::string spec;   // format spec after ':' ("" if none), e.g. ".4f", ">8"
};
struct FString : Expr {
    std::vector<FStringPart> parts;
    explicit FString(Loc l) : Expr(ExprKind::FString, l) {}
};

struct Unary : Expr {  // loc: the operator token
    UnaryOp op;
    ExprPtr operand;
    Unary(UnaryOp o, ExprPtr e, Loc l) : Expr(ExprKind::Unary, l), op(o), operand(std::move(e)) {}
};
struct Binary : Expr {  // loc: the operator token
    BinOp op;
    ExprPtr lhs, rhs;
    std::unique_ptr<ExprCode> code;  // filled by interp's resolver; may be null
    Binary(BinOp o, ExprPtr a, ExprPtr b, Loc l)
        : Expr(ExprKind::Binary, l), op(o), lhs(std::move(a)), rhs(std::move(b)) {}
};
struct BoolOp : Expr {  // `a and b`, `a or b`; loc: the keyword. `a and b and c` nests left.
    bool is_and;
    ExprPtr lhs, rhs;
    BoolOp(bool a, ExprPtr x, ExprPtr y, Loc l)
        : Expr(ExprKind::BoolOp, l), is_and(a), lhs(std::move(x)), rhs(std::move(y)) {}
};
// a < b <= c: first = a, ops = {Lt, Le}, rest = {b, c}, op_locs = locations of `<` and `<=`.
// loc: the first operator.
struct Compare : Expr {
    ExprPtr first;
    std::vector<CmpOp> ops;
    std::vector<ExprPtr> rest;
    std::vector<Loc> op_locs;
    std::unique_ptr<ExprCode> code;  // filled by interp's resolver; may be null
    explicit Compare(Loc l) : Expr(ExprKind::Compare, l) {}
};
struct IfExp : Expr {  // then_ if cond else else_; loc: the `if` keyword
    ExprPtr cond, then_, else_;
    IfExp(ExprPtr c, ExprPtr t, ExprPtr e, Loc l)
        : Expr(ExprKind::IfExp, l), cond(std::move(c)), then_(std::move(t)), else_(std::move(e)) {}
};

struct Keyword {
    std::string name;
    ExprPtr value;
    Loc loc;  // the keyword's name; for `**d`, the `**`
    bool unpack = false;  // `**d`: the entries of the dict d as keywords (name is empty)
};
// f(a, b, k=v). loc: the start of the callee's name (for `x.f(...)`, the `f`).
// `f(*xs, **d)` (docs/language.md "Calls"): args may hold Starred nodes, keywords `**` entries.
struct Call : Expr {
    ExprPtr callee;
    std::vector<ExprPtr> args;
    std::vector<Keyword> keywords;
    bool unpacks = false;  // a Starred among args or an `unpack` keyword
    explicit Call(Loc l) : Expr(ExprKind::Call, l) {}
};
// `*xs` among a call's arguments: the items of xs as positional arguments. loc: the `*`.
struct Starred : Expr {
    ExprPtr value;
    Starred(ExprPtr v, Loc l) : Expr(ExprKind::Starred, l), value(std::move(v)) {}
};
struct Attribute : Expr {  // value.attr; loc: the attribute name
    ExprPtr value;
    std::string attr;
    std::unique_ptr<ExprCode> code;  // a method call's: filled by interp's resolver; may be null
    Attribute(ExprPtr v, std::string a, Loc l) : Expr(ExprKind::Attribute, l), value(std::move(v)), attr(std::move(a)) {}
};
// value[i], value[i, 1:3, ...]. `indices` holds one entry per comma-separated
// item (Slice and EllipsisLit nodes allowed there); `is_tuple` is true when a
// comma was written (x[1,] differs from x[1] as in Python). loc: the `[`.
struct Index : Expr {
    ExprPtr value;
    std::vector<ExprPtr> indices;
    bool is_tuple = false;
    explicit Index(Loc l) : Expr(ExprKind::Index, l) {}
};
struct Slice : Expr {  // lo:hi:step, each part may be null; loc: the first ':' (or lo's start)
    ExprPtr lo, hi, step;
    explicit Slice(Loc l) : Expr(ExprKind::Slice, l) {}
};
struct ListExpr : Expr {  // [a, b]
    std::vector<ExprPtr> elts;
    explicit ListExpr(Loc l) : Expr(ExprKind::List, l) {}
};
struct TupleExpr : Expr {  // (a, b), a, b, (a,), ()
    std::vector<ExprPtr> elts;
    explicit TupleExpr(Loc l) : Expr(ExprKind::Tuple, l) {}
};
struct DictExpr : Expr {  // {k: v, ...}; keys[i] maps to values[i]. loc: the `{`
    std::vector<ExprPtr> keys, values;
    explicit DictExpr(Loc l) : Expr(ExprKind::Dict, l) {}
};
struct SetExpr : Expr {  // {a, b} (docs/language.md "Sets"); `{}` is a dict. loc: the `{`
    std::vector<ExprPtr> elts;
    explicit SetExpr(Loc l) : Expr(ExprKind::Set, l) {}
};

// How a parameter takes its argument (docs/language.md "Calls"): by position
// or keyword; by keyword only (after `*args` or a bare `*`); `*args` (the
// extra positional arguments, a tuple); `**kwargs` (the extra keywords, a dict).
enum class ParamForm : uint8_t { Plain, KeywordOnly, VarArgs, VarKeywords };
struct Param {
    std::string name;
    ExprPtr default_value;  // null if none
    Loc loc;
    ParamForm form = ParamForm::Plain;
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

// Function-level facts the resolver in interp/ fills in (number of local
// slots, captured names...). Opaque to lang/.
struct FunctionInfo {
    virtual ~FunctionInfo() = default;
};

struct Lambda : Expr {  // lambda a, b=1: expr; loc: the `lambda` keyword
    std::vector<Param> params;
    ExprPtr body;
    std::unique_ptr<FunctionInfo> info;
    explicit Lambda(Loc l) : Expr(ExprKind::Lambda, l) {}
};
// A `for target in iter [if cond]` clause after a comprehension's first.
struct CompClause {
    ExprPtr target, iter, cond;  // cond may be null
};
// [elt for target in iter if cond]; target is a Name or a TupleExpr of Names.
// loc: the `[`. Python 3 semantics: the targets are local to the comprehension.
// A dict comprehension {key: elt for ...} is the same node with `key` set
// (loc: the `{`), a set comprehension {elt for ...} with `is_set`: all share
// one scope and one evaluation. Further clauses
// (`[a * b for a in xs for b in ys if a != b]`) nest in order, as Python's:
// each one's iterable is evaluated inside, for every item of the ones before.
struct ListComp : Expr {
    ExprPtr elt, target, iter, cond;  // the first clause; cond may be null
    std::vector<CompClause> more;     // the clauses after it
    ExprPtr key;                      // null for a list comprehension
    bool is_set = false;              // {elt for ...}
    std::unique_ptr<FunctionInfo> info;
    explicit ListComp(Loc l) : Expr(ExprKind::ListComp, l) {}
};

// ---------------------------------------------------------------- statements

enum class StmtKind : uint8_t {
    Expr, Assign, AugAssign, If, While, For, Break, Continue, Pass, Return,
    Assert, FunctionDef, Import, Delete, Global,
};

struct Stmt {
    StmtKind kind;
    Loc loc;  // the first token
    explicit Stmt(StmtKind k, Loc l) : kind(k), loc(l) {}
    virtual ~Stmt() = default;
    template <class T> T& as() { return static_cast<T&>(*this); }
    template <class T> const T& as() const { return static_cast<const T&>(*this); }
};

struct ExprStmt : Stmt {
    ExprPtr expr;
    ExprStmt(ExprPtr e, Loc l) : Stmt(StmtKind::Expr, l), expr(std::move(e)) {}
};
// target = value. target: Name, Index, or a TupleExpr/ListExpr of targets
// (a, b = ...; nested allowed). `a = b = c` is parsed as targets {a, b}.
struct Assign : Stmt {
    std::vector<ExprPtr> targets;
    ExprPtr value;
    Loc eq_loc;  // the first '='
    Assign(Loc l) : Stmt(StmtKind::Assign, l) {}
};
struct AugAssign : Stmt {  // target op= value; target: Name or Index. op_loc: the `+=` token
    ExprPtr target;
    BinOp op;
    ExprPtr value;
    Loc op_loc;
    AugAssign(Loc l) : Stmt(StmtKind::AugAssign, l) {}
};
// if/elif/else: an `elif` is an If inside orelse (with its own loc at `elif`).
struct If : Stmt {
    ExprPtr cond;
    Block body, orelse;
    If(Loc l) : Stmt(StmtKind::If, l) {}
};
struct While : Stmt {
    ExprPtr cond;
    Block body;
    While(Loc l) : Stmt(StmtKind::While, l) {}
};
struct For : Stmt {  // for target in iter: body; target: a Name or a TupleExpr of targets
    ExprPtr target, iter;
    Block body;
    For(Loc l) : Stmt(StmtKind::For, l) {}
};
struct Break : Stmt { explicit Break(Loc l) : Stmt(StmtKind::Break, l) {} };
struct Continue : Stmt { explicit Continue(Loc l) : Stmt(StmtKind::Continue, l) {} };
struct Pass : Stmt { explicit Pass(Loc l) : Stmt(StmtKind::Pass, l) {} };
struct Return : Stmt {
    ExprPtr value;  // null for a bare `return`
    explicit Return(Loc l) : Stmt(StmtKind::Return, l) {}
};
struct Assert : Stmt {
    ExprPtr cond, msg;  // msg may be null
    explicit Assert(Loc l) : Stmt(StmtKind::Assert, l) {}
};
// @decorator ... def name(params): body. loc: the `def` keyword; name_loc: the name.
struct FunctionDef : Stmt {
    std::string name;
    Loc name_loc;
    std::vector<Param> params;
    std::vector<ExprPtr> decorators;  // in source order; applied bottom-up
    Block body;
    std::unique_ptr<FunctionInfo> info;
    explicit FunctionDef(Loc l) : Stmt(StmtKind::FunctionDef, l) {}
};
struct Import : Stmt {  // import util [as u]; module may be dotted? No: one name (docs/language.md).
    std::string module;
    std::string alias;  // == module when no `as`
    Loc module_loc;
    explicit Import(Loc l) : Stmt(StmtKind::Import, l) {}
};

// del a, xs[i], xs[a:b], d[k] (docs/language.md "del"). Each target: a Name,
// an Index, or a TupleExpr/ListExpr of targets. loc: the `del` word.
struct Delete : Stmt {
    std::vector<ExprPtr> targets;
    explicit Delete(Loc l) : Stmt(StmtKind::Delete, l) {}
};
// global a, b / nonlocal a, b (docs/language.md "Scopes"). loc: the keyword;
// name_locs[i] is where names[i] is written.
struct Global : Stmt {
    bool is_nonlocal = false;
    std::vector<std::string> names;
    std::vector<Loc> name_locs;
    explicit Global(Loc l) : Stmt(StmtKind::Global, l) {}
};

struct Module {
    SourcePtr source;
    Block body;
    std::unique_ptr<FunctionInfo> info;  // module-level resolution facts
};

}  // namespace tg::lang
