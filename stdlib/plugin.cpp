#include "stdlib/plugin.hpp"

#include <dlfcn.h>
#include <link.h>

#include <filesystem>
#include <system_error>
#include <vector>

namespace tg::stdlib {

namespace {

namespace fs = std::filesystem;

struct ThisBinary {
    fs::path path;
    bool shared = false;  // libtg.so (else the executable tg is linked into)
};

// The file holding this code: libtg.so, or the executable it is linked into.
ThisBinary this_binary() {
    Dl_info info{};
    link_map* map = nullptr;
    if (::dladdr1(reinterpret_cast<void*>(&this_binary), &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) &&
        map && map->l_name && map->l_name[0])
        return {map->l_name, true};
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);  // the main program's link map has no name
    return {ec ? fs::path() : exe, false};
}

// Where the plugin may be, in order: beside the binary holding this code,
// in the installed layout (stdlib/CMakeLists.txt sets the relative place
// from <libdir> for libtg.so and from <bindir> for the tg command), then
// where this build made it (a tg run from its build tree).
std::vector<std::string> candidates(const PluginFile& file, const ThisBinary& self) {
    std::vector<std::string> out;
    if (!self.path.empty()) {
        const char* rel = self.shared ? TG_PLUGIN_FROM_LIBDIR : TG_PLUGIN_FROM_BINDIR;
        out.push_back((self.path.parent_path() / rel / file.name).lexically_normal().string());
    }
    if (out.empty() || out.front() != file.build_path) out.push_back(file.build_path);
    return out;
}

// One candidate: its descriptor, or null with the reason appended to `why`.
const PluginHeader* open_plugin(const PluginFile& file, const std::string& path, std::string& why) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return nullptr;
    void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!lib) {
        const char* e = ::dlerror();
        why.append("; ").append(path).append(": ").append(e ? e : "cannot load");
        return nullptr;
    }
    auto entry = reinterpret_cast<const PluginHeader* (*)()>(::dlsym(lib, file.entry));
    const PluginHeader* h = entry ? entry() : nullptr;
    if (!h || h->abi != file.abi || std::string(h->tg_version) != TG_VERSION) {
        why.append("; ").append(path).append(": from another build of tg (version ");
        why.append(h ? h->tg_version : "?").append(")");
        return nullptr;
    }
    return h;
}

}  // namespace

const PluginHeader* load_plugin(const PluginFile& file, std::string& error) {
    const ThisBinary self = this_binary();
    // A plugin calling tg's functions finds them in the global scope: the
    // executable's are there; libtg.so's are not when its host loaded it
    // with dlopen(RTLD_LOCAL), so it joins the global scope first.
    if (file.needs_tg && self.shared) ::dlopen(self.path.c_str(), RTLD_NOLOAD | RTLD_LAZY | RTLD_GLOBAL);
    std::string why;
    const std::vector<std::string> places = candidates(file, self);
    for (const std::string& path : places)
        if (const PluginHeader* h = open_plugin(file, path, why)) return h;
    error = "cannot load tg's plugin ";
    error.append(file.name).append(" (looked in ");
    for (size_t i = 0; i < places.size(); ++i)
        error.append(i ? ", " : "").append(fs::path(places[i]).parent_path().string());
    error.append(")").append(why);
    return nullptr;
}

}  // namespace tg::stdlib
