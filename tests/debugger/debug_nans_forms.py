#!/usr/bin/env python3
"""--debug-nans must see every arithmetic operation, whatever path computes it.

The interpreter computes arithmetic on plain numbers by several fast paths
(the tree walker's eval_binary, the resolver's scalar programs, body code's
instructions in a function, `x op= v` in place, list items in place), and
each must give way to the checked path under --debug-nans (docs/debugging.md
"NaN hunting"). Two of them did not (a number times a number or a literal at
the top level, and any arithmetic on two variables in a function).

This generates one script per operator x statement form x place (top level
or a function body), each of whose only overflowing operation is marked, and
checks that `tg run --debug-nans` stops there — in every mode (as written,
--eager, --no-jit) — with the error at the operator's line and column.

  debug_nans_forms.py TG
"""
import os
import subprocess
import sys
import tempfile

# An f64 operand that overflows to inf (or, for `/`, a zero divisor) with
# the other, and the operator's column is found from the marked text.
OPERATORS = {
    "*": ("f64(1e300)", "f64(1e300)"),
    "+": ("f64(1.7e308)", "f64(1.7e308)"),
    "-": ("f64(1.7e308)", "f64(-1.7e308)"),
    "/": ("f64(1.0)", "f64(0.0)"),
    "**": ("f64(1e300)", "f64(2.0)"),
}

# How the operation appears: a statement with `{a}` and `{b}` the operands'
# variables and `{op}` the operator, after the setup lines.
FORMS = {
    "assign": ["z = {a} {op} {b}"],
    "assign_literal": ["z = {a} {op} {lit}"],
    "print": ["print({a} {op} {b})"],
    "nested": ["z = ({a} {op} {b}) + 1"],
    "return": ["return {a} {op} {b}"],
    "augmented": ["z = {a}", "z {op}= {b}"],
    "item": ["xs = [{a}]", "xs[0] = xs[0] {op} {b}"],
    "item_augmented": ["xs = [{a}]", "xs[0] {op}= {b}"],
    "condition": ["if {a} {op} {b} > 0:", "    z = 1"],
    "call_argument": ["z = abs({a} {op} {b})"],
    "loop": ["for i in range(2):", "    z = {a} {op} {b}"],
}

# A literal right operand that overflows in the operator's own way (a float literal is f32: below 3.4e38).
LITERALS = {"*": "1e30", "+": "1e30", "-": "-1e30", "/": "0.0", "**": "2.0"}


def script(op, form, place):
    a_val, b_val = OPERATORS[op]
    if form == "assign_literal" and op in ("+", "-"):
        return None  # (1.7e308 + 1e30 is not an overflow: nothing to find)
    lines = FORMS[form]
    if form == "return" and place == "top":
        return None
    text = [l.format(a="a", b="b", op=op, lit=LITERALS[op]) for l in lines]
    # the marked operation: the last line holding the operator between its operands
    marked = max(i for i, l in enumerate(text) if f" {op} " in l or f"{op}=" in l)
    if place == "top":
        body = [f"a = {a_val}", f"b = {b_val}"] + text + ["print('not reached')"]
        first = 3
    else:
        body = ["def f(a, b):"] + ["    " + l for l in text] + ["    return 0", "",
                                                               f"print(f({a_val}, {b_val}))", "print('not reached')"]
        first = 2
        text = ["    " + l for l in text]
    line = first + marked
    at = text[marked].find(f" {op} ")  # `a op b`: the operator after the space; else `z op= b`
    col = at + 2 if at >= 0 else text[marked].index(f"{op}=") + 1
    return "\n".join(body) + "\n", line, col


def main():
    tg = os.path.abspath(sys.argv[1])
    failed = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for op in OPERATORS:
            for form in FORMS:
                for place in ("top", "function"):
                    made = script(op, form, place)
                    if not made:
                        continue
                    text, line, col = made
                    path = os.path.join(tmp, f"{form}_{place}.tg")
                    with open(path, "w") as f:
                        f.write(text)
                    for mode in ([], ["--eager"], ["--no-jit"]):
                        total += 1
                        p = subprocess.run([tg, "run", *mode, "--debug-nans", path], capture_output=True, text=True,
                                           timeout=60)
                        want = f"{os.path.basename(path)}:{line}:{col}: error: --debug-nans:"
                        if p.returncode != 1 or want not in p.stderr or "not reached" in p.stdout:
                            failed += 1
                            print(f"FAIL {op!r} {form} {place} {' '.join(mode) or 'as written'}: want {want}\n"
                                  f"--- script\n{text}--- stdout\n{p.stdout}--- stderr\n{p.stderr}")
    print(f"{total} runs, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
