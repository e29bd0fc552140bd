/* check_diffread.c: reading two profiles as one with two columns, for
 * differential flame graphs: perfan_profile_merge (frames matched by
 * content), and perfan_folded_read_pair against reading each file into its
 * column alone (the same trie, the same layouts; with pruning, what is
 * wide on either side kept), unsorted pairs and errors naming the file. */
#define _GNU_SOURCE
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ---- helpers ----------------------------------------------------------------- */

static perfan_profile *new_profile(void)
{
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	return p;
}

static FILE *text_stream(const char *text)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	ck_assert_ptr_nonnull(fp);
	return fp;
}

/* Read TEXT into column COLUMN of P. */
static int read_into(perfan_profile *p, const char *text, const char *name,
		     const char *column, double prune)
{
	struct perfan_folded_read_opts o =
		PERFAN_OPTS_INIT(struct perfan_folded_read_opts);
	o.prune = prune;
	FILE *fp = text_stream(text);
	int rc = perfan_folded_read(p, fp, name, column, &o);
	fclose(fp);
	return rc;
}

/* BEFORE and AFTER read as a pair into a new profile ("after" column 0,
 * "before" 1); *RC gets the result, or it must be 0. */
static perfan_profile *pair(const char *before, const char *after, double prune,
			    int *rc)
{
	perfan_profile *p = new_profile();
	struct perfan_folded_read_opts o =
		PERFAN_OPTS_INIT(struct perfan_folded_read_opts);
	o.prune = prune;
	FILE *b = text_stream(before), *a = text_stream(after);
	int r = perfan_folded_read_pair(p, b, "before.folded", a,
					"after.folded", "before", "after", &o);
	fclose(a);
	fclose(b);
	if (rc)
		*rc = r;
	else
		ck_assert_msg(r == 0, "%s", perfan_error_last());
	ck_assert_str_eq(perfan_profile_column_name(p, 0), "after");
	ck_assert_str_eq(perfan_profile_column_name(p, 1), "before");
	return p;
}

/* Each file read whole into its own column of one profile. */
static perfan_profile *separate(const char *before, const char *after)
{
	perfan_profile *p = new_profile();
	ck_assert_int_eq(perfan_profile_add_column(p, "after", "samples"), 0);
	ck_assert_int_eq(perfan_profile_add_column(p, "before", "samples"), 1);
	ck_assert_int_eq(read_into(p, after, "a", "after", 0), 0);
	ck_assert_int_eq(read_into(p, before, "b", "before", 0), 0);
	return p;
}

/* Each file read into a profile of its own, then both merged into one. */
static perfan_profile *merged(const char *before, const char *after)
{
	perfan_profile *a = new_profile(), *b = new_profile();
	ck_assert_int_eq(read_into(a, after, "a", NULL, 0), 0);
	ck_assert_int_eq(read_into(b, before, "b", NULL, 0), 0);
	perfan_profile *p = new_profile();
	ck_assert_int_eq(perfan_profile_add_column(p, "after", "samples"), 0);
	ck_assert_int_eq(perfan_profile_add_column(p, "before", "samples"), 1);
	ck_assert_msg(perfan_profile_merge(p, 0, a, 0) == 0, "%s",
		      perfan_error_last());
	ck_assert_msg(perfan_profile_merge(p, 1, b, 0) == 0, "%s",
		      perfan_error_last());
	perfan_profile_free(a);
	perfan_profile_free(b);
	return p;
}

/* One frame as text: its name, and what else tells frames apart. */
static void put_frame(FILE *fp, const struct perfan_frame *f)
{
	fprintf(fp, "%s", f->name);
	if (f->module || f->file || f->line || f->kind)
		fprintf(fp, "{%s,%s,%u,%u}", f->module ? f->module : "",
			f->file ? f->file : "", f->line, f->kind);
}

