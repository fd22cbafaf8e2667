#!/usr/bin/env python3
"""The persistent object cache seen from the command line.

usage: object_cache_test.py TG_BINARY

A script's first run compiles its @graph functions and stores the objects in
$TG_CACHE_DIR; the second run loads them ("object cache hit" in --trace) and
prints the same; --no-cache neither reads nor writes the cache.
"""
import os
import subprocess
import sys
import tempfile

SCRIPT = """
@graph
def f(x, n):
    s = x * 0.0
    i = 0
    while i < n:
        s = s + tanh(x * i)
        i += 1
    return s
print(f(tensor([0.5, 1.0, 2.0]), 4))
"""


def run(tg, path, env, *flags):
    p = subprocess.run([tg, "run", "--trace", *flags, path], capture_output=True, text=True, env=env, timeout=60)
    if p.returncode != 0:
        sys.exit("tg failed: " + p.stderr)
    return p.stdout, p.stderr


def main():
    tg = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "cached.tg")
        with open(path, "w") as f:
            f.write(SCRIPT)
        cache = os.path.join(d, "cache")
        env = dict(os.environ, TG_CACHE_DIR=cache)
        problems = []
        out0, log0 = run(tg, path, env, "--no-cache")
        if os.path.exists(cache) and os.listdir(cache):
            problems.append("--no-cache wrote to the cache")
        out1, log1 = run(tg, path, env)
        out2, log2 = run(tg, path, env)
        if "object cache hit" in log1:
            problems.append("the first run hit an empty cache")
        if "object cache hit" not in log2:
            problems.append("the second run did not use the cache:\n" + log2)
        if not (out0 == out1 == out2):
            problems.append("outputs differ: %r %r %r" % (out0, out1, out2))
        if not os.path.isdir(cache) or not os.listdir(cache):
            problems.append("nothing was written to TG_CACHE_DIR")
        out3, log3 = run(tg, path, env, "--no-cache")
        if "object cache hit" in log3:
            problems.append("--no-cache read the cache")
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print("object cache: ok")


if __name__ == "__main__":
    main()
