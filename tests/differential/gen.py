#!/usr/bin/env python3
"""Seeded differential test of @graph: random tg programs, run in four modes.

usage: gen.py TG_BINARY [--seed S] [--programs N] [--keep DIR] [options]

Generates N random, well-typed `@graph` functions (seeded, reproducible),
writes them --per-file at a time into scripts, and runs every script as
`TG run FILE`, `TG run --eager FILE`, `TG run --no-jit FILE` and
`TG run --sync-jit FILE` (compiled before the first call; as written, small
graphs start on the graph interpreter while they compile in the background).
All modes
must give identical stdout, stderr and exit status, function by function.
10% of the programs differentiate a function with `if`/`while` on tensor
values (GradGen): their gradients are compared within float tolerance and,
in f64, against central finite differences (fd_check).
On a mismatch it prints the seed, the function and a diff, saves the script
(and a one-function script) under --keep DIR, and exits 1.

options:
  --seed S        generator seed (default 1; CI uses the default)
  --programs N    number of functions (default 2000)
  --long          5000 functions (ctest -C Long runs this as differential_long)
  --keep DIR      where failing scripts are saved
                  (default: <folder of TG_BINARY>/temp/differential)
  --per-file K    functions per script (default 100)
  --jobs J        scripts run in parallel (default 2)
  --only I        generate and run only program number I (to reproduce)
  --emit          print the generated script(s) instead of running them
  --eager-only    run only `--eager` (to check that the programs are valid);
                  reports the error rate and the errors
  --modes LIST    comma-separated subset of written,eager,nojit,sync
  --strict        also fail on differences within float tolerance in
                  functions that use sum/mean (docs/graph.md allows a compiled
                  reduction to be reassociated; by default such a near-match
                  is only a warning), and on differences within f32 rounding
                  in functions called with a float literal argument (a weak
                  literal merged with a tensor, docs/graph.md)
  --timeout S     seconds per tg process (default 60)
  --no-static     never use @graph(static=...) (to run the programs on a tg
                  older than that feature; only the programs that would use
                  it change)
  --no-features   no feature programs (FeatureGen): the programs generated
                  before them, to run on an older tg
  --check-known   run each feature of KNOWN_FAILING_FEATURES alone (40
                  programs each): each must still fail, else it is stale
  --feature-share P  the share of feature programs among the programs that
                  are not gradient programs (default 0.2; 1 for feature programs only)
  --features LIST comma-separated subset of the feature programs' features
                  (creation,axes,pow_lit,sign0,pysum,many,loops,dtypes,
                  eager_grad,nested,loop_grad,pylang,vmap,builtin): to leave out a class whose bug
                  is known while looking for others (other draws then)
  --builtins GEN  tg_gen_builtins, for the builtin list of the feature
                  programs (default: TG's folder/tests/tg_gen_builtins)
  --keep-going    do not give up on a script after 5 mismatches (to count
                  them; a one-line summary of every mismatch is printed)

Every script prints a marker line `@@ NAME` before the calls of each
function, so outputs are compared per function. A function that raises an
error ends its script; if all modes raised the same error the remaining
functions are run again in a new script, so one error costs little coverage.
"""
import concurrent.futures
import difflib
import fnmatch
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

DEFAULT_SEED = 1
DEFAULT_PROGRAMS = 2000
LONG_PROGRAMS = 5000     # --long (the `differential_long` ctest entry)
MODES = {"written": [], "eager": ["--eager"], "nojit": ["--no-jit"], "sync": ["--sync-jit"]}
MARKER = "@@ "
MAX_TIMEOUTS = 2     # per script: give up on the rest of it after this many
MAX_FAILURES = 5     # per script: mismatches before giving up on the rest
NO_STATIC = False    # --no-static: for a tg without @graph(static=...)


# --------------------------------------------------------------------------
# Program generator
#
# Types: V = f32 vector of the argument length (3..5), S = f32 0-d,
# I = i64 0-d, B = bool 0-d; in mixed programs also J = i32 0-d, D = f64 0-d
# (always tensors), JW / DW = i32 / f64 variables that may hold a weak
# literal on some paths, XI / XD = the i32 / f64 vector arguments, and R = a
# variable rebound to a new shape or dtype after an early return (read only
# through `f32(r.sum())` and print). Every variable keeps its type for the
# whole function (R from its rebinding on), so a variable carried around a
# dynamic loop or assigned in a dynamic branch keeps its dtype and shape.
# Every local is initialized before any control flow, except temporaries
# (`u3 = ...`), which are read only later in the block that assigns them.
# A quarter of the programs have a nested @graph helper `hNNNN(x, nk)`
# called with a literal `nk`; some use @graph(static=("n",)).
# --------------------------------------------------------------------------

def flit(rng, lo=-12, hi=12):
    """A float literal on the grid of quarters (exact in f32)."""
    v = rng.randint(lo, hi) / 4.0
    if v == 0:
        v = 0.0
    s = repr(v)
    return "(%s)" % s if v < 0 else s


def ilit(rng, lo=-2, hi=5):
    v = rng.randint(lo, hi)
    return "(%d)" % v if v < 0 else str(v)


