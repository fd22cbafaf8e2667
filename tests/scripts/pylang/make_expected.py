#!/usr/bin/env python3
"""Writes NAME.out for the scripts here that are also Python programs, by
running them with CPython: their expected output is Python's
(docs/testing.md, "Script tests"). Run after changing one of PYTHON_SCRIPTS:

    /usr/bin/python3 tests/scripts/pylang/make_expected.py

tests/scripts/pylang2/make_expected.py does the same for its folder with
write_expected() below.
"""
import pathlib
import subprocess
import sys

PYTHON_SCRIPTS = ["slice_assign", "shifts", "global_nonlocal"]


def write_expected(here, names):
    for name in names:
        src = here / f"{name}.tg"
        run = subprocess.run([sys.executable, "-"], input=src.read_text(), capture_output=True, text=True, check=True)
        (here / f"{name}.out").write_text(run.stdout)
        print(f"wrote {name}.out")


if __name__ == "__main__":
    write_expected(pathlib.Path(__file__).resolve().parent, PYTHON_SCRIPTS)
