#!/usr/bin/env python3
"""Golden script tests.

usage: run_scripts.py [--update] TG_BINARY DIR...

Every `<name>.tg` under each DIR (recursively) runs in four modes — as
written, `--eager`, `--no-jit` and `--sync-jit` (every graph compiled before
its first call: as written, small graphs start on the graph interpreter while
they compile in the background, so a short script may never run native
code) — from the script's own folder. All modes
must give identical stdout, stderr and exit status, and they must match the
expected files beside the script:
  <name>.out   expected stdout (required)
  <name>.err   expected stderr, exactly (for failing scripts; absent = empty)
  <name>.args  optional: script arguments, one per line
  <name>.modes optional: the modes to run, by name, separated by spaces or
               newlines (`written`, `eager`, `nojit`, `sync`); the default is all four.
               Used for trace-time errors that exist only in graph modes
               (e.g. `written nojit` in tests/scripts/graph_errors/). The modes
               that run must still agree with each other and with the expected
               files. An unknown mode name fails the test.
  <name>.ir    optional: golden graph IR. The script additionally runs once as
               `tg run --dump-graphs TMPDIR <name>.tg` (from its folder, so
               `loc(...)` shows the bare file name); every traced graph is
               written as `<function>.<n>.txt` (text) and `.dot`. The .txt
               files, sorted by file name, each preceded by a line
               `// <function>.<n>.txt`, are concatenated and must equal
               <name>.ir. That run must also print <name>.out and exit like
               the other modes, and must dump at least one graph.
               Used by tests/scripts/graph_ir/ (one script per converted
               construct of docs/graph.md "Static and dynamic"). It runs with `--dynamic-shapes auto`
               (the default), whatever TG_DYNAMIC_SHAPES says.
A script with a .err file must exit with status 1; others with 0.
--update rewrites .out / .err from the as-written run (or the first mode
listed in .modes) and .ir from the dump run, where a .ir exists (create an
empty one to start a golden IR test); review them by hand!
Files named *_module.tg are imported by other scripts and are not run on their
own. When the script's folder has a `lib` subfolder, TG_PATH points at it
(to test the module search path); `lib` folders are not searched for scripts.
"""
import difflib
import os
import subprocess
import sys
import tempfile

MODES = [("written", []), ("eager", ["--eager"]), ("nojit", ["--no-jit"]), ("sync", ["--sync-jit"])]
TIMEOUT_S = 60


def read(path):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return f.read()


def run(tg, script, mode_flags, args):
    folder, name = os.path.split(script)
    env = dict(os.environ)
    env.pop("TG_PATH", None)
    # OpenBLAS picks its GEMM kernels by CPU (AVX2 or AVX-512 ones round a
    # matmul's sums differently): the expected files are Haswell's (AVX2),
    # which every x86-64 machine tg is tested on can run.
    env.setdefault("OPENBLAS_CORETYPE", "Haswell")
    if os.path.isdir(os.path.join(folder, "lib")):
        env["TG_PATH"] = os.path.join(folder, "lib")
    try:
        p = subprocess.run([tg, "run"] + mode_flags + [name] + args, cwd=folder, capture_output=True,
                           timeout=TIMEOUT_S, env=env)
        return p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), p.returncode
    except subprocess.TimeoutExpired:
        return "", "timeout after %d s" % TIMEOUT_S, -1


def dump_graphs(tg, script, args):
    """Runs the script with --dump-graphs into a fresh folder; returns
    (stdout, stderr, status, concatenated .txt graphs, number of graphs)."""
    with tempfile.TemporaryDirectory(prefix="tg-ir-") as tmp:
        # the golden IR is that of the default mode, also when the suite runs
        # with TG_DYNAMIC_SHAPES=always (the ctest scripts_dynamic_always)
        out, err, code = run(tg, script, ["--dump-graphs", tmp, "--dynamic-shapes", "auto"], args)
        names = sorted(f for f in os.listdir(tmp) if f.endswith(".txt"))
        text = ""
        for n in names:
            body = read(os.path.join(tmp, n))
            if body and not body.endswith("\n"):
                body += "\n"
            text += "// %s\n%s" % (n, body or "")
        return out, err, code, text, len(names)


