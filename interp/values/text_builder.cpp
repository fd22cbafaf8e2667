#include "interp/values/text_builder.hpp"

#include <algorithm>

#include "interp/values/printing.hpp"
#include "interp/runtime.hpp"
#include "interp/tracing/trace.hpp"
#include "stdlib/format.hpp"

namespace tg::interp {

void TextBuilder::value(const Value& v, std::string_view spec, bool repr) {
    if (rt_.trace && has_symbolic(v)) {
        symbolic_ = true;
        tmpl_.push_back(tracer::TextPiece{tracer::TextPiece::Text, std::move(out_), 0});
        out_.clear();
        if (!spec.empty()) {
            if (!v.is_symbolic() || repr) unsupported_in_graph("a format spec on a value that shows traced tensors");
            tmpl_.push_back(tracer::TextPiece{tracer::TextPiece::Format, std::string(spec),
                                              static_cast<uint32_t>(operands_.size())});
            operands_.push_back(v.sym()->id);
        } else {
            append_str(*rt_.trace, tmpl_, operands_, v, repr);
        }
        return;
    }
    out_ += repr ? stdlib::format_string(repr_of(v), spec) : format_value(v, spec);
}

Value TextBuilder::finish() {
    if (!symbolic_) return Value::str(std::move(out_));
    tmpl_.push_back(tracer::TextPiece{tracer::TextPiece::Text, std::move(out_), 0});
    std::erase_if(tmpl_, [](const tracer::TextPiece& p) { return p.kind == tracer::TextPiece::Text && p.text.empty(); });
    return make_str(std::move(tmpl_), std::move(operands_));
}

}  // namespace tg::interp
