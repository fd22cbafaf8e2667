#include "interp/suggest.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace tg::interp {

namespace {

// Optimal string alignment distance (Levenshtein plus swaps of neighbours),
// stopping early once every entry of a row exceeds `limit`.
size_t edit_distance(std::string_view a, std::string_view b, size_t limit) {
    const size_t n = a.size(), m = b.size();
    if ((n > m ? n - m : m - n) > limit) return limit + 1;
    std::vector<size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
    for (size_t j = 0; j <= m; ++j) prev[j] = j;
    for (size_t i = 1; i <= n; ++i) {
        cur[0] = i;
        size_t row_min = cur[0];
        for (size_t j = 1; j <= m; ++j) {
            const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], prev2[j - 2] + 1);
            row_min = std::min(row_min, cur[j]);
        }
        if (row_min > limit) return limit + 1;
        std::swap(prev2, prev);
        std::swap(prev, cur);
    }
    return prev[m];
}

size_t allowed_edits(std::string_view word) { return word.size() <= 5 ? 1 : word.size() <= 11 ? 2 : 3; }

}  // namespace

std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates) {
    if (std::string_view hint = porting_hint(word, candidates); !hint.empty()) return "; " + std::string(hint);
    if (std::string_view tg = tg_spelling(word); !tg.empty()) return "; tg spells it `" + std::string(tg) + "`";
    if (word.size() < 3) return {};  // one or two letters: any other short name is one edit away
    const size_t limit = allowed_edits(word);
    std::string_view best;
    size_t best_d = limit + 1;
    for (std::string_view c : candidates) {
        if (c == word || c.empty() || c.front() == '_') continue;  // internal names are never suggested
        const size_t d = edit_distance(word, c, limit);
        if (d < best_d) {
            best_d = d;
            best = c;
        }
    }
    return best.empty() ? std::string() : "; did you mean `" + std::string(best) + "`?";
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
    std::vector<std::string_view> views(candidates.begin(), candidates.end());
    std::sort(views.begin(), views.end());  // equally close ones: the first alphabetically, whatever the order given
    return did_you_mean(word, std::span<const std::string_view>(views));
}

std::string_view tg_spelling(std::string_view word) {
    static constexpr std::pair<std::string_view, std::string_view> kSpellings[] = {
        {"array", "tensor"},          {"asarray", "tensor"},
        {"amax", "max"},              {"amin", "min"},             {"absolute", "abs"},
        {"power", "pow"},             {"arctan2", "atan2"},        {"arcsin", "asin"},
        {"arccos", "acos"},           {"arctan", "atan"},          {"float32", "f32"},
        {"float64", "f64"},           {"int32", "i32"},            {"int64", "i64"},
        {"multiply", "mul"},          {"subtract", "sub"},         {"divide", "div"},
        {"true_divide", "div"},       {"floor_divide", "floordiv"}, {"remainder", "mod"},
        {"equal", "eq"},              {"not_equal", "ne"},         {"less", "lt"},
        {"less_equal", "le"},         {"greater", "gt"},           {"greater_equal", "ge"},
        {"bitwise_and", "bitand"},    {"bitwise_or", "bitor"},     {"bitwise_xor", "bitxor"},
        {"bitwise_not", "invert"},    {"rint", "round"},           {"around", "round"},
        {"negative", "neg"},          {"fix", "trunc"},            {"row_stack", "vstack"},
        {"double", "f64"},            {"single", "f32"},           {"float_", "f64"},
        {"int_", "i64"},              {"bool_", "bool"},
    };
    for (const auto& [numpy, tg] : kSpellings)
        if (numpy == word && tg != word) return tg;
    return {};
}

std::string_view porting_hint(std::string_view word, std::span<const std::string_view> candidates) {
    // {the word, a name that must be a candidate, the hint}: a hint is given
    // only in its context — a keyword's only for a function with that
    // parameter, a tensor method's (`mT`) only after a tensor's dot
    struct Hint {
        std::string_view word, needs, text;
    };
    static constexpr Hint kHints[] = {
        {"np", "sum", "tg's builtins are NumPy's functions without the `np.` or `np.linalg.` prefix: "
                      "`np.sum(x)` is `sum(x)` (docs/numpy.md)"},
        {"numpy", "sum", "tg's builtins are NumPy's functions, without a module: `numpy.sum(x)` is `sum(x)` "
                         "(docs/numpy.md)"},
        {"linalg", "norm", "np.linalg's functions are builtins without the prefix: `linalg.norm(x)` is `norm(x)`"},
        {"math", "print", "Python's math module is imported first: `import math`"},
        {"fill", "mT", "tensors are values, not filled in place: `full_like(x, v)` is a new tensor"},
        {"fliplr", "flip", "tg writes `flip(x, 1)`"},
        {"flipud", "flip", "tg writes `flip(x, 0)`"},
        {"unsqueeze", "mT", "tg spells it `expand_dims` (NumPy's name)"},
        {"view", "mT", "tg spells it `reshape` (tensors are values: there are no views)"},
        {"dim", "axis", "tg calls it `axis`, as NumPy"},
        {"keepdim", "keepdims", "tg calls it `keepdims`, as NumPy"},
    };
    for (const Hint& h : kHints) {
        if (h.word != word) continue;
        if (std::find(candidates.begin(), candidates.end(), h.needs) != candidates.end()) return h.text;
    }
    return {};
}

std::span<const std::string_view> tensor_attribute_names() {
    static constexpr std::array<std::string_view, 15> kNames = {"shape", "ndim",     "size", "dtype", "T",
                                                                "mT",    "itemsize", "nbytes", "real", "imag",
                                                                "item",  "tolist",   "copy", "conj", "conjugate"};
    return kNames;
}

}  // namespace tg::interp
