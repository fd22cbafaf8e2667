// load(path) and save(path, value), dispatched by the file's extension
// (SPEC §9). `.tgx` holds a graph value (tracer/tgx.hpp); other extensions
// are other modules' (the dispatch below is the one place that knows them
// all). Every path goes through check_file_path (allow_files, file_root).
#include <fstream>
#include <iterator>

#include "interp/error.hpp"
#include "interp/graph_value.hpp"
#include "interp/printing.hpp"
#include "interp/runtime.hpp"
#include "tracer/tgx.hpp"

namespace tg::interp {

namespace {

bool has_extension(const std::string& path, std::string_view ext) {
    return path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
}

std::string path_arg(const std::string& fn, const CallArgs& a, size_t want) {
    if (!a.keywords.empty()) throw Error(fn + ": unknown keyword argument `" + std::string(a.keywords[0].name) + "`");
    if (a.positional.size() != want)
        throw Error(fn + ": takes " + std::to_string(want) + (want == 1 ? " argument" : " arguments") + " but " +
                    std::to_string(a.positional.size()) + (a.positional.size() == 1 ? " was given" : " were given"));
    if (!a.positional[0].is(Kind::Str))
        throw Error(fn + ": argument `path` must be a str, not a " + std::string(kind_name(a.positional[0].kind())));
    return a.positional[0].text();
}

[[noreturn]] void unknown_type(const std::string& fn, const std::string& path) {
    throw Error(fn + ": unknown file type " + quote(path) + " (known: .tgx)");
}

Value load_tgx(Runtime& rt, const std::string& path, const std::string& opened) {
    std::ifstream in(opened, std::ios::binary);
    if (!in) throw Error("load: cannot open " + quote(path));
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw Error("load: cannot read " + quote(path));
    const auto* p = reinterpret_cast<const std::byte*>(chars.data());
    try {
        return make_graph_value(rt, tracer::read_tgx({p, chars.size()}));
    } catch (const tracer::TgxError& e) {
        throw Error("load: " + path + ": " + e.what());
    }
}

void save_tgx(const std::string& path, const std::string& opened, const Value& v) {
    if (!v.is(Kind::Graph))
        throw Error(std::string("save: a .tgx file holds a graph (from concrete or load), not a ") + kind_name(v.kind()));
    std::vector<std::byte> bytes;
    try {
        bytes = tracer::write_tgx(v.graph().fn);
    } catch (const tracer::TgxError& e) {
        throw Error(std::string("save: ") + e.what());
    }
    std::ofstream out(opened, std::ios::binary | std::ios::trunc);
    if (out) out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw Error("save: cannot write " + quote(path));
}

Value load(Runtime& rt, const CallArgs& a) {
    const std::string path = path_arg("load", a, 1);
    const std::string opened = check_file_path(rt.options, path);
    if (has_extension(path, ".tgx")) return load_tgx(rt, path, opened);
    unknown_type("load", path);
}

Value save(Runtime& rt, const CallArgs& a) {
    const std::string path = path_arg("save", a, 2);
    const std::string opened = check_file_path(rt.options, path);
    if (has_extension(path, ".tgx")) save_tgx(path, opened, a.positional[1]);
    else unknown_type("save", path);
    return Value::none();
}

}  // namespace

void add_file_builtins(std::vector<std::pair<std::string, Value>>& out) {
    out.emplace_back("load", Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{"load", load})));
    out.emplace_back("save", Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{"save", save})));
}

}  // namespace tg::interp
