# The same loop as bench/interp_loop.tg, for CPython.
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
s = 0
for i in range(n):
    s = s + (i * i) % 7
print(s)
