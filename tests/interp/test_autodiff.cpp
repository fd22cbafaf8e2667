// The tape of interp/autodiff/autodiff.hpp: what is recorded, what is not, and the
// error for an op without a gradient rule (no op of the table lacks one,
// so a table-less op stands in for a future one).
#include <doctest/doctest.h>

#include "interp/autodiff/autodiff.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/runtime.hpp"

using namespace tg::interp;
using tg::stdlib::DType;
using tg::stdlib::Tensor;

namespace {
struct OnTape {
    Runtime rt{Options{}};
    Tape tape;
    OnTape() {
        tape.level = 1;
        tape.id = ++rt.tape_serial;
        rt.tapes.push_back(&tape);
    }
    Value tracked(Tensor t) {
        auto g = std::make_shared<GradObj>();
        g->primal = Value(std::move(t));
        g->level = 1;
        g->tape = tape.id;
        g->node = tape.nodes++;
        return Value::tracked(std::move(g));
    }
};
Tensor vec(std::initializer_list<double> xs) {
    Tensor t = Tensor::empty(DType::F32, tg::stdlib::Shape{int64_t(xs.size())});
    int i = 0;
    for (double x : xs) t.data<float>()[i++] = float(x);
    return t;
}
}  // namespace

TEST_CASE("ops on tracked tensors are recorded, bool results and stale wrappers are not") {
    OnTape h;
    Value x = h.tracked(vec({1, 2, 3}));
    Value y = binary(h.rt, tg::lang::BinOp::Mul, x, x);
    REQUIRE(y.tracked() != nullptr);
    CHECK(h.tape.entries.size() == 1);
    CHECK(h.tape.entries[0].in_nodes[0] == x.tracked()->node);
    Value c = compare(h.rt, tg::lang::CmpOp::Gt, y, Value::weak_float(2.0));
    CHECK(c.tracked() == nullptr);  // bool: no gradient, nothing recorded
    CHECK(h.tape.entries.size() == 1);
    h.rt.tapes.clear();  // the grad returned: its wrappers are plain values again
    Value z = binary(h.rt, tg::lang::BinOp::Add, y, y);
    CHECK(z.tracked() == nullptr);
    CHECK(tracked_level(h.rt, y) == 0);
    CHECK(z.tensor().data<float>()[2] == 18.0f);
}

TEST_CASE("an op without a gradient rule is an error naming the op") {
    OnTape h;
    tg::stdlib::OpDef fake = *tg::stdlib::find_op("exp");
    fake.name = "frobnicate";
    fake.grad = {};  // GradRule::Missing
    Value x = h.tracked(vec({1, 2}));
    Value in[1] = {x};
    try {
        tracked_op(h.rt, fake, in, {std::monostate{}});
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.message() == "grad: `frobnicate` has no gradient rule, so it cannot be differentiated");
    }
}

TEST_CASE("stop_gradient's untracked() strips every level") {
    OnTape h;
    Value x = h.tracked(vec({1}));
    Value l = Value::list({x, Value::tuple({x})});
    Value u = untracked(l);
    CHECK(!has_tracked(u));
    CHECK(has_tracked(l));
}
