// Property test of operator precedence: random expression trees are written
// with the fewest parentheses Python's precedence table allows, parsed, and
// compared with the tree as an S-expression. The table here is written from
// the Python reference, independently of the parser's.
#include <doctest/doctest.h>

#include <cstdint>

#include "test_util.hpp"

namespace {

struct Gen {
    uint64_t s;
    uint64_t next() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    }
    int below(int n) { return static_cast<int>(next() % static_cast<uint64_t>(n)); }
};

// A generated expression: its source text, its S-expression, and its precedence
// (how tightly it binds; atoms bind tightest).
struct G {
    std::string text, sexpr;
    int prec;
};

constexpr int kTernary = 0, kOr = 1, kAnd = 2, kNot = 3, kCmp = 4, kUnary = 10, kPow = 11, kPostfix = 12, kAtom = 13;

std::string wrap(const G& g, int need) { return g.prec < need ? "(" + g.text + ")" : g.text; }

G gen(Gen& r, int depth) {
    if (depth == 0 || r.below(5) == 0) {
        const char* names[] = {"a", "b", "c", "x1"};
        if (r.below(3) == 0) {
            std::string n = std::to_string(r.below(100));
            return {n, n, kAtom};
        }
        std::string n = names[r.below(4)];
        return {n, n, kAtom};
    }
    struct Bin {
        const char* op;
        int prec;
    };
    static const Bin bins[] = {{"|", 5}, {"^", 6}, {"&", 7}, {"+", 8}, {"-", 8}, {"*", 9}, {"/", 9},
                               {"//", 9}, {"%", 9}, {"@", 9}};
    switch (r.below(10)) {
        case 0: case 1: case 2: {  // left-associative binary operator
            const Bin& b = bins[r.below(10)];
            G l = gen(r, depth - 1), rr = gen(r, depth - 1);
            return {wrap(l, b.prec) + " " + b.op + " " + wrap(rr, b.prec + 1),
                    std::string("(") + b.op + " " + l.sexpr + " " + rr.sexpr + ")", b.prec};
        }
        case 3: {  // ** : left operand a postfix expression, right operand may be unary
            G l = gen(r, depth - 1), rr = gen(r, depth - 1);
            return {wrap(l, kPostfix) + " ** " + wrap(rr, kUnary), "(** " + l.sexpr + " " + rr.sexpr + ")", kPow};
        }
        case 4: {  // unary
            const char* ops[] = {"-", "+", "~"};
            const char* op = ops[r.below(3)];
            G o = gen(r, depth - 1);
            return {std::string(op) + wrap(o, kUnary), std::string("(") + op + " " + o.sexpr + ")", kUnary};
        }
        case 5: {  // a single comparison (operands above comparisons, so no chain)
            const char* ops[] = {"==", "!=", "<", "<=", ">", ">="};
            const char* op = ops[r.below(6)];
            G l = gen(r, depth - 1), rr = gen(r, depth - 1);
            return {wrap(l, kCmp + 1) + " " + op + " " + wrap(rr, kCmp + 1),
                    std::string("(") + op + " " + l.sexpr + " " + rr.sexpr + ")", kCmp};
        }
        case 6: {  // and / or / not
            int which = r.below(3);
            if (which == 2) {
                G o = gen(r, depth - 1);
                return {"not " + wrap(o, kNot), "(not " + o.sexpr + ")", kNot};
            }
            int p = which == 0 ? kAnd : kOr;
            const char* op = which == 0 ? "and" : "or";
            G l = gen(r, depth - 1), rr = gen(r, depth - 1);
            return {wrap(l, p) + " " + op + " " + wrap(rr, p + 1), std::string("(") + op + " " + l.sexpr + " " + rr.sexpr + ")", p};
        }
        case 7: {  // conditional expression
            G t = gen(r, depth - 1), c = gen(r, depth - 1), e = gen(r, depth - 1);
            return {wrap(t, kOr) + " if " + wrap(c, kOr) + " else " + wrap(e, kTernary),
                    "(if " + c.sexpr + " " + t.sexpr + " " + e.sexpr + ")", kTernary};
        }
        case 8: {  // call with any argument
            G f = gen(r, depth - 1), a = gen(r, depth - 1);
            return {wrap(f, kPostfix) + "(" + a.text + ")", "(call " + f.sexpr + " " + a.sexpr + ")", kPostfix};
        }
        default: {  // index or attribute
            G v = gen(r, depth - 1);
            if (r.below(2)) {
                G i = gen(r, depth - 1);
                return {wrap(v, kPostfix) + "[" + i.text + "]", "(index " + v.sexpr + " " + i.sexpr + ")", kPostfix};
            }
            // `79.T` lexes as the float `79.` then `T`, as in Python: parenthesize integers.
            bool integer = v.text.find_first_not_of("0123456789") == std::string::npos;
            return {(integer ? "(" + v.text + ")" : wrap(v, kPostfix)) + ".T", "(. " + v.sexpr + " T)", kPostfix};
        }
    }
}

}  // namespace

TEST_CASE("random expressions with minimal parentheses parse to the intended tree") {
    Gen r{0xC0FFEEull};
    for (int i = 0; i < 3000; ++i) {
        G g = gen(r, 5);
        CAPTURE(g.text);
        CHECK(tg::lang::test::expr_of(g.text + "\n") == g.sexpr);
    }
}
