// The text of an f-string or of str.format: literal parts and formatted
// values. Eagerly (and for static values while tracing) it is a plain
// string; a symbolic tensor formatted while tracing becomes a piece of a
// template that the graph fills in when it runs (a symbolic str, trace.hpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "interp/values/value.hpp"
#include "tracer/graph.hpp"

namespace tg::interp {

class Runtime;

class TextBuilder {
public:
    explicit TextBuilder(Runtime& rt) : rt_(rt) {}
    void text(std::string_view s) { out_ += s; }
    // format(v, spec), or format(repr(v), spec) with `repr` (`!r`). Throws
    // stdlib::OpError for a spec that does not apply to the value.
    void value(const Value& v, std::string_view spec, bool repr = false);
    // A str, or a symbolic str when a traced tensor was formatted.
    Value finish();

private:
    Runtime& rt_;
    std::string out_;  // text since the last template piece
    tracer::Template tmpl_;
    std::vector<tracer::ValueId> operands_;
    bool symbolic_ = false;
};

}  // namespace tg::interp
