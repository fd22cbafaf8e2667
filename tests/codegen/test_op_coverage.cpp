// Every op of the table (stdlib::all_ops()) has its rule in codegen: a
// lowering row (codegen/native_ops.cpp), or an explicit "through the
// runtime". An op added to stdlib without its codegen row fails here, by
// name. (When autodiff lands, the same loop requires a gradient rule or an
// explicit "not differentiable": OpDef::grad.)
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "codegen/native_ops.hpp"
#include "codegen/runtime_abi.hpp"
#include "stdlib/elementwise.hpp"

using namespace tg;
using codegen::Coverage;
using stdlib::DType;

namespace {
const DType kDTypes[] = {DType::Bool, DType::I32, DType::I64, DType::F32, DType::F64};

bool has_symbol(const std::string& name) {
    const auto& syms = codegen::runtime_symbols();
    return std::any_of(syms.begin(), syms.end(), [&](const codegen::RuntimeSymbol& s) { return s.name == name; });
}
}  // namespace

TEST_CASE("every op has a lowering or is explicitly run through the runtime") {
    int native = 0, runtime = 0;
    for (const stdlib::OpDef* op : stdlib::all_ops()) {
        const Coverage c = codegen::coverage(*op);
        CHECK_MESSAGE(c != Coverage::Missing, "op `" << op->name
                                                     << "` has no lowering: add its row to codegen/native_ops.cpp "
                                                        "(docs/adding-an-op.md)");
        if (c == Coverage::Native || c == Coverage::Fused) ++native;
        else ++runtime;
    }
    CHECK(native > 40);
    CHECK(runtime > 20);
}

namespace {
// Every compute type the signature accepts has an implementation in the row,
// and the runtime functions its calls need are registered.
template <class Row, class Signature>
void check_row(const Row& row, Signature signature) {
    for (DType d : kDTypes) {
        stdlib::OpSignature s;
        try {
            s = signature(d);
        } catch (const stdlib::OpError&) {
            continue;  // the stdlib rejects this dtype
        }
        const codegen::Ty t = codegen::ty_of(s.compute);
        const auto& impl = row.impl(t);
        CHECK_MESSAGE(impl.how != codegen::How::Excluded, "no lowering for " << stdlib::dtype_name(s.compute));
        if (codegen::is_float_ty(t) && impl.how == codegen::How::Call && row.runtime.f32) {  // f32 and f64 functions
            CHECK(has_symbol("tg_" + std::string(impl.name) + "_f32"));
            CHECK(has_symbol("tg_" + std::string(impl.name) + "_f64"));
        }
    }
}
}  // namespace

TEST_CASE("element-wise rows lower every dtype the stdlib's signature accepts") {
    for (const stdlib::OpDef* op : stdlib::all_ops()) {
        INFO("op " << op->name);
        if (const auto* k = std::get_if<stdlib::UnaryKind>(&op->kind); k && codegen::unary_lowering(*k))
            check_row(*codegen::unary_lowering(*k), [&](DType d) { return stdlib::unary_signature(*k, d, false); });
        if (const auto* k = std::get_if<stdlib::BinaryKind>(&op->kind); k && codegen::binary_lowering(*k))
            check_row(*codegen::binary_lowering(*k),
                      [&](DType d) { return stdlib::binary_signature(*k, d, false, d, false); });
    }
}

TEST_CASE("an op without a kind has no lowering, an op of an OtherKind runs through the runtime") {
    stdlib::OpDef untyped{"untyped", {}, nullptr, nullptr, stdlib::kElementwise, "", {}};
    CHECK(codegen::coverage(untyped) == Coverage::Missing);
    stdlib::OpDef untyped_shape_op{"untyped_shape_op", {}, nullptr, nullptr, 0, "", {}};
    CHECK(codegen::coverage(untyped_shape_op) == Coverage::Missing);
    stdlib::OpDef shape_op{"shape_op", {}, nullptr, nullptr, 0, "", stdlib::OtherKind::Reshape};
    CHECK(codegen::coverage(shape_op) == Coverage::Runtime);
}
