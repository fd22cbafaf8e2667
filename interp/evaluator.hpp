// The tree-walking evaluator: statements and expressions of docs/language.md over a
// resolved AST (interp/resolver.hpp).
//
// Variables are read by slot (Local: the frame's Env; Enclosing: `depth`
// frames out along the lexical chain; Global: the module's table; Builtin:
// the runtime's table). Tensor operations go through interp/dispatch.hpp,
// conditions and loops through interp/control.hpp: those are the seams where
// the tracer plugs in.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "interp/error.hpp"
#include "interp/runtime.hpp"
#include "interp/values/dict.hpp"
#include "interp/values/value.hpp"
#include "stdlib/op_table.hpp"
#include "lang/ast.hpp"

namespace tg::codegen {
class CompiledGraph;
}
namespace tg::tracer {
class Graph;
struct Signature;
}

namespace tg::interp {

class Debugger;
struct GraphEntry;
struct TraceState;
struct ConcreteCall;   // concrete.cpp: what concrete()'s arguments say
struct ConcreteTrace;  // concrete.cpp: one trace of it
struct ForRange;     // autograph_loops.cpp: a traced `for` loop's counter
struct TracedWhile;  // autograph_loops.cpp: a `while` loop traced as it runs
struct EvaluatedArgs;  // star_args.hpp: the arguments evaluated at a call site
class Iterable;        // control.hpp: the items a `for` loop goes through
struct BodyCode;       // body_code.hpp: a function body compiled to instructions
struct MethodIds;      // method_signatures.hpp: what a method's name is, per kind
enum class MethodOf : uint8_t;

// While tracing, `break` / `continue` of the innermost loop that may or may
// not have happened (symbolic bools; static False otherwise).
struct LoopFlags {
    Value brk = Value::from_bool(false);
    Value cont = Value::from_bool(false);
};

// Under vmap, the innermost loop's examples that left it by a `break` or
// `continue` on a batched condition (interp/batching/batched_exits.cpp):
// each keeps the values it had where it left, and one that broke stays out
// of the loop's later iterations. Empty until such an exit happens.
struct LaneExits {
    Value done;                  // per example: broke out (in this iteration or before); undefined: none
    Value left;                  // per example: left this iteration (or broke before it); undefined: none
    std::vector<Value> at_exit;  // the frame's variables (trace_vars order) where each example left
    bool masked = false;         // a `while` on a batched condition: its `active` mask keeps the rest
    bool converting = false;     // the loop's body is being traced once as a `while` node's body
    int depth = 0;               // the loop's (Frame::loop_depth inside it)
    LaneExits* outer = nullptr;  // an enclosing loop's, owned by its LaneScope's end
};

// Python slice semantics: the positions x[slice] takes from a sequence of length n.
std::vector<int64_t> slice_positions(const stdlib::IndexItem& it, int64_t n);

// One active tg function call (or module top level).
struct Frame {
    // A constructor, not aggregate initialization: that zero-filled the
    // whole frame first (a `rep stos` per call), then set the members.
    Frame(Env* env_, const std::shared_ptr<Env>* owner, ModuleState* module_, const lang::SourcePtr* source_)
        : env(env_), env_owner(owner), module(module_), source(source_) {}
    Env* env = nullptr;                // locals; null at module level (its variables are globals)
    // The shared_ptr that keeps env alive (its caller's, which outlives the
    // frame: no reference count per call); closures created here share it.
    const std::shared_ptr<Env>* env_owner = nullptr;
    std::shared_ptr<Env> owner() const { return env_owner ? *env_owner : nullptr; }
    ModuleState* module = nullptr;
    const lang::SourcePtr* source = nullptr;
    Value ret;                          // the value of `return`
    // Tracing only (autograph.cpp): whether a `return` inside converted
    // control flow may have happened (symbolic bool), and the innermost loop.
    Value ret_flag = Value::from_bool(false);
    LoopFlags* loop = nullptr;
    // vmap only (interp/batching/batched_exits.cpp): the innermost loop's
    // exits, and the examples the code running now runs for (the branch of
    // a batched `if` taken; undefined: all of them).
    LaneExits* lanes = nullptr;  // (owned: a LaneScope deletes its loop's)
    Value lane_path = Value();
    int loop_depth = 0;          // loops running in this frame (LaneScope)
    // The live call stack (Runtime::frames, innermost first), which only the
    // fault report reads (interp/fault_report.hpp): the statement running now
    // (exec sets it: one store per statement), the function (null: a
    // module's top level) and where it was called from.
    lang::Loc loc{};
    const std::string* function = nullptr;
    bool is_graph = false;
    const lang::SourcePtr* call_source = nullptr;
    lang::Loc call_loc{};
    Frame* caller = nullptr;  // the frame below on the live call stack
    int depth = 0;            // frames on the live call stack up to this one (the debugger's steps)
    bool debug_entered = false;  // the debugger saw its first line (function breakpoints)
};

// Puts a frame on the runtime's live call stack for as long as it lives
// (frames come and go in stack order, also when an exception unwinds).
class OnCallStack {
public:
    OnCallStack(Runtime& rt, Frame& f) : rt_(rt), saved_(rt.frames) {
        f.caller = saved_;
        f.depth = saved_ ? saved_->depth + 1 : 1;
        rt.frames = &f;
    }
    ~OnCallStack() { rt_.frames = saved_; }
    OnCallStack(const OnCallStack&) = delete;
    OnCallStack& operator=(const OnCallStack&) = delete;

private:
    Runtime& rt_;
    Frame* saved_;
};

// The innermost loop's LaneExits, if a batched exit made them (or null).
inline LaneExits* lanes_here(const Frame& f) {
    return f.lanes && f.lanes->depth == f.loop_depth ? f.lanes : nullptr;
}
// The innermost loop's LaneExits, made now if none are.
inline LaneExits& lanes_of(Frame& f) {
    if (LaneExits* l = lanes_here(f)) return *l;
    auto* l = new LaneExits;
    l->depth = f.loop_depth;
    l->outer = f.lanes;
    f.lanes = l;
    return *l;
}

// One loop's extent for its LaneExits (interp/batching/batched_exits.cpp):
// its body starts out running for all the examples the loop runs for, and
// its exits, made only by a batched `break` / `continue`, go with it. Cheap
// when vmap is not in play: every loop makes one.
class LaneScope {
public:
    explicit LaneScope(Frame& f) : f_(f) {
        ++f.loop_depth;
        if (f.lane_path.defined()) [[unlikely]] {
            saved_path_ = std::move(f.lane_path);
            f.lane_path = Value();
        }
    }
    ~LaneScope() {
        if (LaneExits* l = lanes_here(f_)) [[unlikely]] {
            f_.lanes = l->outer;
            delete l;
        }
        --f_.loop_depth;
        if (saved_path_.defined()) [[unlikely]] f_.lane_path = std::move(saved_path_);
    }
    LaneScope(const LaneScope&) = delete;
    LaneScope& operator=(const LaneScope&) = delete;
    // This loop's exits, made now (a loop that marks them before its body runs).
    LaneExits& exits() { return lanes_of(f_); }

private:
    Frame& f_;
    Value saved_path_;
};

// A variable converted control flow carries (autograph.cpp).
struct TraceVar {
    enum Role : uint8_t { Var, Ret, Flag };
    Value* slot;
    std::string name;
    Role role = Var;
    bool force_carried = false;  // loops: carry it from the first attempt (a counter)
};
inline std::vector<Value> values_of(const std::vector<TraceVar>& vars) {
    std::vector<Value> vs;
    vs.reserve(vars.size());
    for (const TraceVar& v : vars) vs.push_back(*v.slot);
    return vs;
}
inline void set_values(const std::vector<TraceVar>& vars, const std::vector<Value>& vs) {
    for (size_t i = 0; i < vars.size(); ++i) *vars[i].slot = vs[i];
}

// The variables of a function frame that code run in it sees
// (interp/debug/frame_eval.cpp): defined slots, its own first, then those of
// the functions it is nested in; a shadowed name is not repeated.
std::vector<std::pair<std::string, Value*>> visible_variables(Env* env);

class Evaluator {
public:
    // Counts steps against the run's limit from the start: an evaluator made
    // by a builtin that calls back into tg code (grad, sorted's key) ran
    // without the step limit or the interrupt before.
    //
    // Live evaluators are listed in the runtime (Runtime::evaluators), so that
    // a debugger attached mid-run reaches every one's step limit.
    explicit Evaluator(Runtime& rt) : rt_(rt), next_(rt.evaluators) {
        if (next_) next_->prev_ = this;
        rt.evaluators = this;
        set_step_limit();
    }
    ~Evaluator() {
        if (prev_) prev_->next_ = next_;
        else rt_.evaluators = next_;
        if (next_) next_->prev_ = prev_;
    }
    Evaluator(const Evaluator&) = delete;
    Evaluator& operator=(const Evaluator&) = delete;
    Runtime& runtime() { return rt_; }
    // The limits, the interrupt or the debugger changed: the step at which
    // this evaluator next looks at them is set again.
    void limits_changed() { set_step_limit(); }
    Evaluator* next_evaluator() const { return next_; }

