#!/usr/bin/python3
"""Writes NAME.out for the scripts here that are also Python programs, by
running them with CPython: their expected output is Python's
(docs/testing.md, "Script tests"). Run once after changing one of
PYTHON_SCRIPTS (Debian's python3; the NumPy cases are make_refs.py's):

    /usr/bin/python3 tests/scripts/pystd/make_expected.py
"""
import pathlib
import subprocess
import sys

PYTHON_SCRIPTS = ["iter_builtins", "str_methods", "parse_numbers", "math_module"]
# tg's f64(s) is Python's float(s): the scripts run with this line first
PRELUDE = "f64 = float\n"

here = pathlib.Path(__file__).resolve().parent
for name in PYTHON_SCRIPTS:
    src = here / f"{name}.tg"
    run = subprocess.run([sys.executable, "-"], input=PRELUDE + src.read_text(), capture_output=True, text=True, check=True,
                         cwd=here)
    (here / f"{name}.out").write_text(run.stdout)
    print(f"wrote {name}.out")
