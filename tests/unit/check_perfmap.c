/* check_perfmap.c: JIT code names: perf map parsing (malformed lines,
 * overlaps, lines across read blocks), the code map's time-aware search
 * against a brute force, jitdump reading (the real dump of
 * testdata/py313-perfjit, every prefix of it, the other byte order,
 * damaged records), a forked child's fallback to its parent's map, and
 * whole resolves of the CPython recordings against perf's own output. */
#define _GNU_SOURCE
#include <dirent.h>
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "resolve/jit.h"
#include "resolve/jitdump.h"
#include "resolve/perfmap.h"
#include "resolve/symbols.h"
#include "testutil.h"

/* ---- helpers -------------------------------------------------------------- */

static char logbuf[8192];

/* A testdata path that stays valid (tu_testdata's buffers are reused). */
static const char *td(const char *rel)
{
	static char bufs[16][4096];
	static unsigned next;
	char *b = bufs[next++ % 16];
	tu_fmt(b, sizeof(bufs[0]), "%s", tu_testdata(rel));
	return b;
}

static void capture(enum perfan_log_level level, const char *msg, void *pl)
{
	(void)pl;
	size_t n = strlen(logbuf);
	snprintf(logbuf + n, sizeof(logbuf) - n, "%d %s\n", (int)level, msg);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return b;
}

static void spit(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	fclose(f);
}

