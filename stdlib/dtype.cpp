// dtype names, sizes and the promotion rule (decisions: see dtype.hpp).
#include "stdlib/dtype.hpp"

#include <utility>

#include <algorithm>

namespace tg::stdlib {

const char* dtype_name(DType d) {
    switch (d) {
        case DType::Bool: return "bool";
        case DType::I32: return "i32";
        case DType::I64: return "i64";
        case DType::F32: return "f32";
        case DType::F64: return "f64";
    }
    return "?";
}

std::optional<DType> dtype_from_name(std::string_view name) {
    for (DType d : {DType::Bool, DType::I32, DType::I64, DType::F32, DType::F64})
        if (name == dtype_name(d)) return d;
    return std::nullopt;
}

std::optional<DType> dtype_from_string(std::string_view name) {
    if (auto d = dtype_from_name(name)) return d;
    static constexpr std::pair<std::string_view, DType> kNumPy[] = {
        {"float32", DType::F32}, {"f4", DType::F32}, {"float64", DType::F64}, {"f8", DType::F64},
        {"double", DType::F64},  {"int32", DType::I32}, {"i4", DType::I32},   {"int64", DType::I64},
        {"i8", DType::I64},      {"bool_", DType::Bool}, {"?", DType::Bool},
    };
    for (const auto& [n, d] : kNumPy)
        if (n == name) return d;
    return std::nullopt;
}

size_t dtype_size(DType d) {
    switch (d) {
        case DType::Bool: return 1;
        case DType::I32: return 4;
        case DType::I64: return 8;
        case DType::F32: return 4;
        case DType::F64: return 8;
    }
    return 1;
}

Promoted promote(DType a, bool a_weak, DType b, bool b_weak) {
    // Bool literals are never weak (bool is the bottom of the order anyway).
    if (a == DType::Bool) a_weak = false;
    if (b == DType::Bool) b_weak = false;
    if (a_weak && b_weak) {
        bool flt = is_float(a) || is_float(b);
        return {flt ? DType::F32 : DType::I64, true};
    }
    if (a_weak || b_weak) {
        DType w = a_weak ? a : b;       // the weak operand
        DType s = a_weak ? b : a;       // the strong one
        if (is_float(w)) return {is_float(s) ? s : DType::F32, false};
        return {s == DType::Bool ? DType::I64 : s, false};
    }
    return {std::max(a, b), false};
}

}  // namespace tg::stdlib
