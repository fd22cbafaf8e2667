// Graphs with dynamic dimensions (a generalized trace: Graph::set_dim_symbol)
// run at sizes other than the traced ones, on the reference interpreter and
// compiled, and must give exactly what the eager kernels give at that size:
// the oracle is the same graph built with static types at that size, run by
// the reference interpreter (the stdlib's kernels, node by node). Sizes 2,
// 3, 7, 1000 and 70000 (the last crosses the thread pool's chunking); the
// graphs are traced at 11 (symbol 0) and 13 (symbol 1), so a traced size
// that leaks into a loop bound, a buffer or a divisor gives a wrong shape or
// wrong values.
#include <doctest/doctest.h>

#include <cmath>
#include <set>

#include "codegen/compiler.hpp"
#include "tests/codegen/graph_compare.hpp"
#include "tracer/graph_interpreter.hpp"
#include "tracer/verifier.hpp"

using namespace tg;
using stdlib::DType;
using stdlib::Shape;
using stdlib::Tensor;
using stdlib::TensorType;
using tracer::Graph;
using tracer::ValueId;
using namespace tg::codegen_test;

namespace {

codegen::Compiler& compiler() {
    static codegen::Compiler c([] {
        codegen::JitOptions o;
        o.object_cache = false;
        return o;
    }());
    return c;
}

// A dimension of an input: a static size, or symbol k as kSym0 - k.
constexpr int64_t kSym0 = -1, kSym1 = -2;
const std::vector<int64_t> kTraced = {11, 13};  // the sizes the dynamic graphs are traced at (by default)

struct InputSpec {
    DType dtype;
    std::vector<int64_t> dims;
};

Shape shape_at(const InputSpec& s, std::span<const int64_t> sizes) {
    Shape out;
    for (int64_t d : s.dims) out.push_back(d >= 0 ? d : sizes[static_cast<size_t>(-d - 1)]);
    return out;
}

using Body = std::function<void(Graph&, const std::vector<ValueId>& in, std::vector<ValueId>& outs)>;

// Marks, as the tracer's generalization would: a result's dimension whose
// traced size is symbol k's when an operand carries k; region arguments and
// control-flow results like the values they stand for.
void mark_region(Graph& g, tracer::RegionId r, std::span<const int64_t> traced) {
    auto copy_marks = [&](ValueId to, ValueId from) {
        if (g.type(to).token) return;
        for (int a = 0; a < g.tensor_type(to).shape.rank(); ++a)
            if (int k = g.dim_symbol(from, a); k >= 0) g.set_dim_symbol(to, a, k);
    };
    for (tracer::NodeId n : std::vector<tracer::NodeId>(g.region(r).nodes)) {
        const tracer::Node& node = g.node(n);
        if (node.op == tracer::Op::Cond || node.op == tracer::Op::While) {
            const size_t first = node.op == tracer::Op::Cond ? 1 : 0;
            for (tracer::RegionId sub : node.regions)
                for (size_t i = 0; i < g.region(sub).args.size(); ++i)
                    copy_marks(g.region(sub).args[i], node.operands[first + i]);
            for (tracer::RegionId sub : node.regions) mark_region(g, sub, traced);
            for (size_t i = 0; i < node.results.size(); ++i)
                copy_marks(node.results[i], node.op == tracer::Op::While
                                                ? node.operands[i]
                                                : g.node(g.region(node.regions[0]).nodes.back()).operands[i]);
            continue;
        }
        std::set<int> syms;
        for (ValueId o : node.operands)
            if (!g.type(o).token)
                for (int a = 0; a < g.tensor_type(o).shape.rank(); ++a)
                    if (g.dim_symbol(o, a) >= 0) syms.insert(g.dim_symbol(o, a));
        for (ValueId v : node.results) {
            if (g.type(v).token) continue;
            const Shape& s = g.tensor_type(v).shape;
            for (int a = 0; a < s.rank(); ++a)
                for (int k : syms)
                    if (s[a] == traced[size_t(k)]) g.set_dim_symbol(v, a, k);
        }
    }
}

// The graph over inputs `specs` at symbol sizes `sizes`; dynamic: traced at
// those sizes, with the symbols marked.
std::unique_ptr<Graph> make(const std::vector<InputSpec>& specs, const Body& body, std::span<const int64_t> sizes,
                            bool dynamic) {
    auto g = std::make_unique<Graph>("dyn");
    ValueId tok = g->add_input_token();
    std::vector<ValueId> ins, outs;
    for (const InputSpec& s : specs) ins.push_back(g->add_input({s.dtype, shape_at(s, sizes), false}));
    if (dynamic) {
        std::vector<tracer::SymbolSource> sources;
        for (int k = 0; k < 2; ++k)
            for (size_t i = 0; i < specs.size() && sources.size() == size_t(k); ++i)
                for (size_t a = 0; a < specs[i].dims.size(); ++a)
                    if (specs[i].dims[a] == -k - 1) {
                        sources.push_back({i, int(a)});
                        break;
                    }
        g->set_symbol_sources(sources);
        for (size_t i = 0; i < specs.size(); ++i)
            for (size_t a = 0; a < specs[i].dims.size(); ++a)
                if (specs[i].dims[a] < 0) g->set_dim_symbol(ins[i], int(a), int(-specs[i].dims[a] - 1));
    }
    body(*g, ins, outs);
    outs.push_back(tok);
    g->yield(outs);
    tracer::verify(*g);
    if (dynamic) mark_region(*g, Graph::kBody, sizes);
    return g;
}

// Deterministic inputs: ordinary values with a few -0.0 and exact integers.
Tensor data(DType d, const Shape& s, int64_t seed) {
    Tensor t = Tensor::empty(d, s);
    for (int64_t i = 0; i < t.numel(); ++i) {
        const double v = std::sin(0.37 * double(i + seed)) * 3.0;
        switch (d) {
            case DType::F32: t.data<float>()[i] = (i + seed) % 17 == 5 ? -0.0f : float(v); break;
            case DType::F64: t.data<double>()[i] = (i + seed) % 17 == 5 ? -0.0 : v; break;
            case DType::I32: t.data<int32_t>()[i] = int32_t(std::lround(v * 10)); break;
            case DType::I64: t.data<int64_t>()[i] = std::lround(v * 10); break;
            case DType::Bool: t.data<bool>()[i] = v > 0.5; break;
        }
    }
    return t;
}

// The values of the 0-d inputs (specs with no dims), in order, per size n
// (an index, a loop count, a predicate).
using Scalars = std::function<std::vector<Tensor>(int64_t n)>;

// Runs the dynamic graph at every size, interpreted and compiled, against
// the static graph at that size run by the eager kernels. Symbol 1 (if
// used) has another size than symbol 0 (70000 when symbol 0's is 5).
void check(const std::vector<InputSpec>& specs, const Body& body, const Scalars& scalars = {},
           const std::function<void(const codegen::LoweringStats&)>& stats = {},
           const std::vector<int64_t>& ns = {2, 3, 7, 1000, 70000}, const std::vector<int64_t>& traced = kTraced) {
    const std::unique_ptr<Graph> dyn = make(specs, body, traced, true);
    auto compiled = compiler().compile(*dyn, "dyn");
    if (stats) stats(compiled->stats());
    for (int64_t n : ns) {
        // symbol 1 (if used) small when symbol 0 is large (their product can be a matmul's size)
        const int64_t sizes[] = {n, n == 2 ? 5 : n == 5 ? 70000 : n % 7 + 2};
        std::vector<Tensor> given = scalars ? scalars(n) : std::vector<Tensor>{}, in;
        size_t next = 0;
        for (size_t i = 0; i < specs.size(); ++i)
            in.push_back(specs[i].dims.empty() ? given.at(next++) : data(specs[i].dtype, shape_at(specs[i], sizes), int64_t(i) * 7));
        const std::unique_ptr<Graph> stat = make(specs, body, sizes, false);
        const Outcome eager = run_ref(*stat, in);
        const Outcome interp = run_ref(*dyn, in), jit = run_jit(*compiled, in);
        INFO("sizes " << sizes[0] << ", " << sizes[1] << "\n" << tracer::print_graph(*dyn));
        CHECK(interp.error == eager.error);
        CHECK(jit.error == eager.error);
        REQUIRE(interp.values.size() == eager.values.size());
        REQUIRE(jit.values.size() == eager.values.size());
        for (size_t k = 0; k < eager.values.size(); ++k) {
            const std::string di = first_difference(eager.values[k], interp.values[k]);
            const std::string dj = first_difference(eager.values[k], jit.values[k]);
            CHECK_MESSAGE(di.empty(), "output " << k << " (" << output_op(*dyn, k) << ") interpreted: " << di);
            CHECK_MESSAGE(dj.empty(), "output " << k << " (" << output_op(*dyn, k) << ") compiled: " << dj);
        }
    }
}

}  // namespace
TEST_CASE("dynamic batch: a fused element-wise chain with a broadcast static row, and with a static [1,4]") {
    for (DType d : {DType::F32, DType::F64, DType::I64}) {
        INFO("dtype " << stdlib::dtype_name(d));
        check({{d, {kSym0, 4}}, {d, {4}}, {d, {1, 4}}},
              [&](Graph& g, const std::vector<ValueId>& in, std::vector<ValueId>& outs) {
                  // y = (x * b - x) + 3;  z = y * w  (w: [1, 4]);  y and z both read outside: two buffers
                  ValueId y = g.apply1("add", {g.apply1("sub", {g.apply1("mul", {in[0], in[1]}), in[0]}),
                                               g.constant(Tensor::weak_int(3))});
                  ValueId z = g.apply1("mul", {y, in[2]});
                  outs = {y, z};
                  if (stdlib::is_float(d)) outs.push_back(g.apply1("tanh", {g.apply1("neg", {z})}));
              },
              {}, [&](const codegen::LoweringStats& s) {
                  CHECK(s.runtime_nodes == 0);  // all native: the batch axis is the outer loop
                  CHECK(s.fused_groups == 1);
              });
    }
}

