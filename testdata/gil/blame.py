"""GIL blame 80/20: a latency thread (5 ms sleeps, as gil.py) and two holders:
hold_a computes all the time, hold_b computes in short bursts (BURST_MS of
perf_counter time) and time.sleep()s SLEEP_MS in between, so that A holds the
GIL about 80 % of the time and B about 20 % (the uprobe truth, truth.py
--blame latency, gives the real split).  Each thread prints
`NAME TID THREAD_TIME WALL` (latency adds its summed lateness past each sleep)."""
import sys, threading, time

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 1.5
BURST = float(sys.argv[2]) / 1000 if len(sys.argv) > 2 else 0.004
SLEEP = float(sys.argv[3]) / 1000 if len(sys.argv) > 3 else 0.010
out = {}

def spin(until):
    x = 0
    while time.perf_counter() < until:
        for i in range(200):
            x += i * i
    return x

def hold_a():
    t0, c0 = time.perf_counter(), time.thread_time()
    spin(t0 + SECONDS)
    out["hold_a"] = (threading.get_native_id(), time.thread_time() - c0,
                     time.perf_counter() - t0)

def hold_b():
    t0, c0 = time.perf_counter(), time.thread_time()
    while time.perf_counter() - t0 < SECONDS:
        spin(time.perf_counter() + BURST)
        time.sleep(SLEEP)
    out["hold_b"] = (threading.get_native_id(), time.thread_time() - c0,
                     time.perf_counter() - t0)

def latency():
    t0, c0 = time.perf_counter(), time.thread_time()
    late = 0.0
    while time.perf_counter() - t0 < SECONDS:
        s = time.perf_counter()
        time.sleep(0.005)
        late += time.perf_counter() - s - 0.005
    out["latency"] = (threading.get_native_id(), time.thread_time() - c0,
                      time.perf_counter() - t0, late)

ts = [threading.Thread(target=f, name=f.__name__) for f in (hold_a, hold_b, latency)]
for t in ts: t.start()
for t in ts: t.join()
for k, v in sorted(out.items()):
    print(k, *("%.6f" % x if isinstance(x, float) else x for x in v))
print("params seconds=%g burst_ms=%g sleep_ms=%g" % (SECONDS, BURST * 1000, SLEEP * 1000))