static void rm_rf(const char *dir)
{
	char cmd[4200];
	tu_fmt(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static const char *name_at(const struct perfan__jitmap *m, uint64_t addr)
{
	const struct perfan__jitsym *s = perfan__jitmap_find(m, addr, 0);
	return s ? s->name : NULL;
}

/* ---- perf maps -------------------------------------------------------------- */

START_TEST(test_perfmap_lines)
{
	static const char text[] =
		"1000 10 first\n"
		"\n"                         /* blank: ignored */
		"2000 8 py::f:/a b/c.py\r\n" /* CRLF, blanks in the name */
		"0x3000 0x20 with 0x\n"      /* 0x accepted */
		"3010\t4\t\tinner tabs\n"    /* tabs; overlaps: later wins */
		"4000 0 zero size\n"         /* covers its start */
		"zzzz 10 not hex\n"          /* bad */
		"5000 10\n"                  /* bad: no name */
		"5000 10 \n"                 /* bad: empty name */
		"5000\n"                     /* bad */
		"5000 xyz name\n"            /* bad */
		"10000000000000000 1 big\n"  /* bad: 17 digits */
		"6000 10 fine again\n"
		"7000 10 last line, no newline";
	struct perfan__jitmap m = {0};
	struct perfan__perfmap_stats st;
	ck_assert_int_eq(perfan__perfmap_parse(&m, text, sizeof(text) - 1, &st),
			 0);
	ck_assert_int_eq(perfan__jitmap_index(&m), 0);
	ck_assert_uint_eq(st.lines, 14);
	ck_assert_uint_eq(st.symbols, 7);
	ck_assert_uint_eq(st.bad_lines, 6);
	ck_assert_uint_eq(st.first_bad_line, 7);
	ck_assert_str_eq(name_at(&m, 0x1000), "first");
	ck_assert_str_eq(name_at(&m, 0x100f), "first");
	ck_assert_ptr_null(name_at(&m, 0x1010)); /* end is exclusive */
	ck_assert_ptr_null(name_at(&m, 0xfff));
	ck_assert_str_eq(name_at(&m, 0x2007), "py::f:/a b/c.py");
	ck_assert_str_eq(name_at(&m, 0x3000), "with 0x");
	ck_assert_str_eq(name_at(&m, 0x3012), "inner tabs");
	ck_assert_str_eq(name_at(&m, 0x3014), "with 0x");
	ck_assert_str_eq(name_at(&m, 0x4000), "zero size");
	ck_assert_ptr_null(name_at(&m, 0x4001));
	ck_assert_str_eq(name_at(&m, 0x6000), "fine again");
	ck_assert_str_eq(name_at(&m, 0x7009), "last line, no newline");
	ck_assert_ptr_null(name_at(&m, 0x5000));
	perfan__jitmap_free(&m);

	/* a NUL inside a line is malformed, not a cut name */
	static const char nul[] = "1000 10 a\0b\n2000 10 ok\n";
	ck_assert_int_eq(perfan__perfmap_parse(&m, nul, sizeof(nul) - 1, &st),
			 0);
	ck_assert_uint_eq(st.bad_lines, 1);
	ck_assert_uint_eq(st.symbols, 1);
	perfan__jitmap_free(&m);

	/* the later of two identical ranges wins; an empty map finds
	 * nothing */
	static const char twice[] = "1000 10 old\n1000 10 new\n";
	ck_assert_int_eq(
		perfan__perfmap_parse(&m, twice, sizeof(twice) - 1, &st), 0);
	ck_assert_int_eq(perfan__jitmap_index(&m), 0);
	ck_assert_str_eq(name_at(&m, 0x1005), "new");
	perfan__jitmap_free(&m);
	ck_assert_int_eq(perfan__jitmap_index(&m), 0);
	ck_assert_ptr_null(name_at(&m, 0x1005));
	perfan__jitmap_free(&m);
}
END_TEST

/* The file reader (64 KiB blocks) and the memory parser agree, on lines
 * that cross blocks and on lines far longer than a block. */
START_TEST(test_perfmap_file)
{
	size_t cap = 1 << 22, len = 0;
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	unsigned expect_bad = 0, expect_syms = 0;
	for (unsigned i = 0; i < 20000; i++) {
		if (i % 997 == 5) { /* a line of 100 KiB: skipped */
			len += (size_t)snprintf(text + len, cap - len, "%x 10 ",
						0x100000 + i * 16);
			memset(text + len, 'x', 100000);
			len += 100000;
			text[len++] = '\n';
			expect_bad++;
		} else if (i % 101 == 7) {
			len += (size_t)snprintf(text + len, cap - len,
						"garbage %u\n", i);
			expect_bad++;
		} else {
			len += (size_t)snprintf(text + len, cap - len,
						"%x %x sym_%u\n",
						0x100000 + i * 16, 16, i);
			expect_syms++;
		}
		ck_assert_uint_lt(len + 200000, cap);
	}
	char dir[] = "/tmp/perfan-check-perfmap-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[256];
	tu_fmt(path, sizeof(path), "%s/perf-42.map", dir);
	spit(path, text, len);

	struct perfan__jitmap a = {0}, b = {0};
	struct perfan__perfmap_stats sa, sb;
	ck_assert_int_eq(perfan__perfmap_parse(&a, text, len, &sa), 0);
	ck_assert_int_eq(perfan__jitmap_index(&a), 0);
	ck_assert_int_eq(perfan__perfmap_load(&b, path, &sb), 0);
	ck_assert_str_eq(b.module, "perf-42.map");
	ck_assert_uint_eq(sa.symbols, expect_syms);
	ck_assert_uint_eq(sa.bad_lines, expect_bad);
	ck_assert_uint_eq(sb.symbols, sa.symbols);
	ck_assert_uint_eq(sb.bad_lines, sa.bad_lines);
	ck_assert_uint_eq(sb.lines, sa.lines);
	ck_assert_uint_eq(sb.first_bad_line, sa.first_bad_line);
	ck_assert_uint_eq(a.n, b.n);
	for (size_t i = 0; i < a.n; i++) {
		ck_assert_uint_eq(a.v[i].start, b.v[i].start);
		ck_assert_uint_eq(a.v[i].end, b.v[i].end);
		ck_assert_str_eq(a.v[i].name, b.v[i].name);
	}
	ck_assert_str_eq(name_at(&b, 0x100000 + 12345 * 16 + 3), "sym_12345");
	perfan__jitmap_free(&a);
	perfan__jitmap_free(&b);

	tu_fmt(path, sizeof(path), "%s/perf-43.map", dir);
	ck_assert_int_eq(perfan__perfmap_load(&b, path, NULL),
			 PERFAN_ENOTFOUND);
	perfan__jitmap_free(&b);
	rm_rf(dir);
	free(text);
}
END_TEST

/* ---- the code map's search ------------------------------------------------ */

START_TEST(test_jitmap_time)
{
	struct perfan__jitmap m = {0};
	ck_assert_int_eq(perfan__jitmap_add(&m, 0x1000, 0x100, 10, "a", 1, 0),
			 0);
	ck_assert_int_eq(perfan__jitmap_add(&m, 0x1000, 0x100, 20, "b", 1, 0),
			 0);
	/* a later record with an earlier time (clock skew between threads)
	 * still counts from its time */
	ck_assert_int_eq(perfan__jitmap_add(&m, 0x1080, 0x10, 15, "c", 1, 0),
			 0);
	ck_assert_int_eq(perfan__jitmap_index(&m), 0);
	ck_assert_ptr_null(perfan__jitmap_find(&m, 0x1000, 5));
	ck_assert_str_eq(perfan__jitmap_find(&m, 0x1000, 10)->name, "a");
	ck_assert_str_eq(perfan__jitmap_find(&m, 0x1000, 19)->name, "a");
	ck_assert_str_eq(perfan__jitmap_find(&m, 0x1000, 20)->name, "b");
	ck_assert_str_eq(perfan__jitmap_find(&m, 0x1085, 16)->name, "c");
	ck_assert_str_eq(perfan__jitmap_find(&m, 0x1085, 25)->name, "b");
	ck_assert_str_eq(perfan__jitmap_find(&m, 0x1085, UINT64_MAX)->name,
			 "b");
	ck_assert_ptr_null(perfan__jitmap_find(&m, 0x1100, UINT64_MAX));
	perfan__jitmap_free(&m);
}
END_TEST

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Nested, overlapping and disjoint ranges, against a brute force. */
START_TEST(test_jitmap_brute)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	for (int round = 0; round < 20; round++) {
		struct perfan__jitmap m = {0};
		size_t n = 1 + rnd(&seed) % 600;
		for (size_t i = 0; i < n; i++) {
			uint64_t start = rnd(&seed) % 5000;
			uint64_t size = rnd(&seed) % 7 == 0 ? rnd(&seed) % 4000
							    : rnd(&seed) % 40;
			uint64_t t = rnd(&seed) % 100;
			char name[16];
			int l = snprintf(name, sizeof(name), "s%zu", i);
			ck_assert_int_eq(perfan__jitmap_add(&m, start, size, t,
							    name, (size_t)l, 0),
					 0);
		}
		/* brute force needs them in insertion order */
		struct perfan__jitsym *orig = malloc(n * sizeof(*orig));
		memcpy(orig, m.v, n * sizeof(*orig));
		ck_assert_int_eq(perfan__jitmap_index(&m), 0);
		for (int q = 0; q < 3000; q++) {
			uint64_t addr = rnd(&seed) % 9100;
			uint64_t t = q % 5 == 0 ? UINT64_MAX : rnd(&seed) % 110;
			const struct perfan__jitsym *best = NULL;
			for (size_t i = 0; i < n; i++) {
				const struct perfan__jitsym *s = &orig[i];
				if (s->start > addr || s->end <= addr ||
				    s->time > t)
					continue;
				if (!best || s->time > best->time ||
				    (s->time == best->time &&
				     s->seq > best->seq))
					best = s;
			}
			const struct perfan__jitsym *got =
				perfan__jitmap_find(&m, addr, t);
			if (!best) {
				ck_assert_ptr_null(got);
			} else {
				ck_assert_ptr_nonnull(got);
				ck_assert_uint_eq(got->seq, best->seq);
			}
		}
		free(orig);
		perfan__jitmap_free(&m);
	}
}
END_TEST

/* ---- jitdumps --------------------------------------------------------------- */

#define DUMP "py313-perfjit/jit-7339.dump"

static uint64_t uleb(const uint8_t *p, size_t *i)
{
	uint64_t v = 0;
	int shift = 0;
	while (p[*i] & 0x80) {
		v |= (uint64_t)(p[*i] & 0x7f) << shift;
		shift += 7;
		(*i)++;
	}
	v |= (uint64_t)p[(*i)++] << shift;
	return v;
}

/* The first FDE of an .eh_frame at BASE covers [START, END): decoded with
 * the CIE's pointer encoding (pc-relative sdata4 is what CPython and
 * most JITs write). */
static void check_fde(const uint8_t *eh, size_t len, uint64_t base,
		      uint64_t start, uint64_t end)
{
	uint32_t cie_len, id;
	ck_assert_uint_ge(len, 32);
	memcpy(&cie_len, eh, 4);
	memcpy(&id, eh + 4, 4);
	ck_assert_uint_eq(id, 0); /* a CIE */
	size_t i = 9;             /* after length, id, version */
	ck_assert_str_eq((const char *)eh + i, "zR");
	i += 3;
	uleb(eh, &i); /* code alignment */
	uleb(eh, &i); /* data alignment (sleb, skipped the same way) */
	uleb(eh, &i); /* return address register */
	uleb(eh, &i); /* augmentation data length */
	uint8_t enc = eh[i];
	ck_assert_uint_eq(enc, 0x1b); /* DW_EH_PE_pcrel | sdata4 */
	size_t fde = 4 + cie_len;
	ck_assert_uint_lt(fde + 16, len);
	int32_t pc_rel, range;
	memcpy(&pc_rel, eh + fde + 8, 4);
	memcpy(&range, eh + fde + 12, 4);
	uint64_t pc = base + fde + 8 + (uint64_t)(int64_t)pc_rel;
	ck_assert_uint_eq(pc, start);
	ck_assert_uint_eq(pc + (uint64_t)range, end);
}

START_TEST(test_jitdump_real)
{
	struct perfan__jitdump *jd;
	ck_assert_int_eq(perfan__jitdump_open(&jd, tu_testdata(DUMP)), 0);
	ck_assert_int_eq(jd->swapped, 0);
	ck_assert_uint_eq(jd->version, 1);
	ck_assert_uint_eq(jd->pid, 7339);
	ck_assert_uint_eq(jd->header_size, 40);
	ck_assert_int_eq(jd->truncated, 0);
	ck_assert_ptr_null(jd->corrupt);
	ck_assert_uint_eq(jd->whole, jd->size);
	/* perf inject wrote one jitted-7339-N.so per code load */
	ck_assert_uint_eq(jd->loads, 212);
	ck_assert_uint_eq(jd->unwinding_info, 212);
	ck_assert_uint_eq(jd->moves, 0);
	ck_assert_uint_eq(jd->records, jd->loads + jd->unwinding_info +
					       jd->debug_info + jd->closes +
					       jd->unknown);
	ck_assert_uint_eq(jd->code.n, 212);
	ck_assert_str_eq(jd->code.module, "jit-7339.dump");
	size_t py = 0;
	for (size_t i = 0; i < jd->code.n; i++) {
		const struct perfan__jitsym *s = &jd->code.v[i];
		py += !strncmp(s->name, "py::", 4);
		ck_assert_uint_ne(s->unwind, 0);
		/* each finds itself, from its time on */
		ck_assert_ptr_eq(perfan__jitdump_find(jd, s->start, s->time),
				 s);
		ck_assert_ptr_eq(
			perfan__jitdump_find(jd, s->end - 1, UINT64_MAX), s);
		const uint8_t *eh, *hdr;
		size_t len, hlen;
		uint64_t base, cs, ce;
		ck_assert_int_eq(perfan__jitdump_unwind(jd, s->start, s->time,
							&eh, &len, &base, &hdr,
							&hlen, &cs, &ce),
				 0);
		ck_assert_uint_eq(cs, s->start);
		ck_assert_uint_eq(ce, s->end);
		ck_assert_ptr_eq(hdr, eh + len);
		ck_assert_uint_eq(hlen, 20);
		ck_assert_uint_eq(hdr[0], 1); /* .eh_frame_hdr version */
		check_fde(eh, len, base, s->start, s->end);
	}
	ck_assert_uint_eq(py, 212);
	const struct perfan__jitsym *s = jd->code.v;
	ck_assert_ptr_null(perfan__jitdump_find(jd, s->start, s->time - 1));
	ck_assert_int_eq(perfan__jitdump_unwind(jd, 1, UINT64_MAX, NULL, NULL,
						NULL, NULL, NULL, NULL, NULL),
			 PERFAN_ENOTFOUND);
	perfan__jitdump_free(jd);
}
END_TEST

/* Every prefix of the dump reads without error as far as it is whole. */
START_TEST(test_jitdump_prefixes)
{
	size_t len;
	char *buf = slurp(tu_testdata(DUMP), &len);
	ck_assert_ptr_nonnull(buf);
	uint64_t last_loads = 0;
	for (size_t n = 0; n <= len; n++) {
		/* a copy of exactly N bytes, so that ASan sees any read past
		 * it */
		char *p = malloc(n ? n : 1);
		memcpy(p, buf, n);
		struct perfan__jitdump *jd;
		int err = perfan__jitdump_parse(&jd, p, n, "prefix");
		ck_assert_int_eq(err, 0);
		ck_assert_uint_ge(jd->loads, last_loads);
		ck_assert_uint_le(jd->whole, n);
		ck_assert_int_eq(jd->truncated, jd->whole < n || n < 40);
		ck_assert_ptr_null(jd->corrupt);
		last_loads = jd->loads;
		perfan__jitdump_free(jd);
		free(p);
	}
	ck_assert_uint_eq(last_loads, 212);
	free(buf);
}
END_TEST

static void bswap_at(uint8_t *p, size_t off, int bytes)
{
	if (bytes == 4) {
		uint32_t v;
		memcpy(&v, p + off, 4);
		v = __builtin_bswap32(v);
		memcpy(p + off, &v, 4);
	} else {
		uint64_t v;
		memcpy(&v, p + off, 8);
		v = __builtin_bswap64(v);
		memcpy(p + off, &v, 8);
	}
}

/* The dump as a JIT on a machine of the other byte order would write it
 * (fields swapped; names, code and unwind tables are bytes). */
static uint8_t *swapped_copy(const uint8_t *in, size_t len)
{
	uint8_t *p = malloc(len);
	memcpy(p, in, len);
	for (int i = 0; i < 6; i++)
		bswap_at(p, (size_t)i * 4, 4);
	bswap_at(p, 24, 8);
	bswap_at(p, 32, 8);
	size_t off = 40;
	while (off + 16 <= len) {
		uint32_t id, size;
		memcpy(&id, in + off, 4);
		memcpy(&size, in + off + 4, 4);
		ck_assert_uint_ge(size, 16);
		bswap_at(p, off, 4);
		bswap_at(p, off + 4, 4);
		bswap_at(p, off + 8, 8);
		if (id == PERFAN__JIT_CODE_LOAD) {
			bswap_at(p, off + 16, 4);
			bswap_at(p, off + 20, 4);
			for (int i = 0; i < 4; i++)
				bswap_at(p, off + 24 + (size_t)i * 8, 8);
		} else if (id == PERFAN__JIT_CODE_UNWINDING_INFO) {
			for (int i = 0; i < 3; i++)
				bswap_at(p, off + 16 + (size_t)i * 8, 8);
		}
		off += size;
	}
	return p;
}

START_TEST(test_jitdump_swapped)
{
	size_t len;
	char *buf = slurp(tu_testdata(DUMP), &len);
	ck_assert_ptr_nonnull(buf);
	uint8_t *sw = swapped_copy((const uint8_t *)buf, len);
	struct perfan__jitdump *a, *b;
	ck_assert_int_eq(perfan__jitdump_parse(&a, buf, len, "native"), 0);
	ck_assert_int_eq(perfan__jitdump_parse(&b, sw, len, "swapped"), 0);
	ck_assert_int_eq(a->swapped, 0);
	ck_assert_int_eq(b->swapped, 1);
	ck_assert_uint_eq(b->pid, 7339);
	ck_assert_uint_eq(b->version, 1);
	ck_assert_uint_eq(b->timestamp, a->timestamp);
	ck_assert_uint_eq(b->loads, a->loads);
	ck_assert_uint_eq(b->unwinding_info, a->unwinding_info);
	ck_assert_uint_eq(b->code.n, a->code.n);
	for (size_t i = 0; i < a->code.n; i++) {
		ck_assert_uint_eq(b->code.v[i].start, a->code.v[i].start);
		ck_assert_uint_eq(b->code.v[i].end, a->code.v[i].end);
		ck_assert_uint_eq(b->code.v[i].time, a->code.v[i].time);
		ck_assert_str_eq(b->code.v[i].name, a->code.v[i].name);
	}
	perfan__jitdump_free(a);
	perfan__jitdump_free(b);
	/* and every prefix of it */
	for (size_t n = 0; n <= len; n += 7) {
		ck_assert_int_eq(perfan__jitdump_parse(&b, sw, n, "swapped"),
				 0);
		perfan__jitdump_free(b);
	}
	free(sw);
	free(buf);
}
END_TEST

/* Damaged dumps: read up to the damage, or refused when not a jitdump. */
START_TEST(test_jitdump_damaged)
{
	size_t len;
	char *buf = slurp(tu_testdata(DUMP), &len);
	ck_assert_ptr_nonnull(buf);
	struct perfan__jitdump *jd;

	ck_assert_int_eq(perfan__jitdump_parse(&jd, NULL, 0, "empty"), 0);
	ck_assert_uint_eq(jd->loads, 0);
	ck_assert_int_eq(jd->truncated, 1);
	ck_assert_ptr_null(perfan__jitdump_find(jd, 0, UINT64_MAX));
	perfan__jitdump_free(jd);
	ck_assert_int_eq(perfan__jitdump_parse(&jd, "JUNK", 4, "bad"),
			 PERFAN_EFORMAT);
	ck_assert_ptr_null(jd);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "bad"));
	ck_assert_int_eq(perfan__jitdump_parse(&jd, "D", 1, "one byte"), 0);
	perfan__jitdump_free(jd);
	ck_assert_int_eq(perfan__jitdump_parse(&jd, "x", 1, "one byte"),
			 PERFAN_EFORMAT);

	char *c = malloc(len);
	/* a version from the future */
	memcpy(c, buf, len);
	c[4] = 2;
	ck_assert_int_eq(perfan__jitdump_parse(&jd, c, len, "v2"),
			 PERFAN_EUNSUPPORTED);
	/* a header that claims more than the file: nothing to read */
	memcpy(c, buf, len);
	uint32_t big = (uint32_t)len + 1;
	memcpy(c + 8, &big, 4);
	ck_assert_int_eq(perfan__jitdump_parse(&jd, c, len, "hdr"), 0);
	ck_assert_uint_eq(jd->loads, 0);
	ck_assert_int_eq(jd->truncated, 1);
	perfan__jitdump_free(jd);

	/* walk to the 11th record and damage it in different ways */
	size_t off = 40;
	for (int i = 0; i < 10; i++) {
		uint32_t size;
		memcpy(&size, buf + off + 4, 4);
		off += size;
	}
	struct perfan__jitdump *whole;
	ck_assert_int_eq(perfan__jitdump_parse(&whole, buf, off, "ten"), 0);
	uint32_t sizes[] = {0, 15, 0xffffffffu};
	for (size_t k = 0; k < 3; k++) {
		memcpy(c, buf, len);
		memcpy(c + off + 4, &sizes[k], 4);
		ck_assert_int_eq(perfan__jitdump_parse(&jd, c, len, "damaged"),
				 0);
		ck_assert_uint_eq(jd->loads, whole->loads);
		ck_assert_uint_eq(jd->whole, off);
		if (sizes[k] < 16)
			ck_assert_ptr_nonnull(jd->corrupt);
		else
			ck_assert_int_eq(jd->truncated, 1);
		perfan__jitdump_free(jd);
	}
	/* unwinding info whose sizes do not fit: skipped, not trusted */
	uint32_t id;
	memcpy(&id, buf + off, 4);
	size_t uoff = id == PERFAN__JIT_CODE_UNWINDING_INFO ? off : 40;
	memcpy(&id, buf + uoff, 4);
	ck_assert_uint_eq(id, PERFAN__JIT_CODE_UNWINDING_INFO);
	memcpy(c, buf, len);
	uint64_t huge = 1ull << 40;
	memcpy(c + uoff + 16, &huge, 8);
	ck_assert_int_eq(perfan__jitdump_parse(&jd, c, len, "unwind"), 0);
	ck_assert_uint_eq(jd->bad_unwind, 1);
	ck_assert_uint_eq(jd->loads, 212);
	perfan__jitdump_free(jd);
	/* an unknown record type is skipped, as perf skips it */
	memcpy(c, buf, len);
	uint32_t unknown = 77;
	memcpy(c + off, &unknown, 4);
	ck_assert_int_eq(perfan__jitdump_parse(&jd, c, len, "unknown"), 0);
	ck_assert_uint_eq(jd->unknown, 1);
	ck_assert_uint_ge(jd->loads, 211);
	perfan__jitdump_free(jd);

	perfan__jitdump_free(whole);
	free(c);
	free(buf);
	ck_assert_int_eq(perfan__jitdump_open(&jd, "/nonexistent/jit-1.dump"),
			 PERFAN_ENOTFOUND);
}
END_TEST

