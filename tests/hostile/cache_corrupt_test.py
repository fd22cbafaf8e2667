#!/usr/bin/env python3
"""A compile (object) cache that heals (docs/codegen.md "The object cache").

usage: cache_corrupt_test.py TG_BINARY

Fills a TG_CACHE_DIR, then damages every object in it (cut to half, emptied,
garbage of the right length) and runs the script twice more: both runs must
print what the first printed, the first recompiling, the second hitting the
rewritten cache. Then runs with a file-size limit too small for any object
(as a full disk would): the run succeeds and leaves no temporary file.
"""
import os
import resource
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "codegen"))
from object_cache_test import SCRIPT  # noqa: E402  (one @graph function with a loop: one cached object)


def run(tg, path, env, limit=None):
    def preexec():
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    p = subprocess.run([tg, "run", "--trace", "--sync-jit", path], capture_output=True, text=True, env=env,
                       timeout=120, preexec_fn=preexec)
    return p.returncode, p.stdout, p.stderr


def objects(cache):
    return sorted(os.path.join(cache, n) for n in os.listdir(cache) if n.endswith(".o"))


def main():
    tg = sys.argv[1]
    problems = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "cached.tg")
        with open(path, "w") as f:
            f.write(SCRIPT)
        cache = os.path.join(d, "cache")
        env = dict(os.environ, TG_CACHE_DIR=cache)
        code, expected, log = run(tg, path, env)
        if code != 0 or not os.path.isdir(cache) or not objects(cache):
            sys.exit("the first run failed or wrote no object: " + log)
        damages = {
            "cut to half": lambda b: b[: len(b) // 2],
            "emptied": lambda b: b"",
            "garbage of the same length": lambda b: bytes((x * 7 + 1) & 255 for x in b),
        }
        for what, damage in damages.items():
            for o in objects(cache):
                with open(o, "rb") as f:
                    data = f.read()
                with open(o, "wb") as f:
                    f.write(damage(data))
            for attempt in ("first", "second"):
                code, out, log = run(tg, path, env)
                if code != 0 or out != expected:
                    problems.append("objects %s: the %s run after failed (exit %d): %s%s" % (what, attempt, code, out, log))
                elif attempt == "second" and "object cache hit" not in log:
                    problems.append("objects %s: the cache was not rewritten (no hit on the second run)" % what)
        # a full disk, as the file-size limit shows it: no object fits
        for o in objects(cache):
            os.remove(o)
        code, out, log = run(tg, path, env, limit=512)
        if code != 0 or out != expected:
            problems.append("under a file-size limit the run failed (exit %d): %s" % (code, log))
        left = [n for n in os.listdir(cache) if ".tmp" in n]
        if left:
            problems.append("temporary files left in the cache: %s" % left)
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print("the cache heals from cut, emptied and garbled objects; a full disk leaves no temporary file")


if __name__ == "__main__":
    main()
