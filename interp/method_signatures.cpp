#include "interp/method_signatures.hpp"

#include <array>
#include <vector>

#include "interp/check_args.hpp"
#include "interp/error.hpp"
#include "interp/suggest.hpp"
#include "interp/values/value.hpp"

namespace tg::interp {

namespace {

// As Python writes them: parameters before `/` are positional only, after
// `*` keyword only. (Python's `pop(key[, default])`: `default=...`.)
constexpr std::array<std::string_view, 9> kList = {
    "append(value, /)", "pop(index=-1, /)", "extend(items, /)", "index(value, /)", "insert(index, value, /)",
    "remove(value, /)", "count(value, /)",  "sort(*, key=None, reverse=False)",     "copy()"};

constexpr std::array<std::string_view, 9> kDict = {
    "keys()", "values()", "items()", "get(key, /, default=None)", "pop(key, /, default=...)",
    "update(other={}, /, **kwargs)", "copy()", "setdefault(key, /, default=None)", "clear()"};

constexpr std::array<std::string_view, 21> kStr = {
    "join(items, /)",    "split(sep=None, maxsplit=-1)", "strip(chars=None, /)",  "lstrip(chars=None, /)",
    "rstrip(chars=None, /)", "replace(old, new, count=-1, /)", "startswith(prefix, /)", "endswith(suffix, /)",
    "upper()",           "lower()",                      "format(*args, **kwargs)", "find(sub)",
    "rfind(sub)",        "index(sub)",                   "rindex(sub)",           "count(sub)",
    "isdigit()",         "isalpha()",                    "isspace()",             "isalnum()",
    "zfill(width)"};

constexpr std::array<std::string_view, 3> kTensor = {"item()", "tolist()", "copy()"};

// a graph value's (interp/tracing/graph_value.cpp; its other attributes are not called)
constexpr std::array<std::string_view, 1> kGraph = {"dot()"};

template <size_t N>
constexpr std::array<std::string_view, N> names_of(const std::array<std::string_view, N>& signatures) {
    std::array<std::string_view, N> out{};
    for (size_t i = 0; i < N; ++i) out[i] = signatures[i].substr(0, signatures[i].find('('));
    return out;
}

constexpr auto kListNames = names_of(kList);
constexpr auto kDictNames = names_of(kDict);
constexpr auto kStrNames = names_of(kStr);
constexpr auto kTensorNames = names_of(kTensor);
constexpr auto kGraphNames = names_of(kGraph);

std::vector<CallSignature> parsed(MethodOf of) {
    std::vector<CallSignature> out;
    for (std::string_view text : method_signature_texts(of)) out.push_back(*parse_signature(text));
    return out;
}

}  // namespace

const char* method_kind_name(MethodOf of) {
    switch (of) {
    case MethodOf::List: return "list";
    case MethodOf::Dict: return "dict";
    case MethodOf::Str: return "str";
    case MethodOf::Tensor: return "tensor";
    case MethodOf::Graph: return "graph";
    }
    return "value";
}

std::span<const std::string_view> method_signature_texts(MethodOf of) {
    switch (of) {
    case MethodOf::List: return kList;
    case MethodOf::Dict: return kDict;
    case MethodOf::Str: return kStr;
    case MethodOf::Tensor: return kTensor;
    case MethodOf::Graph: return kGraph;
    }
    return {};
}

std::span<const std::string_view> method_names(MethodOf of) {
    switch (of) {
    case MethodOf::List: return kListNames;
    case MethodOf::Dict: return kDictNames;
    case MethodOf::Str: return kStrNames;
    case MethodOf::Tensor: return kTensorNames;
    case MethodOf::Graph: return kGraphNames;
    }
    return {};
}

// the names for "did you mean" and completion (interp/suggest.hpp)
std::span<const std::string_view> list_method_names() { return kListNames; }
std::span<const std::string_view> dict_method_names() { return kDictNames; }
std::span<const std::string_view> string_method_names() { return kStrNames; }

const CallSignature* method_signature(MethodOf of, std::string_view name) {
    // parsed once per process (constant data, as the op registry)
    static const std::array<std::vector<CallSignature>, 5> all = {parsed(MethodOf::List), parsed(MethodOf::Dict),
                                                                  parsed(MethodOf::Str), parsed(MethodOf::Tensor),
                                                                  parsed(MethodOf::Graph)};
    for (const CallSignature& s : all[static_cast<size_t>(of)])
        if (s.name == name) return &s;
    return nullptr;
}

void check_method_arguments(MethodOf of, std::string_view name, const CallArgs& args) {
    const CallSignature* s = method_signature(of, name);
    if (!s) throw Error("internal error: no signature for method `" + std::string(name) + "`");
    check_arguments(*s, args, ArityWording::Method);
}

}  // namespace tg::interp
