// Every op of the table has a typed kind (stdlib/op_kinds.hpp), which
// backends key their rules on instead of the op's name (docs/adding-an-op.md):
// no op is left without one, each kind's X-macro name is its op's name, and
// op_of gives back the op of each kind.
#include <doctest/doctest.h>

#include <string>
#include <type_traits>
#include <variant>

#include "stdlib/op_table.hpp"

using namespace tg::stdlib;

namespace {

// op_of of whichever kind the variant holds; null for monostate.
const OpDef* op_of_kind(const OpKind& kind) {
    return std::visit(
        [](auto k) -> const OpDef* {
            if constexpr (std::is_same_v<decltype(k), std::monostate>) return nullptr;
            else return &op_of(k);
        },
        kind);
}

template <class K, int N>
void check_every_kind_has_its_op() {
    for (int i = 0; i < N; ++i) {
        const K k = static_cast<K>(i);
        INFO("kind `" << op_kind_name(k) << "`");
        const OpDef& op = op_of(k);
        CHECK(op.kind == OpKind{k});
        CHECK(op.name == op_kind_name(k));
    }
}

}  // namespace

TEST_CASE("every op has a kind, named like the op") {
    int others = 0;
    for (const OpDef* op : all_ops()) {
        const bool typed = !std::holds_alternative<std::monostate>(op->kind);
        CHECK_MESSAGE(typed, "op `" << op->name
                                    << "` has no kind: add its row to TG_OTHER_OPS in stdlib/op_kinds.hpp and set it "
                                       "where the op is registered (docs/adding-an-op.md)");
        if (!typed) continue;
        CHECK_MESSAGE(op_kind_name(op->kind) == op->name,
                      "op `" << op->name << "` has the kind of `" << op_kind_name(op->kind) << "`");
        // one op per kind: op_of finds this op again
        CHECK_MESSAGE(op_of_kind(op->kind) == op, "op `" << op->name << "` shares its kind with another op");
        if (std::holds_alternative<OtherKind>(op->kind)) ++others;
    }
    CHECK(others == kNumOtherKinds);
}

TEST_CASE("op_of gives the op of every kind") {
    check_every_kind_has_its_op<UnaryKind, kNumUnaryKinds>();
    check_every_kind_has_its_op<BinaryKind, kNumBinaryKinds>();
    check_every_kind_has_its_op<ReduceKind, kNumReduceKinds>();
    check_every_kind_has_its_op<ElementwiseKind, kNumElementwiseKinds>();
    check_every_kind_has_its_op<OtherKind, kNumOtherKinds>();
    CHECK(op_of(OtherKind::BroadcastTo).name == "broadcast_to");
    CHECK(&op_of(OtherKind::Tensor) == find_op("constant"));  // an alias resolves to the same op
    CHECK(&op_of(BinaryKind::Add) == &binary_op(BinaryKind::Add));
    CHECK(op_kind_name(OpKind{}).empty());
}
