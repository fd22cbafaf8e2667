#!/usr/bin/env python3
"""Runs the tour in docs/getting-started.md and checks every output it shows.

    check_tour.py TG DOC.md

The page is read as a notebook is:
- each ```python block is the next piece of one program (the tour builds on
  what came before); the ```text block right after it, if any, is what that
  piece prints. A piece without one must print nothing. A ```python block
  whose first line is `# file: NAME` is written to NAME instead.
- the program runs as written, with --eager and with --no-jit (@graph never
  changes what a program prints, so all three must match the page);
- then each ```console block runs in the same folder, in order: its `$ `
  lines are shell commands (with `tg` this build's), the other lines what
  they print (stdout and stderr together).
Other blocks (```sh, plain ```) are not run.
"""
import os
import re
import subprocess
import sys
import tempfile

MARK = "@@tour-piece@@"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.M | re.S)


def blocks(text):
    """(kind, body, end offset) of every fenced block, in order."""
    return [(m.group(1), m.group(2), m.start(), m.end()) for m in FENCE.finditer(text)]


def pieces(text):
    """The program's pieces with their expected output; files; console blocks."""
    program, files, consoles = [], {}, []
    bs = blocks(text)
    for i, (kind, body, _, end) in enumerate(bs):
        if kind == "python":
            first = body.split("\n", 1)[0]
            if first.startswith("# file: "):
                files[first[len("# file: "):].strip()] = body
                continue
            expected = ""
            if i + 1 < len(bs) and bs[i + 1][0] == "text" and text[end:bs[i + 1][2]].strip() == "":
                expected = bs[i + 1][1]
            program.append((body, expected))
        elif kind == "console":
            consoles.append(body)
    return program, files, consoles


def run_program(tg, folder, program, mode):
    source = "".join(body + f'print("{MARK}")\n' for body, _ in program)
    with open(os.path.join(folder, "tour.tg"), "w") as f:
        f.write(source)
    args = [tg, "run"] + ([mode] if mode else []) + ["tour.tg"]
    r = subprocess.run(args, cwd=folder, capture_output=True, text=True, timeout=600)
    failures = []
    if r.returncode != 0:
        return [f"[{mode or 'as written'}] exit status {r.returncode}:\n{r.stdout}{r.stderr}"]
    outputs = r.stdout.split(MARK + "\n")
    for n, ((body, expected), got) in enumerate(zip(program, outputs), 1):
        if got != expected:
            failures.append(f"[{mode or 'as written'}] piece {n}:\n{body}--- the page says:\n{expected}"
                            f"--- it prints:\n{got}")
    return failures


def run_console(tg, folder, body):
    """Runs a console block's commands; returns a failure message or None."""
    commands, expected = [], []
    for line in body.splitlines(keepends=True):
        (commands if line.startswith("$ ") else expected).append(line)
    bin_dir = os.path.join(folder, ".bin")
    os.makedirs(bin_dir, exist_ok=True)
    link = os.path.join(bin_dir, "tg")
    if not os.path.exists(link):
        os.symlink(os.path.abspath(tg), link)
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"])
    got = ""
    for c in commands:
        r = subprocess.run(["bash", "-c", c[2:]], cwd=folder, env=env, capture_output=True, text=True, timeout=600)
        got += r.stdout + r.stderr
    if got != "".join(expected):
        return f"console block:\n{''.join(commands)}--- the page says:\n{''.join(expected)}--- it prints:\n{got}"
    return None


def main():
    tg, doc = os.path.abspath(sys.argv[1]), sys.argv[2]
    text = open(doc).read()
    program, files, consoles = pieces(text)
    if not program:
        sys.exit(f"{doc}: no ```python blocks")
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        for name, body in files.items():
            with open(os.path.join(folder, name), "w") as f:
                f.write(body)
        for mode in ("", "--eager", "--no-jit"):
            failures += run_program(tg, folder, program, mode)
        for body in consoles:
            if (f := run_console(tg, folder, body)) is not None:
                failures.append(f)
    for f in failures:
        print(f, file=sys.stderr)
    print(f"{doc}: {len(program)} pieces x 3 modes, {len(consoles)} console blocks, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
