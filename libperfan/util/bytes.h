/* util/bytes.h: loads from input bytes of either byte order, never aligned
 * loads, so records at any offset (pipe mode before perf 6.12) are safe. */
#ifndef PERFAN_UTIL_BYTES_H
#define PERFAN_UTIL_BYTES_H

#include <stdint.h>
#include <string.h>

static inline uint16_t perfan__u16(const void *p, int swap)
{
	uint16_t v;
	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t perfan__u32(const void *p, int swap)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t perfan__u64(const void *p, int swap)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap64(v) : v;
}

/* A bounded cursor over input bytes. Reads past the end set `bad` and
 * return 0 instead of touching memory, so decoders check once at the end. */
struct perfan__cur {
	const uint8_t *p;
	size_t len, pos;
	int swap;
	int bad;
};

static inline struct perfan__cur perfan__cur_make(const void *p, size_t len,
						  int swap)
{
	struct perfan__cur c = {(const uint8_t *)p, len, 0, swap, 0};
	return c;
}

static inline size_t perfan__cur_left(const struct perfan__cur *c)
{
	return c->len - c->pos;
}

static inline const uint8_t *perfan__cur_take(struct perfan__cur *c, size_t n)
{
	const uint8_t *r;
	if (c->bad || n > c->len - c->pos) {
		c->bad = 1;
		return NULL;
	}
	r = c->p + c->pos;
	c->pos += n;
	return r;
}

static inline uint64_t perfan__cur_u64(struct perfan__cur *c)
{
	const uint8_t *p = perfan__cur_take(c, 8);
	return p ? perfan__u64(p, c->swap) : 0;
}

static inline uint32_t perfan__cur_u32(struct perfan__cur *c)
{
	const uint8_t *p = perfan__cur_take(c, 4);
	return p ? perfan__u32(p, c->swap) : 0;
}

static inline uint16_t perfan__cur_u16(struct perfan__cur *c)
{
	const uint8_t *p = perfan__cur_take(c, 2);
	return p ? perfan__u16(p, c->swap) : 0;
}

static inline uint8_t perfan__cur_u8(struct perfan__cur *c)
{
	const uint8_t *p = perfan__cur_take(c, 1);
	return p ? *p : 0;
}

#endif