class Gen:
    MAX_DEPTH = 3        # nesting of blocks
    MAX_LOOPS = 2        # nesting of loops (3 with a small probability)
    MAX_STMTS = 26       # statements per function (roughly)

    def __init__(self, seed, index, salt=""):
        self.rng = random.Random("tg-differential:%s:%d%s" % (seed, index, salt))
        self.seed = seed
        self.index = index
        self.name = "f%04d" % index
        self.max_stmts = self.MAX_STMTS
        self.static_ints = set()    # I names that are static ints while tracing (shapes)
        self.rdims = {}             # R variables (rebound after an early return) -> rank
        self.helper = None          # name of the nested @graph helper, if any
        self.mixed = False          # uses i32/f64 values (J, D, JW, DW)
        self.rebinds = 0            # weight of rebind_stmt (0: none in this function)
        self.helper_calls = 0
        self.scopes = [{}]          # name -> type, innermost last
        self.mutable = set()        # locals that statements may assign
        self.safe = set()           # I variables always in [0, len(x))
        self.tags = 0
        self.temps = 0
        self.counters = 0
        self.stmts = 0
        self.loop_names = ["i", "j", "q", "r"]
        self.val_names = ["v", "e", "h", "g"]
        self.loops = 0
        self.reassoc = False        # uses sum/mean (order of a reduction)
        self.max_loops = self.MAX_LOOPS + (1 if self.rng.random() < 0.15 else 0)
        self.drng = random.Random("tg-differential-dict:%s:%d%s" % (seed, index, salt))
        self.use_dict = self.drng.random() < 0.25
        # None on some paths (docs/graph.md "Static and dynamic"), from a generator of its own too
        self.nrng = random.Random("tg-differential-none:%s:%d%s" % (seed, index, salt))
        self.use_none = self.nrng.random() < 0.2

    # -- scopes -------------------------------------------------------------
    def vars_of(self, t, mutable_only=False):
        out = []
        for sc in self.scopes:
            for n, ty in sc.items():
                if ty == t and (not mutable_only or n in self.mutable):
                    out.append(n)
        return sorted(set(out))

    def define(self, name, t, mutable=False):
        self.scopes[-1][name] = t
        if mutable:
            self.mutable.add(name)

    def push(self):
        self.scopes.append({})

    def pop(self):
        sc = self.scopes.pop()
        for n in sc:
            self.safe.discard(n)
            self.mutable.discard(n)

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, xs):
        return self.rng.choice(xs)

    def weighted(self, items):
        total = sum(w for w, _ in items)
        r = self.rng.random() * total
        for w, f in items:
            r -= w
            if r < 0:
                return f()
        return items[-1][1]()

    # -- expressions ----------------------------------------------------------
    # Each returns source text; composite expressions are parenthesized.
    def expr(self, t, d=2):
        return {"V": self.V, "S": self.S, "I": self.I, "B": self.B, "J": self.J, "D": self.D,
                "JW": self.Jw, "DW": self.Dw}[t](d)

    def idx(self):
        """An index into a V that is always in range."""
        safe = sorted(self.safe)
        items = [(2, lambda: str(self.rng.randint(-3, 2)))]
        if safe:
            items.append((6, lambda: self.pick(safe)))
        items.append((2, lambda: "(%s %% len(x))" % self.I(1)))
        items.append((1, lambda: "%s.argmax()" % self.V(0)))
        items.append((1, lambda: "%s.argmin()" % self.V(0)))
        if self.has_param("t"):
            items.append((1, lambda: "(int(t) % 3)"))
        if self.vars_of("J"):
            items.append((1, lambda: "(%s %% len(x))" % self.J(1)))
        if self.has_param("xi"):
            items.append((1, lambda: "xi.argmin()"))
        return self.weighted(items)

    def has_param(self, p):
        return p in self.scopes[0]

    def V(self, d=2):
        vs = self.vars_of("V")
        if d <= 0 or self.chance(0.25):
            if self.chance(0.1):
                return self.pick(["x[::-1]", "concat([x[1:], x[:1]])", "zeros_like(x)"])
            return self.pick(vs)
        S = lambda: self.S(d - 1)
        V = lambda: self.V(d - 1)
        VS = lambda: V() if self.chance(0.6) else (S() if self.chance(0.7) else flit(self.rng))
        op = lambda: self.pick(["+", "-", "*", "+", "-"])
        return self.weighted([
            (5, lambda: "(%s %s %s)" % (V(), op(), VS())),
            (2, lambda: "(%s %s %s)" % (S(), op(), V())),
            (2, lambda: "%s(%s, %s)" % (self.pick(["maximum", "minimum"]), V(), VS())),
            (1, lambda: "abs(%s)" % V()),
            (2, lambda: "tanh(%s)" % V()),
            (1, lambda: "(-%s)" % V()),
            (1, lambda: "relu(%s)" % V()),
            (1, lambda: "clip(%s, -2.0, 2.0)" % V()),
            (2, lambda: "where(%s %s %s, %s, %s)" % (V(), self.pick(["<", ">", ">="]), VS(), V(), VS())),
            (1, lambda: "where(%s, %s, %s)" % (self.B(d - 1), V(), VS())),
            (1, lambda: "(%s if %s else %s)" % (V(), self.B(d - 1), V())),
            (1, lambda: "(%s / (abs(%s) + 1.0))" % (V(), VS())),
            (1, lambda: "%s[::-1]" % self.pick(vs)),
            (1, lambda: "concat([%s[1:], %s[:1]])" % ((self.pick(vs),) * 2)),
            (1, lambda: "(%s * %s)" % (V(), flit(self.rng))),
        ])

    def reduction(self, d):
        v = self.V(max(d - 1, 0))
        kind = self.pick(["sum", "sum", "max", "mean", "min"])
        if kind in ("sum", "mean"):
            self.reassoc = True
        if self.chance(0.2):
            return "%s(%s)" % (kind, v)
        return "%s.%s()" % (v, kind)

    def S(self, d=2):
        ss = self.vars_of("S")
        vs = self.vars_of("V")
        leaves = [(3, lambda: "%s[%s]" % (self.pick(vs), self.idx()))]
        if ss:
            leaves.append((5, lambda: self.pick(ss)))
        if d <= 0 or self.chance(0.25):
            return self.weighted(leaves)
        S = lambda: self.S(d - 1)
        SL = lambda: S() if self.chance(0.65) else flit(self.rng)
        return self.weighted(leaves + [
            (6, lambda: "(%s %s %s)" % (S(), self.pick(["+", "-", "*", "+", "-"]), SL())),
            (2, lambda: "%s(%s, %s)" % (self.pick(["maximum", "minimum"]), S(), SL())),
            (1, lambda: "abs(%s)" % S()),
            (2, lambda: "tanh(%s)" % S()),
            (1, lambda: "(-%s)" % S()),
            (3, lambda: self.reduction(d)),
            (1, lambda: "(%s if %s else %s)" % (S(), self.B(d - 1), SL())),
            (1, lambda: "where(%s, %s, %s)" % (self.B(d - 1), S(), SL())),
            (1, lambda: "(%s / (abs(%s) + 1.0))" % (S(), S())),
            (1, lambda: "clip(%s, -2.0, 2.0)" % S()),
            (1, lambda: "(%s * 0.5)" % self.I(d - 1)),
            (1, lambda: "float(%s)" % self.I(d - 1)),
            (1, lambda: "(%s or %s)" % (S(), S())),
        ] + self.s_extra(d))

    def s_extra(self, d):
        """S productions from the mixed dtypes, static ints, rebound values and the helper."""
        items = []
        if self.vars_of("D") or self.has_param("xd"):
            items.append((2, lambda: "f32(%s)" % self.D(d - 1)))
        if self.vars_of("J") or self.has_param("xi"):
            items.append((1, lambda: "float(%s)" % self.J(d - 1)))
            items.append((1, lambda: "(%s * %s)" % (self.S(d - 1), self.J(d - 1))))
        for n in sorted(self.static_ints):
            items.append((1, lambda n=n: "(zeros((%s,)) + %s).sum()" % (n, self.S(d - 1))))
            items.append((1, lambda n=n: "x[:%s].sum()" % n))
            items.append((1, lambda n=n: "ones((%s,)).sum()" % n))
        rs = self.vars_of("R")
        if rs:
            items.append((3, lambda: "f32(%s.sum())" % self.pick(rs)))
        if self.helper:
            items.append((2, lambda: self.helper_call(d)))
        return items

    def helper_call(self, d):
        k = self.pick(["0", "1", "2", "2", "3", "4", "len(x)"] + sorted(self.static_ints) * 2)
        v = self.V(max(d - 1, 0)) if self.chance(0.6) else self.pick(self.vars_of("V"))
        self.helper_calls += 1
        return "%s(%s, %s)" % (self.helper, v, k)

    # Mixed dtypes. J = i32 0-d and D = f64 0-d, always strong (a tensor, never
    # a weak literal). JW / DW are variables that may hold a weak literal on
    # some paths (`c = 0`, then `c = c + J` in a dynamic loop, or `c = J` in
    # one branch only); Jw()/Dw() are the expressions that may be weak. They
    # are used only where a weak value and a tensor of that dtype behave the
    # same: as the second operand next to a strong J/D, printed, compared or
    # returned (docs/graph.md "Static and dynamic": the literal takes the tensor's dtype; only repr and
    # .dtype would show the difference, and programs never print those).
    def J(self, d=2):
        jj = self.vars_of("J")
        leaves = [(1, lambda: "i32(%s)" % self.I(0))]
        if jj:
            leaves.append((6, lambda: self.pick(jj)))
        if self.has_param("xi"):
            leaves.append((3, lambda: "xi[%s]" % self.idx()))
        if d <= 0 or self.chance(0.3):
            return self.weighted(leaves)
        J = lambda: self.J(d - 1)
        JL = lambda: self.Jw(d - 1) if self.chance(0.6) else ilit(self.rng)
        items = leaves + [
            (5, lambda: "(%s %s %s)" % (J(), self.pick(["+", "-", "+"]), JL())),
            (1, lambda: "(%s * %s)" % (J(), ilit(self.rng, -2, 3))),
            (1, lambda: "(%s %% %d)" % (J(), self.rng.randint(2, 5))),
            (1, lambda: "(%s // %d)" % (J(), self.rng.randint(2, 3))),
            (1, lambda: "%s(%s, %s)" % (self.pick(["maximum", "minimum"]), J(), JL())),
            (1, lambda: "abs(%s)" % J()),
            (1, lambda: "(-%s)" % J()),
            (1, lambda: "(%s if %s else %s)" % (J(), self.B(d - 1), J())),
            (1, lambda: "where(%s, %s, %s)" % (self.B(d - 1), J(), JL())),
            (1, lambda: "i32(%s)" % self.I(d - 1)),
        ]
        if self.has_param("xi"):
            items.append((1, lambda: "xi.%s()" % self.pick(["max", "min"])))
        return self.weighted(items)

    def Jw(self, d=2):
        items = [(5, lambda: self.J(d)), (2, lambda: ilit(self.rng)),
                 (1, lambda: "(%s if %s else %s)" % (self.J(d - 1), self.B(d - 1), ilit(self.rng))),
                 (1, lambda: "(%s if %s else %s)" % (ilit(self.rng), self.B(d - 1), self.J(d - 1)))]
        jw = self.vars_of("JW")
        if jw:
            items.append((5, lambda: self.pick(jw)))
        return self.weighted(items)

    def D(self, d=2):
        dd = self.vars_of("D")
        leaves = [(1, lambda: "f64(%s)" % self.S(0))]
        if dd:
            leaves.append((6, lambda: self.pick(dd)))
        if self.has_param("xd"):
            leaves.append((3, lambda: "xd[%s]" % self.idx()))
        if d <= 0 or self.chance(0.3):
            return self.weighted(leaves)
        D = lambda: self.D(d - 1)
        DL = lambda: self.Dw(d - 1) if self.chance(0.6) else flit(self.rng)
        op = lambda: self.pick(["+", "-", "*", "+", "-"])
        items = leaves + [
            (5, lambda: "(%s %s %s)" % (D(), op(), DL())),
            (2, lambda: "(%s %s %s)" % (self.S(d - 1), op(), D())),
            (1, lambda: "(%s %s %s)" % (D(), op(), self.S(d - 1))),
            (1, lambda: "%s(%s, %s)" % (self.pick(["maximum", "minimum"]), D(), DL())),
            (1, lambda: "abs(%s)" % D()),
            (2, lambda: "tanh(%s)" % D()),
            (1, lambda: "(-%s)" % D()),
            (1, lambda: "clip(%s, -2.0, 2.0)" % D()),
            (1, lambda: "where(%s, %s, %s)" % (self.B(d - 1), D(), DL())),
            (1, lambda: "(%s if %s else %s)" % (D(), self.B(d - 1), D())),
            (1, lambda: "(%s / (abs(%s) + 1.0))" % (D(), DL())),
            (1, lambda: "(%s * %s)" % (D(), self.J(d - 1))),
            (1, lambda: "f64(%s)" % self.I(d - 1)),
        ]
        if self.has_param("xd"):
            items.append((2, lambda: self.dreduction()))
        return self.weighted(items)

    def dreduction(self):
        kind = self.pick(["sum", "max", "min", "mean"])
        if kind in ("sum", "mean"):
            self.reassoc = True
        v = self.pick(["xd", "xd", "(xd * %s)" % self.S(0), "(xd + x)", "abs(xd)"])
        return "%s.%s()" % (v, kind)

    def Dw(self, d=2):
        items = [(5, lambda: self.D(d)), (2, lambda: flit(self.rng)),
                 (1, lambda: "(%s if %s else %s)" % (self.D(d - 1), self.B(d - 1), flit(self.rng))),
                 (1, lambda: "(%s if %s else %s)" % (flit(self.rng), self.B(d - 1), self.D(d - 1)))]
        dw = self.vars_of("DW")
        if dw:
            items.append((5, lambda: self.pick(dw)))
        return self.weighted(items)

    def I(self, d=2):
        ii = self.vars_of("I")
        leaves = [(1, lambda: "len(x)")]
        if ii:
            leaves.append((6, lambda: self.pick(ii)))
        if d <= 0 or self.chance(0.3):
            return self.weighted(leaves)
        I = lambda: self.I(d - 1)
        IL = lambda: I() if self.chance(0.6) else ilit(self.rng)
        items = leaves + [
            (4, lambda: "(%s %s %s)" % (I(), self.pick(["+", "-"]), IL())),
            (1, lambda: "(%s * %s)" % (I(), ilit(self.rng, -2, 3))),
            (1, lambda: "(%s %% %d)" % (I(), self.rng.randint(2, 4))),
            (1, lambda: "(%s // %d)" % (I(), self.rng.randint(2, 3))),
            (1, lambda: "%s.argmax()" % self.V(d - 1)),
            (1, lambda: "(%s > %s).sum()" % (self.V(d - 1), self.S(d - 1))),
            (1, lambda: "%s(%s, %s)" % (self.pick(["maximum", "minimum"]), I(), IL())),
            (1, lambda: "(%s if %s else %s)" % (I(), self.B(d - 1), IL())),
        ]
        if self.has_param("t"):
            items.append((1, lambda: "int(t * %s)" % flit(self.rng, 1, 8)))
        if self.vars_of("J") or self.has_param("xi"):
            items.append((1, lambda: "(%s + i64(%s))" % (I(), self.J(d - 1))))
        if self.has_param("xi"):
            items.append((1, lambda: "xi.sum()"))
            items.append((1, lambda: "(xi > %s).sum()" % self.Jw(d - 1)))
        return self.weighted(items)

    def cmp(self, d):
        for _ in range(3):   # avoid `a < a`
            c = self.cmp1(d)
            if c.split(" ")[0] != c.split(" ")[-1]:
                break
        return c

    def cmp1(self, d):
        op = self.pick(["<", ">", "<=", ">=", "==", "!="] + ["<", ">"] * 3)
        return self.weighted([
            (5, lambda: "%s %s %s" % (self.S(d), op, self.S(d) if self.chance(0.5) else flit(self.rng))),
            (2, lambda: "%s %s %s" % (self.I(d), op, self.I(d) if self.chance(0.5) else ilit(self.rng))),
            (1, lambda: "%s(%s %s %s)" % (self.pick(["any", "all"]), self.V(d), op, self.S(d))),
        ] + ([(2, lambda: "%s %s %s" % (self.J(d), op, self.Jw(d)))] if self.mixed else [])
          + ([(2, lambda: "%s %s %s" % (self.D(d), op, self.Dw(d)))] if self.mixed else []))

    def B(self, d=2):
        bs = self.vars_of("B")
        if bs and self.chance(0.2):
            return self.pick(bs)
        if d <= 0 or self.chance(0.55):
            return "(%s)" % self.cmp(max(d - 1, 0))
        B = lambda: self.B(d - 1)
        return self.weighted([
            (4, lambda: "(%s and %s)" % (B(), B())),
            (4, lambda: "(%s or %s)" % (B(), B())),
            (2, lambda: "(not %s)" % B()),
            (1, lambda: "(%s & %s)" % (B(), B())),
        ])

    def cond(self):
        """A condition for if/while: usually a bool, sometimes a bare number."""
        if self.chance(0.07):
            return self.pick(self.vars_of("S") + self.vars_of("I") + self.vars_of("J") + self.vars_of("D"))
        c = self.B(2)
        return c[1:-1] if c.startswith("(") and c.endswith(")") and self.balanced(c[1:-1]) else c

    @staticmethod
    def balanced(s):
        n = 0
        for ch in s:
            n += ch == "("
            n -= ch == ")"
            if n < 0:
                return False
        return n == 0

    def ret_expr(self):
        parts = [self.expr(t + "W" if t in "JD" and self.chance(0.3) else t, 2) for t in self.ret]
        return ", ".join(parts)

    # -- statements -----------------------------------------------------------
    def block(self, ind, depth, in_loop, n):
        """n statements at indentation ind; stops after a terminator."""
        out = []
        for _ in range(n):
            lines, term = self.stmt(ind, depth, in_loop)
            out += lines
            if term:
                break
            out += self.dict_update(ind)
        return out

    # A dict `st` of an S and a V value carried through the function's control
    # flow (its keys never change). Decided by a separate generator, so the
    # programs without a dict are the same as before dicts existed.
    def dict_update(self, ind):
        if not self.use_dict or self.drng.random() >= 0.2:
            return []
        if self.drng.random() < 0.5:
            v = self.drng.choice(self.vars_of("S"))
            return ['%sst["a"] = st["a"] * 0.5 + %s' % (ind, v)]
        v = self.drng.choice(self.vars_of("V"))
        return ['%sst["v"] = st["v"] %s %s * 0.25' % (ind, self.drng.choice("+-"), v)]

    def body(self, ind, depth, in_loop, lo=1, hi=3):
        self.push()
        lines = self.block(ind, depth, in_loop, self.rng.randint(lo, hi))
        self.pop()
        return lines or [ind + "pass"]

    def stmt(self, ind, depth, in_loop):
        self.stmts += 1
        can_nest = depth < self.MAX_DEPTH and self.stmts < self.max_stmts
        can_loop = can_nest and self.loops < self.max_loops
        items = [
            (6, lambda: (self.assign(ind), False)),
            (2, lambda: (self.index_assign(ind), False)),
            (3, lambda: (self.print_stmt(ind), False)),
            (1, lambda: (self.temp_stmt(ind), False)),
        ]
        if can_nest:
            items.append((4, lambda: (self.if_stmt(ind, depth, in_loop), False)))
        if can_loop:
            items.append((2, lambda: (self.while_stmt(ind, depth), False)))
            items.append((3, lambda: (self.for_range(ind, depth), False)))
            items.append((2, lambda: (self.for_each(ind, depth), False)))
        if in_loop:
            items.append((2, lambda: self.jump(ind)))
        if self.mixed and can_nest:
            items.append((2, lambda: (self.weak_if(ind, depth, in_loop), False)))
        if self.mixed and can_loop:
            items.append((1.5, lambda: (self.weak_loop(ind, depth), False)))
        if not in_loop and can_nest and self.rebinds:
            items.append((self.rebinds, lambda: (self.rebind_stmt(ind, depth), False)))
        items.append((0.5 + depth, lambda: self.return_stmt(ind, depth)))
        if self.chance(0.004):
            items.append((20, lambda: (self.assert_stmt(ind), False)))
        return self.weighted(items)

    def assign(self, ind):
        choices = [t for t in ("V", "S", "I", "B", "J", "D", "JW", "DW") if self.vars_of(t, mutable_only=True)]
        t = self.pick(choices + [c for c in choices if c in ("V", "S", "JW", "DW")])
        name = self.pick(self.vars_of(t, mutable_only=True))
        if t in ("JW", "DW"):
            strong = t[0]
            r = self.rng.random()
            if r < 0.3:     # the weak literal meets a tensor: a merge if this is in converted control flow
                return ["%s%s = %s %s %s" % (ind, name, name, self.pick("+-"), self.expr(strong, 1))]
            if r < 0.4:
                return ["%s%s += %s" % (ind, name, self.expr(strong, 1))]
            if r < 0.55:
                return ["%s%s = %s" % (ind, name, ilit(self.rng) if t == "JW" else flit(self.rng))]
            return ["%s%s = %s" % (ind, name, self.expr(t, 2))]
        if t in ("J", "D") and self.chance(0.3):
            return ["%s%s %s= %s" % (ind, name, self.pick("+-"), self.expr(t + "W", 1))]
        if t in "VS" and self.chance(0.25):
            return ["%s%s %s= %s" % (ind, name, self.pick("+-*"), self.expr(t, 1))]
        if t == "I" and self.chance(0.4):
            return ["%s%s += %s" % (ind, name, self.pick(["1", "1", "2", self.I(1)]))]
        e = self.expr(t, 2)
        if e == name:
            e = self.expr(t, 2)
        return ["%s%s = %s" % (ind, name, e)]

    def index_assign(self, ind):
        vs = self.vars_of("V", mutable_only=True)
        if not vs:
            return self.assign(ind)
        y = self.pick(vs)
        op = "+=" if self.chance(0.2) else "="
        return ["%s%s[%s] %s %s" % (ind, y, self.idx(), op, self.S(2))]

    def print_stmt(self, ind):
        self.tags += 1
        args = ['"t%d"' % self.tags]
        pool = []
        for t in ("V", "S", "I", "B", "J", "D", "JW", "DW", "R"):
            pool += self.vars_of(t)
        for _ in range(self.rng.randint(1, 3)):
            if self.chance(0.65) and pool:
                args.append(self.pick(pool))
            else:
                args.append(self.expr(self.pick(["V", "S", "I", "B", "J", "D"] if self.mixed else "VSIB"), 1))
        tail = ""
        if self.chance(0.1):
            tail = ', sep="|"'
        elif self.chance(0.05):
            tail = ', end=";\\n"'
        return ["%sprint(%s%s)" % (ind, ", ".join(args), tail)]

    def temp_stmt(self, ind):
        """A temporary assigned here and read only later in this block."""
        self.temps += 1
        t = self.pick("VSSIB")
        name = "u%d" % self.temps
        line = "%s%s = %s" % (ind, name, self.expr(t, 2))
        self.define(name, t, mutable=self.chance(0.5))
        return [line]

    def assert_stmt(self, ind):
        self.tags += 1
        if self.chance(0.6):   # always true: arguments are finite
            c = "abs(x[%s]) >= 0.0" % self.idx()
        else:
            c = self.cond()
        return ["%sassert %s, \"a%d\"" % (ind, c, self.tags)]

    def jump(self, ind):
        kw = self.pick(["break", "continue", "break"])
        if self.chance(0.8):
            return ["%sif %s:" % (ind, self.cond()), "%s    %s" % (ind, kw)], False
        return ["%s%s" % (ind, kw)], True

    def return_stmt(self, ind, depth):
        if depth == 0 or self.chance(0.75):
            return ["%sif %s:" % (ind, self.cond()), "%s    return %s" % (ind, self.ret_expr())], False
        return ["%sreturn %s" % (ind, self.ret_expr())], True

    def if_stmt(self, ind, depth, in_loop):
        inner = ind + "    "
        lines = ["%sif %s:" % (ind, self.cond())] + self.body(inner, depth + 1, in_loop)
        for _ in range(self.pick([0, 0, 0, 1, 1, 2])):
            lines += ["%selif %s:" % (ind, self.cond())] + self.body(inner, depth + 1, in_loop)
        if self.chance(0.5):
            lines += ["%selse:" % ind] + self.body(inner, depth + 1, in_loop)
        return lines

    def loop_body(self, ind, depth, header, setup=(), define=None):
        self.loops += 1
        self.push()
        if define:
            define()
        lines = list(header) + [ind + "    " + s for s in setup]
        lines += self.block(ind + "    ", depth + 1, True, self.rng.randint(1, 4)) or [ind + "    pass"]
        self.pop()
        self.loops -= 1
        return lines

    def while_stmt(self, ind, depth, extra=()):
        self.counters += 1
        w = "w%d" % self.counters
        K = self.rng.randint(1, 4)
        lines = ["%s%s = 0" % (ind, w)]
        if self.chance(0.2):
            # while True with a bounded, dynamic break at the top.
            header = ["%swhile True:" % ind]
            setup = ["%s += 1" % w, "if %s > %d or %s:" % (w, K, self.cond()), "    break"]
        else:
            c = self.cond()
            guard = "%s < %d" % (w, K)
            head = "%s and %s" % ((guard, "(%s)" % c) if self.chance(0.5) else ("(%s)" % c, guard))
            header = ["%swhile %s:" % (ind, head)]
            setup = [self.pick(["%s += 1", "%s = %s + 1"]).replace("%s", w)]
        self.define(w, "I")   # readable after the loop too, in this block
        return lines + self.loop_body(ind, depth, header, setup + list(extra))

    def for_range(self, ind, depth, extra=()):
        i = self.loop_names[self.loops]
        forms = [
            (3, "range(len(x))", True),
            (2, "range(%d)" % self.rng.randint(0, 3), True),
            (1, "range(1, len(x))", True),
            (1, "range(len(x) - 1, -1, -1)", True),
            (1, "range(minimum(%s, 4))" % self.I(1), False),
        ]
        if self.has_param("n"):
            forms.append((4, "range(n)", True))
            forms.append((1, "range(n, 0, -1)", False))
        if self.has_param("m"):
            forms.append((2, "range(m)", False))
        for n in sorted(self.static_ints - {"n"}):
            forms.append((3, "range(%s)" % n, False))
        if self.has_param("a"):
            forms.append((1, "range(minimum(a, 4))", False))
        _, it, safe = self.weighted([(w, (lambda f=(w, it, s): f)) for w, it, s in forms])

        def define():
            mutable = self.chance(0.05)   # `i += 2` in the body: the loop still counts on
            self.define(i, "I", mutable=mutable)
            if safe and not mutable:
                self.safe.add(i)
        return self.loop_body(ind, depth, ["%sfor %s in %s:" % (ind, i, it)], setup=extra, define=define)

    def for_each(self, ind, depth, extra=None):
        v = self.val_names[self.loops]
        vs = self.vars_of("V")
        its = [(it, "S") for it in vs + ["x[1:]", "x[::-1]", "%s[:2]" % self.pick(vs)]]
        if self.has_param("xi"):
            its += [("xi", "J"), ("xi", "J"), ("xi[1:]", "J")]
        if self.has_param("xd"):
            its += [("xd", "D"), ("xd[::-1]", "D")]
        it, vt = self.pick(its)
        if vt != "S":   # a name of its own: a loop variable outlives its loop
            v = "%s%d" % ("ej" if vt == "J" else "ed", self.loops)
        setup = [extra(v, vt)] if extra else ()
        return self.loop_body(ind, depth, ["%sfor %s in %s:" % (ind, v, it)], setup=setup,
                              define=lambda: self.define(v, vt, mutable=self.chance(0.05)))

    # -- weak literals merged with i32/f64 tensors (bug 1) -----------
    def new_weak(self, kind):
        """A new JW/DW variable name."""
        self.temps += 1
        return "%s%d" % ("cw" if kind == "J" else "dw", self.temps)

    def weak_if(self, ind, depth, in_loop):
        """`y = <i32/f64 tensor>` on some paths of a dynamic if, `y = <literal>` on the others,
        or `y = J if c else 1`."""
        kind = self.pick("JD")
        lit = (lambda: ilit(self.rng)) if kind == "J" else (lambda: flit(self.rng))
        existing = self.vars_of(kind + "W", mutable_only=True)
        if existing and self.chance(0.4):
            name, new = self.pick(existing), False
        else:
            name, new = self.new_weak(kind), True
        inner = ind + "    "
        if self.chance(0.25):
            a, b = self.expr(kind, 2), lit()
            if self.chance(0.5):
                a, b = b, a
            line = "%s%s = (%s if %s else %s)" % (ind, name, a, self.B(2), b)
            if new:
                self.define(name, kind + "W", mutable=True)
            return [line]
        nb = self.pick([2, 2, 2, 3])
        has_else = new or self.chance(0.6)
        branches = []
        strong_at = self.rng.randrange(nb if has_else else nb + 1)
        for bi in range(nb):
            self.push()
            body = []
            if self.chance(0.3):
                body += self.block(inner, depth + 1, in_loop, 1)
            val = self.expr(kind, 2) if bi == strong_at else (lit() if self.chance(0.7) else self.expr(kind + "W", 1))
            body.append("%s%s = %s" % (inner, name, val))
            if self.chance(0.2):
                body += self.block(inner, depth + 1, in_loop, 1)
            self.pop()
            branches.append(body)
        lines = []
        for bi, body in enumerate(branches):
            if bi == 0:
                lines.append("%sif %s:" % (ind, self.cond()))
            elif bi == nb - 1 and has_else:
                lines.append("%selse:" % ind)
            else:
                lines.append("%selif %s:" % (ind, self.cond()))
            lines += body
        if new:
            if not has_else:
                lines.insert(0, "%s%s = %s" % (ind, name, lit()))
            self.define(name, kind + "W", mutable=True)
        if self.chance(0.5):
            lines += self.weak_use(ind, name, kind)
        return lines

    def weak_use(self, ind, name, kind):
        """Read a JW/DW variable next to a tensor of its dtype, or print it."""
        tgt = self.vars_of(kind, mutable_only=True)
        if tgt and self.chance(0.6):
            t = self.pick(tgt)
            return ["%s%s = %s + %s" % (ind, t, t, name)]
        self.tags += 1
        return ['%sprint("t%d", %s)' % (ind, self.tags, name)]

    def weak_loop(self, ind, depth):
        """`s = 0` then `s = s + <i32 tensor>` in a loop (a carry that starts weak)."""
        kind = self.pick("JD")
        name = self.new_weak(kind)
        lines = ["%s%s = %s" % (ind, name, ilit(self.rng, 0, 2) if kind == "J" else flit(self.rng, 0, 4))]
        self.define(name, kind + "W", mutable=True)
        op = self.pick(["+", "+", "-"])
        r = self.rng.random()
        if r < 0.45:
            upd = "%s = %s %s %s" % (name, name, op, self.expr(kind, 1))
            lines += self.while_stmt(ind, depth, extra=[upd])
        elif r < 0.7:
            upd = "%s = %s %s %s" % (name, name, op, self.expr(kind, 1))
            lines += self.for_range(ind, depth, extra=[upd])
        else:
            lines += self.for_each(ind, depth, extra=lambda v, vt: "%s = %s %s %s" % (
                name, name, op, v if vt == kind else self.expr(kind, 1)))
        if self.chance(0.6):
            lines += self.weak_use(ind, name, kind)
        return lines

    # -- an early return, then an existing variable rebound to a new shape or
    #    dtype (bug 2) ------------------------------------------------
    def rebind_stmt(self, ind, depth):
        self.rebinds = 0            # once per function
        self.temps += 1
        name = "rb%d" % self.temps
        kinds = ["V", "V", "S", "I", "lit"] + (["J", "D"] if self.mixed else [])
        k = self.pick(kinds)
        if k == "lit":
            lk = self.pick("if")
            init = ilit(self.rng) if lk == "i" else flit(self.rng)
        else:
            init = self.expr(k, 1)
        lines = ["%s%s = %s" % (ind, name, init)]
        rank = 1 if k == "V" else 0
        # Before the rebinding, the variable is an ordinary one of its type.
        if k != "lit":
            self.define(name, k)
        for step in range(self.pick([1, 1, 1, 2])):
            inner = ind + "    "
            self.push()
            if self.chance(0.2):
                lines.append("%sif %s:" % (ind, self.cond()))
                lines.append("%sif %s:" % (inner, self.cond()))
                lines.append("%s    return %s" % (inner, self.ret_expr()))
            else:
                lines.append("%sif %s:" % (ind, self.cond()))
                if self.chance(0.3):
                    lines += self.block(inner, depth + 1, False, 1)
                lines.append("%sreturn %s" % (inner, self.ret_expr()))
            self.pop()
            if self.chance(0.25):
                self.push()
                lines.append("%selse:" % ind)
                lines += self.block(inner, depth + 1, False, 1) or [inner + "pass"]
                self.pop()
            # (expression, rank after): a new shape or a new dtype
            if rank == 0:
                ops = [("stack([%s, %s])", 1), ("(%s + x)", 1), ("stack([%s, %s, %s])", 1)]
                if k == "lit":
                    ops += [("2.5" if lk == "i" else "3", 0), ("(%s > 0)", 0)]
                elif k in ("I", "J"):
                    ops += [("f32(%s)", 0), ("(%s * 0.5)", 0), ("f64(%s)", 0), ("(%s > 0)", 0)]
                else:
                    ops += [("f64(%s)", 0), ("(%s > 0.0)", 0)]
            else:
                ops = [("stack([%s, %s])", rank + 1), ("concat([%s, %s])", rank), ("%s[:2]", rank),
                       ("f64(%s)", rank), ("(%s > 0.0)", rank), ("%s[0]", rank - 1),
                       ("stack([%s, %s])[:, 1:]", rank + 1)]
            op, rank = self.pick(ops)
            lines.append("%s%s = %s" % (ind, name, op.replace("%s", name)))
            for sc in self.scopes:
                sc.pop(name, None)
            if op in ("2.5", "3"):
                k, lk = "lit", ("f" if op == "2.5" else "i")
            else:
                k = "R"
                self.define(name, "R")
        return lines

    # -- a whole function and its calls ----------------------------------------
    def program(self):
        rng = self.rng
        params = ["x"]
        for p, prob in (("w", 0.35), ("t", 0.7), ("n", 0.6), ("m", 0.3)):
            if rng.random() < prob:
                params.append(p)
        # Mixed dtypes in about half of the programs: i32/f64 arguments.
        self.mixed = rng.random() < 0.5
        if self.mixed:
            for p, prob in (("a", 0.6), ("b", 0.5), ("xi", 0.45), ("xd", 0.4)):
                if rng.random() < prob:
                    params.append(p)
        types = {"x": "V", "w": "V", "t": "S", "n": "I", "m": "I", "a": "J", "b": "D", "xi": "XI", "xd": "XD"}
        for p in params:
            self.define(p, types[p])
        static_n = "n" in params and rng.random() < 0.4 and not NO_STATIC
        if static_n:
            self.static_ints.add("n")
        self.rebinds = 5 if rng.random() < 0.4 else 0
        rets = [["V"], ["S"], ["V", "S"], ["S", "I"], ["V"], ["S"], ["I"], ["B", "S"]]
        if self.mixed:
            rets += [["J"], ["D"], ["J", "S"], ["D", "V"], ["S", "J", "D"]]
        self.ret = self.pick(rets)

        helper_fn = ""
        if rng.random() < 0.25:
            helper_fn = self.make_helper()

        deco = '@graph(static=("n",))' if static_n else "@graph"
        lines = [deco, "def %s(%s):" % (self.name, ", ".join(params))]
        ind = "    "
        locals_ = [("acc", "S", ["x[0] * 0.0", "x.sum() * 0.0", "x[-1] + 0.0", "t * 1.0" if "t" in params else "x[1] * 1.0"]),
                   ("y", "V", ["zeros_like(x)", "x * 1.0", "ones_like(x)", "x + 0.0"]),
                   ("k", "I", ["0", "0", "len(x) * 0", "n * 0" if "n" in params else "0"]),
                   ("z", "V", ["x * 0.5", "abs(x)", "tanh(x)"]),
                   ("s", "S", ["x.max()", "x[1] * 2.0", "abs(x[0])"]),
                   ("flag", "B", ["x[0] > 0.0", "x.sum() > 1.0", "len(x) > 3"]),
                   ("cnt", "I", ["0", "1"])]
        if self.mixed:
            locals_ += [("sj", "J", ["a * 1" if "a" in params else "i32(len(x))",
                                     "xi[0] + 0" if "xi" in params else "i32(len(x) - 2)", "i32(k)"]),
                        ("sd", "D", ["b * 1.0" if "b" in params else "f64(x[0])",
                                     "xd[1] + 0.0" if "xd" in params else "f64(x.max())"]),
                        ("cj", "JW", ["0", "0", "1"]),
                        ("cd", "DW", ["0.0", "0.5"])]
        chosen = locals_[:3] + [l for l in locals_[3:] if rng.random() < (0.45 if l[1] not in ("J", "D") else 0.8)]
        for name, t, inits in chosen:
            lines.append("%s%s = %s" % (ind, name, self.pick(inits)))
            self.define(name, t, mutable=True)
        if self.use_dict:
            lines.append('%sst = {"a": acc * 1.0, "v": y * 1.0}' % ind)
        self.push()
        lines += self.block(ind, 0, False, rng.randint(3, 7))
        self.pop()
        if self.use_none:
            lines += self.none_on_some_paths(ind)
        if self.helper and (not self.helper_calls or rng.random() < 0.3):
            lines.append("%sacc = acc + %s" % (ind, self.helper_call(1)))
        if self.use_dict:
            lines.append('%sprint("st", st)' % ind)
        lines.append("%sreturn %s" % (ind, self.ret_expr()))

        # Calls: 3-4, the same length mostly; sometimes a new length (retrace).
        L0 = rng.randint(3, 5)
        vary = rng.random() < 0.3
        calls = []
        weak_t = False
        for _ in range(rng.randint(3, 4)):
            L = rng.randint(3, 5) if vary else L0
            kw_from = rng.randint(0, len(params) - 1) if rng.random() < 0.15 else len(params)
            args = []
            for pos, p in enumerate(params):
                if types[p] == "V":
                    a = "tensor([%s])" % ", ".join(repr(rng.randint(-12, 12) / 4.0 + 0.0) for _ in range(L))
                elif p == "t":
                    v = repr(rng.randint(-8, 8) / 4.0 + 0.0)
                    a = v if rng.random() < 0.25 else "tensor(%s)" % v
                    weak_t = weak_t or a == v
                elif p == "a":
                    a = "tensor(%d, dtype=i32)" % rng.randint(-3, 6)
                elif p == "b":
                    a = "tensor(%s, dtype=f64)" % repr(rng.randint(-8, 8) / 4.0 + 0.0)
                elif p == "xi":
                    a = "tensor([%s], dtype=i32)" % ", ".join(str(rng.randint(-5, 6)) for _ in range(L))
                elif p == "xd":
                    a = "tensor([%s], dtype=f64)" % ", ".join(repr(rng.randint(-12, 12) / 4.0 + 0.0) for _ in range(L))
                elif p == "n" and static_n:
                    a = str(rng.randint(0, L))
                else:
                    v = str(rng.randint(0, L) if p == "n" else rng.randint(-3, 6))
                    a = v if rng.random() < 0.25 else "tensor(%s)" % v
                args.append("%s=%s" % (p, a) if pos >= kw_from else a)
            fixed = args
            calls.append("print(%s(%s))" % (self.name, ", ".join(fixed)))
        fn = helper_fn + "\n".join(lines) + "\n"
        prog = Program(self.index, self.name, fn, "\n".join(calls) + "\n", self.reassoc)
        prog.weak_arg = weak_t
        return prog

    def none_on_some_paths(self, ind):
        """`nz` is None on some paths of dynamic control flow and a scalar on
        others; it is printed, tested with `is None` / `is not None` and then
        used (a use other than return/print/assign/`is` makes the call run
        eagerly: the same output either way)."""
        r = self.nrng
        conds = ["x[0] > 0.0", "x.sum() > 1.0", "acc > 0.5", "x.max() > 2.0"]
        vals = ["acc * 2.0", "x.max() + 1.0", "x[-1] * 0.5", "acc - 1.0"]
        i2 = ind + "    "
        lines = ["%snz = None" % ind]
        if r.random() < 0.5:
            lines += ["%sif %s:" % (ind, r.choice(conds)), "%snz = %s" % (i2, r.choice(vals))]
        else:
            lines += ["%sfor nv in x:" % ind, "%sif nv > %s:" % (i2, flit(r, -4, 8)),
                      "%s    nz = nv * 1.0" % i2]
        lines.append('%sprint("nz", nz)' % ind)
        if r.random() < 0.5:
            lines += ["%sif nz is None:" % ind, "%snz = %s" % (i2, r.choice(vals)), "%sacc = acc + nz" % ind]
        else:
            lines += ["%sif nz is not None:" % ind, "%sacc = acc + nz" % i2]
        return lines

    def make_helper(self):
        """A @graph function called from the main one (inlined while tracing) with a
        literal int `nk` used as a shape (`zeros((nk,))`, `range(nk)`) and a vector.
        In a share of them, an index that is out of range for some `nk` or length
        (bug 3: the error must be eager's, in every mode)."""
        h = Gen(self.seed, self.index, salt=":helper")
        h.name = "h%04d" % self.index
        h.use_dict = False
        h.max_stmts = 9
        h.max_loops = 1
        h.define("x", "V")
        h.define("nk", "I")
        h.static_ints.add("nk")
        h.ret = ["S"]
        ind = "    "
        lines = ["@graph", "def %s(x, nk):" % h.name,
                 "%sacc = %s" % (ind, h.pick(["x[0] * 0.0", "x.sum() * 0.0", "zeros((nk,)).sum()"])),
                 "%su = %s" % (ind, h.pick(["zeros((nk,))", "ones((nk,)) * x[0]", "zeros((nk,)) + x.max()"])),
                 "%sy = x * 1.0" % ind]
        h.define("acc", "S", mutable=True)
        h.define("y", "V", mutable=True)
        h.define("u", "U")
        h.push()
        n1 = h.rng.randint(0, 2)
        body = h.block(ind, 0, False, n1)
        if h.chance(0.12):
            # An index that is out of range for some calls: static (u has nk
            # elements, x has 3-5) or dynamic.
            e = h.pick(["u[%d]" % h.rng.randint(1, 5), "x[nk + %d]" % h.rng.randint(1, 3),
                        "u[nk]", "x[%s %% 8]" % h.I(1)])
            body.append("%sacc = acc + %s" % (ind, e))
        body += h.block(ind, 0, False, h.rng.randint(1, 3 - n1))
        h.pop()
        lines += body
        if h.chance(0.6):
            ret = h.pick(["acc + u.sum()", "acc", "acc + u.sum() * 0.5"])
        else:
            ret = h.ret_expr()
        lines.append("%sreturn %s" % (ind, ret))
        self.helper = h.name
        self.reassoc = self.reassoc or h.reassoc
        return "\n".join(lines) + "\n\n"


