// Variable references of a stopped program for `tg dap`: scopes, tensors
// (shape, dtype, a summary, and their elements along the first axis, paged),
// lists and tuples by index, dicts by key.
#include "cli/dap_variables.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "cli/tensor_summary.hpp"

namespace tg::cli {

namespace {

// Longer values are cut: a million-element tensor is explored by expanding
// it, not by reading one line of megabytes.
constexpr size_t kMaxShown = 1000;
// Children per request when the client names no count (or a huge one).
constexpr size_t kMaxChildren = 10000;

std::string cut(std::string s) {
    if (s.size() <= kMaxShown) return s;
    size_t end = kMaxShown;
    while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;  // not inside a UTF-8 character
    s.resize(end);
    return s + "…";
}

std::string shape_text(const std::vector<int64_t>& shape) {
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + (shape.size() == 1 ? ",)" : ")");
}

std::string type_name(const Value& v) {
    switch (v.kind()) {
    case Value::Kind::None: return "None";
    case Value::Kind::Tensor: return tensor_type(v.as_tensor());
    case Value::Kind::List: return "list";
    case Value::Kind::Tuple: return "tuple";
    case Value::Kind::Str: return "str";
    case Value::Kind::Function: return "function";
    case Value::Kind::DType: return "dtype";
    case Value::Kind::Module: return "module";
    case Value::Kind::Dict: return "dict";
    case Value::Kind::Set: return "set";
    case Value::Kind::Graph: return "graph";
    case Value::Kind::Spec: return "spec";
    }
    return "?";
}

// As the Variables view shows a value: tensors as print() does (their type
// says shape and dtype), everything else as repr (strings quoted).
std::string shown(const Value& v) { return cut(v.is_tensor() ? v.str() : v.repr()); }

struct Counts {
    size_t named = 0, indexed = 0;
    bool expandable() const { return named + indexed > 0; }
};

Counts counts_of(const Value& v) {
    switch (v.kind()) {
    case Value::Kind::Tensor: {
        const std::vector<int64_t> shape = v.as_tensor().shape();
        if (shape.empty()) return {};
        return {3, static_cast<size_t>(shape[0])};  // shape, dtype, summary; the rows
    }
    case Value::Kind::List:
    case Value::Kind::Tuple: return {0, v.items().size()};
    case Value::Kind::Dict: return {v.entries().size(), 0};
    default: return {};
    }
}

nlohmann::json plain(const std::string& name, const std::string& value, const std::string& type = "") {
    nlohmann::json v = {{"name", name}, {"value", value}, {"variablesReference", 0}};
    if (!type.empty()) v["type"] = type;
    return v;
}

// [start, start + count) within [0, size), count 0 meaning "all" (capped).
std::pair<size_t, size_t> page(size_t size, size_t start, size_t count) {
    if (count == 0 || count > kMaxChildren) count = kMaxChildren;
    start = std::min(start, size);
    return {start, std::min(size, start + count)};
}

}  // namespace

int VariableStore::add_scope(Scope s) {
    const int ref = next_++;
    entries_[ref] = Entry{s, Value()};
    return ref;
}

std::optional<VariableStore::Scope> VariableStore::scope(int ref) const {
    const auto it = entries_.find(ref);
    if (it == entries_.end()) return std::nullopt;
    return it->second.scope;
}

nlohmann::json VariableStore::variable(const std::string& name, const Value& value) {
    nlohmann::json v = plain(name, shown(value), type_name(value));
    const Counts c = counts_of(value);
    if (c.expandable()) {
        const int ref = next_++;
        entries_[ref] = Entry{std::nullopt, value};
        v["variablesReference"] = ref;
        if (c.named) v["namedVariables"] = c.named;
        if (c.indexed) v["indexedVariables"] = c.indexed;
    }
    return v;
}

nlohmann::json VariableStore::evaluated(const Value& value, bool repl) {
    nlohmann::json v = variable("", value);
    nlohmann::json body = {{"result", repl ? cut(value.repr()) : v["value"].get<std::string>()},
                           {"type", v["type"]},
                           {"variablesReference", v["variablesReference"]}};
    if (v.contains("namedVariables")) body["namedVariables"] = v["namedVariables"];
    if (v.contains("indexedVariables")) body["indexedVariables"] = v["indexedVariables"];
    return body;
}

nlohmann::json VariableStore::children(int ref, const DebugStop& stop, const std::string& filter, size_t start,
                                       size_t count) {
    const auto it = entries_.find(ref);
    if (it == entries_.end())
        throw std::runtime_error("no variables with reference " + std::to_string(ref) +
                                 " (references last until the program resumes)");
    const Entry& entry = it->second;  // std::map: adding the children's entries leaves it in place
    if (entry.scope) return {{"variables", scope_children(*entry.scope, stop)}};
    return {{"variables", value_children(entry.value, filter, start, count)}};
}

nlohmann::json VariableStore::scope_children(const Scope& s, const DebugStop& stop) {
    if (s.frame >= stop.frames.size()) throw std::runtime_error("no such frame");
    const DebugFrame& f = stop.frames[s.frame];
    nlohmann::json out = nlohmann::json::array();
    if (!s.globals && f.is_compiled()) {
        // compiled code keeps its values in registers, not in variables
        out.push_back(plain("(compiled)", "`" + f.function() +
                                              "` is running compiled code: its variables are not there to read "
                                              "(step into the call, or set a breakpoint in it)"));
        return out;
    }
    for (const auto& [name, value] : s.globals ? f.globals() : f.locals()) out.push_back(variable(name, value));
    return out;
}

nlohmann::json VariableStore::value_children(const Value& v, const std::string& filter, size_t start, size_t count) {
    const bool named = filter != "indexed", indexed = filter != "named";
    nlohmann::json out = nlohmann::json::array();
    switch (v.kind()) {
    case Value::Kind::Tensor: return tensor_children(v.as_tensor(), named, indexed, start, count);
    case Value::Kind::List:
    case Value::Kind::Tuple: {
        if (!indexed) return out;
        const std::vector<Value> items = v.items();
        const auto [from, to] = page(items.size(), start, count);
        for (size_t i = from; i < to; ++i) out.push_back(variable(std::to_string(i), items[i]));
        return out;
    }
    case Value::Kind::Dict:
        if (!named) return out;
        for (const auto& [key, item] : v.entries()) out.push_back(variable(key.repr(), item));
        return out;
    default: return out;
    }
}

nlohmann::json VariableStore::tensor_children(const Tensor& t, bool named, bool indexed, size_t start, size_t count) {
    nlohmann::json out = nlohmann::json::array();
    const std::vector<int64_t> shape = t.shape();
    if (shape.empty()) return out;
    if (named) {
        out.push_back(plain("shape", shape_text(shape), "tuple"));
        out.push_back(plain("dtype", dtype_name(t.dtype()), "dtype"));
        const std::string summary = tensor_summary(t);  // the terminal debugger's too
        out.push_back(plain("summary", summary.empty() ? "empty" : summary));
    }
    if (!indexed) return out;
    // the rows along the first axis: elements of a vector, sub-tensors of a matrix
    const std::vector<int64_t> row_shape(shape.begin() + 1, shape.end());
    const int64_t rows = shape[0];
    const int64_t row_elements = rows ? t.size() / rows : 0;
    const size_t row_bytes = static_cast<size_t>(row_elements) * dtype_size(t.dtype());
    const char* base = static_cast<const char*>(t.data());
    const auto [from, to] = page(static_cast<size_t>(rows), start, count);
    for (size_t i = from; i < to; ++i)
        out.push_back(variable(std::to_string(i), Value(Tensor::copy_of(base + i * row_bytes, t.dtype(), row_shape))));
    return out;
}

void VariableStore::clear() { entries_.clear(); }

}  // namespace tg::cli