TEST_CASE("dynamic batch: sum, mean, max over all, over axis 0 and over axis 1 of [?0,4] fuse and match") {
    for (DType d : {DType::F32, DType::F64, DType::I64, DType::I32}) {
        INFO("dtype " << stdlib::dtype_name(d));
        check({{d, {kSym0, 4}}, {d, {4}}},
              [&](Graph& g, const std::vector<ValueId>& in, std::vector<ValueId>& outs) {
                  for (const char* op : {"sum", "mean", "max", "min", "prod", "any"})
                      for (int axis : {2, 0, 1, -1}) {  // 2: all
                          ValueId y = g.apply1("add", {g.apply1("mul", {in[0], in[1]}), in[0]});  // one reader each
                          const stdlib::Attr ax = axis == 2 ? stdlib::Attr{} : stdlib::Attr{int64_t(axis)};
                          outs.push_back(g.apply1(op, {y}, {}, {std::monostate{}, ax, axis == -1}));
                      }
              },
              {}, [&](const codegen::LoweringStats& s) {
                  CHECK(s.runtime_nodes == 0);
                  CHECK(s.fused_reductions == 24);
              });
    }
}

TEST_CASE("dynamic batch: matmul [?0,4] @ [4,3] then a fused bias and relu") {
    check({{DType::F32, {kSym0, 4}}, {DType::F32, {4, 3}}, {DType::F32, {3}}},
          [&](Graph& g, const std::vector<ValueId>& in, std::vector<ValueId>& outs) {
              ValueId h = g.apply1("matmul", {in[0], in[1]});
              ValueId y = g.apply1("maximum", {g.apply1("add", {h, in[2]}), g.constant(Tensor::weak_float(0.0))});
              ValueId sq = g.apply1("mul", {y, y});  // read only by the mean: fused into it
              outs = {y, g.apply1("mean", {sq}, {}, {std::monostate{}, int64_t(0), false})};
          },
          {}, [&](const codegen::LoweringStats& s) {
              CHECK(s.runtime_nodes == 1);  // the matmul
              CHECK(s.fused_reductions == 1);
          });
}