    // Runs a resolved chunk as the top level of `m`. `echo` (may be null)
    // receives the value of each expression statement (the REPL).
    void run_module(ModuleState& m, const lang::Module& chunk, const std::function<void(const Value&)>* echo = nullptr);
    // Calls any callable value. Errors are located at args.loc in `call_source`.
    Value call(const Value& callee, const CallArgs& args, const lang::SourcePtr& call_source);

    // A REPL input traced into one graph (docs/repl.md `:trace on`; trace_input.cpp).
    struct TracedInput;
    // Traces, shows and runs it; false when it must run eagerly instead
    // (TracedInput says why, or that the graph raised an error).
    bool run_traced_input(TracedInput& in);

    // Graph values (docs/language.md "Graphs as values", interp/tracing/graph_value.cpp): concrete(f, *specs)
    // traces `f` for the specs without running it; calling a graph value
    // checks the arguments against its specs and runs it.
    Value concrete(const CallArgs& args, const lang::SourcePtr& call_source);
    Value call_graph_value(const GraphObj& g, const CallArgs& args, const lang::SourcePtr& call_source);

    // The debugger's evaluation (interp/debug/frame_eval.cpp): runs `text`
    // (statements, or an expression whose value is returned) on frame f's
    // variables; assignments to them change them. Throws Error.
    Value run_in_frame(Frame& f, std::string_view text, std::string_view name);
    bool truth_of(const Value& v);

private:
    enum class Flow { Normal, Break, Continue, Return };

