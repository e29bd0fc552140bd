#!/usr/bin/env python3
"""patch_switch.py IN OUT FIELD VALUE [EVERY]: copy the perf.data IN to OUT
with FIELD of every EVERY-th sched:sched_switch sample (the 1st, the
EVERY+1-th, ...; 3 unless given) whose prev_pid is a task (> 0) set to VALUE
(an integer, negative ones as the field's two's complement), as a damaged
recording would have it. The sample records are found by perf.data's own
layout (the header, each attr's sample_type, its ids), the field's offset
and size by the tracepoint format the recording carries (its tracing data:
"field:long prev_state;\toffset:32;\tsize:8;"). Prints the number of
samples patched and how many sched_switch samples there are; exits 1 when
the recording is not one this script can read (pipe mode, compressed,
sample_type with READ before RAW)."""
import re
import struct
import sys

IP, TID, TIME, ADDR, READ, CALLCHAIN, ID, CPU, PERIOD, STREAM_ID, RAW = (
    1, 2, 4, 8, 0x10, 0x20, 0x40, 0x80, 0x100, 0x200, 0x400)
IDENTIFIER = 0x10000
PERF_RECORD_SAMPLE = 9


def die(msg):
    sys.exit("patch_switch.py: " + msg)


def main():
    src, dst, field, value = sys.argv[1:5]
    every = int(sys.argv[5]) if len(sys.argv) > 5 else 3
    data = bytearray(open(src, "rb").read())
    if data[:8] != b"PERFILE2":
        die(src + ": not a perf.data file in file mode")
    (hsize, attr_size, attrs_off, attrs_size, data_off,
     data_size) = struct.unpack_from("<6Q", data, 8)
    # the tracepoint's format, from the recording's own tracing data
    fmt = re.search(rb"name: sched_switch\nID: (\d+)\nformat:\n(.*?)\n\n"
                    rb"(.*?)print fmt", bytes(data), re.S)
    if not fmt:
        die(src + ": no sched_switch format in its tracing data")
    tp_id = int(fmt.group(1))
    fields = {}
    for m in re.finditer(rb"field:[^;]*?(\w+)(?:\[\d+\])?;\toffset:(\d+);"
                         rb"\tsize:(\d+);", fmt.group(2) + fmt.group(3)):
        fields[m.group(1).decode()] = (int(m.group(2)), int(m.group(3)))
    for need in ("common_type", "prev_pid", field):
        if need not in fields:
            die("sched_switch has no field " + need)
    # each attr's sample_type, by the ids of its events
    by_id, types = {}, []
    for i in range(attrs_size // attr_size):
        a = attrs_off + i * attr_size
        sample_type = struct.unpack_from("<Q", data, a + 24)[0]
        ids_off, ids_size = struct.unpack_from("<2Q", data, a + attr_size - 16)
        types.append(sample_type)
        for k in range(ids_size // 8):
            by_id[struct.unpack_from("<Q", data, ids_off + 8 * k)[0]] = \
                sample_type
    off, end = data_off, data_off + data_size
    seen = patched = 0
    while off + 8 <= end:
        rtype, _misc, size = struct.unpack_from("<IHH", data, off)
        if size < 8:
            die("record of size %d at offset %d" % (size, off))
        if rtype == PERF_RECORD_SAMPLE:
            p = off + 8
            if len(types) == 1:
                st = types[0]
            elif all(t & IDENTIFIER for t in types):
                st = by_id.get(struct.unpack_from("<Q", data, p)[0])
                if st is None:
                    die("sample of an unknown id at offset %d" % off)
            else:
                die("several events without PERF_SAMPLE_IDENTIFIER")
            if st & RAW:
                if st & READ:
                    die("PERF_SAMPLE_READ before the raw data")
                for bit in (IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID,
                            CPU, PERIOD):
                    if st & bit:
                        p += 8
                if st & CALLCHAIN:
                    p += 8 + 8 * struct.unpack_from("<Q", data, p)[0]
                raw = p + 4
                o, n = fields["common_type"]
                if int.from_bytes(data[raw + o:raw + o + n], "little") == tp_id:
                    o, n = fields["prev_pid"]
                    prev = int.from_bytes(data[raw + o:raw + o + n], "little",
                                          signed=True)
                    if prev > 0:
                        if seen % every == 0:
                            o, n = fields[field]
                            v = int(value, 0) & ((1 << (8 * n)) - 1)
                            data[raw + o:raw + o + n] = v.to_bytes(n, "little")
                            patched += 1
                        seen += 1
        off += size
    open(dst, "wb").write(data)
    print(patched, seen)


main()
