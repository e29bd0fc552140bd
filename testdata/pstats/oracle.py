# testdata/pstats/oracle.py: the oracles of one cProfile dump, written by the
# Python that wrote it: pstats' own print_stats/print_callers/print_callees
# text, and the raw dict as JSON (exact floats, repr round-trip).
# usage: python oracle.py FILE PREFIX
import json
import pstats
import sys

path, prefix = sys.argv[1], sys.argv[2]


def text(method):
    out = open(prefix + "." + method + ".txt", "w")
    s = pstats.Stats(path, stream=out)
    s.sort_stats("filename", "line", "name")
    getattr(s, method)()
    out.close()


for m in ("print_stats", "print_callers", "print_callees"):
    text(m)

s = pstats.Stats(path)
rows = []
for key in sorted(s.stats):
    cc, nc, tt, ct, callers = s.stats[key]
    cl = []
    for ck in sorted(callers):
        v = callers[ck]
        cl.append([list(ck)] + list(v))
    rows.append([list(key), cc, nc, tt, ct, cl])
out = open(prefix + ".json", "w")
# one function a line; floats as repr, so the exact doubles
out.write("[\n" + ",\n".join(json.dumps(r) for r in rows) + "\n]\n")
out.close()
