#!/usr/bin/env python3
"""The builtin matrix: every builtin, in every context, in every mode.

usage: run_matrix.py TG_BINARY GEN_BUILTINS [--only SUBSTRING] [--modes LIST] [--no-repl]
                     [--keep DIR] [-v]

The builtins come from the interpreter (`GEN_BUILTINS --json`, the op table
and every host-side name); their cases (argument forms) from cases.py. A
builtin the interpreter has with no case fails the test. Each case runs in
these contexts (docs/testing.md, "The builtin matrix"):

  eager      the call at top level, on tensors held in variables
  graph      the call inside a @graph function whose parameters are the
             tensors (printed inside, and returned and printed outside)
  eager_lit  the call with its operands written as literals
  static     the same inside a @graph function (constants of the trace)
  concrete   the call in a function made a graph value by concrete(f, spec...)
  grad_e     grad of sum(sin(call)) over its float operands, eagerly
  grad_g     the same inside a @graph function
  jvp_e      jvp of sum(sin(call)) with every float operand's tangent ones:
             forward mode (docs/training.md), which must equal the sum of
             grad_e's gradient elements (check `jvp_grad`)
  jvp_g      the same inside a @graph function
  repl       `tg repl` fed every case, with `:trace on` against without

All contexts but repl are written into scripts (many cases each) that run
as `tg run`, `--eager`, `--no-jit` and `--sync-jit`: every mode must print
the same for every context (check `modes`), and in every mode graph must
print what eager prints, static what eager_lit prints, concrete what eager
prints, grad_g what grad_e prints and jvp_g what jvp_e prints (checks
`graph`, `static`, `concrete`, `grad`, `jvp`); an error must be the same error (its message; the location is
compared between modes), and its report must give the file, line and
column, show the source line, and give every traceback line its location
(check `located`). A few cases also state the expected text or
numbers of their eager output (check `expect`: NumPy's or PyTorch's answer).

A failure is keyed `<builtin>/<form>:<check>`. KNOWN_FAILURES lists the
failures that are expected today (each with a one-line reason), as
patterns (fnmatch); the test fails on any other failure, and on a known
failure that no longer fails, so the list is emptied as fixes land.
"""
import fnmatch
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases as casedefs  # noqa: E402

MODES = {"written": [], "eager": ["--eager"], "nojit": ["--no-jit"], "sync": ["--sync-jit"]}
MARKER = "@@ "
UNITS_PER_SCRIPT = 150
TIMEOUT_S = 120

# pattern -> why it fails today. Remove an entry when its fix lands (the
# test fails while an entry matches nothing).
KNOWN_FAILURES = {
}

# builtins the matrix does not call, with the reason
NOT_CALLED = {
}

LOCATED = re.compile(r"^\S+\.tg:\d+:\d+: error: .*\n +\d+ \| ")   # file:line:col and the source line
FRAME = re.compile(r"^  in \S+ \(\S+:\d+:\d+\)")   # every traceback line has its location too
ERROR_LINE = re.compile(r"^(?:\S+:\d+:\d+: )?error: (.*)$", re.M)


# --------------------------------------------------------------------------
# Units: one case in one context, as tg source
# --------------------------------------------------------------------------

def shape_of(lit):
    v = eval(lit.replace("True", "1").replace("False", "0"))  # nested lists of numbers
    shape = []
    while isinstance(v, (list, tuple)):
        shape.append(len(v))
        v = v[0] if v else 0
    return tuple(shape)


def tensor_src(lit, dt):
    return "tensor(%s, dtype=%s)" % (lit, dt)


def literal_src(lit, dt):
    is_float = "." in lit or "e" in lit
    if (dt == "f32" and is_float) or (dt == "i64" and not is_float and "True" not in lit) or dt == "bool":
        return lit
    return tensor_src(lit, dt)


def fmt(call, args):
    return call.format(*args)


def contexts_of(c):
    ctx = ["eager", "graph"]
    if c.operands:
        ctx += ["eager_lit", "static"]
    if c.operands and c.ret:
        ctx.append("concrete")
    if c.grad:
        ctx += ["grad_e", "grad_g", "jvp_e", "jvp_g"]
    ctx.append("repl")
    if c.contexts is not None:
        ctx = [x for x in ctx if x in c.contexts]
    ctx = [x for x in ctx if x not in c.skip]
    return ctx


