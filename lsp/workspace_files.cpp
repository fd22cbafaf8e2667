// Where references look for the uses of a module's names (docs/editors.md
// "Navigation"): the open documents, the .tg files under the workspace's
// folders and those beside the module (`import m` finds m.tg in the
// importing file's folder). Files that are not open are read from disk;
// only those whose text names both the module and the name are parsed.
// The walk is bounded so that a huge folder opened as the workspace (a home
// directory) costs a bounded time per request: at most kMaxEntries
// directory entries visited and kMaxFiles .tg files read, none larger than
// kMaxFileBytes; folders whose name starts with `.` and `node_modules` are
// not entered.
#include <filesystem>
#include <set>

#include "lsp/workspace.hpp"

namespace tg::lsp {

namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxEntries = 20000;
constexpr size_t kMaxFiles = 2000;
constexpr size_t kMaxFileBytes = size_t{1} << 20;

bool is_tg_file(const fs::directory_entry& e) {
    std::error_code ec;
    return e.path().extension() == ".tg" && e.is_regular_file(ec);
}

bool skipped_folder(const fs::path& p) {
    const std::string name = p.filename().string();
    return name.starts_with('.') || name == "node_modules";
}

struct Walk {
    size_t entries = 0;
    std::vector<std::string> files;
    bool full() const { return entries >= kMaxEntries || files.size() >= kMaxFiles; }
};

// The .tg files in `folder`, and in its subfolders when `recursive`.
void walk(const fs::path& folder, bool recursive, Walk& w) {
    std::error_code ec;
    const auto options = fs::directory_options::skip_permission_denied;
    if (!recursive) {
        for (fs::directory_iterator it(folder, options, ec), end; !ec && it != end && !w.full(); it.increment(ec)) {
            ++w.entries;
            if (is_tg_file(*it)) w.files.push_back(it->path().lexically_normal().string());
        }
        return;
    }
    for (fs::recursive_directory_iterator it(folder, options, ec), end; !ec && it != end && !w.full(); it.increment(ec)) {
        ++w.entries;
        std::error_code dir_ec;
        if (it->is_directory(dir_ec) && skipped_folder(it->path())) it.disable_recursion_pending();
        else if (is_tg_file(*it)) w.files.push_back(it->path().lexically_normal().string());
    }
}

}  // namespace

std::vector<std::string> Workspace::files_that_may_import(const std::string& module_path, const std::string& name) {
    std::vector<std::string> out = open_paths();
    std::set<std::string> seen(out.begin(), out.end());
    Walk w;
    for (const std::string& root : roots_)
        if (!root.empty()) walk(fs::path(root), true, w);
    const bool shipped = module_path.starts_with("<tg>/");
    if (!shipped) walk(fs::path(module_path).parent_path(), false, w);
    const std::string stem = fs::path(module_path).stem().string();
    for (const std::string& path : w.files) {
        if (!seen.insert(path).second) continue;
        std::string text;
        if (lang::read_source_file(path, text, kMaxFileBytes).status != lang::ReadResult::Ok) continue;
        if (text.find(stem) != std::string::npos && text.find(name) != std::string::npos) out.push_back(path);
    }
    return out;
}

}  // namespace tg::lsp
