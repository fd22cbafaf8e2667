// Calls: argument evaluation, binding to parameters, user functions,
// builtins, dtype casts and methods (`x.f(a)` is `f(x, a)`).
#include <boost/container/small_vector.hpp>

#include "interp/call_signature.hpp"
#include "interp/control.hpp"
#include "interp/debug/debugger.hpp"
#include "interp/debug/nan_check.hpp"
#include "interp/replayed_output.hpp"
#include "interp/scalar_builtins.hpp"
#include "interp/autodiff/autodiff.hpp"
#include "interp/batching/batching.hpp"
#include "interp/values/dict.hpp"
#include "interp/values/set.hpp"
#include "interp/star_args.hpp"
#include "interp/dispatch.hpp"
#include "interp/suggest.hpp"
#include "interp/evaluator.hpp"
#include "interp/target_indices.hpp"
#include "interp/tracing/graph_value.hpp"
#include "interp/builtins/builtins.hpp"
#include "interp/builtins/list_methods.hpp"
#include "interp/builtins/string_methods.hpp"
#include "interp/builtins/tensor_methods.hpp"
#include "interp/values/printing.hpp"
#include "interp/tracing/trace.hpp"

namespace tg::interp {

using namespace lang;

// A compiled call's state before it runs, for an eager replay.
struct GraphReplay {
    explicit GraphReplay(Runtime& rt) : rng(rt.rng), recorded(std::in_place, rt.options.write_output) {}
    stdlib::Rng rng;
    std::optional<RecordedOutput> recorded;
};

void method_arguments(const std::string& name, const stdlib::OpDef& op, const CallArgs& args,
                      const SourcePtr& call_source, std::vector<Value>& pos);

namespace {
// A call call_direct runs: a plain tg function (not @graph, not native)
// with positional arguments only, not more than its parameters.
bool direct_call(const Call& c, const FunctionObj& fn) {
    return c.keywords.empty() && !c.unpacks && !fn.is_graph && !fn.native_body && c.args.size() <= fn.params->size() &&
           !static_cast<const FunctionFacts*>(fn.info)->star_params;
}
}  // namespace

Value Evaluator::eval_call(const Call& c) {
    check_stack(c.loc);
    if (c.callee->kind == ExprKind::Attribute) return call_method(c, c.callee->as<Attribute>());
    // `f(x)`: the variable read in place and only the function's shared_ptr
    // held for the call (the call may reassign the variable), not a Value
    // copied and destroyed — a seventh of a recursive call's cost (fib).
    if (c.callee->kind == ExprKind::Name && !rt_.trace) {
        const Value& named = load(c.callee->as<Name>());
        if (named.is(Kind::Function) && direct_call(c, named.function())) {
            const std::shared_ptr<const FunctionObj> held = named.function_ptr();
            return call_direct(c, *held);
        }
    }
    Value callee = eval(*c.callee);
    if (callee.is(Kind::Function) && !rt_.trace && direct_call(c, callee.function()))
        return call_direct(c, callee.function());
    if ((callee.is(Kind::Builtin) || callee.is(Kind::DType)) && c.keywords.empty() && !c.unpacks &&
        c.args.size() <= 2 && !rt_.trace)
        return call_small(c, callee);
    EvaluatedArgs a;
    if (c.unpacks) [[unlikely]] {  // f(*xs, **d) (interp/star_args.cpp)
        eval_unpacking_args(c, a, callee_name(callee));
        return call(callee, a.view(c.loc), source());
    }
    a.positional.reserve(c.args.size());
    // print of a variable that is None on some paths (docs/graph.md "Static and dynamic")
    const bool is_print = rt_.trace && callee.is(Kind::Builtin) && !callee.builtin().host &&
                          callee.builtin().name == "print";
    bool maybe_none = false;
    for (const auto& x : c.args) {
        a.positional.push_back(is_print ? eval_passing_none(*x) : eval(*x));
        if (a.positional.back().maybe_undef()) maybe_none = true;
    }
    for (const auto& k : c.keywords) {
        a.keyword_values.push_back(eval(*k.value));
        a.keywords.push_back({k.name, k.loc});
    }
    if (maybe_none) return print_maybe_none(callee, a.view(c.loc));
    return call(callee, a.view(c.loc), source());
}

Value Evaluator::print_maybe_none(const Value& callee, const CallArgs& args) {
    size_t k = 0;
    while (!args.positional[k].maybe_undef()) ++k;
    const MaybeUndefObj& m = *args.positional[k].maybe_undef();
    std::vector<Value> pos(args.positional.begin(), args.positional.end());
    auto branch = [&](Value v) {
        return [&, v] {
            std::vector<Value> p = pos;
            p[k] = v;
            CallArgs a{p, args.keyword_values, args.keywords, args.loc};
            for (const Value& x : p)
                if (x.maybe_undef()) {
                    print_maybe_none(callee, a);
                    return Flow::Normal;
                }
            call(callee, a, source());
            return Flow::Normal;
        };
    };
    at(args.loc);
    trace_cond(m.flag.sym()->id, {}, branch(m.inner), branch(Value::none()), args.loc, "print");
    return Value::none();
}

namespace {

// A method call's arguments: up to three positional ones and no keyword
// (almost every call) held here without allocating; any other call's in `all`.
struct MethodArgs {
    static constexpr size_t kFew = 3;
    MethodArgs() = default;
    MethodArgs(const MethodArgs&) = delete;
    MethodArgs& operator=(const MethodArgs&) = delete;
    ~MethodArgs() {
        for (size_t i = 0; i < count; ++i) few()[i].~Value();
    }
    CallArgs view(Loc loc) const {
        if (in_few) return CallArgs{std::span<const Value>(few(), count), {}, {}, loc};
        return all.view(loc);
    }
    // Evaluates the arguments into `few` when they fit there (false: they do not).
    template <class Eval>
    bool evaluate_few(const Call& c, Eval&& eval) {
        if (c.unpacks || !c.keywords.empty() || c.args.size() > kFew) return false;
        in_few = true;
        // (each made in place: a Value assigned there was a sixth of a method call)
        for (const auto& x : c.args) {
            new (few() + count) Value(eval(*x));
            ++count;
        }
        return true;
    }
    EvaluatedArgs all;

private:
    Value* few() { return std::launder(reinterpret_cast<Value*>(raw_)); }
    const Value* few() const { return std::launder(reinterpret_cast<const Value*>(raw_)); }
    alignas(Value) unsigned char raw_[kFew * sizeof(Value)];
    size_t count = 0;  // made in `few`
    bool in_few = false;
};

}  // namespace

Value Evaluator::call_method(const Call& c, const Attribute& at) {
    const MethodIds ids = method_ids_of(at);  // what the name is, looked up when it was resolved
    // A method that changes its receiver walks to it again after the
    // arguments: the receiver's indices are evaluated once, before both.
    std::optional<TargetIndices> indices;
    if (at.value->kind == ExprKind::Index && ids.changing) indices.emplace(*this, *at.value);
    Value scratch;
    Value recv = eval_ref(*at.value, scratch);  // a copy: the arguments are evaluated below
    auto args = [&](MethodArgs& out, bool keywords_allowed) {
        std::optional<TargetIndices::Paused> paused;
        if (indices) paused.emplace(*indices);
        if (out.evaluate_few(c, [&](const Expr& x) { return eval(x); })) return;
        EvaluatedArgs& a = out.all;
        if (c.unpacks) [[unlikely]] {
            eval_unpacking_args(c, a, at.attr);
            if (!keywords_allowed && !a.keywords.empty())
                fail(at.attr + ": unknown keyword argument `" + std::string(a.keywords[0].name) + "`", a.keywords[0].loc);
            return;
        }
        for (const auto& x : c.args) a.positional.push_back(eval(*x));
        for (const auto& k : c.keywords) {
            if (!keywords_allowed) fail(at.attr + ": unknown keyword argument `" + k.name + "`", k.loc);
            a.keyword_values.push_back(eval(*k.value));
            a.keywords.push_back({k.name, k.loc});
        }
    };
    const std::optional<MethodOf> kind = method_kind(ids, recv);
    if (!kind) {  // an attribute (a module's function, a bound method), looked up before the arguments
        indices.reset();
        Value callee = attribute_of(recv, at);
        MethodArgs a;
        args(a, true);
        return call(callee, a.view(at.loc), source());
    }
    if (!ids.changes(*kind)) indices.reset();  // nothing walks to the receiver again
    MethodArgs a;
    args(a, *kind == MethodOf::Dict || *kind == MethodOf::Str || *kind == MethodOf::Tensor || at.attr == "sort");
    return apply_method(at, ids, *kind, recv, scratch, indices, a.view(at.loc));
}

// The method of `kind` that `ids` names, called on `recv` with its
// arguments evaluated. List, dict and set methods that change their
// receiver change the variable or item `at.value` (walked to again now,
// with `indices`: the receiver's, evaluated before the arguments),
// in place (copy-on-write): `recv` and `scratch` are let go first.
Value Evaluator::apply_method(const Attribute& at, const MethodIds& ids, MethodOf kind, Value& recv, Value& scratch,
                              std::optional<TargetIndices>& indices, const CallArgs& args) {
    const Method m = *ids.of(kind);
    auto located = [&](auto&& fn) -> Value {
        this->at(at.loc);
        try {
            return fn();
        } catch (const stdlib::LimitError& err) {
            limit_error(err, at.loc);
        } catch (const stdlib::OpError& err) {
            fail(err.what(), at.loc);
        } catch (Error& err) {
            err.locate(source(), at.loc);
            throw;
        }
    };
    if (kind == MethodOf::Str) return located([&] { return call_string_method(rt_, m, recv, args); });
    if (kind == MethodOf::Tensor) return located([&] { return call_tensor_method(rt_, m, recv, args); });
    Value* target = ids.changes(kind) ? lvalue(*at.value) : nullptr;
    indices.reset();  // (a sort's key runs code: it must not see them)
    if (!target) {
        target = &recv;  // (a copy already: what the method changes is dropped with it)
    } else {
        // The variable's list is changed in place, not copied first
        // (copy-on-write): no other reference may be held here, neither
        // the receiver nor the value `d["a"]` was evaluated into.
        recv = Value();
        scratch = Value();
    }
    return located([&] {
        if (kind == MethodOf::Dict) return call_dict_method(rt_, m, *target, args);
        if (kind == MethodOf::Set) return call_set_method(rt_, m, *target, args);
        return call_list_method(rt_, m, *target, args);
    });
}

Value Evaluator::call(const Value& callee, const CallArgs& args, const SourcePtr& call_source) {
    auto located = [&](auto&& fn) -> Value {
        at(args.loc);
        try {
            return fn();
        } catch (const stdlib::LimitError& err) {
            throw Error(err.what(), call_source, args.loc).as(TraceErrorKind::Limit);
        } catch (const stdlib::OpError& err) {
            throw Error(err.what(), call_source, args.loc);
        } catch (Error& err) {
            err.locate(call_source, args.loc);
            throw;
        }
    };
    switch (callee.kind()) {
    case Kind::Function:
        if (const BodyCode* code = body_code_for_call(callee.function(), args)) {
            // (copies: the frame takes its arguments by moving them in)
            boost::container::small_vector<Value, 4> copies(args.positional.begin(), args.positional.end());
            return call_body_code(args.loc, call_source, callee.function(), *code,
                                  std::span<Value>(copies.data(), copies.size()));
        }
        return call_function(callee.function(), args, call_source);
    case Kind::Builtin: {
        // Op builtins reach dispatch.cpp, where symbolic operands are handled.
        const BuiltinObj& b = callee.builtin();
        if (b.host && rt_.trace)
            throw Error("the tracer cannot express a call of the host function `" + b.name + "`", call_source, args.loc)
                .as(TraceErrorKind::Unsupported);
        Runtime::CallSourceScope call_site(rt_, call_source);
        if (b.caller) return located([&] { return b.caller(*this, args, call_source); });
        return located([&] { return b.fn(rt_, args); });
    }
    case Kind::Graph: return call_graph_value(callee.graph(), args, call_source);
    case Kind::DType: {
        // f64(x) is astype(x, f64)
        return located([&] {
            if (args.positional.size() != 1 || !args.keywords.empty())
                throw Error(std::string(stdlib::dtype_name(callee.dtype())) + ": takes 1 argument");
            if (args.positional[0].is(Kind::Str))  // f64("0.1"): parsed (parse_number.cpp)
                return parse_as(std::string(stdlib::dtype_name(callee.dtype())), args.positional[0], callee.dtype());
            const stdlib::OpDef* op = &stdlib::op_of(stdlib::ElementwiseKind::AsType);
            if (!op) throw Error("internal error: no astype op");
            Value a[2] = {args.positional[0], callee};
            return call_op(rt_, *op, CallArgs{a, {}, {}, args.loc});
        });
    }
    case Kind::BoundMethod: {
        const BoundMethodObj& bm = callee.bound();
        std::vector<Value> pos;
        pos.reserve(args.positional.size() + 1);
        pos.push_back(bm.self);
        const BuiltinObj* b = bm.fn.is(Kind::Builtin) ? &bm.fn.builtin() : nullptr;
        if (b && b->op && !b->adds_params)
            method_arguments(b->name, *b->op, args, call_source, pos);
        else
            pos.insert(pos.end(), args.positional.begin(), args.positional.end());
        return call(bm.fn, CallArgs{pos, args.keyword_values, args.keywords, args.loc, b != nullptr}, call_source);
    }
    default:
        throw Error(std::string("a ") + kind_name(callee.kind()) + " is not callable", call_source, args.loc);
    }
}

namespace {

bool is_int_value(const Value& v) {
    const Scalar* s = v.scalar();
    return s && stdlib::is_int(s->dtype);
}

}  // namespace

// `x.op(args)` for a table op: NumPy's varargs forms (`x.reshape(3, 4)`,
// `x.transpose(1, 0)`: the ints after the tensor are the shape or the axes;
// keywords bind as usual: `x.sum(0, 1, keepdims=True)`),
// and an arity error that counts the arguments the way they were written,
// without the tensor the method is called on.
void method_arguments(const std::string& name, const stdlib::OpDef& op, const CallArgs& args,
                      const SourcePtr& call_source, std::vector<Value>& pos) {
    const size_t n = op.params.size();
    const bool varargs = n >= 2 &&
                         (op.params[1].kind == stdlib::ParamKind::Shape || op.params[1].kind == stdlib::ParamKind::Axis) &&
                         args.positional.size() >= 2 &&
                         std::all_of(args.positional.begin(), args.positional.end(), is_int_value);
    if (varargs) {
        pos.push_back(Value::tuple(std::vector<Value>(args.positional.begin(), args.positional.end())));
        return;
    }
    if (n >= 1 && args.positional.size() + 1 > n)  // (pos[0]: the value it is called on)
        throw Error(arity_error(name, n, n, args.positional.size() + 1, ArityWording::Function, kind_name(pos[0].kind())),
                    call_source, args.loc);
    pos.insert(pos.end(), args.positional.begin(), args.positional.end());
}

namespace {

// --debug-nans of a compiled call: its result holds a NaN or inf its arguments did not.
bool made_nonfinite(const Env& args, const Value& result) {
    if (!value_has_nonfinite(result)) return false;
    for (const Value& v : args.slots)
        if (v.defined() && value_has_nonfinite(v)) return false;
    return true;
}

// The frame of a call goes back to the pool when the call ends (however it ends).
struct BackToPool {
    EnvPool& pool;
    std::shared_ptr<Env>& env;
    ~BackToPool() { pool.give(std::move(env)); }
};

// Arguments call_direct evaluates on the native stack before it takes its
// frame (more: straight into a frame from the pool's list).
constexpr size_t kArgsOnStack = 6;

// A frame from EnvPool::take_at released when its call ends.
struct ReleaseAtEnd {
    std::shared_ptr<Env>& env;
    ~ReleaseAtEnd() { EnvPool::release(env); }
};

// Deep recursion stops with an error before the native stack runs out.
[[noreturn, gnu::noinline]] void call_too_deep(const Runtime& rt, const SourcePtr& call_source, Loc loc,
                                               bool native_stack) {
    // While tracing, deep recursion is the tracer's limit (a recursion on a
    // dynamic condition traces both branches forever): the call runs eagerly.
    const TraceErrorKind depth_kind = rt.trace ? TraceErrorKind::TooDeep : TraceErrorKind::User;
    if (native_stack)
        throw Error("maximum recursion depth exceeded: the native stack is exhausted", call_source, loc).as(depth_kind);
    throw Error("maximum recursion depth exceeded (more than " + std::to_string(rt.options.max_call_depth) +
                    " nested calls)",
                call_source, loc)
        .as(depth_kind);
}
// (inline, its errors out of line: every call runs it)
[[gnu::always_inline]] inline void check_call_depth(const Runtime& rt, const SourcePtr& call_source, Loc loc) {
    if (rt.depth >= rt.options.max_call_depth) [[unlikely]] call_too_deep(rt, call_source, loc, false);
    char probe;
    if (rt.stack_limit && &probe < rt.stack_limit) [[unlikely]] call_too_deep(rt, call_source, loc, true);
}

// The call's environment: the arguments bound to the parameters (positional,
// keyword, defaults), in the function's slots.
std::shared_ptr<Env> bind_parameters(Runtime& rt, const FunctionObj& fn, const CallArgs& args,
                                     const SourcePtr& call_source) {
    auto* facts = static_cast<const FunctionFacts*>(fn.info);
    auto err_at = [&](std::string msg, Loc loc) { return Error(fn.name + ": " + std::move(msg), call_source, loc); };
    const auto& params = *fn.params;
    const size_t n = params.size();
    std::shared_ptr<Env> env = rt.env_pool.take(facts, fn.env, static_cast<size_t>(facts->num_slots()));
    for (size_t i = 0; i < args.positional.size(); ++i) env->slots[i] = args.positional[i];
    for (size_t k = 0; k < args.keywords.size(); ++k) {
        std::string_view kw = args.keywords[k].name;
        size_t i = 0;
        while (i < n && params[i].name != kw) ++i;
        if (i == n) {
            std::vector<std::string_view> names;
            for (const auto& p : params) names.push_back(p.name);
            throw err_at("unknown keyword argument `" + std::string(kw) + "`" + did_you_mean(kw, names), args.keywords[k].loc);
        }
        if (env->slots[i].defined()) throw err_at("argument `" + std::string(kw) + "` given twice", args.keywords[k].loc);
        env->slots[i] = args.keyword_values[k];
    }
    for (size_t i = 0; i < n; ++i) {
        if (env->slots[i].defined()) continue;
        if (!fn.defaults[i].defined()) throw err_at("missing argument `" + params[i].name + "`", args.loc);
        env->slots[i] = fn.defaults[i];
    }
    return env;
}

}  // namespace

// A builtin or a dtype called with one or two positional arguments, not
// traced: the arguments in a local array (no vector), and on numbers the
// evaluator's own shortcut (interp/scalar_builtins.hpp).
Value Evaluator::call_small(const Call& c, const Value& callee) {
    Value args[2];
    const size_t n = c.args.size();
    for (size_t i = 0; i < n; ++i) args[i] = eval(*c.args[i]);
    return call_evaluated(c, callee, std::span<Value>(args, n));
}

// A call of a tg function (not @graph) with positional arguments only, not
// traced: what call_function does for it, with the arguments evaluated
// straight into the slots of a frame from the pool (no argument vector, no
// copies), and the errors in call_function's order.
Value Evaluator::call_direct(const Call& c, const FunctionObj& fn) {
    auto* facts = static_cast<const FunctionFacts*>(fn.info);
    const size_t given = c.args.size();
    if (given > kArgsOnStack) {  // (the arguments straight into a frame from the pool's list)
        std::shared_ptr<Env> env = rt_.env_pool.take(facts, fn.env, static_cast<size_t>(facts->num_slots()));
        BackToPool back_to_pool{rt_.env_pool, env};
        for (size_t i = 0; i < given; ++i) env->slots[i] = eval(*c.args[i]);
        return enter_direct(c, fn, env);
    }
    // The arguments first (their calls use the frames at this depth), then
    // the frame kept at this depth (EnvPool::take_at), the arguments moved in.
    alignas(Value) unsigned char raw[kArgsOnStack * sizeof(Value)];
    Value* const args = std::launder(reinterpret_cast<Value*>(raw));
    size_t made = 0;
    struct Destroy {
        Value* args;
        const size_t& made;
        ~Destroy() {
            for (size_t i = 0; i < made; ++i) args[i].~Value();
        }
    } destroy{args, made};
    for (; made < given; ++made) new (args + made) Value(eval(*c.args[made]));
    std::shared_ptr<Env>& env =
        rt_.env_pool.take_at(static_cast<size_t>(rt_.depth), facts, fn.env, static_cast<size_t>(facts->num_slots()));
    ReleaseAtEnd release{env};
    // (a frame from the pool has every slot Undefined: the argument is made in place, not assigned)
    for (size_t i = 0; i < given; ++i) new (&env->slots[i]) Value(std::move(args[i]));
    return enter_direct(c, fn, env);
}

// (inline: the tree walker's call_direct and body code's call_evaluated are the hot call paths)
[[gnu::always_inline]] inline Value Evaluator::enter_direct(const Call& c, const FunctionObj& fn,
                                                           const std::shared_ptr<Env>& env) {
    check_call_depth(rt_, source(), c.loc);
    const auto& params = *fn.params;
    for (size_t i = c.args.size(); i < params.size(); ++i) {
        if (!fn.defaults[i].defined())
            throw Error(fn.name + ": missing argument `" + params[i].name + "`", source(), c.loc);
        env->slots[i] = fn.defaults[i];
    }
    return run_body(fn, env, CallArgs{{}, {}, {}, c.loc}, source());
}

// What eval_call does once the callee and the arguments are evaluated: a
// plain function's body entered with the arguments moved into its frame, a
// builtin on numbers by the shortcut, anything else through call().
// The callee's body code when call_body_code can run the call: a plain
// function with exactly its parameters' number of positional arguments,
// its body code compiled, no debugger attached. Null: call_evaluated runs it.
// (What direct_call checks, less what body code's calls never have — a
// keyword, a `*`: direct_call_syntax — in one pass over the function: the
// checks were a sixth of a recursive call's instructions.)
inline const BodyCode* Evaluator::body_code_to_enter(const Call& c, const Value& callee) const {
    if (!callee.is(Kind::Function) || rt_.debug) [[unlikely]] return nullptr;
    const FunctionObj& fn = callee.function();
    const auto* facts = static_cast<const FunctionFacts*>(fn.info);
    if (fn.is_graph || c.args.size() != fn.params->size() || facts->star_params || fn.native_body) [[unlikely]]
        return nullptr;
    // (null before its first call: call_evaluated's run_body compiles it)
    return facts->body_code.code();
}

// Body code's Call instruction: body code entered by call_body_code when it
// can, else call_evaluated. (One function run_code calls: a second call
// there made the compiler keep run_code's locals in a frame of its own,
// every statement slower; and apart from call_evaluated, whose prologue
// saves what its general cases need.)
Value Evaluator::call_from_body_code(const Call& c, const Value& callee, std::span<Value> args) {
    if (const BodyCode* code = body_code_to_enter(c, callee))
        return call_body_code(c.loc, source(), callee.function(), *code, args);
    return call_evaluated(c, callee, args);
}

Value Evaluator::call_evaluated(const Call& c, const Value& callee, std::span<Value> args) {
    check_stack(c.loc);
    if (callee.is(Kind::Function) && !rt_.trace && direct_call(c, callee.function())) {
        const FunctionObj& fn = callee.function();
        auto* facts = static_cast<const FunctionFacts*>(fn.info);
        std::shared_ptr<Env>& env = rt_.env_pool.take_at(static_cast<size_t>(rt_.depth), facts, fn.env,
                                                         static_cast<size_t>(facts->num_slots()));
        ReleaseAtEnd release{env};
        // (a frame from the pool has every slot Undefined: the argument is made in place, not assigned)
        for (size_t i = 0; i < args.size(); ++i) new (&env->slots[i]) Value(std::move(args[i]));
        return enter_direct(c, fn, env);
    }
    if ((callee.is(Kind::Builtin) || callee.is(Kind::DType)) && args.size() <= 2 && !rt_.trace)
        if (Value out; !rt_.options.debug_nans && call_on_numbers(callee, args, out)) return out;
    return call(callee, CallArgs{args, {}, {}, c.loc}, source());
}

// A function called by a builtin (a sort's key, a map's function) or the
// host with just its positional parameters, its body code compiled, no
// debugger attached, not tracing or under vmap: its body code, entered as
// body code enters it (null: call_function binds and runs the call).
const BodyCode* Evaluator::body_code_for_call(const FunctionObj& fn, const CallArgs& args) const {
    if (rt_.debug || rt_.trace || !rt_.vmaps.empty() || !args.keywords.empty()) return nullptr;
    const auto* facts = static_cast<const FunctionFacts*>(fn.info);
    if (fn.is_graph || args.positional.size() != fn.params->size() || facts->star_params || fn.native_body)
        return nullptr;
    return facts->body_code.code();
}

// Body code calling body code (body_code_to_enter): what call_evaluated,
// enter_direct and run_body do for that call, in their order, without
// what it cannot meet — tracing and vmap (body code does not run under
// them), defaults, a native or lambda body, the debugger's hooks. A sixth
// of a recursive call's instructions were those checks.
Value Evaluator::call_body_code(Loc loc, const SourcePtr& call_source, const FunctionObj& fn, const BodyCode& code,
                                 std::span<Value> args) {
    check_stack(loc);
    auto* facts = static_cast<const FunctionFacts*>(fn.info);
    const size_t depth = static_cast<size_t>(rt_.depth);
    std::shared_ptr<Env>& env = rt_.env_pool.take_at(depth, facts, fn.env, static_cast<size_t>(facts->num_slots()));
    ReleaseAtEnd release{env};
    // (a frame from the pool has every slot Undefined: the argument is made in place, not assigned)
    for (size_t i = 0; i < args.size(); ++i) new (&env->slots[i]) Value(std::move(args[i]));
    check_call_depth(rt_, call_source, loc);
    Frame frame{env.get(), &env, fn.module, &facts->source};
    frame.function = &fn.name;
    frame.call_source = &call_source;
    frame.call_loc = loc;
    frame.loc = code.entry;  // (a lambda's: where it is; a def's first Line sets it)
    OnCallStack on_stack(rt_, frame);
    Frame* const saved = f_;
    f_ = &frame;
    ++rt_.depth;
    auto leave = [&] {
        --rt_.depth;
        f_ = saved;
    };
    try {
        run_code(code);
    } catch (Error& e) {
        leave();
        e.leave_frame(fn.name, false, call_source, loc);
        rt_.cycles.frame_done(env, 1);
        throw;
    } catch (...) {
        leave();
        rt_.cycles.frame_done(env, 1);
        throw;
    }
    leave();
    Value result = frame.ret.defined() ? std::move(frame.ret) : Value::none();
    rt_.cycles.frame_done(env, 1);  // (a closure defined in it may hold it)
    return result;
}

Value Evaluator::call_function(const FunctionObj& fn, const CallArgs& args, const SourcePtr& call_source) {
    const size_t n = fn.params->size();
    const bool star = static_cast<const FunctionFacts*>(fn.info)->star_params;  // *args, **kwargs, keyword-only
    if (args.positional.size() > n && !star)
        throw Error(arity_error(fn.name, n, n, args.positional.size(), ArityWording::Function), call_source, args.loc);
    check_call_depth(rt_, call_source, args.loc);
    std::shared_ptr<Env> env =
        star ? bind_star_parameters(fn, args, call_source) : bind_parameters(rt_, fn, args, call_source);
    BackToPool back_to_pool{rt_.env_pool, env};

    // A call of a @graph function: signature, trace on a miss, run the graph
    // (graph_call.cpp) — unless the interpreter runs eagerly, or this call is
    // itself being traced (then it is inlined into the caller's graph).
    // Restores Options::eager after a body run as --eager would run it.
    struct EagerScope {
        bool& flag;
        bool saved;
        ~EagerScope() { flag = saved; }
    } eager_scope{rt_.options.eager, rt_.options.eager};
    // Arguments being differentiated by an eager grad: the body runs eagerly
    // (a compiled graph would not record them; same values either way).
    bool differentiated = false;
    // (The same for arguments batched by vmap: their rules run eagerly.)
    if (fn.is_graph && !rt_.trace && (!rt_.tapes.empty() || !rt_.vmaps.empty())) {
        for (const Value& v : env->slots)
            if (has_transformed(v)) differentiated = true;
        if (differentiated) rt_.options.eager = true;
    }
    // Under a debugger that stops where errors are raised, an error of
    // compiled code is raised again by an eager replay of the call (same
    // inputs and random state, its output shown once), to stop in the frame
    // that raises it with eager's values (docs/debugging.md).
    std::optional<GraphReplay> replay;
    if (fn.is_graph && fn.graph_cache && !rt_.options.eager && !rt_.trace) {
        Value result;
        GraphCall how;
        {
            // On the live call stack while its graph runs: a fault in compiled
            // code is reported at this call (the trace on a miss has its frame),
            // a pause in it stops here.
            Frame running{nullptr, nullptr, fn.module, &static_cast<const FunctionFacts*>(fn.info)->source};
            running.function = &fn.name;
            running.is_graph = true;
            running.call_source = &call_source;
            running.call_loc = args.loc;
            if (fn.body && !fn.body->empty()) running.loc = fn.body->front()->loc;
            OnCallStack on_stack(rt_, running);
            if (rt_.debug || rt_.options.debug_nans) replay.emplace(rt_);
            try {
                how = call_graph(fn, env, args, call_source, result);
            } catch (Error& e) {
                // replayed: an error under a debugger that stops at errors, or
                // a breakpoint's condition compiled into the graph that held
                const bool replays = rt_.debug && (rt_.debug->replays_errors() || Debugger::is_condition_hit(e));
                if (!replay || e.trace_kind != TraceErrorKind::User || !replays) {
                    e.leave_frame(fn.name, fn.is_graph, call_source, args.loc);
                    throw;
                }
                how = GraphCall::EagerAll;
            }
        }
        if (how == GraphCall::Ran && !(replay && rt_.options.debug_nans && made_nonfinite(*env, result))) return result;
        // (--debug-nans: a NaN or inf came out of compiled code; eager finds the operation)
        if (how != GraphCall::Eager) rt_.options.eager = true;
    }
    if (replay) {
        rt_.rng = replay->rng;
        std::string printed = std::move(replay->recorded->printed);
        replay->recorded.reset();
        HeldBackOutput held(rt_.options.write_output, std::move(printed));
        return run_body(fn, env, args, call_source);
    }
    return run_body(fn, env, args, call_source);
}

// The function's body in a new frame (inlined into the graph being traced,
// if any); its closures are handed to the cycle collector after the call.
Value Evaluator::run_body(const FunctionObj& fn, const std::shared_ptr<Env>& env, const CallArgs& args,
                          const SourcePtr& call_source) {
    auto* facts = static_cast<const FunctionFacts*>(fn.info);
    std::shared_ptr<const tracer::CallSite> saved_inlined;
    if (rt_.trace) {
        env->traced = true;
        saved_inlined = rt_.trace->inlined;
        rt_.trace->inlined = std::make_shared<const tracer::CallSite>(
            tracer::CallSite{fn.name, fn.is_graph, call_source, args.loc, saved_inlined});
    }
    Frame frame{env.get(), &env, fn.module, &facts->source};
    frame.function = &fn.name;
    frame.is_graph = fn.is_graph;
    frame.call_source = &call_source;
    frame.call_loc = args.loc;
    if (fn.expr_body) frame.loc = fn.expr_body->loc;  // a lambda has no statement
    OnCallStack on_stack(rt_, frame);
    Frame* saved = f_;
    f_ = &frame;
    ++rt_.depth;
    Value result;
    if (rt_.debug && !rt_.trace) [[unlikely]] rt_.debug->call(*this, frame);
    auto leave = [&] {
        --rt_.depth;
        f_ = saved;
        if (rt_.trace) rt_.trace->inlined = saved_inlined;
    };
    try {
        if (fn.native_body) {
            Runtime::CallSourceScope call_site(rt_, call_source);  // where grad(f)'s call of f continues its traceback
            result = fn.native_body(rt_, CallArgs{std::span<const Value>(env->slots.data(), fn.params->size()), {}, {}, args.loc});
        } else if (fn.expr_body) {  // a lambda: its body code, or the walker's eval
            const BodyCode* code = rt_.trace || !rt_.vmaps.empty() ? nullptr
                                   : facts->body_code.tried()       ? facts->body_code.code()
                                                                    : body_code_of(*facts, *fn.expr_body);
            if (code) {
                run_code(*code);
                result = std::move(frame.ret);
            } else {
                result = eval(*fn.expr_body);
            }
        } else {
            // (body code, not while tracing or under vmap: there the walker converts and batches)
            const BodyCode* code = rt_.trace || !rt_.vmaps.empty() ? nullptr
                                   : facts->body_code.tried()       ? facts->body_code.code()
                                                                    : body_code_of(*facts, *fn.body);
            Flow flow = code ? run_code(*code) : exec_block(*fn.body);
            if (flow != Flow::Return && frame.ret_flag.batched()) [[unlikely]] batched_fall_off(fn);  // vmap
            if (rt_.trace) {
                result = function_result(frame, flow, fn);
                // None on some paths: only a @graph function's own result may be (graph_call.cpp)
                if (result.maybe_undef())
                    unsupported_in_graph("a call of `" + fn.name + "`, which returns None on some paths");
            }
            else result = frame.ret.defined() ? std::move(frame.ret) : Value::none();
        }
    } catch (Error& e) {
        if (rt_.debug && !rt_.trace) [[unlikely]] rt_.debug->raised(*this, frame, e);  // the frame still lives
        leave();
        e.leave_frame(fn.name, fn.is_graph, call_source, args.loc);
        rt_.cycles.frame_done(env, 1);  // a failed call's closures are garbage too (they leaked)
        throw;
    } catch (...) {
        leave();
        rt_.cycles.frame_done(env, 1);
        throw;
    }
    if (rt_.debug && !rt_.trace) [[unlikely]] rt_.debug->returned(*this, frame, result);
    leave();
    // Still referenced after the call (beyond `env` here)? A
    // closure defined in it holds it, maybe in a reference cycle.
    rt_.cycles.frame_done(env, 1);
    return result;
}

}  // namespace tg::interp
