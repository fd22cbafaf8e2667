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

constexpr std::array<std::string_view, 40> kStr = {
    "join(items, /)", "split(sep=None, maxsplit=-1)", "rsplit(sep=None, maxsplit=-1)", "splitlines(keepends=False)",
    "strip(chars=None, /)", "lstrip(chars=None, /)", "rstrip(chars=None, /)", "replace(old, new, count=-1, /)",
    "startswith(prefix, start=None, end=None, /)", "endswith(suffix, start=None, end=None, /)",
    "removeprefix(prefix, /)", "removesuffix(suffix, /)", "upper()", "lower()", "capitalize()", "title()",
    "swapcase()", "casefold()", "format(*args, **kwargs)", "find(sub, start=None, end=None)",
    "rfind(sub, start=None, end=None)", "index(sub, start=None, end=None)", "rindex(sub, start=None, end=None)",
    "count(sub, start=None, end=None)", "partition(sep, /)", "rpartition(sep, /)", "isdigit()", "isalpha()",
    "isspace()", "isalnum()", "isupper()", "islower()", "istitle()", "isdecimal()", "isnumeric()", "isascii()",
    "zfill(width)", "center(width, fillchar=' ')", "ljust(width, fillchar=' ')", "rjust(width, fillchar=' ')"};

// Python's set methods (values/set.cpp): the operations take any number of iterables
constexpr std::array<std::string_view, 17> kSet = {
    "add(elem, /)", "discard(elem, /)", "remove(elem, /)", "pop()", "clear()", "copy()", "update(*others)",
    "union(*others)", "intersection(*others)", "difference(*others)", "symmetric_difference(other, /)",
    "intersection_update(*others)", "difference_update(*others)", "symmetric_difference_update(other, /)",
    "issubset(other, /)", "issuperset(other, /)", "isdisjoint(other, /)"};

// NumPy's x.item(*index): none, one of the flattened tensor, or one per axis
constexpr std::array<std::string_view, 5> kTensor = {"item(*index)", "tolist()", "copy()", "conj()", "conjugate()"};

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
constexpr auto kSetNames = names_of(kSet);
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
    case MethodOf::Set: return "set";
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
    case MethodOf::Set: return kSet;
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
    case MethodOf::Set: return kSetNames;
    case MethodOf::Tensor: return kTensorNames;
    case MethodOf::Graph: return kGraphNames;
    }
    return {};
}

// the names for "did you mean" and completion (interp/suggest.hpp)
std::span<const std::string_view> list_method_names() { return kListNames; }
std::span<const std::string_view> dict_method_names() { return kDictNames; }
std::span<const std::string_view> string_method_names() { return kStrNames; }
std::span<const std::string_view> set_method_names() { return kSetNames; }

const CallSignature* method_signature(MethodOf of, std::string_view name) {
    // parsed once per process (constant data, as the op registry)
    static const std::array<std::vector<CallSignature>, 6> all = {parsed(MethodOf::List), parsed(MethodOf::Dict),
                                                                  parsed(MethodOf::Str),  parsed(MethodOf::Set),
                                                                  parsed(MethodOf::Tensor), parsed(MethodOf::Graph)};
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
