// Calling ops of the table from tests: by name, with keyword arguments and
// the table's defaults, through both the shape rule and the eager kernel.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "stdlib/op_table.hpp"

namespace tg::stdlib::test {

using Kw = std::vector<std::pair<std::string, Attr>>;

inline std::vector<Attr> bind(const OpDef& def, const Kw& kw) {
    std::vector<Attr> attrs;
    for (const ParamDef& p : def.params) {
        Attr a = p.default_value;
        for (const auto& [name, v] : kw)
            if (p.name == name) a = v;
        if (p.kind == ParamKind::Tensor || p.kind == ParamKind::TensorList || p.kind == ParamKind::Value)
            a = std::monostate{};
        attrs.push_back(a);
    }
    return attrs;
}

inline const OpDef& op(const char* name) {
    const OpDef* d = find_op(name);
    REQUIRE_MESSAGE(d != nullptr, name);
    return *d;
}

// The eager kernel.
inline Tensor call(const char* name, std::vector<Tensor> inputs, const Kw& kw = {}) {
    const OpDef& def = op(name);
    std::vector<Attr> attrs = bind(def, kw);
    OpContext ctx;
    return def.eager(ctx, OpArgs{inputs, attrs});
}

// The shape rule on the inputs' types only.
inline TensorType infer(const char* name, std::vector<TensorType> inputs, const Kw& kw = {}) {
    const OpDef& def = op(name);
    std::vector<Attr> attrs = bind(def, kw);
    return def.infer(TypeArgs{inputs, attrs});
}

inline TensorType type_of(const Tensor& t) { return {t.dtype(), t.shape(), t.weak()}; }

// The same error from the shape rule and from the kernel.
#define TG_CHECK_OP_ERROR(name, inputs, kw, message)                                                              \
    do {                                                                                                          \
        std::vector<::tg::stdlib::Tensor> tg_in_ = inputs;                                                        \
        const std::string tg_msg_ = message;                                                                      \
        std::vector<::tg::stdlib::TensorType> tg_ty_;                                                             \
        for (const auto& t : tg_in_) tg_ty_.push_back(::tg::stdlib::test::type_of(t));                            \
        CHECK_THROWS_WITH_AS(::tg::stdlib::test::infer(name, tg_ty_, kw), tg_msg_.c_str(), ::tg::stdlib::OpError); \
        CHECK_THROWS_WITH_AS(::tg::stdlib::test::call(name, tg_in_, kw), tg_msg_.c_str(), ::tg::stdlib::OpError);  \
    } while (0)

}  // namespace tg::stdlib::test