static void dump_node(FILE *fp, const perfan_profile *p, perfan_node_id n,
		      char **path, size_t *plen)
{
	size_t ncols = perfan_profile_nr_columns(p), keep = *plen;
	int any = 0;
	for (size_t c = 0; c < ncols; c++)
		any |= perfan_profile_node_total(p, n, c) != 0;
	if (!any)
		return;
	if (n != PERFAN_ROOT_NODE) {
		char *frame = NULL;
		size_t flen = 0;
		FILE *f = open_memstream(&frame, &flen);
		put_frame(f, perfan_profile_frame_get(
				     p, perfan_profile_node_frame(p, n)));
		fclose(f);
		*path = realloc(*path, *plen + flen + 2);
		if (*plen)
			(*path)[(*plen)++] = ';';
		memcpy(*path + *plen, frame, flen + 1);
		*plen += flen;
		free(frame);
	}
	fprintf(fp, "%s", *plen ? *path : "(root)");
	for (size_t c = 0; c < ncols; c++)
		fprintf(fp, " %llu/%llu",
			(unsigned long long)perfan_profile_node_self(p, n, c),
			(unsigned long long)perfan_profile_node_total(p, n, c));
	fputc('\n', fp);
	const perfan_node_id *kids;
	size_t nk = perfan_profile_node_children(p, n, &kids);
	perfan_node_id *copy = malloc((nk ? nk : 1) * sizeof(*copy));
	memcpy(copy, kids, nk * sizeof(*copy));
	for (size_t i = 0; i < nk; i++)
		dump_node(fp, p, copy[i], path, plen);
	free(copy);
	*plen = keep;
	if (*path)
		(*path)[keep] = '\0';
}

/* Every node with weight, as "path self/total ..." in each column, in
 * name order: equal for profiles that hold the same stacks. */
static char *dump(const perfan_profile *p)
{
	char *buf = NULL, *path = NULL;
	size_t len = 0, plen = 0;
	FILE *fp = open_memstream(&buf, &len);
	dump_node(fp, p, PERFAN_ROOT_NODE, &path, &plen);
	fclose(fp);
	free(path);
	return buf;
}

/* The differential layout as text, one frame per line. */
static char *layout_text(const perfan_profile *p, double minwidth)
{
	struct perfan_flamegraph_opts o = PERFAN_FG_OPTS_INIT;
	o.column = 0;
	o.base_column = 1;
	o.minwidth = minwidth;
	perfan_fg_layout *l;
	ck_assert_msg(perfan_fg_layout_new(&l, p, &o) == 0, "%s",
		      perfan_error_last());
	const perfan_profile *lp = perfan_fg_layout_profile(l);
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	for (size_t i = 0; i < perfan_fg_layout_nr_frames(l); i++) {
		const struct perfan_fg_frame *f = perfan_fg_layout_frame(l, i);
		const char *name =
			f->frame == PERFAN_FG_ALL ? "all"
			: f->frame == PERFAN_FG_OTHER
				? "(other)"
				: perfan_profile_frame_get(lp, f->frame)->name;
		fprintf(fp, "%u %s %llu+%llu %llu+%llu self %llu/%llu\n",
			f->depth, name, (unsigned long long)f->offset,
			(unsigned long long)f->width,
			(unsigned long long)f->base_offset,
			(unsigned long long)f->base_width,
			(unsigned long long)f->self,
			(unsigned long long)f->base_self);
	}
	fclose(fp);
	perfan_fg_layout_free(l);
	return buf;
}

static void expect_same(const char *what, char *a, char *b)
{
	if (strcmp(a, b)) {
		/* the first line that differs, not the whole text */
		size_t i = 0, s = 0;
		while (a[i] && a[i] == b[i])
			if (a[i++] == '\n')
				s = i;
		ck_abort_msg("%s differs at:\n%.200s\nand:\n%.200s", what,
			     a + s, b + s);
	}
	free(a);
	free(b);
}

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
	return *x;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines LINES[0..N) sorted as `LC_ALL=C sort` sorts them (or not),
 * as one text; frees them. */
