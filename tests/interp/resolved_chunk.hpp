// A chunk of tg source parsed and resolved in a fresh interpreter, for the
// unit tests of what the resolver and the compilers make of it.
#pragma once

#include <doctest/doctest.h>

#include <memory>

#include "interp/resolver.hpp"
#include "interp/runtime.hpp"
#include "lang/parser.hpp"

namespace tg::testing {

struct ResolvedChunk {
    interp::Runtime rt{interp::Options{}};
    interp::ModuleState& m = rt.main_module();
    lang::ParseResult parsed;
    explicit ResolvedChunk(const char* text) {
        parsed = lang::parse(std::make_shared<lang::Source>("t.tg", text));
        REQUIRE(parsed.ok());
        interp::resolve(*parsed.module, m, rt);
    }
    // Top-level statement i, as a def.
    const lang::FunctionDef& def(size_t i) const { return parsed.module->body[i]->as<lang::FunctionDef>(); }
};

}  // namespace tg::testing
