// A tiny builder of LLVM IR text for one function: fresh SSA names, blocks,
// and the per-element semantics of tg's element-wise ops (ir_element.cpp,
// from the rows of native_ops.cpp), written to match
// stdlib/elementwise_scalar.hpp and stdlib/cast.hpp bit for bit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stdlib/dtype.hpp"
#include "stdlib/elementwise.hpp"

namespace tg::codegen {

// How a value is held: the storage type of its dtype (weak floats are f64,
// weak ints i64). Bool is i1 in registers and i8 in memory.
enum class Ty : uint8_t { B, I32, I64, F32, F64 };
Ty ty_of(stdlib::DType d);
Ty storage_ty(stdlib::DType d, bool weak);
const char* llvm_ty(Ty t);   // "i1", "i32", "i64", "float", "double"
const char* mem_ty(Ty t);    // "i8" for B, else llvm_ty
const char* ty_suffix(Ty t); // "b", "i32", "i64", "f32", "f64"
inline bool is_float_ty(Ty t) { return t == Ty::F32 || t == Ty::F64; }
inline bool is_int_ty(Ty t) { return t == Ty::I32 || t == Ty::I64; }

// An exact literal of type t (floats as IEEE hex).
std::string int_lit(int64_t v);
std::string float_lit(double v);

class IrBuilder {
public:
    std::vector<std::string> lines;
    std::string block = "entry";  // the block being appended to

    std::string tmp() { return "%t" + std::to_string(next_tmp_++); }
    std::string label(const char* hint) { return hint + std::to_string(next_label_++); }
    // Appends `%t = <rhs>` and returns %t.
    std::string def(const std::string& rhs) {
        std::string t = tmp();
        lines.push_back("  " + t + " = " + rhs);
        return t;
    }
    void emit(const std::string& line) { lines.push_back("  " + line); }
    void start(const std::string& l) {
        lines.push_back(l + ":");
        block = l;
    }
    // Ends the block with `br i1 c, ...`: error path to `fail` when c is true.
    void fail_if(const std::string& c) {
        std::string ok = label("ok");
        emit("br i1 " + c + ", label %fail, label %" + ok);
        start(ok);
    }
    // After a runtime call returning i32 (nonzero: failed).
    void check_status(const std::string& status) { fail_if(def("icmp ne i32 " + status + ", 0")); }

    // ---- element semantics (ir_element.cpp)
    // convert<To>(x) of stdlib/cast.hpp.
    std::string convert(const std::string& x, Ty from, Ty to);
    // a op b in compute type t (comparisons give i1). `node` is for errors
    // (integer division by zero, negative integer powers).
    std::string binary(stdlib::BinaryKind k, Ty t, const std::string& a, const std::string& b, uint32_t node);
    // op x in compute type t (logical_not / isnan / isfinite give i1).
    std::string unary(stdlib::UnaryKind k, Ty t, const std::string& x);
    // Python's a // b or a % b on integers of type t (b already checked).
    std::string int_floor_divmod(stdlib::BinaryKind k, Ty t, const std::string& a, const std::string& b);

private:
    int next_tmp_ = 0, next_label_ = 0;
    void check_int_rhs(stdlib::BinaryKind k, Ty t, const std::string& b, uint32_t node);
    std::string floor_divmod_by_constant(stdlib::BinaryKind k, Ty t, const std::string& a, uint64_t d);
};

// Declarations and internal helper functions every module carries.
std::string module_prelude();
// The prelude with only the helper functions `code` calls (parsing and
// dropping unused definitions costs compile time).
std::string module_prelude_for(const std::string& code);
// exp, log, tanh, sigmoid (f32 and f64) as inlinable IR (ir_fastmath.cpp).
std::string fastmath_functions();

}  // namespace tg::codegen
