#!/usr/bin/env python3
"""Which shared libraries a program makes tg load (docs/performance.md
"Start-up"): OpenBLAS is loaded ahead of need when a program names one of
the builtins that call it (matmul, solve, inv, ...), and not when a
program's own function has such a name (nqueens' `solve` loaded it, and
its idle threads then took CPU from the program on a 2-core machine).

Each script runs long enough (a loop of ~50 ms) for a prefetch to finish;
glibc's LD_DEBUG=files lists every library the process loads.

usage: library_loads_test.py TG_BINARY
"""
import os
import subprocess
import sys
import tempfile

LOOP = "t = 0\nfor i in range(300000):\n    t += i % 7\n"

CASES = [
    # (what, script, loads OpenBLAS)
    ("a program's own function named solve",
     "def solve(n):\n    return n * 2\n\n\ndef main():\n    return solve(3)\n\n\n" + LOOP + "print(main())\n", False),
    ("its own solve, called before it is defined",
     "def main():\n    return solve(3)\n\n\ndef solve(n):\n    return n * 2\n\n\n" + LOOP + "print(main())\n", False),
    ("its own variable named inv", "inv = 3\n" + LOOP + "print(inv)\n", False),
    ("no linear algebra at all", LOOP + "print(t)\n", False),
    ("the builtin solve", "x = eye(2)\n" + LOOP + "print(solve(x, ones((2,))))\n", True),
    ("the builtin matmul inside a function", "def f(a):\n    return matmul(a, a)\n\n\n" + LOOP + "print(f(eye(2)))\n", True),
]


def loads_openblas(tg, text, tmp):
    path = os.path.join(tmp, "prog.tg")
    with open(path, "w") as f:
        f.write(text)
    env = dict(os.environ, LD_DEBUG="files")
    r = subprocess.run([tg, "run", "--eager", path], capture_output=True, text=True, env=env, timeout=60)
    if r.returncode != 0:
        sys.exit("failed to run:\n" + text + "\n" + r.stderr[-2000:])
    return "libopenblas" in r.stderr


def main():
    tg = sys.argv[1]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for what, text, expected in CASES:
            got = loads_openblas(tg, text, tmp)
            ok = got == expected
            failures += not ok
            print("%s %s: OpenBLAS %sloaded" % ("ok  " if ok else "FAIL", what, "" if got else "not "))
    sys.exit(1 if failures else 0)


main()