# --------------------------------------------------------------------------
# Gradient programs: a share of the programs differentiate a plain
# function `dNNNN(x, w, t)` (x, w: float vectors, t: a float 0-d value) whose
# body has `if`/`while` on tensor values, through a @graph function
# `fNNNN = value_and_grad(dNNNN, argnums=(0, 1, 2))`. The modes compare the
# gradient computed eagerly (--eager: the tape) and in the graph (a cond /
# while of the adjoints), within float tolerance; every mode's f64 gradient
# is also checked against central finite differences (fd_check).
# --------------------------------------------------------------------------

GRAD_SHARE = 0.1     # of the programs; chosen by their own salted generator
FD_STEP = 1e-6       # f64 central differences: error ~ h^2 |f'''| + eps |f| / h
FD_REL, FD_ABS = 1e-5, 1e-6   # docs/graph.md's tolerance for reassociated f32 reductions
FD_KINK = 1e-3       # one-sided differences further apart: a kink or branch switch within +-h

FD_HELPER = """def _fd(f, x, w, t):
    # f at the point, then at +-h along every component of x, w and t
    h = %r
    ex = eye(len(x), dtype=f64)
    out = [f(x, w, t)]
    for i in range(len(x)):
        out = out + [f(x + h * ex[i], w, t), f(x - h * ex[i], w, t)]
    for i in range(len(x)):
        out = out + [f(x, w + h * ex[i], t), f(x, w - h * ex[i], t)]
    return out + [f(x, w, t + h), f(x, w, t - h)]

""" % FD_STEP


