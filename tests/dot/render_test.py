#!/usr/bin/env python3
"""DOT that people can read (docs/repl.md `:graph NAME dot`, `--dump-graphs`,
`g.dot()`): dumps the graphs of readable.tg, checks the labels a reader
needs, and renders every graph with Graphviz (`dot -Tsvg`), which must
accept it.

usage: render_test.py TG_BINARY
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    tg = sys.argv[1]
    dot = shutil.which("dot")
    if not dot:
        print("Graphviz `dot` is not installed (scripts/install-deps installs it)")
        return 1
    failures = []
    with tempfile.TemporaryDirectory(prefix="tg-dot-") as tmp:
        p = subprocess.run([tg, "run", "--dump-graphs", tmp, "readable.tg"], cwd=HERE, capture_output=True, text=True)
        if p.returncode != 0:
            print(p.stdout, p.stderr)
            return 1
        files = sorted(f for f in os.listdir(tmp) if f.endswith(".dot"))
        if not files:
            print("no graphs were dumped")
            return 1
        text = open(os.path.join(tmp, "train.1.dot")).read()
        expected = [
            (r'label="while at readable\.tg:7: body"', "a loop's cluster names the construct and its line"),
            (r'label="if at readable\.tg:11: then"', "a branch's cluster names the construct and its line"),
            (r'label="x\\nf32\[2\]"', "a region argument is named after the variable it carries"),
            (r'label="loss\\nf32\[\]"', "a region argument is named after the variable it carries"),
            (r'print \\"loss is \{\}\\"', "a print node shows its text"),
            (r'assert \\"assertion failed: loss must not be negative\\"', "an assert node shows its message"),
            (r'tooltip="readable\.tg:14: return x / \(loss \+ 1\)"', "a node's tooltip is its source line"),
            (r'-> n\d+ \[label="1"\]', "operands of a non-commutative op are numbered"),
        ]
        for pattern, what in expected:
            if not re.search(pattern, text):
                failures.append(f"{what}: no match for {pattern}")
        if re.search(r'label="arg \d+', text):
            failures.append("a region argument is still called `arg N`")
        for f in files:
            r = subprocess.run([dot, "-Tsvg", os.path.join(tmp, f)], capture_output=True, text=True)
            if r.returncode != 0 or "<svg" not in r.stdout or r.stderr.strip():
                failures.append(f"dot -Tsvg {f}: exit {r.returncode}: {r.stderr.strip()}")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(files)} graphs rendered, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
