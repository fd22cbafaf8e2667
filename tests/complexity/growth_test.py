"""Ordinary operations whose cost must not grow with the size of the data
they touch: each case runs a loop of N and of 10 N iterations, and the time
must grow about 10 times (linear), far from 100 (quadratic). Checked by a
ratio between two sizes, never by a time (docs/testing.md "Complexity").

    growth_test.py TG [CASE...]

A case is a loop body over `i` with a setup; its result is printed so the
loop cannot be skipped. The cases are the ones a copy-on-write slip or a
per-call conversion makes quadratic: appending to a list held in a dict or
a list, indexing and slicing a string, building a string or a dict.
"""
import os
import subprocess
import sys
import tempfile
import time

CASES = {
    "append_to_variable": ("xs = []", "xs.append(i)", "len(xs)"),
    "append_to_dict_entry": ('d = {"a": []}', 'd["a"].append(i)', 'len(d["a"])'),
    "append_to_list_item": ("xs = [[]]", "xs[0].append(i)", "len(xs[0])"),
    "append_to_nested_entry": ('d = {"a": {"b": []}}', 'd["a"]["b"].append(i)', 'len(d["a"]["b"])'),
    "dict_entry_update": ('d = {"a": {}}', 'd["a"][i] = i', 'len(d["a"])'),
    "list_item_store": ("xs = [0] * 64\nys = [xs]", "ys[0][i % 64] = i", "ys[0][5]"),
    "string_index": ('s = "ab" * 2000', "t = s[i % 4000]", "t"),
    "string_index_unicode": ('s = "é" * 4000', "t = s[i % 4000]", "t"),
    "string_small_slice": ('s = "abcd" * 1000', "t = s[i % 3000:i % 3000 + 3]", "t"),
    "string_append": ('s = ""', 's += "x"', "len(s)"),
    "list_pop_end": ("xs = [0] * 1000000", "xs.pop()", "len(xs)"),
    "extend_dict_entry": ('d = {"a": []}', 'd["a"].extend([i, i])', 'len(d["a"])'),
    "string_len": ('s = "é" * 4000', "t = len(s)", "t"),
    "dict_membership": ("d = {}\nfor k in range(4000):\n    d[k] = k", "t = (i % 8000) in d", "t"),
}

SMALL, BOUND = 100000, 40  # the big loop is 10 times the small one: linear ~10, quadratic ~100
MIN_SECONDS = 0.05         # the small loop's time must stand out from start-up's noise


def script(case, n):
    setup, body, result = CASES[case]
    return "%s\nfor i in range(%d):\n    %s\nprint(%s)\n" % (setup, n, body, result)


def run(tg, text):
    with tempfile.NamedTemporaryFile("w", suffix=".tg", delete=False) as f:
        f.write(text)
    start = time.perf_counter()
    p = subprocess.run([tg, "run", f.name], capture_output=True, text=True, timeout=300)
    elapsed = time.perf_counter() - start
    os.unlink(f.name)
    if p.returncode != 0:
        sys.exit("tg failed (%d) on:\n%s\n%s" % (p.returncode, text, p.stderr))
    return elapsed


def main():
    tg = sys.argv[1]
    names = sys.argv[2:] or list(CASES)
    failed = False
    base = min(run(tg, "print(0)\n") for _ in range(3))  # start-up, taken off both sizes
    for name in names:
        # the smallest of 2 runs each: less noise from a loaded machine; a
        # case whose small loop is too quick to time against the start-up
        # (a compiled loop: a few ms) runs 10 times longer, both sizes
        small = SMALL
        while True:
            t_small = min(run(tg, script(name, small)) for _ in range(2)) - base
            if t_small >= MIN_SECONDS or small >= SMALL * 100:
                break
            small *= 10
        t_big = min(run(tg, script(name, small * 10)) for _ in range(2)) - base
        ratio = t_big / max(t_small, 2e-3)
        ok = ratio < BOUND
        failed = failed or not ok
        print("%s %s: %d iterations %.3f s, %d iterations %.3f s, ratio %.1f (bound %d)"
              % ("ok  " if ok else "FAIL", name, small, t_small, small * 10, t_big, ratio, BOUND))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
