"""Critical path: the request thread R (function `request`) puts a request on
a queue and waits for the reply (queue.get), measuring its interval with
time.monotonic_ns() (CLOCK_MONOTONIC, perf's clock with -k CLOCK_MONOTONIC);
worker W (function `serve`) takes the request and acquires a threading.Lock
held by X (function `hold`): X takes the lock and waits (Event go) until R
starts the request and wakes it, then runs f() with the lock held, CPU-bound
Python for a planted F_MS ms, and releases it; so f lies inside R's interval.  REQUESTS requests,
spaced 100 ms apart.  Prints per request:
  req I R_START_NS R_END_NS R_MS F_START_NS F_END_NS F_MS
and per thread `NAME TID THREAD_TIME WALL`."""
import queue, sys, threading, time

REQUESTS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
F_MS = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0
lock = threading.Lock()
req_q, rep_q = queue.Queue(), queue.Queue()
go = [threading.Event() for _ in range(REQUESTS)]
ready = [threading.Event() for _ in range(REQUESTS)]
served = [threading.Event() for _ in range(REQUESTS)]
rows, fx, out = [], {}, {}

def f(i):
    a = time.monotonic_ns()
    until = time.perf_counter() + F_MS / 1000
    x = 0
    while time.perf_counter() < until:
        for k in range(200):
            x += k * k
    fx[i] = (a, time.monotonic_ns())
    return x

def hold():
    t0, c0 = time.perf_counter(), time.thread_time()
    for i in range(REQUESTS):
        with lock:
            ready[i].set()
            go[i].wait()
            f(i)
        served[i].wait()   # W has had the lock: only then take it again
    out["X"] = (threading.get_native_id(), time.thread_time() - c0, time.perf_counter() - t0)

def serve():
    t0, c0 = time.perf_counter(), time.thread_time()
    while True:
        r = req_q.get()
        if r is None:
            break
        lock.acquire()
        lock.release()
        served[r].set()
        rep_q.put(r)
    out["W"] = (threading.get_native_id(), time.thread_time() - c0, time.perf_counter() - t0)

def request():
    t0, c0 = time.perf_counter(), time.thread_time()
    for i in range(REQUESTS):
        time.sleep(0.1)
        ready[i].wait()
        a = time.monotonic_ns()
        go[i].set()
        req_q.put(i)
        rep_q.get()
        rows.append((i, a, time.monotonic_ns()))
    req_q.put(None)
    out["R"] = (threading.get_native_id(), time.thread_time() - c0, time.perf_counter() - t0)

ts = [threading.Thread(target=fn, name=fn.__name__) for fn in (hold, serve, request)]
for t in ts: t.start()
for t in ts: t.join()
for k, v in sorted(out.items()):
    print(k, *("%.6f" % x if isinstance(x, float) else x for x in v))
for i, a, b in rows:
    fa, fb = fx[i]
    print("req %d %d %d %.3f %d %d %.3f" % (i, a, b, (b - a) / 1e6, fa, fb, (fb - fa) / 1e6))
