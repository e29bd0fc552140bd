# sample.py: samples a Python program from inside itself, 100 times a
# second like py-spy, and writes the stacks as py-spy's raw writer does
# (`py-spy record --format raw`: "frame;frame;... count" lines, frames
# "name (file:line)" root first, files shortened to their package part,
# `--nolineno` "name (file)", `--threads` a "thread (TID): NAME" root and
# `--subprocesses` "process PID:\"cmdline\"" roots above it, ancestors
# first). py-spy itself cannot be installed here; see README.md.
#
#   python3 sample.py OUTPREFIX PROGRAM.py ARGS...
#
# runs PROGRAM.py in a child Python whose every process (its subprocesses
# too, through a sitecustomize on PYTHONPATH) samples its own threads with
# sys._current_frames(), then writes from that one run:
#   OUTPREFIX.txt             py-spy record --format raw (the first process)
#   OUTPREFIX-nolineno.txt    ... --nolineno
#   OUTPREFIX-threads.txt     ... --threads
#   OUTPREFIX-subprocesses.txt ... --subprocesses --threads (all processes)
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

RATE = 100  # py-spy's default --rate


def short_filename(path, cache={}):
    """py-spy's shorten_filename: the path below the outermost directory
    that is not a package (has no __init__.py)."""
    if path in cache:
        return cache[path]
    p = path
    while True:
        parent = os.path.dirname(p)
        p = parent
        if not os.path.exists(os.path.join(parent or ".", "__init__.py")) \
                or not parent:
            break
    short = os.path.relpath(path, p) if p else path
    cache[path] = short
    return short


def idle(frame):
    """A thread py-spy would see sleeping (left out without --idle): one
    blocked in a join, a lock, a wait for a child."""
    code = frame.f_code
    base = os.path.basename(code.co_filename)
    return (base == "threading.py" and code.co_name in
            ("wait", "_wait_for_tstate_lock", "join")) or \
        (base == "subprocess.py" and code.co_name in ("_wait", "_try_wait",
                                                    "wait"))


def start():
    out = os.environ.get("PYSPY_SAMPLE_DIR")
    if not out:
        return
    samples = []

    def run():
        me = threading.get_ident()
        nxt = time.monotonic()
        while not stop.is_set():
            frames = sys._current_frames()
            threads = dict(threading._active)
            for ident, f in frames.items():
                if ident == me or f is None or idle(f):
                    continue
                t = threads.get(ident)
                stack = []
                while f is not None:
                    c = f.f_code
                    stack.append((c.co_name, short_filename(c.co_filename),
                                  f.f_lineno))
                    f = f.f_back
                stack.reverse()
                samples.append((t.native_id if t else ident,
                                t.name if t else None, stack))
            nxt += 1.0 / RATE
            time.sleep(max(0.0, nxt - time.monotonic()))

    def finish():
        stop.set()
        th.join()
        with open("/proc/self/cmdline", "rb") as fp:
            cmd = fp.read().rstrip(b"\0").split(b"\0")
        with open(os.path.join(out, "samples-%d.json" % os.getpid()),
                  "w") as fp:
            json.dump({"pid": os.getpid(), "ppid": os.getppid(),
                       "cmdline": " ".join(x.decode() for x in cmd),
                       "samples": samples}, fp)

    import atexit
    stop = threading.Event()
    th = threading.Thread(target=run, daemon=True)
    # the sampler gets the GIL soon after each sleep, as py-spy reads the
    # process at its own pace
    sys.setswitchinterval(0.0005)
    th.start()
    atexit.register(finish)


def write(path, procs, first, lineno, threads, subprocesses):
    counts = {}
    for pid, p in procs.items():
        if not subprocesses and pid != first:
            continue
        roots = []
        if subprocesses:
            q = p
            while q is not None:
                roots.insert(0, 'process %d:"%s"' % (q["pid"], q["cmdline"]))
                q = procs.get(q["ppid"])
        for tid, tname, stack in p["samples"]:
            names = list(roots)
            if threads:
                names.append("thread (%d): %s" % (tid, tname) if tname
                             else "thread (%d)" % tid)
            for name, f, line in stack:
                if lineno and line:
                    names.append("%s (%s:%d)" % (name, f, line))
                elif f:
                    names.append("%s (%s)" % (name, f))
                else:
                    names.append(name)
            key = ";".join(names)
            counts[key] = counts.get(key, 0) + 1
    with open(path, "w") as fp:
        for k, v in counts.items():  # py-spy's are in hash order
            fp.write("%s %d\n" % (k, v))


def main():
    prefix, prog = sys.argv[1], sys.argv[2:]
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "sitecustomize.py"), "w") as fp:
            fp.write("import sys\nsys.path.insert(0, %r)\n"
                     "import sample\nsample.start()\n"
                     % os.path.dirname(os.path.abspath(__file__)))
        env = dict(os.environ, PYSPY_SAMPLE_DIR=d, PYTHONPATH=d)
        child = subprocess.run([sys.executable] + prog, env=env,
                               stdout=subprocess.DEVNULL)
        if child.returncode:
            sys.exit("%s failed" % prog)
        procs = {}
        for n in os.listdir(d):
            if n.startswith("samples-"):
                with open(os.path.join(d, n)) as fp:
                    p = json.load(fp)
                procs[p["pid"]] = p
    first = min(procs, key=lambda pid: pid if procs[pid]["ppid"] not in
                procs else 1 << 62)
    write(prefix + ".txt", procs, first, True, False, False)
    write(prefix + "-nolineno.txt", procs, first, False, False, False)
    write(prefix + "-threads.txt", procs, first, True, True, False)
    write(prefix + "-subprocesses.txt", procs, first, True, True, True)


if __name__ == "__main__":
    main()
