// A function's body compiled once to a flat list of instructions
// (docs/architecture.md "Body code: function bodies as instructions").
//
// The tree walker runs a call of `fib` through a dozen native functions —
// run_body, exec_block, exec, exec_inner, exec_if, exec_return, eval,
// eval_binary, eval_call, call_direct — each with its own frame and its own
// dispatch, and a `Flow` value handed back up through all of them. The body
// code runs the same statements in one loop (Evaluator::run_code,
// interp/run_code.cpp): `if` and `while` become jumps, `break` / `continue`
// / `return` leave by a jump or a return, and a call of a function by name
// evaluates its arguments into numbered temporaries and enters the callee's
// body code directly, so one tg call level is three native frames
// (run_code, call_evaluated, call_body_code).
//
// It does only what the tree walker does, in the same order, with the same
// errors: every statement starts with the walker's line (the frame's
// location, the step count the limits and the debugger use), and every
// expression or statement it does not compile itself is an instruction that
// hands that node to the walker (Evaluator::eval, Evaluator::exec_inner).
// Variables stay in the frame's Env, so closures, the debugger and the
// fault report see what they always saw. It is not used while tracing or
// under vmap: there every call runs the tree walker.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "interp/values/value.hpp"
#include "lang/ast.hpp"

namespace tg::interp {

struct FunctionFacts;

struct BodyCode {
    // Temporaries one frame of body code holds (on the native stack); a
    // statement that needs more is handed to the tree walker.
    static constexpr int kMaxTemps = 8;
    // `for` loops nested in one body code (their counters are on the native
    // stack); a deeper one is handed to the tree walker.
    static constexpr int kMaxLoops = 4;

    // Where an instruction reads a value: a temporary (moved out: read once),
    // a variable read in place, a builtin (`len`, by its slot), or a constant.
    // (Enclosing, a variable of an enclosing function `name->depth` frames
    // out, only as a Copy's x: the instructions that read a variable
    // themselves know Local and Global.)
    struct Operand {
        enum Kind : uint8_t { Temp, Local, Global, Builtin, Const, Enclosing } kind = Temp;
        uint16_t index = 0;             // temporary, slot, builtin slot or constant
        const lang::Name* name = nullptr;  // Local, Global, Enclosing: for "not defined"
    };

