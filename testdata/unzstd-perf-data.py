#!/usr/bin/env python3
"""Write an uncompressed copy of a `perf record -z` perf.data file.

Usage: unzstd-perf-data.py IN.data OUT.data

perf 6.1's `perf inject` passes PERF_RECORD_COMPRESSED records through
without looking inside, so `perf inject --jit` finds no jitdump MMAP in a
-z recording and writes no jitted-*.so.  This tool replaces every
COMPRESSED record (type 81) in the data section, in place, by the records
it holds (one zstd stream over the whole file, as perf writes it; a record
may continue in the next COMPRESSED record, and records perf wrote in
between, such as FINISHED_ROUND, are put after it), and moves the feature
sections by the size difference.  A partial record at the very end (perf
record -z's last flush can stop when a COMPRESSED record is full, and the
rest is never written) is dropped, with a message, as perf drops it.
Everything else (header, attrs, ids, features, including HEADER_COMPRESSED)
is copied unchanged.  Only used by regen.sh to make perf's own oracles;
check with `perf script` that IN and OUT read the same.

Needs libzstd (through ctypes) and a file-mode (not pipe-mode) perf.data.
"""
import ctypes
import ctypes.util
import struct
import sys

PERF_RECORD_COMPRESSED = 81
HEADER_SIZE = 104


class InBuf(ctypes.Structure):
    _fields_ = [("src", ctypes.c_void_p), ("size", ctypes.c_size_t),
                ("pos", ctypes.c_size_t)]


class OutBuf(ctypes.Structure):
    _fields_ = [("dst", ctypes.c_void_p), ("size", ctypes.c_size_t),
                ("pos", ctypes.c_size_t)]


def load_zstd():
    name = ctypes.util.find_library("zstd") or "libzstd.so.1"
    z = ctypes.CDLL(name)
    z.ZSTD_createDStream.restype = ctypes.c_void_p
    z.ZSTD_initDStream.argtypes = [ctypes.c_void_p]
    z.ZSTD_initDStream.restype = ctypes.c_size_t
    z.ZSTD_decompressStream.argtypes = [ctypes.c_void_p,
                                        ctypes.POINTER(OutBuf),
                                        ctypes.POINTER(InBuf)]
    z.ZSTD_decompressStream.restype = ctypes.c_size_t
    z.ZSTD_isError.argtypes = [ctypes.c_size_t]
    z.ZSTD_isError.restype = ctypes.c_uint
    z.ZSTD_getErrorName.argtypes = [ctypes.c_size_t]
    z.ZSTD_getErrorName.restype = ctypes.c_char_p
    return z


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    buf = open(sys.argv[1], "rb").read()
    if buf[:8] != b"PERFILE2":
        sys.exit("not a file-mode perf.data (PERFILE2)")
    hsize, = struct.unpack_from("<Q", buf, 8)
    if hsize != HEADER_SIZE:
        sys.exit("unexpected header size %d" % hsize)
    data_off, data_size = struct.unpack_from("<QQ", buf, 40)
    feat_bits = int.from_bytes(buf[72:104], "little")
    data_end = data_off + data_size

    z = load_zstd()
    ds = z.ZSTD_createDStream()
    z.ZSTD_initDStream(ds)
    out_cap = 1 << 20
    out_mem = ctypes.create_string_buffer(out_cap)

    def decompress(payload):
        src = ctypes.create_string_buffer(payload, len(payload))
        ib = InBuf(ctypes.cast(src, ctypes.c_void_p), len(payload), 0)
        parts = []
        while True:
            ob = OutBuf(ctypes.cast(out_mem, ctypes.c_void_p), out_cap, 0)
            r = z.ZSTD_decompressStream(ds, ctypes.byref(ob), ctypes.byref(ib))
            if z.ZSTD_isError(r):
                sys.exit("zstd: %s" % z.ZSTD_getErrorName(r).decode())
            parts.append(out_mem.raw[:ob.pos])
            if ib.pos == ib.size and ob.pos < out_cap:
                break
        return b"".join(parts)

    out = bytearray()
    pos, ncomp = data_off, 0
    rec = 0  # start of the first record in out not yet known to be whole
    held = []  # records read while a decompressed one was partial

    def whole():
        nonlocal rec
        while rec + 8 <= len(out):
            n, = struct.unpack_from("<H", out, rec + 6)
            if n < 8:
                sys.exit("bad decompressed record after %#x" % pos)
            if rec + n > len(out):
                break
            rec += n

    while pos + 8 <= data_end:
        typ, misc, size = struct.unpack_from("<IHH", buf, pos)
        if size < 8 or pos + size > data_end:
            sys.exit("bad record at %#x" % pos)
        if typ == PERF_RECORD_COMPRESSED:
            out += decompress(buf[pos + 8:pos + size])
            ncomp += 1
            whole()
            if rec == len(out) and held:
                # perf wrote them (FINISHED_ROUND) while the record
                # went on in zstd's buffer: they follow it
                for h in held:
                    out += h
                rec = len(out)
                held = []
        elif rec != len(out):
            held.append(buf[pos:pos + size])
        else:
            out += buf[pos:pos + size]
            rec = len(out)
        pos += size
    if pos != data_end:
        sys.exit("data section does not end on a record boundary")
    if rec != len(out):
        # perf record -z's last flush stopped when a COMPRESSED record
        # was full; the rest stayed in zstd's buffer and was never
        # written: the partial record is dropped, as perf does
        n, = struct.unpack_from("<H", out, rec + 6) if rec + 8 <= len(out) \
            else (0,)
        print("partial record at the end dropped: %d of its %d bytes"
              % (len(out) - rec, n), file=sys.stderr)
        del out[rec:]
        for h in held:
            out += h

    delta = len(out) - data_size
    nfeat = bin(feat_bits).count("1")
    table = bytearray(buf[data_end:data_end + 16 * nfeat])
    for i in range(nfeat):
        off, sz = struct.unpack_from("<QQ", table, 16 * i)
        if off >= data_end:
            off += delta
        struct.pack_into("<QQ", table, 16 * i, off, sz)
    hdr = bytearray(buf[:data_off])
    struct.pack_into("<QQ", hdr, 40, data_off, len(out))
    with open(sys.argv[2], "wb") as f:
        f.write(hdr)
        f.write(out)
        f.write(table)
        f.write(buf[data_end + 16 * nfeat:])
    print("%s: %d COMPRESSED records expanded, data %d -> %d bytes"
          % (sys.argv[2], ncomp, data_size, len(out)), file=sys.stderr)


if __name__ == "__main__":
    main()
