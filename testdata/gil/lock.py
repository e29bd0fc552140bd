"""Lock against GIL: hold_lock takes a threading.Lock and runs CPU-bound
Python for a planted HOLD seconds (perf_counter); wait_for_lock calls
lock.acquire() meanwhile and measures how long it blocked; burn runs
CPU-bound Python throughout, so that there is GIL contention too.  The main
thread starts wait_for_lock only once hold_lock has the lock (an Event, waited
on by the main thread), so wait_for_lock blocks for nearly all of the hold.
Prints `NAME TID THREAD_TIME WALL` per thread, then
`planted_hold SECONDS` (hold_lock's measured time with the lock held) and
`waiter_blocked SECONDS` (wait_for_lock's measured time in acquire()) and
`hold_after_waiter_start SECONDS` (from wait_for_lock's call of acquire() to
hold_lock's release: the part of the hold that the waiter waited through)."""
import sys, threading, time

HOLD = float(sys.argv[1]) if len(sys.argv) > 1 else 0.6
lock = threading.Lock()
held = threading.Event()
out, fig = {}, {}

def spin(until):
    x = 0
    while time.perf_counter() < until:
        for i in range(200):
            x += i * i
    return x

def hold_lock():
    t0, c0 = time.perf_counter(), time.thread_time()
    with lock:
        a = time.perf_counter()
        held.set()
        spin(a + HOLD)
        fig["release"] = time.perf_counter()
        fig["planted_hold"] = fig["release"] - a
    spin(time.perf_counter() + 0.1)
    out["hold_lock"] = (threading.get_native_id(), time.thread_time() - c0,
                        time.perf_counter() - t0)

def wait_for_lock():
    t0, c0 = time.perf_counter(), time.thread_time()
    a = time.perf_counter()
    lock.acquire()
    fig["waiter_blocked"] = time.perf_counter() - a
    fig["waiter_start"] = a
    lock.release()
    spin(time.perf_counter() + 0.05)
    out["wait_for_lock"] = (threading.get_native_id(), time.thread_time() - c0,
                            time.perf_counter() - t0)

def burn():
    t0, c0 = time.perf_counter(), time.thread_time()
    spin(t0 + HOLD + 0.3)
    out["burn"] = (threading.get_native_id(), time.thread_time() - c0,
                   time.perf_counter() - t0)

ts = [threading.Thread(target=f, name=f.__name__) for f in (hold_lock, wait_for_lock, burn)]
ts[0].start()
held.wait()        # the main thread: wait_for_lock (then burn) starts once hold_lock has the lock
ts[1].start()
ts[2].start()
for t in ts: t.join()
for k, v in sorted(out.items()):
    print(k, *("%.6f" % x if isinstance(x, float) else x for x in v))
print("planted_hold %.6f" % fig["planted_hold"])
print("waiter_blocked %.6f" % fig["waiter_blocked"])
print("hold_after_waiter_start %.6f" % (fig["release"] - fig["waiter_start"]))
