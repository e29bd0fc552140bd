#!/usr/bin/env python3
"""Write the planted Kineto traces of this directory (run here)."""
import json


def X(cat, name, tid, ts, dur, **args):
    pid = 0 if cat == "kernel" else 100
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}


def kern(name, ts, dur, corr):
    return X("kernel", name, 7, ts, dur, device=0, stream=7, correlation=corr)


def launch(ts, corr):
    return X("cuda_runtime", "cudaLaunchKernel", 100, ts, 5, correlation=corr)


base = 1000000
# profiler frames: a python_function chain in which record_function's
# __enter__ (torch/autograd/profiler.py) and a profile's step
# (torch/profiler/profiler.py) run inside the user's load_batch while the
# GPU waits
py = {"schemaVersion": 1, "traceEvents": [
    X("user_annotation", "ProfilerStep#1", 100, base + 0, 1000),
    X("python_function", "train.py(10): <module>", 100, base + 0, 1000,
      **{"Python id": 1, "Python parent id": 0}),
    launch(base + 1, 1),
    kern("gemm_a", base + 10, 90, 1),
    X("python_function", "train.py(20): load_batch", 100, base + 100, 500,
      **{"Python id": 2, "Python parent id": 1}),
    X("python_function", "/usr/lib/python3/dist-packages/torch/autograd/"
      "profiler.py(614): __enter__", 100, base + 150, 300,
      **{"Python id": 3, "Python parent id": 2}),
    X("python_function", "/usr/lib/python3/dist-packages/torch/_ops.py(500): "
      "__call__", 100, base + 160, 280,
      **{"Python id": 4, "Python parent id": 3}),
    X("python_function", "/usr/lib/python3/dist-packages/torch/profiler/"
      "profiler.py(700): step", 100, base + 460, 80,
      **{"Python id": 5, "Python parent id": 2}),
    launch(base + 600, 2),
    kern("gemm_b", base + 620, 80, 2),
]}
# annotations: no python_function, no Call stack; a record_function range
# is the innermost span most of the gap
ann = {"schemaVersion": 1, "traceEvents": [
    X("user_annotation", "ProfilerStep#1", 100, base + 0, 1000),
    launch(base + 1, 1),
    kern("gemm_a", base + 10, 90, 1),
    X("user_annotation", "## forward ##", 100, base + 100, 600),
    X("cpu_op", "aten::linear", 100, base + 120, 80),
    launch(base + 600, 2),
    kern("gemm_b", base + 620, 80, 2),
]}
json.dump(py, open("profiler_frames.json", "w"), indent=1)
json.dump(ann, open("annotation.json", "w"), indent=1)
