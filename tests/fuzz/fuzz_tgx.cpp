// libFuzzer target: the .tgx reader (tracer/tgx.hpp) on arbitrary bytes,
// with the checksum check off so that mutations reach the parser and the
// verifier. A file that loads is printed (text and DOT), written back and
// read again: that must give the same text. Then it runs on the reference
// graph interpreter — what `load` + a call with `--no-jit` does with an
// untrusted file — on zero inputs of the declared types, under a memory
// budget and a loop-iteration budget: a program error (RuntimeError) or a
// limit is fine, nothing may crash or leak.
#include <cstddef>
#include <cstdint>
#include <span>

#include "stdlib/budget.hpp"
#include "stdlib/random.hpp"
#include "tracer/graph_interpreter.hpp"
#include "tracer/printer.hpp"
#include "tracer/tgx.hpp"

namespace {

struct TooLong {};  // the iteration budget ran out

void run(const tg::tracer::GraphFunction& f) {
    using namespace tg;
    stdlib::Budget* budget = stdlib::Budget::create();
    budget->max_bytes = int64_t{64} << 20;
    {
        stdlib::Budget::Scope scope(budget);
        stdlib::Rng rng(0);
        tracer::RunContext ctx;
        ctx.rng = &rng;
        ctx.write = [](std::string_view) {};
        int64_t iterations = 0;
        ctx.on_iteration = [&] {
            if (++iterations > 20000) throw TooLong{};
        };
        try {
            std::vector<stdlib::Tensor> inputs;
            for (tracer::ValueId v : f.graph->inputs()) {
                const stdlib::TensorType& t = f.graph->tensor_type(v);
                inputs.push_back(stdlib::Tensor::zeros(t.dtype, t.shape));
            }
            (void)tracer::run_graph(*f.graph, inputs, ctx);
        } catch (const tracer::RuntimeError&) {
        } catch (const stdlib::OpError&) {  // a limit (memory), or an input too large to make
        } catch (const TooLong&) {
        }
    }
    budget->release();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > (size_t{1} << 20)) return -1;
    const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
    tg::tracer::GraphFunction f;
    try {
        f = tg::tracer::read_tgx(bytes, {.verify_checksum = false});
    } catch (const tg::tracer::TgxError&) {
        return 0;
    }
    const std::string text = tg::tracer::print_graph(*f.graph);
    (void)tg::tracer::to_dot(*f.graph);
    const std::vector<std::byte> again = tg::tracer::write_tgx(f);
    if (tg::tracer::print_graph(*tg::tracer::read_tgx(again).graph) != text) __builtin_trap();
    run(f);
    return 0;
}
