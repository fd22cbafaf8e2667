#include "tracer/signature.hpp"

#include <functional>

namespace tg::tracer {

using Kind = ArgDesc::Kind;

ArgDesc ArgDesc::tensor(stdlib::DType d, stdlib::Shape s, bool weak) {
    ArgDesc a;
    a.kind = Kind::Tensor;
    a.weak = weak;
    a.dtype = d;
    a.shape = s;
    return a;
}
ArgDesc ArgDesc::list(std::vector<ArgDesc> items) {
    ArgDesc a;
    a.kind = Kind::List;
    a.items = std::move(items);
    return a;
}
ArgDesc ArgDesc::tuple(std::vector<ArgDesc> items) {
    ArgDesc a;
    a.kind = Kind::Tuple;
    a.items = std::move(items);
    return a;
}
ArgDesc ArgDesc::value(std::string key, std::string display) {
    ArgDesc a;
    a.kind = Kind::Static;
    a.key = std::move(key);
    a.display = std::move(display);
    return a;
}

ArgDesc ArgDesc::dict(std::vector<std::string> keys, std::vector<ArgDesc> values) {
    ArgDesc a;
    a.kind = Kind::Dict;
    a.keys = std::move(keys);
    a.items = std::move(values);
    return a;
}

bool operator==(const ArgDesc& a, const ArgDesc& b) {
    if (a.kind != b.kind) return false;
    switch (a.kind) {
        case Kind::Tensor:
            return a.dtype == b.dtype && a.shape == b.shape && a.weak == b.weak && a.dim_symbols == b.dim_symbols;
        case Kind::List: case Kind::Tuple: return a.items == b.items;
        case Kind::Static: return a.key == b.key;
        case Kind::Dict: return a.keys == b.keys && a.items == b.items;
    }
    return false;
}

namespace {

void mix(size_t& h, size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }

void hash_desc(size_t& h, const ArgDesc& a) {
    mix(h, static_cast<size_t>(a.kind));
    switch (a.kind) {
        case Kind::Tensor:
            mix(h, static_cast<size_t>(a.dtype) + (a.weak ? 16 : 0));
            for (int64_t d : a.shape) mix(h, static_cast<size_t>(d));
            for (int16_t k : a.dim_symbols) mix(h, static_cast<size_t>(k + 1));
            mix(h, static_cast<size_t>(a.shape.rank()));
            break;
        case Kind::List: case Kind::Tuple:
            mix(h, a.items.size());
            for (const ArgDesc& i : a.items) hash_desc(h, i);
            break;
        case Kind::Static: mix(h, std::hash<std::string>{}(a.key)); break;
        case Kind::Dict:
            mix(h, a.items.size());
            for (const std::string& k : a.keys) mix(h, std::hash<std::string>{}(k));
            for (const ArgDesc& i : a.items) hash_desc(h, i);
            break;
    }
}

int symbol_of(const ArgDesc& a, int axis) {
    const size_t i = static_cast<size_t>(axis);
    return i < a.dim_symbols.size() ? a.dim_symbols[i] : -1;
}

std::string dim_text(const ArgDesc& a, int axis) {
    const int k = symbol_of(a, axis);
    return k >= 0 ? "?" + std::to_string(k) : std::to_string(a.shape[axis]);
}

std::string tensor_text(const ArgDesc& a) {
    std::string s = a.weak ? "weak " : "";
    s += stdlib::dtype_name(a.dtype);
    s += '[';
    for (int i = 0; i < a.shape.rank(); ++i) s += (i ? "," : "") + dim_text(a, i);
    return s + ']';
}

// "(?0, 4)": a shape as messages show it.
std::string shape_text(const ArgDesc& a) {
    std::string s = "(";
    for (int i = 0; i < a.shape.rank(); ++i) s += (i ? ", " : "") + dim_text(a, i);
    return s + (a.shape.rank() == 1 ? ",)" : ")");
}

// Whether a tensor described by `b` has a shape `a` admits; `sizes` holds
// the size each symbol took so far (0: not yet).
bool shape_admits(const ArgDesc& a, const ArgDesc& b, std::vector<int64_t>& sizes) {
    if (a.shape.rank() != b.shape.rank()) return false;
    for (int i = 0; i < a.shape.rank(); ++i) {
        const int k = symbol_of(a, i);
        if (k < 0) {
            if (a.shape[i] != b.shape[i]) return false;
            continue;
        }
        if (b.shape[i] < 2) return false;
        if (sizes.size() <= static_cast<size_t>(k)) sizes.resize(static_cast<size_t>(k) + 1, 0);
        int64_t& size = sizes[static_cast<size_t>(k)];
        if (size != 0 && size != b.shape[i]) return false;
        size = b.shape[i];
    }
    return true;
}

bool desc_admits(const ArgDesc& a, const ArgDesc& b, std::vector<int64_t>& sizes) {
    return same_structure(a, b, [&](const ArgDesc& x, const ArgDesc& y) {
        if (x.dim_symbols.empty()) return x == y;
        return x.dtype == y.dtype && x.weak == y.weak && y.dim_symbols.empty() && shape_admits(x, y, sizes);
    });
}

std::string desc_text(const ArgDesc& a) {
    switch (a.kind) {
        case Kind::Tensor: return tensor_text(a);
        case Kind::List: case Kind::Tuple: {
            std::string s = a.kind == Kind::List ? "[" : "(";
            for (size_t i = 0; i < a.items.size(); ++i) s += (i ? ", " : "") + desc_text(a.items[i]);
            if (a.kind == Kind::Tuple && a.items.size() == 1) s += ",";
            return s + (a.kind == Kind::List ? "]" : ")");
        }
        case Kind::Static: return a.display;
        case Kind::Dict: {
            std::string s = "{";
            for (size_t i = 0; i < a.items.size(); ++i) s += (i ? ", " : "") + a.keys[i] + ": " + desc_text(a.items[i]);
            return s + "}";
        }
    }
    return "?";
}

std::string keys_text(const ArgDesc& a) {
    std::string s = "[";
    for (size_t i = 0; i < a.keys.size(); ++i) s += (i ? ", " : "") + a.keys[i];
    return s + "]";
}

const char* kind_name(Kind k) {
    switch (k) {
        case Kind::Tensor: return "tensor";
        case Kind::List: return "list";
        case Kind::Tuple: return "tuple";
        case Kind::Static: return "value";
        case Kind::Dict: return "dict";
    }
    return "?";
}

// Differences of one described value at `path` ("argument `xs[1]`").
void diff(const ArgDesc& a, const ArgDesc& b, const std::string& what, const std::string& path,
          std::vector<std::string>& out, size_t& count) {
    const std::string head = what + " `" + path + "`: ";
    if (a.kind != b.kind) {
        ++count;
        out.push_back(head + (a.kind == Kind::Static || b.kind == Kind::Static ? desc_text(a) + " → " + desc_text(b)
                                                                              : std::string(kind_name(a.kind)) + " → " +
                                                                                    kind_name(b.kind)));
        return;
    }
    switch (a.kind) {
        case Kind::Tensor: {
            std::string parts;
            if (a.dtype != b.dtype || a.weak != b.weak)
                parts += std::string("dtype ") + (a.weak ? "weak " : "") + stdlib::dtype_name(a.dtype) + " → " +
                         (b.weak ? "weak " : "") + stdlib::dtype_name(b.dtype);
            std::vector<int64_t> sizes;
            const bool same_shape = a.dim_symbols.empty() && b.dim_symbols.empty() ? a.shape == b.shape
                                                                                   : shape_admits(a, b, sizes);
            if (!same_shape)
                parts += (parts.empty() ? "" : ", ") + std::string("shape ") + shape_text(a) + " → " + shape_text(b);
            // dtype and shape count apart: f32[4] is closer to f32[3] than f64[3] is.
            count += (a.dtype != b.dtype || a.weak != b.weak) + !same_shape;
            if (!parts.empty()) out.push_back(head + parts);
            return;
        }
        case Kind::List: case Kind::Tuple:
            if (a.items.size() != b.items.size()) {
                ++count;
                out.push_back(head + "length " + std::to_string(a.items.size()) + " → " + std::to_string(b.items.size()));
                return;
            }
            for (size_t i = 0; i < a.items.size(); ++i)
                diff(a.items[i], b.items[i], what, path + "[" + std::to_string(i) + "]", out, count);
            return;
        case Kind::Static:
            if (a.key != b.key) {
                ++count;
                out.push_back(head + a.display + " → " + b.display);
            }
            return;
        case Kind::Dict:
            if (a.keys != b.keys) {
                ++count;
                out.push_back(head + "keys " + keys_text(a) + " → " + keys_text(b));
                return;
            }
            for (size_t i = 0; i < a.items.size(); ++i)
                diff(a.items[i], b.items[i], what, path + "[" + a.keys[i] + "]", out, count);
            return;
    }
}

void diff_lists(const std::vector<NamedArg>& a, const std::vector<NamedArg>& b, const std::string& what,
                std::vector<std::string>& out, size_t& count) {
    // By name, in the order of `b` then the names only `a` has.
    for (const NamedArg& nb : b) {
        const NamedArg* na = nullptr;
        for (const NamedArg& x : a)
            if (x.name == nb.name) na = &x;
        if (!na) {
            ++count;
            out.push_back(what + " `" + nb.name + "`: new (" + desc_text(nb.desc) + ")");
        } else {
            diff(na->desc, nb.desc, what, nb.name, out, count);
        }
    }
    for (const NamedArg& na : a) {
        bool found = false;
        for (const NamedArg& x : b) found |= x.name == na.name;
        if (!found) {
            ++count;
            out.push_back(what + " `" + na.name + "`: no longer given");
        }
    }
}

}  // namespace

bool same_structure(const ArgDesc& a, const ArgDesc& b,
                    const std::function<bool(const ArgDesc&, const ArgDesc&)>& tensors) {
    if (a.kind != b.kind) return false;
    switch (a.kind) {
        case Kind::Tensor: return tensors(a, b);
        case Kind::Static: return a.key == b.key;
        case Kind::Dict:
            if (a.keys != b.keys) return false;
            [[fallthrough]];
        case Kind::List: case Kind::Tuple:
            if (a.items.size() != b.items.size()) return false;
            for (size_t i = 0; i < a.items.size(); ++i)
                if (!same_structure(a.items[i], b.items[i], tensors)) return false;
            return true;
    }
    return false;
}

bool admits(const std::vector<NamedArg>& entry, const std::vector<NamedArg>& call) {
    if (entry.size() != call.size()) return false;
    std::vector<int64_t> sizes;
    for (size_t i = 0; i < entry.size(); ++i)
        if (entry[i].name != call[i].name || !desc_admits(entry[i].desc, call[i].desc, sizes)) return false;
    return true;
}

size_t Signature::hash() const {
    size_t h = 0;
    for (const auto* list : {&args, &captures}) {
        mix(h, list->size());
        for (const NamedArg& a : *list) {
            mix(h, std::hash<std::string>{}(a.name));
            hash_desc(h, a.desc);
        }
    }
    return h;
}

std::string Signature::to_string() const {
    std::string s;
    for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i].name + ": " + desc_text(args[i].desc);
    if (!captures.empty()) {
        s += " | captured ";
        for (size_t i = 0; i < captures.size(); ++i)
            s += (i ? ", " : "") + captures[i].name + ": " + desc_text(captures[i].desc);
    }
    return s;
}

std::vector<std::string> differences(const Signature& from, const Signature& to) {
    std::vector<std::string> out;
    size_t count = 0;
    diff_lists(from.args, to.args, "argument", out, count);
    diff_lists(from.captures, to.captures, "captured", out, count);
    return out;
}

size_t distance(const Signature& a, const Signature& b) {
    std::vector<std::string> out;
    size_t count = 0;
    diff_lists(a.args, b.args, "argument", out, count);
    diff_lists(a.captures, b.captures, "captured", out, count);
    return count;
}

}  // namespace tg::tracer
