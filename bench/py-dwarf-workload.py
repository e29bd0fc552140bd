# bench/py-dwarf-workload.py: the Python workload of bench/resolve.sh's
# (c2) input, a --call-graph dwarf recording of an interpreter with its
# debug information (python3.11-dbg): deep C stacks under
# _PyEval_EvalFrameDefault, recursion, a C sort calling back into Python
# and JSON encoding, for SECONDS (default 8).
import json
import sys
import time


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def work(seconds):
    start = time.time()
    while time.time() - start < seconds:
        fib(18)
        json.dumps({"a": list(range(200))})
        sorted(range(3000), key=lambda x: -x)


work(float(sys.argv[1]) if len(sys.argv) > 1 else 8)
