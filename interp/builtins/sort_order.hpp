// How sorted, sort, min and max order values without dispatching `<`
// (docs/builtins.md "sorted"): the cases that give the same answers as the
// general comparison (interp/builtins/seq.cpp: less) and need no Value built
// per comparison — numbers, strings, and tuples or lists of them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "interp/values/value.hpp"

namespace tg::interp {

// Less: a < b. Greater: b < a. Same: neither (equal, or a NaN). Unknown:
// only the general comparison can tell (any other pair, also its errors).
enum class Order : uint8_t { Less, Greater, Same, Unknown };

// Two numbers (0-d, compared by scalar_binary, as compare() computes them),
// two strings (by their bytes), lists or tuples of those item by item.
Order quick_order(const Value& a, const Value& b);

// A sort's keys laid out flat, when every key is a number or a string, or
// every key a tuple (or list) of one length whose items at each position
// are all strings or all numbers of one dtype (`key=lambda r: (-r["age"],
// r["name"])`): compared without reading a Value, as quick_order compares
// them, from one array instead of through each key's tuple.
class FlatKeys {
public:
    // nullopt when the keys are not of that form (quick_order decides then).
    static std::optional<FlatKeys> of(const std::vector<Value>& keys);
    Order order(size_t i, size_t j) const;  // keys i and j

private:
    // What a position holds: i64 ints (weak or not) or floats of one dtype
    // and weakness (all compared as doubles: an f32 is one exactly), or strings.
    enum class Column : uint8_t { Int, Float, Str };
    union Cell {
        int64_t i;
        double f;
        const std::string* s;  // (the keys hold the strings while this is used)
    };
    std::vector<Column> columns_;
    std::vector<Cell> cells_;  // key k's cells at [k * width, (k + 1) * width)
};

}  // namespace tg::interp
