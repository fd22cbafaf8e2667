#include "cli/kernel/mime.hpp"

#include "api/tool_api.hpp"
#include "cli/kernel/dot_svg.hpp"
#include "cli/kernel/html_table.hpp"

#include <algorithm>

namespace tg::kernel {

nlohmann::json mime_bundle(const Value& v) {
    nlohmann::json bundle = {{"text/plain", v.repr()}};
    if (v.is_tensor()) {
        if (std::string html = tensor_html(v.as_tensor()); !html.empty()) bundle["text/html"] = html;
    } else if (std::string svg = figure_svg(v); !svg.empty()) {
        bundle["image/svg+xml"] = svg.substr(std::min(svg.find("<svg"), svg.size()));
        bundle["text/plain"] = "<figure>";  // not the dict of tensors it is made of
    } else if (v.kind() == Value::Kind::Graph) {
        if (std::string svg = dot_to_svg(graph_value_dot(v)); !svg.empty()) bundle["image/svg+xml"] = svg;
    }
    return bundle;
}

}  // namespace tg::kernel
