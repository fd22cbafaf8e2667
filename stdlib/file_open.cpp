#include "stdlib/file_open.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "stdlib/npy.hpp"

namespace tg::stdlib {

namespace {

[[noreturn]] void os_error(const std::string& what, int e) { throw FileError(what + ": " + std::strerror(e)); }

[[noreturn]] void outside() { throw FileError("it leads outside the file root"); }

// openat2(2) has no glibc wrapper before 2.36's headers; the syscall is the
// same everywhere. Returns -1 with errno (ENOSYS on kernels before 5.6).
int openat2_beneath(int dir, const char* path, int flags) {
    open_how how{};
    how.flags = static_cast<uint64_t>(flags);
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    for (int attempt = 0;; ++attempt) {
        const long fd = ::syscall(SYS_openat2, dir, path, &how, sizeof how);
        // EAGAIN: a rename elsewhere raced the lookup (the kernel cannot prove
        // it stayed beneath); look again, a bounded number of times.
        if (fd < 0 && (errno == EINTR || (errno == EAGAIN && attempt < 64))) continue;
        return static_cast<int>(fd);
    }
}

const char* kind_of(mode_t m) {
    if (S_ISDIR(m)) return "it is a folder";
    if (S_ISFIFO(m)) return "it is a FIFO, not a regular file";
    if (S_ISSOCK(m)) return "it is a socket, not a regular file";
    if (S_ISCHR(m) || S_ISBLK(m)) return "it is a device, not a regular file";
    return "it is not a regular file";
}

}  // namespace

Fd::~Fd() {
    if (fd_ >= 0) ::close(fd_);
}

Fd& Fd::operator=(Fd&& o) noexcept {
    if (this != &o) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = o.release();
    }
    return *this;
}

void Fd::close() {
    const int fd = release();
    if (fd >= 0 && ::close(fd) != 0) os_error("cannot write", errno);
}

FileRoot::FileRoot(const std::string& root, bool use_openat2)
    : root_(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC)), openat2_(use_openat2) {
    if (root_.get() < 0) os_error("cannot open the file root '" + root + "'", errno);
}

Fd FileRoot::open_beneath(const std::string& path, int flags) const {
    if (!path.empty() && path[0] == '/') outside();
    const char* p = path.empty() ? "." : path.c_str();
    if (openat2_) {
        Fd fd(openat2_beneath(root_.get(), p, flags));
        if (fd.get() >= 0) return fd;
        if (errno == EXDEV) outside();
        if (errno != ENOSYS) os_error("cannot open", errno);
        // an old kernel: walk the components ourselves
    }
    return walk_beneath(path, flags);
}

// One component at a time from the root, none of them followed if it is a
// symlink (O_NOFOLLOW): without openat2 there is no way to follow a symlink
// and know it stayed inside, so inside a root such a kernel follows none.
Fd FileRoot::walk_beneath(const std::string& path, int flags) const {
    Fd cur;
    size_t i = 0;
    for (;;) {
        while (i < path.size() && path[i] == '/') ++i;
        size_t end = path.find('/', i);
        if (end == std::string::npos) end = path.size();
        const std::string part = path.substr(i, end - i);
        i = end;
        while (i < path.size() && path[i] == '/') ++i;
        const bool last = i >= path.size();
        if (part == "..") outside();
        const int dir = cur.get() >= 0 ? cur.get() : root_.get();
        const char* name = part.empty() || part == "." ? "." : part.c_str();
        const int f = last ? flags | O_NOFOLLOW : O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
        Fd next(::openat(dir, name, f, 0));
        if (next.get() < 0) {
            const int e = errno;
            struct stat sb;
            if ((e == ELOOP || e == ENOTDIR) && ::fstatat(dir, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(sb.st_mode))
                throw FileError("it goes through a symlink, which this kernel (without openat2) cannot follow inside a file root");
            os_error("cannot open", e);
        }
        cur = std::move(next);
        if (last) return cur;
    }
}

ReadableFile FileRoot::open_for_reading(const std::string& path) const {
    constexpr int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
    ReadableFile f;
    f.fd = confined() ? open_beneath(path, flags) : Fd(::open(path.c_str(), flags));
    if (f.fd.get() < 0) os_error("cannot open", errno);
    struct stat sb;
    if (::fstat(f.fd.get(), &sb) != 0) os_error("cannot read", errno);
    if (!S_ISREG(sb.st_mode)) throw FileError(kind_of(sb.st_mode));
    // O_NONBLOCK was only for the open: reads of a regular file block anyway
    const int fl = ::fcntl(f.fd.get(), F_GETFL);
    if (fl < 0 || ::fcntl(f.fd.get(), F_SETFL, fl & ~O_NONBLOCK) != 0) os_error("cannot read", errno);
    f.size = static_cast<size_t>(sb.st_size);
    return f;
}

Fd FileRoot::open_folder(const std::string& path) const {
    constexpr int flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
    Fd fd = confined() ? open_beneath(path, flags) : Fd(::open(path.empty() ? "." : path.c_str(), flags));
    if (fd.get() < 0) os_error("cannot open its folder", errno);
    return fd;
}

}  // namespace tg::stdlib