/* Random damage (bytes and whole fields, anywhere): never a crash or a
 * read past the buffer (run under ASan), and never more than was loaded
 * whole. */
START_TEST(test_jitdump_mutations)
{
	size_t len;
	char *buf = slurp(tu_testdata(DUMP), &len);
	ck_assert_ptr_nonnull(buf);
	uint64_t seed = 12345;
	for (int round = 0; round < 2000; round++) {
		size_t n = round % 3 ? len : 40 + rnd(&seed) % (len - 40);
		uint8_t *c = malloc(n);
		memcpy(c, buf, n);
		int edits = 1 + (int)(rnd(&seed) % 4);
		for (int e = 0; e < edits; e++) {
			size_t at = 4 + rnd(&seed) % (n - 8);
			uint32_t v = (uint32_t)rnd(&seed);
			if (rnd(&seed) % 2)
				c[at] = (uint8_t)v;
			else
				memcpy(c + at, &v, 4);
		}
		struct perfan__jitdump *jd;
		int err = perfan__jitdump_parse(&jd, c, n, "mutated");
		if (!err) {
			ck_assert_uint_le(jd->whole, n);
			for (size_t i = 0; i < jd->code.n; i++) {
				const struct perfan__jitsym *s = &jd->code.v[i];
				ck_assert_ptr_nonnull(perfan__jitdump_find(
					jd, s->start, UINT64_MAX));
				perfan__jitdump_unwind(jd, s->start, UINT64_MAX,
						       NULL, NULL, NULL, NULL,
						       NULL, NULL, NULL);
			}
			perfan__jitdump_free(jd);
		} else {
			ck_assert_ptr_null(jd);
		}
		free(c);
	}
	free(buf);

	/* and perf maps of random bytes and random tokens */
	static const char *tok[] = {"0x",   "ffff", " ",       "\t",   "\n",
				    "\r\n", "12",   "py::x:y", "\n\n", "0"};
	for (int round = 0; round < 500; round++) {
		char text[2048];
		size_t k = 0;
		while (k < sizeof(text) - 16) {
			if (rnd(&seed) % 4 == 0) {
				text[k++] = (char)rnd(&seed);
			} else {
				const char *t = tok[rnd(&seed) % 10];
				memcpy(text + k, t, strlen(t));
				k += strlen(t);
			}
		}
		struct perfan__jitmap m = {0};
		struct perfan__perfmap_stats st;
		ck_assert_int_eq(perfan__perfmap_parse(&m, text, k, &st), 0);
		ck_assert_int_eq(perfan__jitmap_index(&m), 0);
		ck_assert_uint_eq(st.symbols, m.n);
		for (size_t i = 0; i < m.n; i++)
			ck_assert_ptr_nonnull(
				perfan__jitmap_find(&m, m.v[i].start, 0));
		perfan__jitmap_free(&m);
	}
}
END_TEST

