"""The runner the CPython-differential generators share (python_targets.py,
python_control.py): each generated program, which is Python and tg at once,
runs with CPython and with tg, and tg must print exactly what CPython
prints and exit 0. A program CPython rejects is dropped and counted. On a
mismatch the script is saved under --keep and the run exits 1."""
import argparse
import os
import random
import subprocess
import sys
import tempfile


def run(cmd, path):
    p = subprocess.run(cmd + [path], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def main(name, make_program, check_dropped):
    """make_program(rng) -> text; check_dropped(ran, dropped, programs) exits when the generator drifted."""
    ap = argparse.ArgumentParser()
    ap.add_argument("tg")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--programs", type=int, default=300)
    ap.add_argument("--keep", default=None)
    ap.add_argument("--emit", action="store_true")
    a = ap.parse_args()
    keep = a.keep or os.path.join(os.path.dirname(os.path.abspath(a.tg)), "temp", name)
    rng = random.Random(a.seed)
    ran = dropped = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.tg")
        for i in range(a.programs):
            text = make_program(rng)
            if a.emit:
                print("# program %d\n%s" % (i, text))
                continue
            with open(path, "w") as f:
                f.write(text)
            py = run([sys.executable], path)
            if py[0] != 0:
                dropped += 1
                continue
            got = run([a.tg, "run"], path)
            ran += 1
            if got[:2] != (0, py[1]):
                os.makedirs(keep, exist_ok=True)
                saved = os.path.join(keep, "seed%d_program%d.tg" % (a.seed, i))
                with open(saved, "w") as f:
                    f.write(text)
                print("MISMATCH seed %d program %d (saved: %s)\n--- CPython\n%s--- tg (exit %d)\n%s%s"
                      % (a.seed, i, saved, py[1], got[0], got[1], got[2]))
                sys.exit(1)
    if not a.emit:
        print("%d programs agree with CPython (%d that CPython rejects dropped)" % (ran, dropped))
        check_dropped(ran, dropped, a.programs)