def is_grad_program(seed, index):
    return random.Random("tg-differential-grad:%s:%d" % (seed, index)).random() < GRAD_SHARE


class GradGen:
    """A differentiable function of x, w (vectors) and t (0-d): smooth
    element-wise math and reductions, `maximum`/`abs`/`max` (kinks),
    `if`/`elif` on tensor conditions and `while` loops whose trip count
    depends on the values (bounded by a counter)."""

    def __init__(self, seed, index):
        self.rng = random.Random("tg-differential-grad-body:%s:%d" % (seed, index))
        # Half the gradient programs also take the gradient with
        # loop_checkpoint=K (docs/training.md "Bounding a loop's saved values")
        # and assert it equals the unbounded one bit for bit (drawn apart, so
        # the programs are those the seed made before).
        ck = random.Random("tg-differential-loop-checkpoint:%s:%d" % (seed, index))
        self.loop_checkpoint = ck.choice([1, 2, 3]) if ck.random() < 0.5 else 0
        self.index = index
        self.name = "f%04d" % index
        self.counters = 0
        self.stmts = 0

    def pick(self, xs):
        return self.rng.choice(xs)

    def V(self, d=2):
        """A vector expression (the length of x), bounded for bounded inputs."""
        leaves = ["x", "w", "y", "y", "x * w"]
        if d <= 0 or self.rng.random() < 0.3:
            return self.pick(leaves)
        a, b = self.V(d - 1), self.V(d - 1)
        return self.pick(["(%s + %s)" % (a, b), "(%s - %s)" % (a, b), "(%s * %s)" % (a, b),
                          "tanh(%s)" % a, "sin(%s)" % a, "(%s * %s)" % (a, self.S(d - 1)),
                          "maximum(%s, %s)" % (a, b), "exp(-(%s * %s))" % (a, a),
                          "(%s / (1.0 + %s * %s))" % (a, b, b), "(%s * 0.5)" % a, "abs(%s)" % a])

    def S(self, d=2):
        """A 0-d expression."""
        leaves = ["t", "s", "s", "x[0]", "w[1]", "y[-1]"]
        if d <= 0 or self.rng.random() < 0.3:
            return self.pick(leaves)
        a, b = self.S(d - 1), self.S(d - 1)
        return self.pick(["(%s + %s)" % (a, b), "(%s * %s)" % (a, b), "tanh(%s)" % a,
                          "sum(%s)" % self.V(d - 1), "mean(%s)" % self.V(d - 1), "max(%s)" % self.V(d - 1),
                          "logsumexp(%s)" % self.V(d - 1), "(%s - %s)" % (a, b), "sqrt(1.0 + %s * %s)" % (a, a)])

    def cond(self):
        return self.pick(["%s > %s" % (self.S(1), self.S(1)), "sum(y) < t", "s > 0.5",
                          "mean(%s) > 0.0" % self.V(1), "y[0] < w[-1]"])

    def block(self, ind, depth, n):
        lines = []
        for _ in range(n):
            lines += self.stmt(ind, depth)
        return lines

    def stmt(self, ind, depth):
        self.stmts += 1
        r = self.rng.random()
        if depth < 2 and self.stmts < 12 and r < 0.25:
            lines = ["%sif %s:" % (ind, self.cond())] + self.block(ind + "    ", depth + 1, self.rng.randint(1, 2))
            if self.rng.random() < 0.3:
                lines += ["%selif %s:" % (ind, self.cond())] + self.block(ind + "    ", depth + 1, 1)
            if self.rng.random() < 0.7:
                lines += ["%selse:" % ind] + self.block(ind + "    ", depth + 1, self.rng.randint(1, 2))
            return lines
        if depth < 2 and self.stmts < 12 and r < 0.45:
            c = "wk%d" % self.counters
            self.counters += 1
            lines = ["%s%s = 0" % (ind, c),
                     "%swhile %s and %s < %d:" % (ind, self.cond(), c, self.rng.randint(1, 4)),
                     "%s    %s += 1" % (ind, c)]
            return lines + self.block(ind + "    ", depth + 1, self.rng.randint(1, 2))
        if r < 0.5:
            return ["%sfor i in range(len(x)):" % ind,
                    "%s    s = s + %s * y[i]" % (ind, self.pick(["w[i]", "x[i]", "0.5"]))]
        if r < 0.7:
            return ["%sy = %s" % (ind, self.V())]
        if r < 0.75:
            # no tape entry: a loop whose body only rebinds or counts still
            # runs its condition on differentiated values (that condition's
            # first evaluation is traced, then rolled back with the tape)
            return ["%s%s" % (ind, self.pick(["y = y", "s = s", "pass"]))]
        return ["%ss = %s" % (ind, self.S())]

    def args(self, L, dtype):
        f64 = ", dtype=f64" if dtype == "f64" else ""
        vec = lambda: "tensor([%s]%s)" % (", ".join(repr(round(self.rng.uniform(-1.5, 1.5), 3)) for _ in range(L)), f64)
        return [vec(), vec(), "tensor(%r%s)" % (round(self.rng.uniform(-1.5, 1.5), 3), f64)]

    def program(self):
        ind = "    "
        d = "d%04d" % self.index
        lines = ["def %s(x, w, t):" % d, ind + "y = " + self.pick(["x * 1.0", "tanh(x * w)", "x + w"]),
                 ind + "s = " + self.pick(["t * 1.0", "sum(x) * 0.5", "t + w[0]"])]
        lines += self.block(ind, 0, self.rng.randint(2, 5))
        lines.append(ind + "return " + self.pick(["s + sum(y * y)", "mean(y) * s", "s", "sum(tanh(y)) + s * t"]))
        lines += ["", "@graph", "def %s(x, w, t):" % self.name]
        if self.loop_checkpoint:
            k = self.loop_checkpoint
            same = " & ".join("all((%s == %s) | (%s != %s))" % (a, b, a, a)
                              for a, b in [("r[0]", "q[0]")] + [("r[1][%d]" % i, "q[1][%d]" % i) for i in range(3)])
            lines += [ind + "r = value_and_grad(%s, argnums=(0, 1, 2))(x, w, t)" % d,
                      ind + "q = value_and_grad(%s, argnums=(0, 1, 2), loop_checkpoint=%d)(x, w, t)" % (d, k),
                      ind + "assert %s, \"loop_checkpoint=%d changed the gradient\"" % (same, k),
                      ind + "return r"]
        else:
            lines.append(ind + "return value_and_grad(%s, argnums=(0, 1, 2))(x, w, t)" % d)
        calls = []
        L = self.rng.randint(2, 4)
        for _ in range(2):
            calls.append("print(%s(%s))" % (self.name, ", ".join(self.args(L, "f32"))))
            a64 = ", ".join(self.args(L, "f64"))
            calls.append("print(\"grad\", %s(%s))" % (self.name, a64))
            calls.append("print(\"fd\", _fd(%s, %s))" % (d, a64))
        return Program(self.index, self.name, "\n".join(lines) + "\n", "\n".join(calls) + "\n", True, grad=True)


