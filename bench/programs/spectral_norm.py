# spectral-norm (benchmarks game), floats; a line-by-line port of spectral_norm.tg (explicit loops).
import sys
from math import sqrt


ONE = 1.0


def eval_a(i, j):
    return ONE / ((i + j) * (i + j + 1) // 2 + i + 1)


def a_times_u(u, n):
    out = []
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += eval_a(i, j) * u[j]
        out.append(s)
    return out


def at_times_u(u, n):
    out = []
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += eval_a(j, i) * u[j]
        out.append(s)
    return out


def ata_times_u(u, n):
    return at_times_u(a_times_u(u, n), n)


def main(n):
    u = [1.0] * n
    v = u
    for k in range(10):
        v = ata_times_u(u, n)
        u = ata_times_u(v, n)
    vbv = 0.0
    vv = 0.0
    for i in range(n):
        vbv += u[i] * v[i]
        vv += v[i] * v[i]
    if n == 0:
        print(f"{0.0:.9f}")
    else:
        print(f"{sqrt(vbv / vv):.9f}")


main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
