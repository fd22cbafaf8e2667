# fannkuch-redux (benchmarks game); a line-by-line port of fannkuch_redux.tg (explicit swap loops, no slice assignment).
import sys


def fannkuch(n):
    max_flips = 0
    checksum = 0
    sign = 1
    perm1 = list(range(n))
    count = list(range(n))
    perm = list(range(n))
    while True:
        k = perm1[0]
        if k != 0:
            for i in range(n):
                perm[i] = perm1[i]
            flips = 1
            kk = perm[k]
            while kk != 0:
                # reverse perm[0..k]
                lo = 0
                hi = k
                while lo < hi:
                    t = perm[lo]
                    perm[lo] = perm[hi]
                    perm[hi] = t
                    lo += 1
                    hi -= 1
                flips += 1
                k = kk
                kk = perm[kk]
            if flips > max_flips:
                max_flips = flips
            checksum += sign * flips
        # the next permutation, incrementally
        if sign == 1:
            t = perm1[0]
            perm1[0] = perm1[1]
            perm1[1] = t
            sign = -1
        else:
            t = perm1[1]
            perm1[1] = perm1[2]
            perm1[2] = t
            sign = 1
            done = True
            for r in range(2, n - 1):
                if count[r] != 0:
                    count[r] -= 1
                    done = False
                    break
                count[r] = r
                p0 = perm1[0]
                for i in range(r + 1):
                    perm1[i] = perm1[i + 1]
                perm1[r + 1] = p0
            if done:
                r = n - 1
                if count[r] == 0:
                    return (checksum, max_flips)
                count[r] -= 1


def main(n):
    if n < 3:
        print("0\nPfannkuchen(0) = 0")
        return None
    checksum, flips = fannkuch(n)
    print(checksum)
    print(f"Pfannkuchen({n}) = {flips}")


main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
