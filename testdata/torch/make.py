"""make.py: real traces of Debian's torch 1.13 (CPU only, no Kineto) in the
older autograd-profiler layout, each with torch's own key_averages() of the
same run (its table() and its numbers as JSON) as the oracle.

Run with Debian's python (see COMMAND): /usr/bin/python3 testdata/torch/make.py
"""
import json
import os
import sys
import threading

import torch
import torch.nn as nn
from torch.autograd.profiler import record_function

HERE = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)
torch.set_num_threads(1)


def mlp():
    return nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 8))


def train(model, steps):
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(16, 32), torch.randn(16, 8)
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()


def decode(model, steps):
    # a decode-like loop: one token a step, its result fed back
    emb = nn.Embedding(100, 32)
    tok = torch.tensor([1])
    with torch.no_grad():
        for i in range(steps):
            with record_function("step %d" % i):
                h = model(emb(tok))
                tok = h.argmax(dim=-1) % 100
                _ = tok.item()


def save(name, prof):
    base = os.path.join(HERE, name)
    prof.export_chrome_trace(base + ".json")
    avg = prof.key_averages()
    with open(base + ".key_averages.txt", "w") as f:
        f.write(avg.table(sort_by="self_cpu_time_total", row_limit=-1))
        f.write("\n")
    rows = [{
        "key": e.key,
        "device_type": str(e.device_type),
        "count": e.count,
        "self_cpu_time_total": e.self_cpu_time_total,
        "cpu_time_total": e.cpu_time_total,
        "self_cuda_time_total": e.self_cuda_time_total,
        "cuda_time_total": e.cuda_time_total,
    } for e in avg]
    with open(base + ".key_averages.json", "w") as f:
        json.dump({"torch": torch.__version__, "unit": "us", "rows": rows},
                  f, indent=1, sort_keys=True)
        f.write("\n")
    print(name, os.path.getsize(base + ".json"), "bytes,", len(rows), "keys")


def main():
    model = mlp()
    # 1. training steps of a tiny MLP, forward and backward, under the
    #    autograd profiler's own context manager
    with torch.autograd.profiler.profile() as prof:
        train(model, 3)
    save("mlp", prof)

    # 2. a decode loop with record_function("step N") annotations and
    #    .item() syncs, under torch.profiler with ProfilerStep#N marks
    #    (a schedule makes step() record them; the trace is saved when the
    #    fourth step ends, from on_trace_ready)
    saved = []

    def ready(p):
        if not saved:
            save("decode", p)
            saved.append(1)

    with torch.profiler.profile(
            activities=[torch.profiler.ProfilerActivity.CPU],
            schedule=torch.profiler.schedule(wait=0, warmup=0, active=4),
            on_trace_ready=ready) as prof:
        for i in range(4):
            decode(model, 3)
            prof.step()

    # 3. two threads at once: training on a second thread, decoding here
    with torch.autograd.profiler.profile() as prof:
        t = threading.Thread(target=train, args=(mlp(), 2))
        t.start()
        decode(model, 4)
        t.join()
    save("threads", prof)


if __name__ == "__main__":
    sys.exit(main())
