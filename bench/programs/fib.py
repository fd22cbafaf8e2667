# fib: the doubly recursive Fibonacci function; a line-by-line port of fib.tg.
import sys


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
print(f"fib({n}) = {fib(n)}")
