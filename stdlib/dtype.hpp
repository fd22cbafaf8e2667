// dtypes and type promotion (docs/language.md "Values").
//
// Weak scalars — the decisions this runtime implements (tests in
// tests/stdlib/test_core_promotion.cpp):
//  * A weak value is a literal or arithmetic among literals only. A weak int
//    is stored as i64, a weak float as f64 (the literal's exact value); their
//    dtype() reports the default dtype, i64 / f32.
//  * weak op weak computes in i64 (both ints) or f64 (any float) and stays
//    weak (`1 / 2` is a weak float 0.5 computed in f64).
//  * weak int  with a bool tensor           -> i64
//    weak int  with an int or float tensor  -> that tensor's dtype
//    weak float with a bool or int tensor   -> f32
//    weak float with a float tensor         -> that tensor's dtype
//    The weak value is converted to the result dtype first (so `f64_t * 0.1`
//    uses the f64 nearest 0.1; `i32_t + 2**40` wraps to i32).
//  * strong with strong: the larger of bool < i32 < i64 < f32 < f64.
//  * A weak scalar used alone (`exp(2.0)`, `abs(-3)`, printing, indexing
//    results) behaves as its default dtype: it prints as f32 (`0.1` prints
//    `0.1`) or i64. Only `neg` and `invert` (literal arithmetic) keep weakness.
//  * `True` / `False` are strong bool (bool is the lowest dtype anyway).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tg::stdlib {

// Ordered by promotion: bool < i32 < i64 < f32 < f64.
enum class DType : uint8_t { Bool, I32, I64, F32, F64 };
inline constexpr int kNumDTypes = 5;

const char* dtype_name(DType d);                       // "bool", "i32", ...
std::optional<DType> dtype_from_name(std::string_view); // inverse of dtype_name
// A dtype written as a string, tg's or NumPy's: "f32", "float32", "f4",
// "int64", "i8", "bool", "bool_", "?" (not "float" or "int": Python's float
// is f64 where tg's float literal is f32, so they are refused).
std::optional<DType> dtype_from_string(std::string_view);
size_t dtype_size(DType d);
inline bool is_float(DType d) { return d == DType::F32 || d == DType::F64; }
inline bool is_int(DType d) { return d == DType::I32 || d == DType::I64; }

// The dtype of `a op b` for arithmetic, with weak (literal) operands per docs/language.md "Values".
// A weak operand is a literal or arithmetic among literals only: weak int is
// stored as i64, weak float as f64, and the result is weak only if both are.
// For a weak float operand pass DType::F32 (what dtype() reports) or F64.
struct Promoted {
    DType dtype;
    bool weak;
};
Promoted promote(DType a, bool a_weak, DType b, bool b_weak);

// The dtype a weak result is computed in: i64 for weak ints, f64 for weak floats.
inline DType weak_compute_dtype(DType reported) { return is_float(reported) ? DType::F64 : DType::I64; }

// C++ type <-> DType.
template <class T> struct DTypeOf;
template <> struct DTypeOf<bool> { static constexpr DType value = DType::Bool; };
template <> struct DTypeOf<int32_t> { static constexpr DType value = DType::I32; };
template <> struct DTypeOf<int64_t> { static constexpr DType value = DType::I64; };
template <> struct DTypeOf<float> { static constexpr DType value = DType::F32; };
template <> struct DTypeOf<double> { static constexpr DType value = DType::F64; };

template <class T> struct TypeTag { using type = T; };

// Calls f(TypeTag<T>{}) with the C++ type of d.
template <class F>
decltype(auto) dispatch_dtype(DType d, F&& f) {
    switch (d) {
        case DType::Bool: return f(TypeTag<bool>{});
        case DType::I32: return f(TypeTag<int32_t>{});
        case DType::I64: return f(TypeTag<int64_t>{});
        case DType::F32: return f(TypeTag<float>{});
        case DType::F64: break;
    }
    return f(TypeTag<double>{});
}

}  // namespace tg::stdlib
