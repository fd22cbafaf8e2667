// einsum(spec, *xs), NumPy's: explicit ("ij,jk->ik"), implicit ("ij,jk",
// the output NumPy infers) and with `...` (broadcast axes), composed of
// table ops so it traces, compiles and differentiates through them: an axis of
// size 1 is broadcast to its letter's size (NumPy), a letter
// repeated within one operand takes a diagonal (a product with eye, summed),
// letters no one else needs are summed away, and operands are contracted
// pairwise, left to right, as one batched matmul each (transposes and
// reshapes to (batch, m, k) @ (batch, k, n)); the result is transposed to
// the output's order.
#include <algorithm>
#include <cctype>
#include <string>

#include "interp/builtins/builtins.hpp"
#include "interp/check_args.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/runtime.hpp"

namespace tg::interp {

using stdlib::Attr;
using stdlib::Shape;

namespace {

[[noreturn]] void bad_spec(const std::string& spec, const std::string& why) {
    throw Error("einsum: argument `spec` \"" + spec + "\": " + why);
}

// An operand with one letter per axis.
struct Term {
    Value x;
    std::string letters;
    Shape shape() const { return x.tensor_type().shape; }
};

struct Builder {
    Runtime& rt;
    Value apply(const stdlib::OpDef& d, std::vector<Value> in, std::vector<Attr> attrs) {
        std::vector<Attr> all(in.size(), std::monostate{});
        all.insert(all.end(), attrs.begin(), attrs.end());
        stdlib::complete_attrs(d, all);
        return run_op(rt, d, in, std::move(all));
    }
    Value reshape(const Value& x, std::vector<int64_t> s) { return apply(stdlib::op_of(stdlib::OtherKind::Reshape), {x}, {std::move(s)}); }
    Value transpose(const Value& x, std::vector<int64_t> perm) {
        bool identity = true;
        for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == int64_t(i);
        return identity ? x : apply(stdlib::op_of(stdlib::OtherKind::Transpose), {x}, {std::move(perm)});
    }
    Value sum(const Value& x, std::vector<int64_t> axes) {
        return axes.empty() ? x : apply(stdlib::op_of(stdlib::ReduceKind::Sum), {x}, {std::move(axes), false});
    }
};

// Removes a repeated letter of t (its diagonal), until each appears once.
void take_diagonals(Builder& b, Term& t) {
    for (size_t p = 0; p < t.letters.size(); ++p) {
        const size_t q = t.letters.find(t.letters[p], p + 1);
        if (q == std::string::npos) continue;
        const Shape s = t.shape();
        const int64_t n = s[static_cast<int>(p)];
        // eye(n) placed on axes p and q, multiplied in, then q summed away
        std::vector<int64_t> es(static_cast<size_t>(s.rank()), 1);
        es[p] = n;
        es[q] = n;
        Value eye = b.reshape(b.apply(stdlib::op_of(stdlib::OtherKind::Eye), {}, {n, t.x.tensor_type().dtype}), es);
        t.x = b.sum(b.apply(stdlib::op_of(stdlib::BinaryKind::Mul), {t.x, eye}, {}), {int64_t(q)});
        t.letters.erase(q, 1);
        --p;  // the letter may appear a third time
    }
}

bool needed(char c, const std::vector<Term>& rest, const std::string& out) {
    if (out.find(c) != std::string::npos) return true;
    for (const Term& t : rest)
        if (t.letters.find(c) != std::string::npos) return true;
    return false;
}

// Sums the letters of t that neither the output nor the other terms use.
void sum_private(Builder& b, Term& t, const std::vector<Term>& others, const std::string& out) {
    std::vector<int64_t> axes;
    std::string kept;
    for (size_t i = 0; i < t.letters.size(); ++i) {
        if (needed(t.letters[i], others, out)) kept += t.letters[i];
        else axes.push_back(int64_t(i));
    }
    t.x = b.sum(t.x, axes);
    t.letters = kept;
}

// Contracts a and b (the letters the rest still needs are kept) as one
// batched matmul: (batch, a-only, shared) @ (batch, shared, b-only).
Term contract(Builder& bl, const Term& a, const Term& b, const std::vector<Term>& rest, const std::string& out) {
    std::string batch, shared, aonly, bonly;
    for (char c : a.letters) {
        if (b.letters.find(c) == std::string::npos) aonly += c;
        else if (needed(c, rest, out)) batch += c;
        else shared += c;
    }
    for (char c : b.letters)
        if (a.letters.find(c) == std::string::npos) bonly += c;
    const Shape as = a.shape(), bs = b.shape();
    auto size = [&](char c) {
        const size_t i = a.letters.find(c);
        return i != std::string::npos ? as[static_cast<int>(i)] : bs[static_cast<int>(b.letters.find(c))];
    };
    auto prod = [&](const std::string& ls) {
        int64_t p = 1;
        for (char c : ls) p *= size(c);
        return p;
    };
    auto perm = [](const Term& t, const std::string& order) {
        std::vector<int64_t> p;
        for (char c : order) p.push_back(int64_t(t.letters.find(c)));
        return p;
    };
    Value x = bl.reshape(bl.transpose(a.x, perm(a, batch + aonly + shared)), {prod(batch), prod(aonly), prod(shared)});
    Value y = bl.reshape(bl.transpose(b.x, perm(b, batch + shared + bonly)), {prod(batch), prod(shared), prod(bonly)});
    Term r;
    r.letters = batch + aonly + bonly;
    std::vector<int64_t> dims;
    for (char c : r.letters) dims.push_back(size(c));
    r.x = bl.reshape(bl.apply(stdlib::op_of(stdlib::OtherKind::Matmul), {x, y}, {}), dims);
    return r;
}

int rank_of_operand(const Value& v, const std::string& what) {
    return v.is_tensor() ? v.tensor_type().shape.rank() : to_tensor(v, what).rank();
}

// The spec in its explicit form, letters only: each operand's `...` becomes
// letters the spec does not use, one per axis it covers, right-aligned
// across the operands (NumPy broadcasts them); without `->`, the output is
// NumPy's implicit one: the `...` letters, then the letters used once, in
// ASCII order (upper case first).
struct Explicit {
    std::vector<std::string> ins;
    std::string out;
};

Explicit explicit_form(const std::string& spec, const std::string& shown, std::span<const Value> operands) {
    const size_t arrow = spec.find("->");
    const std::string lhs = spec.substr(0, arrow);
    Explicit e;
    for (size_t at = 0;;) {
        const size_t comma = lhs.find(',', at);
        e.ins.push_back(lhs.substr(at, comma - at));
        if (comma == std::string::npos) break;
        at = comma + 1;
    }
    if (e.ins.size() != operands.size())
        bad_spec(shown, "it names " + std::to_string(e.ins.size()) + (e.ins.size() == 1 ? " operand" : " operands") +
                            " but " + std::to_string(operands.size()) + (operands.size() == 1 ? " was" : " were") + " given");
    std::string spare;  // letters the spec does not use, for `...`
    for (char c = 'A'; c <= 'z'; c = c == 'Z' ? 'a' : static_cast<char>(c + 1))
        if (spec.find(c) == std::string::npos) spare += c;
    std::vector<size_t> covered(e.ins.size(), 0);
    size_t most = 0;
    for (size_t i = 0; i < e.ins.size(); ++i) {
        const size_t dots = e.ins[i].find("...");
        if (dots == std::string::npos) continue;
        std::string rest = e.ins[i];
        rest.erase(dots, 3);
        if (rest.find('.') != std::string::npos) bad_spec(shown, "operand " + std::to_string(i + 1) + " has a stray `.`");
        const int rank = rank_of_operand(operands[i], "einsum: operand " + std::to_string(i + 1));
        if (rank < static_cast<int>(rest.size()))
            bad_spec(shown, "operand " + std::to_string(i + 1) + " has " + std::to_string(rank) + (rank == 1 ? " axis" : " axes") +
                                " but \"" + e.ins[i] + "\" names " + std::to_string(rest.size()));
        covered[i] = static_cast<size_t>(rank) - rest.size();
        most = std::max(most, covered[i]);
        e.ins[i] = rest.insert(dots, "\x01");  // marks where the letters go
    }
    if (most > spare.size()) bad_spec(shown, "`...` covers more axes than there are unused letters");
    const std::string dims = spare.substr(0, most);
    for (size_t i = 0; i < e.ins.size(); ++i)
        if (const size_t m = e.ins[i].find('\x01'); m != std::string::npos)
            e.ins[i].replace(m, 1, dims.substr(most - covered[i]));
    if (arrow != std::string::npos) {
        e.out = spec.substr(arrow + 2);
        if (const size_t dots = e.out.find("..."); dots != std::string::npos) e.out.replace(dots, 3, dims);
        else if (most > 0) bad_spec(shown, "the operands have axes under `...` that the output does not name (write `...` in it)");
        return e;
    }
    std::string once;
    for (char c : spec)
        if (std::isalpha(static_cast<unsigned char>(c)) && std::count(lhs.begin(), lhs.end(), c) == 1) once += c;
    std::sort(once.begin(), once.end());
    e.out = dims + once;
    return e;
}

void check_letters(const Explicit& e, const std::string& shown) {
    for (const std::string& s : e.ins)
        for (char c : s)
            if (!std::isalpha(static_cast<unsigned char>(c))) bad_spec(shown, std::string("`") + c + "` is not a letter");
    const std::string& out = e.out;
    for (size_t i = 0; i < out.size(); ++i) {
        if (!std::isalpha(static_cast<unsigned char>(out[i]))) bad_spec(shown, std::string("`") + out[i] + "` is not a letter");
        if (out.find(out[i], i + 1) != std::string::npos) bad_spec(shown, std::string("output letter `") + out[i] + "` is repeated");
        if (std::none_of(e.ins.begin(), e.ins.end(), [&](const std::string& s) { return s.find(out[i]) != std::string::npos; }))
            bad_spec(shown, std::string("output letter `") + out[i] + "` is in no operand");
    }
}

}  // namespace

Value einsum(Runtime& rt, const CallArgs& a) {
    check_arguments("einsum(spec, /, *xs)", a);  // docs/builtins.md
    if (!a.positional[0].is(Kind::Str))
        throw Error("einsum: argument `spec` must be a string such as \"ij,jk->ik\"");
    std::string spec;
    for (char c : a.positional[0].text())
        if (c != ' ') spec += c;
    const std::string& shown = a.positional[0].text();
    const Explicit e = explicit_form(spec, shown, a.positional.subspan(1));
    check_letters(e, shown);
    const std::vector<std::string>& ins = e.ins;
    const std::string& out = e.out;
    std::vector<Term> terms;
    std::vector<int64_t> sizes(128, -1);
    for (size_t i = 0; i < ins.size(); ++i) {
        const std::string what = "einsum: operand " + std::to_string(i + 1);
        const Value& v = a.positional[i + 1];
        Term t{v.is_tensor() ? v : Value(to_tensor(v, what)), ins[i]};
        const Shape s = t.shape();
        if (s.rank() != static_cast<int>(t.letters.size()))
            bad_spec(shown, "operand " + std::to_string(i + 1) + " has " + std::to_string(s.rank()) +
                                (s.rank() == 1 ? " axis" : " axes") + " but \"" + t.letters + "\" names " +
                                std::to_string(t.letters.size()));
        for (int d = 0; d < s.rank(); ++d) {
            // sizes of one letter must agree, except that 1 broadcasts (NumPy)
            int64_t& known = sizes[static_cast<unsigned char>(t.letters[static_cast<size_t>(d)])];
            if (known >= 0 && known != s[d] && known != 1 && s[d] != 1)
                bad_spec(shown, std::string("letter `") + t.letters[static_cast<size_t>(d)] + "` has size " +
                                    std::to_string(known) + " and size " + std::to_string(s[d]));
            if (known < 0 || known == 1) known = s[d];
        }
        terms.push_back(std::move(t));
    }
    Builder b{rt};
    for (Term& t : terms) {
        std::vector<int64_t> full;
        for (char c : t.letters) full.push_back(sizes[static_cast<unsigned char>(c)]);
        const Shape s = t.shape();
        if (!std::equal(full.begin(), full.end(), s.begin())) t.x = b.apply(stdlib::op_of(stdlib::OtherKind::BroadcastTo), {t.x}, {full});
    }
    for (Term& t : terms) take_diagonals(b, t);
    for (size_t i = 0; i < terms.size(); ++i) {
        std::vector<Term> others;
        for (size_t j = 0; j < terms.size(); ++j)
            if (j != i) others.push_back(terms[j]);
        sum_private(b, terms[i], others, out);
    }
    Term acc = terms[0];
    for (size_t i = 1; i < terms.size(); ++i) {
        std::vector<Term> rest(terms.begin() + static_cast<long>(i) + 1, terms.end());
        acc = contract(b, acc, terms[i], rest, out);
    }
    sum_private(b, acc, {}, out);
    std::vector<int64_t> perm;
    for (char c : out) perm.push_back(int64_t(acc.letters.find(c)));
    return b.transpose(acc.x, perm);
}

}  // namespace tg::interp
