"""thread_roles.py: the function each thread of a test recording was
started on, from what its workload wrote itself (issue 35's thread names):

  - testdata/server: the role each thread wrote beside its tid in
    truth.txt, and the targets server.py starts those roles on
    (threading.Thread(target=engine_loop), ...; the handlers run its
    Server.process_request_thread; the first thread is "main");
  - testdata/gil: the targets a script starts its threads on
    (Thread(target=crunch, ..., name="cpu_0")), and the tid each thread
    printed beside its name in the recording's .out file; critical.py's
    threads each print their tid under a letter (out["X"] in hold()).

Imported by the tests' inline checks (sys.path has tests/tools)."""
import re

FAILS = []


def check(cond, msg):
    """Say MSG as a failure unless COND; FAILS keeps the count."""
    if not cond:
        print("FAIL:", msg)
        FAILS.append(msg)


def server(d):
    """{tid: function} of testdata/server (directory D)."""
    src = open(d + "/server.py").read()
    funcs = {"engine": "engine_loop", "server": "serve", "client": "client_loop"}
    for fn in funcs.values():
        check(re.search(r"target=%s\b" % fn, src), "server.py starts no thread on " + fn)
    check(re.search(r"class Server\b.*\n(.*\n)*?    def process_request_thread\(", src),
          "server.py's Server has no process_request_thread")
    funcs.update(handler="Server.process_request_thread", main="main")
    roles = {}
    for line in open(d + "/truth.txt"):
        if not line.startswith("#"):
            role, tid = line.split()[:2]
            roles[int(tid)] = funcs[role]
    return roles


def gil(d, script, out):
    """{tid: function} of the threads SCRIPT.py of testdata/gil (directory
    D) started, as its output OUT (a path) names them."""
    targets = {"gil": {"cpu_": "crunch", "latency": "latency"},
               "idle": {"worker_": "worker", "producer": "producer"}}[script]
    src = open("%s/%s.py" % (d, script)).read()
    for fn in targets.values():
        check(re.search(r"Thread\(target=%s\b" % fn, src), "%s.py starts no thread on %s" % (script, fn))
    roles = {}
    for line in open(out):
        w = line.split()
        role = [t for p, t in targets.items() if w and w[0].startswith(p)]
        if role and len(w) >= 2 and w[1].isdigit():
            roles[int(w[1])] = role[0]
    return roles


def critical(d):
    """{tid: function} of testdata/gil's critical.py (directory D)."""
    src = open(d + "/critical.py").read()
    started = re.search(r"Thread\(target=fn, [^)]*\) for fn in \(([\w, ]+)\)", src)
    check(started, "critical.py starts no threads on a list of functions")
    fn_of = {}
    for m in re.finditer(r"^def (\w+)\(\):\n((?:    .*\n|\n)*)", src, re.M):
        if started and m.group(1) in started.group(1).split(", "):
            for k in re.findall(r'out\["(\w)"\]', m.group(2)):
                fn_of[k] = m.group(1)
    roles = {}
    for line in open(d + "/critical.out"):
        w = line.split()
        if w and w[0] in fn_of:
            roles[int(w[1])] = fn_of[w[0]]
    check(len(roles) == 3, "critical.out: threads %r" % roles)
    return roles


def expect(roles, pid, tid, comm):
    """What thread PID/TID (COMM) is called, by ROLES: (name, role, pool);
    threads started on one function pool, a process's first thread never."""
    role = roles[tid]
    if tid == pid:
        return comm, role, None
    pooled = sum(1 for r in roles.values() if r == role) > 1
    return role, role, role if pooled else None
