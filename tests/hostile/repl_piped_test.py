"""The REPL fed large piped inputs: the time to read one long statement grows
linearly with its length (it used to be quadratic: the whole statement was
parsed again at every line). Checked by a ratio, not a time: 8 times the
lines must take far less than 64 times as long.

    repl_piped.py TG
"""
import subprocess
import sys
import time

tg = sys.argv[1]


def list_literal(n):
    return "xs = [\n" + "".join(f"    {i},\n" for i in range(n)) + "]\nprint(len(xs))\n"


def function_body(n):
    return "def f():\n" + "".join(f"    x{i} = {i}\n" for i in range(n)) + "    return x0\n\nprint(f())\n"


def run(text, expect):
    t0 = time.monotonic()
    r = subprocess.run([tg, "repl"], input=text, capture_output=True, text=True, timeout=600)
    took = time.monotonic() - t0
    if expect not in r.stdout:
        sys.exit(f"FAIL: expected {expect!r} in the output, got {r.stdout[-200:]!r} {r.stderr[-400:]!r}")
    return took


failed = False
for name, make, small, big, expect in [
    ("list literal", list_literal, 2000, 16000, lambda n: str(n)),
    ("function body", function_body, 1500, 12000, lambda n: "0"),
]:
    # the smallest time of 2 runs each: less noise from a loaded machine
    t_small = min(run(make(small), expect(small)) for _ in range(2))
    t_big = min(run(make(big), expect(big)) for _ in range(2))
    ratio = t_big / max(t_small, 1e-3)
    ok = ratio < 24  # linear: ~8 (plus start-up); quadratic: ~64
    failed = failed or not ok
    print(f"{'ok  ' if ok else 'FAIL'} {name}: {small} lines {t_small:.3f} s, {big} lines {t_big:.3f} s, ratio {ratio:.1f} (bound 24)")
sys.exit(1 if failed else 0)
