// The AutoGraph conversion's policy: its templates are in conversion.hpp
// (they work on the host's values); this file holds what needs none.
#include "tracer/conversion.hpp"

namespace tg::tracer {

std::string none_and_undefined(std::string_view var) {
    return "`" + std::string(var) + "`, which is None on some paths and not defined on others";
}

}  // namespace tg::tracer