def grad_call(c, names):
    floats = [i for i, (_, dt) in enumerate(c.operands) if dt in ("f32", "f64")]
    argnums = "" if floats == [0] else ", argnums=%s" % (floats[0] if len(floats) == 1 else "(%s)" % ", ".join(map(str, floats)))
    params = ", ".join("a%d" % i for i in range(len(c.operands)))
    body = fmt(c.call, ["a%d" % i for i in range(len(c.operands))])
    return "grad(lambda %s: sum(sin(%s))%s)(%s)" % (params, body, argnums, ", ".join(names))


def jvp_call(c, names):
    """jvp of sum(sin(call)) in the direction of ones for every float operand
    (the others are held fixed by the lambda)."""
    floats = [i for i, (_, dt) in enumerate(c.operands) if dt in ("f32", "f64")]
    params = ", ".join("a%d" % i for i in floats)
    body = fmt(c.call, ["a%d" % i for i in range(len(c.operands))])
    primals = "".join("%s, " % names[i] for i in floats)
    tangents = "".join("ones_like(%s), " % names[i] for i in floats)
    return "jvp(lambda %s: sum(sin(%s)), (%s), (%s))[1]" % (params, body, primals, tangents)


def unit_source(c, k, ctx):
    """The top-level lines of case c (number k) in context ctx."""
    n = len(c.operands)
    names = ["a%d" % i for i in range(n)]
    assign = ["a%d = %s" % (i, tensor_src(*o)) for i, o in enumerate(c.operands)]
    seed = ["seed(0)"] if c.seed else []
    call = fmt(c.call, names)
    lit_call = fmt(c.call, [literal_src(*o) for o in c.operands])
    second = "print(r)" if c.ret else "print(None)"
    if ctx in ("eager", "eager_lit"):
        return assign + seed + ["r = %s" % (call if ctx == "eager" else lit_call), "print(r)", second]
    if ctx in ("graph", "static"):
        fn = "m%d_%s" % (k, "g" if ctx == "graph" else "s")
        params = ", ".join(names) if ctx == "graph" and n else "z"
        args = ", ".join(names) if ctx == "graph" and n else "tensor(0.0)"
        return (["@graph", "def %s(%s):" % (fn, params), "    r = %s" % (call if ctx == "graph" else lit_call),
                 "    print(r)", "    return %s" % ("r" if c.ret else "None")]
                + assign + seed + ["print(%s(%s))" % (fn, args)])
    if ctx == "concrete":
        specs = ", ".join("spec(%s, %s)" % (shape_of(l), dt) for l, dt in c.operands)
        return (["def m%d_p(%s):" % (k, ", ".join(names)), "    return %s" % call,
                 "m%d_c = concrete(m%d_p, %s)" % (k, k, specs)]
                + assign + seed + ["r = m%d_c(%s)" % (k, ", ".join(names)), "print(r)", "print(r)"])
    if ctx == "grad_e":
        return assign + seed + ["print(%s)" % grad_call(c, names)]
    if ctx == "grad_g":
        return (["@graph", "def m%d_d(%s):" % (k, ", ".join(names)), "    return %s" % grad_call(c, names)]
                + assign + seed + ["print(m%d_d(%s))" % (k, ", ".join(names))])
    if ctx == "jvp_e":
        return assign + seed + ["print(%s)" % jvp_call(c, names)]
    if ctx == "jvp_g":
        return (["@graph", "def m%d_j(%s):" % (k, ", ".join(names)), "    return %s" % jvp_call(c, names)]
                + assign + seed + ["print(m%d_j(%s))" % (k, ", ".join(names))])
    raise ValueError(ctx)


class Unit:
    def __init__(self, case, k, ctx):
        self.case, self.k, self.ctx = case, k, ctx
        self.id = "%s:%s" % (case.id, ctx)
        self.lines = unit_source(case, k, ctx)

    def text(self):
        return "print(\"%s%s\")\n%s\n" % (MARKER, self.id, "\n".join(self.lines))


PRELUDE_FILES = {"_matrix_tmp.csv": "a,b\n1.0,2.0\n3.0,4.5\n"}


def prelude():
    return "import optim\nimport nn\nimport math\n\n" + casedefs.PRELUDE


# --------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------

