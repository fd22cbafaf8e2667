#!/usr/bin/env python3
"""A crash of tg itself is reported, not silent (docs/embedding.md "Crashes").

usage: fault_test.py TG_FAULT_CLI

TG_FAULT_CLI is the tg command built with the host function
`_fault_for_tests(kind)`, which crashes the process on purpose ("segv": an
invalid memory access, "abort": std::abort) — tg's own code failing while tg
code runs. For a script and for the REPL: what the program printed before is
on stdout (a file here: fully buffered, lost unless flushed); stderr names
the tg line that was running (file:line:col, the line, a caret), the tg
traceback innermost first, and says this is a bug in tg; the process dies of
the signal (exit status 128 + the signal in a shell).
"""
import os
import re
import signal
import subprocess
import sys
import tempfile

SCRIPT = """print("before 1")

def inner(n):
    print("in inner", n)
    _fault_for_tests(KIND)
    return n

def outer(n):
    return inner(n + 1)

print("before 2")
outer(1)
print("never printed")
"""

failures = []


def check(name, cond, detail):
    if not cond:
        failures.append(f"{name}: {detail}")


def run(cmd, stdin_text, name):
    """Runs cmd with stdout and stderr into files (not pipes: the test is
    that buffered output is flushed); returns (signal, stdout, stderr)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        p = subprocess.run(cmd, input=stdin_text, stdout=out, stderr=err, text=True, timeout=120,
                           preexec_fn=lambda: __import__("resource").setrlimit(
                               __import__("resource").RLIMIT_CORE, (0, 0)))
        out.seek(0)
        err.seek(0)
        return -p.returncode if p.returncode < 0 else 0, p.returncode, out.read(), err.read()


def check_report(name, sig, returncode, out, err, expect_sig, file_re, expect_out):
    check(name, sig == expect_sig, f"died of signal {sig} (exit status {returncode}), expected {expect_sig}\n{err}")
    check(name, out == expect_out, f"stdout {out!r}, expected {expect_out!r}")
    sig_name = signal.Signals(expect_sig).name
    lines = err.splitlines()
    head = [i for i, l in enumerate(lines) if f"fatal error: {sig_name}" in l]
    check(name, head, f"no 'fatal error: {sig_name}' line in stderr:\n{err}")
    if not head:
        return
    i = head[0]
    check(name, re.match(file_re + r":5:5: fatal error: " + sig_name + r" \(.*\) while running this line$", lines[i]),
          f"the location line is {lines[i]!r}")
    check(name, i + 2 < len(lines) and re.fullmatch(r"\s+5 \|     _fault_for_tests\(KIND\)", lines[i + 1]),
          f"the source line is missing:\n{err}")
    check(name, i + 2 < len(lines) and lines[i + 2] == "      |     ^", f"the caret is missing:\n{err}")
    trace = [l for l in lines if l.startswith("  in ")]
    expected = [r"  in inner \(" + file_re + r":5:5\)", r"  in outer \(" + file_re + r":9:12\)",
                r"  in <module> \(" + file_re + r":12:1\)"]
    check(name, len(trace) == 3 and all(re.fullmatch(e, t) for e, t in zip(expected, trace)),
          f"the traceback is {trace}, expected {expected}")
    check(name, any("This is a bug in tg" in l and "report it" in l for l in lines),
          f"no 'This is a bug in tg' line:\n{err}")


def main():
    tg = sys.argv[1]
    env_cache = os.environ.copy()
    with tempfile.TemporaryDirectory() as d:
        for kind, sig in (("segv", signal.SIGSEGV), ("abort", signal.SIGABRT)):
            path = os.path.join(d, f"fault_{kind}.tg")
            with open(path, "w") as f:
                f.write(SCRIPT.replace("KIND", f'"{kind}"'))
            s, rc, out, err = run([tg, "run", path], None, f"run {kind}")
            err = err.replace(f'"{kind}"', "KIND")
            check_report(f"run {kind}", s, rc, out, err, sig, re.escape(path),
                         "before 1\nbefore 2\nin inner 2\n")
        # The REPL (stdin not a terminal: one input per line, blank line ends a block)
        session = SCRIPT.replace("KIND", '"segv"')
        s, rc, out, err = run([tg, "repl"], session, "repl")
        err = err.replace('"segv"', "KIND")
        check(f"repl", s == signal.SIGSEGV, f"died of signal {s} (exit status {rc})\n{err}")
        check("repl", "before 1\n" in out and "in inner 2\n" in out, f"stdout {out!r}")
        check("repl", "fatal error: SIGSEGV" in err and "  in inner (" in err and "  in outer (" in err
              and "This is a bug in tg" in err, f"stderr:\n{err}")
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print("fault reports: ok")


main()
