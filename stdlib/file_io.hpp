// Files on disk for load / save / loadtxt (docs/language.md "Files"): reading a whole
// text file within the memory limit, .npy files, and atomic writes.
//
// Paths here are already checked (interp::check_file_path) and are opened
// through a FileRoot (stdlib/file_open.hpp), which keeps them inside the
// file root even against a concurrent rename. Errors are
// FileError (stdlib/npy.hpp) whose message does not name the file
// ("cannot open: No such file or directory"); the builtin adds its name.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "stdlib/file_open.hpp"
#include "stdlib/gzip.hpp"
#include "stdlib/npy.hpp"

namespace tg::stdlib {

// The bytes of a regular file, counted against the current Budget (the
// memory limit) while held.
class FileBytes {
public:
    FileBytes(const FileRoot& root, const std::string& path);
    ~FileBytes();
    FileBytes(const FileBytes&) = delete;
    FileBytes& operator=(const FileBytes&) = delete;
    std::string_view bytes() const { return bytes_; }

private:
    std::string bytes_;
    size_t charged_ = 0;
};

// What a reader of bytes in memory reads: the file's bytes, or with
// `gunzip` (a name ending in .gz) its decompressed bytes (stdlib/gzip.hpp;
// the compressed bytes are let go once decompressed). Counted against the
// current Budget while held.
class FileContents {
public:
    FileContents(const FileRoot& root, const std::string& path, bool gunzip);
    std::string_view bytes() const { return gz_ ? gz_->bytes() : raw_->bytes(); }

private:
    std::unique_ptr<FileBytes> raw_;
    std::unique_ptr<Gunzipped> gz_;
};

// A .npy file (stdlib/npy.hpp): the header is checked against the file's
// size before the data is read straight into the tensor.
Tensor npy_read_file(const FileRoot& root, const std::string& path);
// Writes header and data of `t` (in C order) to the open file `fd`.
void npy_write_fd(int fd, const Tensor& t);
// Writes all of `bytes` to the open file `fd`.
void write_bytes_fd(int fd, std::span<const std::byte> bytes);

// Makes `path` (opened through `root`) appear whole or not at all: `write`
// writes a temporary file (the descriptor it is given) created in the
// target's own folder through a descriptor of that folder, which is then
// renamed over the target; no temporary file is ever outside the folder.
// If anything fails (a full disk, the file-size limit: SIGXFSZ is held off,
// stdlib/file_size_signal.hpp) the temporary file is removed and `path` is
// as it was. A read-only file is not replaced (FileError, as opening it for
// writing would be); a writable one keeps its mode. Without a root, a
// symlink at `path` is written through (its target is replaced); with one,
// the path was resolved already and a symlink swapped in meanwhile is
// replaced itself, never followed.
void write_atomically(const FileRoot& root, const std::string& path, const std::function<void(int fd)>& write);

}  // namespace tg::stdlib
