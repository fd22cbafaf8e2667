# n-queens: count all solutions by backtracking; a line-by-line port of nqueens.tg (a board is a list of columns).
import sys


def safe(queens, col):
    row = len(queens)
    for r in range(row):
        c = queens[r]
        if c == col or c - col == row - r or col - c == row - r:
            return False
    return True


def solve(n, queens):
    if len(queens) == n:
        return 1
    total = 0
    for col in range(n):
        if safe(queens, col):
            total += solve(n, queens + [col])
    return total


def main(n):
    print(f"{n}-queens: {solve(n, [])} solutions")


main(int(sys.argv[1]) if len(sys.argv) > 1 else 6)
