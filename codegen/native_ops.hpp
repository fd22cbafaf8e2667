// How compiled code computes each op itself: one row per element-wise op
// (native_ops.cpp), keyed by its stdlib kind, never by its name. A row says,
// per class of compute type (bool, integers, floats), which LLVM instruction,
// intrinsic, runtime function or short emitter computes one element, or that
// the class is excluded (the node then runs through the runtime). The rows
// generate IrBuilder::unary / binary, the prelude's declarations and the
// runtime functions' symbols; the result type comes from the stdlib's
// signature (comparisons and predicates give i1). Reductions have rows too
// (fused into their producers' loop, or through the runtime).
#pragma once

#include <string>
#include <vector>

#include "codegen/ir_builder.hpp"
#include "codegen/jit_session.hpp"
#include "stdlib/op_table.hpp"

namespace tg::codegen {

// How one element is computed for one class of compute types.
enum class How : uint8_t {
    Excluded,   // not lowered for these types
    Identity,   // the operand itself (floor of an integer)
    Literal,    // a constant: `name` ("false" for isnan of an integer)
    Inst,       // one instruction: `name T x` / `name T a, b` ("fneg", "add", "icmp slt")
    Intrinsic,  // unary: `call T @llvm.<name>.f32|f64(T x)`
    Call,       // `call T @tg_<name>_<suffix>(...)`: a runtime function of the row, or a prelude helper
    Emit,       // several instructions, written by `emit`
};

using UnaryEmit = std::string (*)(IrBuilder& b, Ty t, const std::string& x);
using BinaryEmit = std::string (*)(IrBuilder& b, Ty t, const std::string& a, const std::string& c);

template <class EmitFn>
struct ElemImpl {
    How how = How::Excluded;
    const char* name = nullptr;
    EmitFn emit = nullptr;
};

// The C functions a Call row needs from the runtime (null: a prelude helper).
template <class F32, class F64>
struct RuntimeFns {
    F32 f32 = nullptr;
    F64 f64 = nullptr;
};

template <class Kind, class EmitFn, class Fns>
struct Lowering {
    Kind kind;
    ElemImpl<EmitFn> b, i, f;  // by compute type: bool; i32 and i64; f32 and f64
    Fns runtime = {};  // the runtime functions a Call of the float column needs (f32, f64)

    const ElemImpl<EmitFn>& impl(Ty t) const { return t == Ty::B ? b : is_int_ty(t) ? i : f; }
};

using UnaryLowering = Lowering<stdlib::UnaryKind, UnaryEmit, RuntimeFns<float (*)(float), double (*)(double)>>;
using BinaryLowering = Lowering<stdlib::BinaryKind, BinaryEmit,
                                RuntimeFns<float (*)(float, float), double (*)(double, double)>>;

// A reduction's row: fused into its producers' loop (lower_reduce.cpp), or
// run through the runtime (tg_rt_node).
struct ReduceLowering {
    stdlib::ReduceKind kind;
    bool fused;
};

// The row of a kind; null when it has none (the node runs through the runtime,
// and the coverage test fails).
const UnaryLowering* unary_lowering(stdlib::UnaryKind k);
const BinaryLowering* binary_lowering(stdlib::BinaryKind k);
const ReduceLowering* reduce_lowering(stdlib::ReduceKind k);

// What compiled code does with an op (tests/codegen/test_op_coverage.cpp).
enum class Coverage {
    Missing,   // an element-wise op or reduction without a row, or an op without a kind
    Native,    // compiled code computes it (element-wise rows, where / clip / astype)
    Fused,     // a reduction fused into its producers' loop where the shapes allow, else the runtime
    Runtime,   // explicitly through the runtime: reductions marked so, and every op of an OtherKind
               // (linear algebra, shapes, creation, random, nn)
};
Coverage coverage(const stdlib::OpDef& op);

// From the rows: `declare` lines of the runtime functions and intrinsics
// (module_prelude), and the runtime functions' symbols (runtime_symbols).
std::string row_declarations();
void add_row_symbols(std::vector<RuntimeSymbol>& out);

}  // namespace tg::codegen
