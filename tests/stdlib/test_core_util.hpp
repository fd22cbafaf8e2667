// Helpers shared by the stdlib core tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "stdlib/tensor.hpp"

namespace tg::stdlib::testing {

inline std::string data_path(const std::string& name) { return std::string(TG_STDLIB_TEST_DATA) + "/" + name; }

inline std::vector<std::string> read_lines(const std::string& name) {
    std::ifstream in(data_path(name));
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

inline float f32_from_bits(uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}
inline double f64_from_bits(uint64_t b) {
    double d;
    std::memcpy(&d, &b, 8);
    return d;
}
inline uint64_t bits_of(double d) {
    uint64_t b;
    std::memcpy(&b, &d, 8);
    return b;
}
inline uint32_t bits_of(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}
inline double parse_bits(const std::string& dtype, const std::string& hex) {
    uint64_t b = std::stoull(hex, nullptr, 16);
    return dtype == "f32" ? static_cast<double>(f32_from_bits(static_cast<uint32_t>(b))) : f64_from_bits(b);
}

// Values of a tensor in row-major order, as doubles (any layout).
inline std::vector<double> values(const Tensor& t0) {
    Tensor t = t0.contiguous();
    std::vector<double> out;
    const int64_t n = t.numel();
    for (int64_t i = 0; i < n; ++i) {
        switch (t.storage_dtype()) {
            case DType::Bool: out.push_back(t.data<bool>()[i]); break;
            case DType::I32: out.push_back(t.data<int32_t>()[i]); break;
            case DType::I64: out.push_back(static_cast<double>(t.data<int64_t>()[i])); break;
            case DType::F32: out.push_back(t.data<float>()[i]); break;
            case DType::F64: out.push_back(t.data<double>()[i]); break;
        }
    }
    return out;
}

}  // namespace tg::stdlib::testing
