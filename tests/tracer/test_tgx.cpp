// .tgx files (tracer/tgx.hpp): a round trip gives the same graph and the
// same results bit for bit; a truncated, corrupted or newer file is a
// TgxError, never a crash.
#include <doctest/doctest.h>

#include <cstring>
#include <random>

#include "helpers.hpp"
#include "tracer/graph_interpreter.hpp"
#include "tracer/tgx.hpp"

namespace tg::tracer::test {
namespace {

// def f(x, n):                  (x: f32[3], n: i64[])
//     y = x * [1.5, -2, 3]
//     print("y =", y)
//     k, acc = 0, y
//     while k < n: acc = acc + y; k += 1
//     if sum(acc) > 0: acc = acc * 2  else: acc = -acc
//     return acc, acc[1]
GraphFunction sample() {
    auto g = std::make_shared<Graph>("f");
    ValueId tok = g->add_input_token();
    ValueId x = g->add_input(f32({3}), "x");
    ValueId n = g->add_input(i64(), "n");
    Tensor c = vec({1.5f, -2.0f, 3.0f});
    ValueId y = g->apply1("mul", {x, g->constant(c, at(2, 13))}, at(2, 11));
    Template text{{TextPiece::Text, "y = ", 0}, {TextPiece::Str, "", 0}, {TextPiece::Text, "\n", 0}};
    ValueId ys[] = {y};
    tok = g->print(tok, text, ys, at(3, 5));
    ValueId inits[] = {g->constant(Tensor::weak_int(0), at(4, 13)), y};
    NodeId w = g->add_while(inits, at(5, 5));
    RegionId cr = g->node(w).regions[0], br = g->node(w).regions[1];
    g->enter(cr);
    {
        ValueId k = g->args(cr)[0], acc = g->args(cr)[1];
        ValueId p = g->truth(g->apply1("lt", {k, n}, at(5, 13)), at(5, 5));
        ValueId out[] = {p, k, acc};
        g->yield(out);
    }
    g->exit();
    g->enter(br);
    {
        ValueId k = g->args(br)[0], acc = g->args(br)[1];
        ValueId out[] = {g->apply1("add", {k, g->constant(Tensor::weak_int(1), at(5, 40))}, at(5, 37)),
                         g->apply1("add", {acc, y}, at(5, 24))};
        g->yield(out);
    }
    g->exit();
    ValueId acc = g->finish(w)[1];
    const stdlib::OpDef& sum = op("sum");
    std::vector<stdlib::Attr> sum_attrs(sum.params.size());
    for (size_t i = 0; i < sum_attrs.size(); ++i) sum_attrs[i] = sum.params[i].default_value;
    sum_attrs[0] = std::monostate{};
    ValueId s = g->apply1(sum, std::span<const ValueId>(&acc, 1), sum_attrs, at(6, 8));
    ValueId p = g->truth(g->apply1("gt", {s, g->constant(Tensor::weak_int(0), at(6, 21))}, at(6, 19)), at(6, 5));
    ValueId ins[] = {acc};
    NodeId cn = g->add_cond(p, ins, at(6, 5));
    g->enter(g->node(cn).regions[0]);
    {
        ValueId a = g->args(g->node(cn).regions[0])[0];
        ValueId out[] = {g->apply1("mul", {a, g->constant(Tensor::weak_float(2.0), at(6, 36))}, at(6, 34))};
        g->yield(out);
    }
    g->exit();
    g->enter(g->node(cn).regions[1]);
    {
        ValueId a = g->args(g->node(cn).regions[1])[0];
        ValueId out[] = {g->apply1("neg", {a}, at(6, 50))};
        g->yield(out);
    }
    g->exit();
    ValueId r = g->finish(cn)[0];
    IndexSpec one;
    one.items.push_back({stdlib::IndexItem::Int, 1, {}, {}, {}});
    ValueId r1 = g->index(r, one, {}, at(7, 17));
    ValueId out[] = {r, r1, tok};
    g->yield(out);
    verify(*g);

    GraphFunction f;
    f.name = "f";
    f.params = {"x", "n"};
    f.args = {Structure{}, Structure{}};
    f.result = Structure{Structure::Tuple, {Structure{}, Structure{}}, {}};
    f.inputs = input_specs(*g);
    f.outputs = output_specs(*g, f.result);
    f.graph = g;
    return f;
}

struct Run {
    std::vector<Tensor> outs;
    std::string printed;
};

// Runs a graph on the reference interpreter, at most `max_iterations` loop iterations.
Run run(const GraphFunction& f, int64_t n, int max_iterations = 1000) {
    Run r;
    RunContext ctx;
    ctx.write = [&](std::string_view s) { r.printed += s; };
    int iterations = 0;
    ctx.on_iteration = [&] {
        if (++iterations > max_iterations) throw std::runtime_error("too many iterations");
    };
    Tensor in[] = {vec({1.0f, 2.0f, 0.25f}), Tensor::scalar(n)};
    r.outs = run_graph(*f.graph, in, ctx);
    return r;
}

bool same_bits(const Tensor& a, const Tensor& b) {
    if (a.dtype() != b.dtype() || !(a.shape() == b.shape()) || a.weak() != b.weak()) return false;
    const Tensor x = a.contiguous(), y = b.contiguous();
    return std::memcmp(x.raw_data(), y.raw_data(), size_t(x.numel()) * stdlib::dtype_size(x.storage_dtype())) == 0;
}

bool same_run(const Run& a, const Run& b) {
    if (a.printed != b.printed || a.outs.size() != b.outs.size()) return false;
    for (size_t i = 0; i < a.outs.size(); ++i)
        if (!same_bits(a.outs[i], b.outs[i])) return false;
    return true;
}

std::string message_of(std::span<const std::byte> bytes, TgxReadOptions o = {}) {
    try {
        read_tgx(bytes, o);
    } catch (const TgxError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("tgx: a round trip keeps the graph, its specs and its results") {
    const GraphFunction f = sample();
    const std::vector<std::byte> bytes = write_tgx(f);
    const GraphFunction g = read_tgx(bytes);
    CHECK(g.name == "f");
    CHECK(g.params == f.params);
    CHECK(g.args == f.args);
    CHECK(g.result == f.result);
    CHECK(g.inputs == f.inputs);
    CHECK(g.outputs == f.outputs);
    CHECK(print_graph(*g.graph) == print_graph(*f.graph));
    CHECK(to_dot(*g.graph) == to_dot(*f.graph));
    for (int64_t n : {0, 1, 3}) {
        const Run a = run(f, n), b = run(g, n);
        CHECK(a.printed == "y = [1.5, -4.0, 0.75]\n");
        CHECK(same_run(a, b));
    }
    const std::vector<std::byte> again = write_tgx(g);
    size_t diff = 0;
    while (diff < again.size() && diff < bytes.size() && again[diff] == bytes[diff]) ++diff;
    CHECK_MESSAGE(again == bytes, "first difference at byte " << diff << " of " << bytes.size() << " / " << again.size());  // stable
}

TEST_CASE("tgx: constants are 64-byte aligned and the header describes the file") {
    const std::vector<std::byte> bytes = write_tgx(sample());
    auto u64 = [&](size_t at) {
        uint64_t v = 0;
        for (int i = 0; i < 8; ++i) v |= uint64_t(static_cast<uint8_t>(bytes[at + i])) << (8 * i);
        return v;
    };
    CHECK(std::memcmp(bytes.data(), "\x89TGX\r\n\x1a\n", 8) == 0);
    CHECK(static_cast<uint8_t>(bytes[8]) == 1);  // a static graph: the lowest version that holds it
    CHECK(kTgxFormatVersion == 2);
    CHECK(u64(16) == 64);
    CHECK(u64(32) % 64 == 0);
    CHECK(u64(32) + u64(40) + 4 == bytes.size());
    // the f32 constant [1.5, -2, 3] is the first thing in the data section
    float first[3];
    std::memcpy(first, bytes.data() + u64(32), sizeof first);
    CHECK(first[0] == 1.5f);
    CHECK(first[1] == -2.0f);
    CHECK(first[2] == 3.0f);
}

TEST_CASE("tgx: every truncation is an error") {
    const std::vector<std::byte> bytes = write_tgx(sample());
    for (size_t n = 0; n < bytes.size(); ++n) {
        const std::string m = message_of(std::span(bytes).first(n));
        CHECK_MESSAGE(!m.empty(), "length " << n);
        if (n >= 8) CHECK_MESSAGE(m.find("truncated") != std::string::npos, "length " << n << ": " << m);
    }
}

TEST_CASE("tgx: random byte flips give an error or the identical result, never a crash") {
    const GraphFunction f = sample();
    const std::vector<std::byte> bytes = write_tgx(f);
    const Run want = run(f, 2);
    std::mt19937 rng(17);
    int errors = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        std::vector<std::byte> bad = bytes;
        const int flips = 1 + int(rng() % 3);
        for (int k = 0; k < flips; ++k) bad[rng() % bad.size()] ^= std::byte(1 + rng() % 255);
        try {
            const GraphFunction g = read_tgx(bad);
            CHECK(same_run(run(g, 2), want));
        } catch (const TgxError&) {
            ++errors;
        }
    }
    CHECK(errors == 3000);  // CRC-32 catches every one of these
}

TEST_CASE("tgx: behind the checksum, the parser and the verifier reject corrupted graphs") {
    // The checksum off: each flipped byte reaches the parser. Whatever loads
    // has passed the verifier and runs (to an error or a result), never crashes.
    const std::vector<std::byte> bytes = write_tgx(sample());
    std::mt19937 rng(4);
    int loaded = 0, rejected = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        std::vector<std::byte> bad = bytes;
        const int flips = 1 + int(rng() % 2);
        for (int k = 0; k < flips; ++k) bad[rng() % bad.size()] ^= std::byte(1 + rng() % 255);
        try {
            const GraphFunction g = read_tgx(bad, {.verify_checksum = false});
            ++loaded;
            // what loads can be written and read back unchanged (as tests/fuzz/fuzz_tgx.cpp checks)
            CHECK(print_graph(*read_tgx(write_tgx(g)).graph) == print_graph(*g.graph));
            try {
                run(g, 2);
            } catch (const std::exception&) {
                // a run-time error of the changed graph: fine
            }
        } catch (const TgxError&) {
            ++rejected;
        }
    }
    CHECK(rejected > 0);
    CHECK(loaded + rejected == 3000);
}

TEST_CASE("tgx: foreign, newer and hand-edited files are clear errors") {
    std::vector<std::byte> bytes = write_tgx(sample());
    const std::string text = "def f(x):\n    return x\n";
    CHECK(message_of(std::as_bytes(std::span(text))).find("not a .tgx file") != std::string::npos);

    std::vector<std::byte> newer = bytes;
    newer[8] = std::byte{kTgxFormatVersion + 1};
    CHECK(message_of(newer).find("newer") != std::string::npos);

    std::vector<std::byte> edited = bytes;
    edited[edited.size() - 10] ^= std::byte{0x40};
    CHECK(message_of(edited).find("checksum") != std::string::npos);

    std::vector<std::byte> longer = bytes;
    longer.push_back(std::byte{0});
    CHECK(!message_of(longer).empty());
}

TEST_CASE("tgx: a graph calling a host function cannot be saved") {
    auto g = std::make_shared<Graph>("h");
    ValueId tok = g->add_input_token();
    ValueId x = g->add_input(f32({2}), "x");
    ValueId args[] = {x};
    TensorType rt[] = {f32({2})};
    std::vector<ValueId> r = g->host_call(tok, HostFn{1, "callback"}, args, rt, at(1, 1));
    g->yield(r);
    GraphFunction f;
    f.name = "h";
    f.params = {"x"};
    f.args = {Structure{}};
    f.inputs = input_specs(*g);
    f.outputs = output_specs(*g, f.result);
    f.graph = g;
    CHECK_THROWS_WITH_AS(write_tgx(f), doctest::Contains("host function `callback`"), TgxError);
}


// docs/tgx-format.md "Dynamic dimensions": version 2 keeps the marks, the
// symbols' names and smallest sizes; a static graph is still version 1.
TEST_CASE("tgx: dynamic dimensions round trip as version 2") {
    auto g = std::make_shared<Graph>("f");
    ValueId tok = g->add_input_token();
    ValueId x = g->add_input(f32({5, 3}), "x");
    ValueId y = g->apply1("mul", {x, x}, at(2, 11));
    ValueId out[] = {y, tok};
    g->yield(out);
    g->set_dim_symbol(x, 0, 0);
    g->set_dim_symbol(y, 0, 0);
    SymbolSource s(0, 0);
    s.name = "batch";
    s.min_size = 1;
    g->set_symbol_sources({s});
    GraphFunction f;
    f.name = "f";
    f.params = {"x"};
    f.args = {Structure{}};
    f.graph = g;
    f.inputs = input_specs(*g);
    f.outputs = output_specs(*g, f.result);
    const std::vector<std::byte> bytes = write_tgx(f);
    CHECK(static_cast<uint8_t>(bytes[8]) == 2);
    const GraphFunction back = read_tgx(bytes);
    CHECK(back.inputs[0].dims == std::vector<std::string>{"batch", ""});
    CHECK(back.outputs[0].dims == std::vector<std::string>{"batch", ""});
    REQUIRE(back.graph->num_dim_symbols() == 1);
    CHECK(back.graph->symbol_sources()[0].name == "batch");
    CHECK(back.graph->symbol_sources()[0].min_size == 1);
    // every truncation of it is an error, never a crash
    for (size_t n = 0; n < bytes.size(); n += 7)
        CHECK_THROWS_AS(read_tgx(std::span<const std::byte>(bytes.data(), n)), TgxError);
}

}  // namespace tg::tracer::test