TEST_CASE("dynamic batch: a while loop carrying [?0,4] and a cond yielding one") {
    check({{DType::F32, {kSym0, 4}}, {DType::I64, {}}, {DType::Bool, {}}},
          [&](Graph& g, const std::vector<ValueId>& in, std::vector<ValueId>& outs) {
              // i = 0; while i < k: x = x * 0.5 + 1; i += 1
              std::vector<ValueId> inits{g.constant(Tensor::scalar(int64_t(0), DType::I64)), in[0]};
              auto w = g.add_while(inits);
              auto cr = g.node(w).regions[0], br = g.node(w).regions[1];
              g.enter(cr);
              {
                  auto a = g.args(cr);
                  std::vector<ValueId> ys{g.apply1("lt", {a[0], in[1]}), a[0], a[1]};
                  g.yield(ys);
              }
              g.exit();
              g.enter(br);
              {
                  auto a = g.args(br);
                  ValueId x = g.apply1("add", {g.apply1("mul", {a[1], g.constant(Tensor::weak_float(0.5))}),
                                               g.constant(Tensor::weak_float(1.0))});
                  std::vector<ValueId> ys{g.apply1("add", {a[0], g.constant(Tensor::weak_int(1))}), x};
                  g.yield(ys);
              }
              g.exit();
              const ValueId looped = g.finish(w)[1];
              // if p: y = looped * 2 else: y = looped - x
              std::vector<ValueId> cin{looped};
              auto c = g.add_cond(in[2], cin);
              for (int k = 0; k < 2; ++k) {
                  const auto r = g.node(c).regions[size_t(k)];
                  g.enter(r);
                  ValueId a = g.args(r)[0];
                  std::vector<ValueId> ys{k == 0 ? g.apply1("mul", {a, g.constant(Tensor::weak_float(2.0))})
                                                 : g.apply1("sub", {a, in[0]})};
                  g.yield(ys);
                  g.exit();
              }
              const ValueId y = g.finish(c)[0];
              outs = {looped, y, g.apply1("sum", {y}, {}, {std::monostate{}, int64_t(1), false})};
          },
          [](int64_t n) {
              return std::vector<Tensor>{Tensor::scalar(int64_t(n % 4 + 1), DType::I64), Tensor::scalar(n % 2 == 0)};
          });
}