/* ---- per process: jitdump by MMAP, fork fallback ---------------------------- */

START_TEST(test_jit_processes)
{
	char dir[] = "/tmp/perfan-check-perfmap-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[256];
	tu_fmt(path, sizeof(path), "%s/perf-100.map", dir);
	spit(path, "1000 100 parent_a\n2000 100 parent_b\n", 36);
	tu_fmt(path, sizeof(path), "%s/perf-101.map", dir);
	spit(path, "1000 100 child_a\nbroken\n", 24);

	struct perfan__symctx ctx;
	memset(&ctx, 0, sizeof(ctx));
	ctx.o.perf_map_dir = dir;
	ctx.o.jitdump_dir = td("py313-perfjit");
	ctx.o.log = capture;
	logbuf[0] = '\0';
	struct perfan__threads *ts = &ctx.threads;
	ck_assert_int_eq(perfan__threads_comm(ts, 100, 100, "py", 0), 0);
	ck_assert_int_eq(perfan__threads_fork(ts, 101, 100, 101, 100), 0);
	ck_assert_int_eq(perfan__threads_fork(ts, 102, 101, 102, 101), 0);
	const struct perfan__proc *parent =
		perfan__thread_findnew(ts, 100, 100)->proc;
	const struct perfan__proc *child =
		perfan__thread_findnew(ts, 101, 101)->proc;
	const struct perfan__proc *grandchild =
		perfan__thread_findnew(ts, 102, 102)->proc;
	ck_assert_int_eq(child->ppid, 100);

	struct perfan__jitmap *from;
	const struct perfan__jitsym *s;
	s = perfan__jit_find(&ctx, child, 100, 0x1010, 0, &from);
	ck_assert_str_eq(s->name, "child_a");
	ck_assert_str_eq(from->module, "perf-101.map");
	s = perfan__jit_find(&ctx, child, 100, 0x2010, 0, &from);
	ck_assert_str_eq(s->name, "parent_b"); /* the parent's */
	ck_assert_str_eq(from->module, "perf-100.map");
	s = perfan__jit_find(&ctx, parent, 100, 0x1010, 0, NULL);
	ck_assert_str_eq(s->name, "parent_a");
	/* a grandchild without a map of its own */
	s = perfan__jit_find(&ctx, grandchild, 100, 0x1010, 0, NULL);
	ck_assert_str_eq(s->name, "child_a");
	s = perfan__jit_find(&ctx, grandchild, 100, 0x2010, 0, NULL);
	ck_assert_str_eq(s->name, "parent_b");
	ck_assert_ptr_null(perfan__jit_find(&ctx, child, 100, 0x3000, 0, NULL));
	ck_assert_ptr_nonnull(strstr(logbuf, "perf-101.map: 1 malformed line "
					     "skipped (the first is line 2)"));
	ck_assert_ptr_nonnull(strstr(logbuf, "perf-102.map: not found"));

	/* after exec the parent's code is gone */
	ck_assert_int_eq(perfan__threads_comm(ts, 101, 101, "sh", 1), 0);
	ck_assert_ptr_null(perfan__jit_find(&ctx, child, 101, 0x2010, 0, NULL));

	/* a jitdump the process mapped, found in jitdump_dir by its name;
	 * not one named after another process */
	ck_assert_int_eq(perfan__jit_mmap(&ctx, 7339, "/gone/jit-7339.dump"),
			 0);
	ck_assert_int_eq(perfan__jit_mmap(&ctx, 555, "/tmp/jit-556.dump"), 0);
	struct perfan__jitdump *jd;
	ck_assert_int_eq(perfan__jitdump_open(&jd, tu_testdata(DUMP)), 0);
	const struct perfan__jitsym *want = &jd->code.v[100];
	ck_assert_int_eq(perfan__threads_comm(ts, 7339, 7339, "python3", 0), 0);
	const struct perfan__proc *py =
		perfan__thread_findnew(ts, 7339, 7339)->proc;
	s = perfan__jit_find(&ctx, py, 7339, want->start + 1, UINT64_MAX,
			     &from);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s->name, want->name);
	ck_assert_str_eq(from->module, "jit-7339.dump");
	uint64_t base, cs;
	ck_assert_int_eq(perfan__jit_unwind(&ctx, py, 7339, want->start + 1,
					    UINT64_MAX, NULL, NULL, &base, &cs,
					    NULL),
			 0);
	ck_assert_uint_eq(cs, want->start);
	ck_assert_uint_eq(base, want->start + 16);
	const struct perfan__proc *other =
		perfan__thread_findnew(ts, 555, 555)->proc;
	ck_assert_ptr_null(perfan__jit_find(&ctx, other, 555, want->start + 1,
					    UINT64_MAX, NULL));
	perfan__jitdump_free(jd);

	perfan__jit_free(&ctx);
	perfan__threads_free(ts);
	rm_rf(dir);
}
END_TEST

