/* resolve/perfmap.c: code maps (named JIT code ranges over time, searched
 * through an implicit interval tree) and the perf map files JITs write for
 * perf, /tmp/perf-PID.map. perf (util/symbol.c, dso__load_perf_map) puts
 * every line in its symbol tree and finds one of two overlapping entries
 * by the tree's shape; here the later line wins, which is what a JIT means
 * when it writes a new line for memory it reuses. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resolve/perfmap.h"
#include "util/cmp.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/hex.h"

/* ---- code maps -------------------------------------------------------- */

int perfan__jitmap_add(struct perfan__jitmap *m, uint64_t start, uint64_t size,
		       uint64_t time, const char *name, size_t len,
		       uint32_t unwind)
{
	if (m->n >= UINT32_MAX)
		return PERFAN_ENOMEM; /* seq would wrap */
	if (perfan__grow((void **)&m->v, &m->cap, m->n + 1, sizeof(*m->v)))
		return PERFAN_ENOMEM;
	if (len > PERFAN__JITSYM_MAX_NAME)
		len = PERFAN__JITSYM_MAX_NAME;
	char *s = perfan__arena_strndup(&m->arena, name, len);
	if (!s)
		return PERFAN_ENOMEM;
	uint64_t end = start + (size ? size : 1);
	if (end < start)
		end = UINT64_MAX;
	m->v[m->n] = (struct perfan__jitsym){start,          end,   time, s,
					     (uint32_t)m->n, unwind};
	m->n++;
	m->indexed = 0;
	return 0;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct perfan__jitsym *x = a, *y = b;
	int c = perfan__cmp_u64(x->start, y->start);
	return c ? c : perfan__cmp_u64(x->seq, y->seq);
}

/* The tree over v[lo, hi) has its root at the middle; each node keeps the
 * largest end in its subtree, so a search skips subtrees that end before
 * the address. Depth is log2(n): recursion is fine. */
static uint64_t build(struct perfan__jitmap *m, size_t lo, size_t hi)
{
	if (lo >= hi)
		return 0;
	size_t mid = lo + (hi - lo) / 2;
	uint64_t e = m->v[mid].end;
	uint64_t l = build(m, lo, mid), r = build(m, mid + 1, hi);
	if (l > e)
		e = l;
	if (r > e)
		e = r;
	m->maxend[mid] = e;
	return e;
}

int perfan__jitmap_index(struct perfan__jitmap *m)
{
	free(m->maxend);
	free(m->frame);
	m->maxend = NULL;
	m->frame = NULL;
	size_t n = m->n ? m->n : 1;
	m->maxend = malloc(n * sizeof(*m->maxend));
	m->frame = calloc(n, sizeof(*m->frame));
	if (!m->maxend || !m->frame)
		return PERFAN_ENOMEM;
	if (m->n > 1)
		qsort(m->v, m->n, sizeof(*m->v), sym_cmp);
	build(m, 0, m->n);
	m->indexed = 1;
	return 0;
}

static int later(const struct perfan__jitsym *a, const struct perfan__jitsym *b)
{
	if (!b)
		return 1;
	if (a->time != b->time)
		return a->time > b->time;
	return a->seq > b->seq;
}

static void search(const struct perfan__jitmap *m, size_t lo, size_t hi,
		   uint64_t addr, uint64_t time,
		   const struct perfan__jitsym **best)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->maxend[mid] <= addr)
			return; /* everything here ends at or before ADDR */
		search(m, lo, mid, addr, time, best);
		const struct perfan__jitsym *s = &m->v[mid];
		if (s->start > addr)
			return; /* and so does everything to the right */
		if (s->end > addr && s->time <= time && later(s, *best))
			*best = s;
		lo = mid + 1;
	}
}

const struct perfan__jitsym *perfan__jitmap_find(const struct perfan__jitmap *m,
						 uint64_t addr, uint64_t time)
{
	if (!m || !m->indexed || !m->n)
		return NULL;
	const struct perfan__jitsym *best = NULL;
	search(m, 0, m->n, addr, time, &best);
	return best;
}

void perfan__jitmap_free(struct perfan__jitmap *m)
{
	if (!m)
		return;
	free(m->v);
	free(m->maxend);
	free(m->frame);
	perfan__arena_free(&m->arena);
	memset(m, 0, sizeof(*m));
}

/* ---- perf map lines ------------------------------------------------------ */

