// The file builtins of docs/builtins.md: load(path), save(path, x) and
// loadtxt(path, delimiter=",", skiprows=0, dtype=f32).
//
// The format is the file's name (case-insensitive): .npy holds one tensor,
// .npz a dict of tensors (str keys) or a tree of them (a checkpoint:
// interp/builtins/checkpoint.hpp), an IDX file (-ubyte, .idx; read only)
// one tensor, and .tgx / .onnx a graph value (docs/language.md "Graphs as
// values"); a name ending in .gz after the format's is read decompressed
// (loadtxt's too; never written). Every path goes through
// check_file_path (the host's allow_files / file_root). The formats are
// stdlib's (npy, npz, idx, gzip, csv, file_io); this file binds arguments, checks that
// the value fits the extension, and names the function and the file in every
// error: "load: 'w.npy': truncated: ...". Files are host-side: inside a
// @graph function each of these is a trace error.
#include <algorithm>
#include <cctype>

#include "interp/builtins/builtins.hpp"
#include "interp/builtins/figure.hpp"
#include "interp/builtins/checkpoint.hpp"
#include "interp/values/dict.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/evaluator.hpp"
#include "interp/tracing/graph_value.hpp"
#include "interp/values/printing.hpp"
#include "interp/runtime.hpp"
#include "interp/tracing/trace.hpp"
#include "stdlib/budget.hpp"
#include "stdlib/csv.hpp"
#include "stdlib/file_io.hpp"
#include "stdlib/idx.hpp"
#include "stdlib/npz.hpp"