TEST_CASE("dynamic batch: undef of a dynamic type has the run's size") {
    check({{DType::F32, {kSym0, 4}}},
          [&](Graph& g, const std::vector<ValueId>& in, std::vector<ValueId>& outs) {
              TensorType t = g.tensor_type(in[0]);
              ValueId u = g.undef(tracer::ValueType::of(t));
              if (g.dim_symbol(in[0], 0) >= 0) g.set_dim_symbol(u, 0, 0);  // undef has no operand to take it from
              outs = {u, g.apply1("add", {u, in[0]})};
          });
}

TEST_CASE("dynamic batch: reading and storing x[i, 1] with i in and out of range raise eager's error") {
    for (int64_t i : {0, 1, -1, -2, 2, 6, -3, -8, 999, 69999, 70000, -70000, -70001}) {
        INFO("i = " << i);
        check({{DType::F32, {kSym0, 4}}, {DType::I64, {}}},
              [&](Graph& g, const std::vector<ValueId>& in, std::vector<ValueId>& outs) {
                  tracer::IndexSpec spec{{stdlib::IndexItem{}, stdlib::IndexItem{}}, {true, false}};
                  spec.items[1].index = 1;
                  tracer::IndexSpec last{{stdlib::IndexItem{}, stdlib::IndexItem{}}, {false, false}};
                  last.items[0].index = -2;  // static, on the dynamic axis: checked at run time too
                  last.items[1].index = 3;
                  std::vector<ValueId> dyn{in[1]};
                  ValueId e = g.index(in[0], spec, dyn, tracer::SrcLoc{nullptr, {4, 9}, nullptr});
                  ValueId f = g.index(in[0], last, {}, tracer::SrcLoc{nullptr, {5, 9}, nullptr});
                  ValueId y = g.index_assign(g.apply1("mul", {in[0], g.constant(Tensor::weak_float(2.0))}),
                                             g.apply1("add", {e, f}), spec, dyn, tracer::SrcLoc{nullptr, {6, 9}, nullptr});
                  outs = {e, f, y};
              },
              [&](int64_t) { return std::vector<Tensor>{Tensor::scalar(i, DType::I64)}; },
              [&](const codegen::LoweringStats& s) { CHECK(s.runtime_nodes == 0); }, {2, 3, 7, 1000, 70000});
    }
}

TEST_CASE("a dynamic dimension at axis 1 (after a transpose) runs in the runtime and matches") {
    check({{DType::F32, {kSym0, 4}}, {DType::F32, {4, 1}}},
          [&](Graph& g, const std::vector<ValueId>& in, std::vector<ValueId>& outs) {
              ValueId t = g.apply1("transpose", {in[0]});  // [4, ?0]
              ValueId y = g.apply1("add", {g.apply1("mul", {t, in[1]}), g.constant(Tensor::weak_float(1.0))});
              tracer::IndexSpec spec{{stdlib::IndexItem{}, stdlib::IndexItem{}}, {false, false}};
              spec.items[0].index = 2;
              spec.items[1].index = 1;
              outs = {y, g.apply1("sum", {y}, {}, {std::monostate{}, int64_t(1), false}), g.index(y, spec, {})};
          },
          {}, [&](const codegen::LoweringStats& s) {
              CHECK(s.runtime_nodes >= 5);  // transpose, mul, add, sum, index: no fused loop over [4, ?0]
              CHECK(s.fused_groups == 0);
          });
}

