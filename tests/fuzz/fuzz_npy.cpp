// libFuzzer target: the .npy and .npz readers (stdlib/npy.hpp, npz.hpp) on
// arbitrary bytes — an input starting with "PK" is read as a zip archive,
// any other as a .npy file — under a 64 MiB memory limit, as a script with
// max_memory_bytes would be. Every input must give a tensor or a stdlib
// error; a crash, a sanitizer report, a leak or an allocation past the
// limit is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "file_reader.hpp"
#include "stdlib/npy.hpp"
#include "stdlib/npz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    read_within_limits([&] {
        if (bytes.substr(0, 2) == "PK") {
            for (const auto& [name, t] : tg::stdlib::npz_decode(bytes)) (void)t.numel();
        } else {
            (void)tg::stdlib::npy_decode(bytes).numel();
        }
    });
    return 0;
}
