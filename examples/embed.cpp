// Embedding tg in a C++ program through the public header only.
#include <tg/tg.hpp>

#include <cstdio>
#include <vector>

int main() {
    tg::Options options;
    options.write_output = [](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); };
    tg::Interpreter interp(options);

    // A host function callable from tg: scale(x, k) = x * k (on the C++ side).
    interp.define("host_norm2", [](std::span<const tg::Value> args) -> tg::Value {
        if (args.size() != 1) throw tg::HostError("takes 1 argument");
        tg::Tensor t = args[0].as_tensor();
        if (t.dtype() != tg::DType::F32) throw tg::HostError("expected an f32 tensor");
        const float* p = t.data_as<float>();
        double s = 0;
        for (int64_t i = 0; i < t.size(); ++i) s += double(p[i]) * p[i];
        return tg::Tensor::scalar(s, tg::DType::F64);
    });

    try {
        interp.run_source(R"(
def predict(w, x):
    return relu(x @ w)

print("norm2 from C++:", host_norm2(tensor([3.0, 4.0])))
)", "embedded.tg");

        // Wrap host memory without copying, call a tg function, read the result without copying.
        std::vector<float> w = {1.0f, -1.0f, 0.5f, 2.0f};  // 2x2
        std::vector<float> x = {1.0f, 2.0f};               // 1x2
        tg::Tensor tw = tg::Tensor::wrap(w.data(), tg::DType::F32, {2, 2});
        tg::Tensor tx = tg::Tensor::wrap(x.data(), tg::DType::F32, {1, 2});
        tg::Tensor y = interp.call("predict", {tw, tx}).as_tensor();
        const float* out = y.data_as<float>();
        std::printf("predict = [%g, %g] (shape %lldx%lld)\n", out[0], out[1], (long long)y.shape()[0],
                    (long long)y.shape()[1]);

        // Variables: bind from C++, read back.
        interp.set("n", tg::Value(int64_t{41}));
        interp.run_source("m = n + 1\n");
        std::printf("m = %s\n", interp.get("m").str().c_str());

        // Errors carry the location and the tg traceback.
        interp.run_source("def f(a):\n    return a // 0\nf(1)\n", "failing.tg");
    } catch (const tg::Error& e) {
        std::printf("caught tg::Error at %s:%d:%d: %s\n", e.file().c_str(), e.line(), e.col(), e.message().c_str());
        std::fputs(e.rendered().c_str(), stdout);
    }
    return 0;
}