def fd_check(section, counts=None):
    """Errors where a mode's f64 gradient (the `grad` lines) disagrees with
    central differences (the `fd` line after each): [] when all agree.
    Components whose one-sided differences disagree by more than FD_KINK
    (relative) are skipped: a kink (`maximum`, `abs`, `max`) or a branch or
    loop exit that switches within +-h, where the derivative is one-sided
    or the function jumps. counts (a dict) gets "checked" and "skipped"
    added up."""
    errors = []
    counts = counts if counts is not None else {}
    lines = section.splitlines()
    grads = [l for l in lines if l.startswith("grad ")]
    fds = [l for l in lines if l.startswith("fd ")]
    if len(grads) != len(fds):
        return ["%d gradient lines but %d finite-difference lines" % (len(grads), len(fds))]
    for g_line, f_line in zip(grads, fds):
        g = [float(v) for v in NUM.findall(g_line[5:])]
        f = [float(v) for v in NUM.findall(f_line[3:])]
        if len(f) != 2 * (len(g) - 1) + 1 or not near(repr(f[0]), repr(g[0]), FD_REL, FD_ABS):
            errors.append("value or layout differs from the gradient's: %s / %s" % (g_line, f_line))
            continue
        f0 = f[0]
        for k in range(len(g) - 1):
            up, down = f[1 + 2 * k], f[2 + 2 * k]
            fwd, bwd, central = (up - f0) / FD_STEP, (f0 - down) / FD_STEP, (up - down) / (2 * FD_STEP)
            if not all(map(math.isfinite, (fwd, bwd, g[1 + k]))) or abs(fwd - bwd) > FD_KINK * (1 + abs(central)):
                counts["skipped"] = counts.get("skipped", 0) + 1
                continue
            counts["checked"] = counts.get("checked", 0) + 1
            if abs(central - g[1 + k]) > max(FD_ABS * (1 + abs(f0)), FD_REL * max(abs(central), abs(g[1 + k]))):
                errors.append("component %d: gradient %r, central difference %r" % (k, g[1 + k], central))
    return errors


def vmap_check(section):
    """The first `vmok` line (vmap against the rows one by one) that is not
    True, or None."""
    for line in section.splitlines():
        if line.startswith("vmok ") and line != "vmok True":
            return line
    return None


# --------------------------------------------------------------------------
# Feature programs (FeatureGen): the builtin and statement forms the other
# generators do not draw, one class of past bugs each (README, "Feature
# programs"). Chosen by a generator salted apart, so every other program is
# the one generated before them.
# --------------------------------------------------------------------------

FEATURE_SHARE = 0.2   # of the programs that are not gradient programs
AXIS_NONE_OPS = ["sort", "argsort", "sum", "mean", "max", "min", "prod", "argmax", "argmin",
                 "logsumexp", "var", "std", "median", "cumsum", "cumprod", "flip", "norm"]
FEATURE_NAMES = ["creation", "axes", "pow_lit", "sign0", "pysum", "many", "loops", "dtypes", "eager_grad",
                 "nested", "loop_grad", "pylang", "vmap", "builtin"]
