// The public embedding API (include/tg/tg.hpp) over the internal runtime.
// Every entry point catches everything: no exception other than tg::Error
// leaves it.
#include <tg/tg.hpp>

#include "api/tool_api.hpp"

#include "api/interpreter_impl.hpp"
#include "api/tensor.hpp"

#include <algorithm>
#include <cstring>

#include "interp/values/dict.hpp"
#include "interp/values/set.hpp"
#include "interp/error.hpp"
#include "interp/evaluator.hpp"
#include "interp/values/printing.hpp"
#include "interp/resolver.hpp"
#include "interp/runtime.hpp"
#include "interp/tracing/graph_cache.hpp"
#include "interp/tracing/trace_input.hpp"
#include "tracer/printer.hpp"
#include "lang/parser.hpp"
#include "stdlib/format.hpp"

namespace tg {

struct Value::Impl {
    interp::Value v;
};

using detail::guarded;

Error detail::to_public_error(const interp::Error& e) {
    std::vector<Error::Frame> frames;
    for (const auto& t : e.traceback())
        frames.push_back({t.function, t.source ? t.source->name() : "", static_cast<int>(t.loc.line),
                          static_cast<int>(t.loc.col)});
    return Error(e.message(), e.source() ? e.source()->name() : "", static_cast<int>(e.loc().line),
                 static_cast<int>(e.loc().col), std::move(frames), e.render());
}

namespace {

using detail::plain_error;
using detail::to_internal;
using detail::to_public;

}  // namespace

Value detail::Access::wrap(interp::Value v) { return Value(std::make_shared<Value::Impl>(Value::Impl{std::move(v)})); }
const interp::Value& detail::Access::unwrap(const Value& v) { return v.impl_->v; }

namespace {

Value wrap(interp::Value v) { return detail::Access::wrap(std::move(v)); }
const interp::Value& unwrap(const Value& v) { return detail::Access::unwrap(v); }

interp::Options to_internal(const Options& o) {
    interp::Options r;
    r.write_output = o.write_output;
    r.write_log = o.write_log;
    if (o.display) r.display = [display = o.display](const interp::Value& v) { display(detail::Access::wrap(v)); };
    r.output_is_terminal = o.output_is_terminal;
    r.eager = o.eager;
    r.trace = o.trace;
    r.no_jit = o.no_jit;
    r.no_cache = o.no_cache;
    r.cache_dir = o.cache_dir;
    r.sync_jit = o.sync_jit;
    r.threads = o.threads;
    r.dynamic_shapes = o.dynamic_shapes == DynamicShapes::Always  ? tracer::DynamicShapes::Always
                       : o.dynamic_shapes == DynamicShapes::Never ? tracer::DynamicShapes::Never
                                                                  : tracer::DynamicShapes::Auto;
    r.verify = o.verify;
    r.dump_graphs_dir = o.dump_graphs_dir;
    r.max_call_depth = o.max_call_depth;
    r.max_steps = o.max_steps;
    r.max_memory_bytes = o.max_memory_bytes;
    r.max_seconds = o.max_seconds;
    r.interrupt = o.interrupt;
    r.allow_import = o.allow_import;
    r.allow_files = o.allow_files;
    r.file_root = o.file_root;
    r.breakpoints = o.breakpoints;
    r.on_breakpoint = o.on_breakpoint;
    r.debug_nans = o.debug_nans;
    if (o.load_module) {
        r.load_module = [loader = o.load_module](const std::string& name, const std::string& from, std::string& path,
                                                 std::string& text) {
            std::optional<ModuleSource> m;
            try {
                m = loader(name, from);
            } catch (const Error& e) {
                throw interp::Error(e.message());
            } catch (const std::exception& e) {
                throw interp::Error(e.what());
            }
            if (!m) return false;
            path = std::move(m->path);
            text = std::move(m->source);
            return true;
        };
    }
    r.use_tg_path = o.use_tg_path;
    r.module_paths = o.module_paths;
    return r;
}

}  // namespace

ModuleLoader file_module_loader(std::vector<std::string> module_paths, bool use_tg_path) {
    return [module_paths = std::move(module_paths), use_tg_path](const std::string& name,
                                                                 const std::string& importer) -> std::optional<ModuleSource> {
        ModuleSource m;
        try {
            interp::find_module_file(name, importer, module_paths, use_tg_path, m.path, m.source);
        } catch (const interp::Error& e) {
            throw HostError(e.message());
        }
        return m;
    };
}

// ---------------------------------------------------------------- version
// (Error, DType and Tensor are in api/tensor.cpp: tg::Graph uses them without the interpreter.)

const char* version() { return TG_VERSION; }

// ---------------------------------------------------------------- Value

Value::Value() : impl_(std::make_shared<Impl>(Impl{interp::Value::none()})) {}
Value::Value(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
Value::Value(Tensor t) : impl_(std::make_shared<Impl>(Impl{interp::Value(t.impl_->t)})) {}
Value::Value(double v) : impl_(std::make_shared<Impl>(Impl{interp::Value(stdlib::Tensor::weak_float(v))})) {}
Value::Value(int64_t v) : impl_(std::make_shared<Impl>(Impl{interp::Value(stdlib::Tensor::weak_int(v))})) {}
Value::Value(bool v) : impl_(std::make_shared<Impl>(Impl{interp::Value::from_bool(v)})) {}
Value::Value(std::string s) : impl_(std::make_shared<Impl>(Impl{interp::Value::str(std::move(s))})) {}

Value Value::list(std::vector<Value> items) {
    std::vector<interp::Value> v;
    for (auto& i : items) v.push_back(unwrap(i));
    return wrap(interp::Value::list(std::move(v)));
}
Value Value::tuple(std::vector<Value> items) {
    std::vector<interp::Value> v;
    for (auto& i : items) v.push_back(unwrap(i));
    return wrap(interp::Value::tuple(std::move(v)));
}

Value Value::dict(std::vector<std::pair<Value, Value>> entries) {
    return guarded([&] {
        interp::DictObj d;
        for (auto& [k, v] : entries) d.set(interp::dict_key(unwrap(k)), unwrap(v));
        return wrap(interp::Value::dict(std::move(d)));
    });
}

Value Value::set(std::vector<Value> elements) {
    return guarded([&] {
        interp::SetObj s;
        for (auto& e : elements) s.items.insert(interp::dict_key(unwrap(e), interp::KeyUse::SetElement));
        return wrap(interp::Value::set(std::move(s)));
    });
}

Value::Kind Value::kind() const {
    switch (impl_->v.kind()) {
    case interp::Kind::Tensor: return Kind::Tensor;
    case interp::Kind::List: return Kind::List;
    case interp::Kind::Tuple: return Kind::Tuple;
    case interp::Kind::Str: return Kind::Str;
    case interp::Kind::Function: case interp::Kind::Builtin: case interp::Kind::BoundMethod: return Kind::Function;
    case interp::Kind::DType: return Kind::DType;
    case interp::Kind::Module: return Kind::Module;
    case interp::Kind::Dict: return Kind::Dict;
    case interp::Kind::Set: return Kind::Set;
    case interp::Kind::Graph: return Kind::Graph;
    case interp::Kind::Spec: return Kind::Spec;
    case interp::Kind::None: case interp::Kind::Undefined: return Kind::None;
    }
    return Kind::None;  // (every kind is named above: -Wswitch finds a new one)
}
Tensor Value::as_tensor() const {
    if (!impl_->v.is_tensor())
        throw plain_error(std::string("expected a tensor, got a ") + interp::kind_name(impl_->v.kind()));
    return Tensor(std::make_shared<Tensor::Impl>(Tensor::Impl{impl_->v.tensor()}));
}
std::string Value::as_string() const {
    if (!impl_->v.is(interp::Kind::Str))
        throw plain_error(std::string("expected a str, got a ") + interp::kind_name(impl_->v.kind()));
    return impl_->v.text();
}
std::vector<Value> Value::items() const {
    if (impl_->v.is(interp::Kind::Set)) {
        std::vector<Value> out;
        for (const auto& e : interp::set_values(impl_->v.set())) out.push_back(wrap(e));
        return out;
    }
    if (!impl_->v.is_sequence())
        throw plain_error(std::string("expected a list, a tuple or a set, got a ") + interp::kind_name(impl_->v.kind()));
    std::vector<Value> out;
    for (const auto& i : impl_->v.items()) out.push_back(wrap(i));
    return out;
}
std::vector<std::pair<Value, Value>> Value::entries() const {
    if (!impl_->v.is(interp::Kind::Dict))
        throw plain_error(std::string("expected a dict, got a ") + interp::kind_name(impl_->v.kind()));
    const interp::DictObj& d = impl_->v.dict();
    std::vector<std::pair<Value, Value>> out;
    for (size_t i = 0; i < d.size(); ++i) out.emplace_back(wrap(interp::key_value(d.keys[i])), wrap(d.values[i]));
    return out;
}
std::string Value::str() const {
    return guarded([&] { return interp::str_of(impl_->v); });
}
std::string Value::repr() const {
    return guarded([&] { return interp::repr_of(impl_->v); });
}

// ---------------------------------------------------------------- Interpreter

Interpreter::Interpreter(Options options)
    : impl_(guarded([&] { return std::make_unique<Impl>(to_internal(options)); })) {
    guarded([&] {
        std::vector<interp::Value> argv;
        for (auto& a : options.argv) argv.push_back(interp::Value::str(a));
        impl_->rt.define_builtin("argv", interp::Value::list(std::move(argv)));
    });
}
Interpreter::~Interpreter() = default;
Interpreter::Interpreter(Interpreter&&) noexcept = default;
Interpreter& Interpreter::operator=(Interpreter&&) noexcept = default;

std::string read_file(const std::string& path) {
    return guarded([&] {
        std::string text;
        lang::ReadResult r = lang::read_source_file(path, text);
        if (r.status != lang::ReadResult::Ok) throw plain_error(r.error);
        return text;
    });
}

void Interpreter::run_file(const std::string& path) {
    guarded([&] {
        std::string text = read_file(path);
        interp::ModuleState& m = impl_->rt.main_module();
        if (m.path.empty()) m.path = path;
        impl_->rt.run_chunk(m, std::make_shared<lang::Source>(path, std::move(text)));
    });
}

void Interpreter::run_source(std::string_view source, std::string_view name) {
    guarded([&] {
        impl_->rt.run_chunk(impl_->rt.main_module(), std::make_shared<lang::Source>(std::string(name), std::string(source)));
    });
}

void Interpreter::run_interactive(std::string_view source, std::string_view name,
                                  const std::function<void(const Value&)>& echo) {
    guarded([&] {
        std::function<void(const interp::Value&)> e = [&](const interp::Value& v) {
            if (!v.is(interp::Kind::None)) echo(wrap(v));
        };
        impl_->rt.run_chunk(impl_->rt.main_module(),
                            std::make_shared<lang::Source>(std::string(name), std::string(source)), &e, nullptr, {});
    });
}

void Interpreter::run_traced(std::string_view source, std::string_view name) {
    guarded([&] {
        interp::run_input_traced(impl_->rt, impl_->rt.main_module(),
                                 std::make_shared<lang::Source>(std::string(name), std::string(source)));
    });
}

bool Interpreter::has(std::string_view name) const {
    auto& m = impl_->rt.main_module();
    int slot = m.find(name);
    return slot >= 0 && m.globals[slot].defined();
}

Value Interpreter::get(std::string_view name) const {
    auto& m = impl_->rt.main_module();
    int slot = m.find(name);
    if (slot < 0 || !m.globals[slot].defined()) throw plain_error("`" + std::string(name) + "` is not defined");
    return wrap(m.globals[slot]);
}

void Interpreter::set(std::string_view name, Value v) {
    guarded([&] {
        auto& m = impl_->rt.main_module();
        m.globals[m.slot_of(std::string(name))] = unwrap(v);
    });
}

std::vector<std::string> Interpreter::variables() const {
    std::vector<std::string> out;
    auto& m = impl_->rt.main_module();
    for (auto& [name, slot] : m.index)
        if (m.globals[slot].defined()) out.push_back(name);
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> Interpreter::builtin_names() const {
    auto out = impl_->rt.builtin_names();
    std::sort(out.begin(), out.end());
    return out;
}

Value Interpreter::call(std::string_view function, std::vector<Value> args) {
    return call_value(get(function), std::move(args));
}

Value Interpreter::call_value(const Value& function, std::vector<Value> args) {
    return guarded([&] {
        interp::StackGuard guard(impl_->rt);
        std::vector<interp::Value> a;
        for (auto& x : args) a.push_back(unwrap(x));
        interp::CallArgs ca{a, {}, {}, {}};
        return wrap(interp::Evaluator(impl_->rt).call(unwrap(function), ca, nullptr));
    });
}

void Interpreter::define(std::string name, HostFunction fn) {
  guarded([&] {
    std::string n = name;
    auto b = std::make_shared<interp::BuiltinObj>(interp::BuiltinObj{
        n,
        [n, fn = std::move(fn)](interp::Runtime&, const interp::CallArgs& a) -> interp::Value {
            if (!a.keywords.empty())
                throw interp::Error(n + ": unknown keyword argument `" + std::string(a.keywords[0].name) + "`");
            std::vector<Value> args;
            for (const auto& v : a.positional) args.push_back(wrap(v));
            try {
                return unwrap(fn(args));
            } catch (const Error& e) {
                throw interp::Error(n + ": " + e.message());
            } catch (const interp::Error&) {
                throw;  // e.g. "interrupted" from a nested call back into tg
            } catch (const std::bad_alloc&) {
                throw interp::Error(n + ": out of memory");
            } catch (const std::exception& e) {
                throw interp::Error(n + ": " + e.what());
            } catch (...) {
                // `throw 42`: not a std::exception, but still located at the call site
                throw interp::Error(n + ": the host function threw an exception that is not a std::exception");
            }
        },
        nullptr, true});
    impl_->rt.define_builtin(name, interp::Value::builtin(std::move(b)));
  });
}

int64_t Interpreter::memory_bytes() const { return impl_->rt.budget->used(); }

void Interpreter::set_eager(bool on) { impl_->rt.options.eager = on; }
void Interpreter::set_trace(bool on) { impl_->rt.options.trace = on; }

std::vector<std::string> Interpreter::graphs(std::string_view name, bool dot) const {
    const interp::ModuleState& m = impl_->rt.main_module();
    int slot = m.find(name);
    if (slot < 0 || !m.globals[slot].defined()) throw plain_error("`" + std::string(name) + "` is not defined");
    const interp::Value& v = m.globals[slot];
    if (!v.is(interp::Kind::Function) || !v.function().graph_cache)
        throw plain_error("`" + std::string(name) + "` is not a @graph function");
    std::vector<std::string> out;
    for (const auto& e : v.function().graph_cache->entries())
    {
        std::string text = "# " + e->signature.to_string() + "\n" + (dot ? tracer::to_dot(*e->graph) : tracer::print_graph(*e->graph));
        if (text.back() != '\n') text += '\n';
        out.push_back(std::move(text));
    }
    return out;
}

// ---------------------------------------------------------------- check

CheckResult check_source(std::string_view source, std::string_view name, bool want_ast) {
    return guarded([&] {
        auto src = std::make_shared<lang::Source>(std::string(name), std::string(source));
        lang::ParseResult r = lang::parse(src);
        CheckResult out;
        out.errors = static_cast<int>(r.errors.size());
        for (const auto& e : r.errors) {
            out.report += lang::render(lang::to_diagnostic(e, src));
            if (e.unexpected_eof) out.incomplete = true;
        }
        if (want_ast && r.module) out.ast = lang::print_ast(*r.module);
        return out;
    });
}

}  // namespace tg
