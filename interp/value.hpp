// Values of SPEC §2, with value semantics.
//
// A Value is a tagged variant. Tensors are held inline (a 0-d tensor keeps its
// element inline too, so scalar arithmetic allocates nothing); every other
// kind is a pointer to an immutable, reference-counted object. "Mutation"
// (xs.append(v), x[i] = v) goes through the *_mut accessors, which copy the
// object first when it is shared: copy-on-write, so `ys = xs; xs.append(3)`
// leaves ys alone.
//
// Seam for the tracer: a tensor held by a Value may later be *symbolic* (a
// graph value id + dtype + shape). That will be one more alternative of the
// variant (Kind::Symbolic); every tensor operation already goes through
// interp/dispatch.hpp, which is where "any symbolic operand -> append a graph
// node" goes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lang/ast.hpp"
#include "stdlib/tensor.hpp"

namespace tg::interp {

class Value;
struct ModuleState;
struct FunctionFacts;
struct Env;
class Runtime;

enum class Kind : uint8_t {
    Undefined,  // an unassigned variable slot; never visible to tg code
    None, Tensor, List, Tuple, Str, Function, Builtin, DType, Module, BoundMethod,
};
const char* kind_name(Kind k);  // what type(x) returns: "tensor", "list", ...

struct NoneT {};
struct UndefinedT {};

struct ListObj { std::vector<Value> items; };
struct TupleObj { std::vector<Value> items; };
struct StrObj { std::string text; };

// A user function (def or lambda): code from the AST plus what it closed over.
struct FunctionObj {
    std::string name;                           // "<lambda>" for lambdas
    const std::vector<lang::Param>* params = nullptr;
    const lang::Block* body = nullptr;          // def
    const lang::Expr* expr_body = nullptr;      // lambda
    const lang::FunctionInfo* info = nullptr;   // the resolver's facts (slots)
    std::vector<Value> defaults;                // one per param; Undefined = required
    std::shared_ptr<Env> env;                   // the enclosing function's frame (lexical)
    ModuleState* module = nullptr;              // globals; owned by the Runtime
    bool is_graph = false;                      // decorated with @graph: the tracer takes over
                                                // calls of such functions (eager for now)
};

// Arguments of a call as the callee sees them.
struct KwArg {
    std::string_view name;
    lang::Loc loc;
};
struct CallArgs {
    std::span<const Value> positional;
    std::span<const Value> keyword_values;
    std::span<const KwArg> keywords;  // same length as keyword_values
    lang::Loc loc;                    // the call site (start of the callee's name)
};

// A builtin: a host builtin (print, len...), a stdlib op, or a host function
// defined through the embedding API.
using BuiltinFn = std::function<Value(Runtime&, const CallArgs&)>;
struct BuiltinObj {
    std::string name;
    BuiltinFn fn;
    const void* op = nullptr;  // the stdlib::OpDef* when this builtin is a tensor op
};

// `x.f` for a builtin f, not yet called: calling it passes x first.
struct BoundMethodObj;

class Value {
public:
    Value() : v_(UndefinedT{}) {}
    Value(stdlib::Tensor t) : v_(std::move(t)) {}  // NOLINT: implicit on purpose
    Value(stdlib::DType d) : v_(d) {}               // NOLINT
    static Value none() { Value v; v.v_ = NoneT{}; return v; }
    static Value list(std::vector<Value> items);
    static Value tuple(std::vector<Value> items);
    static Value str(std::string text);
    static Value function(std::shared_ptr<const FunctionObj> f);
    static Value builtin(std::shared_ptr<const BuiltinObj> b);
    static Value module(ModuleState* m);
    static Value bound(Value self, Value fn);
    static Value from_bool(bool b) { return Value(stdlib::Tensor::scalar(b)); }
    static Value from_int(int64_t i) { return Value(stdlib::Tensor::scalar(i)); }

    Kind kind() const { return static_cast<Kind>(v_.index()); }
    bool is(Kind k) const { return kind() == k; }
    bool defined() const { return kind() != Kind::Undefined; }
    bool is_tensor() const { return kind() == Kind::Tensor; }
    bool is_sequence() const { return kind() == Kind::List || kind() == Kind::Tuple; }

    const stdlib::Tensor& tensor() const { return std::get<stdlib::Tensor>(v_); }
    stdlib::Tensor& tensor_mut() { return std::get<stdlib::Tensor>(v_); }
    // The items of a list or a tuple.
    const std::vector<Value>& items() const;
    // The items of a list, made unique first (copy-on-write).
    std::vector<Value>& list_mut();
    const std::string& text() const { return std::get<std::shared_ptr<const StrObj>>(v_)->text; }
    const FunctionObj& function() const { return *std::get<std::shared_ptr<const FunctionObj>>(v_); }
    const std::shared_ptr<const FunctionObj>& function_ptr() const {
        return std::get<std::shared_ptr<const FunctionObj>>(v_);
    }
    const BuiltinObj& builtin() const { return *std::get<std::shared_ptr<const BuiltinObj>>(v_); }
    stdlib::DType dtype() const { return std::get<stdlib::DType>(v_); }
    ModuleState* module() const { return std::get<ModuleState*>(v_); }
    const BoundMethodObj& bound() const { return *std::get<std::shared_ptr<const BoundMethodObj>>(v_); }

private:
    std::variant<UndefinedT, NoneT, stdlib::Tensor, std::shared_ptr<ListObj>, std::shared_ptr<const TupleObj>,
                 std::shared_ptr<const StrObj>, std::shared_ptr<const FunctionObj>,
                 std::shared_ptr<const BuiltinObj>, stdlib::DType, ModuleState*,
                 std::shared_ptr<const BoundMethodObj>>
        v_;
};

struct BoundMethodObj {
    Value self;
    Value fn;
};

// A function's frame: its local slots, and the frame of the function it is
// lexically nested in (for reading enclosing variables). Heap-allocated and
// shared so closures can keep it alive after the call returns.
struct Env {
    std::vector<Value> slots;
    std::shared_ptr<Env> parent;
    const FunctionFacts* facts = nullptr;  // names of the slots, for error messages
};

}  // namespace tg::interp
