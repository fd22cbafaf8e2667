#include "stdlib/file_io.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

#include "stdlib/budget.hpp"
#include "stdlib/file_size_signal.hpp"

namespace tg::stdlib {

namespace {

[[noreturn]] void os_error(const std::string& what) { throw FileError(what + ": " + std::strerror(errno)); }

size_t read_fully(int fd, void* dst, size_t n) {
    size_t got = 0;
    while (got < n) {
        const ssize_t r = ::read(fd, static_cast<char*>(dst) + got, n - got);
        if (r < 0) {
            if (errno == EINTR) continue;
            os_error("cannot read");
        }
        if (r == 0) break;
        got += static_cast<size_t>(r);
        poll_limits();  // a big file on a slow disk: the interrupt and the time limit still act
    }
    return got;
}

// The folder and the last component of `path` ("a/b/c.npy" -> "a/b", "c.npy").
std::pair<std::string, std::string> split_last(const std::string& path) {
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos) return {"", path};
    return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

// Without a root, a symlink at the target is written through: the target
// is its destination (as before; no security claim is made there).
std::string through_symlink(const FileRoot& root, const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (root.confined() || !fs::is_symlink(fs::symlink_status(path, ec))) return path;
    const fs::path target = fs::weakly_canonical(path, ec);
    if (ec) throw FileError("cannot resolve the symlink: " + ec.message());
    return target.string();
}

// What is at `leaf` now: its mode to give the new file (0666 less the umask
// for a new one, which O_CREAT applies), or an error when it may not be replaced.
mode_t mode_to_keep(int dir, const std::string& leaf) {
    struct stat sb;
    if (::fstatat(dir, leaf.c_str(), &sb, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT) return 0;
        os_error("cannot write");
    }
    if (S_ISDIR(sb.st_mode)) throw FileError("it is a folder");
    if (!S_ISREG(sb.st_mode)) return 0;
    // Read-only by its mode (chmod a-w) is read-only for every user, also
    // root, whom the access check would let through: save does not replace
    // a file the user marked so, and may not replace one it cannot write.
    if ((sb.st_mode & 0222) == 0) throw FileError("cannot write: the file is read-only (its mode has no write permission)");
    if (::faccessat(dir, leaf.c_str(), W_OK, AT_EACCESS) != 0 && (errno == EACCES || errno == EPERM))
        os_error("cannot write");
    return sb.st_mode & 07777;
}

}  // namespace

FileBytes::FileBytes(const FileRoot& root, const std::string& path) {
    ReadableFile f = root.open_for_reading(path);
    const size_t size = f.size;
    if (Budget* b = Budget::current()) {
        try {
            b->charge(size);
        } catch (const LimitError&) {
            throw LimitError("memory limit exceeded: reading a file of " + human_bytes(size) +
                             " would pass max_memory_bytes = " + human_bytes(static_cast<size_t>(b->max_bytes)));
        }
        charged_ = size;
    }
    try {
        bytes_.resize(size);
        bytes_.resize(read_fully(f.fd.get(), bytes_.data(), size));  // the file may have shrunk meanwhile
    } catch (...) {
        if (charged_) Budget::current()->credit(charged_);
        throw;
    }
}

FileBytes::~FileBytes() {
    if (charged_)
        if (Budget* b = Budget::current()) b->credit(charged_);
}

FileContents::FileContents(const FileRoot& root, const std::string& path, bool gunzip)
    : raw_(std::make_unique<FileBytes>(root, path)) {
    if (!gunzip) return;
    gz_ = std::make_unique<Gunzipped>(raw_->bytes());
    raw_.reset();
}

Tensor npy_read_file(const FileRoot& root, const std::string& path) {
    ReadableFile f = root.open_for_reading(path);
    return npy_read(f.size, [&](void* dst, size_t n) { return read_fully(f.fd.get(), dst, n); });
}

void write_bytes_fd(int fd, std::span<const std::byte> bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t r = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (r < 0) {
            if (errno == EINTR) continue;
            os_error("cannot write");
        }
        done += static_cast<size_t>(r);
    }
}

void npy_write_fd(int fd, const Tensor& t) {
    const Tensor c = t.strong().contiguous();
    const std::string header = npy_header(c.dtype(), c.shape());
    write_bytes_fd(fd, std::as_bytes(std::span(header)));
    write_bytes_fd(fd, {static_cast<const std::byte*>(c.raw_data()), static_cast<size_t>(c.numel()) * dtype_size(c.dtype())});
}

void write_atomically(const FileRoot& root, const std::string& path, const std::function<void(int fd)>& write) {
    const auto [folder_path, leaf] = split_last(through_symlink(root, path));
    if (leaf.empty() || leaf == "." || leaf == "..") throw FileError("it is a folder");
    const Fd folder = root.open_folder(folder_path);
    const mode_t keep = mode_to_keep(folder.get(), leaf);
    // A fresh name beside the target (same folder, so renameat is atomic),
    // created exclusively through the folder's descriptor: O_EXCL never
    // follows a symlink, so the temporary file is in this folder or nowhere.
    std::random_device rd;
    std::string temp;
    Fd out;
    for (int attempt = 0;; ++attempt) {
        temp = "." + leaf + ".tg-" + std::to_string(rd()) + ".tmp";
        out = Fd(::openat(folder.get(), temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666));
        if (out.get() >= 0) break;
        if (errno != EEXIST || attempt == 100) os_error("cannot write");
    }
    try {
        if (keep != 0 && ::fchmod(out.get(), keep) != 0) os_error("cannot write");
        const FileSizeSignalGuard past_the_size_limit_is_an_error;
        write(out.get());
        if (::fsync(out.get()) != 0) os_error("cannot write");
        out.close();
        if (::renameat(folder.get(), temp.c_str(), folder.get(), leaf.c_str()) != 0) os_error("cannot write");
    } catch (...) {
        ::unlinkat(folder.get(), temp.c_str(), 0);
        throw;
    }
}

}  // namespace tg::stdlib
