// Serving a saved graph from C++ (docs/embedding.md, docs/language.md "Graphs as values"): examples/static_graph.tg
// fits a model and saves its prediction as static_graph.tgx; this program
// loads that file — no .tg source, no interpreter — and answers queries
// from several threads at once, as a server would.
//
//   cd examples && ../build/tg static_graph.tg && ../build/examples/tg_serve_example static_graph.tgx
#include <tg/tg.hpp>

#include <cstdio>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : "static_graph.tgx";
    try {
        const tg::Graph model = tg::Graph::load(path);
        std::printf("%s:", model.name().c_str());
        for (const tg::Graph::Spec& s : model.inputs()) {
            std::printf(" %s: %s[", s.name.c_str(), tg::dtype_name(s.dtype));
            for (size_t i = 0; i < s.shape.size(); ++i) std::printf("%s%lld", i ? "," : "", (long long)s.shape[i]);
            std::printf("]");
        }
        std::printf("\n");

        // Each thread asks about its own points; run() is safe to call concurrently.
        std::vector<std::string> answers(4);
        std::vector<std::thread> workers;
        for (int t = 0; t < 4; ++t)
            workers.emplace_back([&, t] {
                const std::vector<float> query = {float(t), 0.0f, 0.0f, float(t), float(t), float(t)};
                const std::vector<tg::Tensor> out = model.run({tg::Tensor::from_floats(query, {3, 2})});
                answers[size_t(t)] = out[0].str();
            });
        for (std::thread& w : workers) w.join();
        for (int t = 0; t < 4; ++t) std::printf("query %d: %s\n", t, answers[size_t(t)].c_str());
    } catch (const tg::Error& e) {
        std::fprintf(stderr, "%s", e.rendered().c_str());
        return 1;
    }
    return 0;
}
