#include "stdlib/npz.hpp"

#include <zip.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <stdexcept>

#include "stdlib/budget.hpp"
#include "stdlib/file_io.hpp"
#include "stdlib/npy.hpp"
#include "stdlib/shared_library.hpp"

namespace tg::stdlib {

namespace {

// Deflate never expands data by more than 1032:1 (RFC 1951's longest match
// per shortest code); a member claiming more is lying about its size.
constexpr uint64_t kMaxDeflateRatio = 1032;

[[noreturn]] void bad(const std::string& what) { throw FileError(what); }

// libzip, loaded by the first .npz file (stdlib/shared_library.hpp).
struct LibZip {
    SharedLibrary lib{"libzip", {TG_LIBZIP_SONAME, TG_LIBZIP_PATH}};
    TG_LIBRARY_FUNCTION(zip_close);
    TG_LIBRARY_FUNCTION(zip_discard);
    TG_LIBRARY_FUNCTION(zip_error_code_zip);
    TG_LIBRARY_FUNCTION(zip_error_fini);
    TG_LIBRARY_FUNCTION(zip_error_init);
    TG_LIBRARY_FUNCTION(zip_error_init_with_code);
    TG_LIBRARY_FUNCTION(zip_error_strerror);
    TG_LIBRARY_FUNCTION(zip_fclose);
    TG_LIBRARY_FUNCTION(zip_file_add);
    TG_LIBRARY_FUNCTION(zip_file_strerror);
    TG_LIBRARY_FUNCTION(zip_fopen_index);
    TG_LIBRARY_FUNCTION(zip_fread);
    TG_LIBRARY_FUNCTION(zip_get_num_entries);
    TG_LIBRARY_FUNCTION(zip_open_from_source);
    TG_LIBRARY_FUNCTION(zip_set_file_compression);
    TG_LIBRARY_FUNCTION(zip_source_buffer_create);
    TG_LIBRARY_FUNCTION(zip_source_buffer_fragment);
    TG_LIBRARY_FUNCTION(zip_source_close);
    TG_LIBRARY_FUNCTION(zip_source_error);
    TG_LIBRARY_FUNCTION(zip_source_filep_create);
    TG_LIBRARY_FUNCTION(zip_source_free);
    TG_LIBRARY_FUNCTION(zip_source_keep);
    TG_LIBRARY_FUNCTION(zip_source_open);
    TG_LIBRARY_FUNCTION(zip_source_read);
    TG_LIBRARY_FUNCTION(zip_source_seek);
    TG_LIBRARY_FUNCTION(zip_source_tell);
    TG_LIBRARY_FUNCTION(zip_stat_index);
    TG_LIBRARY_FUNCTION(zip_stat_init);
    TG_LIBRARY_FUNCTION(zip_strerror);
};

const LibZip& lz() {
    try {
        static const LibZip z;
        return z;
    } catch (const std::runtime_error& e) {
        bad(std::string(".npz files need libzip: ") + e.what());
    }
}

std::string zip_error_text(int code) {
    zip_error_t e;
    lz().zip_error_init_with_code(&e, code);
    std::string s = lz().zip_error_strerror(&e);
    lz().zip_error_fini(&e);
    return s;
}

struct ArchiveCloser {
    void operator()(zip_t* z) const { lz().zip_discard(z); }
};
struct FileCloser {
    void operator()(zip_file_t* f) const { lz().zip_fclose(f); }
};
using Archive = std::unique_ptr<zip_t, ArchiveCloser>;

// Opens an archive over `source` (which it takes over, also on failure).
Archive open_archive(zip_source_t* source) {
    zip_error_t error;
    lz().zip_error_init(&error);
    zip_t* z = lz().zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error);
    if (!z) {
        lz().zip_source_free(source);
        const int code = lz().zip_error_code_zip(&error);
        lz().zip_error_fini(&error);
        if (code == ZIP_ER_NOZIP) bad("not a .npz file: it is not a zip archive");
        bad("not a valid zip archive: " + zip_error_text(code));
    }
    lz().zip_error_fini(&error);
    return Archive(z);
}

Tensor read_member(zip_t* z, zip_uint64_t index, const zip_stat_t& st, uint64_t archive_bytes) {
    const std::string name = st.name;
    try {
        if (st.encryption_method != ZIP_EM_NONE) bad("it is encrypted");
        if (st.comp_method != ZIP_CM_STORE && st.comp_method != ZIP_CM_DEFLATE)
            bad("it is compressed with zip method " + std::to_string(st.comp_method) +
                "; tg reads stored and deflated members");
        // What the archive claims is checked before the size is trusted for an allocation.
        if (st.comp_size > archive_bytes) bad("its compressed size is larger than the archive");
        if (st.comp_method == ZIP_CM_STORE ? st.size != st.comp_size : st.size / kMaxDeflateRatio > st.comp_size)
            bad("its size (" + std::to_string(st.size) + " bytes) does not fit its " + std::to_string(st.comp_size) +
                " compressed bytes");
        std::unique_ptr<zip_file_t, FileCloser> file(lz().zip_fopen_index(z, index, 0));
        if (!file) bad(std::string("cannot open it: ") + lz().zip_strerror(z));
        return npy_read(st.size, [&](void* dst, size_t n) {
            size_t got = 0;
            while (got < n) {
                const zip_int64_t r = lz().zip_fread(file.get(), static_cast<char*>(dst) + got, n - got);
                if (r < 0) bad(lz().zip_file_strerror(file.get()));  // a CRC mismatch, broken deflate data, ...
                if (r == 0) break;
                got += static_cast<size_t>(r);
            }
            return got;
        });
    } catch (const FileError& e) {
        bad("member '" + name + "': " + e.what());
    } catch (const LimitError& e) {
        // a member too large for the memory limit (a zip bomb): still a limit error, named like the others
        throw LimitError("member '" + name + "': " + e.what());
    }
}

NamedTensors read_archive(zip_t* z, uint64_t archive_bytes) {
    const zip_int64_t n = lz().zip_get_num_entries(z, 0);
    NamedTensors out;
    std::set<std::string> seen;
    for (zip_int64_t i = 0; i < n; ++i) {
        zip_stat_t st;
        lz().zip_stat_init(&st);
        const zip_uint64_t index = static_cast<zip_uint64_t>(i);
        if (lz().zip_stat_index(z, index, 0, &st) != 0) bad(std::string("not a valid zip archive: ") + lz().zip_strerror(z));
        const std::string name = st.name ? st.name : "";
        constexpr std::string_view ext = ".npy";
        if (name.size() < ext.size() || name.compare(name.size() - ext.size(), ext.size(), ext) != 0)
            bad("member '" + name + "' is not a .npy file (a .npz holds only .npy members)");
        std::string key = name.substr(0, name.size() - ext.size());
        if (!seen.insert(key).second) bad("member '" + name + "' appears twice");
        out.emplace_back(std::move(key), read_member(z, index, st, archive_bytes));
    }
    return out;
}

}  // namespace

