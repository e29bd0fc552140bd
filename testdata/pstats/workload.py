# testdata/pstats/workload.py: a small deterministic workload for cProfile
# (python -m cProfile -o FILE workload.py): each function shows one reading.
import sys


def tiny(x):
    # a cheap callee of inline_cost
    return x + 1


def inline_cost(n):
    # a large tottime with cheap callees: the cost is inline, in the loop
    acc = 0
    for i in range(n):
        acc = (acc * 31 + i * i) % 1000003
    for i in range(10):
        acc = tiny(acc)
    return acc


def too_often(x):
    # called very often, each call cheap: work done too often
    return (x * 7) & 0xFFFF


def many_calls(n):
    total = 0
    for i in range(n):
        total += too_often(i)
    return total


def fib(n):
    # direct recursion: ncalls shows as total/primitive
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def even(n):
    # mutual recursion with odd
    return True if n == 0 else odd(n - 1)


def odd(n):
    return False if n == 0 else even(n - 1)


def with_builtins(n):
    # builtins: sorted, sum, len and list.append appear as {built-in ...}
    items = []
    for i in range(n):
        items.append((i * 7919) % 1009)
    return len(sorted(items)) + sum(items)


def main():
    r = inline_cost(300000)
    r += many_calls(60000)
    r += fib(18)
    r += even(200)
    r += with_builtins(20000)
    sys.stdout.write("%d\n" % r)


if __name__ == "__main__":
    main()
