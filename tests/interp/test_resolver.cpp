// The resolver maps every name to a slot once.
#include <doctest/doctest.h>

#include "tests/interp/resolved_chunk.hpp"

using namespace tg;

namespace {
using Resolved = testing::ResolvedChunk;
const lang::Name& returned_name(const lang::FunctionDef& f, size_t stmt) {
    return f.body[stmt]->as<lang::Return>().value->as<lang::Name>();
}
}  // namespace

TEST_CASE("parameters and assigned names are locals, others are globals or builtins") {
    Resolved r("g = 1\ndef f(a, b):\n    c = a\n    return c\ndef h():\n    return g\ndef k():\n    return print\n");
    const auto& f = r.def(1);
    auto* facts = static_cast<const interp::FunctionFacts*>(f.info.get());
    REQUIRE(facts);
    CHECK(facts->num_params == 2);
    CHECK(facts->num_slots() == 3);
    const auto& c = returned_name(f, 1);
    CHECK(c.scope == lang::Scope::Local);
    CHECK(c.slot == 2);
    const auto& g = returned_name(r.def(2), 0);
    CHECK(g.scope == lang::Scope::Global);
    CHECK(g.slot == r.m.find("g"));
    CHECK(returned_name(r.def(3), 0).scope == lang::Scope::Builtin);
}

TEST_CASE("enclosing variables resolve by depth, assignment makes a local") {
    Resolved r("def outer(x):\n    def inner():\n        return x\n    def shadow():\n        x = 2\n        return x\n    return inner\n");
    const auto& outer = r.def(0);
    const auto& inner = outer.body[0]->as<lang::FunctionDef>();
    const auto& x = returned_name(inner, 0);
    CHECK(x.scope == lang::Scope::Enclosing);
    CHECK(x.depth == 1);
    CHECK(x.slot == 0);
    const auto& shadow = outer.body[1]->as<lang::FunctionDef>();
    CHECK(returned_name(shadow, 1).scope == lang::Scope::Local);
}

TEST_CASE("assignment locations are recorded for 'not defined' notes") {
    Resolved r("def f(c):\n    if c:\n        y = 1\n    return y\n");
    auto* facts = static_cast<const interp::FunctionFacts*>(r.def(0).info.get());
    const auto& y = returned_name(r.def(0), 1);
    REQUIRE(y.scope == lang::Scope::Local);
    REQUIRE(facts->slots[y.slot].assigned_at.size() == 1);
    CHECK(facts->slots[y.slot].assigned_at[0] == lang::Loc{3, 9});
}