namespace tg::interp {

namespace {

using stdlib::Tensor;

std::string path_argument(const std::string& fn, const Value& v) {
    if (!v.is(Kind::Str)) throw Error(fn + ": argument `path` must be a str, not " + kind_name(v.kind()));
    return v.text();
}

enum class Format { Npy, Npz, Idx, Tgx, Onnx, Svg, Png, Other };

// What a path's name says (in any case): the format, and whether the file
// is gzip-compressed (a name ending in .gz, then the format's name).
struct FileKind {
    Format format = Format::Other;
    bool gzip = false;
};

bool ends_with(const std::string& s, std::string_view end) {
    return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

FileKind kind_of(const std::string& path) {
    std::string name = path.substr(path.rfind('/') + 1);  // npos + 1 == 0: the whole path
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    FileKind k;
    k.gzip = ends_with(name, ".gz");
    if (k.gzip) name.resize(name.size() - 3);
    // IDX files as MNIST names them (train-images-idx3-ubyte) or by an extension of their own
    if (ends_with(name, "-ubyte") || ends_with(name, ".idx")) k.format = Format::Idx;
    else if (ends_with(name, ".npy")) k.format = Format::Npy;
    else if (ends_with(name, ".npz")) k.format = Format::Npz;
    else if (ends_with(name, ".tgx")) k.format = Format::Tgx;
    else if (ends_with(name, ".onnx")) k.format = Format::Onnx;
    else if (ends_with(name, ".svg")) k.format = Format::Svg;
    else if (ends_with(name, ".png")) k.format = Format::Png;
    return k;
}

// Files are read and written by the host, not by a graph (the trace error
// gets the --eager hint where the graph call reports it).
void host_side(const Runtime& rt, const std::string& fn) {
    if (rt.trace)
        dynamic_value_error(fn + ": cannot be called inside a @graph function; " +
                            (fn == "save" ? "return the tensor and save it outside"
                                          : "read the file outside and pass the tensor in"));
}

// Runs `body` on the checked path, opened through the file root; errors
// name the function and the file.
template <class F>
auto with_file(Runtime& rt, const std::string& fn, const std::string& path, F&& body) {
    FilePlace place;
    try {
        place = place_file(rt.options, path);
    } catch (const Error& e) {
        throw Error(fn + ": " + e.message());
    }
    try {
        return body(place.root, place.path);
    } catch (const stdlib::FileError& e) {
        throw Error(fn + ": '" + path + "': " + e.what());
    } catch (const stdlib::LimitError& e) {
        // the file's contents passed a limit (a huge .npy, a zip bomb): say which file
        throw stdlib::LimitError(fn + ": '" + path + "': " + e.what());
    }
}

Value load(Runtime& rt, const CallArgs& a) {
    host_side(rt, "load");
    const auto args = bind_args("load", a, {"path", "like"}, 1);
    const std::string path = path_argument("load", *args[0]);
    const FileKind k = kind_of(path);
    const Value* like = args[1] && !args[1]->is(Kind::None) ? args[1] : nullptr;
    if (like && k.format != Format::Npz) throw Error("load: argument `like` applies to .npz files (checkpoints)");
    // a checkpoint: nested dicts by the members' paths, or like's tree
    auto tree = [&](stdlib::NamedTensors members) {
        return like ? restore_like(std::move(members), *like, path) : nest_members(std::move(members));
    };
    if (k.format == Format::Onnx)
        throw Error("load: '" + path + "': tg writes ONNX files but does not read them (save the graph as .tgx to load it again)");
    if (k.format == Format::Svg || k.format == Format::Png)
        throw Error("load: '" + path + "': tg writes .svg and .png figures (the plot module) but does not read them");
    if (k.format == Format::Other)
        throw Error("load: cannot tell the format of '" + path +
                    "' from its name (load reads .npy, .npz, .tgx and IDX files named *-ubyte or *.idx; a .gz "
                    "after any but .tgx is decompressed; loadtxt reads text)");
    if (k.format == Format::Tgx && k.gzip)
        throw Error("load: '" + path + "': tg reads .tgx files uncompressed only (decompress it first)");
    return with_file(rt, "load", path, [&](const stdlib::FileRoot& root, const std::string& file) -> Value {
        if (k.format == Format::Tgx) return read_graph_file(rt, root, file);
        if (k.format == Format::Npy && !k.gzip) return Value(stdlib::npy_read_file(root, file));
        if (k.format == Format::Npz && !k.gzip) return tree(stdlib::npz_read_file(root, file));
        const stdlib::FileContents contents(root, file, k.gzip);
        if (k.format == Format::Npy) return Value(stdlib::npy_decode(contents.bytes()));
        if (k.format == Format::Idx) return Value(stdlib::idx_decode(contents.bytes()));
        return tree(stdlib::npz_decode(contents.bytes()));
    });
}

// save gets its call site (a caller builtin): an ONNX export error is
// located at the graph's node, with the frames down to this call.
Value save(Runtime& rt, const CallArgs& a, const lang::SourcePtr& call_source) {
    host_side(rt, "save");
    const auto args = bind_args("save", a, {"path", "x", "drop_prints"}, 2);
    const std::string path = path_argument("save", *args[0]);
    const Value& x = *args[1];
    const FileKind k = kind_of(path);
    const Format f = k.format;
    if (f == Format::Other)
        throw Error("save: cannot tell the format of '" + path +
                    "' from its name (save writes .npy, .npz, .tgx, .onnx, and figures as .svg and .png)");
    // reading them is for datasets as they are published; a result is saved as .npy
    if (f == Format::Idx || k.gzip)
        throw Error("save: '" + path + "': tg reads " + (k.gzip ? "gzip-compressed" : "IDX") +
                    " files but does not write them (save a tensor as .npy, a dict as .npz)");
    bool drop_prints = false;
    if (const Value* d = args[2]) {
        if (f != Format::Onnx) throw Error("save: argument `drop_prints` applies to .onnx files only");
        if (!d->is_tensor() || d->tensor_type().shape.rank() != 0 || d->tensor_type().dtype != stdlib::DType::Bool)
            throw Error(std::string("save: argument `drop_prints` must be True or False, not ") + kind_name(d->kind()));
        drop_prints = d->tensor().item_bool();
    }
    // the value must fit the format before any file is touched
    stdlib::NamedTensors members;
    std::vector<std::byte> graph_bytes;
    if (f == Format::Tgx) {
        graph_bytes = graph_file_bytes(x);
    } else if (f == Format::Onnx) {
        graph_bytes = graph_onnx_bytes(x, drop_prints, call_source, a.loc);
    } else if (f == Format::Svg || f == Format::Png) {
        graph_bytes = figure_bytes(x, f == Format::Svg);  // a figure of the plot module (docs/notebooks.md)
    } else if (f == Format::Npy) {
        if (!x.is_tensor())
            throw Error(std::string("save: a .npy file holds one tensor, not a ") + kind_name(x.kind()) +
                        (x.is(Kind::Dict) ? " (save a dict of tensors as .npz)" : ""));
        members.emplace_back("", x.tensor());
    } else {
        if (!x.is(Kind::Dict) && !x.is_sequence())
            throw Error(std::string("save: a .npz file holds a dict (or a tree) of tensors, not a ") +
                        kind_name(x.kind()) + (x.is_tensor() ? " (save one tensor as .npy)" : ""));
        members = flatten_tree(x);
    }
    with_file(rt, "save", path, [&](const stdlib::FileRoot& root, const std::string& file) {
        stdlib::write_atomically(root, file, [&](int fd) {
            if (f == Format::Npy) stdlib::npy_write_fd(fd, members[0].second);
            else if (f == Format::Tgx || f == Format::Onnx || f == Format::Svg || f == Format::Png)
                stdlib::write_bytes_fd(fd, graph_bytes);
            else stdlib::npz_write_fd(fd, members);
        });
        return 0;
    });
    return Value::none();
}

Value loadtxt(Runtime& rt, const CallArgs& a) {
    host_side(rt, "loadtxt");
    const auto args = bind_args("loadtxt", a, {"path", "delimiter", "skiprows", "dtype"}, 1);
    const std::string path = path_argument("loadtxt", *args[0]);
    stdlib::TextTableOptions o;
    if (const Value* d = args[1]) {
        if (d->is(Kind::None)) o.delimiter.reset();
        else if (!d->is(Kind::Str) || d->text().size() != 1)
            throw Error("loadtxt: argument `delimiter` must be one character (or None for whitespace), not " +
                        (d->is(Kind::Str) ? quote(d->text()) : std::string(kind_name(d->kind()))));
        else if (d->text() == "#" || d->text() == "\n" || d->text() == "\r")
            throw Error("loadtxt: argument `delimiter` cannot be " + quote(d->text()) + " (it ends a row or starts a comment)");
        else o.delimiter = d->text()[0];
    }
    if (const Value* s = args[2]) {
        o.skiprows = to_int(*s, "loadtxt: argument `skiprows`");
        if (o.skiprows < 0) throw Error("loadtxt: argument `skiprows` must be >= 0, not " + std::to_string(o.skiprows));
    }
    if (const Value* t = args[3]) o.dtype = dtype_value(*t, "loadtxt: argument `dtype`");
    return with_file(rt, "loadtxt", path, [&](const stdlib::FileRoot& root, const std::string& file) {
        const stdlib::FileContents text(root, file, kind_of(path).gzip);  // t.csv.gz is decompressed, as np.loadtxt does
        return Value(stdlib::parse_text_table(text.bytes(), o));
    });
}

void add(std::vector<std::pair<std::string, Value>>& out, std::string name, BuiltinFn fn) {
    auto b = std::make_shared<BuiltinObj>(BuiltinObj{name, std::move(fn)});
    out.emplace_back(std::move(name), Value::builtin(std::move(b)));
}

}  // namespace

void add_file_builtins(std::vector<std::pair<std::string, Value>>& out) {
    add(out, "load", load);
    auto s = std::make_shared<BuiltinObj>(BuiltinObj{"save", nullptr});
    s->caller = [](Evaluator& ev, const CallArgs& a, const lang::SourcePtr& source) { return save(ev.runtime(), a, source); };
    out.emplace_back("save", Value::builtin(std::move(s)));
    add(out, "loadtxt", loadtxt);
}

}  // namespace tg::interp