NamedTensors npz_read_file(const FileRoot& root, const std::string& path) {
    ReadableFile f = root.open_for_reading(path);
    // libzip opens an empty file as an empty archive; NumPy finds no zip in it.
    if (f.size == 0) bad("not a .npz file: it is empty");
    // libzip reads the descriptor already opened inside the root (by name it
    // could open another file); the source owns the FILE and closes it.
    FILE* file = ::fdopen(f.fd.get(), "rb");
    if (!file) bad(std::string("cannot open: ") + std::strerror(errno));
    f.fd.release();
    zip_error_t error;
    lz().zip_error_init(&error);
    zip_source_t* source = lz().zip_source_filep_create(file, 0, -1, &error);
    if (!source) {
        std::fclose(file);
        const std::string text = lz().zip_error_strerror(&error);
        lz().zip_error_fini(&error);
        bad("cannot open: " + text);
    }
    lz().zip_error_fini(&error);
    Archive z = open_archive(source);
    return read_archive(z.get(), f.size);
}

NamedTensors npz_decode(std::string_view bytes) {
    if (bytes.empty()) bad("not a .npz file: it is empty");
    zip_error_t error;
    lz().zip_error_init(&error);
    zip_source_t* source = lz().zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
    lz().zip_error_fini(&error);
    if (!source) bad("cannot read an archive from memory");
    Archive z = open_archive(source);
    return read_archive(z.get(), bytes.size());
}