    Runtime& rt_;
    Evaluator* prev_ = nullptr;  // the runtime's list of live evaluators
    Evaluator* next_;
    Frame* f_ = nullptr;
    const std::function<void(const Value&)>* echo_ = nullptr;
    // A traced REPL input runs as a function: its frame echoes too (trace_input.cpp).
    const Frame* echo_frame_ = nullptr;

    // statements (statements.cpp)
    Flow exec_block(const lang::Block& b);
    Flow exec(const lang::Stmt& s);
    Flow exec_inner(const lang::Stmt& s);
    // Raises the exception being handled as an error of the statement at loc:
    // a tg error as it is, a kernel's, a limit's or the allocator's located there.
    [[noreturn]] void raise_at_statement(lang::Loc loc);
    // A function body's compiled code, in the frame run_body made (run_code.cpp).
    Flow run_code(const BodyCode& body);
    Flow exec_expr_stmt(const lang::Stmt& s);
    Flow exec_assign(const lang::Stmt& s);
    Flow exec_return(const lang::Stmt& s);
    Flow exec_if(const lang::Stmt& s);
    Flow exec_while(const lang::Stmt& s);
    Flow exec_assert(const lang::Stmt& s);
    Flow exec_import(const lang::Stmt& s);
    // `name = <compiled scalar expression>` without exec_inner's frame; false: not taken
    bool assign_scalar(const lang::Assign& a);
    Flow exec_for(const lang::For& s);
    // A `for` over range(...): its start, stop and step (errors located at the arguments).
    void range_args(const lang::Call& c, int64_t (&a)[3]);
    bool int_at_once(const lang::Expr& e, int64_t& out);  // range_args' argument without the walker
    // A `for` over anything else: its items (an error located at the iterable).
    Iterable loop_items(const lang::For& s);
    void assign(const lang::Expr& target, Value v);
    void assign_index(const lang::Index& target, const Value& v);
    void aug_assign(const lang::AugAssign& s);
    void aug_assign_name(const lang::AugAssign& s, const Value& rhs);  // `name op= v`, v evaluated
    Value aug_value(const lang::AugAssign& s, const Value& cur, const Value& rhs);
    // fn() run as the operation at loc (at()): a kernel's error, or a tg
    // error not located yet, is raised at loc (an operator, a subscript, `x op= v`'s operator).
    template <class Fn>
    auto located(lang::Loc loc, Fn&& fn) {
        at(loc);
        try {
            return fn();
        } catch (const stdlib::OpError& err) {
            fail(err.what(), loc);
        } catch (Error& err) {
            err.locate(source(), loc);
            throw;
        }
    }
    // del and list slice assignment (deletion.cpp)
    void exec_delete(const lang::Delete& d);
    void delete_target(const lang::Expr& t);
    void delete_item(const lang::Index& t);
    void assign_list_slice(Value& base, const stdlib::IndexItem& slice, const Value& v);
    // A variable a `global` / `nonlocal` statement lets this function assign.
    Value& outer_slot(const lang::Name& n);
    void define_function(const lang::FunctionDef& d);

