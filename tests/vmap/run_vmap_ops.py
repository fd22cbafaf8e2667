#!/usr/bin/env python3
"""vmap's batching rules over every op of the op table (docs/training.md "vmap").

usage: run_vmap_ops.py TG_BINARY GEN_BUILTINS [--only SUBSTRING] [--modes LIST] [-v]

The ops come from the interpreter (`GEN_BUILTINS --json`, as the builtin
matrix's do); their example calls from the matrix's cases
(tests/matrix/cases.py: the forms derived from the table and its FORMS).
For every case with tensor operands, a script checks that vmap of the call
over a batch of two examples (the case's operands, and the operands
flipped along their last axis) equals the call applied to each example,
stacked:

  all      every operand batched (in_axes=0)
  one_K    only operand K batched, the others passed unmapped (None)
  last     every operand batched along its last axis, out_axes=-1
  graph    `all` inside a @graph function

— same shape, same dtype, same values (NaN where NaN; floats to 1e-6
relative: a batched reduction may associate its sum differently). Each
script runs as `tg run`, `--eager`, `--no-jit` and `--sync-jit`.

An op whose case has no tensor operand (zeros, arange, random_uniform) is
never batched: NEVER_BATCHED lists them, checked against the interpreter's
answer (`vmap_rule_status` in `GEN_BUILTINS --json`) so the list cannot go
stale, as NO_RULE lists the ops that must fail with "vmap: no batching rule
for `OP`" (none of the public ops today).
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "matrix"))
import cases as casedefs  # noqa: E402

MODES = {"written": [], "eager": ["--eager"], "nojit": ["--no-jit"], "sync": ["--sync-jit"]}
TIMEOUT_S = 300

# ops with no tensor operand: nothing of theirs is ever batched
NEVER_BATCHED = {"zeros", "ones", "arange", "linspace", "eye", "random_uniform", "random_normal", "random_int"}
# public ops that must fail by name under vmap (none today)
NO_RULE = set()

PRELUDE = '''def _same(got, want):
    if got.shape != want.shape or got.dtype != want.dtype:
        return False
    a = f64(got)
    b = f64(want)
    close = (a == b) | (isnan(a) & isnan(b)) | (abs(a - b) <= 1e-6 * (1.0 + abs(b)))
    return bool(all(close))

def _check(name, got, want):
    if _same(got, want):
        print("ok", name)
    else:
        print("MISMATCH", name, "got", got.dtype, got.shape, got, "want", want.dtype, want.shape, want)

# the second example: the first flipped along its last axis (a 0-d one moved by 0.5 when a float)
def _other(x):
    if len(x.shape) == 0:
        return x + 0.5 if x.dtype == f32 or x.dtype == f64 else x
    return flip(x, axis=-1)

'''


def literal(lit, dt):
    return "tensor(%s, dtype=%s)" % (lit, dt)


def case_script(k, case):
    """The checks of one case: function _fK, its examples, the four forms."""
    n = len(case.operands)
    params = ", ".join("o%d" % i for i in range(n))
    call = case.call.format(*["o%d" % i for i in range(n)])
    xs = ["_x%d_%d" % (k, i) for i in range(n)]
    ys = ["_y%d_%d" % (k, i) for i in range(n)]
    lines = ["def _f%d(%s):" % (k, params), "    return " + call, ""]
    lines += ["@graph", "def _g%d(%s):" % (k, params), "    return vmap(_f%d)(%s)" % (k, params), ""]
    for i, (lit, dt) in enumerate(case.operands):
        lines.append("%s = %s" % (xs[i], literal(lit, dt)))
        lines.append("%s = _other(%s)" % (ys[i], xs[i]))
    both = ["stack([%s, %s])" % (xs[i], ys[i]) for i in range(n)]
    want = "stack([_f%d(%s), _f%d(%s)])" % (k, ", ".join(xs), k, ", ".join(ys))
    name = case.id
    lines.append('_check("%s all", vmap(_f%d)(%s), %s)' % (name, k, ", ".join(both), want))
    if n > 1:
        for j in range(n):
            args = [both[i] if i == j else xs[i] for i in range(n)]
            axes = ", ".join("0" if i == j else "None" for i in range(n))
            one_want = "stack([_f%d(%s), _f%d(%s)])" % (
                k, ", ".join(xs), k, ", ".join(ys[i] if i == j else xs[i] for i in range(n)))
            lines.append('_check("%s one_%d", vmap(_f%d, in_axes=(%s))(%s), %s)' % (name, j, k, axes, ", ".join(args),
                                                                                   one_want))
    last = ["stack([%s, %s], axis=-1)" % (xs[i], ys[i]) for i in range(n)]
    last_want = "stack([_f%d(%s), _f%d(%s)], axis=-1)" % (k, ", ".join(xs), k, ", ".join(ys))
    lines.append('_check("%s last", vmap(_f%d, in_axes=-1, out_axes=-1)(%s), %s)' % (name, k, ", ".join(last),
                                                                                   last_want))
    lines.append('_check("%s graph", _g%d(%s), %s)' % (name, k, ", ".join(both), want))
    return "\n".join(lines) + "\n"


def batchable(case):
    """A case of a table op with tensor operands (not Python's forms of
    sum, max and min over a list, nor random draws, nor an eager-only form
    whose result's shape depends on the data, such as one-argument where:
    the matrix runs those outside @graph only, and no batch of examples
    can hold results of different shapes)."""
    python_list_form = case.call.startswith(case.builtin + "([") and case.builtin in ("sum", "max", "min")
    eager_only = case.contexts is not None and "graph" not in case.contexts
    return case.operands and not case.seed and case.ret and not python_list_form and not eager_only


def op_cases(info):
    by_op = {}
    ops = {op["name"] for op in info["ops"]}
    for c in casedefs.build(info):
        if c.builtin in ops and batchable(c):
            by_op.setdefault(c.builtin, []).append(c)
    return by_op


def run(tg, mode_args, path):
    p = subprocess.run([tg, "run"] + mode_args + [path], capture_output=True, text=True, timeout=TIMEOUT_S)
    return p.returncode, p.stdout, p.stderr


def check_op(tg, op, cases, modes, tmp, verbose):
    """Failures of one op's script, in every mode."""
    script = PRELUDE + "".join(case_script(k, c) for k, c in enumerate(cases))
    path = os.path.join(tmp, op + ".tg")
    with open(path, "w") as f:
        f.write(script)
    failures = []
    expected_checks = sum(3 + (len(c.operands) if len(c.operands) > 1 else 0) for c in cases)
    for mode in modes:
        rc, out, err = run(tg, MODES[mode], path)
        lines = out.splitlines()
        bad = [ln for ln in lines if not ln.startswith("ok ")]
        if rc != 0 or bad or len(lines) != expected_checks:
            first = err.strip().splitlines()[0] if err.strip() else ""
            failures.append("%s [%s]: %d/%d ok; %s %s" % (op, mode, len(lines) - len(bad), expected_checks,
                                                        "; ".join(bad[:3]), first))
        elif verbose:
            print("ok %s [%s] (%d checks)" % (op, mode, len(lines)))
    return failures


