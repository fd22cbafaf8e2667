#!/usr/bin/env python3
"""The bad-input catalogue: hostile or broken inputs (source, command lines,
files, REPL input, misuse of the embedding API), each with its exact error
report and exit status. Nothing may crash, hang or print anything else.

usage: run.py [--update] TG_BINARY API_HOST_BINARY [CATALOGUE.cases ...]

Each *.cases file beside this script (or each one named) holds cases:

  ### NAME              starts a case (names are unique in the file)
  $ tg ARGS...          the command (shell-like words); default `tg run case.tg`;
                        leading NAME=VALUE words set environment variables.
                        `$ api CASE` runs the API host (api_host.cpp) instead.
  | TEXT                a line of case.tg (written when the case has any)
  %escaped              case.tg, stdin and setup contents use Python
                        backslash escapes (\\x00, \\x1b, \\t, \\\\)
  %repeat N TEXT        append TEXT repeated N times to case.tg (no newline)
  < TEXT                a line of standard input (otherwise stdin is empty)
  dir PATH | file PATH [TEXT] | big PATH BYTES   setup in the case's folder
  exit N                the expected exit status
  > TEXT                a line of expected stdout (none: stdout must be empty)
  ! TEXT                a line of expected stderr, exactly

Every case runs in a fresh temporary folder (its working directory); `{tmp}`
in expected lines stands for that folder. --update rewrites the `>`/`!`/exit
lines from what the binaries do now: review the diff by hand!
"""
import codecs
import os
import shlex
import subprocess
import sys
import tempfile

TIMEOUT_S = 60
HERE = os.path.dirname(os.path.abspath(__file__))


class Case:
    def __init__(self, name, line_no):
        self.name, self.line_no = name, line_no
        self.cmd = None
        self.source, self.stdin, self.setup, self.repeat = [], [], [], []
        self.escaped = False
        self.exit = None
        self.out, self.err = [], []
        self.header = []  # the case's lines other than expectations, for --update


def parse(path):
    cases, case = [], None
    prelude = []
    for i, raw in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        line = raw
        if line.startswith("### "):
            case = Case(line[4:].strip(), i)
            cases.append(case)
            case.header.append(raw)
            continue
        if case is None:
            prelude.append(raw)
            continue
        if line.startswith("> ") or line == ">":
            case.out.append(line[2:])
        elif line.startswith("! ") or line == "!":
            case.err.append(line[2:])
        elif line.startswith("exit "):
            case.exit = int(line[5:])
        else:
            case.header.append(raw)
            if line.startswith("$ "):
                case.cmd = line[2:]
            elif line.startswith("| ") or line == "|":
                case.source.append(line[2:])
            elif line.startswith("< ") or line == "<":
                case.stdin.append(line[2:])
            elif line == "%escaped":
                case.escaped = True
            elif line.startswith("%repeat "):
                _, n, text = line.split(" ", 2)
                case.repeat.append((int(n), text))
            elif line.startswith(("dir ", "file ", "big ")):
                case.setup.append(line.split(" ", 2))
            elif line.strip() and not line.startswith("#"):
                raise SystemExit("%s:%d: cannot read %r" % (path, i, line))
    return prelude, cases


def unescape(text, escaped):
    if not escaped:
        return text.encode("utf-8")
    return codecs.escape_decode(text.encode("utf-8"))[0]