TEST_CASE("two symbols in one graph") {
    check({{DType::F32, {kSym0, 4}}, {DType::F32, {kSym1, 4}}},
          [&](Graph& g, const std::vector<ValueId>& in, std::vector<ValueId>& outs) {
              ValueId a = g.apply1("sum", {g.apply1("mul", {in[0], in[0]})}, {}, {std::monostate{}, int64_t(0), false});  // [4]
              ValueId b = g.apply1("add", {in[1], a});                                               // [?1, 4]
              ValueId x2 = g.apply1("mul", {in[0], g.constant(Tensor::weak_float(3.0))});            // [?0, 4]
              ValueId c = g.apply1("matmul", {x2, g.apply1("transpose", {b})});                       // [?0, ?1]
              outs = {a, b, x2, c, g.apply1("mean", {b}), g.apply1("max", {c}, {}, {std::monostate{}, int64_t(1), false})};
          },
          {}, [&](const codegen::LoweringStats& s) { CHECK(s.fused_groups >= 2); }, {2, 3, 5, 7, 1000, 70000});
}

TEST_CASE("a dynamic [?0,4] and a static [8,4] traced at the same size are separate loops") {
    // traced at 8 = the static rows of w: one loop over 8 rows would compute
    // x's result at the wrong size for every other batch
    check({{DType::F32, {kSym0, 4}}, {DType::F32, {8, 4}}},
          [&](Graph& g, const std::vector<ValueId>& in, std::vector<ValueId>& outs) {
              ValueId a = g.apply1("mul", {in[0], g.constant(Tensor::weak_float(2.0))});
              ValueId b = g.apply1("mul", {in[1], g.constant(Tensor::weak_float(3.0))});
              ValueId c = g.apply1("add", {a, g.constant(Tensor::weak_float(1.0))});
              outs = {a, b, c};
          },
          {}, [&](const codegen::LoweringStats& s) {
              CHECK(s.fused_groups == 3);
              CHECK(s.runtime_nodes == 0);
          }, {2, 3, 7, 8, 1000, 70000}, {8, 13});
}

TEST_CASE("dynamic batch of rank 3: merged loop dims, broadcasting inner operands, row and full reductions") {
    check({{DType::F32, {kSym0, 3, 5}}, {DType::F32, {5}}, {DType::F32, {3, 1}}},
          [&](Graph& g, const std::vector<ValueId>& in, std::vector<ValueId>& outs) {
              auto y = [&] { return g.apply1("sub", {g.apply1("mul", {in[0], in[1]}), in[2]}); };  // [?0,3,5]
              ValueId e = g.apply1("exp", {in[0]});  // contiguous only: one flat loop
              outs = {y(), e, g.apply1("max", {y()}, {}, {std::monostate{}, int64_t(-1), true}),
                      g.apply1("sum", {y()}), g.apply1("mean", {g.apply1("sigmoid", {e})})};
          },
          {}, [&](const codegen::LoweringStats& s) {
              // as with static shapes, reductions of a broadcasting rank-3 group run the
              // stdlib's kernel on its buffer; the mean of a flat group fuses
              CHECK(s.runtime_nodes == 2);
              CHECK(s.fused_reductions == 1);
              CHECK(s.fused_groups == 3);  // [exp, y, y] until the max, [y] until the sum, [sigmoid + mean]
          });
}

TEST_CASE("dynamic batch: integer floor division by zero raises eager's error at its node") {
    // data() gives zeros among the i64 divisors at some sizes only: no error at some, an error at others
    check({{DType::I64, {kSym0, 4}}, {DType::I64, {kSym0, 4}}},
          [&](Graph& g, const std::vector<ValueId>& in, std::vector<ValueId>& outs) {
              ValueId q = g.apply1("floordiv", {g.apply1("add", {in[0], in[0]}), in[1]}, tracer::SrcLoc{nullptr, {3, 14}, nullptr});
              outs = {q, g.apply1("mod", {in[0], g.constant(Tensor::weak_int(7))})};
          },
          {}, [&](const codegen::LoweringStats& s) { CHECK(s.runtime_nodes == 0); });
}

TEST_CASE("a graph with dynamic dimensions is not bounded work: it compiles before its first call") {
    for (bool dynamic : {false, true}) {
        const int64_t sizes[] = {11};
        auto g = make({{DType::F32, {kSym0, 4}}},
                      [](Graph& g, const std::vector<ValueId>& in, std::vector<ValueId>& outs) {
                          outs = {g.apply1("neg", {in[0]})};
                      },
                      sizes, dynamic);
        CHECK((codegen::bounded_work(*g) < 0) == dynamic);
    }
}