def run_tg(tg, args, cwd, stdin=None, merge=False):
    try:
        p = subprocess.run([tg] + args, cwd=cwd, input=stdin.encode() if stdin else None, capture_output=not merge,
                           stdout=subprocess.PIPE if merge else None, stderr=subprocess.STDOUT if merge else None,
                           timeout=TIMEOUT_S)
        return (p.stdout.decode("utf-8", "replace"),
                "" if merge else p.stderr.decode("utf-8", "replace"), p.returncode)
    except subprocess.TimeoutExpired:
        return "", "timeout after %d s\n" % TIMEOUT_S, "timeout"


def sections(out):
    secs, order, cur = {}, [], None
    for line in out.splitlines(keepends=True):
        if line.startswith(MARKER):
            cur = line[len(MARKER):].strip()
            order.append(cur)
            secs[cur] = ""
        elif cur is not None:
            secs[cur] += line
    return secs, order


def message(stderr):
    m = ERROR_LINE.search(stderr)
    if m:
        return m.group(1)
    return stderr.strip().splitlines()[0] if stderr.strip() else ""


UNITS_ALONE = set()   # units that crashed: run in a script of their own


def crashed(rc):
    return rc == "timeout" or (isinstance(rc, int) and (rc < 0 or rc >= 128))


def write_script(work, name, units):
    path = os.path.join(work, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(prelude() + "".join(u.text() for u in units))
    return os.path.basename(path)


def first_crash(tg, units, mode, work):
    """The index of the first unit that crashes in mode (a crash loses the
    output still buffered, so the markers do not say): bisection on prefixes."""
    lo, hi = 0, len(units)          # units[:hi] crashes, units[:lo] does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        rc = run_tg(tg, ["run"] + MODES[mode] + [write_script(work, "matrix_bisect.tg", units[:mid])], work)[2]
        if crashed(rc):
            hi = mid
        else:
            lo = mid
    return hi - 1


def run_units(tg, units, modes, work, log):
    """{mode: {unit id: (stdout, stderr, status)}} for every unit, running
    them UNITS_PER_SCRIPT to a script; a unit that ends its script (an error
    or a crash) takes the script's stderr and status, and the units after it
    run again in the next script."""
    results = {m: {} for m in modes}
    pending = list(units)
    part = 0
    while pending:
        batch = pending[:1] if pending[0].id in UNITS_ALONE else pending[:UNITS_PER_SCRIPT]
        part += 1
        name = write_script(work, "matrix_%03d.tg" % part, batch)
        outs = {m: run_tg(tg, ["run"] + MODES[m] + [name], work) for m in modes}
        crash = [m for m in modes if crashed(outs[m][2])]
        if crash and len(batch) > 1:
            # the unit that crashes runs on its own; the others run again
            c = first_crash(tg, batch, crash[0], work)
            pending = [batch[c]] + batch[:c] + batch[c + 1:] + pending[len(batch):]
            UNITS_ALONE.add(batch[c].id)
            continue
        stop = len(batch)
        for m, (out, err, rc) in outs.items():
            secs, order = sections(out)
            for u in batch:
                if u.id in secs:
                    results[m][u.id] = (secs[u.id], "", 0)
            if rc != 0 or err:
                last = order[-1] if order else batch[0].id
                results[m][last] = (secs.get(last, ""), err, rc)
                stop = min(stop, [u.id for u in batch].index(last) + 1)
        pending = batch[stop:] + pending[len(batch):]
        for u in batch[:stop]:
            for m in modes:
                results[m].setdefault(u.id, ("<not reached>\n", "", "none"))
    return results


REPL_CASES_PER_SESSION = 60


def repl_input(cases):
    lines = [prelude()]
    for c in cases:
        names = ["a%d" % i for i in range(len(c.operands))]
        lines.append("print(\"%s%s\")" % (MARKER, c.id))
        lines += ["a%d = %s" % (i, tensor_src(*o)) for i, o in enumerate(c.operands)]
        lines += (["seed(0)"] if c.seed else []) + ["print(%s)" % fmt(c.call, names)]
        if c.operands:
            lines += (["seed(0)"] if c.seed else []) + ["print(%s)" % fmt(c.call, [literal_src(*o) for o in c.operands])]
    return "\n".join(lines) + "\n"


def run_repl(tg, cases, work):
    """Every case fed to `tg repl` (stdout and stderr merged, so an error
    stays in its case's section), without and with `:trace on`: ({case id:
    eager section}, {case id: traced section}). A session that crashes runs
    again one case to a session."""
    eager, traced = {}, {}
    cases = [c for c in cases if "repl" in contexts_of(c)]
    for i in range(0, len(cases), REPL_CASES_PER_SESSION):
        chunk = cases[i:i + REPL_CASES_PER_SESSION]
        groups = [chunk]
        while groups:
            g = groups.pop(0)
            text = repl_input(g)
            e = run_tg(tg, ["repl"], work, text, merge=True)
            t = run_tg(tg, ["repl"], work, ":trace on\n" + text, merge=True)
            if (crashed(e[2]) or crashed(t[2])) and len(g) > 1:
                groups = [[c] for c in g] + groups
                continue
            for c in g:
                eager[c.id] = sections(e[0])[0].get(c.id, "<no output: exit %s>" % e[2])
                traced[c.id] = sections(t[0])[0].get(c.id, "<no output: exit %s>" % t[2])
                if len(g) == 1 and crashed(t[2]):
                    traced[c.id] += "<exit %s>" % t[2]
                if len(g) == 1 and crashed(e[2]):
                    eager[c.id] += "<exit %s>" % e[2]
    return eager, traced


def repl_view(text):
    """A REPL section without what `:trace on` adds on stderr (the `trace
    input` lines, timings, graph listings, notes); errors as their message."""
    out, in_graph = [], False
    for line in text.splitlines():
        if in_graph:
            in_graph = line != "}"
            continue
        if line.startswith("func @"):
            in_graph = True
            continue
        m = ERROR_LINE.match(line)
        if m:
            out.append("error: " + m.group(1))
        elif not line.startswith(("trace ", "note: ", "  ")):   # trace notes, and an error's source and frames
            out.append(line)
    return out


NUM = re.compile(r"-?(?:\d+\.\d*(?:e[+-]?\d+)?|\d+e[+-]?\d+|inf|nan)")


def expect_ok(c, out):
    if isinstance(c.expect, str):
        return out == c.expect
    got = [float(x) for x in NUM.findall(out)]
    return len(got) == len(c.expect) and all(abs(g - w) <= 1e-12 + 1e-10 * abs(w) for g, w in zip(got, c.expect))


# --------------------------------------------------------------------------
# Checking
# --------------------------------------------------------------------------

PAIRS = [("graph", "eager"), ("static", "eager_lit"), ("concrete", "eager"), ("grad_g", "grad_e"), ("jvp_g", "jvp_e")]
CHECK_NAME = {"graph": "graph", "static": "static", "concrete": "concrete", "grad_g": "grad", "jvp_g": "jvp"}


def jvp_matches_grad(jvp_out, grad_out):
    """Forward mode against reverse mode: the directional derivative along
    ones is the sum of the gradient's elements (None when either is not a
    number, e.g. an error: the pairs above compare those)."""
    j, g = NUM.findall(jvp_out), NUM.findall(grad_out)
    if len(j) != 1 or not g or any(x in ("nan", "inf", "-inf") for x in j + g):
        return None
    total = sum(float(x) for x in g)
    scale = sum(abs(float(x)) for x in g) + abs(float(j[0]))
    return abs(float(j[0]) - total) <= 1e-6 + 1e-4 * scale


def view(r):
    out, err, rc = r
    return (out, message(err), rc != 0)


def check(cases, units, results, repl, modes):
    """{failure key: one line of detail}."""
    fails = {}
    by_case = {}
    for u in units:
        by_case.setdefault(u.case.id, {})[u.ctx] = u
    for c in cases:
        us = by_case.get(c.id, {})
        for ctx, u in us.items():
            rs = {m: results[m][u.id] for m in modes}
            first = rs[modes[0]]
            for m in modes[1:]:
                if rs[m] != first:
                    fails.setdefault("%s:modes" % c.id, "%s: %s %r vs %s %r" % (ctx, modes[0], first, m, rs[m]))
                    break
        for ctx, u in us.items():
            for m in modes:
                out, err, rc = results[m][u.id]
                if rc == 1 and (not LOCATED.match(err) or any(not FRAME.match(l) for l in err.splitlines()
                                                               if l.startswith("  in "))):
                    fails.setdefault("%s:located" % c.id, "[%s] %s: the error has no file:line:col: %r" % (m, ctx, err[:300]))
        for a, b in PAIRS:
            if a in us and b in us:
                for m in modes:
                    va, vb = view(results[m][us[a].id]), view(results[m][us[b].id])
                    if va != vb:
                        fails.setdefault("%s:%s" % (c.id, CHECK_NAME[a]), "[%s] %s %r vs %s %r" % (m, a, va, b, vb))
                        break
        if "jvp_e" in us and "grad_e" in us:
            for m in modes:
                ok = jvp_matches_grad(results[m][us["jvp_e"].id][0], results[m][us["grad_e"].id][0])
                if ok is False:
                    fails.setdefault("%s:jvp_grad" % c.id, "[%s] jvp %r vs grad %r" % (
                        m, results[m][us["jvp_e"].id][0], results[m][us["grad_e"].id][0]))
                    break
        if c.expect is not None and "eager" in us:
            for m in modes:
                out = results[m][us["eager"].id][0]
                if not expect_ok(c, out):
                    fails.setdefault("%s:expect" % c.id, "[%s] %r, expected %r" % (m, out, c.expect))
                    break
        if repl is not None and "repl" in contexts_of(c):
            e, t = repl[0].get(c.id, ""), repl[1].get(c.id, "")
            if e is None or t is None or repl_view(e) != repl_view(t):
                fails["%s:repl" % c.id] = "eager %r vs traced %r" % (e, t)
    return fails


def main(argv):
    opts = [a for a in argv if a.startswith("-")]
    args = [a for a in argv if not a.startswith("-")]
    only, keep, verbose = None, None, "-v" in opts
    modes = list(MODES)
    it = iter(argv)
    for a in it:
        if a == "--only":
            only = next(it)
            args.remove(only)
        elif a == "--modes":
            modes = next(it).split(",")
            args.remove(",".join(modes))
        elif a == "--keep":
            keep = next(it)
            args.remove(keep)
    if len(args) != 2:
        print(__doc__)
        return 2
    tg, gen = os.path.abspath(args[0]), os.path.abspath(args[1])
    info = casedefs.load_info(gen)
    cases = casedefs.build(info)
    problems = []
    covered = {c.builtin for c in cases}
    missing = [n for n in info["names"] if n not in covered and n not in NOT_CALLED]
    for n in missing:
        problems.append("builtin `%s` has no case in the matrix (tests/matrix/cases.py; docs/testing.md)" % n)
    if only:
        cases = [c for c in cases if only in c.id]
    units = [Unit(c, k, ctx) for k, c in enumerate(cases) for ctx in contexts_of(c) if ctx != "repl"]
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="tg_matrix_") as work:
        for name, text in PRELUDE_FILES.items():
            with open(os.path.join(work, name), "w") as f:
                f.write(text)
        results = run_units(tg, units, modes, work, problems.append)
        repl = None if "--no-repl" in opts else run_repl(tg, cases, work)
        if keep:
            os.makedirs(keep, exist_ok=True)
            for f in os.listdir(work):
                if f.endswith(".tg"):
                    with open(os.path.join(work, f)) as src, open(os.path.join(keep, f), "w") as dst:
                        dst.write(src.read())
    fails = check(cases, units, results, repl, modes)
    known_hit = {p: [k for k in fails if fnmatch.fnmatchcase(k, p)] for p in KNOWN_FAILURES}
    new = sorted(k for k in fails if not any(fnmatch.fnmatchcase(k, p) for p in KNOWN_FAILURES))
    for k in new:
        problems.append("FAIL %s\n    %s" % (k, fails[k][:1500]))
    if not only:
        for p, hits in known_hit.items():
            if not hits:
                problems.append("KNOWN FAILURE NOW PASSES: %s (%s): remove it from KNOWN_FAILURES" % (p, KNOWN_FAILURES[p]))
    if verbose:
        for k in sorted(fails):
            if k not in new:
                print("known: %s\n    %s" % (k, fails[k][:300]))
    for p in problems:
        print(p)
    nb = len({c.builtin for c in cases})
    print("builtin matrix: %d builtins, %d cases, %d units x %d modes + %d repl cases x 2; "
          "%d failures (%d known, %d new); %.1f s"
          % (nb, len(cases), len(units), len(modes), sum(1 for c in cases if "repl" in contexts_of(c)),
             len(fails), len(fails) - len(new), len(new), time.time() - t0))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