static char *join(char **lines, size_t n, int sorted)
{
	if (sorted)
		qsort(lines, n, sizeof(*lines), cmp_line);
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	for (size_t i = 0; i < n; i++) {
		fprintf(fp, "%s\n", lines[i]);
		free(lines[i]);
	}
	fclose(fp);
	free(lines);
	return text;
}

/* A before and an after file of N made-up stacks over a small call graph
 * (check_flamegraph.c's names): a quarter of the stacks only before, a
 * quarter only after, the rest in both with other counts, a few written
 * twice in one file, now and then one far heavier on one side only. */
static void made_up_pair(size_t n, uint64_t seed, int sorted, char **before,
			 char **after)
{
	static const char *const names[] = {"main",  "parse", "eval", "alloc",
					    "free",  "hash",  "b",    "b-x",
					    "write", "read"};
	char **bl = calloc(2 * n, sizeof(*bl)),
	     **al = calloc(2 * n, sizeof(*al));
	size_t nb = 0, na = 0;
	uint64_t x = seed;
	for (size_t i = 0; i < n; i++) {
		char st[512];
		size_t len = 0;
		int depth = 1 + (int)(rnd(&x) % 9);
		for (int d = 0; d < depth; d++)
			len += (size_t)snprintf(st + len, sizeof(st) - len,
						"%s%s", d ? ";" : "",
						names[rnd(&x) % 10]);
		unsigned where =
			(unsigned)(rnd(&x) % 4); /* 0 before, 1 after */
		for (int side = 0; side < 2; side++) {
			if (where == (unsigned)!side)
				continue;
			int times = rnd(&x) % 50 == 0 ? 2 : 1;
			for (int t = 0; t < times; t++) {
				uint64_t c = 1 + rnd(&x) % 7;
				if (rnd(&x) % 700 == 0)
					c = 5000;
				char *line;
				ck_assert_int_gt(
					asprintf(&line, "%s %llu", st,
						 (unsigned long long)c),
					0);
				if (side)
					al[na++] = line;
				else
					bl[nb++] = line;
			}
		}
	}
	*before = join(bl, nb, sorted);
	*after = join(al, na, sorted);
}

/* dump and layout_text of separate(BEFORE, AFTER). */
static char *dump_separate(const char *before, const char *after)
{
	perfan_profile *p = separate(before, after);
	char *d = dump(p);
	perfan_profile_free(p);
	return d;
}

static char *layout_separate(const char *before, const char *after,
			     double minwidth)
{
	perfan_profile *p = separate(before, after);
	char *l = layout_text(p, minwidth);
	perfan_profile_free(p);
	return l;
}

/* ---- perfan_profile_merge ------------------------------------------------------ */