def check_statuses(info):
    """NEVER_BATCHED and NO_RULE against the interpreter's rule table."""
    problems = []
    for op in info["ops"]:
        status = op.get("vmap_rule_status", "")
        name = op["name"]
        if status.startswith("none") and name not in NEVER_BATCHED | NO_RULE:
            problems.append("%s has no batching rule (%s) but is not listed" % (name, status))
        if name in NEVER_BATCHED | NO_RULE and not status.startswith("none"):
            problems.append("%s is listed as having no rule, but has one (%s)" % (name, status))
    return problems


def check_no_rule(tg, tmp):
    failures = []
    for op in sorted(NO_RULE):
        path = os.path.join(tmp, "norule_" + op + ".tg")
        with open(path, "w") as f:
            f.write("print(vmap(lambda x: %s(x))(tensor([[1.0, 2.0], [3.0, 4.0]])))\n" % op)
        rc, out, err = run(tg, [], path)
        if rc == 0 or ("vmap: no batching rule for `%s`" % op) not in err:
            failures.append("%s: expected the error naming it, got: %s" % (op, err.strip()[:200]))
    return failures


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__)
        return 2
    tg, gen = args[0], args[1]
    only = args[args.index("--only") + 1] if "--only" in args else None
    modes = args[args.index("--modes") + 1].split(",") if "--modes" in args else list(MODES)
    verbose = "-v" in args
    info = casedefs.load_info(gen)
    by_op = op_cases(info)
    failures = check_statuses(info)
    untested = [op["name"] for op in info["ops"]
                if op["name"] not in by_op and op["name"] not in NEVER_BATCHED | NO_RULE]
    failures += ["%s: no case with tensor operands in tests/matrix/cases.py" % n for n in untested]
    with tempfile.TemporaryDirectory() as tmp:
        for op, cases in sorted(by_op.items()):
            if only and only not in op:
                continue
            failures += check_op(tg, op, cases, modes, tmp, verbose)
        failures += check_no_rule(tg, tmp)
    for f in failures:
        print("FAIL", f)
    n = sum(len(c) for c in by_op.values())
    print("vmap ops: %d ops, %d cases, %d never batched, %d without a rule; %d failures"
          % (len(by_op), n, len(NEVER_BATCHED), len(NO_RULE), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