/* A hex number at S[*I..N): 1 to 16 digits after an optional 0x. */
static int hexnum(const char *s, size_t n, size_t *i, uint64_t *out)
{
	size_t p = *i;
	if (p + 1 < n && s[p] == '0' && (s[p + 1] == 'x' || s[p + 1] == 'X') &&
	    p + 2 < n && perfan__hexval(s[p + 2]) >= 0)
		p += 2;
	uint64_t v = 0;
	size_t digits = 0;
	for (; p < n && perfan__hexval(s[p]) >= 0; p++, digits++) {
		if (digits == 16)
			return -1;
		v = v << 4 | (uint64_t)perfan__hexval(s[p]);
	}
	if (!digits)
		return -1;
	*out = v;
	*i = p;
	return 0;
}

static int blank(char c)
{
	return c == ' ' || c == '\t';
}

/* One line (without '\n'). 0, 1 when malformed, or PERFAN_ENOMEM. */
static int parse_line(struct perfan__jitmap *m, const char *s, size_t n)
{
	if (n && s[n - 1] == '\r')
		n--;
	size_t i = 0;
	uint64_t start, size;
	if (hexnum(s, n, &i, &start) || i == n || !blank(s[i]))
		return 1;
	while (i < n && blank(s[i]))
		i++;
	if (hexnum(s, n, &i, &size) || i == n || !blank(s[i]))
		return 1;
	while (i < n && blank(s[i]))
		i++;
	if (i == n || memchr(s + i, '\0', n - i))
		return 1;
	return perfan__jitmap_add(m, start, size, 0, s + i, n - i, 0);
}

static int empty_line(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!blank(s[i]) && s[i] != '\r')
			return 0;
	return 1;
}

static int take_line(struct perfan__jitmap *m, const char *s, size_t n,
		     int too_long, struct perfan__perfmap_stats *st)
{
	st->lines++;
	if (!too_long && empty_line(s, n))
		return 0;
	int rc = too_long ? 1 : parse_line(m, s, n);
	if (rc < 0)
		return rc;
	if (rc) {
		st->bad_lines++;
		if (!st->first_bad_line)
			st->first_bad_line = st->lines;
	} else {
		st->symbols++;
	}
	return 0;
}

int perfan__perfmap_parse(struct perfan__jitmap *m, const char *buf, size_t len,
			  struct perfan__perfmap_stats *stats)
{
	struct perfan__perfmap_stats dummy;
	struct perfan__perfmap_stats *st = stats ? stats : &dummy;
	memset(st, 0, sizeof(*st));
	size_t pos = 0;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		int err = take_line(m, buf + pos, n,
				    n > PERFAN__PERFMAP_MAX_LINE, st);
		if (err)
			return err;
		pos += n + (nl != NULL);
	}
	return 0;
}

int perfan__perfmap_load(struct perfan__jitmap *m, const char *path,
			 struct perfan__perfmap_stats *stats)
{
	struct perfan__perfmap_stats dummy;
	struct perfan__perfmap_stats *st = stats ? stats : &dummy;
	memset(st, 0, sizeof(*st));
	FILE *fp = fopen(path, "re");
	if (!fp)
		return errno == ENOMEM ? PERFAN_ENOMEM : PERFAN_ENOTFOUND;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	m->module = perfan__arena_strndup(&m->arena, base, strlen(base));

	/* A block holds at least one whole line of the longest kind we
	 * parse; a longer line is skipped up to its newline. */
	enum { BLOCK = 64 * 1024 };
	char *buf = malloc(BLOCK);
	int err = m->module && buf ? 0 : PERFAN_ENOMEM;
	size_t have = 0;
	int skipping = 0, eof = 0;
	while (!err && !eof) {
		size_t got = fread(buf + have, 1, BLOCK - have, fp);
		if (got < BLOCK - have) {
			if (ferror(fp)) {
				err = perfan__err(PERFAN_EIO, "%s: read error",
						  path);
				break;
			}
			eof = 1;
		}
		have += got;
		size_t pos = 0;
		for (;;) {
			const char *nl = memchr(buf + pos, '\n', have - pos);
			if (!nl)
				break;
			size_t n = (size_t)(nl - (buf + pos));
			err = take_line(
				m, buf + pos, n,
				skipping || n > PERFAN__PERFMAP_MAX_LINE, st);
			skipping = 0;
			pos += n + 1;
			if (err)
				break;
		}
		if (err)
			break;
		size_t rest = have - pos;
		if (eof) {
			if (rest)
				err = take_line(
					m, buf + pos, rest,
					skipping ||
						rest > PERFAN__PERFMAP_MAX_LINE,
					st);
			break;
		}
		if (rest > PERFAN__PERFMAP_MAX_LINE) {
			/* too long to be a line we take: drop it up to
			 * its newline */
			skipping = 1;
			rest = 0;
		}
		memmove(buf, buf + pos, rest);
		have = rest;
	}
	free(buf);
	fclose(fp);
	if (!err)
		err = perfan__jitmap_index(m);
	return err;
}
