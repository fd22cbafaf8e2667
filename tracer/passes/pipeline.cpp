#include <algorithm>

#include "tracer/passes.hpp"
#include "tracer/printer.hpp"
#include "tracer/verifier.hpp"

namespace tg::tracer {

namespace {
const Pass kStandard[] = {
    {"fold", fold_constants},
    {"simplify", simplify_algebra},
    {"cse", eliminate_common_subexpressions},
    {"dce", eliminate_dead_code},
};
}  // namespace

std::span<const Pass> standard_passes() { return kStandard; }

const Pass* find_pass(std::string_view name) {
    for (const Pass& p : kStandard)
        if (p.name == name) return &p;
    return nullptr;
}

int run_pipeline(Graph& g, std::span<const Pass> passes, const PipelineOptions& options) {
    auto dumped = [&](std::string_view name) {
        if (!options.dump) return false;
        const auto& d = options.dump_after;
        return std::find(d.begin(), d.end(), "all") != d.end() || std::find(d.begin(), d.end(), name) != d.end();
    };
    int round = 0;
    while (round < options.max_rounds) {
        ++round;
        bool changed = false;
        for (const Pass& p : passes) {
            bool c = p.run(g);
            changed |= c;
            if (options.verify) {
                try {
                    verify(g);
                } catch (const VerifyError& e) {
                    throw VerifyError("after pass " + std::string(p.name) + ": " + e.what());
                }
            }
            if ((c || round == 1) && dumped(p.name)) options.dump(p.name, print_graph(g));
        }
        if (!changed) break;
    }
    return round;
}

}  // namespace tg::tracer
