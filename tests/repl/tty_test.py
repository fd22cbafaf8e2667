#!/usr/bin/env python3
"""Drives `tg repl` in a real terminal (tmux): prompts, continuation lines,
Ctrl-C interrupting a running loop (also a traced input's graph) with the
session's state intact, Ctrl-C at the prompt, mid-line and in a block
discarding the input without leaving the REPL, UTF-8 typed input, history
recalled with the Up arrow and kept across sessions, tab completion, a
pasted block with empty lines inside.

usage: tty_test.py TG_BINARY
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

tg = os.path.abspath(sys.argv[1])
if not shutil.which("tmux"):
    print("tmux is not installed (scripts/install-deps installs it)")
    sys.exit(1)

tmp = tempfile.mkdtemp(prefix="tg-tty-")
env = dict(os.environ, TG_HISTORY=os.path.join(tmp, "history"), TMUX_TMPDIR=tmp)
session = "tgtest"


def tmux(*args):
    return subprocess.run(["tmux"] + list(args), env=env, capture_output=True, text=True)


def keys(*k, wait=0.4):
    tmux("send-keys", "-t", session, *k)
    time.sleep(wait)


def screen():
    return tmux("capture-pane", "-p", "-t", session).stdout


def start():
    tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", tg + " repl")
    for _ in range(50):
        if ">>>" in screen():
            return
        time.sleep(0.1)
    raise SystemExit("no prompt:\n" + screen())


failures = []


def expect(text, what):
    s = screen()
    if text not in s:
        failures.append("%s: %r not on screen:\n%s" % (what, text, s))


try:
    start()
    expect(">>>", "prompt")
    keys("x = 41", "Enter")
    keys("while True:", "Enter")
    expect("...", "continuation prompt")
    keys("    x = x", "Enter", "Enter", wait=1.5)
    keys("C-c", wait=0.8)
    expect("error: interrupted", "Ctrl-C stops the loop")
    keys("x + 1", "Enter")
    expect("tensor(42, shape=(), dtype=i64)", "state kept after Ctrl-C")
    keys("Up", "Enter")  # recalls `x + 1`
    s = screen()
    if s.count("tensor(42, shape=(), dtype=i64)") < 2:
        failures.append("Up arrow did not recall the last line:\n" + s)
    # Ctrl-C also stops a traced input while its graph runs (:trace on)
    keys(":trace on", "Enter")
    keys("n = 0", "Enter", wait=0.8)
    keys("while n >= 0:", "Enter")
    keys("    n += 1", "Enter", "Enter", wait=2.0)
    keys("C-c", wait=0.8)
    everything = tmux("capture-pane", "-p", "-S", "-", "-t", session).stdout
    if everything.count("error: interrupted") < 2 or "trace input" not in everything:
        failures.append("Ctrl-C did not stop the traced input:\n" + everything)
    keys(":trace off", "Enter")
    # Ctrl-C at the prompt, mid-line and inside a def block discards the
    # input and keeps the session (it used to end the REPL)
    keys("C-c")
    keys("y = 1 +", wait=0.3)
    keys("C-c")
    keys("def g():", "Enter")
    keys("    return 7", "Enter", wait=0.3)
    keys("C-c")
    keys("g", "Enter")
    expect("`g` is not defined", "Ctrl-C in a def block discards the block")
    keys("y", "Enter")
    expect("`y` is not defined", "Ctrl-C mid-line discards the line")
    keys("x * 2", "Enter")
    expect("tensor(82, shape=(), dtype=i64)", "session kept after Ctrl-C at the prompt")
    # typed UTF-8 reaches the program (libedit's wide characters)
    keys('print("h\u00e9llo \u2713")', "Enter")
    expect("h\u00e9llo \u2713\n", "UTF-8 typed input")
    keys("zeros_l", "Tab", wait=0.5)
    keys("(x)", "Enter")
    expect("tensor(0, shape=(), dtype=i64)", "tab completion of zeros_like")
    keys(":quit", "Enter", wait=0.8)
    history = open(env["TG_HISTORY"]).read() if os.path.exists(env["TG_HISTORY"]) else ""
    history = history.replace("\\040", " ")  # libedit escapes spaces
    if "zeros_like(x)" not in history:
        failures.append("history file lacks the completed line: %r" % history)
    # A second session sees the first one's history.
    start()
    keys("x = 5", "Enter")
    keys("Up", "Up", "Up", "Enter")  # x = 5, :quit, zeros_like(x)
    expect("tensor(0, shape=(), dtype=i64)", "history across sessions")
    # a pasted block goes on past its empty lines when the next line is
    # indented (docs/repl.md "Multi-line input"); typed, an empty line ends it
    tmux("set-buffer", "def pasted(a):\n    b = a + 1\n\n    return b * 3\n\npasted(2)\n")
    tmux("paste-buffer", "-t", session)
    time.sleep(0.8)
    expect("tensor(9, shape=(), dtype=i64)", "a pasted block with an empty line inside")
    keys("def typed():", "Enter")
    keys("    v = 4", "Enter", "Enter", wait=0.5)
    keys("    return v", "Enter", wait=0.5)
    expect("unexpected indent", "a typed empty line ends the block")
    keys("C-d", wait=0.5)
finally:
    tmux("kill-server")
    shutil.rmtree(tmp, ignore_errors=True)

for f in failures:
    print("FAIL", f)
print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
