/* perfdata/compress.c: COMPRESSED and COMPRESSED2 records (perf record -z):
 * one zstd stream across the file; a decoded record may straddle two
 * compressed records, so the tail of one output waits for the next. */
#include "perfdata/internal.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* Output of one compressed record is bounded by perf's mmap size; anything
 * far beyond is a decompression bomb or garbage. */
#define MAX_DECOMP ((size_t)256 << 20)

struct perfan__decomp {
	ZSTD_DStream *zs;
	uint8_t *buf;
	size_t cap, len, pos;
	uint64_t offset; /* of the compressed record being read */
};

void perfan__decomp_free(struct perfan__decomp *dc)
{
	if (!dc)
		return;
	ZSTD_freeDStream(dc->zs);
	free(dc->buf);
	free(dc);
}

int perfan__decomp_pending(const struct perfan_perfdata *pd)
{
	return pd->dc && pd->dc->len > pd->dc->pos;
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
	/* keep the undelivered tail at the front */
	if (dc->pos) {
		memmove(dc->buf, dc->buf + dc->pos, dc->len - dc->pos);
		dc->len -= dc->pos;
		dc->pos = 0;
	}
	dc->offset = r->offset;
	ZSTD_inBuffer ib = {in, in_len, 0};
	while (ib.pos < ib.size) {
		if (dc->cap - dc->len < 65536) {
			size_t ncap = dc->cap ? dc->cap * 2 : (size_t)1 << 20;
			if (ncap > MAX_DECOMP)
				return PD_ERR(pd, PERFAN_EFORMAT, r->offset,
					      "compressed record expands to "
					      "more than %zu MiB",
					      MAX_DECOMP >> 20);
			uint8_t *nb = realloc(dc->buf, ncap);
			if (!nb)
				return PD_ERR(pd, PERFAN_ENOMEM, r->offset,
					      "out of memory");
			dc->buf = nb;
			dc->cap = ncap;
		}
		ZSTD_outBuffer ob = {dc->buf + dc->len, dc->cap - dc->len, 0};
		size_t rc = ZSTD_decompressStream(dc->zs, &ob, &ib);
		if (ZSTD_isError(rc))
			return PD_ERR(pd, PERFAN_EFORMAT, r->offset, "zstd: %s",
				      ZSTD_getErrorName(rc));
		dc->len += ob.pos;
		if (ob.pos == 0 && rc == 0)
			break;
	}
	return 0;
}

int perfan__decomp_next(struct perfan_perfdata *pd, struct perfan__raw *r)
{
	struct perfan__decomp *dc = pd->dc;
	if (!dc || dc->len - dc->pos < 8)
		return 0;
	const uint8_t *b = dc->buf + dc->pos;
	uint16_t size = perfan__u16(b + 6, pd->swap);
	if (size < 8)
		return PD_ERR(pd, PERFAN_EFORMAT, dc->offset,
			      "record of size %u (smaller than its header) in "
			      "the compressed data of this record",
			      size);
	if (size > dc->len - dc->pos)
		return 0; /* continues in the next compressed record */
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
