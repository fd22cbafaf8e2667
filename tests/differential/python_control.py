#!/usr/bin/env python3
"""Seeded differential test of function bodies against CPython.

usage: python_control.py TG_BINARY [--seed S] [--programs N] [--keep DIR] [--emit]

The bug class: a function body that runs as body code
(docs/architecture.md "Body code: function bodies as instructions") must do
exactly what the tree walker did, which is what Python does: the same
statements in the same order, each operand evaluated once and in order,
loops left by `break`, `continue` and `return` at any depth, conditions
built of `and` / `or` / `not` / `is None` short-circuiting as Python's,
calls (recursive too) with their arguments, bitwise operators and powers of ints, items of variables, negations and small displays as values, functions called by builtins (sorted's key, map, filter), `name op= v`, unpacking and
appends and other method calls, builtins on variables, lambdas and closures
reading the function's variables. Each program is Python and tg at once: a
few functions over ints and a local list, dict and string, their bodies drawn at random from those statement and
expression forms, and calls of them printed. Values stay small (every
stored number is taken modulo M) and no division can be by zero, so no
program fails; each must print exactly what CPython prints. On a mismatch
the script is saved under --keep and the run exits 1.
"""
import sys

import against_cpython

M = 1009  # every stored number is reduced modulo M: no i64 overflow, no big ints


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.funcs = []  # (name, arity) of the functions defined so far: a body calls only those
        self.loop_vars = []  # the loops around the statement being generated (their variables)
        self.counter = 0

    def fresh(self, stem):
        self.counter += 1
        return "%s%d" % (stem, self.counter)

    # ---- expressions (ints)
    def operand(self):
        r = self.r
        choices = ["a", "b", "v", "w", "G", str(r.randint(-4, 9))] + [n for n in self.loop_vars if n]
        return r.choice(choices)

    def expr(self, depth=0):
        r = self.r
        c = r.random()
        if depth >= 2 or c < 0.3:
            return self.operand()
        if c < 0.55:
            op = r.choice(["+", "-", "*", "+", "-", "*", "&", "|", "^", "<<", ">>"])
            if op in ("<<", ">>"):  # (a count from 0 to 4: Python raises on a negative one)
                return "(%s %s (abs(%s) %% 5))" % (self.expr(depth + 1), op, self.expr(depth + 1))
            return "(%s %s %s)" % (self.expr(depth + 1), op, self.expr(depth + 1))
        if c < 0.57:  # a power: a small base to 0, 1 or 2 (no i64 overflow; Python raises on a negative one)
            return "((%s %% 100) ** (abs(%s) %% 3))" % (self.expr(depth + 1), self.expr(depth + 1))
        if c < 0.62:  # floor division and modulo by a positive divisor (Python's signs)
            op = r.choice(["//", "%"])
            return "(%s %s (abs(%s) %% 5 + 1))" % (self.expr(depth + 1), op, self.expr(depth + 1))
        if c < 0.78 and self.funcs:
            return self.call(depth + 1)
        if c < 0.84:  # an item by an index from the start or the end, computed or a variable's (j: -3 to 2,
            # xs has 3 items or more); of a global list too (scalar programs read both variables in one op)
            return r.choice(["xs[%s %% len(xs)]" % self.expr(depth + 1), "xs[-1 - %s %% len(xs)]" % self.expr(depth + 1),
                             "xs[j]", "GS[j]", "GS[%s %% 3]" % self.operand()])
        if c < 0.87:
            return "%s(%s, %s)" % (r.choice(["max", "min"]), self.expr(depth + 1), self.expr(depth + 1))
        if c < 0.9:  # a builtin on variables or literals (body code's CallBuiltin), a lambda, a closure
            return r.choice(["%s(%s, %s)" % (r.choice(["max", "min"]), self.operand(), self.operand()),
                             "abs(%s)" % self.operand(), "len(s)",
                             "sq(%s)" % self.expr(depth + 1), "add(%s, %s)" % (self.operand(), self.expr(depth + 1)),
                             "inner(%s)" % self.expr(depth + 1),
                             # a slice of a variable (body code's SliceOf), bounds read or computed, from either end
                             "len(xs[%s:%s])" % (r.choice(["", "j", "1", "-2"]), r.choice(["", "j", "v % 4", "-1"])),
                             "len(s[%s %% 5:])" % self.operand(), "(xs[j:][0] if len(xs[j:]) > 0 else %s)" % self.operand(),
                             # an item of a variable as a value, a negation, a small display of them
                             "(-%s)" % self.operand(), "(-xs[j])", "[xs[j], -v, w][j]", "(v, -xs[-1], %s)[1]" % self.operand(),
                             "(d[j] if j in d else -w)", "max(-xs[0], xs[j])",
                             # functions called by builtins (a sort's key, map's, filter's): lambdas, closures
                             "sorted(xs, key=%s)[j]" % r.choice(["sq", "inner", "lambda q: (-q, q % 3)"]),
                             "list(map(%s, xs))[-1]" % r.choice(["sq", "inner", "lambda q: add(q, %s)" % self.operand()]),
                             "len(list(filter(lambda q: q %% 3 == %s %% 3, xs)))" % self.operand()])
        if c < 0.92:
            return "len(xs)"
        if c < 0.94:  # a method's value (body code's MethodReceiver / MethodCall), its argument may call
            return self.r.choice(["xs.count(%s %% 7)" % self.expr(depth + 1),
                                  "d.get(%s %% 5, %s)" % (self.expr(depth + 1), self.expr(depth + 1)),
                                  "len(s.split(\",\"))", "s.count(\"a\")", "len(d.keys())"])
        return "(%s if %s else %s)" % (self.expr(depth + 1), self.cond(depth + 1), self.expr(depth + 1))

    def call(self, depth):
        """A call of a function defined before (rec's depth kept small: it calls itself twice)."""
        name, arity = self.r.choice(self.funcs)
        # (arguments reduced like stored numbers: a parameter's square in a product stays in i64)
        args = ["%s %% %d" % (self.expr(depth), M) for _ in range(arity)]
        if name == "rec":
            args[0] = "abs(%s) %% 6" % args[0]
        return "%s(%s)" % (name, ", ".join(args))

    def cond(self, depth=0):
        r = self.r
        c = r.random()
        if depth >= 2 or c < 0.5:
            if r.random() < 0.15:
                return "opt is %sNone" % r.choice(["", "not "])
            if r.random() < 0.1:  # an item's truth (body code's JumpOnItem; an index from the end: the walker's)
                return "%sxs[%s]" % (r.choice(["", "not "]), r.choice(["0", "1", "2", "-1"]))
            if r.random() < 0.15:  # a key in a dict (body code's Member), an item of a list (the walker's)
                return "%s %s %s" % (self.operand(), r.choice(["in", "not in"]), r.choice(["d", "d", "xs"]))
            return "%s %s %s" % (self.expr(depth + 1), r.choice(["<", "<=", "==", "!=", ">", ">="]), self.expr(depth + 1))
        if c < 0.8:
            return "(%s %s %s)" % (self.cond(depth + 1), r.choice(["and", "or"]), self.cond(depth + 1))
        return "not (%s)" % self.cond(depth + 1)

    # ---- statements
    def block(self, indent, depth, n=None):
        n = n if n is not None else self.r.randint(1, 4)
        return [line for _ in range(n) for line in self.statement(indent, depth)]

    def statement(self, ind, depth):
        r = self.r
        p = " " * ind
        forms = ["assign", "assign", "aug", "swap", "append", "opt", "call", "method"]
        if not self.loop_vars and depth < 2:
            forms.append("print")  # (not in loops: a function called in a loop would print too much)
        if depth < 3:
            forms += ["if", "if", "while", "for_range", "for_list"]
        if self.loop_vars:
            forms += ["break", "continue"]
        if depth > 0:
            forms += ["return"]
        f = r.choice(forms)
        if f == "assign":
            if r.random() < 0.15:
                return ["%sj = %s %% 6 - 3" % (p, self.expr())]
            return ["%s%s = %s %% %d" % (p, r.choice(["v", "w"]), self.expr(), M)]
        if f == "aug":
            target = r.choice(["v", "w"])
            return ["%s%s %s= %s" % (p, target, r.choice(["+", "-", "*"]), self.expr()), "%s%s %%= %d" % (p, target, M)]
        if f == "swap":  # unpacking (body code's Unpack: a tuple or a list, a display or a variable's)
            return r.choice([["%sv, w = w, (v + %s) %% %d" % (p, self.expr(), M)],
                             ["%sv, w = xs[:2]" % p],
                             ["%s[w, v] = [v, (w * 2 + %s) %% %d]" % (p, self.expr(), M)],
                             ["%stp = (w, v)" % p, "%sv, w = tp" % p]])
        if f == "append":
            return ["%sif len(xs) < 40:" % p, "%s    xs.append(%s %% %d)" % (p, self.expr(), M)]
        if f == "method":  # a list, dict or str method on a local, changing it or not
            return r.choice([
                ["%sif len(xs) < 40:" % p, "%s    xs.insert(%s %% 4, %s %% %d)" % (p, self.expr(), self.expr(), M)],
                ["%sif len(xs) > 3:" % p, "%s    v = xs.pop() %% %d" % (p, M)],
                ["%sd.setdefault(%s %% 5, %s %% %d)" % (p, self.expr(), self.expr(), M)],
                ["%sw = d.pop(%s %% 5, w) %% %d" % (p, self.expr(), M)],
                ["%ss = \",\".join(s.split(\",\")[:3]) + s[:1].upper().lower()" % p],
                # `x = d[k]` (LoadItem): a dict's item, a list's
                ["%sif 0 in d:" % p, "%s    w = d[0]" % p],
                ["%sv = xs[0]" % p],
                # `d[k] = v`, `xs[k] = v` (StoreItem)
                ["%sk = %s %% 5" % (p, self.expr()), "%sd[k] = %s %% %d" % (p, self.expr(), M)],
                ["%sif len(xs) > 0:" % p, "%s    k = %s %% len(xs)" % (p, self.expr()),
                 "%s    xs[k] = %s %% %d" % (p, self.expr(), M)],
                # `xs[k] = <number>` (StoreNumber): keys and numbers that run no code (xs has 3 items or more)
                [r.choice(["%sxs[j] = %s %% %d" % (p, self.operand(), M), "%sxs[j + 1] = xs[-1 - w %% 3]" % p,
                           "%sxs[v %% 3] = (v * 2 + w) %% %d" % (p, M), "%sxs[-1] = xs[j]" % p, "%sxs[w %% 3 - 3] = 7" % p,
                           "%sv = xs[j]" % p, "%sw = xs[2]" % p])],
                # `xs[k] op= v` (AugItem; v a call: the walker's statement)
                ["%sif len(xs) > 0:" % p, "%s    k = %s %% len(xs)" % (p, self.expr()),
                 "%s    xs[k] %s= %s" % (p, r.choice(["+", "-", "*"]), r.choice([self.operand(), self.expr()])),
                 "%s    xs[k] %%= %d" % (p, M)],
                # `ys = xs[lo:hi]` (SliceOf): bounds a variable, a literal or computed, from either end
                ["%sys = xs[%s:%s]" % (p, r.choice(["", "j", "w % 3", "-2"]), r.choice(["", "j", "v % 5", "-1"])),
                 "%sv = (v + len(ys) + (ys[0] if len(ys) > 0 else 0) + len(s[j:])) %% %d" % (p, M)],
                # `m = k in d` (Member, stored)
                ["%sm = %s %s d" % (p, self.operand(), r.choice(["in", "not in"])), "%sif m:" % p,
                 "%s    v = (v + 1) %% %d" % (p, M)],
            ])
        if f == "opt":
            return ["%sopt = %s" % (p, r.choice(["None", "%s %% %d" % (self.expr(), M)]))]
        if f == "print":
            return ["%sprint(%s)" % (p, ", ".join(self.expr() for _ in range(r.randint(1, 3))))]
        if f == "call":
            if not self.funcs:
                return ["%sprint(v)" % p]
            return [p + self.call(0)]
        if f == "if":
            lines = ["%sif %s:" % (p, self.cond())] + self.block(ind + 4, depth + 1)
            for _ in range(r.choice([0, 0, 1, 2])):
                lines += ["%selif %s:" % (p, self.cond())] + self.block(ind + 4, depth + 1)
            if r.random() < 0.5:
                lines += ["%selse:" % p] + self.block(ind + 4, depth + 1)
            return lines
        if f == "while":
            k = self.fresh("k")
            self.loop_vars.append(None)  # (its counter is not an operand: the body must not reset it)
            body = self.block(ind + 4, depth + 1)
            self.loop_vars.pop()
            return ["%s%s = 0" % (p, k), "%swhile %s < %d and (%s):" % (p, k, r.randint(1, 5), self.cond()),
                    "%s    %s += 1" % (p, k)] + body
        if f == "for_range":
            i = self.fresh("i")
            lo, hi = r.randint(-3, 3), r.randint(-3, 6)
            step = r.choice([1, 1, 2, -1, -2])
            args = "%d" % hi if (lo == 0 and step == 1 and r.random() < 0.5) else \
                   "%d, %d" % (lo, hi) if step == 1 else "%d, %d, %d" % (lo, hi, step)
            if r.random() < 0.3:  # bounds read from variables or computed (range's arguments read at once)
                args = r.choice(["j, %d" % hi, "%s %% 5" % self.operand(), "j, (%s %% 7) - 1, %d" % (self.operand(), step)])
            self.loop_vars.append(i)
            body = self.block(ind + 4, depth + 1)
            self.loop_vars.pop()
            return ["%sfor %s in range(%s):" % (p, i, args)] + body
        if f == "for_list":
            x = self.fresh("x")
            self.loop_vars.append(x)
            body = self.block(ind + 4, depth + 1)
            self.loop_vars.pop()
            # (a slice: a snapshot in Python too, where a loop over xs itself would see
            # the appends of its body; tg's loop runs over the value xs had when it
            # started, docs/language.md "Loops")
            it = r.choice(["xs[:4]", "xs[-3:]", "[%s, %s]" % (self.expr(), self.expr()), "(v, w, a)"])
            return ["%sfor %s in %s:" % (p, x, it)] + body
        if f == "break" or f == "continue":
            return ["%sif %s:" % (p, self.cond()), "%s    %s" % (p, f)]
        return ["%sif %s:" % (p, self.cond()), "%s    return %s %% %d" % (p, self.expr(), M)]

    def function(self, name, arity):
        params = ["a", "b"][:arity]
        lines = ["def %s(%s):" % (name, ", ".join(params))]
        if arity < 2:
            lines.append("    b = 3")
        lines += ["    v = a %% %d" % M, "    w = 1", "    j = -1", "    xs = [a % 7, 2, 3]", "    opt = None",
                  "    d = {0: 1, 2: a %% %d}" % M, "    s = \"ab,a\"",
                  # a lambda reading a parameter, one calling another, and a def reading the
                  # function's variables as they are when it runs (v, w change: late binding)
                  "    sq = lambda t: ((t %% %d) * (t %% %d) + a) %% %d" % (M, M, M), "    add = lambda p, q: (p + sq(q) - w) %% %d" % M,
                  "    def inner(t):", "        return add(t, v) %% %d" % M]
        lines += self.block(4, 0, self.r.randint(2, 7))
        lines.append("    return (v + w * 3 + len(xs) + xs[-1]) %% %d" % M)
        return lines

    def program(self):
        r = self.r
        out = ["G = 5", "GS = [4, -5, 6]", "", "def rec(n, a):",
               "    if n <= 0:",
               "        return a % 1009",
               "    return (rec(n - 1, a + n) + rec(n - 2, a * 2)) % 1009",
               ""]
        self.funcs.append(("rec", 2))
        for k in range(r.randint(2, 4)):
            name, arity = "f%d" % k, r.choice([1, 2, 2])
            out += self.function(name, arity) + [""]
            self.funcs = [f for f in self.funcs if f[0] != "rec"] + [(name, arity)]
        out.append("")
        for _ in range(r.randint(3, 6)):
            name, arity = r.choice(self.funcs)
            out.append("print(%s(%s))" % (name, ", ".join(str(r.randint(-6, 12)) for _ in range(arity))))
        # a call's value as another's argument
        (outer, outer_arity), (inner, inner_arity) = r.choice(self.funcs), r.choice(self.funcs)
        inner_call = "%s(%s)" % (inner, ", ".join(str(r.randint(0, 5)) for _ in range(inner_arity)))
        out.append("print(%s(%s))" % (outer, ", ".join([inner_call] + ["3"] * (outer_arity - 1))))
        out.append("print(rec(%d, %d))" % (r.randint(0, 9), r.randint(-5, 5)))
        return "\n".join(out) + "\n"


def check_dropped(ran, dropped, programs):
    if dropped > programs // 20:  # (none should fail)
        sys.exit("too many programs CPython rejects: the generator drifted")


if __name__ == "__main__":
    against_cpython.main("python_control", lambda rng: Gen(rng).program(), check_dropped)