def run_case(tg, api_host, case):
    with tempfile.TemporaryDirectory(prefix="tg-bad-") as tmp:
        for item in case.setup:
            target = os.path.join(tmp, os.fsdecode(unescape(item[1], case.escaped)))
            if item[0] == "dir":
                os.makedirs(target, exist_ok=True)
            elif item[0] == "file":
                with open(target, "wb") as f:
                    f.write(unescape(item[2] if len(item) > 2 else "", case.escaped))
            elif item[0] == "big":
                with open(target, "wb") as f:
                    f.truncate(int(item[2]))
        if case.source or case.repeat:
            data = unescape("\n".join(case.source) + ("\n" if case.source else ""), case.escaped)
            for n, text in case.repeat:
                data += unescape(text, case.escaped) * n
            with open(os.path.join(tmp, "case.tg"), "wb") as f:
                f.write(data)
        # words: shell-like, or split at spaces and unescaped in an %escaped case
        if case.cmd is None:
            cmd = ["tg", "run", "case.tg"]
        elif case.escaped:
            cmd = [os.fsdecode(unescape(w, True)) for w in case.cmd.split()]
        else:
            cmd = shlex.split(case.cmd)
        env = dict(os.environ)
        env.pop("TG_PATH", None)
        while "=" in cmd[0]:  # leading NAME=VALUE words set the environment, as in a shell
            name, _, value = cmd.pop(0).partition("=")
            env[name] = value
        if cmd[0] == "tg":
            argv = [tg] + cmd[1:]
        elif cmd[0] == "api":
            argv = [api_host] + cmd[1:]
        else:
            raise SystemExit("%s: the command must start with tg or api" % case.name)
        stdin = unescape("\n".join(case.stdin) + "\n", case.escaped) if case.stdin else b""
        try:
            p = subprocess.run(argv, cwd=tmp, input=stdin, capture_output=True, timeout=TIMEOUT_S, env=env)
            out, err, code = p.stdout, p.stderr, p.returncode
        except subprocess.TimeoutExpired:
            out, err, code = b"", b"timeout", -1
        out = out.decode("utf-8", "backslashreplace").replace(tmp, "{tmp}")
        err = err.decode("utf-8", "backslashreplace").replace(tmp, "{tmp}")
        return out, err, code


def lines(text):
    if text == "":
        return []
    if text.endswith("\n"):
        text = text[:-1]
    return text.split("\n")


def main():
    argv = sys.argv[1:]
    update = "--update" in argv
    argv = [a for a in argv if a != "--update"]
    if len(argv) < 2:
        print(__doc__)
        return 2
    tg, api_host = os.path.abspath(argv[0]), os.path.abspath(argv[1])
    files = argv[2:] or sorted(os.path.join(HERE, f) for f in os.listdir(HERE) if f.endswith(".cases"))
    passed = failed = total = 0
    for path in files:
        prelude, cases = parse(path)
        names = [c.name for c in cases]
        dups = {n for n in names if names.count(n) > 1}
        if dups:
            raise SystemExit("%s: duplicate case names %s" % (path, sorted(dups)))
        rewritten = list(prelude)
        for case in cases:
            total += 1
            out, err, code = run_case(tg, api_host, case)
            problems = []
            if code != case.exit:
                problems.append("exit status %s, expected %s" % (code, case.exit))
            if lines(out) != case.out:
                problems.append("stdout:\n  expected %r\n  got      %r" % (case.out, lines(out)))
            if lines(err) != case.err:
                problems.append("stderr:\n  expected %r\n  got      %r" % (case.err, lines(err)))
            if err and not err.endswith("\n"):
                problems.append("stderr does not end with a newline")
            if code < 0 or code > 2:
                problems.append("crash or unexpected status %d" % code)
            if problems:
                failed += 1
                print("FAIL %s:%d %s\n  %s" % (os.path.basename(path), case.line_no, case.name, "\n  ".join(problems)))
            else:
                passed += 1
            header = list(case.header)
            while header and not header[-1].strip():
                header.pop()
            rewritten += header
            rewritten += ["exit %d" % code] + ["> " + l for l in lines(out)] + ["! " + l for l in lines(err)] + [""]
        if update:
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(l for l in rewritten).rstrip("\n") + "\n")
    print("%d passed, %d failed (%d cases)" % (passed, failed, total))
    return 1 if failed and not update else 0


if __name__ == "__main__":
    sys.exit(main())
