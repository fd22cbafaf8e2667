// dtypes and type promotion (SPEC §2.1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tg::stdlib {

// Ordered by promotion: bool < i32 < i64 < f32 < f64.
enum class DType : uint8_t { Bool, I32, I64, F32, F64 };

const char* dtype_name(DType d);                       // "bool", "i32", ...
std::optional<DType> dtype_from_name(std::string_view); // inverse of dtype_name
size_t dtype_size(DType d);
inline bool is_float(DType d) { return d == DType::F32 || d == DType::F64; }
inline bool is_int(DType d) { return d == DType::I32 || d == DType::I64; }

// The dtype of `a op b` for arithmetic, with weak (literal) operands per SPEC §2.1.
// A weak operand is a literal or arithmetic among literals only: weak int is
// stored as i64, weak float as f64, and the result is weak only if both are.
struct Promoted {
    DType dtype;
    bool weak;
};
Promoted promote(DType a, bool a_weak, DType b, bool b_weak);

}  // namespace tg::stdlib
