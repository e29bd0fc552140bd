"""Idle against contention: a pool of 3 worker threads (function `worker`)
blocking in queue.get(); a producer puts an item every PERIOD seconds for
SECONDS; each item is a short CPU job (JOB seconds of perf_counter time).
Each worker measures its own time blocked in get() (perf_counter around
it).  Prints `NAME TID THREAD_TIME WALL BLOCKED_IN_GET JOBS` per worker and
`producer TID THREAD_TIME WALL ITEMS`."""
import queue, sys, threading, time

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
PERIOD = float(sys.argv[2]) if len(sys.argv) > 2 else 0.05
JOB = float(sys.argv[3]) if len(sys.argv) > 3 else 0.005
NWORK = 3
q = queue.Queue()
out = {}

def job(until):
    x = 0
    while time.perf_counter() < until:
        for i in range(200):
            x += i * i
    return x

def worker(name):
    t0, c0 = time.perf_counter(), time.thread_time()
    blocked, jobs = 0.0, 0
    while True:
        a = time.perf_counter()
        item = q.get()
        blocked += time.perf_counter() - a
        if item is None:
            break
        job(time.perf_counter() + JOB)
        jobs += 1
    out[name] = (threading.get_native_id(), time.thread_time() - c0,
                 time.perf_counter() - t0, blocked, jobs)

def producer():
    t0, c0 = time.perf_counter(), time.thread_time()
    n = 0
    while time.perf_counter() - t0 < SECONDS:
        q.put(n)
        n += 1
        time.sleep(PERIOD)
    for _ in range(NWORK):
        q.put(None)
    out["producer"] = (threading.get_native_id(), time.thread_time() - c0,
                       time.perf_counter() - t0, n)

ts = [threading.Thread(target=worker, args=("worker_%d" % i,), name="worker_%d" % i)
      for i in range(NWORK)]
for t in ts: t.start()
p = threading.Thread(target=producer, name="producer")
p.start()
p.join()
for t in ts: t.join()
for k, v in sorted(out.items()):
    print(k, *("%.6f" % x if isinstance(x, float) else x for x in v))
