#!/usr/bin/env python3
"""Writes NAME.out for the scripts here that are also Python programs, by
running them with CPython: their expected output is Python's
(docs/testing.md, "Script tests"). Run after changing one of PYTHON_SCRIPTS:

    /usr/bin/python3 tests/scripts/pylang2/make_expected.py

The set scripts print only sets whose CPython order is ascending (small
non-negative ints) or print them through sorted(): tg iterates sets in
sorted order, CPython in its hash table's (docs/language.md "Sets").
"""
import pathlib
import sys

here = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent / "pylang"))
from make_expected import write_expected  # noqa: E402

PYTHON_SCRIPTS = ["star_args", "sets", "isinstance", "python_numbers", "target_indices", "closure_arith", "list_items", "callee_rebound", "body_code"]

write_expected(here, PYTHON_SCRIPTS)