START_TEST(test_merge_frames_by_content)
{
	perfan_profile *src = new_profile(), *dst = new_profile();
	int c0 = perfan_profile_add_column(src, "cycles", "period");
	int c1 = perfan_profile_add_column(src, "other", "samples");
	ck_assert_int_eq(c0, 0);
	ck_assert_int_eq(c1, 1);
	/* the same name in two modules, at two lines, of two kinds */
	perfan_frame_id f[6];
	ck_assert_int_eq(perfan_profile_frame(src, &f[0], "main", "app", NULL,
					      0, PERFAN_FRAME_NATIVE),
			 0);
	ck_assert_int_eq(perfan_profile_frame(src, &f[1], "f", "liba.so", NULL,
					      0, PERFAN_FRAME_NATIVE),
			 0);
	ck_assert_int_eq(perfan_profile_frame(src, &f[2], "f", "libb.so", "f.c",
					      10, PERFAN_FRAME_INLINED),
			 0);
	ck_assert_int_eq(perfan_profile_frame(src, &f[3], "f", "libb.so", "f.c",
					      12, PERFAN_FRAME_INLINED),
			 0);
	ck_assert_int_eq(perfan_profile_frame(src, &f[4], "f", NULL, NULL, 0,
					      PERFAN_FRAME_KERNEL),
			 0);
	/* a frame of the other column only: not interned in DST */
	ck_assert_int_eq(perfan_profile_frame(src, &f[5], "unused", NULL, NULL,
					      0, PERFAN_FRAME_NATIVE),
			 0);
	perfan_frame_id s1[] = {f[0], f[1]}, s2[] = {f[0], f[2]},
			s3[] = {f[0], f[3], f[4]}, s4[] = {f[0], f[5]};
	ck_assert_int_eq(perfan_profile_add(src, s1, 2, 0, 5, NULL, NULL), 0);
	ck_assert_int_eq(perfan_profile_add(src, s2, 2, 0, 7, NULL, NULL), 0);
	ck_assert_int_eq(perfan_profile_add(src, s3, 3, 0, 11, NULL, NULL), 0);
	ck_assert_int_eq(perfan_profile_add(src, s1, 1, 0, 2, NULL, NULL), 0);
	ck_assert_int_eq(perfan_profile_add(src, NULL, 0, 0, 1, NULL, NULL), 0);
	ck_assert_int_eq(perfan_profile_add(src, s4, 2, 1, 9, NULL, NULL), 0);

	/* DST already holds some of these frames, under other ids */
	int d0 = perfan_profile_add_column(dst, "x", "samples");
	int d1 = perfan_profile_add_column(dst, "cycles", "period");
	perfan_frame_id g[2];
	ck_assert_int_eq(perfan_profile_frame(dst, &g[0], "zzz", NULL, NULL, 0,
					      PERFAN_FRAME_NATIVE),
			 0);
	ck_assert_int_eq(perfan_profile_frame(dst, &g[1], "f", "libb.so", "f.c",
					      12, PERFAN_FRAME_INLINED),
			 0);
	ck_assert_int_eq(
		perfan_profile_add(dst, g, 1, (size_t)d0, 3, NULL, NULL), 0);
	ck_assert_int_eq(perfan_profile_merge(dst, (size_t)d1, src, 0), 0);
	/* twice adds up */
	ck_assert_int_eq(perfan_profile_merge(dst, (size_t)d0, src, 0), 0);
	ck_assert_uint_eq(perfan_profile_nr_frames(dst), 6); /* not "unused" */
	/* the stacks of column 0 of SRC, in both columns of DST; zzz in x */
	char *got = dump(dst);
	ck_assert_str_eq(got, "(root) 1/29 1/26\n"
			      "main{app,,0,0} 2/25 2/25\n"
			      "main{app,,0,0};f{liba.so,,0,0} 5/5 5/5\n"
			      "main{app,,0,0};f{libb.so,f.c,10,4} 7/7 7/7\n"
			      "main{app,,0,0};f{libb.so,f.c,12,4} 0/11 0/11\n"
			      "main{app,,0,0};f{libb.so,f.c,12,4};f{,,0,1} "
			      "11/11 11/11\n"
			      "zzz 3/3 0/0\n");
	free(got);
	perfan_profile_free(dst);
	perfan_profile_free(src);
}
END_TEST

START_TEST(test_merge_errors)
{
	perfan_profile *a = new_profile(), *b = new_profile();
	ck_assert_int_eq(perfan_profile_add_column(a, "x", NULL), 0);
	ck_assert_int_eq(perfan_profile_merge(a, 0, b, 0), PERFAN_EINVAL);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "src column 0"));
	ck_assert_int_eq(perfan_profile_merge(b, 0, a, 0), PERFAN_EINVAL);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "dst column 0"));
	ck_assert_int_eq(perfan_profile_merge(a, 0, a, 0), PERFAN_EINVAL);
	ck_assert_int_eq(perfan_profile_merge(NULL, 0, a, 0), PERFAN_EINVAL);
	ck_assert_int_eq(perfan_profile_merge(a, 0, NULL, 0), PERFAN_EINVAL);
	/* an empty column merges nothing */
	ck_assert_int_eq(perfan_profile_add_column(b, "y", NULL), 0);
	ck_assert_int_eq(perfan_profile_merge(b, 0, a, 0), 0);
	ck_assert_uint_eq(perfan_profile_nr_nodes(b), 1);
	perfan_profile_free(a);
	perfan_profile_free(b);
}
END_TEST

