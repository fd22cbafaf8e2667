#include "cli/kernel/dot_svg.hpp"

#include <graphviz/gvc.h>

#include <memory>

namespace tg::kernel {

std::string dot_to_svg(const std::string& dot) {
    // a context per picture: Graphviz keeps its state in it (and in a few
    // globals of its own, which is why only the kernel's one thread calls this)
    std::unique_ptr<GVC_t, decltype(&gvFreeContext)> gvc(gvContext(), gvFreeContext);
    if (!gvc) return "";
    std::unique_ptr<Agraph_t, decltype(&agclose)> g(agmemread(dot.c_str()), agclose);
    if (!g) return "";
    if (gvLayout(gvc.get(), g.get(), "dot") != 0) return "";
    char* data = nullptr;
    unsigned int length = 0;
    const int status = gvRenderData(gvc.get(), g.get(), "svg", &data, &length);
    std::string svg = status == 0 && data ? std::string(data, length) : std::string();
    if (data) gvFreeRenderData(data);
    gvFreeLayout(gvc.get(), g.get());
    // the <svg> element alone: the XML prolog and DOCTYPE do not belong in a page
    const size_t start = svg.find("<svg");
    return start == std::string::npos ? "" : svg.substr(start);
}

}  // namespace tg::kernel
