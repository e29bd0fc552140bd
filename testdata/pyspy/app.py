# app.py: the workload the py-spy-format stacks of testdata/pyspy were sampled
# from: main -> load_rows, summarize_slow (three hot lines), summarize_fast,
# format_report; a "worker" thread; with --child, a second process.
import subprocess
import sys
import threading


def load_rows(n):
    return [(i, (i * 7919) % 1000, str(i)) for i in range(n)]


def summarize_slow(rows, fixed):
    total = 0
    for i, v, s in rows:
        total += sum(x * v for x in range(40 if not fixed else 4))
        total += len([c for c in s * 40])
        total ^= hash(s)
    return total


def summarize_fast(rows):
    return sum(v for _, v, _ in rows)


def format_report(total, fast):
    return "\n".join("%d %d" % (total % (k + 1), fast) for k in range(20000))


def background(rows):
    for _ in range(2):
        summarize_fast(rows)
        sum(len(s) for _, _, s in rows)


def main():
    fixed = "--fixed" in sys.argv
    rows = load_rows(40000)
    worker = threading.Thread(target=background, args=(rows * 10,),
                              name="worker")
    worker.start()
    child = None
    if "--child" in sys.argv:
        child = subprocess.Popen([sys.executable, sys.argv[0], "--leaf"] +
                                 (["--fixed"] if fixed else []))
    total = 0
    for _ in range(6):
        total += summarize_slow(rows, fixed)
        total += summarize_fast(rows)
    out = format_report(total, summarize_fast(rows))
    worker.join()
    if child:
        child.wait()
    print(len(out))


if __name__ == "__main__":
    main()