/* ---- pair reading ----------------------------------------------------------------- */

START_TEST(test_pair_small)
{
	/* only before (a;x), only after (a;y, c), both (a, b), a stack twice
	 * in one file; "b 1" < "b-x" < "b;" in byte order */
	const char *before = "a 2\na;x 3\nb 1\nb-x 4\nb;q 1\nb;q 2\n";
	const char *after = "a 5\na;y 1\nb 7\nb;q 3\nc 2\n";
	perfan_profile *p = pair(before, after, 0, NULL);
	char *want = "(root) 0/18 0/13\n"
		     "a 5/6 2/5\n"
		     "a;x 0/0 3/3\n"
		     "a;y 1/1 0/0\n"
		     "b 7/10 1/4\n"
		     "b;q 3/3 3/3\n"
		     "b-x 0/0 4/4\n"
		     "c 2/2 0/0\n";
	char *got = dump(p);
	ck_assert_str_eq(got, want);
	free(got);
	expect_same("pair against separate", dump(p),
		    dump_separate(before, after));
	perfan_profile_free(p);
	/* one side empty */
	p = pair("", after, 0, NULL);
	ck_assert_uint_eq(perfan_profile_total(p, 0), 18);
	ck_assert_uint_eq(perfan_profile_total(p, 1), 0);
	perfan_profile_free(p);
	p = pair(before, "\n\n", 0.01, NULL);
	ck_assert_uint_eq(perfan_profile_total(p, 0), 0);
	ck_assert_uint_eq(perfan_profile_total(p, 1), 13);
	perfan_profile_free(p);
}
END_TEST

START_TEST(test_pair_equals_separate)
{
	for (uint64_t seed = 1; seed <= 3; seed++) {
		char *before, *after;
		made_up_pair(8000, 88172645463325252ull * seed, 1, &before,
			     &after);
		perfan_profile *p = pair(before, after, 0, NULL);
		perfan_profile *s = separate(before, after);
		perfan_profile *m = merged(before, after);
		char *dp = dump(p);
		expect_same("pair against separate", strdup(dp), dump(s));
		expect_same("pair against merged", dp, dump(m));
		expect_same("layout at minwidth 0", layout_text(p, 0),
			    layout_text(s, 0));
		expect_same("layout at 2 px", layout_text(p, 2),
			    layout_text(s, 2));
		perfan_profile_free(m);
		perfan_profile_free(s);
		perfan_profile_free(p);
		free(before);
		free(after);
	}
}
END_TEST

/* Pruned, the pair draws as the whole files do at the minimum width the
 * fraction stands for, and keeps far fewer nodes. */
START_TEST(test_pair_pruned)
{
	double fraction = 2.0 / (1200 - 20);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		char *before, *after;
		made_up_pair(20000, 0x9e3779b97f4a7c15ull * seed, 1, &before,
			     &after);
		perfan_profile *s = separate(before, after);
		perfan_profile *p = pair(before, after, fraction, NULL);
		for (size_t c = 0; c < 2; c++)
			ck_assert_uint_eq(perfan_profile_total(p, c),
					  perfan_profile_total(s, c));
		ck_assert_uint_lt(perfan_profile_nr_nodes(p),
				  perfan_profile_nr_nodes(s) / 4);
		char *a = layout_text(s, 2);
		ck_assert_ptr_nonnull(strstr(a, "(other)"));
		expect_same("pruned layout at 2 px", a, layout_text(p, 2));
		perfan_profile_free(p);
		perfan_profile_free(s);
		free(before);
		free(after);
	}
}
END_TEST

/* A subtree wide only before, narrow after, survives pruning (and one
 * narrow on both sides does not); a one-count read still prunes. */
