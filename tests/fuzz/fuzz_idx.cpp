// libFuzzer target: the IDX reader (stdlib/idx.hpp) and the gzip reader
// (stdlib/gzip.hpp) on arbitrary bytes — an input starting with \x1f\x8b is
// decompressed, and what it decompresses to is read by its first bytes
// ("PK" a .npz, \x93NUMPY a .npy, anything else IDX, as `load` of x.npz.gz,
// x.npy.gz and *-ubyte.gz would); any other input is read as an IDX file.
// Under a 64 MiB memory limit (file_reader.hpp) and a 16 MiB limit on
// decompressed data, so that bombs are found quickly.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "file_reader.hpp"
#include "stdlib/gzip.hpp"
#include "stdlib/idx.hpp"
#include "stdlib/npy.hpp"
#include "stdlib/npz.hpp"

namespace {

void read_any(std::string_view bytes) {
    if (bytes.substr(0, 2) == "PK") {
        for (const auto& [name, t] : tg::stdlib::npz_decode(bytes)) (void)t.numel();
    } else if (bytes.substr(0, 6) == "\x93NUMPY") {
        (void)tg::stdlib::npy_decode(bytes).numel();
    } else {
        (void)tg::stdlib::idx_decode(bytes).numel();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    read_within_limits([&] {
        if (tg::stdlib::is_gzip(bytes)) {
            const tg::stdlib::Gunzipped inner(bytes, size_t{16} << 20);
            read_any(inner.bytes());
        } else {
            (void)tg::stdlib::idx_decode(bytes).numel();
        }
    });
    return 0;
}