FEATURES = None       # --features: a subset of FEATURE_NAMES
# Features whose programs fail today because of a known bug, each with the
# bug: left out of the feature programs (unless --features names them), and
# `--check-known` requires each of them still to make some program fail, so
# an entry is removed as soon as its fix lands (docs/testing.md).
KNOWN_FAILING_FEATURES = {
}
CHECK_KNOWN_PROGRAMS = 40   # per known-failing feature, with --check-known
BUILTIN_CASES = None  # the builtin matrix's cases (tests/matrix/cases.py), loaded by main()


def is_feature_program(seed, index):
    return (not is_grad_program(seed, index)
            and random.Random("tg-differential-feature:%s:%d" % (seed, index)).random() < FEATURE_SHARE)


def load_builtin_cases(tg, path=None):
    """The matrix's cases, from tg_gen_builtins beside TG (or PATH): the
    builtins the interpreter has, with their argument forms. None if absent."""
    gen = path or os.path.join(os.path.dirname(os.path.abspath(tg)), "tests", "tg_gen_builtins")
    if not os.path.exists(gen):
        return None
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "matrix"))
    import cases as matrix_cases
    from run_matrix import KNOWN_FAILURES
    out = []
    for c in matrix_cases.build(matrix_cases.load_info(gen)):
        if any(fnmatch.fnmatchcase(c.id + ":", p.split(":")[0] + ":") for p in KNOWN_FAILURES):
            continue   # a known bug (the matrix's list): found there until its fix lands
        if (c.ret and not c.seed and c.contexts is None and "_" not in c.call.split("(")[0]
                and all(dt in ("f32", "f64", "i32", "i64", "bool") for _, dt in c.operands)):
            out.append(c)
    return out


class FeatureGen:
    """A @graph function fNNNN(x, xd, xi, c...) whose body draws 2-4
    features: creation ops (`full`), `axis=None` and negative axes on
    sort/argsort and the reductions, `literal ** tensor` in f64, `sign` of
    -0.0, Python's sum/min/max over lists of tensors, ops with more than 64
    inputs, `for` over tensors and lists, comprehensions, dicts, closures,
    literals mixed with tensors of every dtype, list slice assignment and
    del, << and >>, nonlocal and global, *args and **kwargs with unpacking
    at call sites, sets, isinstance, vmap (bodies with control flow,
    in_axes, per-example gradients), grad of eager code with a
    loop over the differentiated tensor, nested grad (2-3 deep; rarely the
    error of three on a vector), grad through nested converted loops whose
    inner condition reads the differentiated value, and a call drawn from
    the builtin list
    (the operands `c0`, `c1`... are parameters)."""

    def __init__(self, seed, index):
        self.rng = random.Random("tg-differential-feature-body:%s:%d" % (seed, index))
        self.index = index
        self.name = "f%04d" % index
        self.pre = []      # top-level definitions before the function
        self.post = []     # top-level lines after the calls (eager code)
        self.case = None
        self.n = 0

    def pick(self, xs):
        return self.rng.choice(xs)

    def lit(self):
        return repr(self.rng.randint(-8, 8) / 4.0 + 0.0)

    def tmp(self):
        self.n += 1
        return "u%d" % self.n

    def creation(self):
        t = self.tmp()
        form = self.pick(["full((len(x),), %s)" % self.lit(), "full((2, len(x)), x)", "x + full((len(x),), 3.0)",
                          "full(len(x), 2, dtype=f64) * xd", "f32(full((len(x),), xi))",
                          "zeros_like(x) + ones((len(x),)) + arange(len(x)) + linspace(0.0, 1.0, len(x))",
                          "eye(len(x)) @ x", "full((), %s) + x" % self.lit(), "zeros((2, len(x)), dtype=i32)"])
        return ["%s = %s" % (t, form), "print(\"cr\", %s)" % t]

    def axes(self):
        m = self.tmp()
        lines = ["%s = reshape(concat([x, x * -2.0 + 0.5]), (2, -1))" % m]
        for op in self.rng.sample(AXIS_NONE_OPS, 3):
            ax = self.pick(["None", "None", "-1", "-2", "0"])
            if op == "norm" and ax in ("-2", "0"):
                ax = "None"
            kd = ", keepdims=True" if op not in ("sort", "argsort", "cumsum", "cumprod", "flip") and self.rng.random() < 0.3 else ""
            lines.append("print(\"ax\", %s(%s, axis=%s%s))" % (op, m, ax, kd))
        lines.append("print(\"ax\", %s)" % self.pick(["roll(%s, 1, axis=None)" % m, "repeat(%s, 2, axis=None)" % m,
                                                      "take(%s, tensor([3, 0]), axis=None)" % m, "any(%s > 0.5, axis=None)" % m,
                                                      "all(%s > -9.0, axis=-1)" % m]))
        return lines

    def pow_lit(self):
        base = self.pick(["2.5", "0.5", "3"])
        return ["print(\"pw\", %s ** xd, %s ** x)" % (base, base),
                "print(\"pw\", grad(lambda t: sum(%s ** t))(xd))" % base]

    def sign0(self):
        return ["print(\"sg\", sign(x * -0.0), sign(xd * 0.0 * -1.0), sign(tensor(-0.0)), sign(-0.0))"]

    def pysum(self):
        return [self.pick(["print(\"ps\", sum([x, x * 2.0, x - 1.0]))", "print(\"ps\", sum([xd, xd]), sum([1, 2, 3]))",
                           "print(\"ps\", sum([x[0], x[1]]), sum([x, x], x))",
                           "print(\"ps\", max([\"b\", \"c\", \"a\"]), min([\"b\", \"c\"]), max([1, 5, 2]), min(3, 1))",
                           "print(\"ps\", grad(lambda t: sum(sum([t, t * t])))(x))"])]

    def many(self):
        k = self.rng.randint(65, 80)
        return [self.pick(["print(\"mn\", sum(concat([x * i for i in range(%d)])))" % k,
                           "print(\"mn\", stack([x + i for i in range(%d)], axis=1)[0])" % k,
                           "print(\"mn\", grad(lambda t: sum(concat([t * i for i in range(%d)])))(x))" % k,
                           "print(\"mn\", grad(lambda t: sum(stack([t * i for i in range(%d)])))(xd))" % k])]

    def loops(self):
        t = self.tmp()
        form = self.rng.randint(0, 4)
        if form == 0:
            return ["%s = 0.0" % t, "for a in x:", "    %s = %s + a * 0.5" % (t, t), "print(\"lp\", %s)" % t]
        if form == 1:
            return ["%s = 0.0" % t, "for a in [x, x * 2.0, xd]:", "    %s = %s + sum(a)" % (t, t), "print(\"lp\", %s)" % t]
        if form == 2:
            return ["%s = [a * 2.0 for a in x]" % t, "print(\"lp\", stack(%s), [i * 2 for i in range(3)])" % t]
        if form == 3:
            return ["%s = {\"p\": x, \"q\": xd, \"r\": xi}" % t, "for k in %s:" % t,
                    "    print(\"lp\", k, %s[k] * 2)" % t, "print(\"lp\", {k: sum(v) for k, v in %s.items()})" % t]
        c = self.tmp()
        return ["%s = x[0] * 2.0" % c, "def %s(v):" % t, "    return v * %s + 1.0" % c,
                "print(\"lp\", %s(x), (lambda v: v - %s)(xd))" % (t, c)]

    def dtypes(self):
        return [self.pick(["print(\"dt\", xi + 1, xi * 2.5, xd + 1, xd * 0.5, x + 1, 1 - xi)",
                           "print(\"dt\", (xi > 0) & True, xi // 2, xi % 3, 2.0 / xd, i64(xi) + 3)",
                           "print(\"dt\", xb | False, xb & (xi > 0), where(xb, xd, 0.5), where(xb, 1, xi))",
                           "print(\"dt\", x + xd, xi + xd, x * xi, xb + 1, xb * 0.5, abs(-xi), ~xb)"])]

    def eager_grad(self):
        e = "e%04d" % self.index
        self.pre += ["def %s(xs):" % e, "    s = 0.0", "    for a in xs:", "        s = s + a * a", "    return sum(s)", ""]
        self.post.append("print(\"eg\", grad(%s)(tensor([%s, %s])))" % (e, self.lit(), self.lit()))
        return ["print(\"eg\", grad(%s)(x))" % e]

    def nested(self):
        if self.rng.random() < 0.1:
            return ["print(\"ng\", grad(grad(grad(lambda t: sum(tanh(t)))))(x))"]   # an error: not a scalar
        return [self.pick(["print(\"ng\", grad(grad(lambda t: tanh(t) * t))(x[0]))",
                           "print(\"ng\", grad(grad(grad(lambda t: sin(t) * t)))(xd[0]))",
                           "print(\"ng\", grad(lambda u: sum(grad(lambda t: sum(t * t * u))(x)))(x))"])]

    def loop_grad(self):
        # grad through converted loops nested in a converted loop, the inner
        # one's condition reading the differentiated value and its body
        # changing no tensor; its condition may be static for the first
        # iterations (traced as it runs, then converted: the trace goes back)
        e = "lg%04d" % self.index
        inner = self.pick(["sum(y) < %s and j < %d", "j < 2 or (mean(y) > %s and j < %d)", "y[0] < %s and j < %d"])
        inner = inner % (self.lit(), self.rng.randint(1, 4))
        self.pre += ["def %s(v):" % e, "    y = v * %s" % self.pick(["0.5", "1.5", "-1.0"]), "    i = 0",
                     "    while %s and i < %d:" % (self.pick(["sum(y) < 3.0", "mean(v) > -2.0", "y[-1] > -5.0"]),
                                                   self.rng.randint(1, 3)),
                     "        i += 1", "        j = 0", "        while %s:" % inner, "            j += 1",
                     "            " + self.pick(["pass", "y = y", "i = i"]),
                     "        y = %s" % self.pick(["y * 0.5 + v", "tanh(y)", "v", "y + v * v"]),
                     "    return sum(%s)" % self.pick(["tanh(y)", "y * y", "y * v"]), ""]
        self.post.append("print(\"lg\", grad(%s)(tensor([%s, %s], dtype=f64)))" % (e, self.lit(), self.lit()))
        return ["print(\"lg\", grad(%s)(xd))" % e]

    def pylang(self):
        # list slice assignment and del on a list of tensors, << and >> on
        # integer tensors and a nonlocal accumulator, in the traced body; a
        # `global` counter in eager code after the calls (docs/language.md "Lists", "Scopes");
        # then one or two of *args / **kwargs, sets and isinstance (pylang_more)
        return self.pylang_base() + [l for f in self.rng.sample(
            [self.star_args, self.sets, self.isinstance_forms], self.rng.randint(1, 2)) for l in f()]

    def star_args(self):
        # a helper taking *args, a keyword-only parameter and **kwargs, called
        # with unpacking (of a list, a dict, a traced tensor's rows) from the
        # traced body and with another count of arguments (docs/language.md "Calls")
        s = "sa%04d" % self.index
        self.pre += ["def %s(a, *rest, scale=1.0, **kw):" % s, "    out = a * scale", "    for r in rest:",
                     "        out = out + r", "    for k in sorted(kw):", "        out = out - kw[k] * 0.5",
                     "    return out, len(rest), sorted(kw)", ""]
        rest = self.rng.sample(["x * 2.0", "x + 1.0", "xd", "f32(xi)", "x[0]"], self.rng.randint(0, 3))
        kw = self.rng.sample(["'p': x", "'q': xd * 2.0", "'r': 1.5"], self.rng.randint(0, 2))
        call = "%s(x, *[%s], scale=%s, **{%s})" % (s, ", ".join(rest), self.lit(), ", ".join(kw))
        star = self.pick(["(lambda *t: len(t))(*x)", "(lambda *t, **k: t[0] * len(k))(*xd, a=1, b=2)",
                          "max(*[len(x), 2])", "%s(*(x, x), **{'z': xd})[0]" % s])
        return ["print('sa', %s)" % call, "print('sa', %s, %s(*[x]))" % (star, s)]

    def sets(self):
        # sets are static inside @graph: built from static ints and strings,
        # changed in a static loop, combined, and used to pick tensors (docs/language.md "Sets")
        t = self.tmp()
        a = sorted(self.rng.sample(range(6), self.rng.randint(1, 4)))
        op = self.pick(["|", "&", "-", "^"])
        return ["%s = {%s}" % (t, ", ".join(map(str, a))),
                "for i in range(len(x)):", "    %s.%s(i)" % (t, self.pick(["add", "discard"])),
                "%s = %s %s {%d, len(x)}" % (t, t, op, self.rng.randint(0, 5)),
                "print('st', %s, len(%s), sorted(%s, reverse=True), 1 in %s, {k %% 2 for k in %s} <= {0, 1})" % (t, t, t, t, t),
                "print('st', sum([x[i] for i in %s if i < len(x)]) + 0.0, x * len(%s | {'a'}))" % (t, t)]

    def isinstance_forms(self):
        # isinstance on traced tensors, numbers and containers: static answers (docs/language.md "Types")
        v = self.pick(["x", "x[0]", "xi[0]", "xb[0]", "xd.sum()", "[x]", "(x, xd)", "{\"k\": x}", "len(x)"])
        t = self.pick(["float", "int", "bool", "tensor", "(list, tuple)", "(int, float)", "dict"])
        return ["print('is', isinstance(%s, %s), x * 2.0 if isinstance(%s, %s) else xd)" % (v, t, v, t)]

    def pylang_base(self):
        t, h, g = self.tmp(), "acc%04d" % self.index, "gl%04d" % self.index
        a, b = sorted(self.rng.sample(range(5), 2))
        self.pre += ["n%04d = 0" % self.index, "def %s(k):" % g, "    global n%04d" % self.index,
                     "    n%04d += k" % self.index, "    return n%04d" % self.index, ""]
        self.post.append("print(\"gl\", %s(1), %s(%d), n%04d)" % (g, g, self.rng.randint(-3, 3), self.index))
        return ["%s = [x, x * 2.0, xd, x + 1.0]" % t,
                "%s[%d:%d] = [x * %s]" % (t, a, b, self.lit()),
                "del %s[%s]" % (t, self.pick(["0", "-1", "::2", "1:"])),
                "print(\"pl\", len(%s), [sum(v) for v in %s])" % (t, t),
                "print(\"pl\", xi << %d, xi >> %d, (xi * 3) >> (abs(xi) %% 3))" % (self.rng.randint(0, 3), self.rng.randint(0, 3)),
                "%s = x * 0.0" % h,
                "def add%04d(v):" % self.index, "    nonlocal %s" % h, "    %s = %s + v" % (h, h),
                "for v in %s:" % t, "    add%04d(v)" % self.index,
                "print(\"pl\", %s)" % h]

    def vmap(self):
        # vmap of a per-example function over the rows of a (2, L) tensor:
        # element-wise and reducing bodies, control flow on a batched
        # condition (both branches / until every row is done), in_axes with
        # a broadcast argument, and per-example gradients. Each is printed,
        # and checked against the rows computed one by one (a `vmok` line
        # that must say True in every mode: vmap_check)
        v, m = "vm%04d" % self.index, self.tmp()
        body = self.pick([["return sum(r * r) + r[0]"], ["return tanh(r) * 2.0 - r"], ["return cumsum(r) / (1.0 + r @ r)"],
                          ["return where(r > 0.0, r, -0.5 * r)"], ["return sort(r) - mean(r)"],
                          ["if sum(r) > 0.0:", "    return r * 2.0", "return r - 1.0"],
                          ["y = r", "k = 0", "while max(y) < 4.0 and k < 5:", "    y = y * 1.5 + 0.5", "    k += 1", "return y"],
                          ["s = 0.0", "for a in r:", "    s = s + a * a", "return s"],
                          # break / continue on a batched condition: each row leaves where its own does
                          ["y = r", "for i in range(6):", "    y = y * 0.75 + 1.0", "    if sum(y) > 3.0:", "        break",
                           "    y = y - 0.25", "return y"],
                          ["y = r", "t = 0.0", "while t < 4.0:", "    t = t + 1.0", "    if max(y) > t:",
                           "        continue", "    y = y + t", "return y"],
                          ["y = r", "k = 0.0", "while mean(y) < 3.0:", "    y = abs(y) * 1.5 + 0.5", "    k = k + 1.0",
                           "    if y[0] > 2.0:", "        break", "return y + k"]])
        self.pre += ["def %s(r, c):" % v, "    r = r + c"] + ["    " + l for l in body] + [""]
        lines = ["%s = reshape(concat([x, x * -2.0 + 0.5]), (2, -1))" % m, "c%s = %s" % (m, self.lit())]
        form = self.rng.randint(0, 2)
        if form == 0:
            call, one = "vmap(%s, in_axes=(0, None))(%s, c%s)" % (v, m, m), "%s(%s[%%d], c%s)" % (v, m, m)
        elif form == 1:
            call = "vmap(%s, in_axes=(1, None))(%s.T, c%s)" % (v, m, m)
            one = "%s(%s[%%d], c%s)" % (v, m, m)
        else:
            call = "vmap(grad(lambda r, c: sum(%s(r, c))))(%s, stack([c%s, c%s * 0.5]))" % (v, m, m, m)
            one = "grad(lambda r, c: sum(%s(r, c)))(%s[%%d], stack([c%s, c%s * 0.5])[%%d])" % (v, m, m, m)
        lines += ["%s_all = %s" % (m, call), "print(\"vm\", %s_all)" % m,
                  "print(\"vmok\", allclose(%s_all, stack([%s, %s]), rtol=1e-5, atol=1e-6))"
                  % (m, one.replace("%d", "0"), one.replace("%d", "1"))]
        return lines

    def builtin(self):
        if not BUILTIN_CASES:
            return self.loops()
        self.case = self.pick(BUILTIN_CASES)
        return ["print(\"bi\", %s)" % self.case.call.format(*["c%d" % i for i in range(len(self.case.operands))])]

    def program(self):
        feats = [self.creation, self.axes, self.pow_lit, self.sign0, self.pysum, self.many, self.loops,
                 self.dtypes, self.eager_grad, self.nested, self.loop_grad, self.pylang, self.vmap, self.builtin,
                 self.builtin]
        if FEATURES is not None:   # --features: only these (the draws change)
            feats = [f for f in feats if f.__name__ in FEATURES] or [self.loops]
        else:
            feats = [f for f in feats if f.__name__ not in KNOWN_FAILING_FEATURES]
        body = []
        for f in self.rng.sample(feats, min(len(feats), self.rng.randint(2, 4))):
            body += f()
        params = ["x", "xd", "xi", "xb"]
        if self.case:
            params += ["c%d" % i for i in range(len(self.case.operands))]
        lines = self.pre + ["@graph", "def %s(%s):" % (self.name, ", ".join(params))]
        lines += ["    " + l for l in body] + ["    return sum(x) + f32(sum(xd))"]
        L = self.rng.randint(2, 4)
        calls = []
        for k in range(3):
            if k == 2 and self.rng.random() < 0.5:
                L = self.rng.randint(2, 4)
            args = ["tensor([%s])" % ", ".join(self.lit() for _ in range(L)),
                    "tensor([%s], dtype=f64)" % ", ".join(self.lit() for _ in range(L)),
                    "tensor([%s], dtype=i32)" % ", ".join(str(self.rng.randint(-4, 5)) for _ in range(L)),
                    "tensor([%s])" % ", ".join(self.pick(["True", "False"]) for _ in range(L))]
            if self.case:
                args += ["tensor(%s, dtype=%s)" % o for o in self.case.operands]
            calls.append("print(%s(%s))" % (self.name, ", ".join(args)))
        return Program(self.index, self.name, "\n".join(lines) + "\n", "\n".join(calls + self.post) + "\n", True)


