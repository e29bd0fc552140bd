"""GIL workload: N CPU-bound threads and one latency thread, each thread
measuring its own CPU time (time.thread_time) and wall time; the ground truth
of GIL waits comes from perf probe uprobes on take_gil and its return."""
import sys, threading, time

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
out = {}

def crunch(name):
    t0, c0 = time.perf_counter(), time.thread_time()
    x = 0
    while time.perf_counter() - t0 < SECONDS:
        for i in range(2000):
            x += i * i
    out[name] = (threading.get_native_id(), time.thread_time() - c0,
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

ts = [threading.Thread(target=crunch, args=("cpu_%d" % i,), name="cpu_%d" % i)
      for i in range(N)]
ts.append(threading.Thread(target=latency, name="latency"))
for t in ts: t.start()
for t in ts: t.join()
for k, v in sorted(out.items()):
    print(k, *("%.6f" % x if isinstance(x, float) else x for x in v))
