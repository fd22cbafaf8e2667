// .tgx files for load / save (docs/language.md "Graphs as values"): a graph value to bytes and back
// (tracer/tgx.hpp). builtins_files.cpp dispatches by extension, checks the
// path (allow_files, file_root) and writes atomically; this file knows only
// the graph side.
#include "interp/error.hpp"
#include "interp/tracing/graph_value.hpp"
#include "interp/runtime.hpp"
#include "onnx_export/plugin.hpp"
#include "stdlib/file_io.hpp"
#include "tracer/tgx.hpp"

namespace tg::interp {

Value read_graph_file(Runtime& rt, const stdlib::FileRoot& root, const std::string& file) {
    stdlib::FileBytes bytes(root, file);  // FileError (the caller names the file)
    const auto* p = reinterpret_cast<const std::byte*>(bytes.bytes().data());
    try {
        return make_graph_value(rt, tracer::read_tgx({p, bytes.bytes().size()}));
    } catch (const tracer::TgxError& e) {
        throw stdlib::FileError(e.what());
    }
}

std::vector<std::byte> graph_file_bytes(const Value& v) {
    if (!v.is(Kind::Graph))
        throw Error(std::string("save: a .tgx file holds a graph (from concrete or load), not a ") + kind_name(v.kind()));
    try {
        return tracer::write_tgx(v.graph().fn);
    } catch (const tracer::TgxError& e) {
        throw Error(std::string("save: ") + e.what());
    }
}

std::vector<std::byte> graph_onnx_bytes(const Value& v, bool drop_prints, const lang::SourcePtr& call_source,
                                        lang::Loc call_loc) {
    if (!v.is(Kind::Graph))
        throw Error(std::string("save: a .onnx file holds a graph (from concrete or load), not a ") + kind_name(v.kind()));
    std::string bytes;
    try {
        bytes = onnx_export::write_onnx_model(v.graph().fn, {drop_prints});
    } catch (const onnx_export::ExportError& e) {
        // at the node's line, with the calls it was inlined from (like a graph's run-time error)
        Error err(std::string("save: ") + e.what(), e.where.source, e.where.loc);
        if (!err.located()) throw Error(std::string("save: ") + e.what());
        for (auto c = e.where.inlined_in; c; c = c->outer) err.leave_frame(c->function, c->is_graph, c->source, c->loc);
        err.leave_frame(v.graph().fn.name, false, call_source, call_loc);
        throw err;
    }
    const auto* p = reinterpret_cast<const std::byte*>(bytes.data());
    return {p, p + bytes.size()};
}

}  // namespace tg::interp
