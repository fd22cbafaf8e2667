// A small tg host: built against an installed tg with find_package(tg) or
// pkg-config (docs/embedding.md). Prints a few lines and exits 0 on success.
#include <tg/debug.hpp>
#include <tg/tg.hpp>

#include <cstdio>
#include <string>

int main() {
    std::string out;
    tg::Options options;
    options.write_output = [&](std::string_view s) { out += s; };
    options.max_steps = 1'000'000;          // per run
    options.max_memory_bytes = 64 << 20;     // tensor data held at once
    options.max_seconds = 10;                // wall time per run
    tg::Interpreter interp(options);
    interp.define("host_scale", [](std::span<const tg::Value> args) -> tg::Value {
        if (args.size() != 2) throw tg::HostError("takes 2 arguments");
        return tg::Tensor::scalar(args[0].as_tensor().item() * args[1].as_tensor().item(), tg::DType::F64);
    });
    try {
        interp.run_source(R"(
@graph
def predict(w, x):
    return relu(x @ w)

print("host_scale:", host_scale(3.0, 7.0))
)", "host.tg");
        float w[4] = {1, -1, 0.5f, 2}, x[2] = {1, 2};
        tg::Tensor y = interp.call("predict", {tg::Tensor::wrap(w, tg::DType::F32, {2, 2}),
                                               tg::Tensor::wrap(x, tg::DType::F32, {1, 2})})
                           .as_tensor();
        const float* p = y.data_as<float>();
        std::printf("%s", out.c_str());
        out.clear();
        std::printf("tg %s: predict = [%g, %g]\n", tg::version(), p[0], p[1]);
    } catch (const tg::Error& e) {
        std::fputs(e.rendered().c_str(), stderr);
        return 1;
    }
    // A limit ends the run with a located error; the interpreter stays usable.
    try {
        interp.run_source("x = ones((10,))\nbig = zeros((100000000,))\n", "big.tg");
        std::printf("the memory limit did not act\n");
        return 1;
    } catch (const tg::Error& e) {
        std::string m = e.message();
        std::printf("limit: %s:%d: %s\n", e.file().c_str(), e.line(), m.substr(0, m.find(" (")).c_str());
    }
    interp.run_source("print(sum(x))\n");
    std::printf("%s", out.c_str());
    out.clear();

    // A debugger (<tg/debug.hpp>): stops at a breakpoint, reads the frame.
    struct Show : tg::Debugger {
        tg::Resume stopped(const tg::DebugStop& s) override {
            const tg::DebugFrame& f = s.frames[0];
            std::printf("stopped at %s:%d in %s: x = %s\n", f.file().c_str(), f.line(), f.function().c_str(),
                        f.evaluate("x").str().c_str());
            return tg::Resume::Continue;
        }
    } show;
    interp.attach_debugger(&show);
    tg::BreakpointSpec b;
    b.file = "debug.tg";
    b.line = 3;
    interp.add_breakpoint(b);
    interp.run_source("@graph\ndef twice(x):\n    return x * 2.0\n\nprint(twice(tensor([1.0, 2.0])))\n", "debug.tg");
    interp.attach_debugger(nullptr);
    std::printf("%s", out.c_str());
    return 0;
}
