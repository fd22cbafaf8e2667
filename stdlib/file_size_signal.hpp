// Writing past the file-size limit (RLIMIT_FSIZE, `prlimit --fsize`)
// raises SIGXFSZ, whose default action kills the process. Writers of files
// (save, the object cache) hold this guard around their writes so such a
// write fails with EFBIG and becomes a clean error, its temporary file
// removed. A library must not change its host's signal dispositions, so the
// guard only blocks the signal in the calling thread, for as long as it
// lives (docs/embedding.md "Files").
#pragma once

namespace tg::stdlib {

// Makes SIGXFSZ harmless to the calling thread while it lives: blocked, so a
// write past the file-size limit (RLIMIT_FSIZE) fails with EFBIG instead of
// killing the process, and a SIGXFSZ it raised is consumed before the mask
// is restored. Thread-local: the host's signal dispositions are untouched.
class FileSizeSignalGuard {
public:
    FileSizeSignalGuard();
    ~FileSizeSignalGuard();
    FileSizeSignalGuard(const FileSizeSignalGuard&) = delete;
    FileSizeSignalGuard& operator=(const FileSizeSignalGuard&) = delete;

private:
    bool was_blocked_ = false;
    bool was_pending_ = false;
};

}  // namespace tg::stdlib