    struct Instr {
        enum Op : uint8_t {
            Line,        // a statement starts: the frame's location, a counted line
            CountLine,   // a loop's next iteration: a counted line at the loop
            Stmt,        // the tree walker runs the statement `stmt` (its line counted already)
            Eval,        // temps[dst] = the tree walker's value of `expr`
            Copy,        // temps[dst] = x
            Binary,      // temps[dst] = x <expr's operator> y
            Call,        // temps[dst] = temps[dst](temps[dst + 1 ...]), `call`'s arguments (the callee held in temps[dst])
            CallBuiltin, // temps[dst] = the call `expr` of the builtin `name` (`len(xs)`, `max(a, b)`) on x (and y,
                         // `when`: two arguments), each a variable or a literal read in place
            Item,        // temps[dst] = the subscript `expr`, `x[y]` (x a variable, y a variable or a literal): a
                         // dict's item or a list's or tuple's by an int in range at once, else the walker's value of `expr`
            Negate,      // temps[dst] = -x, the negation `expr` (a number's at once, anything else as eval_unary)
            SliceOf,     // temps[dst] = the subscript `expr`, `x[lo:hi]` (x a variable; each bound absent, an int
                         // literal, a variable or a scalar program): a string's, list's or tuple's run at once,
                         // else the walker's value of `expr`
            MethodReceiver,  // temps[dst] = x, the receiver of the method call `expr`; to `target` when x has no such method
            MethodCall,  // temps[dst] = the method call `expr` on temps[dst] (from MethodReceiver) with temps[dst + 1 ...];
                         // `name`: it is `name.append(v)`, name a local variable
            Store,       // the variable `name` = x
            StoreScalar, // `stmt`, `name = expr` (name a local, expr a scalar program): the number computed into
                         // the variable in place; when the program gives up, the walker runs `stmt`
            LoadItem,    // `stmt`, `name = x[y]`: when x is a dict that has key y, or a list or tuple with an item y
                         // (an int), that value stored; else the walker runs `stmt`
            StoreItem,   // the target `expr` (`name[y] = ...`, name a local) = x: a dict's key or a list's item in range
                         // stored at once, anything else as assign() stores it
            StoreNumber, // `stmt`, `name[k] = v` (the target `expr`, name a local, k an int that runs no code, y when
                         // it is a variable or a literal): v a
                         // number (`when`: the item of x, a variable, by an index that runs no code; else x, a
                         // variable or a literal, or when x is no operand v's scalar program) stored into a list's
                         // item in range in place; else the walker runs `stmt`
            Assign,      // the unpacking target `expr` (`a, b = ...`) = x, as assign() stores it
            Unpack,      // the same, every target a local variable: a list's or a tuple's items, as many as the
                         // targets, stored at once; anything else as assign() stores it
            AugStore,    // `stmt` (`name op= v`) with v's value x
            AugItem,     // `stmt`, `name[y] op= v` (name a local), v x (a variable or a literal) or `expr`'s
                         // scalar program: a number in a list computed in place; else the walker runs `stmt`
            Discard,     // temps[dst] dropped (an expression statement's value)
            Return,      // the frame returns x
            Jump,        // to `target`
            JumpOnTruth, // to `target` when the truth of `expr` (a condition, its errors located at `loc`) is `when`
            Compare,     // temps[dst] = x <expr's one comparison> y, both numbers read in place
            JumpOnCompare,  // to `target` when x <expr's one comparison> y is `when`
            JumpOnNone,  // to `target` when `x is None` (`when_none`) or `x is not None` is `when`
            JumpOnItem,  // to `target` when the truth of `expr`, `x[y]` (a number in a list or a tuple), is `when`
            Member,      // temps[dst] = x <expr's `in` / `not in`> y: a dict's or a set's key at once, else the walker's value
            JumpOnMember,  // to `target` when x <expr's `in` / `not in`> y is `when`
            Sequence,    // temps[dst] = the tuple or list display `expr` of temps[dst + 1 ...]
            ForRange,    // loop `dst` (a `for` over range(...), `stmt`) starts: its bounds
            ForIter,     // loop `dst` (a `for` over anything else, `stmt`) starts: the iterable
            ForRangeNext,  // the next number into `name`, or to `target` when there is none
            ForIterNext,   // the next item into the target `expr`, or to `target` when there is none
            ForStep,     // loop `dst` moves on; to `target` (its Next)
            ForEnd,      // loop `dst` is over: its iterable let go
            End          // the body's end: the frame returns None
        } op;
        uint16_t dst = 0;
        bool when = false;       // the Jump*On*: the truth that jumps
        bool when_none = false;  // JumpOnNone: the condition holds when x is None (`is`), or when not (`is not`)
        uint32_t target = 0;
        Operand x{}, y{};
        const lang::Expr* expr = nullptr;  // the node it runs (a Call for Call, a Compare for the compares...)
        const lang::Stmt* stmt = nullptr;  // Stmt, AugStore, AugItem, ForRange, ForIter, LoadItem, StoreScalar, StoreNumber
        const lang::Name* name = nullptr;  // Store, StoreScalar, LoadItem, StoreItem, StoreNumber, AugItem, ForRangeNext,
                                           // MethodCall
        lang::Loc loc{};                   // Line, CountLine, the For*Next, the Jump*On* (where a truth error is)
    };

    std::vector<Instr> code;
    std::vector<Value> consts;
    int temps = 0;  // the most any statement uses (at most kMaxTemps)
    int loops = 0;  // the deepest nesting of `for` loops (at most kMaxLoops)
    // A lambda's body (an expression, no statement): where its frame is from
    // the start (the walker's frame.loc), and no line of its own — an error
    // that is not located yet leaves it unlocated, as eval leaves it.
    bool lambda = false;
    lang::Loc entry{};
};

// The body code of a function (compiled on its first call), or null when
// the body holds what body code does not run (then the tree walker runs it).
// Safe to call from threads running one program.
const BodyCode* body_code_of(const FunctionFacts& facts, const lang::Block& body);
// The same for a lambda, whose body is the expression `body`.
const BodyCode* body_code_of(const FunctionFacts& facts, const lang::Expr& body);

// The compiled code a FunctionFacts keeps (made once; see body_code_of).
class BodyCodeSlot {
public:
    BodyCodeSlot() = default;
    ~BodyCodeSlot();
    BodyCodeSlot(const BodyCodeSlot&) = delete;
    BodyCodeSlot& operator=(const BodyCodeSlot&) = delete;

    // Whether the body was compiled yet (tried), and its code (null: not, or the tree walker's).
    bool tried() const { return tried_.load(std::memory_order_acquire); }
    const BodyCode* code() const { return code_.load(std::memory_order_acquire); }

private:
    template <class Compile>
    friend const BodyCode* compiled_once(const FunctionFacts&, Compile);
    mutable std::atomic<const BodyCode*> code_{nullptr};
    mutable std::atomic<bool> tried_{false};
};

}  // namespace tg::interp