START_TEST(test_pair_pruned_either_side)
{
	/* narrow stacks around "m;g..." and "m;new": these are decided
	 * when much has been read */
	char **bl = calloc(3003, sizeof(char *)),
	     **al = calloc(3003, sizeof(char *));
	for (int i = 0; i < 3000; i++) {
		char c = i < 1500 ? 'f' : 'h';
		ck_assert_int_gt(asprintf(&bl[i], "m;%c%04d 1", c, i), 0);
		ck_assert_int_gt(asprintf(&al[i], "m;%c%04d 1", c, i), 0);
	}
	/* "m;gone" 2000 before, 1 after; "m;new" the other way round;
	 * "m;gnat" narrow on both sides */
	ck_assert_int_gt(asprintf(&bl[3000], "m;gone;x 2000"), 0);
	ck_assert_int_gt(asprintf(&al[3000], "m;gone;x 1"), 0);
	ck_assert_int_gt(asprintf(&bl[3001], "m;new;y 1"), 0);
	ck_assert_int_gt(asprintf(&al[3001], "m;new;y 2000"), 0);
	ck_assert_int_gt(asprintf(&bl[3002], "m;gnat;z 2"), 0);
	ck_assert_int_gt(asprintf(&al[3002], "m;gnat;z 2"), 0);
	char *before = join(bl, 3003, 1), *after = join(al, 3003, 1);
	perfan_profile *p = pair(before, after, 0.01, NULL);
	char *l = layout_text(p, 1);
	ck_assert_msg(strstr(l, "2 gone 0+1 0+2000 self 0/0\n"), "%s", l);
	ck_assert_msg(strstr(l, "3 x 0+1 0+2000 self 1/2000\n"), "%s", l);
	ck_assert_msg(strstr(l, "2 new 1+2000 2000+1 self 0/0\n"), "%s", l);
	ck_assert_msg(!strstr(l, "gnat"), "%s", l);
	expect_same("layout", l, layout_separate(before, after, 1));
	for (perfan_node_id n = 1; n < perfan_profile_nr_nodes(p); n++)
		ck_assert_str_ne(perfan_profile_frame_get(
					 p, perfan_profile_node_frame(p, n))
					 ->name,
				 "gnat");
	ck_assert_uint_lt(perfan_profile_nr_nodes(p), 200);
	perfan_profile_free(p);
	/* one file, one count per line: nothing read before does not stop
	 * folding */
	perfan_profile *one = new_profile();
	struct perfan_folded_read_opts o =
		PERFAN_OPTS_INIT(struct perfan_folded_read_opts);
	o.prune = 0.01;
	o.before_column = "before";
	FILE *fp = text_stream(after);
	ck_assert_int_eq(perfan_folded_read(one, fp, "a", "after", &o), 0);
	fclose(fp);
	ck_assert_uint_lt(perfan_profile_nr_nodes(one), 200);
	ck_assert_uint_eq(perfan_profile_total(one, 0), 5003);
	perfan_profile_free(one);
	free(before);
	free(after);
}
END_TEST

static void collect(const perfan_profile *p, perfan_node_id n, char **path,
		    size_t *plen, char ***lines, size_t *nlines)
{
	size_t keep = *plen;
	if (n != PERFAN_ROOT_NODE) {
		const char *name = perfan_profile_frame_get(
					   p, perfan_profile_node_frame(p, n))
					   ->name;
		size_t len = strlen(name);
		*path = realloc(*path, *plen + len + 2);
		if (*plen)
			(*path)[(*plen)++] = ';';
		memcpy(*path + *plen, name, len + 1);
		*plen += len;
		uint64_t a = perfan_profile_node_self(p, n, 0),
			 b = perfan_profile_node_self(p, n, 1);
		if (a || b) {
			*lines =
				realloc(*lines, (*nlines + 1) * sizeof(char *));
			ck_assert_int_gt(asprintf(&(*lines)[(*nlines)++],
						  "%s %llu %llu", *path,
						  (unsigned long long)b,
						  (unsigned long long)a),
					 0);
		}
	}
	const perfan_node_id *kids;
	size_t nk = perfan_profile_node_children(p, n, &kids);
	for (size_t i = 0; i < nk; i++)
		collect(p, kids[i], path, plen, lines, nlines);
	*plen = keep;
}