namespace {

// The bytes libzip wrote into an in-memory source.
std::vector<std::byte> source_bytes(zip_source_t* source) {
    auto fail = [&] { throw FileError(std::string("cannot write: ") + lz().zip_error_strerror(lz().zip_source_error(source))); };
    if (lz().zip_source_open(source) != 0) fail();
    std::vector<std::byte> out;
    if (lz().zip_source_seek(source, 0, SEEK_END) == 0) {
        const zip_int64_t size = lz().zip_source_tell(source);
        if (size > 0 && lz().zip_source_seek(source, 0, SEEK_SET) == 0) {
            out.resize(static_cast<size_t>(size));
            if (lz().zip_source_read(source, out.data(), out.size()) != size) out.clear();
        }
    }
    lz().zip_source_close(source);
    if (out.empty()) fail();
    return out;
}

}  // namespace

void npz_write_fd(int fd, const NamedTensors& members) {
    auto fail = [&](const std::string& what) { throw FileError("cannot write: " + what); };
    if (members.empty()) {
        // libzip writes nothing for an archive with no members; np.savez()
        // writes the 22-byte end-of-central-directory record alone.
        static constexpr char kEmptyZip[22] = {'P', 'K', 5, 6};
        write_bytes_fd(fd, std::as_bytes(std::span(kEmptyZip)));
        return;
    }
    // The archive is made in memory (libzip writes only to a path of its
    // choosing, beside the target, which could be outside the file root),
    // then written to `fd`: while saving, the members' bytes exist twice.
    zip_error_t error;
    lz().zip_error_init(&error);
    zip_source_t* memory = lz().zip_source_buffer_create(nullptr, 0, 0, &error);
    if (!memory) fail(lz().zip_error_strerror(&error));
    zip_t* z = lz().zip_open_from_source(memory, ZIP_TRUNCATE, &error);
    if (!z) {
        lz().zip_source_free(memory);
        const std::string text = lz().zip_error_strerror(&error);
        lz().zip_error_fini(&error);
        fail(text);
    }
    lz().zip_error_fini(&error);
    lz().zip_source_keep(memory);  // read back after zip_close
    std::unique_ptr<zip_source_t, decltype(lz().zip_source_free)> keep(memory, lz().zip_source_free);
    Archive archive(z);
    // libzip reads the members' bytes at zip_close: keep them alive until then.
    std::vector<std::string> headers;
    std::vector<Tensor> data;
    headers.reserve(members.size());
    data.reserve(members.size());
    for (const auto& [name, value] : members) {
        data.push_back(value.strong().contiguous());
        const Tensor& t = data.back();
        headers.push_back(npy_header(t.dtype(), t.shape()));
        zip_buffer_fragment_t parts[2] = {
            {reinterpret_cast<zip_uint8_t*>(headers.back().data()), headers.back().size()},
            {static_cast<zip_uint8_t*>(const_cast<void*>(t.raw_data())), t.numel() * dtype_size(t.dtype())}};
        zip_source_t* source = lz().zip_source_buffer_fragment(z, parts, parts[1].length ? 2 : 1, 0);
        if (!source) fail(lz().zip_strerror(z));
        const zip_int64_t index = lz().zip_file_add(z, (name + ".npy").c_str(), source, ZIP_FL_ENC_UTF_8);
        if (index < 0) {
            lz().zip_source_free(source);
            fail(std::string("member '") + name + ".npy': " + lz().zip_strerror(z));
        }
        if (lz().zip_set_file_compression(z, static_cast<zip_uint64_t>(index), ZIP_CM_STORE, 0) != 0) fail(lz().zip_strerror(z));
    }
    if (lz().zip_close(z) != 0) fail(lz().zip_strerror(z));  // on failure the archive is still open: ~Archive discards it
    archive.release();
    write_bytes_fd(fd, source_bytes(memory));
}

}  // namespace tg::stdlib
