/* sources/perfdata/compress.c: COMPRESSED and COMPRESSED2 records (perf record -z):
 * one zstd stream across the file; a decoded record may straddle two
 * compressed records, so the tail of one output waits for the next. */
#include "sources/perfdata/internal.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* Output is produced in steps of this size as records are pulled, so a
 * small record that expands enormously cannot make us allocate more. */
#define STEP ((size_t)1 << 20)

struct perfan__decomp {
	ZSTD_DStream *zs;
	uint8_t *buf; /* decompressed bytes not yet delivered */
	size_t cap, len, pos;
	uint8_t *in; /* the compressed bytes of the current record */
	size_t in_cap, in_len, in_pos;
	uint64_t offset; /* of the compressed record being read */
	/* the last call filled its output: zstd may hold more, which comes
	 * out on calls without input */
	int held;
};

void perfan__decomp_free(struct perfan__decomp *dc)
{
	if (!dc)
		return;
	ZSTD_freeDStream(dc->zs);
	free(dc->buf);
	free(dc->in);
	free(dc);
}

void perfan__decomp_end(struct perfan_perfdata *pd)
{
	struct perfan__decomp *dc = pd->dc;
	if (!dc || dc->len == dc->pos)
		return;
	size_t held = dc->len - dc->pos;
	unsigned want = held >= 8 ? perfan__u16(dc->buf + dc->pos + 6, pd->swap)
				  : 0;
	unsigned long long off = dc->offset;
	if (pd->info.cut)
		/* the record goes on in a compressed record that the cut
		 * split or never wrote */
		perfan__log(pd, PERFAN_LOG_WARN,
			    "%s: offset %llu (0x%llx): the recording was cut "
			    "inside the records of this compressed record: "
			    "the last is ignored",
			    pd->name, off, off);
	else
		/* perf record -z: the compressor's flush can stop when a
		 * compressed record is full, and what it kept back comes out
		 * with the next one; after the last one it never does (perf
		 * reads such files and drops the partial record silently) */
		perfan__log(pd, PERFAN_LOG_WARN,
			    "%s: offset %llu (0x%llx): the compressed data end "
			    "inside a record (%zu of its %u bytes): perf "
			    "record -z did not write the rest of its last "
			    "flush; the partial record is ignored",
			    pd->name, off, off, held, want);
	dc->pos = dc->len; /* said once */
}

int perfan__decomp_feed(struct perfan_perfdata *pd, const struct perfan__raw *r)
{
	struct perfan__decomp *dc = pd->dc;
	const uint8_t *in;
	size_t in_len;
	if (r->type == PERFAN_REC_COMPRESSED2) {
		if (r->size < 16)
			return PD_ERR(pd, PERFAN_EFORMAT, r->offset,
				      "COMPRESSED2 record too short");
		uint64_t n = perfan__u64(r->bytes + 8, pd->swap);
		if (n > (uint64_t)r->size - 16)
			return PD_ERR(pd, PERFAN_EFORMAT, r->offset,
				      "COMPRESSED2 data size %llu exceeds the "
				      "record",
				      (unsigned long long)n);
		in = r->bytes + 16;
		in_len = (size_t)n;
	} else {
		in = r->bytes + 8;
		in_len = r->size - 8;
	}
	if (!dc) {
		dc = calloc(1, sizeof(*dc));
		if (!dc)
			return PD_ERR(pd, PERFAN_ENOMEM, r->offset,
				      "out of memory");
		dc->zs = ZSTD_createDStream();
		if (!dc->zs) {
			free(dc);
			return PD_ERR(pd, PERFAN_ENOMEM, r->offset,
				      "out of memory");
		}
		ZSTD_initDStream(dc->zs);
		pd->dc = dc;
	}
	/* records are at most 64 KiB, so is their compressed input */
	if (perfan__grow((void **)&dc->in, &dc->in_cap, in_len, 1))
		return PD_ERR(pd, PERFAN_ENOMEM, r->offset, "out of memory");
	if (in_len) /* an empty frame: nothing allocated to copy to */
		memcpy(dc->in, in, in_len);
	dc->in_len = in_len;
	dc->in_pos = 0;
	dc->offset = r->offset;
	return 0;
}

/* Decompress up to STEP more bytes; 0 if no input is left. */
static int inflate_step(struct perfan_perfdata *pd, struct perfan__decomp *dc)
{
	if (dc->in_pos >= dc->in_len && !dc->held)
		return 0;
	if (dc->pos) { /* keep the undelivered tail at the front */
		memmove(dc->buf, dc->buf + dc->pos, dc->len - dc->pos);
		dc->len -= dc->pos;
		dc->pos = 0;
	}
	if (dc->cap - dc->len < STEP) {
		/* the tail kept is part of one record (< 64 KiB): room for
		 * it from the start, so the buffer is not grown and copied
		 * again for every slightly longer tail */
		size_t ncap = dc->len + STEP;
		if (ncap < STEP + 65536)
			ncap = STEP + 65536;
		uint8_t *nb = realloc(dc->buf, ncap);
		if (!nb)
			return PD_ERR(pd, PERFAN_ENOMEM, dc->offset,
				      "out of memory");
		dc->buf = nb;
		dc->cap = ncap;
	}
	ZSTD_inBuffer ib = {dc->in, dc->in_len, dc->in_pos};
	ZSTD_outBuffer ob = {dc->buf + dc->len, STEP, 0};
	while ((ib.pos < ib.size || dc->held) && ob.pos < ob.size) {
		size_t in0 = ib.pos, out0 = ob.pos;
		size_t rc = ZSTD_decompressStream(dc->zs, &ob, &ib);
		if (ZSTD_isError(rc))
			return PD_ERR(pd, PERFAN_EFORMAT, dc->offset,
				      "zstd: %s", ZSTD_getErrorName(rc));
		dc->held = ob.pos == ob.size;
		if (ib.pos == in0 && ob.pos == out0) {
			dc->held = 0; /* nothing more held */
			break;
		}
	}
	dc->in_pos = ib.pos;
	dc->len += ob.pos;
	return ob.pos || ib.pos < ib.size || dc->held ? 1 : 0;
}

int perfan__decomp_next(struct perfan_perfdata *pd, struct perfan__raw *r)
{
	struct perfan__decomp *dc = pd->dc;
	if (!dc)
		return 0;
	for (;;) {
		size_t avail = dc->len - dc->pos;
		if (avail >= 8) {
			const uint8_t *b = dc->buf + dc->pos;
			uint16_t size = perfan__u16(b + 6, pd->swap);
			if (size < 8)
				return PD_ERR(pd, PERFAN_EFORMAT, dc->offset,
					      "record of size %u (smaller than "
					      "its header) in the compressed "
					      "data of this record",
					      size);
			if (size <= avail) {
				memset(r, 0, sizeof(*r));
				r->bytes = b;
				r->type = perfan__u32(b, pd->swap);
				r->misc = perfan__u16(b + 4, pd->swap);
				r->size = size;
				r->offset = dc->offset;
				r->from_compressed = 1;
				dc->pos += size;
				return 1;
			}
		}
		int rc = inflate_step(pd, dc);
		if (rc <= 0)
			return rc; /* a partial record waits for more input */
	}
}