/* P's stacks as difffolded.pl writes them: "STACK BEFORE AFTER", sorted. */
static char *two_count_text(const perfan_profile *p)
{
	char *path = NULL, **lines = NULL;
	size_t plen = 0, n = 0;
	collect(p, PERFAN_ROOT_NODE, &path, &plen, &lines, &n);
	free(path);
	return join(lines, n, 1);
}

START_TEST(test_pair_two_count_single_file)
{
	/* one file of "stack before after" lines, pruned, keeps what is wide
	 * before too, as the pair does */
	char *before, *after;
	made_up_pair(20000, 12345, 1, &before, &after);
	perfan_profile *p = pair(before, after, 0, NULL);
	char *two = two_count_text(p);
	perfan_profile *d = new_profile();
	struct perfan_folded_read_opts o =
		PERFAN_OPTS_INIT(struct perfan_folded_read_opts);
	o.prune = 2.0 / 1180;
	o.before_column = "before";
	FILE *fp = text_stream(two);
	ck_assert_msg(perfan_folded_read(d, fp, "d", "after", &o) == 0, "%s",
		      perfan_error_last());
	fclose(fp);
	ck_assert_uint_lt(perfan_profile_nr_nodes(d),
			  perfan_profile_nr_nodes(p) / 4);
	expect_same("two-count file, pruned", layout_text(p, 2),
		    layout_text(d, 2));
	perfan_profile_free(d);
	perfan_profile_free(p);
	free(two);
	free(before);
	free(after);
}
END_TEST

/* ---- unsorted pairs ------------------------------------------------------------- */

START_TEST(test_pair_unsorted)
{
	/* out of order before anything was folded: all kept from there */
	int rc;
	perfan_profile *p = pair("z 1\n", "b;c 5\na;c 5\n", 0.1, &rc);
	ck_assert_int_eq(rc, 0);
	expect_same("unsorted, read whole", dump(p),
		    dump_separate("z 1\n", "b;c 5\na;c 5\n"));
	perfan_profile_free(p);

	/* a random order: found out before anything is folded */
	char *before, *after;
	made_up_pair(3000, 777, 0, &before, &after);
	p = pair(before, after, 0.01, &rc);
	ck_assert_msg(rc == 0, "%s", perfan_error_last());
	perfan_profile *s = separate(before, after);
	expect_same("random order, pruned", dump(p), dump(s));
	perfan_profile_free(p);
	/* without pruning any order is fine */
	p = pair(before, after, 0, NULL);
	expect_same("random order", dump(p), dump(s));
	perfan_profile_free(p);
	perfan_profile_free(s);
	free(before);
	free(after);

	/* out of order after a fold: refused, naming the file and line */
	made_up_pair(3000, 4242, 1, &before, &after);
	size_t nb = 0, na = 0;
	for (const char *c = before; *c; c++)
		nb += *c == '\n';
	for (const char *c = after; *c; c++)
		na += *c == '\n';
	char *text, *want;
	ck_assert_int_gt(asprintf(&text, "%salloc 1\n", before), 0);
	p = pair(text, after, 0.01, &rc);
	ck_assert_int_eq(rc, PERFAN_EUNSUPPORTED);
	ck_assert_int_gt(asprintf(&want, "before.folded:%zu:", nb + 1), 0);
	ck_assert_msg(strstr(perfan_error_last(), want), "%s",
		      perfan_error_last());
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "LC_ALL=C sort"));
	perfan_profile_free(p);
	free(text);
	free(want);
	ck_assert_int_gt(asprintf(&text, "%salloc 1\n", after), 0);
	p = pair(before, text, 0.01, &rc);
	ck_assert_int_eq(rc, PERFAN_EUNSUPPORTED);
	ck_assert_int_gt(asprintf(&want, "after.folded:%zu:", na + 1), 0);
	ck_assert_msg(strstr(perfan_error_last(), want), "%s",
		      perfan_error_last());
	perfan_profile_free(p);
	free(text);
	free(want);
	free(before);
	free(after);
}
END_TEST

