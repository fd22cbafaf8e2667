// Cycles through trace caches (interp/values/cycles.hpp drop_traces), seen
// from inside the runtime: a host cannot observe them, the objects being
// gone with the interpreter unless they leak.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "interp/runtime.hpp"
#include "interp/values/value.hpp"
#include "lang/source.hpp"

using namespace tg::interp;

namespace {
// The function a main-module variable holds, after running `source`.
std::weak_ptr<const FunctionObj> run_and_find(Runtime& rt, const std::string& source, const std::string& name) {
    rt.run_chunk(rt.main_module(), std::make_shared<tg::lang::Source>("<test>", source));
    const Value& v = rt.main_module().globals[static_cast<size_t>(rt.main_module().slot_of(name))];
    REQUIRE(v.is(Kind::Function));
    return v.function_ptr();
}
}  // namespace

TEST_CASE("a recursive @graph function, whose trace captures it, is freed with the interpreter") {
    // fact's trace captures the global `fact`: function -> its trace cache ->
    // the trace -> the function, a cycle through no frame.
    std::weak_ptr<const FunctionObj> fact;
    {
        Options o;
        o.write_output = [](std::string_view) {};
        Runtime rt(o);
        fact = run_and_find(rt, R"(
@graph
def fact(n):
    if n <= 1:
        return tensor(1)
    return n * fact(n - 1)
print(fact(tensor(5)))
)", "fact");
        CHECK(!fact.expired());
    }
    CHECK(fact.expired());
}