    // expressions (expressions.cpp)
    Value eval(const lang::Expr& e);
    Value eval_unary(const lang::Expr& e);
    Value eval_binary(const lang::Expr& e);
    Value eval_boolop(const lang::Expr& e);
    Value eval_ifexp(const lang::Expr& e);
    Value eval_sequence(const lang::Expr& e);  // a list or tuple display
    // Like eval, but a variable is returned by reference (no copy).
    const Value& eval_ref(const lang::Expr& e, Value& scratch);
    const Value& str_literal(const lang::StrLit& s);
    // Reads a variable. Locals and globals are the hot path (inline); the
    // rest (enclosing frames, builtins, "not defined") is out of line.
    const Value& load(const lang::Name& n) {
        const Value* v;
        if (n.scope == lang::Scope::Global) {
            v = &f_->module->globals[n.slot];
            if (rt_.trace) [[unlikely]] capture_global(n);
        }
        else if (n.scope == lang::Scope::Local) v = &f_->env->slots[n.slot];
        else return load_slow(n);
        if (!v->defined()) undefined(n);
        return *v;
    }
    const Value& load_slow(const lang::Name& n);
    // Names for "did you mean" (interp/suggest.hpp): what is visible here, and x's methods.
    std::vector<std::string> visible_names() const;
    std::vector<std::string> method_names(const Value& x) const;
    Value& store_slot(const lang::Name& n);
    // The storage a target expression denotes (a variable, or an item of a
    // list inside one), for in-place updates; null if it is not a variable.
    Value* lvalue(const lang::Expr& e);
    // A statement's target indices evaluated before its walk (interp/target_indices.hpp):
    // index_operand reads them, or evaluates x when none is installed for it.
    class TargetIndices;
    std::vector<std::pair<const lang::Expr*, Value>> presets_;
    const Value& index_operand(const lang::Expr& x, Value& scratch);
    bool preset_int_index(const lang::Index& e, int64_t& k) const;
    // `d[k] op= v` with a right side that runs no code: one lookup (statements.cpp)
    void aug_assign_entry(const lang::AugAssign& s, Value& dict, TargetIndices& indices);
    // assign_index without evaluating the target's indices first (its caller did)
    void store_index(const lang::Index& target, const Value& v);
    Value eval_index(const lang::Index& e);
    // The fast path of a subscript by one int (expressions.cpp): its index
    // when computing it has no effects, and the item it selects.
    bool pure_int_index(const lang::Index& e, int64_t& k);
    bool item_at(const Value& base, int64_t k, Value& out);
    bool store_item(Value& list, int64_t k, const Value& v);
    // Numbers read from and stored into list items without a Value
    // (interp/scalar_items.cpp): false, nothing done and nothing thrown,
    // where the general path must run. Callers check fast_scalars_allowed
    // (not while tracing, not under vmap) before the reads.
    // The variable a plain read of `n` finds (a local, or a global), or null.
    const Value* plain_variable(const lang::Name& n) const {
        if (n.scope == lang::Scope::Local) return &f_->env->slots[n.slot];
        if (n.scope == lang::Scope::Global) return &f_->module->globals[n.slot];
        return nullptr;
    }
    // The variable `n = ...` changes in place (a local, or a global at module
    // level), or null where store_slot decides (an outer variable, an error).
    Value* plain_store_slot(const lang::Name& n) {
        if (n.scope == lang::Scope::Local) return &f_->env->slots[n.slot];
        if (n.scope == lang::Scope::Global && !f_->env) return &f_->module->globals[n.slot];
        return nullptr;
    }
    bool fast_scalars_allowed() const { return !rt_.trace && rt_.vmaps.empty(); }
    bool scalar_item(const lang::Index& e, Scalar& out);
    bool pure_scalar(const lang::Expr& e, Scalar& out);
    bool store_scalar_item(const lang::Index& target, const lang::Expr& value);
    bool aug_assign_scalar(const lang::AugAssign& s);
    Value index_value(const Value& base, const lang::Index& e);
    // `special` (tensor subscripts only): per item, None or an index / mask
    // tensor, whose item is then a full slice (interp/index_advanced.hpp).
    std::optional<int64_t> slice_bound(const lang::Expr& x);
    Value special_index(const Value& v, lang::Loc loc);
    std::vector<stdlib::IndexItem> index_items(const lang::Index& e, std::vector<Value>* dynamic = nullptr,
                                               std::vector<Value>* special = nullptr);
    std::vector<stdlib::IndexItem> located_index_items(const lang::Index& e, std::vector<Value>* dynamic = nullptr,
                                                       std::vector<Value>* special = nullptr);
    Value eval_attribute(const lang::Attribute& a);
    // x.attr for an evaluated x (the receiver of a method call is evaluated once)
    Value attribute_of(const Value& x, const lang::Attribute& a);
    Value eval_fstring(const lang::FString& f);
    Value eval_compare(const lang::Compare& c);
    Value compare_chain(const lang::Compare& c, size_t from, Value left);
    // One comparison of a chain; `in` / `is` here, the rest in dispatch's compare().
    Value compare_values(lang::CmpOp op, const Value& left, const Value& right, lang::Loc loc);
    Value membership(const Value& x, const Value& container, lang::Loc loc);
    Value identity(const Value& a, const Value& b);
    // Evaluates a side-effect-free scalar expression (names, literals,
    // arithmetic and single comparisons on 0-d values) without building any
    // Value. Returns false as soon as something else appears; the caller then
    // evaluates the expression the general way (re-evaluating a pure prefix
    // is harmless, and errors come out the same).
    bool eval_scalar(const lang::Expr& e, Scalar& out);
    // (not inlined: eval_binary calls it off its scalar path, and inlined it grew eval_binary by a third)
    [[gnu::noinline]] Value binary_at(const lang::Binary& b, const Value& x, const Value& y);
    // -x, +x or ~x of an evaluated operand, as eval_unary computes it off its scalar path (errors located at u)
    [[gnu::noinline]] Value unary_at(const lang::Unary& u, const Value& x);
    Value eval_listcomp(const lang::ListComp& c);  // and dict comprehensions
    // dicts (expressions.cpp): {k: v}, and the key of d[k], with errors located at the key
    Value eval_dict(const lang::DictExpr& d);
    Value eval_set(const lang::SetExpr& s);
    DictKey key_at(const Value& k, lang::Loc loc, KeyUse use = KeyUse::DictKey);
    DictKey index_key(const lang::Index& e);
    Value make_lambda(const lang::Lambda& l);
    bool cond(const lang::Expr& e) { return cond_at(e, e.loc); }  // the truth seam, located at the condition
    bool cond_at(const lang::Expr& e, lang::Loc loc);  // (an error in e's truth is located at loc)
    bool truth_at(const Value& v, lang::Loc loc);  // truth(v), errors located at loc

