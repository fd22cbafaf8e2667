#!/usr/bin/env python3
"""Runs the conformance cases beside this script, except those listed in PENDING.

usage: run_pending.py TG_BINARY
"""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
pending = set()
with open(os.path.join(here, "PENDING"), encoding="utf-8") as f:
    for line in f:
        name = line.split("#", 1)[0].strip()
        if name:
            pending.add(name)
cases = sorted(os.path.join(here, n) for n in os.listdir(here)
               if n.endswith((".tg", ".repl")) and n not in pending)
print("skipping %d pending case(s): %s" % (len(pending), ", ".join(sorted(pending)) or "none"))
if not cases:
    sys.exit(0)
sys.exit(subprocess.call([sys.executable, os.path.join(here, "run"), sys.argv[1]] + cases))