/* ---- whole resolves against perf ------------------------------------------- */

/* Where the recordings' libpython can be read: testdata/py-handler has
 * copies with the same build-ids (found by base name under --symfs);
 * else this machine's pyenv. *SYMFS NULL: the recorded paths. 0: none. */
static int find_libpython(const char *base, const char *system,
			  const char **symfs)
{
	char rel[256];
	tu_fmt(rel, sizeof(rel), "py-handler/%s", base);
	if (!access(tu_testdata(rel), R_OK)) {
		*symfs = td("py-handler");
		return 1;
	}
	*symfs = NULL;
	return !access(system, R_OK);
}

static perfan_profile *new_kept(void)
{
	struct perfan_profile_opts po =
		PERFAN_OPTS_INIT(struct perfan_profile_opts);
	po.keep_samples = 1;
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, &po), 0);
	return p;
}

struct resolve_args {
	const char *data, *symfs, *perf_map_dir, *jitdump_dir, *buildid_dir;
};

static perfan_profile *resolve(const struct resolve_args *a,
			       struct perfan_resolve_stats *st)
{
	perfan_profile *p = new_kept();
	perfan_perfdata *pd;
	ck_assert_int_eq(perfan_perfdata_open(&pd, tu_testdata(a->data), NULL),
			 0);
	struct perfan_resolve_opts o = PERFAN_RESOLVE_OPTS_INIT;
	o.host = tu_host();
	o.symfs = a->symfs;
	o.perf_map_dir = a->perf_map_dir;
	o.jitdump_dir = a->jitdump_dir;
	o.buildid_dir = a->buildid_dir;
	o.kallsyms = tu_testdata("kallsyms");
	/* no inlined frames: testdata's libpython copies have no DWARF
	 * (they are left out of perf's stacks for the comparison) */
	o.inline_frames = 0;
	o.weight = PERFAN_WEIGHT_SAMPLES;
	o.log = capture;
	ck_assert_int_eq(perfan_resolve_perfdata(p, pd, &o, st), 0);
	perfan_perfdata_free(pd);
	return p;
}

