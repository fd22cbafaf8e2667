// Files on disk for load / save / loadtxt (SPEC §4 "Files"): reading a whole
// text file within the memory limit, .npy files, and atomic writes.
//
// Paths here are already checked (interp::check_file_path). Errors are
// FileError (stdlib/npy.hpp) whose message does not name the file
// ("cannot open: No such file or directory"); the builtin adds its name.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>

#include "stdlib/npy.hpp"

namespace tg::stdlib {

// The bytes of a regular file, counted against the current Budget (the
// memory limit) while held.
class FileBytes {
public:
    explicit FileBytes(const std::string& path);
    ~FileBytes();
    FileBytes(const FileBytes&) = delete;
    FileBytes& operator=(const FileBytes&) = delete;
    std::string_view bytes() const { return bytes_; }

private:
    std::string bytes_;
    size_t charged_ = 0;
};

// The size of a regular file; a folder, a FIFO or a device is an error (no
// size to check a header against).
size_t regular_file_size(const std::string& path);

// A .npy file (stdlib/npy.hpp): the header is checked against the file's
// size before the data is read straight into the tensor.
Tensor npy_read_file(const std::string& path);
// Writes header and data of `t` (in C order) to `path`, replacing it.
void npy_write_file(const std::string& path, const Tensor& t);
// Writes `bytes` to `path` (a .tgx graph), replacing it.
void write_file_bytes(const std::string& path, std::span<const std::byte> bytes);

// Makes `path` appear whole or not at all: `write` writes a temporary file
// (its path is the argument) in the same folder, which is then renamed over
// `path`. If anything fails the temporary file is removed and `path` is as
// it was. A symlink at `path` is written through (its target is replaced).
void write_atomically(const std::string& path, const std::function<void(const std::string& temp)>& write);

}  // namespace tg::stdlib
