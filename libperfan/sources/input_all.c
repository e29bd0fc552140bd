/* sources/input_all.c: a whole input in memory, gzip inflated as it is
 * read. */
#include "sources/input_all.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"

#define CHUNK (256 * 1024)

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

struct sink {
	char *buf;
	size_t n, cap;
	uint64_t max;
	const char *name;
};

/* Room for WANT more bytes (and a NUL) in K. */
static int room(struct sink *k, size_t want)
{
	if ((uint64_t)k->n + want > k->max)
		return perfan__err(
			PERFAN_EUNSUPPORTED,
			"%s: more than %llu bytes of JSON: too large "
			"to read",
			k->name, (unsigned long long)k->max);
	if (perfan__grow((void **)&k->buf, &k->cap, k->n + want + 1, 1))
		return perfan__nomem(k->name);
	return 0;
}

static int read_err(FILE *fp, const char *name)
{
	if (!ferror(fp))
		return 0;
	return perfan__err(PERFAN_EIO, "%s: %s", name, strerror(errno));
}

/* The rest of FP as it is, after the N bytes at HEAD. */
static int plain(struct sink *k, FILE *fp, const char *head, size_t n)
{
	int rc = room(k, n);
	if (rc)
		return rc;
	memcpy(k->buf, head, n);
	k->n = n;
	for (;;) {
		if ((rc = room(k, CHUNK)))
			return rc;
		size_t r = fread(k->buf + k->n, 1, CHUNK, fp);
		k->n += r;
		if (r < CHUNK)
			return read_err(fp, k->name);
	}
}

/* FP inflated, its first N bytes at HEAD (gzip members one after another,
 * as gzip -d reads them). */
static int gunzip(struct sink *k, FILE *fp, const unsigned char *head, size_t n)
{
	unsigned char *in = malloc(CHUNK);
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (!in || inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		free(in);
		return perfan__nomem(k->name);
	}
	uint64_t off = 0; /* compressed bytes before in[] */
	int rc = 0, zr = Z_OK;
	memcpy(in, head, n < CHUNK ? n : CHUNK);
	size_t have = n < CHUNK ? n : CHUNK, used = 0;
	for (;;) {
		if (used == have) {
			off += have;
			have = fread(in, 1, CHUNK, fp);
			used = 0;
			if (!have) {
				if ((rc = read_err(fp, k->name)))
					break;
				if (zr != Z_STREAM_END)
					rc = perfan__err_at(
						PERFAN_ETRUNCATED, k->name, off,
						0,
						"the gzip data is cut short "
						"(%zu bytes inflated)",
						k->n);
				break;
			}
		}
		if (zr == Z_STREAM_END) {
			/* another member, or trailing zeros gzip ignores */
			if (in[used] == 0) {
				used++;
				continue;
			}
			if ((zr = inflateReset(&z)) != Z_OK) {
				rc = perfan__nomem(k->name);
				break;
			}
		}
		if ((rc = room(k, CHUNK)))
			break;
		z.next_in = in + used;
		z.avail_in = (uInt)(have - used);
		z.next_out = (Bytef *)k->buf + k->n;
		z.avail_out = CHUNK;
		zr = inflate(&z, Z_NO_FLUSH);
		k->n = (size_t)((char *)z.next_out - k->buf);
		used = (size_t)(z.next_in - in);
		if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
			rc = perfan__err_at(zr == Z_MEM_ERROR ? PERFAN_ENOMEM
							      : PERFAN_EFORMAT,
					    k->name, off + used, 0,
					    "damaged gzip data (%s)",
					    z.msg ? z.msg : "zlib error");
			break;
		}
	}
	inflateEnd(&z);
	free(in);
	return rc;
}

int perfan__input_all(perfan_source *s, uint64_t max, char **out, size_t *len)
{
	*out = NULL;
	*len = 0;
	FILE *fp = perfan__input_text(s);
	if (!fp)
		return PERFAN_EIO; /* named by perfan__input_text */
	struct sink k = {.max = max, .name = s->name};
	unsigned char head[3];
	size_t n = fread(head, 1, sizeof(head), fp);
	int rc = read_err(fp, s->name);
	if (!rc)
		rc = perfan__is_gzip(head, n) ? gunzip(&k, fp, head, n)
					      : plain(&k, fp, (char *)head, n);
	if (!rc && (rc = room(&k, 0)) == 0)
		k.buf[k.n] = '\0';
	if (rc) {
		free(k.buf);
		return rc;
	}
	*out = k.buf;
	*len = k.n;
	return 0;
}