static perfan_profile *script(const char *rel)
{
	perfan_profile *p = new_kept();
	struct perfan_script_opts so =
		PERFAN_OPTS_INIT(struct perfan_script_opts);
	so.count_samples = 1;
	ck_assert_int_eq(
		perfan_script_read_path(p, tu_testdata(rel), &so, NULL), 0);
	return p;
}

/* Sample I's frames, leaf first, without the process root and the
 * inlined frames perf script shows. */
static size_t frames_of(const perfan_profile *p, size_t i,
			const struct perfan_frame **out, size_t max)
{
	perfan_node_id n = perfan_profile_sample_get(p, i)->leaf;
	size_t k = 0;
	for (; n != PERFAN_ROOT_NODE && k < max;
	     n = perfan_profile_node_parent(p, n)) {
		const struct perfan_frame *f = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, n));
		if (f->kind != PERFAN_FRAME_PROCESS &&
		    f->kind != PERFAN_FRAME_INLINED)
			out[k++] = f;
	}
	return k;
}

static int jit_module(const char *m)
{
	return !strncmp(m, "perf-", 5) || !strncmp(m, "jit-", 4) ||
	       !strncmp(m, "jitted-", 7);
}

/* Whether this run can resolve perf's frames of module M: every module
 * when reading the recorded paths, else those under SYMFS, the kernel's
 * and JIT code. */
static int local_module(const char *symfs, const char *m)
{
	if (!symfs)
		return 1;
	if (!m || !strcmp(m, "[kernel.kallsyms]") || !strcmp(m, "[unknown]") ||
	    jit_module(m))
		return 1;
	if (m[0] == '[')
		return 0; /* [vdso] and the like */
	char path[4200];
	tu_fmt(path, sizeof(path), "%s/%s", symfs, m);
	return !access(path, R_OK);
}

struct agreement {
	unsigned samples, with_py, compared, same_py, same_prefix;
};

static int quiet; /* no line per sample that differs */

static size_t first_py(const struct perfan_frame **f, size_t n)
{
	size_t k = 0;
	while (k < n && strncmp(f[k]->name, "py::", 4))
		k++;
	return k;
}

