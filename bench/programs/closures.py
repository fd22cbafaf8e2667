# closures: higher-order functions, closures made in loops, composition, map/filter/fold written by hand; a line-by-line port of closures.tg.
import sys

M = 1000003


def make_adder(k):
    return lambda x: (x + k) % M


def make_scaler(k):
    def scale(x):
        return (x * k) % M
    return scale


def compose(f, g):
    return lambda x: f(g(x))


def my_map(f, xs):
    return [f(x) for x in xs]


def my_filter(pred, xs):
    return [x for x in xs if pred(x)]


def fold(f, acc, xs):
    for x in xs:
        acc = f(acc, x)
    return acc


def make_pipeline(steps):
    pipeline = lambda x: x
    for i in range(steps):
        if i % 2 == 0:
            pipeline = compose(make_adder(i + 1), pipeline)
        else:
            pipeline = compose(make_scaler(i + 2), pipeline)
    return pipeline


def curry(f):
    return lambda a: lambda b: f(a, b)


def run(n):
    pipeline = make_pipeline(8)
    is_even = lambda x: x % 2 == 0
    add = curry(lambda a, b: (a + b) % M)
    total = 0
    xs = list(range(100))
    for rnd in range(n):
        ys = my_map(pipeline, xs)
        evens = my_filter(is_even, ys)
        plus = add(rnd)
        total = fold(lambda acc, y: (acc + plus(y)) % M, total, evens)
        xs = my_map(make_adder(rnd), xs)
    print(f"{n} rounds: total {total}, xs[0] {xs[0]}, xs[99] {xs[99]}")


run(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
