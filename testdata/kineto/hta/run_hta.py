#!/usr/bin/python3
"""HTA's own numbers for tests/cli/gpu_hta.sh: for each Kineto trace, what
Holistic Trace Analysis computes: the temporal breakdown, the idle-time
breakdown per stream (with its interval statistics) and the launch statistics
rows. Run with Debian's python3 (pandas 1.5.3, numpy, networkx) and HTA from a
snapshot of github.com/facebookresearch/HolisticTraceAnalysis (see COMMAND):

    /usr/bin/python3 run_hta.py HTA_DIR PEER_DATA_DIR OUT_DIR

HTA wants one directory per trace: each trace is copied (or linked) into
WORK/NAME/ first. A call that fails is recorded as {"error": repr(exception)}.
"""
import glob
import json
import math
import os
import shutil
import sys
import tempfile

hta_dir, src, out = sys.argv[1:4]
sys.path.insert(0, hta_dir)
from hta.trace_analysis import TraceAnalysis  # noqa: E402


def clean(v):
    if isinstance(v, float) and math.isnan(v):
        return None
    if hasattr(v, "item"):
        return clean(v.item())
    return v


def records(df, index=None):
    if index:
        df = df.reset_index().rename(columns={"index": index})
    return [{k: clean(v) for k, v in r.items()} for r in df.to_dict("records")]


work = tempfile.mkdtemp()
os.makedirs(out, exist_ok=True)
for f in sorted(glob.glob(os.path.join(src, "*.json*"))):
    base = os.path.basename(f)
    if "HTA-OUTPUT" in base:
        continue
    name = base.split(".json")[0]
    d = os.path.join(work, name)
    os.makedirs(d)
    os.symlink(os.path.abspath(f), os.path.join(d, base))
    res = {"trace": base}
    try:
        a = TraceAnalysis(trace_dir=d)
    except Exception as e:  # noqa: BLE001
        res["error"] = repr(e)
        a = None
    if a is not None:
        # the trace's own rank (distributedInfo; HTA's default is 0)
        ranks = a.t.get_ranks()
        rank = ranks[0] if ranks else 0
        res["rank"] = rank
        try:
            res["temporal"] = records(a.get_temporal_breakdown(visualize=False))
        except Exception as e:  # noqa: BLE001
            res["temporal"] = {"error": repr(e)}
        try:
            idle, stats = a.get_idle_time_breakdown(
                ranks=[rank], visualize=False, show_idle_interval_stats=True
            )
            res["idle"] = records(idle)
            res["idle_stats"] = records(stats, "idle_category")
        except Exception as e:  # noqa: BLE001
            res["idle"] = {"error": repr(e)}
        try:
            launch = a.get_cuda_kernel_launch_stats(
                ranks=[rank], visualize=False
            )
            res["launch"] = [
                [clean(r[k]) for k in ("correlation", "cpu_duration",
                                       "gpu_duration", "launch_delay")]
                for r in launch[rank].to_dict("records")
            ]
        except Exception as e:  # noqa: BLE001
            res["launch"] = {"error": repr(e)}
    with open(os.path.join(out, name + ".json"), "w") as fp:
        json.dump(res, fp, indent=None, separators=(",", ":"))
        fp.write("\n")
    print(name, {k: ("error" if isinstance(v, dict) else "ok")
                 for k, v in res.items() if k != "trace"}, flush=True)
shutil.rmtree(work)
