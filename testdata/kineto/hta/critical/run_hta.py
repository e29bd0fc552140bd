#!/usr/bin/python3
# testdata/kineto/hta/critical/run_hta.py: HTA's critical path of the peer
# traces, the oracle of tests/cli/gpu_critical.sh. Run with Debian's python3
# (pandas 1.5.3, numpy, networkx 2.8) and HTA from a fetched snapshot:
#   /usr/bin/python3 run_hta.py HTA_DIR PEER_DIR NAME...
# where PEER_DIR/NAME.json.gz is the trace (copied alone into a temporary
# directory: HTA reads a directory per trace). For each NAME it writes NAME.json here: HTA's critical events as
# [name, ts (us), dur (us), tid] (tid: the thread, or the GPU stream), the
# path's length and its weight per edge type (us), from
# critical_path_analysis(rank=0, annotation="", instance_id=None): the
# whole trace.
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, sys.argv[1])
from hta.trace_analysis import TraceAnalysis  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
for name in sys.argv[3:]:
    d = os.path.join(tempfile.mkdtemp(), name)
    os.makedirs(d)
    shutil.copy(os.path.join(sys.argv[2], name + ".json.gz"), d)
    a = TraceAnalysis(trace_dir=d)
    g, ok = a.critical_path_analysis(rank=0, annotation="", instance_id=None)
    assert ok, name
    raw = a.t.get_raw_trace_for_one_rank(rank=0)["traceEvents"]
    events = sorted(
        [raw[i]["name"], raw[i]["ts"], raw[i]["dur"], raw[i]["tid"]]
        for i in g.critical_path_events_set
    )
    by_type = {}
    for e in g.critical_path_edges_set:
        by_type[e.type.value] = by_type.get(e.type.value, 0) + int(e.weight)
    out = {
        "command": "critical_path_analysis(rank=0, annotation='', instance_id=None)",
        "length": sum(int(e.weight) for e in g.critical_path_edges_set),
        "by_type": by_type,
        "events": events,
    }
    with open(os.path.join(here, name + ".json"), "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
        f.write("\n")
    print(name, out["length"], by_type)
    shutil.rmtree(os.path.dirname(d))
