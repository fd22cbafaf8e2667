// Python's ord, chr, hex, oct, bin, divmod and isinstance (docs/builtins.md,
// "Host-side builtins"), with Python's results: characters are Unicode code points
// (strings are UTF-8), hex/oct/bin write an int with its 0x/0o/0b prefix
// and a minus sign for negatives. divmod(a, b) is (a // b, a % b) — the
// table's floordiv and mod, so on tensors it is NumPy's divmod, and it
// traces and differentiates like those operators. isinstance's types are
// the builtins that make values of a kind (docs/language.md "Types").
#include <string>

#include "interp/builtins/builtins.hpp"
#include "interp/builtins/compose.hpp"
#include "interp/dispatch.hpp"
#include "interp/check_args.hpp"
#include "interp/error.hpp"
#include "interp/values/dict.hpp"
#include "lang/source.hpp"
#include "stdlib/op_table.hpp"

namespace tg::interp {

namespace {


// the bytes of the first character (a truncated or invalid sequence: one byte)
size_t char_length(const std::string& s) {
    const auto lead = static_cast<unsigned char>(s[0]);
    size_t n = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (n > s.size()) return 1;
    for (size_t i = 1; i < n; ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) return 1;
    return n;
}


// The code point of a string of one character (UTF-8); an invalid byte is itself.
int64_t code_point(const std::string& s) {
    const auto b = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
    const size_t n = s.empty() ? 0 : char_length(s);
    if (n != s.size() || s.empty())
        throw Error("ord: expected a string of one character, but a string of " + std::to_string(lang::count_chars(s)) +
                    " characters was given");
    if (n == 1) return b(0);
    int64_t cp = b(0) & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
    for (size_t i = 1; i < n; ++i) cp = (cp << 6) | (b(i) & 0x3F);
    return cp;
}

// |v| in base 2, 8 or 16 with Python's prefix and sign
std::string in_base(const std::string& fn, const CallArgs& a, int base) {
    const auto args = bind_args(fn, a, {"x"}, 1);
    const Value& x = *args[0];
    if (x.is_tensor() && stdlib::is_float(x.tensor_type().dtype))
        throw Error(fn + ": a float cannot be written as an integer (" + fn + " takes an int)");
    const int64_t v = to_int(x, fn + ": argument `x`");
    uint64_t m = v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    std::string digits;
    do {
        digits.insert(digits.begin(), "0123456789abcdef"[m % static_cast<uint64_t>(base)]);
        m /= static_cast<uint64_t>(base);
    } while (m != 0);
    const char* prefix = base == 16 ? "0x" : base == 8 ? "0o" : "0b";
    return (v < 0 ? "-" : "") + std::string(prefix) + digits;
}

// Whether x is of the type `t` names: a builtin that makes values of one
// kind (int and float: 0-d tensors of an integer or bool / a float dtype, as
// Python's bool is an int; tensor: any tensor, numbers included), the dtype
// bool (a 0-d bool tensor), or a tuple of these (nested as Python allows).
bool is_instance(const Value& x, const Value& t) {
    std::vector<Value> todo{t};  // (a loop, not recursion: a tuple may nest deeply)
    while (!todo.empty()) {
        const Value c = std::move(todo.back());
        todo.pop_back();
        if (c.is(Kind::Tuple)) {
            stdlib::spend_work(static_cast<int64_t>(c.items().size()));
            todo.insert(todo.end(), c.items().rbegin(), c.items().rend());
            continue;
        }
        const stdlib::TensorType tt = x.is_tensor() ? x.tensor_type() : stdlib::TensorType{};
        const bool number = x.is_tensor() && tt.shape.rank() == 0;
        if (c.is(Kind::DType)) {
            if (c.dtype() != stdlib::DType::Bool) {
                const std::string d = stdlib::dtype_name(c.dtype());
                throw Error("isinstance: " + d + " is a dtype, not a type (to test a tensor's dtype, compare x.dtype == " + d +
                            ")");
            }
            if (number && tt.dtype == stdlib::DType::Bool) return true;
            continue;
        }
        const std::string name = c.is(Kind::Builtin) ? c.builtin().name : "";
        bool known = true, hit = false;
        if (name == "tensor") hit = x.is_tensor();
        else if (name == "int") hit = number && (stdlib::is_int(tt.dtype) || tt.dtype == stdlib::DType::Bool);
        else if (name == "float") hit = number && stdlib::is_float(tt.dtype);
        else if (name == "str") hit = x.is(Kind::Str);
        else if (name == "list") hit = x.is(Kind::List);
        else if (name == "tuple") hit = x.is(Kind::Tuple);
        else if (name == "dict") hit = x.is(Kind::Dict);
        else if (name == "set") hit = x.is(Kind::Set);
        else known = false;
        if (!known)
            throw Error("isinstance: argument `classinfo` must be a type or a tuple of types (int, float, bool, str, "
                        "list, tuple, dict, set, tensor), not " +
                        (c.is(Kind::Builtin) ? "the function `" + name + "`" : kind_desc(c)));
        if (hit) return true;
    }
    return false;
}

}  // namespace

void add_python_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto add = [&](const std::string& name, BuiltinFn fn) {
        out.emplace_back(name, Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{name, std::move(fn), nullptr})));
    };
    add("ord", [](Runtime&, const CallArgs& a) {
        const Value& s = *bind_args("ord", a, {"c"}, 1)[0];
        if (!s.is(Kind::Str)) throw Error("ord: expected a string of one character, not " + kind_desc(s));
        return Value::from_int(code_point(s.text()));
    });
    add("chr", [](Runtime&, const CallArgs& a) {
        const int64_t cp = to_int(*bind_args("chr", a, {"i"}, 1)[0], "chr: argument `i`");
        if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            throw Error("chr: " + std::to_string(cp) + " is not a Unicode code point (0 to 0x10ffff, no surrogates)");
        std::string s;
        lang::append_utf8(s, static_cast<uint32_t>(cp));
        return Value::str(std::move(s));
    });
    add("hex", [](Runtime&, const CallArgs& a) { return Value::str(in_base("hex", a, 16)); });
    add("oct", [](Runtime&, const CallArgs& a) { return Value::str(in_base("oct", a, 8)); });
    add("bin", [](Runtime&, const CallArgs& a) { return Value::str(in_base("bin", a, 2)); });
    add("isinstance", [](Runtime&, const CallArgs& a) {
        static const SignatureCheck check("isinstance(obj, classinfo, /)");  // parsed once per process
        check(a);  // docs/builtins.md
        return Value::from_bool(is_instance(a.positional[0], a.positional[1]));
    });
    add("divmod", [](Runtime& rt, const CallArgs& a) {
        const auto args = bind_args("divmod", a, {"a", "b"}, 2);
        const Value x = tensor_operand(*args[0], "divmod: argument `a`");
        const Value y = tensor_operand(*args[1], "divmod: argument `b`");
        const Value in[2] = {x, y};
        const stdlib::OpDef& div = stdlib::op_of(stdlib::BinaryKind::FloorDiv);
        const stdlib::OpDef& mod = stdlib::op_of(stdlib::BinaryKind::Mod);
        return Value::tuple({run_op(rt, div, in, std::vector<stdlib::Attr>(div.params.size())),
                             run_op(rt, mod, in, std::vector<stdlib::Attr>(mod.params.size()))});
    });
}

}  // namespace tg::interp