class Program:
    def __init__(self, index, name, fn, calls, reassoc, grad=False):
        self.index, self.name, self.fn, self.calls, self.reassoc = index, name, fn, calls, reassoc
        self.grad = grad    # a gradient program: its f64 gradients are checked against finite differences
        # Called with a float literal for a float parameter: where that weak value
        # meets a tensor in a converted `if` or loop, the graph carries it in the
        # tensor's dtype while eager keeps the weak value's double precision on
        # the literal's path (docs/graph.md "Weak literals merge like eager").
        self.weak_arg = False

    def text(self):
        return "%s\nprint(\"%s%s\")\n%s" % (self.fn, MARKER, self.name, self.calls)


def script_text(seed, progs):
    head = "# tg differential test (tests/differential/gen.py): seed %s, programs %d..%d\n\n" % (
        seed, progs[0].index, progs[-1].index)
    if any(p.grad for p in progs):
        head += FD_HELPER
    return head + "\n".join(p.text() for p in progs)


# --------------------------------------------------------------------------
# Running and comparing
# --------------------------------------------------------------------------

def run_tg(tg, flags, path, timeout):
    folder, name = os.path.split(path)
    try:
        p = subprocess.run([tg, "run"] + flags + [name], cwd=folder, capture_output=True, timeout=timeout)
        return p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), p.returncode
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        return out, "timeout after %d s\n" % timeout, "timeout"


def split_sections(out):
    """stdout -> (preamble, {name: text}, [names in order])."""
    pre, secs, order, cur = [], {}, [], None
    for line in out.splitlines(keepends=True):
        if line.startswith(MARKER):
            cur = line[len(MARKER):].strip()
            order.append(cur)
            secs[cur] = []
        elif cur is None:
            pre.append(line)
        else:
            secs[cur].append(line)
    return "".join(pre), {k: "".join(v) for k, v in secs.items()}, order


NUM = re.compile(r"-?(?:\d+\.\d*(?:e[+-]?\d+)?|\d+e[+-]?\d+|inf|nan)")


# f32 rounding, compounded over a chain of operations: the difference allowed
# where a weak literal merges with an f32 tensor (Program.weak_arg).
WEAK_REL = 1e-6


def near(a, b, rel=1e-4, abs_=1e-6):
    """Equal up to float tolerance (same text between the numbers)."""
    if NUM.sub("#", a) != NUM.sub("#", b):
        return False
    for x, y in zip(NUM.findall(a), NUM.findall(b)):
        if x == y:
            continue
        try:
            fx, fy = float(x), float(y)
        except ValueError:
            return False
        if abs(fx - fy) > max(abs_, rel * max(abs(fx), abs(fy))):
            return False
    return True


class Result:
    def __init__(self):
        self.functions = 0      # functions compared
        self.errors = []        # (program, stderr) functions that raised an error (same in all modes)
        self.failures = []      # text blocks
        self.warnings = []
        self.summaries = []     # one line per mismatching function
        self.processes = 0
        self.grads = 0          # gradient programs compared
        self.fd = {}            # gradient components checked / skipped against finite differences


