// The merge rules of converted control flow (tracer/carried_merge.hpp): how
// the types of a carried variable's two values join, and the one wording of
// each mismatch for branches and for loop iterations. The scripts in
// tests/scripts/graph_errors show the same messages end to end.
#include <doctest/doctest.h>

#include "tracer/carried_merge.hpp"
#include "tracer/graph.hpp"

using namespace tg::tracer;
using tg::stdlib::DType;
using tg::stdlib::Shape;
using tg::stdlib::TensorType;

namespace {
TensorType strong(DType d, Shape s = {}) { return {d, s, false}; }
TensorType weak(DType d) { return {d, {}, true}; }
// "f32[3]", "weak i64[]", or "none" (no join)
std::string joined(const TensorType& a, const TensorType& b) {
    std::optional<TensorType> j = join(a, b);
    return j ? to_string(*j) : "none";
}
}  // namespace

TEST_CASE("carried merge: equal types join, a literal takes a tensor's dtype of its own kind only") {
    CHECK(joined(strong(DType::F32, {3}), strong(DType::F32, {3})) == "f32[3]");
    CHECK(joined(weak(DType::I64), weak(DType::I64)) == "weak i64[]");
    CHECK(joined(weak(DType::I64), strong(DType::I32)) == "i32[]");
    CHECK(joined(strong(DType::F64), weak(DType::F64)) == "f64[]");
    CHECK(joined(weak(DType::F64), strong(DType::F32)) == "f32[]");
    CHECK(joined(weak(DType::I64), strong(DType::F32)) == "none");  // eager prints `1`, a graph `1.0`
    CHECK(joined(strong(DType::I32), strong(DType::I64)) == "none");
    CHECK(joined(strong(DType::F32, {2}), strong(DType::F32, {3})) == "none");
}

TEST_CASE("carried merge: a type mismatch names the dtypes, or the shapes") {
    Mismatch d = type_mismatch(weak(DType::I64), strong(DType::F32));
    CHECK(d.what == Mismatch::DType);
    CHECK(mismatch_message("s", d, MergeSite::Iterations, " in the loop at f.tg:3:5") ==
          "`s` changes dtype from i64 (an int literal) to f32 in the loop at f.tg:3:5; write the int literal as a "
          "float (`1.0` for `1`) so that every path gives a float");
    CHECK(mismatch_message("y", type_mismatch(strong(DType::F32), strong(DType::I32)), MergeSite::Branches,
                           " of the `if` at f.tg:4:5") == "`y` has dtype f32 in one branch and i32 in the other of the `if` at f.tg:4:5");
    CHECK(mismatch_message("y", type_mismatch(strong(DType::F32, {2}), strong(DType::F32, {3})), MergeSite::Iterations,
                           "") == "`y` changes shape from (2,) to (3,)");
}

TEST_CASE("carried merge: structure mismatches in both wordings") {
    const std::string at = " AT";
    auto both = [&](const Mismatch& m) {
        return std::make_pair(mismatch_message("v", m, MergeSite::Branches, at),
                              mismatch_message("v", m, MergeSite::Iterations, at));
    };
    auto [b1, l1] = both({Mismatch::Kind, "a list", "a tuple", ""});
    CHECK(b1 == "`v` is a list in one branch and a tuple in the other AT");
    CHECK(l1 == "`v` changes from a list to a tuple AT");
    auto [b2, l2] = both({Mismatch::Length, "1", "2", ""});
    CHECK(b2 == "`v` has length 1 in one branch and 2 in the other AT");
    CHECK(l2 == "`v` changes length from 1 to 2 AT");
    auto [b3, l3] = both({Mismatch::Value, "'a'", "'b'", ""});
    CHECK(b3 == "`v` has the value 'a' in one branch and 'b' in the other AT");
    CHECK(l3 == "`v` changes from 'a' to 'b' AT");
    auto [b4, l4] = both({Mismatch::Key, "'k'", "first", ""});
    CHECK(b4 == "`v` has the key 'k' in one branch but not in the other AT; a dict must have the same keys, in the "
                "same order, on both paths");
    CHECK(l4 == "`v` loses the key 'k' AT; a dict carried around a loop must keep its keys");
    CHECK(both({Mismatch::Key, "'k'", "second", ""}).second ==
          "`v` gains the key 'k' AT; a dict carried around a loop must keep its keys");
    auto [b5, l5] = both({Mismatch::KeyOrder, "['a', 'b']", "['b', 'a']", ""});
    CHECK(b5 == "`v` has the keys in the order ['a', 'b'] in one branch and ['b', 'a'] in the other AT; a dict must "
                "have the same keys, in the same order, on both paths");
    CHECK(l5 == "`v` changes the order of its keys from ['a', 'b'] to ['b', 'a'] AT; a dict carried around a loop "
                "must keep its keys");
}
