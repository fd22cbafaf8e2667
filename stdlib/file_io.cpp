#include "stdlib/file_io.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

#include "stdlib/budget.hpp"

namespace tg::stdlib {

namespace {

[[noreturn]] void os_error(const std::string& what) { throw FileError(what + ": " + std::strerror(errno)); }

// An open file descriptor, closed on scope exit.
class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }
    // Closes now, reporting a failed close (a delayed write error).
    void close() {
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) os_error("cannot write");
    }

private:
    int fd_;
};

size_t regular_size(const struct stat& sb) {
    if (!S_ISREG(sb.st_mode)) throw FileError(S_ISDIR(sb.st_mode) ? "it is a folder" : "it is not a regular file");
    return static_cast<size_t>(sb.st_size);
}

// Opens a regular file for reading; returns it and its size.
Fd open_for_reading(const std::string& path, size_t& size) {
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) os_error("cannot open");
    struct stat sb;
    if (::fstat(fd.get(), &sb) != 0) os_error("cannot read");
    size = regular_size(sb);
    return fd;
}

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

void write_fully(int fd, const void* src, size_t n) {
    size_t done = 0;
    while (done < n) {
        const ssize_t r = ::write(fd, static_cast<const char*>(src) + done, n - done);
        if (r < 0) {
            if (errno == EINTR) continue;
            os_error("cannot write");
        }
        done += static_cast<size_t>(r);
    }
}

}  // namespace

size_t regular_file_size(const std::string& path) {
    struct stat sb;
    if (::stat(path.c_str(), &sb) != 0) os_error("cannot open");
    return regular_size(sb);
}

FileBytes::FileBytes(const std::string& path) {
    size_t size = 0;
    Fd fd = open_for_reading(path, size);
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
        bytes_.resize(read_fully(fd.get(), bytes_.data(), size));  // the file may have shrunk meanwhile
    } catch (...) {
        if (charged_) Budget::current()->credit(charged_);
        throw;
    }
}

FileBytes::~FileBytes() {
    if (charged_)
        if (Budget* b = Budget::current()) b->credit(charged_);
}

Tensor npy_read_file(const std::string& path) {
    size_t size = 0;
    Fd fd = open_for_reading(path, size);
    return npy_read(size, [&](void* dst, size_t n) { return read_fully(fd.get(), dst, n); });
}

void npy_write_file(const std::string& path, const Tensor& t) {
    const Tensor c = t.strong().contiguous();
    const std::string header = npy_header(c.dtype(), c.shape());
    Fd fd(::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC));
    if (fd.get() < 0) os_error("cannot write");
    write_fully(fd.get(), header.data(), header.size());
    write_fully(fd.get(), c.raw_data(), static_cast<size_t>(c.numel()) * dtype_size(c.dtype()));
    if (::fsync(fd.get()) != 0) os_error("cannot write");
    fd.close();
}

void write_file_bytes(const std::string& path, std::span<const std::byte> bytes) {
    Fd fd(::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC));
    if (fd.get() < 0) os_error("cannot write");
    write_fully(fd.get(), bytes.data(), bytes.size());
    if (::fsync(fd.get()) != 0) os_error("cannot write");
    fd.close();
}

void write_atomically(const std::string& path, const std::function<void(const std::string& temp)>& write) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path target(path);
    if (fs::is_symlink(fs::symlink_status(target, ec))) {
        target = fs::weakly_canonical(target, ec);
        if (ec) throw FileError("cannot resolve the symlink: " + ec.message());
    }
    if (fs::is_directory(target, ec)) throw FileError("it is a folder");
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    // A fresh name beside the target (same file system, so rename is atomic),
    // created exclusively with the mode a new file gets (0666 less the umask).
    std::random_device rd;
    std::string temp;
    for (int attempt = 0;; ++attempt) {
        temp = (folder / ("." + target.filename().string() + ".tg-" + std::to_string(rd()) + ".tmp")).string();
        const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            ::close(fd);
            break;
        }
        if (errno != EEXIST || attempt == 100) os_error("cannot write");
    }
    try {
        write(temp);
        if (::rename(temp.c_str(), target.c_str()) != 0) os_error("cannot write");
    } catch (...) {
        ::unlink(temp.c_str());
        throw;
    }
}

}  // namespace tg::stdlib