    // calls (calls.cpp)
    Value eval_call(const lang::Call& c);
    // A call's arguments with `*xs` and `**d` unpacked; `fn` names the callee in errors (interp/star_args.cpp).
    void eval_unpacking_args(const lang::Call& c, EvaluatedArgs& a, const std::string& fn);
    Value call_method(const lang::Call& c, const lang::Attribute& a);
    // call_method's call once the receiver (of a kind that has the method) and the arguments are evaluated.
    Value apply_method(const lang::Attribute& at, const MethodIds& ids, MethodOf kind, Value& recv, Value& scratch,
                       std::optional<TargetIndices>& indices, const CallArgs& args);
    Value call_function(const FunctionObj& fn, const CallArgs& args, const lang::SourcePtr& call_source);
    Value call_direct(const lang::Call& c, const FunctionObj& fn);
    // Body code's call `c` of `callee` with its arguments evaluated (moved out of `args`).
    Value call_evaluated(const lang::Call& c, const Value& callee, std::span<Value> args);
    // call_direct's call once its arguments are in env's slots: depth, defaults, the body.
    Value enter_direct(const lang::Call& c, const FunctionObj& fn, const std::shared_ptr<Env>& env);
    Value call_small(const lang::Call& c, const Value& callee);
    Value run_body(const FunctionObj& fn, const std::shared_ptr<Env>& env, const CallArgs& args,
                   const lang::SourcePtr& call_source);
    void run_method_call(const BodyCode::Instr& in, Value* temps);  // body code's MethodCall (run_code.cpp)
    Value run_builtin_call(const BodyCode::Instr& in, const Value& x, const Value* y);  // its CallBuiltin
    // Its SliceOf: base[lo:hi] made at `out` when base is a string, a list or
    // a tuple and the bounds are ints read at once (false: nothing made).
    bool slice_at_once(const lang::Index& e, const Value& base, Value* out);
    // Body code's Call: call_body_code when the callee's body code can be entered so (body_code_to_enter), else call_evaluated.
    Value call_from_body_code(const lang::Call& c, const Value& callee, std::span<Value> args);
    const BodyCode* body_code_to_enter(const lang::Call& c, const Value& callee) const;
    Value call_body_code(lang::Loc loc, const lang::SourcePtr& call_source, const FunctionObj& fn, const BodyCode& code,
                         std::span<Value> args);
    // call() of a function: its body code when it can be entered with just these arguments, else null.
    const BodyCode* body_code_for_call(const FunctionObj& fn, const CallArgs& args) const;

