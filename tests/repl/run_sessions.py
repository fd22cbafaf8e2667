#!/usr/bin/env python3
"""Runs scripted REPL sessions with and without docs/repl.md's tracing toggle and
requires the same results: each session in tests/repl/sessions/ is fed to
`tg repl` on standard input three times: as written (eager), with `:trace on`
first (every input traced into a graph, shown, run compiled), and the same
with `tg repl --no-jit` (graphs on the reference interpreter). Standard output must be
identical, and so must the error reports on standard error (the traced run's
stderr also holds the graphs and notes, which are left out of the comparison).

usage: run_sessions.py TG_BINARY [SESSION ...]

The exit status must be 1 when the run reported an error, else 0.
Comment lines in a session state more (they are not fed to the REPL):
  #> TEXT     the next expected line of stdout (all #> lines together must equal it)
  #~ REGEX    some line of the traced run's stdout or stderr must match REGEX
  #!~ REGEX   no line of the traced run's stderr may match REGEX
  #% once     run the session once, as written (it toggles :trace itself);
              #~ and #!~ then apply to that run
Prints one line per failure and ends with `N passed, N failed`; exits 1 on any failure.
"""
import os
import re
import subprocess
import sys

TIMEOUT_S = 120
ERROR_HEAD = re.compile(r"^(\S+:\d+:\d+: )?error: ")


def parse(text):
    exact, present, absent, once, lines = [], [], [], False, []
    for line in text.splitlines():
        if line.startswith("#> ") or line == "#>":
            exact.append(line[3:])
        elif line.startswith("#~ "):
            present.append(line[3:])
        elif line.startswith("#!~ "):
            absent.append(line[4:])
        elif line.startswith("#% once"):
            once = True
        else:
            lines.append(line)
    has_exact = any(l.startswith("#>") for l in text.splitlines())
    return (exact if has_exact else None), present, absent, once, "\n".join(lines) + "\n"


def error_reports(stderr):
    """The error reports in stderr: a `file:line:col: error:` line and the
    indented lines after it (source, caret, traceback)."""
    reports, current = [], None
    for line in stderr.splitlines():
        if ERROR_HEAD.match(line):
            current = [line]
            reports.append(current)
        elif current is not None and line.startswith(" "):
            current.append(line)
        else:
            current = None
    return ["\n".join(r) for r in reports]


def run(tg, stdin, *flags):
    proc = subprocess.run([tg, "repl", *flags], input=stdin.encode(), capture_output=True, timeout=TIMEOUT_S)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")


def check_session(tg, path):
    exact, present, absent, once, stdin = parse(open(path, encoding="utf-8").read())
    problems = []
    traced = run(tg, stdin if once else ":trace on\n" + stdin)
    # piped input: exit status 1 if any input failed, else 0 (docs/repl.md)
    want = 1 if error_reports(traced[2]) or "\nusage: " in "\n" + traced[2] else 0
    if traced[0] != want:
        problems.append("traced run: exit status %d, expected %d" % (traced[0], want))
    if not once:
        eager = run(tg, stdin)
        want = 1 if error_reports(eager[2]) or "\nusage: " in "\n" + eager[2] else 0
        if eager[0] != want:
            problems.append("eager run: exit status %d, expected %d" % (eager[0], want))
        if traced[1] != eager[1]:
            problems.append("stdout differs:\n    eager:  %r\n    traced: %r" % (eager[1], traced[1]))
        er, tr = error_reports(eager[2]), error_reports(traced[2])
        if er != tr:
            problems.append("error reports differ:\n    eager:  %r\n    traced: %r" % (er, tr))
        # traced again, graphs on the reference interpreter (`tg repl --no-jit`)
        nojit = run(tg, ":trace on\n" + stdin, "--no-jit")
        if nojit[1] != eager[1] or error_reports(nojit[2]) != er:
            problems.append("--no-jit traced run differs from eager:\n    eager:  %r\n    no-jit: %r" % (eager[1], nojit[1]))
    if exact is not None and traced[1].splitlines() != exact:
        problems.append("stdout is not as expected:\n    expected: %r\n    got:      %r" % (exact, traced[1].splitlines()))
    lines = traced[1].splitlines() + traced[2].splitlines()
    for rx in present:
        if not any(re.search(rx, l) for l in lines):
            problems.append("no line of the traced run matches %r" % rx)
    for rx in absent:
        bad = [l for l in traced[2].splitlines() if re.search(rx, l)]
        if bad:
            problems.append("stderr of the traced run has %r (matches %r)" % (bad[0], rx))
    return problems


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    tg = os.path.abspath(sys.argv[1])
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sessions")
    sessions = sys.argv[2:] or sorted(os.path.join(here, f) for f in os.listdir(here) if f.endswith(".repl"))
    passed = failed = 0
    for s in sessions:
        try:
            problems = check_session(tg, s)
        except subprocess.TimeoutExpired:
            problems = ["no answer in %d s" % TIMEOUT_S]
        if problems:
            failed += 1
            print("FAIL %s" % os.path.basename(s))
            for p in problems:
                print("    " + p)
        else:
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
