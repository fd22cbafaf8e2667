# Shared helpers of the codegen benchmarks (bench/run_scalar_loop_bench,
# run_chain_bench, run_mlp_bench, run_first_call_bench): run a command as a
# child process and measure it (wall clock, CPU time and peak RSS of that
# child alone, via wait4), run several commands interleaved and keep the
# best of each, and parse the `key value...` lines the benchmark programs
# print. Imported by /usr/bin/python3 (the Python with NumPy and PyTorch).
import os
import statistics
import subprocess
import sys
import tempfile
import time


class Run:
    """One finished child process: wall and CPU seconds, peak RSS (KiB), output."""

    def __init__(self, wall, cpu, maxrss_kb, out, err):
        self.wall, self.cpu, self.maxrss_kb, self.out, self.err = wall, cpu, maxrss_kb, out, err

    def value(self, key):
        """The first number after `key` on the line that starts with it."""
        return float(self.values(key)[0])

    def values(self, key):
        """The words after `key` on the first line of stdout that starts with it."""
        for line in self.out.splitlines():
            words = line.split()
            if words and words[0] == key:
                return words[1:]
        raise KeyError("no line `%s ...` in the output of the benchmark program:\n%s%s" % (key, self.out, self.err))


def run(cmd, env=None, check=True):
    """Runs `cmd` (a list) and measures it; raises when it fails (check)."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    with tempfile.TemporaryFile() as fout, tempfile.TemporaryFile() as ferr:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=fout, stderr=ferr, env=full_env)
        _, status, ru = os.wait4(p.pid, 0)  # this child's own rusage (Popen must not reap it first)
        # Tell Popen it is reaped: otherwise its destructor keeps it for a later
        # waitpid that could reap an unrelated child given the recycled pid.
        p.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - t0
        fout.seek(0)
        ferr.seek(0)
        out, err = fout.read().decode(), ferr.read().decode()
    if check and p.returncode != 0:
        sys.stderr.write("benchmark command failed (exit %d): %s\n%s%s" % (p.returncode, " ".join(cmd), out, err))
        sys.exit(1)
    return Run(wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, out, err)


def interleaved(ways, reps):
    """Runs each (name, cmd, env) once per round, `reps` rounds; {name: [Run]}."""
    runs = {name: [] for name, _, _ in ways}
    for _ in range(reps):
        for name, cmd, env in ways:
            runs[name].append(run(cmd, env))
    return runs


def best(runs, attr):
    return min(getattr(r, attr) for r in runs)


def median(xs):
    return statistics.median(xs)


def load_note():
    """The load average, to print beside figures taken on a shared machine."""
    try:
        one, five, _ = os.getloadavg()
        return "load average %.1f / %.1f (1 / 5 min) on %d CPUs" % (one, five, os.cpu_count())
    except OSError:
        return ""


def fmt_time(seconds):
    if seconds >= 1.0:
        return "%.2f s" % seconds
    if seconds >= 1e-3:
        return "%.1f ms" % (seconds * 1e3)
    return "%.1f us" % (seconds * 1e6)


def table(header, rows):
    """Prints rows (lists of strings) as aligned columns, the first left-aligned."""
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    for r in [header] + rows:
        cells = [str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths))]
        print("  " + "  ".join(cells))