    // errors
    [[noreturn]] void fail(std::string message, lang::Loc loc) const;
    // A read of an unassigned variable: the "not defined" error, or while
    // tracing, for a maybe-undefined one, the run-time check (then the slot
    // holds the value and the caller reads it).
    void undefined(const lang::Name& n);
    std::string undefined_message(const lang::Name& n) const;
    const lang::SourcePtr& source() const { return *f_->source; }
    // Inline: every nested expression checks (a deep one must become a tg
    // error, not a crash), and the scalar loop's arithmetic is three of them.
    void check_stack(lang::Loc loc) const {
        char probe;
        if (rt_.stack_limit && &probe < rt_.stack_limit) [[unlikely]] nested_too_deeply(loc);
    }
    [[noreturn]] void nested_too_deeply(lang::Loc loc) const;
    // One statement or loop iteration. The step limit, the host's interrupt
    // flag and an attached debugger share one comparison on the hot path:
    // step_limit_ is the next step at which one must be looked at (see
    // step_checkpoint; a member, not the runtime's: one load fewer on the
    // scalar loop, 6% of its time). count_line is a statement's, or a loop's next
    // iteration's (a line the debugger may stop at); count_step other work.
    void count_step(lang::Loc loc) {
        if (++rt_.steps > step_limit_) step_checkpoint(loc, false);
    }
    void count_line(lang::Loc loc) {
        if (++rt_.steps > step_limit_) step_checkpoint(loc, true);
    }
    void step_checkpoint(lang::Loc loc, bool line);
    void set_step_limit();
    [[noreturn]] void step_limit_exceeded(lang::Loc loc) const;
    // A limit (memory, time, interrupt) reached at loc: the located error.
    [[noreturn]] void limit_error(const stdlib::LimitError& e, lang::Loc loc) const;
    int64_t step_limit_ = INT64_MAX;
    static constexpr int64_t kInterruptPoll = 4096;  // steps between looks at the interrupt flag

