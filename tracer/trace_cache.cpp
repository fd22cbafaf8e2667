// The retrace reasons' wording (tracer/trace_cache.hpp); --trace's goldens
// under tests/scripts show it.
#include "tracer/trace_cache.hpp"

namespace tg::tracer {

std::string rebound_reason(const std::string& name, const std::string& traced, const std::string& current) {
    return "captured `" + name + "` was rebound: " + traced + " → " + current;
}

std::string join_reasons(const std::vector<std::string>& reasons) {
    std::string out;
    for (const std::string& r : reasons) out += (out.empty() ? "" : "; ") + r;
    return out;
}

}  // namespace tg::tracer