def unified_diff(expected, got, what):
    """The lines that differ, with 3 lines of context (not both whole texts:
    a long output with one wrong line should show that line)."""
    lines = difflib.unified_diff(expected.splitlines(True), got.splitlines(True),
                                 "expected " + what, "got " + what)
    return "".join(l if l.endswith("\n") else l + "\n\\ No newline at end\n" for l in lines)


def scripts_in(d):
    out = []
    for root, dirs, files in os.walk(d):
        dirs[:] = [x for x in dirs if x != "lib"]
        for f in files:
            if f.endswith(".tg") and not f.endswith("_module.tg"):
                out.append(os.path.join(root, f))
    return sorted(out)


def main():
    argv = sys.argv[1:]
    update = "--update" in argv
    argv = [a for a in argv if a != "--update"]
    if len(argv) < 2:
        print(__doc__)
        return 2
    tg = os.path.abspath(argv[0])
    passed = failed = 0
    for d in argv[1:]:
        for script in scripts_in(os.path.abspath(d)):
            base = script[:-3]
            args_text = read(base + ".args")
            args = args_text.splitlines() if args_text else []
            modes_text = read(base + ".modes")
            problems = []
            if modes_text is None:
                modes = MODES
            else:
                known = dict(MODES)
                names = modes_text.split()
                for n in names:
                    if n not in known:
                        problems.append("%s.modes: unknown mode `%s` (known: %s)"
                                        % (os.path.basename(base), n, " ".join(m for m, _ in MODES)))
                modes = [(n, known[n]) for n in names if n in known]
                if not modes:
                    problems.append("%s.modes lists no mode to run" % os.path.basename(base))
            results = {m: run(tg, script, flags, args) for m, flags in modes}
            out, err, code = results[modes[0][0]] if modes else ("", "", 0)
            if update and modes:
                with open(base + ".out", "w", encoding="utf-8") as f:
                    f.write(out)
                if err:
                    with open(base + ".err", "w", encoding="utf-8") as f:
                        f.write(err)
                elif os.path.exists(base + ".err"):
                    os.remove(base + ".err")
            exp_ir = read(base + ".ir")
            if exp_ir is not None:
                ir_out, ir_err, ir_code, ir, ir_count = dump_graphs(tg, script, args)
                if update:
                    with open(base + ".ir", "w", encoding="utf-8") as f:
                        f.write(ir)
                    exp_ir = ir
            exp_out = read(base + ".out")
            exp_err = read(base + ".err") or ""
            if exp_out is None:
                problems.append("missing %s.out" % os.path.basename(base))
            if exp_ir is not None:
                results["dump-graphs"] = (ir_out, ir_err, ir_code)
                if ir_count == 0:
                    problems.append("[dump-graphs] no graph was dumped, but %s.ir exists"
                                    % os.path.basename(base))
                elif ir != exp_ir:
                    problems.append("[dump-graphs] graph IR differs from %s.ir:\n%s"
                                    % (os.path.basename(base), unified_diff(exp_ir, ir, "graph IR")))
            for mode, (o, e, c) in results.items():
                if exp_out is not None and o != exp_out:
                    problems.append("[%s] stdout differs:\n%s" % (mode, unified_diff(exp_out, o, "stdout")))
                if e != exp_err:
                    problems.append("[%s] stderr differs:\n%s" % (mode, unified_diff(exp_err, e, "stderr")))
                want = 1 if exp_err else 0
                if c != want:
                    problems.append("[%s] exit status %d, expected %d" % (mode, c, want))
            rel = os.path.relpath(script, os.path.abspath(d))
            if problems:
                failed += 1
                print("FAIL %s" % rel)
                for p in problems:
                    print("    " + p.replace("\n", "\n    "))
            else:
                passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