/* Consecutive frames of one name as one: perf script repeats a function
 * whose inlined callees it shows, which perfan (without inlined frames
 * here) does not. */
static size_t dedup(const struct perfan_frame **f, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!k || strcmp(f[k - 1]->name, f[i]->name))
			f[k++] = f[i];
	return k;
}

/* For each sample whose perf stack has a py:: frame: perfan's innermost
 * py:: frame is the same, as a Python frame (same_py), and the frames
 * from the leaf to it are the same (same_prefix; perf marks some frames
 * "(inlined)" that are not, and names aliases differently, so this one is
 * only reported). Samples where a frame below it is in a library this run
 * cannot read (in perf's stack or perfan's) are not compared. */
static struct agreement agree(const perfan_profile *mine,
			      const perfan_profile *perf, const char *symfs)
{
	struct agreement a = {0};
	size_t n = perfan_profile_nr_samples(perf);
	ck_assert_uint_eq(perfan_profile_nr_samples(mine), n);
	a.samples = (unsigned)n;
	enum { MAX = 1024 };
	const struct perfan_frame **fp = malloc(MAX * sizeof(*fp));
	const struct perfan_frame **fm = malloc(MAX * sizeof(*fm));
	for (size_t i = 0; i < n; i++) {
		/* the same sample: perf script prints microseconds */
		uint64_t tp = perfan_profile_sample_get(perf, i)->meta.time;
		uint64_t tm = perfan_profile_sample_get(mine, i)->meta.time;
		ck_assert_uint_eq(tp / 1000, tm / 1000);
		size_t np = dedup(fp, frames_of(perf, i, fp, MAX));
		size_t nm = dedup(fm, frames_of(mine, i, fm, MAX));
		size_t k = first_py(fp, np), km = first_py(fm, nm);
		if (k == np)
			continue;
		a.with_py++;
		int foreign = 0;
		for (size_t j = 0; j < k; j++)
			foreign |= !local_module(symfs, fp[j]->module);
		for (size_t j = 0; j < km; j++)
			foreign |= !local_module(symfs, fm[j]->module);
		if (foreign)
			continue;
		a.compared++;
		if (km < nm && !strcmp(fm[km]->name, fp[k]->name) &&
		    fm[km]->kind == PERFAN_FRAME_PYTHON) {
			a.same_py++;
		} else if (!quiet) {
			printf("  sample %zu (%llu ns): perf has %s, perfan "
			       "%s\n",
			       i, (unsigned long long)tp, fp[k]->name,
			       km < nm ? fm[km]->name : "no py:: frame");
			if (getenv("PERFAN_DEBUG_AGREE"))
				for (size_t j = 0; j <= k || j < nm; j++)
					printf("    %-50s %s\n",
					       j <= k ? fp[j]->name : "",
					       j < nm ? fm[j]->name : "");
		}
		size_t j = 0;
		while (j <= k && j < nm && !strcmp(fm[j]->name, fp[j]->name))
			j++;
		a.same_prefix += j > k;
	}
	free(fp);
	free(fm);
	return a;
}

static void report(const char *what, const struct agreement *a)
{
	printf("%s: %u samples, %u with a py:: frame in perf's stack, %u "
	       "compared: same py:: frame %u (%.1f %%), same frames from the "
	       "leaf to it %u (%.1f %%)\n",
	       what, a->samples, a->with_py, a->compared, a->same_py,
	       a->compared ? 100.0 * a->same_py / a->compared : 0.0,
	       a->same_prefix,
	       a->compared ? 100.0 * a->same_prefix / a->compared : 0.0);
	fflush(stdout);
}

/* testdata/py312-perf: perf resolved the -X perf trampolines with the map
 * in /tmp at the time; perfan with --perf-map-dir. */
START_TEST(test_resolve_perf_map)
{
	const char *symfs;
	if (!find_libpython("libpython3.12.so.1.0",
			    "/root/.pyenv/versions/3.12.1/lib/"
			    "libpython3.12.so.1.0",
			    &symfs))
		TU_SKIP("no libpython3.12 with the recorded build-id");
	char empty[] = "/tmp/perfan-check-perfmap-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(empty));
	struct resolve_args ra = {"py312-perf/perf.dwarf.data", symfs,
				  td("py312-perf"), NULL, empty};
	logbuf[0] = '\0';
	perfan_profile *mine = resolve(&ra, NULL);
	perfan_profile *perf = script("py312-perf/script.dwarf.txt");
	struct agreement a = agree(mine, perf, symfs);
	report("py312-perf/perf.dwarf.data", &a);
	ck_assert_uint_ge(a.with_py, 59);
	ck_assert_uint_ge(a.compared, a.with_py * 3 / 4);
	ck_assert_uint_ge(a.same_py * 100, a.compared * 99);
	perfan_profile_free(mine);

	/* the same map with garbage in it: a warning, the same frames */
	char dir[] = "/tmp/perfan-check-perfmap-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	size_t len;
	char *map = slurp(tu_testdata("py312-perf/perf-7305.map"), &len);
	ck_assert_ptr_nonnull(map);
	static const char junk[] = "\nnot a line\n0x 5 x\n\xff\xfe\n";
	char *dirty = malloc(len + sizeof(junk));
	memcpy(dirty, junk, sizeof(junk) - 1);
	memcpy(dirty + sizeof(junk) - 1, map, len);
	char path[256];
	tu_fmt(path, sizeof(path), "%s/perf-7305.map", dir);
	spit(path, dirty, len + sizeof(junk) - 1);
	ra.perf_map_dir = dir;
	logbuf[0] = '\0';
	mine = resolve(&ra, NULL);
	ck_assert_ptr_nonnull(strstr(logbuf, "perf-7305.map: 3 malformed "
					     "lines skipped (the first is "
					     "line 2)"));
	struct agreement b = agree(mine, perf, symfs);
	ck_assert_uint_eq(b.same_py, a.same_py);
	ck_assert_uint_eq(b.same_prefix, a.same_prefix);
	perfan_profile_free(mine);

	/* no map: the trampolines stay unnamed JIT code */
	tu_fmt(path, sizeof(path), "%s/perf-7305.map", dir);
	unlink(path);
	mine = resolve(&ra, NULL);
	quiet = 1;
	struct agreement c = agree(mine, perf, symfs);
	quiet = 0;
	ck_assert_uint_eq(c.same_py, 0);
	size_t nf = perfan_profile_nr_frames(mine);
	for (size_t i = 0; i < nf; i++) {
		const struct perfan_frame *f =
			perfan_profile_frame_get(mine, (perfan_frame_id)i);
		ck_assert_uint_ne(f->kind, PERFAN_FRAME_PYTHON);
	}
	perfan_profile_free(mine);

	free(map);
	free(dirty);
	perfan_profile_free(perf);
	rm_rf(dir);
	rm_rf(empty);
}
END_TEST

