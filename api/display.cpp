// What a notebook shows of a value beyond its text (api/tool_api.hpp,
// docs/jupyter.md "Display"): a graph value's DOT.
#include <tg/tg.hpp>

#include "api/tensor.hpp"
#include "api/tool_api.hpp"
#include "interp/tracing/graph_value.hpp"
#include "interp/values/value.hpp"
#include "tracer/printer.hpp"

namespace tg {

std::string graph_value_dot(const Value& v) {
    const interp::Value& x = detail::Access::unwrap(v);
    if (!x.is(interp::Kind::Graph)) return "";
    return tracer::to_dot(*x.graph().fn.graph);
}

}  // namespace tg
