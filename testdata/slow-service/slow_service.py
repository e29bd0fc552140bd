"""perfan test workload (issue 14): the slow request handler of the course
page "profiling a slow service", and its fix.

    python3 -X perf slow_service.py slow|fast N [REQUESTS]

summarizes REQUESTS batches (default 1) of N audit events each: drop
duplicate event IDs, attach a policy label to each event, report the ten
most active actors.  `slow` scans a growing list for duplicates (quadratic)
and serializes and hashes the policy for every event; `fast` uses a set and
computes the three labels once.  The input is seeded: the work, and the
answer printed, are the same on every run; only the time differs.
"""

import hashlib
import json
import random
import sys
from collections import Counter

POLICY = {"tenant": "t-42", "rules": ["rule-%d" % i for i in range(200)],
          "version": 7}


def make_events(n, seed=1):
    rng = random.Random(seed)
    return [{"id": rng.randrange(n * 9 // 10),
             "actor": "user-%d" % rng.randrange(500),
             "action": rng.choice(["read", "write", "delete"])}
            for _ in range(n)]


def policy_label(policy, action):
    blob = json.dumps(policy, sort_keys=True) + action  # every call
    return hashlib.sha256(blob.encode()).hexdigest()[:8]


def summarize_slow(events):
    seen = []
    counts = {}
    labels = []
    for event in events:
        if event["id"] in seen:  # linear scan of a growing list
            continue
        seen.append(event["id"])
        labels.append(policy_label(POLICY, event["action"]))
        counts[event["actor"]] = counts.get(event["actor"], 0) + 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
    return len(seen), top, hashlib.sha256("".join(labels).encode()).hexdigest()[:12]


def summarize_fast(events):
    seen = set()  # constant-time membership
    counts = Counter()
    prefix = json.dumps(POLICY, sort_keys=True)  # once per request
    label_for = {a: hashlib.sha256((prefix + a).encode()).hexdigest()[:8]
                 for a in ("read", "write", "delete")}
    labels = []
    for event in events:
        if event["id"] in seen:
            continue
        seen.add(event["id"])
        labels.append(label_for[event["action"]])
        counts[event["actor"]] += 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
    return len(seen), top, hashlib.sha256("".join(labels).encode()).hexdigest()[:12]


def main():
    mode, n = sys.argv[1], int(sys.argv[2])
    requests = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    handler = {"slow": summarize_slow, "fast": summarize_fast}[mode]
    for k in range(requests):
        result = handler(make_events(n, seed=n + k))
        print(n, k, result[0], result[1][0], result[2])


if __name__ == "__main__":
    main()