def check_chunk(args, seed, progs, workdir, keep):
    tg, modes, timeout, strict = args.tg, args.modes, args.timeout, args.strict
    res = Result()
    part = 0
    timeouts = 0
    while progs:
        part += 1
        path = os.path.join(workdir, "diff_s%s_%04d_%d.tg" % (seed, progs[0].index, part))
        text = script_text(seed, progs)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        outs = {}
        for m in modes:
            outs[m] = run_tg(tg, MODES[m], path, timeout)
            res.processes += 1
        parsed = {m: split_sections(o[0]) for m, o in outs.items()}
        pre = {m: parsed[m][0] for m in modes}
        failed_here = False
        if len(set(pre.values())) > 1 or any(pre.values()):
            res.failures.append(report(seed, None, {m: (pre[m], "", "") for m in modes}, path, keep, progs))
            failed_here = True
        rest = []
        for k, p in enumerate(progs):
            outcome = {}
            stopped = False
            for m in modes:
                _, secs, order = parsed[m]
                out, err, rc = outs[m]
                last = order[-1] if order else None
                if p.name not in secs:
                    outcome[m] = ("<not reached>\n", "", "")
                    continue
                if p.name == last:
                    outcome[m] = (secs[p.name], err, rc)
                    stopped = stopped or rc != 0
                else:
                    outcome[m] = (secs[p.name], "", 0)
            if all(o[0] == "<not reached>\n" for o in outcome.values()):
                # No mode ran it: the script failed before (a syntax error?).
                o = outs.get("eager", next(iter(outs.values())))
                res.failures.append("SCRIPT FAILED: seed %s, %s: no mode reached %s (program %d); "
                                    "exit %s, stderr:\n%s" % (seed, os.path.join(keep, os.path.basename(path)),
                                                              p.name, p.index, o[2], o[1]))
                save(path, keep)
                # a crash loses the output still buffered: go on after this function
                failed_here = True
                rest = progs[k + 1:]
                break
            res.functions += 1
            vals = list(outcome.values())
            if any(v != vals[0] for v in vals):
                ref = outcome.get("eager", vals[0])
                if (not strict and p.reassoc and all(v[1:] == ref[1:] and near(v[0], ref[0]) for v in vals)):
                    res.warnings.append("%s (program %d): outputs differ within float tolerance "
                                        "(reduction order)" % (p.name, p.index))
                elif (not strict and p.weak_arg
                      and all(v[1:] == ref[1:] and near(v[0], ref[0], WEAK_REL, 0.0) for v in vals)):
                    res.warnings.append("%s (program %d): outputs differ within f32 rounding "
                                        "(a weak literal argument merged with a tensor)" % (p.name, p.index))
                else:
                    res.failures.append(report(seed, p, outcome, path, keep, progs))
                    res.summaries.append(summary(p, outcome))
                    failed_here = True
            elif stopped:
                res.errors.append((p, vals[0][1]))
            if not stopped:
                for m in modes:
                    bad = vmap_check(outcome[m][0])
                    if bad:
                        res.failures.append("VMAP: seed %s, %s (program %d), mode %s: %s\n%s"
                                            % (seed, p.name, p.index, m, bad, p.fn))
                        res.summaries.append("%s (program %d): %s: vmap != the rows one by one" % (p.name, p.index, m))
                        failed_here = True
                        break
            if p.grad and not stopped:
                res.grads += 1
                for m in modes:
                    bad = fd_check(outcome[m][0], res.fd)
                    if bad:
                        res.failures.append("FINITE DIFFERENCES: seed %s, %s (program %d), mode %s:\n  %s\n%s"
                                            % (seed, p.name, p.index, m, "\n  ".join(bad), p.fn))
                        res.summaries.append("%s (program %d): %s: gradient != finite differences"
                                             % (p.name, p.index, m))
                        failed_here = True
                        break
            if stopped or any(o[0] == "<not reached>\n" for o in outcome.values()):
                rest = progs[k + 1:]
                break
        if failed_here:
            save(path, keep)
        timeouts += sum(1 for o in outs.values() if o[2] == "timeout")
        if rest and (timeouts >= MAX_TIMEOUTS or len(res.failures) >= args.max_failures):
            res.failures.append("STOPPED: seed %s, script %s: %d timeouts, %d mismatches; %d functions "
                                "(from %s) not compared" % (seed, os.path.basename(path), timeouts,
                                                            len(res.failures), len(rest), rest[0].name))
            break
        progs = rest
    return res


def summary(prog, outcome):
    """One line: the function and how the first differing mode differs from eager."""
    ref = outcome.get("eager", next(iter(outcome.values())))
    for m, o in outcome.items():
        if o != ref:
            err = [l for l in o[1].splitlines() if "error" in l]
            what = err[0] if err else ("exit %s, stdout differs" % o[2] if o[0] != ref[0] else
                                       "stderr differs: %s" % (o[1].splitlines() or [""])[0])
            what = re.sub(r"^\S+\.tg:\d+:\d+: ", "", what)
            return "mismatch: %s (program %d), %s: %s" % (prog.name, prog.index, m, what)
    return "mismatch: %s (program %d)" % (prog.name, prog.index)


def save(path, keep):
    os.makedirs(keep, exist_ok=True)
    dst = os.path.join(keep, os.path.basename(path))
    shutil.copyfile(path, dst)
    return dst


def report(seed, prog, outcome, path, keep, progs):
    lines = []
    name = prog.name if prog else "<before the first function>"
    saved = os.path.join(keep, os.path.basename(path))
    lines.append("MISMATCH: seed %s, function %s%s" % (
        seed, name, " (program %d)" % prog.index if prog else ""))
    lines.append("  script: %s" % saved)
    if prog:
        os.makedirs(keep, exist_ok=True)
        one = os.path.join(keep, "diff_s%s_%s.tg" % (seed, prog.name))
        with open(one, "w", encoding="utf-8") as f:
            f.write(script_text(seed, [prog]))
        lines.append("  alone:  %s   (or: gen.py TG --seed %s --only %d)" % (one, seed, prog.index))
    modes = list(outcome)
    ref = "eager" if "eager" in outcome else modes[0]
    for m in modes:
        if m == ref or outcome[m] == outcome[ref]:
            continue
        a = "stdout:\n%sstderr:\n%sexit: %s\n" % outcome[ref]
        b = "stdout:\n%sstderr:\n%sexit: %s\n" % outcome[m]
        diff = difflib.unified_diff(a.splitlines(True), b.splitlines(True), "--eager" if ref == "eager" else ref,
                                    m if m != "written" else "as written", n=3)
        d = "".join(diff)
        if len(d) > 6000:
            d = d[:6000] + "\n... (diff truncated)\n"
        lines.append(d.rstrip("\n"))
    if prog:
        lines.append("  source:")
        lines += ["    " + l for l in prog.fn.rstrip("\n").splitlines()]
        lines += ["    " + l for l in prog.calls.rstrip("\n").splitlines()]
    return "\n".join(lines)


def parse_args(argv):
    class A:
        pass
    a = A()
    a.tg, a.seed, a.programs, a.keep, a.per_file, a.jobs = None, str(DEFAULT_SEED), DEFAULT_PROGRAMS, None, 100, 2
    a.only, a.emit, a.strict, a.timeout = None, False, False, 60
    a.max_failures = MAX_FAILURES
    a.features, a.builtins, a.check_known = True, None, False
    a.modes = ["written", "eager", "nojit", "sync"]
    it = iter(argv)
    for x in it:
        if x in ("-h", "--help"):
            print(__doc__)
            sys.exit(0)
        elif x == "--seed":
            a.seed = next(it)
        elif x == "--programs":
            a.programs = int(next(it))
        elif x == "--long":
            a.programs = LONG_PROGRAMS
        elif x == "--keep":
            a.keep = next(it)
        elif x == "--per-file":
            a.per_file = max(1, int(next(it)))
        elif x == "--jobs":
            a.jobs = max(1, int(next(it)))
        elif x == "--only":
            a.only = int(next(it))
        elif x == "--emit":
            a.emit = True
        elif x == "--strict":
            a.strict = True
        elif x == "--timeout":
            a.timeout = int(next(it))
        elif x == "--no-static":
            global NO_STATIC
            NO_STATIC = True
        elif x == "--no-features":
            a.features = False
        elif x == "--check-known":
            a.check_known = True
        elif x == "--feature-share":
            global FEATURE_SHARE
            FEATURE_SHARE = float(next(it))
        elif x == "--features":
            global FEATURES
            FEATURES = next(it).split(",")
            for f in FEATURES:
                if f not in FEATURE_NAMES:
                    sys.exit("gen.py: unknown feature %r (known: %s)" % (f, ",".join(FEATURE_NAMES)))
        elif x == "--builtins":
            a.builtins = next(it)
        elif x == "--keep-going":
            a.max_failures = 1 << 30
        elif x == "--eager-only":
            a.modes = ["eager"]
        elif x == "--modes":
            a.modes = next(it).split(",")
            for m in a.modes:
                if m not in MODES:
                    sys.exit("gen.py: unknown mode %r (use written, eager, nojit)" % m)
        elif x.startswith("-"):
            sys.exit("gen.py: unknown option %s\n%s" % (x, __doc__))
        elif a.tg is None:
            a.tg = x
        else:
            sys.exit("gen.py: unexpected argument %s" % x)
    if a.tg is None and not a.emit:
        sys.exit(__doc__)
    return a


def check_known(args):
    """Each feature of KNOWN_FAILING_FEATURES alone, CHECK_KNOWN_PROGRAMS
    feature programs: each must still make some program fail."""
    stale = []
    for feature, bug in KNOWN_FAILING_FEATURES.items():
        cmd = [sys.executable, os.path.abspath(__file__), args.tg, "--seed", args.seed,
               "--programs", str(CHECK_KNOWN_PROGRAMS), "--jobs", str(args.jobs), "--feature-share", "1",
               "--features", feature, "--keep", os.path.join(args.keep or tempfile.gettempdir(), "known_" + feature)]
        p = subprocess.run(cmd, capture_output=True, text=True)
        summary = re.search(r"^differential: seed .*?(\d+) failures", p.stdout, re.M)
        last = (p.stdout.strip().splitlines() or [""])[-1] + p.stderr[-500:]
        fails = p.returncode == 1 and summary is not None and int(summary.group(1)) > 0
        print("known failure %s (%s): %s" % (feature, bug, "still fails" if fails else "NOW PASSES"))
        if not fails:
            stale.append(feature)
            print("    " + last)
    if stale:
        print("gen.py: remove %s from KNOWN_FAILING_FEATURES: no program fails any more" % ", ".join(stale))
        return 1
    return 0


def main(argv):
    args = parse_args(argv)
    if args.check_known:
        return check_known(args)
    indices = [args.only] if args.only is not None else list(range(args.programs))
    global BUILTIN_CASES
    if args.features:
        BUILTIN_CASES = load_builtin_cases(args.tg or "", args.builtins)
        if BUILTIN_CASES is None and not args.emit:
            print("gen.py: no tg_gen_builtins beside %s (or --builtins): feature programs call no "
                  "builtin drawn from the list" % args.tg)
    progs = [(GradGen(args.seed, i) if is_grad_program(args.seed, i)
              else FeatureGen(args.seed, i) if args.features and is_feature_program(args.seed, i)
              else Gen(args.seed, i)).program() for i in indices]
    chunks = [progs[i:i + args.per_file] for i in range(0, len(progs), args.per_file)]
    if args.emit:
        for c in chunks:
            sys.stdout.write(script_text(args.seed, c))
        return 0
    args.tg = os.path.abspath(args.tg)
    if not os.path.exists(args.tg):
        print("gen.py: %s does not exist" % args.tg)
        return 1
    keep = os.path.abspath(args.keep or os.path.join(os.path.dirname(args.tg), "temp", "differential"))
    t0 = time.time()
    total = Result()
    with tempfile.TemporaryDirectory(prefix="tg_differential_") as work:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futs = [pool.submit(check_chunk, args, args.seed, c, work, keep) for c in chunks]
            for fu in futs:
                r = fu.result()
                total.functions += r.functions
                total.errors += r.errors
                total.failures += r.failures
                total.warnings += r.warnings
                total.summaries += r.summaries
                total.processes += r.processes
                total.grads += r.grads
                for k, v in r.fd.items():
                    total.fd[k] = total.fd.get(k, 0) + v
    dt = time.time() - t0
    for f in total.failures[:20]:
        print(f)
        print()
    if len(total.failures) > 20:
        print("... and %d more mismatches" % (len(total.failures) - 20))
    if len(total.failures) > 1:
        for l in sorted(total.summaries):
            print(l)
    for w in total.warnings[:10]:
        print("warning:", w)
    if args.modes == ["eager"] or os.environ.get("TG_DIFF_VERBOSE"):
        for p, err in total.errors:
            first = err.splitlines()[0] if err else "(no message)"
            print("error in %s (program %d): %s" % (p.name, p.index, first))
    n = len(progs)
    print("differential: seed %s, %d programs, %d compared, %d raised an error (%.1f%%), "
          "%d failures, %d near-matches; modes %s; %d tg processes, %.1f s"
          % (args.seed, n, total.functions, len(total.errors), 100.0 * len(total.errors) / max(n, 1),
             len(total.failures), len(total.warnings), ",".join(args.modes), total.processes, dt))
    if total.grads:
        print("differential: %d gradient programs; %d gradient components agree with central finite differences, "
              "%d skipped (a kink or branch switch within +-%g)"
              % (total.grads, total.fd.get("checked", 0), total.fd.get("skipped", 0), FD_STEP))
    if total.failures:
        print("failing scripts saved under %s" % keep)
        return 1
    if total.functions < n:
        print("differential: only %d of %d functions were compared" % (total.functions, n))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
