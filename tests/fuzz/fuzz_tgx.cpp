// libFuzzer target: the .tgx reader (tracer/tgx.hpp) on arbitrary bytes,
// with the checksum check off so that mutations reach the parser and the
// verifier. A file that loads is printed (text and DOT), written back and
// read again: that must give the same text. Nothing may crash or leak.
#include <cstddef>
#include <cstdint>
#include <span>

#include "tracer/printer.hpp"
#include "tracer/tgx.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > (size_t{1} << 20)) return -1;
    const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
    tg::tracer::GraphFunction f;
    try {
        f = tg::tracer::read_tgx(bytes, {.verify_checksum = false});
    } catch (const tg::tracer::TgxError&) {
        return 0;
    }
    const std::string text = tg::tracer::print_graph(*f.graph);
    (void)tg::tracer::to_dot(*f.graph);
    const std::vector<std::byte> again = tg::tracer::write_tgx(f);
    if (tg::tracer::print_graph(*tg::tracer::read_tgx(again).graph) != text) __builtin_trap();
    return 0;
}