START_TEST(test_pair_errors)
{
	int rc;
	perfan_profile *p = pair("a 1\nb\n", "a 1\n", 0, &rc);
	ck_assert_int_eq(rc, PERFAN_EFORMAT);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "before.folded:2:"));
	perfan_profile_free(p);
	p = pair("a 1\n", "\nx y\n", 0, &rc);
	ck_assert_int_eq(rc, PERFAN_EFORMAT);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "after.folded:2:"));
	perfan_profile_free(p);
	p = new_profile();
	FILE *fp = text_stream("a 1\n");
	ck_assert_int_eq(perfan_folded_read_pair(p, fp, NULL, fp, NULL, NULL,
						 NULL, NULL),
			 PERFAN_EINVAL);
	ck_assert_int_eq(perfan_folded_read_pair(p, NULL, NULL, fp, NULL, NULL,
						 NULL, NULL),
			 PERFAN_EINVAL);
	fclose(fp);
	perfan_profile_free(p);
}
END_TEST

/* ---- real pairs ----------------------------------------------------------------- */

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	ck_assert_msg(fp != NULL, "%s", path);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), fp)))
		fwrite(chunk, 1, n, out);
	fclose(out);
	fclose(fp);
	return buf;
}

START_TEST(test_pair_peer_data)
{
	TU_REQUIRE_PEERDATA("diff-folded");
	static const char *const names[] = {"funcab", "cycles-numa",
					    "java-vertx"};
	for (size_t i = 0; i < 3; i++) {
		char rel[256];
		tu_fmt(rel, sizeof(rel), "diff-folded/%s.before.folded",
		       names[i]);
		char *before = slurp(tu_peerdata(rel));
		tu_fmt(rel, sizeof(rel), "diff-folded/%s.after.folded",
		       names[i]);
		char *after = slurp(tu_peerdata(rel));
		/* difffolded.pl's lines, read as one two-count file */
		tu_fmt(rel, sizeof(rel), "diff-folded/%s.expected.txt",
		       names[i]);
		char *expected = slurp(tu_peerdata(rel));
		perfan_profile *d = new_profile();
		struct perfan_folded_read_opts o =
			PERFAN_OPTS_INIT(struct perfan_folded_read_opts);
		o.before_column = "before";
		FILE *fp = text_stream(expected);
		ck_assert_int_eq(perfan_folded_read(d, fp, "e", "after", &o),
				 0);
		fclose(fp);
		perfan_profile *p = pair(before, after, 0, NULL);
		expect_same(names[i], dump(p), dump(d));
		perfan_profile *pp = pair(before, after, 0.1 / 1180, NULL);
		expect_same(names[i], layout_text(p, 0.1),
			    layout_text(pp, 0.1));
		perfan_profile_free(pp);
		perfan_profile_free(p);
		perfan_profile_free(d);
		free(expected);
		free(before);
		free(after);
	}
}
END_TEST

static Suite *diffread_suite(void)
{
	Suite *s = suite_create("diffread");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_merge_frames_by_content);
	tcase_add_test(tc, test_merge_errors);
	tcase_add_test(tc, test_pair_small);
	tcase_add_test(tc, test_pair_equals_separate);
	tcase_add_test(tc, test_pair_pruned);
	tcase_add_test(tc, test_pair_pruned_either_side);
	tcase_add_test(tc, test_pair_two_count_single_file);
	tcase_add_test(tc, test_pair_unsorted);
	tcase_add_test(tc, test_pair_errors);
	tcase_add_test(tc, test_pair_peer_data);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(diffread_suite)
