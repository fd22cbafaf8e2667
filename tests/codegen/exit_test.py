#!/usr/bin/env python3
"""Exit while a background compile runs ("no waiting at exit").

usage: exit_test.py TG_BINARY

A script that calls a small @graph function once leaves its compile to the
background worker and ends before it is done: the process must exit at once
with the right output (it no longer waits for LLVM), and the object cache
must never hold a partial entry. Then the same process is killed (SIGKILL)
at different moments of its compile, several times over one cache folder:
every `.o` in it must be a whole ELF object, and the next run must load or
compile its code and print the same as before.
"""
import os
import signal
import struct
import subprocess
import sys
import tempfile
import time

ONCE = """
@graph
def f(x):
    y = tanh(x * 0.5 + 1.0) * sigmoid(x) - x * x
    z = softmax(y @ transpose(y))
    return (z * 2.0 + y.sum()).mean()
print(f(ones((64, 64))))
"""
# The same call, then eager work long enough to be killed during the compile.
KILLED = ONCE + """
s = 0
for i in range(3000000):
    s += i
print(s)
"""


def run(tg, path, env, *flags):
    p = subprocess.run([tg, "run", *flags, path], capture_output=True, text=True, env=env, timeout=60)
    if p.returncode != 0:
        sys.exit("tg failed (%d): %s" % (p.returncode, p.stderr))
    return p.stdout, p.stderr


CACHE_MAGIC = b"tgobj01\n"   # a cache file's header: magic, object size, xxh3 (docs/codegen.md)


def whole_elf(path):
    """Whether the file is a cache header and a whole ELF64 object of the
    size the header gives, whose section headers fit in it."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(CACHE_MAGIC) or len(data) < 24:
        return False
    size, = struct.unpack_from("<Q", data, 8)
    data = data[24:]
    if len(data) != size:
        return False
    if len(data) < 64 or data[:4] != b"\x7fELF" or data[4] != 2:
        return False
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    return shoff + shentsize * shnum <= len(data)


def main():
    tg = sys.argv[1]
    problems = []
    with tempfile.TemporaryDirectory() as d:
        once, killed = os.path.join(d, "once.tg"), os.path.join(d, "killed.tg")
        with open(once, "w") as f:
            f.write(ONCE)
        with open(killed, "w") as f:
            f.write(KILLED)
        cache = os.path.join(d, "cache")
        env = dict(os.environ, TG_CACHE_DIR=cache)
        expected, _ = run(tg, once, env, "--sync-jit", "--no-cache")
        # ends before its background compile: right output, no waiting needed
        for _ in range(3):
            out, log = run(tg, once, env, "--trace")
            if out != expected:
                problems.append("a run that exits while compiling printed %r, not %r" % (out, expected))
            if "compile: in the background" not in log and "object cache hit" not in log:
                problems.append("the function was not compiled in the background:\n" + log)
        # killed at moments spread over the compile (it takes 10-60 ms)
        for delay_ms in (0, 5, 10, 15, 20, 30, 40, 60, 80, 120):
            p = subprocess.Popen([tg, "run", killed], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
            time.sleep(delay_ms / 1000)
            p.send_signal(signal.SIGKILL)
            p.wait()
        objects = 0
        if os.path.isdir(cache):
            for name in os.listdir(cache):
                objects += name.endswith(".o")
                if name.endswith(".o") and not whole_elf(os.path.join(cache, name)):
                    problems.append("a partial object in the cache: " + name)
        out, log = run(tg, once, env, "--trace", "--sync-jit")
        if out != expected:
            problems.append("after the killed runs the script printed %r, not %r" % (out, expected))
    if problems:
        sys.exit("\n".join(problems))
    print("exit while compiling: ok (%d whole objects in the cache after the killed runs)" % objects)


if __name__ == "__main__":
    main()
