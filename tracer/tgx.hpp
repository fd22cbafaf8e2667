// The `.tgx` file format (docs/language.md "Graphs as values", docs/tgx-format.md describes it field by
// field): a graph value (tracer/graph_function.hpp) as bytes and back.
//
// Bytes in, graph or error out: read_tgx never trusts its input — every
// count, offset, index and enum is checked before it is used, the rebuilt
// graph must pass the verifier, and a file that is truncated, corrupted,
// hand-edited or from a newer format is a TgxError, never a crash. No
// parser and no interpreter are needed (this is below interp/), so hosts
// (tg::Graph) and the fuzzer (tests/fuzz) use it directly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "tracer/graph_function.hpp"

namespace tg::tracer {

struct TgxError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The newest version this tg reads; it writes 1 unless the graph needs 2
// (dynamic dimensions, a dict argument): docs/tgx-format.md.
inline constexpr uint32_t kTgxFormatVersion = 2;

// Serializes f. Throws TgxError for what a file cannot hold (a graph that
// calls a host function).
std::vector<std::byte> write_tgx(const GraphFunction& f);

struct TgxReadOptions {
    // Off only to test the parser behind the checksum (the fuzzer, the
    // corruption tests): every other check stays.
    bool verify_checksum = true;
};

// Reads a .tgx file's bytes. Throws TgxError with a message saying what is
// wrong ("truncated", "checksum mismatch", "written by a newer tg", ...).
GraphFunction read_tgx(std::span<const std::byte> bytes, const TgxReadOptions& options = {});

}  // namespace tg::tracer
