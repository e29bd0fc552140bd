"""perfan test workload: a tiny pure-Python "request handler".

Call tree (fixed iteration counts, ~0.5 s on the recording VM):

    main -> serve -> handle_request -> parse_ids
                                    -> dedupe          (quadratic, hottest)
                                    -> build_records
                                    -> serialize -> format_record
"""
import sys

REQUESTS = 20
N = 1600


def parse_ids(n):
    return [(i * 7919) % (n // 2) for i in range(n)]


def dedupe(items):
    # Deliberately quadratic: linear scan of the output list for every item.
    out = []
    for it in items:
        found = False
        for seen in out:
            if seen == it:
                found = True
                break
        if not found:
            out.append(it)
    return out


def build_records(ids):
    return [{"id": i, "name": "user%d" % i, "score": (i * 37) % 101} for i in ids]


def format_record(rec):
    return "{" + '"id":%d,"name":"%s","score":%d' % (rec["id"], rec["name"], rec["score"]) + "}"


def serialize(records):
    parts = []
    for _ in range(20):
        parts.clear()
        for rec in records:
            parts.append(format_record(rec))
    return "[" + ",".join(parts) + "]"


def handle_request(n):
    ids = parse_ids(n)
    uniq = dedupe(ids)
    recs = build_records(uniq)
    return serialize(recs)


def serve(requests, n):
    total = 0
    for _ in range(requests):
        total += len(handle_request(n))
    return total


def main():
    requests = int(sys.argv[1]) if len(sys.argv) > 1 else REQUESTS
    print("bytes", serve(requests, N))


if __name__ == "__main__":
    main()