    // ---- tracing: converted control flow (autograph.cpp) and @graph calls (graph_call.cpp)
    using BranchFn = std::function<Flow()>;
    bool tracing() const { return rt_.trace != nullptr; }
    // Where the next graph node comes from (cheap no-op when not tracing).
    void at(lang::Loc loc);
    void at(lang::Loc loc) const { const_cast<Evaluator*>(this)->at(loc); }
    // Truth of a condition: a static bool, or (symbolic) the bool[] node in `pred`.
    std::optional<bool> condition(const lang::Expr& e, uint32_t& pred);
    uint32_t truth_node(const Value& v, lang::Loc loc);
    std::vector<TraceVar> trace_vars(std::vector<TraceVar> extra);
    // vars_dead_on: the branch (0 or 1) after which local variables are never
    // read again (it has returned), so they need not merge; -1: none.
    // One traced body (a branch or a loop body) in the current region, its
    // exit recorded in the frame's flags. A User error (the body raises when
    // it runs) becomes a `raise` node and is returned; other errors call
    // `give_up` (roll back) and go on.
    std::optional<Error> trace_body(const BranchFn& fn, lang::Loc loc, const std::function<void()>& give_up);
    Flow trace_cond(uint32_t pred, std::vector<TraceVar> extra, const BranchFn& then_fn, const BranchFn& else_fn,
                    lang::Loc loc, const char* construct, int vars_dead_on = -1);
    Flow trace_while(const std::function<Value()>& cond_fn, const BranchFn& body_fn, std::vector<TraceVar> extra,
                     lang::Loc loc);
    Value loop_predicate(const std::function<Value()>& cond_fn, LoopFlags& flags, lang::Loc loc);
    Flow exec_range(const lang::Block& b, size_t from);
    bool exit_pending() const;
    Flow guard_rest(const lang::Block& b, size_t from);
    Flow flow_of_flags();
    void set_flow_flag(Flow f);
    Flow exec_while_traced(const lang::While& w);
    // The named steps of exec_while_traced (autograph_loops.cpp): iterations
    // run while the condition is static; the rest becomes a `while` node
    // (the condition turned dynamic, the loop ran too long, or a break /
    // return may have happened: then inside a `cond` on "not yet").
    Flow run_while_traced(TracedWhile& tw);
    Flow convert_rest_of_while(TracedWhile& tw);
    Flow rest_of_while_unless_exited(TracedWhile& tw, const std::vector<Value*>& exits);
    Flow rest_of_long_while(TracedWhile& tw);
    Flow exec_for_traced(const lang::For& s);
    // The named steps of exec_for_traced (autograph_loops.cpp): the range's
    // bounds, a `while` node carrying a counter, or unrolled (a sequence; a
    // static range whose body needs the counter static).
    void range_bounds(const lang::Call& c, ForRange& r);
    Flow convert_for(const lang::For& s, const ForRange& r);
    Flow unroll_range(const lang::For& s, const ForRange& r, const std::string& why);
    Flow unroll_sequence(const lang::For& s, Value it);
    Flow unrolled(const std::function<bool(int64_t)>& step_item, const lang::Block& body, lang::Loc loc, int64_t from);
    // ---- control flow on a batched predicate under vmap (interp/batching/batched_control.cpp)
    // Set by a caller that converts a batched condition: cond() / condition()
    // store the condition's value there instead of taking its truth (then
    // their result means nothing). Taken (reset) on entry, so nested
    // evaluations never see it.
    Value* batched_cond_ = nullptr;
    Value lane_truth(const Value& v, lang::Loc loc);  // bool[] per example
    Value lane_combine(bool is_and, const Value& a, const Value& b, lang::Loc loc);
    Value lane_condition(const lang::Expr& e);  // the condition's value: batched, or a (static or symbolic) bool
    Value any_lane(const Value& active);
    Value batched_boolop(const lang::BoolOp& b, const Value& x);
    std::vector<Value> merge_lanes(const Value& p, const std::vector<TraceVar>& vars, const std::vector<Value>& before,
                                   const std::vector<Value> out[2], const bool returned[2], lang::Loc loc,
                                   const std::string& construct);
    Flow batched_if(const Value& cond, std::vector<TraceVar> extra, const BranchFn& then_fn, const BranchFn& else_fn,
                    lang::Loc loc, const std::string& construct);
    Value batched_ifexp(const lang::IfExp& e, const Value& cond);
    Value batched_return(const Value& v, lang::Loc loc);  // `return` after some examples returned
    [[noreturn]] void batched_fall_off(const FunctionObj& fn) const;
    void masked_iteration(const lang::While& w, const std::vector<TraceVar>& vars, Value& active);
    Flow batched_while(const lang::While& w, const Value& first);
    // `break` / `continue` on a batched condition (interp/batching/batched_exits.cpp)
    void lane_exit(bool is_break, lang::Loc loc);
    // (Every loop iteration calls these: without vmap's exits in this frame,
    // f_->lanes is null and they cost one test.)
    void lane_iteration_start() {
        if (f_->lanes) [[unlikely]] lane_iteration_start_lanes();
    }
    void lane_iteration_end(lang::Loc loc) {
        if (f_->lanes) [[unlikely]] lane_iteration_end_lanes(loc);
    }
    void lane_iteration_start_lanes();
    void lane_iteration_end_lanes(lang::Loc loc);
    bool lanes_all_done(lang::Loc loc);
    // Whether a `break` / `continue` here ends the loop for some examples
    // only: inside a batched `if`'s branch, or after some examples left.
    bool lane_exit_recorded() const {
        const LaneExits* lanes = lanes_here(*f_);
        return f_->lane_path.defined() || (lanes && lanes->left.defined());
    }
    // After an iteration that flowed `flow`: the loop is over (a `break` of
    // every example still in it, or every example broke).
    bool loop_ends(Flow flow, lang::Loc loc) { return f_->lanes ? loop_ends_lanes(flow, loc) : flow == Flow::Break; }
    bool loop_ends_lanes(Flow flow, lang::Loc loc);
    Value trace_boolop(const lang::BoolOp& b, const Value& x, uint32_t pred);
    Value trace_ifexp(const lang::IfExp& e, uint32_t pred);
    void trace_assert(const lang::Assert& a, const Value& c);
    Value trace_print(const CallArgs& a, const std::string& sep, const std::string& end);
    void capture_global(const lang::Name& n);
    void capture_enclosing(const lang::Name& n, const std::shared_ptr<Env>& env);
    // A call of a @graph function: Ran (result set), or how the caller must
    // run the body instead: Eager (as usual), or EagerAll — the trace raised
    // the program's own error, so the body runs as `--eager` would run it,
    // @graph functions it calls included, to raise that error exactly as
    // eager does (a nested call with literal arguments must not be traced
    // with them made dynamic), or the trace reached the recursion limit
    // (nested calls would recurse as deep again).
    enum class GraphCall { Ran, Eager, EagerAll };
    GraphCall call_graph(const FunctionObj& fn, const std::shared_ptr<Env>& env, const CallArgs& args,
                         const lang::SourcePtr& call_source, Value& result);
    // A trace-cache miss: traces fn for `sig` into a new entry of its cache;
    // null when the call must run eagerly instead (`eager` says how).
    GraphEntry* trace_entry(const FunctionObj& fn, const std::shared_ptr<Env>& env, const CallArgs& args,
                            const lang::SourcePtr& call_source, tracer::Signature sig, GraphCall& eager);
    Value function_result(Frame& frame, Flow flow, const FunctionObj& fn);
    // Makes the trace T of a call (its result `traced`) general over the
    // plan's dynamic dimensions (interp/tracing/graph_generalize.cpp): traces the
    // body again at the probe sizes and compares. "" when T's graph is now
    // marked; else why it stays specific to its sizes (T unchanged).
    std::string generalize_trace(const FunctionObj& fn, const std::shared_ptr<Env>& env, const CallArgs& args,
                                 const lang::SourcePtr& call_source, TraceState& T, const Value& traced,
                                 const tracer::DynamicPlan& plan);
    struct TraceTimes {
        double trace_ms = 0, optimize_ms = 0;
    };
    // concrete()'s trace at `sizes` of its dynamic dims (none: static specs,
    // optimized), and the marking of its dynamic dims against a probe trace
    // (interp/tracing/concrete.cpp).
    ConcreteTrace trace_concrete(const ConcreteCall& c, std::span<const int64_t> sizes,
                                 const lang::SourcePtr& call_source, lang::Loc loc);
    void mark_concrete(ConcreteCall& c, ConcreteTrace& kept, const tracer::DynamicPlan& plan,
                       const lang::SourcePtr& call_source, lang::Loc loc);
    // Installs a trace and a body's frame, restores the evaluator however the
    // trace ends, and ends the graph (interp/tracing/trace_session.hpp).
    class TraceSession;
    // A @graph function's body traced, for @graph calls and concrete(): runs
    // fn's body on `tenv` (a copy of the call's frame with symbolic inputs,
    // made by traced_env) in a TraceSession on `T`; `outputs` (may be null)
    // rewrites the result before its tensors become the graph's outputs.
    // Throws what the body throws.
    std::shared_ptr<Env> traced_env(const std::shared_ptr<Env>& env);
    Value trace_body(const FunctionObj& fn, TraceState& T, const std::shared_ptr<Env>& tenv,
                     const std::function<Value(const Value&)>& outputs, TraceTimes& times);
    // Native code for a traced graph (null with --no-jit); a codegen failure
    // is an internal error located at the call.
    std::unique_ptr<codegen::CompiledGraph> compile_traced(const tracer::Graph& g, const std::string& name,
                                                           const lang::SourcePtr& call_source, lang::Loc loc);
    // Runs a traced graph: its native code when ready, else the reference
    // interpreter; run-time errors become the eager errors, steps counted at `loc`.
    std::vector<stdlib::Tensor> run_traced(const tracer::Graph& g, codegen::CompiledGraph* compiled,
                                           std::span<const stdlib::Tensor> inputs, lang::Loc loc);
    void run_entry(const GraphEntry& entry, const std::shared_ptr<Env>& env, const CallArgs& args, Value& result);
    GraphCall verify_call(const FunctionObj& fn, const GraphEntry& entry, const std::shared_ptr<Env>& env,
                          const CallArgs& args, const lang::SourcePtr& call_source, Value& result);
    bool trace_input_graph(TracedInput& in, bool static_scalars);  // trace_input.cpp

    // Evaluates e; while tracing, a variable that is None on some paths may
    // be its value (return, assignment, print: docs/graph.md "Static and dynamic").
    Value eval_passing_none(const lang::Expr& e);
    // print(...) with arguments that are None on some paths: a cond on each flag.
    Value print_maybe_none(const Value& callee, const CallArgs& args);
    bool maybe_none_ok_ = false;
};

}  // namespace tg::interp
