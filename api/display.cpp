// What a notebook shows of a value beyond its text (api/tool_api.hpp,
// docs/notebooks.md "Display"): a graph value's DOT, a figure's SVG.
#include <tg/tg.hpp>

#include "api/tensor.hpp"
#include "api/tool_api.hpp"
#include "interp/builtins/figure.hpp"
#include "interp/error.hpp"
#include "interp/tracing/graph_value.hpp"
#include "interp/values/value.hpp"
#include "tracer/printer.hpp"

namespace tg {

std::string graph_value_dot(const Value& v) {
    const interp::Value& x = detail::Access::unwrap(v);
    if (!x.is(interp::Kind::Graph)) return "";
    return tracer::to_dot(*x.graph().fn.graph);
}

std::string figure_svg(const Value& v) {
    const interp::Value& x = detail::Access::unwrap(v);
    if (!interp::is_figure(x)) return "";
    try {
        const std::vector<std::byte> bytes = interp::figure_bytes(x, true);
        return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    } catch (const interp::Error& e) {
        throw detail::plain_error(e.message());
    }
}

}  // namespace tg
