"""perfan test workload: a pure-Python request handler (issue 6).

Call tree (fixed counts, deterministic input, no timing-dependent code):

    <module> -> main -> handle_request -> make_items
                                       -> dedup            (quadratic: list + `in`)
                                       -> serialize_items  (json.dumps per item)
                                       -> build_tree       (BUILDS trees)
                                       -> walk             (recursive, 10 levels)

Each function's share of the CPU time is meant to be the same from run to
run and under Python 3.12 and 3.13 (within about a percentage point; on the
recording VM: dedup ~36 %, walk ~34 %, serialize_items ~24 %, build_tree
~6 %, make_items ~0.6 %), so that the total shares of a 3.12 and a 3.13
recording can be compared:
  - the garbage collector is off while requests run (no collections landing
    in whichever function happens to allocate; nothing here makes cycles);
  - every working set is small (a tree has 1023 nodes, made of tuples, not
    dicts whose lookups depend on the string hash seed), so that cache
    pressure from elsewhere on the machine slows every part alike;
  - the tree labels and one JSON field are ~1000-bit ints, so that walk,
    build_tree and the json encoding spend part of their time in C integer
    arithmetic, which costs the same in both versions, rather than only in
    the interpreter's call path, which does not.
"""
import gc
import json
import sys

REQUESTS = 100
N_ITEMS = 2400
TREE_DEPTH = 9
LABEL_BASE = 10 ** 300
BUILDS = 8
WALKS = 7


def make_items(n):
    # ids repeat: about half of them are duplicates
    return [(i * 7919) % (n // 2) for i in range(n)]


def dedup(items):
    # Deliberately quadratic: `in` scans the output list for every item.
    out = []
    for it in items:
        if it not in out:
            out.append(it)
    return out


def serialize_items(ids):
    # One json.dumps call per item instead of one for the whole list.
    parts = []
    for i in ids:
        rec = {"id": i, "name": "user%d" % i, "score": (i * 37) % 101,
               "tags": ["a", "b", str(i % 7)], "token": LABEL_BASE + i,
               "address": {"street": "%d Main St" % i, "zip": "%05d" % (i * 13)}}
        parts.append(json.dumps(rec, sort_keys=True))
    return "[" + ",".join(parts) + "]"


def build_tree(depth, label):
    # A complete binary tree of (label, kids) tuples.
    if depth == 0:
        return (label, ())
    return (label, (build_tree(depth - 1, label * 2 + 1),
                    build_tree(depth - 1, label * 2 + 2)))


def walk(node, depth):
    # Recursive tree walk: depth-weighted checksum of the labels.
    label, kids = node
    total = label * depth
    for kid in kids:
        total += walk(kid, depth + 1)
    return total


def handle_request(k):
    items = make_items(N_ITEMS + k % 8)
    uniq = dedup(items)
    body = serialize_items(uniq)
    checksum = 0
    for j in range(BUILDS):
        tree = build_tree(TREE_DEPTH, LABEL_BASE + k + j)
        for _ in range(WALKS):
            checksum += walk(tree, 1)
    return len(body) + checksum


def main():
    gc.disable()
    requests = int(sys.argv[1]) if len(sys.argv) > 1 else REQUESTS
    total = 0
    for k in range(requests):
        total += handle_request(k)
    print("result", total % 1000000007)


if __name__ == "__main__":
    main()