/* The -g recording never reaches the trampolines (libpython has no frame
 * pointers), so the map changes nothing there. */
START_TEST(test_resolve_perf_map_fp)
{
	char empty[] = "/tmp/perfan-check-perfmap-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(empty));
	struct resolve_args ra = {"py312-perf/perf.data", td("py312-perf"),
				  td("py312-perf"), NULL, empty};
	struct perfan_resolve_stats st;
	perfan_profile *with = resolve(&ra, &st);
	ra.perf_map_dir = empty;
	perfan_profile *without = resolve(&ra, NULL);
	ck_assert_uint_eq(perfan_profile_nr_nodes(with),
			  perfan_profile_nr_nodes(without));
	ck_assert_uint_eq(st.samples, 789);
	perfan_profile_free(with);
	perfan_profile_free(without);
	rm_rf(empty);
}
END_TEST

/* A cache like perf's ~/.debug holding the jitted-PID-N.so files of
 * perf inject, so that perf.jit.data finds them by build-id. */
static void jitted_cache(const char *dir)
{
	char jdir[4096];
	tu_fmt(jdir, sizeof(jdir), "%s", tu_testdata("py313-perfjit/jitted"));
	DIR *d = opendir(jdir);
	ck_assert_ptr_nonnull(d);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char file[4400], link[4400], hex[41];
		tu_fmt(file, sizeof(file), "%s/%s", jdir, e->d_name);
		struct perfan__elf *elf;
		ck_assert_int_eq(perfan__elf_open(&elf, file), 0);
		perfan__buildid_hex(elf->build_id, elf->build_id_size, hex);
		tu_fmt(link, sizeof(link), "%s/.build-id", dir);
		mkdir(link, 0755);
		tu_fmt(link, sizeof(link), "%s/.build-id/%.2s", dir, hex);
		mkdir(link, 0755);
		tu_fmt(link, sizeof(link), "%s/.build-id/%.2s/%s", dir, hex,
		       hex + 2);
		mkdir(link, 0755);
		tu_fmt(link, sizeof(link), "%s/.build-id/%.2s/%s/elf", dir, hex,
		       hex + 2);
		ck_assert_int_eq(symlink(file, link), 0);
		perfan__elf_close(elf);
	}
	closedir(d);
}

/* testdata/py313-perfjit: the jitdump read directly names the same
 * frames as perf after perf inject --jit; and perf.jit.data itself. */
START_TEST(test_resolve_jitdump)
{
	const char *symfs;
	if (!find_libpython("libpython3.13.so.1.0",
			    "/root/.pyenv/versions/3.13.0/lib/"
			    "libpython3.13.so.1.0",
			    &symfs))
		TU_SKIP("no libpython3.13 with the recorded build-id");
	char empty[] = "/tmp/perfan-check-perfmap-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(empty));
	struct resolve_args ra = {"py313-perfjit/perf.data", symfs, empty,
				  td("py313-perfjit"), empty};
	logbuf[0] = '\0';
	perfan_profile *mine = resolve(&ra, NULL);
	perfan_profile *perf = script("py313-perfjit/script.jit.txt");
	struct agreement a = agree(mine, perf, symfs);
	report("py313-perfjit/perf.data + jit-7339.dump", &a);
	ck_assert_uint_ge(a.with_py, 61);
	ck_assert_uint_ge(a.compared, a.with_py * 3 / 4);
	ck_assert_uint_ge(a.same_py * 100, a.compared * 99);
	/* the frames name the dump as their module */
	size_t nf = perfan_profile_nr_frames(mine), py = 0;
	for (size_t i = 0; i < nf; i++) {
		const struct perfan_frame *f =
			perfan_profile_frame_get(mine, (perfan_frame_id)i);
		if (f->kind == PERFAN_FRAME_PYTHON) {
			ck_assert_str_eq(f->module, "jit-7339.dump");
			py++;
		}
	}
	ck_assert_uint_gt(py, 5);

	/* perf inject's output, through the ELF path */
	char cache[] = "/tmp/perfan-check-perfmap-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(cache));
	jitted_cache(cache);
	struct resolve_args rj = {"py313-perfjit/perf.jit.data", symfs, empty,
				  NULL, cache};
	perfan_profile *inj = resolve(&rj, NULL);
	struct agreement b = agree(inj, perf, symfs);
	report("py313-perfjit/perf.jit.data", &b);
	ck_assert_uint_ge(b.same_py * 100, b.compared * 99);
	ck_assert_uint_eq(b.compared, a.compared);
	ck_assert_uint_eq(b.same_prefix, a.same_prefix);

	perfan_profile_free(inj);
	perfan_profile_free(mine);
	perfan_profile_free(perf);
	rm_rf(cache);
	rm_rf(empty);
}
END_TEST

static Suite *perfmap_suite(void)
{
	Suite *s = suite_create("perfmap");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_perfmap_lines);
	tcase_add_test(tc, test_perfmap_file);
	tcase_add_test(tc, test_jitmap_time);
	tcase_add_test(tc, test_jitmap_brute);
	tcase_add_test(tc, test_jitdump_real);
	tcase_add_test(tc, test_jitdump_prefixes);
	tcase_add_test(tc, test_jitdump_swapped);
	tcase_add_test(tc, test_jitdump_damaged);
	tcase_add_test(tc, test_jitdump_mutations);
	tcase_add_test(tc, test_jit_processes);
	tcase_add_test(tc, test_resolve_perf_map);
	tcase_add_test(tc, test_resolve_perf_map_fp);
	tcase_add_test(tc, test_resolve_jitdump);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(perfmap_suite)
