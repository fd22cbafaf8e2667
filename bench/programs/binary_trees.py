# binary-trees (benchmarks game) without classes; a line-by-line port of binary_trees.tg (a node is a tuple (left, right)).
import sys


def make_tree(d):
    if d == 0:
        return (None, None)
    d -= 1
    return (make_tree(d), make_tree(d))


def check_tree(node):
    left, right = node
    if left is None:
        return 1
    return 1 + check_tree(left) + check_tree(right)


def main(n):
    min_depth = 4
    max_depth = max(min_depth + 2, n)
    stretch = max_depth + 1
    print(f"stretch tree of depth {stretch}\t check: {check_tree(make_tree(stretch))}")
    long_lived = make_tree(max_depth)
    for d in range(min_depth, max_depth + 1, 2):
        iters = 2 ** (max_depth - d + min_depth)
        check = 0
        for i in range(iters):
            check += check_tree(make_tree(d))
        print(f"{iters}\t trees of depth {d}\t check: {check}")
    print(f"long lived tree of depth {max_depth}\t check: {check_tree(long_lived)}")


main(int(sys.argv[1]) if len(sys.argv) > 1 else 6)
