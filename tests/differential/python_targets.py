#!/usr/bin/env python3
"""Seeded differential test of statement targets against CPython.

usage: python_targets.py TG_BINARY [--seed S] [--programs N] [--keep DIR] [--emit]

The bug class: a statement that changes an item (`xs[i] = v`, `xs[i] += v`,
`del xs[i]`, `d[k].append(v)`, slices, several levels deep) while its
indices, its right side or its arguments run code: the code must run once
each, in Python's order, and nothing it does (assigning a variable through
`global`) may leave the statement pointing at storage that moved. Reads
too: `xs[f()]` and `x + f()` read the variable before the call. (A
target whose own index assigns its variable, `xs[fresh_xs()] += 1`, is
left out: tg looks the item up in the new value, Python changes the old
one; docs/language.md says why.)

Each program is Python and tg at once: lists and dicts of ints, an index
function `k(x)` that logs its argument through `global`, and functions that
assign a variable the statement reads (`global` again). A program CPython
rejects (an index out of range after the random changes) is dropped; the
others must print exactly what CPython prints (docs/language.md "Order of
evaluation"). On a mismatch the script is saved under --keep and the run
exits 1.
"""
import sys

import against_cpython

PRELUDE = '''log = ""


def k(x):
    global log
    log += str(x) + " "
    return x


def fresh_xs():
    global xs
    xs = [7, 8, 9, 10, 11]
    return 1


def fresh_n():
    global n
    n = 100
    return 2


def walk(m):
    c = 0
    for key in m:
        c += 1
    return c % 3


xs = [1, 2, 3, 4, 5]
grid = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
d = {"a": [1, 2], "b": {"x": 1, "y": 2}, "c": 5}
big = {}
for i in range(12):
    big[i] = [i]
n = 3
t = 0
'''


class Gen:
    def __init__(self, rng):
        self.r = rng

    def small(self):
        return self.r.randint(-3, 2)

    def idx(self):
        """An index into a list of length >= 3 (xs, grid rows)."""
        c = self.r.random()
        if c < 0.5:
            return "k(%d)" % self.small()
        if c < 0.7:
            return "%d" % self.small()
        if c < 0.85:
            return "k(%d) %% 3" % self.r.randint(0, 9)
        return "n % 3"

    def value(self):
        c = self.r.random()
        if c < 0.4:
            return "k(%d)" % self.r.randint(0, 9)
        if c < 0.6:
            return str(self.r.randint(0, 9))
        if c < 0.75:
            return "xs[%s]" % self.idx()
        if c < 0.85:
            return "n + k(%d)" % self.r.randint(0, 9)
        return "len(xs) + k(1)"

    def statement(self):
        r = self.r
        op = r.choice(["+=", "-=", "*="])
        forms = [
            lambda: "xs[%s] = %s" % (self.idx(), self.value()),
            lambda: "xs[%s] %s %s" % (self.idx(), op, self.value()),
            lambda: "grid[%s][%s] = %s" % (self.idx(), self.idx(), self.value()),
            lambda: "grid[%s][%s] %s %s" % (self.idx(), self.idx(), op, self.value()),
            lambda: 'd[k("a")][%s] %s %s' % (r.choice(["0", "1", "k(0)", "k(-1)"]), op, self.value()),
            lambda: 'd[k("b")][k("%s")] %s %s' % (r.choice("xy"), op, self.value()),
            lambda: 'd[k("b")][k("z%d")] = %s' % (r.randint(0, 3), self.value()),
            lambda: 'd[k("a")].append(%s)' % self.value(),
            lambda: "grid[%s].append(%s)" % (self.idx(), self.value()),
            lambda: "grid[%s].insert(%s, %s)" % (self.idx(), self.idx(), self.value()),
            lambda: 'd[k("b")].setdefault(k("s%d"), %s)' % (r.randint(0, 2), self.value()),
            lambda: 'd[k("b")].update({"u": %s})' % self.value(),
            lambda: 'd[k("b")].pop(k("z%d"), None)' % r.randint(0, 3),
            lambda: "grid[%s] += [%s]" % (self.idx(), self.value()),
            lambda: "grid[%s][k(0):k(2)] = [%s]" % (self.idx(), self.value()),
            lambda: "del grid[%s][%s]" % (self.idx(), self.idx()),
            lambda: "xs[%s], xs[%s] = xs[%s], xs[%s]" % (self.idx(), self.idx(), self.idx(), self.idx()),
            # reads of a variable that the call on the right assigns
            lambda: "t = xs[fresh_xs()]",
            lambda: "t = n + fresh_n()",
            lambda: "t = n * k(2) + fresh_n()",
            lambda: "t = xs[fresh_xs()] + xs[k(0)]",
            # a dict of more than 8 keys with holes left by pop/del, read
            # whole (walk) by the index of a statement that changes it
            lambda: "big.pop(k(%d), None)" % r.randint(0, 13),
            lambda: "big[k(%d)] = [%s]" % (r.randint(0, 13), self.value()),
            lambda: "big[walk(big)] = [k(%d)]" % r.randint(0, 9),
            lambda: "big[%d][walk(big) %% 1] += walk(big)" % r.randint(0, 2),
            lambda: 'd[k("b")][k("x")] = walk(d) + walk(big)',
            lambda: "grid[walk(big)][walk(d)] += walk(big)",
            lambda: "t = len(big) + walk(big)",
            lambda: "print(xs, grid, d, n, t, log)",
        ]
        return r.choice(forms)()

    def program(self):
        body = [self.statement() for _ in range(self.r.randint(3, 12))]
        return PRELUDE + "\n".join(body) + "\nprint(xs, grid, d, n, t, log)\nprint(big)\n"


def check_dropped(ran, dropped, programs):
    if ran < programs // 2:
        sys.exit("too few valid programs: the generator drifted")


if __name__ == "__main__":
    against_cpython.main("python_targets", lambda rng: Gen(rng).program(), check_dropped)
