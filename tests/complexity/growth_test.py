"""Ordinary operations whose cost must not grow with the size of the data
they touch (docs/testing.md "Complexity"): each case builds or walks one
structure of 10^6 elements in a loop of 10^6 iterations, and the same work
split into 100 runs over structures of 10^4 elements. Linear work takes
about as long either way; a cost that grows with the structure (a hidden
copy, a per-call conversion: quadratic) makes the single large run ~100
times slower. Checked by that ratio, never by a time.

    growth_test.py TG [CASE...]

A case is a setup, a loop body over `i` (its structure reaches `n`
elements) and a result, run inside a function; the result is printed so
the loop cannot be skipped. The cases are the operations a copy-on-write
slip or a per-call conversion makes quadratic: the list methods, stores
into lists and dicts (held in a variable, a dict entry or a list item),
building a string, indexing, slicing and `len` of a string, `in` on a dict.
"""
import os
import subprocess
import sys
import tempfile
import time

# name: (setup, body, result); `n` is the size the structure reaches
CASES = {
    # lists held in a variable
    "list_append": ("xs = []", "xs.append(i)", "len(xs)"),
    "list_extend": ("xs = []", "xs.extend([i, i])", "len(xs)"),
    "list_insert_end": ("xs = []", "xs.insert(len(xs), i)", "len(xs)"),
    "list_pop_end": ("xs = [0] * n", "xs.pop()", "len(xs)"),
    "list_store": ("xs = [0] * n", "xs[i] = i", "xs[n - 1]"),
    "list_item_add": ("xs = [0] * n", "xs[i] += i", "xs[n - 1]"),
    "list_read": ("xs = list(range(n))", "t = xs[i]", "t"),
    # a list held in a dict entry or a list item
    "append_to_dict_entry": ('d = {"a": []}', 'd["a"].append(i)', 'len(d["a"])'),
    "append_to_list_item": ("xs = [[]]", "xs[0].append(i)", "len(xs[0])"),
    "append_to_nested_entry": ('d = {"a": {"b": []}}', 'd["a"]["b"].append(i)', 'len(d["a"]["b"])'),
    "extend_dict_entry": ('d = {"a": []}', 'd["a"].extend([i, i])', 'len(d["a"])'),
    "append_to_groups": ("groups = {}\n" "for k in range(100):\n" "    groups[str(k)] = []",
                         "groups[str(i % 100)].append(i)", 'len(groups["7"])'),
    "list_item_store": ("xs = [0] * n\nys = [xs]", "ys[0][i] = i", "ys[0][n - 1]"),
    # dicts
    "dict_store_int": ("d = {}", "d[i] = i", "len(d)"),
    "dict_store_str": ("d = {}", "d[str(i)] = i", "len(d)"),
    "dict_entry_update": ('d = {"a": {}}', 'd["a"][i] = i', 'len(d["a"])'),
    "dict_count": ("d = {}", "k = i % 1000\nd[k] = d.get(k, 0) + 1", "d[7]"),
    "dict_membership": ("d = {}\nfor k in range(n):\n    d[k] = k", "t = i in d", "t"),
    "dict_pop": ("d = {}\nfor k in range(n):\n    d[k] = k", "d.pop(i)", "len(d)"),
    # strings
    "string_append": ('s = ""', 's += "x"', "len(s)"),
    "string_append_var": ('s = ""\nw = "ab"', "s += w", "len(s)"),
    "string_index": ('s = "ab" * (n // 2)', "t = s[i]", "t"),
    "string_index_unicode": ('s = "é" * n', "t = s[i]", "t"),
    "string_small_slice": ('s = "abcd" * (n // 4)', "t = s[i:i + 3]", "t"),
    "string_len": ('s = "é" * n', "t = len(s)", "t"),
    "string_built_then_indexed": ('s = ""\nfor k in range(n):\n    s += "é"', "t = s[i]", "t"),
}

BIG, SMALL = 1000000, 10000  # one run of BIG against BIG // SMALL runs of SMALL
BOUND = 10                   # linear: ~1 (a few for memory effects); quadratic: ~100


def script(case, n, runs):
    setup, body, result = CASES[case]
    indent = lambda text, k: "\n".join(" " * k + line for line in text.split("\n"))
    return ("def run(n):\n%s\n    for i in range(n):\n%s\n    return %s\n\n\n"
            "for r in range(%d):\n    out = run(%d)\nprint(out)\n" % (indent(setup, 4), indent(body, 8), result, runs, n))


def run(tg, text, timeout):
    with tempfile.NamedTemporaryFile("w", suffix=".tg", delete=False) as f:
        f.write(text)
    try:
        start = time.perf_counter()
        p = subprocess.run([tg, "run", f.name], capture_output=True, text=True, timeout=timeout)
        elapsed = time.perf_counter() - start
    except subprocess.TimeoutExpired:
        return None
    finally:
        os.unlink(f.name)
    if p.returncode != 0:
        sys.exit("tg failed (%d) on:\n%s\n%s" % (p.returncode, text, p.stderr))
    return elapsed


def main():
    tg = sys.argv[1]
    names = sys.argv[2:] or list(CASES)
    unknown = [name for name in names if name not in CASES]
    if unknown:
        sys.exit("unknown case %s (one of: %s)" % (", ".join(unknown), ", ".join(CASES)))
    failed = False
    base = min(run(tg, "print(0)\n", 60) for _ in range(3))  # start-up, taken off both
    for name in names:
        # the smallest of 2 runs each: less noise from a loaded machine
        t_small = min(run(tg, script(name, SMALL, BIG // SMALL), 600) for _ in range(2)) - base
        # a quadratic big run would take ~100x: stopped well before
        limit = max(30.0, 3 * BOUND * t_small)
        bigs = [run(tg, script(name, BIG, 1), limit) for _ in range(2)]
        if None in bigs:
            failed = True
            print("FAIL %s: %d runs of %d: %.3f s; one run of %d: over %.0f s" % (name, BIG // SMALL, SMALL, t_small, BIG, limit))
            continue
        t_big = min(bigs) - base
        ratio = t_big / max(t_small, 2e-3)
        ok = ratio < BOUND
        failed = failed or not ok
        print("%s %s: %d runs of %d: %.3f s, one run of %d: %.3f s, ratio %.1f (bound %d)"
              % ("ok  " if ok else "FAIL", name, BIG // SMALL, SMALL, t_small, BIG, t_big, ratio, BOUND))
        sys.stdout.flush()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
