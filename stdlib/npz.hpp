// NumPy's .npz format (docs/language.md "Files"): a zip archive of .npy members, one
// per named tensor (`w.npy` holds the tensor named `w`). The zip container
// and deflate are libzip's; each member is read with npy_read.
//
// Reading takes stored and deflated members (np.savez / np.savez_compressed)
// and checks what the archive claims before trusting it: a member's size
// must fit in the archive (for deflate, within deflate's largest ratio), its
// CRC must match, and every member must be a `.npy`. Writing stores the
// members uncompressed, as np.savez does.
//
// Errors are FileError naming the member ("member 'w.npy': truncated: ...").
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "stdlib/file_open.hpp"
#include "stdlib/tensor.hpp"

namespace tg::stdlib {

// Named tensors in archive order; names without the `.npy`.
using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

// Reads the archive at `path` (a regular file opened through `root`).
NamedTensors npz_read_file(const FileRoot& root, const std::string& path);
// The same over an archive in memory (the fuzz target's entry).
NamedTensors npz_decode(std::string_view bytes);

// Writes the archive to the open file `fd` (the caller makes the write
// atomic: stdlib/file_io.hpp). Throws FileError when writing fails.
void npz_write_fd(int fd, const NamedTensors& members);

}  // namespace tg::stdlib
