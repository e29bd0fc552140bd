"""perfan test workload (issue 35): a threaded HTTP server, its engine thread
and a bounded load generator, in one process.

    python3.12 -X perf server.py [--requests N] [--clients C] [--free FUNC]
                                 [--truth FILE]

- `serve_forever` (thread `server`) accepts connections on 127.0.0.1 and
  starts one short-lived handler thread per request (ThreadingHTTPServer,
  the Python names are `Thread-N (process_request_thread)`); the handler
  parses the request and its body (`prepare_inputs`, which checksums
  every word: a few ms of CPU per handler), puts a job on a
  lock-protected queue (a deque under a threading.Condition) and waits for
  the engine's answer;
- `engine_loop` (thread `engine`) takes jobs off the queue and does the CPU
  work in pure Python: `tokenize` then `score` (the widest plateau) then
  `summarize`;
- the load generator: C client threads (`client-I`, `client_loop`) make N
  requests in all (default 300) over http.client, one connection each, so
  that at most C handler threads live at once.

`--free FUNC` (tokenize, score or summarize) makes that function return at
once: the second recording of the Amdahl check.

Each thread appends `role tid name thread_time_ns` (tid the native thread
id, thread_time_ns its time.thread_time_ns() as the last thing it does) to
an in-memory list; the main thread writes them, its own line last, to the
truth file and leaves with os._exit (no interpreter finalization after its
own figure).  The work is seeded: the same on every run; only times differ.
"""

import argparse
import collections
import http.client
import http.server
import json
import os
import random
import threading
import time

TRUTH = []
TRUTH_LOCK = threading.Lock()
FREE = set()


def note(role):
    """Records the calling thread's CPU time, as the last thing it does."""
    t = threading.current_thread()
    ns = time.thread_time_ns()
    with TRUTH_LOCK:
        TRUTH.append((role, threading.get_native_id(), t.name.replace(" ", "_"), ns))


# ---- the engine ------------------------------------------------------------

class Job:
    def __init__(self, words, weight):
        self.words = words
        self.weight = weight
        self.done = threading.Event()
        self.result = None


class JobQueue:
    """A lock-protected queue: handlers put, the engine takes."""

    def __init__(self):
        self.items = collections.deque()
        self.cond = threading.Condition(threading.Lock())
        self.closed = False

    def put(self, job):
        with self.cond:
            self.items.append(job)
            self.cond.notify()

    def take(self):
        with self.cond:
            while not self.items and not self.closed:
                self.cond.wait()
            return self.items.popleft() if self.items else None

    def close(self):
        with self.cond:
            self.closed = True
            self.cond.notify_all()


def tokenize(words):
    if "tokenize" in FREE:
        return []
    tokens = []
    for w in words:
        for i in range(len(w) - 2):
            tokens.append(w[i:i + 3])
    return tokens


def score(tokens, weight):
    if "score" in FREE:
        return 0
    total = 0
    for _ in range(weight):
        for t in tokens:
            h = 0
            for c in t:
                h = (h * 31 + ord(c)) & 0xFFFF
            total += h % 97
    return total


def summarize(tokens, total):
    if "summarize" in FREE:
        return {}
    counts = collections.Counter(tokens)
    return {"tokens": len(tokens), "distinct": len(counts), "score": total,
            "top": sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]}


def engine_loop(queue):
    while True:
        job = queue.take()
        if job is None:
            break
        tokens = tokenize(job.words)
        total = score(tokens, job.weight)
        job.result = summarize(tokens, total)
        job.done.set()
    note("engine")


# ---- the server --------------------------------------------------------------

def checksum(word, rounds):
    c = 0
    for _ in range(rounds):
        for ch in word:
            c = (c * 33 + ord(ch)) % 65521
    return c


def prepare_inputs(body):
    req = json.loads(body)
    words = [w.strip().lower() for w in req["text"].split() if w.strip()]
    words = [w for w in words if w.isalnum() and checksum(w, 15) != 1]
    return words, int(req["weight"])


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        words, weight = prepare_inputs(body)
        job = Job(words, weight)
        self.server.queue.put(job)
        job.done.wait()
        out = json.dumps(job.result).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = False
    block_on_close = True

    def process_request_thread(self, request, client_address):
        super().process_request_thread(request, client_address)
        note("handler")


def serve(server):
    server.serve_forever(poll_interval=0.05)
    note("server")


# ---- the load generator ------------------------------------------------------

def make_text(rng, n):
    letters = "abcdefghijklmnopqrstuvwxyz"
    return " ".join("".join(rng.choice(letters) for _ in range(rng.randrange(4, 10)))
                    for _ in range(n))


def client_loop(port, jobs, results, weight):
    for seed in jobs:
        rng = random.Random(seed)
        body = json.dumps({"text": make_text(rng, 60), "weight": weight}).encode()
        conn = http.client.HTTPConnection("127.0.0.1", port)
        conn.request("POST", "/score", body, {"Content-Type": "application/json"})
        resp = conn.getresponse()
        results.append(json.loads(resp.read())["score"] if resp.status == 200 else None)
        conn.close()
    note("client")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--free", action="append", default=[],
                    choices=["tokenize", "score", "summarize"])
    ap.add_argument("--truth", default="truth.txt")
    # score's rounds per request: 20 makes it ~3/4 of the engine's CPU, where
    # Amdahl's 1/(1-p) is not hypersensitive to p (at p = 0.9, one point of p
    # moves the bound by 10 %)
    ap.add_argument("--weight", type=int, default=20)
    args = ap.parse_args()
    FREE.update(args.free)

    t0 = time.monotonic_ns()
    queue = JobQueue()
    server = Server(("127.0.0.1", 0), Handler)
    server.queue = queue
    port = server.server_address[1]
    engine = threading.Thread(target=engine_loop, args=(queue,), name="engine")
    srv = threading.Thread(target=serve, args=(server,), name="server")
    engine.start()
    srv.start()

    results = []
    clients = [threading.Thread(target=client_loop, name="client-%d" % i,
                                args=(port, range(i, args.requests, args.clients), results,
                                      args.weight))
               for i in range(args.clients)]
    for c in clients:
        c.start()
    for c in clients:
        c.join()
    server.shutdown()
    srv.join()
    server.server_close()   # joins the handler threads (block_on_close)
    queue.close()
    engine.join()
    t1 = time.monotonic_ns()

    ok = sum(1 for r in results if r is not None)
    with open(args.truth, "w") as f:
        f.write("# server.py truth: pid %d, %d requests (%d ok), %d clients, free %s\n"
                % (os.getpid(), args.requests, ok, args.clients, ",".join(args.free) or "-"))
        f.write("# wall_ns %d (CLOCK_MONOTONIC %d .. %d)\n" % (t1 - t0, t0, t1))
        f.write("# role tid name thread_time_ns\n")
        for role, tid, name, ns in TRUTH:
            f.write("%s %d %s %d\n" % (role, tid, name, ns))
        ns = time.thread_time_ns()
        f.write("%s %d %s %d\n" % ("main", threading.get_native_id(), "MainThread", ns))
        f.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
