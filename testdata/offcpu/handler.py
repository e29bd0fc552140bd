"""perfan test workload for off-CPU analysis (issue 12): a request handler
that sleeps.  main -> handle_request -> (parse: CPU work) then time.sleep
(SLEEP_S); REQUESTS requests, in the main thread only.

It measures each sleep itself (time.monotonic_ns around time.sleep, and
time.thread_time_ns for its own CPU time during it) and prints, like
testdata/src/offcpu.c:
    call THREAD TID SITE I WALL_NS CPU_NS   one line per sleep
    site THREAD TID SITE N WALL_NS CPU_NS   their sums
    thread THREAD TID WALL_NS CPU_NS        main's lifetime (from the start
                                            of main to its end) and CPU time
    result N                                 the work's checksum
"""
import gc
import sys
import threading
import time

REQUESTS = 20
SLEEP_S = 0.050
WORK = 100000


def parse(k):
    # CPU work: a few ms of pure-Python arithmetic per request
    acc = k
    for i in range(WORK):
        acc = (acc * 31 + i) % 1000003
    return acc


def handle_request(k, calls):
    acc = parse(k)
    w0, c0 = time.monotonic_ns(), time.thread_time_ns()
    time.sleep(SLEEP_S)
    calls.append((time.monotonic_ns() - w0, time.thread_time_ns() - c0))
    return acc


def main():
    gc.disable()
    w0, c0 = time.monotonic_ns(), time.thread_time_ns()
    requests = int(sys.argv[1]) if len(sys.argv) > 1 else REQUESTS
    calls = []
    total = 0
    for k in range(requests):
        total += handle_request(k, calls)
    wall, cpu = time.monotonic_ns() - w0, time.thread_time_ns() - c0
    name, tid = "python3", threading.get_native_id()
    for i, (w, c) in enumerate(calls):
        print("call %s %d handle_request %d %d %d" % (name, tid, i, w, c))
    print("site %s %d handle_request %d %d %d" % (
        name, tid, len(calls), sum(w for w, _ in calls), sum(c for _, c in calls)))
    print("thread %s %d %d %d" % (name, tid, wall, cpu))
    print("result", total)


if __name__ == "__main__":
    main()
