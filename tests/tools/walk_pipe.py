#!/usr/bin/env python3
"""walk_pipe.py FILE: count the records of a perf.data by type.

An independent walk of the stream's structure (record headers, and the
payloads that TRACING_DATA and AUXTRACE records carry after their header
size), written apart from libperfan to be the oracle for files that perf
itself cannot read: pipe mode, or a file-mode recording that perf record
never finished (data size 0 in the header: walked to the end of the file).
Prints "NAME events: N" lines, most frequent first.
"""
import struct
import sys

NAMES = {1: "MMAP", 2: "LOST", 3: "COMM", 4: "EXIT", 5: "THROTTLE",
         6: "UNTHROTTLE", 7: "FORK", 8: "READ", 9: "SAMPLE", 10: "MMAP2",
         11: "AUX", 12: "ITRACE_START", 13: "LOST_SAMPLES", 14: "SWITCH",
         15: "SWITCH_CPU_WIDE", 16: "NAMESPACES", 17: "KSYMBOL",
         18: "BPF_EVENT", 19: "CGROUP", 20: "TEXT_POKE", 64: "ATTR",
         65: "EVENT_TYPE", 66: "TRACING_DATA", 67: "BUILD_ID",
         68: "FINISHED_ROUND", 69: "ID_INDEX", 70: "AUXTRACE_INFO",
         71: "AUXTRACE", 72: "AUXTRACE_ERROR", 73: "THREAD_MAP",
         74: "CPU_MAP", 75: "STAT_CONFIG", 76: "STAT", 77: "STAT_ROUND",
         78: "EVENT_UPDATE", 79: "TIME_CONV", 80: "FEATURE",
         81: "COMPRESSED", 82: "FINISHED_INIT"}


def main():
    data = open(sys.argv[1], "rb").read()
    assert data[:8] == b"PERFILE2"
    pos, end, counts = 16, len(data), {}
    if struct.unpack_from("<Q", data, 8)[0] != 16:  # file mode
        pos, size = struct.unpack_from("<QQ", data, 40)
        end = pos + size if size else len(data)
    while pos + 8 <= end:
        typ, _misc, size = struct.unpack_from("<IHH", data, pos)
        if size < 8:
            sys.exit("record of size %d at offset %d" % (size, pos))
        extra = 0
        if typ == 66:
            extra = (struct.unpack_from("<I", data, pos + 8)[0] + 7) & ~7
        elif typ == 71:
            extra = struct.unpack_from("<Q", data, pos + 8)[0]
        counts[typ] = counts.get(typ, 0) + 1
        pos += size + extra
    if pos != end:
        sys.exit("stream ends inside a record at offset %d" % pos)
    for typ, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        print("%18s events: %10d" % (NAMES.get(typ, "TYPE_%d" % typ), n))


if __name__ == "__main__":
    main()
