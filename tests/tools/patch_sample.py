#!/usr/bin/env python3
"""patch_sample.py IN OUT N AT VALUE: copy the perf.data IN to OUT with the
u64 AT bytes into its N-th SAMPLE record (in file order, from 1; AT counts
from the record's start, its 8-byte header included) set to VALUE, as a
damaged recording would have it. Prints the record's file offset; exits 1
when the recording is not a file-mode one or has fewer than N samples."""
import struct
import sys

PERF_RECORD_SAMPLE = 9


def die(msg):
    sys.exit("patch_sample.py: " + msg)


def main():
    src, dst = sys.argv[1:3]
    n, at, value = (int(v, 0) for v in sys.argv[3:6])
    data = bytearray(open(src, "rb").read())
    if data[:8] != b"PERFILE2":
        die(src + ": not a perf.data file in file mode")
    data_off, data_size = struct.unpack_from("<2Q", data, 40)
    off, end, seen = data_off, data_off + data_size, 0
    while off + 8 <= end:
        rtype, _misc, size = struct.unpack_from("<IHH", data, off)
        if size < 8:
            die("%s: record of %d bytes at %d" % (src, size, off))
        if rtype == PERF_RECORD_SAMPLE:
            seen += 1
            if seen == n:
                if at + 8 > size:
                    die("%s: the sample at %d has only %d bytes" %
                        (src, off, size))
                struct.pack_into("<Q", data, off + at, value)
                open(dst, "wb").write(data)
                print(off)
                return
        off += size
    die("%s: %d samples, not %d" % (src, seen, n))


main()
