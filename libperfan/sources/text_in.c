/* sources/text_in.c: an input's text in pieces, gzip inflated as it is
 * read (sources/text_in.h). */
#include "sources/text_in.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util/error.h"
#include "util/log.h"

#define CHUNK (256 * 1024)

struct perfan__text_in {
	FILE *fp;
	const char *name;
	uint64_t max, done; /* bytes of text given */
	int gzip, end;
	z_stream z;
	int zr;            /* the last inflate's result */
	unsigned char *in; /* compressed bytes, used..have unread */
	size_t used, have;
	uint64_t off; /* compressed bytes before in[] */
};

int perfan__is_gzip(const void *buf, size_t len)
{
	const unsigned char *b = buf;
	return len >= 3 && b[0] == 0x1f && b[1] == 0x8b && b[2] == 8;
}

size_t perfan__gunzip_peek(const void *buf, size_t len, char *out, size_t cap)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return 0;
	z.next_in = (Bytef *)(uintptr_t)buf;
	z.avail_in = len > UINT32_MAX ? UINT32_MAX : (uInt)len;
	z.next_out = (Bytef *)out;
	z.avail_out = cap > UINT32_MAX ? UINT32_MAX : (uInt)cap;
	inflate(&z, Z_SYNC_FLUSH); /* as far as it goes: a cut input is fine */
	size_t n = (size_t)(z.next_out - (Bytef *)out);
	inflateEnd(&z);
	return n;
}

static int read_err(const struct perfan__text_in *t)
{
	if (!ferror(t->fp))
		return 0;
	return perfan__err(PERFAN_EIO, "%s: %s", t->name, strerror(errno));
}

int perfan__text_open(perfan_source *s, uint64_t max,
		      struct perfan__text_in **out)
{
	*out = NULL;
	FILE *fp = perfan__input_text(s);
	if (!fp)
		return PERFAN_EIO; /* named by perfan__input_text */
	struct perfan__text_in *t = calloc(1, sizeof(*t));
	if (!t || !(t->in = malloc(CHUNK))) {
		free(t);
		return perfan__nomem(s->name);
	}
	t->fp = fp;
	t->name = s->name;
	t->max = max;
	t->have = fread(t->in, 1, 3, fp);
	int rc = read_err(t);
	if (!rc && perfan__is_gzip(t->in, t->have)) {
		t->gzip = 1;
		t->zr = Z_OK;
		if (inflateInit2(&t->z, 16 + MAX_WBITS) != Z_OK)
			rc = perfan__nomem(s->name);
	}
	if (rc) {
		free(t->in);
		free(t);
		return rc;
	}
	*out = t;
	return 0;
}

/* Plain text: what is left of in[], then the file. */
static int plain(struct perfan__text_in *t, char *dst, size_t cap, size_t *got)
{
	size_t n = t->have - t->used < cap ? t->have - t->used : cap;
	memcpy(dst, t->in + t->used, n);
	t->used += n;
	if (n < cap)
		n += fread(dst + n, 1, cap - n, t->fp);
	*got = n;
	return n < cap ? read_err(t) : 0;
}

/* Inflated text: gzip members one after another, as gzip -d reads them
 * (trailing zeros ignored). */
static int gunzip(struct perfan__text_in *t, char *dst, size_t cap, size_t *got)
{
	t->z.next_out = (Bytef *)dst;
	t->z.avail_out = cap > UINT32_MAX ? UINT32_MAX : (uInt)cap;
	int rc = 0;
	while (t->z.avail_out && !t->end) {
		if (t->used == t->have) {
			t->off += t->have;
			t->have = fread(t->in, 1, CHUNK, t->fp);
			t->used = 0;
			if (!t->have) {
				t->end = 1;
				if ((rc = read_err(t)))
					break;
				if (t->zr != Z_STREAM_END)
					rc = perfan__err_at(
						PERFAN_ETRUNCATED, t->name,
						t->off, 0,
						"the gzip data is cut short "
						"(%llu bytes inflated)",
						(unsigned long long)(t->done +
								     (size_t)(t->z.next_out -
									      (Bytef *)
										      dst)));
				break;
			}
		}
		if (t->zr == Z_STREAM_END) {
			if (t->in[t->used] == 0) {
				t->used++;
				continue;
			}
			if ((t->zr = inflateReset(&t->z)) != Z_OK) {
				rc = perfan__nomem(t->name);
				break;
			}
		}
		t->z.next_in = t->in + t->used;
		t->z.avail_in = (uInt)(t->have - t->used);
		t->zr = inflate(&t->z, Z_NO_FLUSH);
		t->used = (size_t)(t->z.next_in - t->in);
		if (t->zr != Z_OK && t->zr != Z_STREAM_END &&
		    t->zr != Z_BUF_ERROR) {
			rc = perfan__err_at(t->zr == Z_MEM_ERROR
						    ? PERFAN_ENOMEM
						    : PERFAN_EFORMAT,
					    t->name, t->off + t->used, 0,
					    "damaged gzip data (%s)",
					    t->z.msg ? t->z.msg : "zlib error");
			break;
		}
	}
	*got = (size_t)((char *)t->z.next_out - dst);
	return rc;
}

int perfan__text_read(void *in, char *dst, size_t cap, size_t *got)
{
	struct perfan__text_in *t = in;
	int rc = t->gzip ? gunzip(t, dst, cap, got) : plain(t, dst, cap, got);
	t->done += *got;
	if (!rc && t->done > t->max)
		rc = perfan__err(PERFAN_EUNSUPPORTED,
				 "%s: more than %llu bytes of text: too large "
				 "to read",
				 t->name, (unsigned long long)t->max);
	return rc;
}

int perfan__text_gzip(const struct perfan__text_in *t)
{
	return t->gzip;
}

void perfan__text_close(struct perfan__text_in *t)
{
	if (!t)
		return;
	if (t->gzip)
		inflateEnd(&t->z);
	free(t->in);
	free(t);
}
