// A host serving an exported dynamic-batch MLP (docs/deploying.md "Dynamic
// dimensions"): tg makes the .tgx (concrete with spec(("batch", 4)) and a
// dict of weights, baked in or kept as inputs), the host loads it with
// tg::Graph and runs it at batch sizes 1, 7 and 256, agreeing with tg's
// eager results; wrong ranks and sizes are tg::Errors naming the input.
#include <doctest/doctest.h>

#include <tg/tg.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const char* kModel = R"(
params = {"l1": {"w": reshape(linspace(-1.0, 1.0, 64), (4, 16)), "b": linspace(-0.5, 0.5, 16)},
          "l2": {"w": reshape(cos(linspace(0.0, 6.0, 48)), (16, 3)), "b": tensor([0.1, -0.2, 0.3])}}

def predict(params, x):
    h = tanh(x @ params["l1"]["w"] + params["l1"]["b"])
    logits = h @ params["l2"]["w"] + params["l2"]["b"]
    return softmax(logits, axis=-1), logits - mean(logits, axis=0)

x1 = reshape(sin(arange(4).astype(f32)), (1, 4))
x7 = reshape(sin(arange(28).astype(f32)), (7, 4))
x256 = reshape(sin(arange(1024).astype(f32)), (256, 4))
save("const.tgx", concrete(predict, params, spec(("batch", 4))))
save("inputs.tgx", concrete(predict, params, spec((None, 4)), params_as_inputs=True))
)";

struct TempDir {
    fs::path path;
    TempDir() : path(fs::temp_directory_path() / ("tg-graph-dynamic-" + std::to_string(::getpid()))) {
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

void check_close(const tg::Tensor& got, const tg::Tensor& want) {
    REQUIRE(got.shape() == want.shape());
    const float* g = got.data_as<float>();
    const float* w = want.data_as<float>();
    int64_t n = 1;
    for (int64_t d : want.shape()) n *= d;
    for (int64_t i = 0; i < n; ++i) CHECK(std::fabs(g[i] - w[i]) <= 1e-5f * std::max(1.0f, std::fabs(w[i])));
}

std::string error_of(const tg::Graph& g, const std::vector<tg::Tensor>& in) {
    try {
        g.run(in);
    } catch (const tg::Error& e) {
        return e.message();
    }
    return "";
}

}  // namespace

TEST_CASE("tg::Graph runs an exported dynamic-batch MLP at any batch size") {
    TempDir dir;
    tg::Options o;
    o.file_root = dir.path.string();
    tg::Interpreter in(o);
    in.run_source(kModel);
    for (const bool jit : {true, false}) {
        tg::GraphOptions go;
        go.no_jit = !jit;
        const tg::Graph model = tg::Graph::load((dir.path / "const.tgx").string(), go);
        REQUIRE(model.inputs().size() == 1);
        CHECK(model.inputs()[0].shape == std::vector<int64_t>{-1, 4});
        CHECK(model.inputs()[0].dims == std::vector<std::string>{"batch", ""});
        CHECK(model.outputs()[0].dims == std::vector<std::string>{"batch", ""});
        CHECK(model.min_size("batch") == 1);
        const tg::Graph kept = tg::Graph::load((dir.path / "inputs.tgx").string(), go);
        REQUIRE(kept.inputs().size() == 5);
        CHECK(kept.inputs()[0].name == "l1/w");
        CHECK(kept.inputs()[4].dims == std::vector<std::string>{"x_dim0", ""});
        in.run_source("w1, b1, w2, b2 = params['l1']['w'], params['l1']['b'], params['l2']['w'], params['l2']['b']\n");
        std::vector<tg::Tensor> weights;
        for (const char* name : {"w1", "b1", "w2", "b2"}) weights.push_back(in.get(name).as_tensor());
        for (const char* n : {"1", "7", "256"}) {
            const tg::Tensor x = in.get(std::string("x") + n).as_tensor();
            in.run_source(std::string("probs, centered = predict(params, x") + n + ")\n");
            const tg::Tensor probs = in.get("probs").as_tensor();
            const tg::Tensor centered = in.get("centered").as_tensor();
            std::vector<tg::Tensor> out = model.run({x});
            check_close(out[0], probs);
            check_close(out[1], centered);
            std::vector<tg::Tensor> args = weights;
            args.push_back(x);
            out = kept.run(args);
            check_close(out[0], probs);
            check_close(out[1], centered);
        }
        // a wrong rank, a static size, a dim shared by name: errors naming the input
        CHECK(error_of(model, {tg::Tensor::from_floats(std::vector<float>(4), {4})}).find("expected 2 axes") !=
              std::string::npos);
        CHECK(error_of(model, {tg::Tensor::from_floats(std::vector<float>(10), {2, 5})}).find("axis 1 must be 4") !=
              std::string::npos);
    }
    in.run_source("save('two.tgx', concrete(lambda a, b: a * b, spec(('n', 3)), spec(('n', 3))))\n");
    const tg::Graph two = tg::Graph::load((dir.path / "two.tgx").string());
    const std::string why = error_of(two, {tg::Tensor::from_floats(std::vector<float>(6), {2, 3}),
                                           tg::Tensor::from_floats(std::vector<float>(9), {3, 3})});
    CHECK(why.find("dimension `n`") != std::string::npos);
    CHECK(why.find("it is 2 in `a`") != std::string::npos);
    CHECK(two.run({tg::Tensor::from_floats(std::vector<float>(9, 2.0f), {3, 3}),
                   tg::Tensor::from_floats(std::vector<float>(9, 3.0f), {3, 3})})[0].shape() == std::vector<int64_t>{3, 3});
}
