#!/usr/bin/env python3
"""The terminal debugger driven through standard input (docs/debugging.md).

Each case is sessions/NAME.tg with sessions/NAME.cmds, the commands typed, and
sessions/NAME.out, the whole transcript (stdout and stderr, then the exit
status). A first line "#! run --debug-nans" in NAME.cmds picks the subcommand
and its flags (default: debug). Every case runs as written, with --eager and
with --no-jit: the values at each stop are eager's, so the transcripts are one.

  run_sessions.py TG [--update] [NAME...]
"""
import os
import subprocess
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sessions")
MODES = [[], ["--eager"], ["--no-jit"]]


def run(tg, name, mode):
    with open(os.path.join(HERE, name + ".cmds")) as f:
        lines = f.read().splitlines(keepends=True)
    command = ["debug"]
    if lines and lines[0].startswith("#!"):
        command = lines[0][2:].split()
        lines = lines[1:]
    argv = [tg, command[0], *mode, *command[1:], name + ".tg"]
    env = dict(os.environ, TERM="dumb")
    p = subprocess.run(argv, input="".join(lines), cwd=HERE, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    return p.stdout + f"[exit {p.returncode}]\n"


def main():
    args = sys.argv[1:]
    tg = os.path.abspath(args.pop(0))
    update = "--update" in args
    names = [a for a in args if not a.startswith("--")] or sorted(
        f[:-5] for f in os.listdir(HERE) if f.endswith(".cmds"))
    failed = 0
    for name in names:
        expected_path = os.path.join(HERE, name + ".out")
        for mode in MODES:
            got = run(tg, name, mode)
            if update and not mode:
                with open(expected_path, "w") as f:
                    f.write(got)
            expected = open(expected_path).read() if os.path.exists(expected_path) else ""
            if got != expected:
                failed += 1
                print(f"FAIL {name} {' '.join(mode) or '(as written)'}")
                import difflib
                sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True), got.splitlines(True),
                                                           "expected", "got"))
    print(f"{len(names)} sessions x {len(MODES)} modes, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
