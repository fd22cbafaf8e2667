#!/usr/bin/env python3
"""Writes NAME.out for the scripts here that are also Python programs, by
running them with CPython: their expected output is Python's
(docs/testing.md, "Script tests"). Run after changing one of PYTHON_SCRIPTS:

    /usr/bin/python3 tests/scripts/pylang/make_expected.py
"""
import pathlib
import subprocess
import sys

PYTHON_SCRIPTS = ["slice_assign", "shifts", "global_nonlocal"]

here = pathlib.Path(__file__).resolve().parent
for name in PYTHON_SCRIPTS:
    src = here / f"{name}.tg"
    run = subprocess.run([sys.executable, "-"], input=src.read_text(), capture_output=True, text=True, check=True)
    (here / f"{name}.out").write_text(run.stdout)
    print(f"wrote {name}.out")
