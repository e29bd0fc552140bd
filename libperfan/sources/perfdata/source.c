/* sources/perfdata/source.c: input bytes from a mapped file or a buffered stream,
 * addressed by file offset. Stream buffers grow only with bytes actually
 * read, so a bogus size in the input cannot cause a huge allocation. */
#include "sources/perfdata/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/pread.h"

int perfan__source_open_fd(struct perfan__source *s, int fd, const char *name)
{
	struct stat st;
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	if (fstat(fd, &st) < 0)
		return perfan__err(PERFAN_EIO, "%s: %s", name, strerror(errno));
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
			       fd, 0);
		if (m != MAP_FAILED) {
			madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
			s->map = m;
			s->map_len = (size_t)st.st_size;
			return 0;
		}
	}
	if (S_ISREG(st.st_mode) && st.st_size == 0) {
		s->map = (const uint8_t *)"";
		s->map_len = 0;
		return 0;
	}
	return 0; /* stream */
}

void perfan__source_close(struct perfan__source *s)
{
	if (s->map && s->map_len)
		munmap((void *)s->map, s->map_len);
	free(s->buf);
	if (s->own_fd && s->fd >= 0)
		close(s->fd);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

void perfan__source_drop(struct perfan__source *s, uint64_t off)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t from = s->dropped & ~(page - 1), to = off & ~(page - 1);
	if (s->map && to > from)
		madvise((void *)(s->map + from), (size_t)(to - from),
			MADV_DONTNEED);
	s->dropped = off;
}

/* A mapped file's records are read in blocks of READ_BLOCK bytes into a
 * buffer that is reused, not taken from the mapping. Each page of a
 * mapping is touched once, and a first touch costs more than copying the
 * bytes: on the 2-core VM where it was measured, the records of a 203 MB
 * recording took twice as long from the mapping, with its pages populated
 * ahead (MADV_POPULATE_READ) or not. A record larger than a block is taken
 * from the mapping in place: an AUXTRACE payload costs no copy and no
 * allocation. */
#define READ_BLOCK ((size_t)256 << 10)

/* Read [OFF, OFF + LEN) of the file into S's buffer: the bytes read, fewer
 * at the file's end; <0 on error. */
static ssize_t read_block(struct perfan_perfdata *pd, uint64_t off, size_t len)
{
	struct perfan__source *s = &pd->src;
	if (!s->buf) {
		if (!(s->buf = malloc(READ_BLOCK)))
			return perfan__nomem(pd->name);
		s->cap = READ_BLOCK;
	}
	ssize_t got = perfan__pread_full(s->fd, s->buf, len, off);
	if (got < 0)
		return perfan__err(PERFAN_EIO, "%s: read: %s", pd->name,
				   strerror(errno));
	s->buf_off = off;
	s->start = 0;
	s->end = (size_t)got;
	return got;
}

const uint8_t *perfan__source_data(struct perfan_perfdata *pd, uint64_t off,
				   size_t n, int *err)
{
	struct perfan__source *s = &pd->src;
	*err = 0;
	if (!s->map || n > READ_BLOCK)
		return perfan__source_get(pd, off, n, err);
	if (off > s->map_len || n > s->map_len - off)
		return NULL;
	if (s->buf && off >= s->buf_off && off - s->buf_off <= s->end &&
	    n <= s->end - (off - s->buf_off))
		return s->buf + (off - s->buf_off);
	uint64_t left = s->map_len - off;
	ssize_t got = read_block(pd, off,
				 left < READ_BLOCK ? (size_t)left : READ_BLOCK);
	if (got < 0) {
		*err = (int)got;
		return NULL;
	}
	return (size_t)got < n ? NULL : s->buf;
}

uint64_t perfan__source_size(const struct perfan_perfdata *pd)
{
	return pd->src.map ? pd->src.map_len : 0;
}

/* A stream's buffer starts at 64 KiB and doubles, while reads fill it, to
 * 1 MiB (more when a record needs it): a short stream costs little, a long
 * one is read in large blocks. */
#define STREAM_FIRST ((size_t)1 << 16)
#define STREAM_BLOCK ((size_t)1 << 20)

/* Read more stream bytes; 0 at EOF, <0 on error, else bytes read. */
static ssize_t fill(struct perfan_perfdata *pd, size_t want)
{
	struct perfan__source *s = &pd->src;
	if (s->end == s->cap && s->start > 0) {
		memmove(s->buf, s->buf + s->start, s->end - s->start);
		s->end -= s->start;
		s->start = 0;
	}
	if (s->end == s->cap || (s->cap < STREAM_BLOCK && s->filled)) {
		size_t ncap = s->cap ? s->cap * 2 : STREAM_FIRST;
		while (ncap < want && ncap < STREAM_BLOCK + s->cap * 2)
			ncap *= 2;
		uint8_t *nb = realloc(s->buf, ncap);
		if (!nb)
			return perfan__nomem(pd->name);
		s->buf = nb;
		s->cap = ncap;
	}
	for (;;) {
		size_t room = s->cap - s->end;
		ssize_t n = read(s->fd, s->buf + s->end, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return perfan__err(PERFAN_EIO, "%s: read: %s", pd->name,
					   strerror(errno));
		if (n == 0)
			s->eof = 1;
		s->filled = (size_t)n == room;
		s->end += (size_t)n;
		return n;
	}
}

const uint8_t *perfan__source_get(struct perfan_perfdata *pd, uint64_t off,
				  size_t n, int *err)
{
	struct perfan__source *s = &pd->src;
	*err = 0;
	if (s->map) {
		if (off > s->map_len || n > s->map_len - off)
			return NULL;
		return s->map + off;
	}
	if (off < s->buf_off) {
		*err = PD_ERR(pd, PERFAN_EUNSUPPORTED, off,
			      "cannot seek backwards in a stream");
		return NULL;
	}
	/* drop what lies before OFF */
	while (off - s->buf_off > s->end - s->start) {
		s->buf_off += s->end - s->start;
		s->start = s->end = 0;
		if (s->eof)
			return NULL;
		ssize_t r = fill(pd, 0);
		if (r < 0) {
			*err = (int)r;
			return NULL;
		}
		if (r == 0)
			return NULL;
	}
	s->start += (size_t)(off - s->buf_off);
	s->buf_off = off;
	while (s->end - s->start < n) {
		if (s->eof)
			return NULL;
		ssize_t r = fill(pd, n);
		if (r < 0) {
			*err = (int)r;
			return NULL;
		}
	}
	return s->buf + s->start;
}
