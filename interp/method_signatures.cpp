#include "interp/method_signatures.hpp"

#include <algorithm>
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

std::vector<SignatureCheck> parsed(MethodOf of) {
    std::vector<SignatureCheck> out;
    for (std::string_view text : method_signature_texts(of)) out.emplace_back(text, ArityWording::Method);
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

namespace {

// Every kind's signatures, parsed once per process (constant data, as the op registry).
const std::vector<SignatureCheck>& signatures(MethodOf of) {
    static const std::array<std::vector<SignatureCheck>, 6> all = {parsed(MethodOf::List), parsed(MethodOf::Dict),
                                                                  parsed(MethodOf::Str),  parsed(MethodOf::Set),
                                                                  parsed(MethodOf::Tensor), parsed(MethodOf::Graph)};
    return all[static_cast<size_t>(of)];
}

struct MethodCode : lang::ExprCode {
    MethodIds ids;
};

}  // namespace

std::optional<Method> find_method(MethodOf of, std::string_view name) {
    const std::span<const std::string_view> names = method_names(of);
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) return std::nullopt;
    return Method{of, static_cast<uint8_t>(it - names.begin())};
}

const CallSignature& Method::signature() const { return signatures(of)[index].signature(); }

const CallSignature* method_signature(MethodOf of, std::string_view name) {
    const std::optional<Method> m = find_method(of, name);
    return m ? &m->signature() : nullptr;
}

bool Method::changes_receiver() const {
    const std::string_view n = name();
    switch (of) {
    case MethodOf::List: return n != "index" && n != "count" && n != "copy";
    case MethodOf::Dict: return n == "pop" || n == "update" || n == "setdefault" || n == "clear";
    case MethodOf::Set:
        return n == "add" || n == "discard" || n == "remove" || n == "pop" || n == "clear" || n.ends_with("update");
    default: return false;
    }
}

MethodIds method_ids(std::string_view name) {
    MethodIds out;
    for (MethodOf of : kMethodKinds) {
        const std::optional<Method> m = find_method(of, name);
        out.index[static_cast<size_t>(of)] = m ? static_cast<int8_t>(m->index) : int8_t(-1);
        if (m && m->changes_receiver()) out.changing |= uint8_t(1u << static_cast<unsigned>(of));
    }
    return out;
}

std::unique_ptr<lang::ExprCode> method_code(std::string_view name) {
    auto code = std::make_unique<MethodCode>();
    code->ids = method_ids(name);
    return code;
}

MethodIds method_ids_of(const lang::Attribute& a) {
    if (a.code) return static_cast<const MethodCode&>(*a.code).ids;  // (the only code an attribute holds)
    return method_ids(a.attr);
}

std::optional<MethodOf> method_kind(const MethodIds& ids, const Value& recv) {
    MethodOf k;
    switch (recv.kind()) {
    case Kind::List: k = MethodOf::List; break;
    case Kind::Dict: k = MethodOf::Dict; break;
    case Kind::Set: k = MethodOf::Set; break;
    case Kind::Str: k = MethodOf::Str; break;
    case Kind::Tensor: k = MethodOf::Tensor; break;
    default: return std::nullopt;
    }
    if (!ids.of(k)) return std::nullopt;
    return k;
}

void check_method_arguments(Method m, const CallArgs& args) {
    signatures(m.of)[m.index](args);
}

}  // namespace tg::interp
