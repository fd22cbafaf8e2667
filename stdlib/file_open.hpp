// The one opener of the files a script touches (load, save, loadtxt) and of
// a saved graph a host loads: every path component is opened by the kernel
// relative to a directory descriptor of the file root, so no rename or
// symlink swapped in between a check and an open can lead outside it
// (docs/embedding.md "Files" has the security model). Only regular files are
// read: a FIFO, a device or a folder is refused before anything blocks.
#pragma once

#include <cstddef>
#include <string>
#include <sys/types.h>

namespace tg::stdlib {

// An open file descriptor, closed on scope exit.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd();
    Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
    Fd& operator=(Fd&& o) noexcept;
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }
    int release() {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }
    // Closes now, reporting a failed close (a delayed write error) as FileError.
    void close();

private:
    int fd_ = -1;
};

// A regular file opened for reading, and its size when it was opened.
struct ReadableFile {
    Fd fd;
    size_t size = 0;
};

// Where paths are opened. Without a root, a path is opened as given (from
// the working folder). With one, a path is relative to the root and every
// component of it is resolved inside the root by the kernel: openat2 with
// RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS (symlinks are followed while they
// stay inside), or on kernels without openat2 a walk of openat(O_NOFOLLOW)
// calls (no symlink is followed at all). Leaving the root is a FileError
// "it leads outside the file root".
class FileRoot {
public:
    FileRoot() = default;  // anywhere
    // Opens the folder `root` (a path the host chose; FileError if it cannot).
    // `use_openat2 = false` forces the walk (tests of old kernels).
    explicit FileRoot(const std::string& root, bool use_openat2 = true);

    bool confined() const { return root_.get() >= 0; }
    // A regular file for reading: opened without blocking (a FIFO with no
    // writer would block open()), checked with fstat, then made blocking.
    // A folder, FIFO, socket or device is a FileError.
    ReadableFile open_for_reading(const std::string& path) const;
    // The folder `path` ("" is the root, or the working folder), for
    // creating and renaming files in it with *at() calls.
    Fd open_folder(const std::string& path) const;

private:
    Fd open_beneath(const std::string& path, int flags) const;
    Fd walk_beneath(const std::string& path, int flags) const;

    Fd root_;
    bool openat2_ = true;
};

}  // namespace tg::stdlib
