/* check_flamegraph.c: the flame graph layout on made-up profiles (name
 * order, exact offsets and widths, "(other)" for narrow frames in pixels
 * and percent, reversed stacks, flame charts from kept samples, the union
 * of both sides of a differential graph), pruned folded reading against a
 * whole read, and the SVG writer (determinism, escaping of names,
 * differential colours by self and total share, noise, negate, the
 * before side's attributes, errors). */
#define _GNU_SOURCE
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ---- helpers ----------------------------------------------------------------- */

static perfan_profile *folded(const char *text, double prune, int *rc)
{
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	ck_assert_ptr_nonnull(fp);
	struct perfan_folded_read_opts o =
		PERFAN_OPTS_INIT(struct perfan_folded_read_opts);
	o.prune = prune;
	int r = perfan_folded_read(p, fp, "t.folded", NULL, &o);
	fclose(fp);
	if (rc)
		*rc = r;
	else
		ck_assert_msg(r == 0, "%s", perfan_error_last());
	return p;
}

/* The layout as text, one frame per line: "depth name offset width". */
static char *layout_text(const perfan_profile *p,
			 const struct perfan_flamegraph_opts *o)
{
	perfan_fg_layout *l;
	ck_assert_msg(perfan_fg_layout_new(&l, p, o) == 0, "%s",
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
		fprintf(fp, "%u %s %llu %llu\n", f->depth, name,
			(unsigned long long)f->offset,
			(unsigned long long)f->width);
	}
	fclose(fp);
	perfan_fg_layout_free(l);
	return buf;
}

static void expect_layout(const perfan_profile *p,
			  const struct perfan_flamegraph_opts *o,
			  const char *want)
{
	char *got = layout_text(p, o);
	ck_assert_msg(!strcmp(got, want), "layout:\n%s\nwanted:\n%s", got,
		      want);
	free(got);
}

/* Two-count folded text ("stack before after") as a profile: after in
 * column 0, before in column 1. */
static perfan_profile *two_count(const char *text)
{
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	ck_assert_ptr_nonnull(fp);
	struct perfan_folded_read_opts fo =
		PERFAN_OPTS_INIT(struct perfan_folded_read_opts);
	fo.before_column = "before";
	ck_assert_msg(perfan_folded_read(p, fp, "d", "after", &fo) == 0, "%s",
		      perfan_error_last());
	fclose(fp);
	return p;
}

/* A differential layout as text, one frame per line: "depth name offset
 * width base_offset base_width self base_self", or with UNION "depth name
 * union_offset union_width" and a last line "total UNION_TOTAL". */
static char *diff_text(const perfan_profile *p,
		       const struct perfan_flamegraph_opts *o, int with_union)
{
	perfan_fg_layout *l;
	ck_assert_msg(perfan_fg_layout_new(&l, p, o) == 0, "%s",
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
		if (with_union)
			fprintf(fp, "%u %s %llu %llu\n", f->depth, name,
				(unsigned long long)f->union_offset,
				(unsigned long long)f->union_width);
		else
			fprintf(fp, "%u %s %llu %llu %llu %llu %llu %llu\n",
				f->depth, name, (unsigned long long)f->offset,
				(unsigned long long)f->width,
				(unsigned long long)f->base_offset,
				(unsigned long long)f->base_width,
				(unsigned long long)f->self,
				(unsigned long long)f->base_self);
	}
	if (with_union)
		fprintf(fp, "total %llu\n",
			(unsigned long long)perfan_fg_layout_union_total(l));
	fclose(fp);
	perfan_fg_layout_free(l);
	return buf;
}

static char *diff_layout_text(const perfan_profile *p,
			      const struct perfan_flamegraph_opts *o)
{
	return diff_text(p, o, 0);
}

static void expect_diff_layout(const perfan_profile *p,
			       const struct perfan_flamegraph_opts *o,
			       const char *want)
{
	char *got = diff_layout_text(p, o);
	ck_assert_msg(!strcmp(got, want), "layout:\n%s\nwanted:\n%s", got,
		      want);
	free(got);
}

static char *svg_of(const perfan_profile *p,
		    const struct perfan_flamegraph_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	ck_assert_msg(perfan_flamegraph_write(p, fp, o) == 0, "%s",
		      perfan_error_last());
	fclose(fp);
	return buf;
}

/* ---- layout -------------------------------------------------------------------- */

START_TEST(test_layout_exact)
{
	/* children by name whatever the input order; parents keep their
	 * own time to the right of their children */
	perfan_profile *p =
		folded("main;zeta 3\nmain;alpha;x 2\nmain 1\nother 4\n"
		       "main;alpha 1\n",
		       0, NULL);
	struct perfan_flamegraph_opts o = PERFAN_FG_OPTS_INIT;
	o.minwidth = 0;
	expect_layout(p, &o,
		      "0 all 0 11\n"
		      "1 main 0 7\n"
		      "1 other 7 4\n"
		      "2 alpha 0 3\n"
		      "2 zeta 3 3\n"
		      "3 x 0 2\n");
	ck_assert_uint_eq(perfan_profile_total(p, 0), 11);
	perfan_profile_free(p);
}
END_TEST

START_TEST(test_minwidth_other)
{
	/* 100 samples over 1180 px: 11.8 px each. Narrow children of main
	 * (b 1, c 1, d 2) merge into one (other) after the wide ones. */
	perfan_profile *p = folded("main;a 90\nmain;b 1\nmain;c 1\nmain;d 2\n"
				   "main;e;f 6\n",
				   0, NULL);
	struct perfan_flamegraph_opts o = PERFAN_FG_OPTS_INIT;
	o.minwidth = 40; /* px: below 3.39 samples */
	expect_layout(p, &o,
		      "0 all 0 100\n"
		      "1 main 0 100\n"
		      "2 a 0 90\n"
		      "2 e 90 6\n"
		      "2 (other) 96 4\n"
		      "3 f 90 6\n");
	o.minwidth = 6.5; /* percent: e (6) and the rest merge */
	o.minwidth_percent = 1;
	expect_layout(p, &o,
		      "0 all 0 100\n"
		      "1 main 0 100\n"
		      "2 a 0 90\n"
		      "2 (other) 90 10\n");
	perfan_profile_free(p);
}
END_TEST

START_TEST(test_reverse)
{
	perfan_profile *p = folded("m;a;x 2\nm;b;x 3\nm;b 1\n", 0, NULL);
	struct perfan_flamegraph_opts o = PERFAN_FG_OPTS_INIT;
	o.minwidth = 0;
	o.reverse = 1;
	expect_layout(p, &o,
		      "0 all 0 6\n"
		      "1 b 0 1\n"
		      "1 x 1 5\n"
		      "2 m 0 1\n"
		      "2 a 1 2\n"
		      "2 b 3 3\n"
		      "3 m 1 2\n"
		      "3 m 3 3\n");
	perfan_profile_free(p);
}
END_TEST

START_TEST(test_flamechart)
{
	struct perfan_profile_opts po =
		PERFAN_OPTS_INIT(struct perfan_profile_opts);
	po.keep_samples = 1;
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, &po), 0);
	const char *text = "a;b 2\na;c 1\na;b 1\nz 3\n";
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	ck_assert_int_eq(perfan_folded_read(p, fp, "t", NULL, NULL), 0);
	fclose(fp);
	struct perfan_flamegraph_opts o = PERFAN_FG_OPTS_INIT;
	o.minwidth = 0;
	o.flamechart = 1;
	/* in order, not merged by name: b twice */
	expect_layout(p, &o,
		      "0 all 0 7\n"
		      "1 a 0 4\n"
		      "1 z 4 3\n"
		      "2 b 0 2\n"
		      "2 c 2 1\n"
		      "2 b 3 1\n");
	/* narrow neighbours merge into one (other) spanning them */
	o.minwidth = 1.5;
	o.minwidth_percent = 0;
	o.width = 7 + 20; /* 1 px per sample */
	expect_layout(p, &o,
		      "0 all 0 7\n"
		      "1 a 0 4\n"
		      "1 z 4 3\n"
		      "2 b 0 2\n"
		      "2 (other) 2 2\n");
	perfan_profile_free(p);

	/* a flame chart needs kept samples */
	p = folded("a 1\n", 0, NULL);
	perfan_fg_layout *l;
	o = PERFAN_FG_OPTS_INIT;
	o.flamechart = 1;
	ck_assert_int_eq(perfan_fg_layout_new(&l, p, &o), PERFAN_EINVAL);
	perfan_profile_free(p);
}
END_TEST

/* ---- pruned reading -------------------------------------------------------------- */

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Folded text of N stacks from a small call graph (xorshift), sorted as
 * `LC_ALL=C sort` sorts (or not). */
static char *made_up_folded(size_t n, int sorted)
{
	static const char *const names[] = {"main",  "parse", "eval", "alloc",
					    "free",  "hash",  "b",    "b-x",
					    "write", "read"};
	char **lines = calloc(n, sizeof(*lines));
	uint64_t x = 88172645463325252ull;
	for (size_t i = 0; i < n; i++) {
		char buf[512];
		size_t len = 0;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		int depth = 1 + (int)(x % 9);
		for (int d = 0; d < depth; d++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
						"%s%s", d ? ";" : "",
						names[x % 10]);
		}
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		snprintf(buf + len, sizeof(buf) - len, " %llu",
			 (unsigned long long)(1 +
					      (x % 1000 == 0 ? 5000 : x % 7)));
		lines[i] = strdup(buf);
	}
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

START_TEST(test_prune_same_graph)
{
	/* sorted as whole lines: "b 3" before "b-x;..." before "b;..." */
	char *text = made_up_folded(20000, 1);
	struct perfan_flamegraph_opts o = PERFAN_FG_OPTS_INIT;
	o.minwidth = 2; /* px */
	double fraction = 2.0 / (1200 - 20);
	perfan_profile *whole = folded(text, 0, NULL);
	perfan_profile *pruned = folded(text, fraction, NULL);
	ck_assert_uint_eq(perfan_profile_total(whole, 0),
			  perfan_profile_total(pruned, 0));
	ck_assert_uint_lt(perfan_profile_nr_nodes(pruned),
			  perfan_profile_nr_nodes(whole) / 4);
	char *a = layout_text(whole, &o), *b = layout_text(pruned, &o);
	ck_assert_msg(!strcmp(a, b), "pruned layout differs");
	ck_assert_ptr_nonnull(strstr(a, "(other)"));
	free(a);
	free(b);
	perfan_profile_free(pruned);
	perfan_profile_free(whole);
	free(text);
}
END_TEST

START_TEST(test_prune_unsorted)
{
	/* out of order before anything was folded: read whole, same graph */
	int rc;
	perfan_profile *p = folded("b;c 5\na;c 5\n", 0.1, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(perfan_profile_total(p, 0), 10);
	ck_assert_uint_eq(perfan_profile_nr_nodes(p), 5);
	perfan_profile_free(p);
	/* out of order after a fold: refused, naming the line */
	char *sorted = made_up_folded(3000, 1), *text = NULL;
	ck_assert_int_gt(asprintf(&text, "%salloc 1\n", sorted), 0);
	p = folded(text, 0.01, &rc);
	ck_assert_int_eq(rc, PERFAN_EUNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "t.folded:3001:"));
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "LC_ALL=C sort"));
	perfan_profile_free(p);
	/* a random order is found out before anything is folded */
	char *shuffled = made_up_folded(3000, 0);
	perfan_profile *whole = folded(shuffled, 0, NULL);
	p = folded(shuffled, 0.01, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(perfan_profile_nr_nodes(p),
			  perfan_profile_nr_nodes(whole));
	perfan_profile_free(p);
	perfan_profile_free(whole);
	free(shuffled);
	free(sorted);
	free(text);
}
END_TEST

/* ---- the SVG ------------------------------------------------------------------------ */

START_TEST(test_svg_deterministic_and_escaped)
{
	perfan_profile *p =
		folded("main;<a&b>;\"q\" 3\nmain;bad\xff\x01name 2\n"
		       "main;ok 1\n",
		       0, NULL);
	struct perfan_flamegraph_opts o = PERFAN_FG_OPTS_INIT;
	o.title = "T <1>";
	o.notes = "n&n";
	char *a = svg_of(p, &o), *b = svg_of(p, &o);
	ck_assert_str_eq(a, b);
	ck_assert_ptr_nonnull(strstr(a, "<title>&lt;a&amp;b&gt;</title>"));
	ck_assert_ptr_nonnull(strstr(a, "<title>&quot;q&quot;</title>"));
	/* a broken byte and a control character become U+FFFD */
	ck_assert_ptr_nonnull(
		strstr(a, "<title>bad\xef\xbf\xbd\xef\xbf\xbdname</title>"));
	ck_assert_ptr_nonnull(strstr(a, ">T &lt;1&gt;</text>"));
	ck_assert_ptr_nonnull(strstr(a, "<desc id=\"notes\">n&amp;n</desc>"));
	ck_assert_ptr_null(strstr(a + strlen("<?xml"), "<?xml"));
	ck_assert_ptr_nonnull(
		strstr(a, "data-o=\"0\" data-w=\"3\" data-d=\"2\""));
	/* the legend names the kinds drawn */
	ck_assert_ptr_nonnull(strstr(a, ">native</text>"));
	free(a);
	free(b);
	o.palette = perfan_fg_palette_parse("java");
	ck_assert_int_eq(o.palette, PERFAN_FG_JAVA);
	a = svg_of(p, &o);
	ck_assert_ptr_null(strstr(a, "id=\"legend\""));
	free(a);
	perfan_profile_free(p);
}
END_TEST

/* The fill of the frame titled NAME in SVG, as r, g, b. */
static void fill_of(const char *svg, const char *name, unsigned rgb[3])
{
	char key[128];
	snprintf(key, sizeof(key), "<title>%s</title>", name);
	const char *t = strstr(svg, key);
	ck_assert_msg(t != NULL, "no frame %s", name);
	const char *f = strstr(t, "fill=\"#");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sscanf(f + 7, "%2x%2x%2x", &rgb[0], &rgb[1], &rgb[2]),
			 3);
}

START_TEST(test_differential)
{
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	const char *text = "a;grew 10 20\na;shrank 20 10\na;same 5 5\n";
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	struct perfan_folded_read_opts fo =
		PERFAN_OPTS_INIT(struct perfan_folded_read_opts);
	fo.before_column = "before";
	ck_assert_int_eq(perfan_folded_read(p, fp, "d", "after", &fo), 0);
	fclose(fp);
	ck_assert_uint_eq(perfan_profile_total(p, 0), 35); /* after */
	ck_assert_uint_eq(perfan_profile_total(p, 1), 35); /* before */
	struct perfan_flamegraph_opts o = PERFAN_FG_OPTS_INIT;
	o.column = 0;
	o.base_column = 1;
	char *svg = svg_of(p, &o);
	unsigned g[3], s[3], u[3];
	fill_of(svg, "grew", g);
	fill_of(svg, "shrank", s);
	fill_of(svg, "same", u);
	ck_assert_uint_gt(g[0], g[2]); /* red */
	ck_assert_uint_gt(s[2], s[0]); /* blue */
	ck_assert_uint_eq(u[0], u[2]);
	ck_assert_ptr_nonnull(strstr(svg, ">grew</text>")); /* legend */
	free(svg);
	o.negate = 1;
	svg = svg_of(p, &o);
	fill_of(svg, "grew", g);
	ck_assert_uint_gt(g[2], g[0]);
	free(svg);
	perfan_profile_free(p);
}
END_TEST

/* ---- differential ----------------------------------------------------------------- */

#define TWO_SIDES                                                              \
	"main;grew 10 20\nmain;shrank 20 10\nmain;same 5 5\n"                  \
	"main;gone;deep 8 0\nmain;fresh 0 6\nother 7 7\n"

START_TEST(test_diff_union_layout)
{
	/* after 48, before 50: "gone" and "deep" only before (width 0
	 * after, where they would start), "fresh" only after; each side
	 * laid out in its own weight, children by name on both */
	perfan_profile *p = two_count(TWO_SIDES);
	struct perfan_flamegraph_opts o = PERFAN_FG_OPTS_INIT;
	o.base_column = 1;
	/* depth name offset width base_offset base_width self base_self */
	expect_diff_layout(p, &o,
			   "0 all 0 48 0 50 0 0\n"
			   "1 main 0 41 0 43 0 0\n"
			   "1 other 41 7 43 7 7 7\n"
			   "2 fresh 0 6 0 0 6 0\n"
			   "2 gone 6 0 0 8 0 0\n"
			   "2 grew 6 20 8 10 20 10\n"
			   "2 same 26 5 18 5 5 5\n"
			   "2 shrank 31 10 23 20 10 20\n"
			   "3 deep 6 0 0 8 0 8\n");
	perfan_fg_layout *l;
	ck_assert_int_eq(perfan_fg_layout_new(&l, p, &o), 0);
	ck_assert_uint_eq(perfan_fg_layout_total(l), 48);
	ck_assert_uint_eq(perfan_fg_layout_base_total(l), 50);
	perfan_fg_layout_free(l);
	/* plain: the after side alone, no before places */
	o.base_column = PERFAN_FG_NO_BASE;
	expect_diff_layout(p, &o,
			   "0 all 0 48 0 0 0 0\n"
			   "1 main 0 41 0 0 0 0\n"
			   "1 other 41 7 0 0 0 0\n"
			   "2 fresh 0 6 0 0 0 0\n"
			   "2 grew 6 20 0 0 0 0\n"
			   "2 same 26 5 0 0 0 0\n"
			   "2 shrank 31 10 0 0 0 0\n");
	ck_assert_int_eq(perfan_fg_layout_new(&l, p, &o), 0);
	ck_assert_uint_eq(perfan_fg_layout_base_total(l), 0);
	perfan_fg_layout_free(l);
	perfan_profile_free(p);

	/* drawn when wide on either side, each against its own total; the
	 * narrow rest is one "(other)" with both widths */
	p = two_count("m;a 50 90\nm;b 40 2\nm;c 4 3\nm;d 0 5\nm;e 6 0\n");
	o = PERFAN_FG_OPTS_INIT;
	o.base_column = 1;
	o.minwidth = 10;
	o.minwidth_percent = 1;
	expect_diff_layout(p, &o,
			   "0 all 0 100 0 100 0 0\n"
			   "1 m 0 100 0 100 0 0\n"
			   "2 a 0 90 0 50 90 50\n"
			   "2 b 90 2 50 40 2 40\n"
			   "2 (other) 92 8 90 10 0 0\n");
	perfan_profile_free(p);

	/* reversed stacks keep both sides */
	p = two_count("m;a;x 0 2\nm;b;x 4 3\nm;b 1 1\n");
	o = PERFAN_FG_OPTS_INIT;
	o.base_column = 1;
	o.minwidth = 0;
	o.reverse = 1;
	expect_diff_layout(p, &o,
			   "0 all 0 6 0 5 0 0\n"
			   "1 b 0 1 0 1 0 0\n"
			   "1 x 1 5 1 4 0 0\n"
			   "2 m 0 1 0 1 1 1\n"
			   "2 a 1 2 1 0 0 0\n"
			   "2 b 3 3 1 4 0 0\n"
			   "3 m 1 2 1 0 2 0\n"
			   "3 m 3 3 1 4 3 4\n");
	perfan_profile_free(p);

	/* one side empty: the other's frames, narrow ones merged */
	p = two_count("m;a 0 9\nm;b 0 1\n");
	o = PERFAN_FG_OPTS_INIT;
	o.base_column = 1;
	o.minwidth = 20;
	o.minwidth_percent = 1;
	expect_diff_layout(p, &o,
			   "0 all 0 10 0 0 0 0\n"
			   "1 m 0 10 0 0 0 0\n"
			   "2 a 0 9 0 0 9 0\n"
			   "2 (other) 9 1 0 0 0 0\n");
	perfan_profile_free(p);
}
END_TEST

static char *union_text(const perfan_profile *p,
			const struct perfan_flamegraph_opts *o)
{
	return diff_text(p, o, 1);
}

START_TEST(test_diff_union_shape)
{
	/* in billionths of each side's total (after 48, before 50): a frame
	 * is its larger self share plus its children, so gone (8/50 before,
	 * through deep) and fresh (6/48 after) both have room, shrank is as
	 * wide as before (20/50), grew as after (20/48) */
	perfan_profile *p = two_count(TWO_SIDES);
	struct perfan_flamegraph_opts o = PERFAN_FG_OPTS_INIT;
	o.base_column = 1;
	char *got = union_text(p, &o);
	const char *want = "0 all 0 1351666667\n"
			   "1 main 0 1205833334\n"
			   "1 other 1205833334 145833333\n"
			   "2 fresh 0 125000000\n"
			   "2 gone 125000000 160000000\n"
			   "2 grew 285000000 416666667\n"
			   "2 same 701666667 104166667\n"
			   "2 shrank 805833334 400000000\n"
			   "3 deep 125000000 160000000\n"
			   "total 1351666667\n";
	ck_assert_msg(!strcmp(got, want), "union:\n%s\nwanted:\n%s", got, want);
	free(got);
	/* merged narrow frames: the larger of their two widths; a plain
	 * layout has no union */
	perfan_profile_free(p);
	p = two_count("m;a 50 90\nm;b 40 2\nm;c 4 3\nm;d 0 5\nm;e 6 0\n");
	o.minwidth = 10;
	o.minwidth_percent = 1;
	got = union_text(p, &o);
	ck_assert_msg(!strcmp(got, "0 all 0 1400000000\n"
				   "1 m 0 1400000000\n"
				   "2 a 0 900000000\n"
				   "2 b 900000000 400000000\n"
				   "2 (other) 1300000000 100000000\n"
				   "total 1400000000\n"),
		      "union:\n%s", got);
	free(got);
	o.base_column = PERFAN_FG_NO_BASE;
	got = union_text(p, &o);
	ck_assert_ptr_nonnull(strstr(got, "total 0\n"));
	ck_assert_ptr_nonnull(strstr(got, "2 a 0 0\n"));
	free(got);
	perfan_profile_free(p);
}
END_TEST

/* The attribute NAME="..." of the <g> of the frame titled TITLE, or "". */
static const char *attr_of(const char *svg, const char *title, const char *name,
			   char *buf, size_t size)
{
	char key[128];
	snprintf(key, sizeof(key), "><title>%s</title>", title);
	const char *t = strstr(svg, key);
	ck_assert_msg(t != NULL, "no frame %s", title);
	const char *g = t;
	while (g > svg && strncmp(g, "<g ", 3))
		g--;
	snprintf(key, sizeof(key), " %s=\"", name);
	const char *a = strstr(g, key);
	buf[0] = 0;
	if (a && a < t) {
		a += strlen(key);
		size_t n = strcspn(a, "\"");
		snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), a);
	}
	return buf;
}

/* The height of the 1200 px wide image SVG. */
static unsigned svg_height(const char *svg)
{
	unsigned h = 0;
	ck_assert_int_eq(
		sscanf(strstr(svg, "<svg "),
		       "<svg version=\"1.1\" width=\"1200\" height=\"%u\"", &h),
		1);
	return h;
}

START_TEST(test_diff_svg)
{
	perfan_profile *p = two_count(TWO_SIDES);
	struct perfan_flamegraph_opts o = PERFAN_FG_OPTS_INIT;
	o.base_column = 1;
	char *svg = svg_of(p, &o), *again = svg_of(p, &o), b[64];
	ck_assert_str_eq(svg, again);
	free(again);
	/* the before side's place; one-side frames outlined where such a
	 * subtree starts, none hidden in the union shape it opens with */
	ck_assert_str_eq(attr_of(svg, "gone", "data-w", b, sizeof(b)), "0");
	ck_assert_str_eq(attr_of(svg, "gone", "data-bo", b, sizeof(b)), "0");
	ck_assert_str_eq(attr_of(svg, "gone", "data-bw", b, sizeof(b)), "8");
	ck_assert_str_eq(attr_of(svg, "gone", "class", b, sizeof(b)),
			 "vanished");
	ck_assert_str_eq(attr_of(svg, "deep", "class", b, sizeof(b)), "");
	ck_assert_str_eq(attr_of(svg, "gone", "data-uo", b, sizeof(b)),
			 "125000000");
	ck_assert_str_eq(attr_of(svg, "gone", "data-uw", b, sizeof(b)),
			 "160000000");
	ck_assert_str_eq(attr_of(svg, "fresh", "class", b, sizeof(b)), "new");
	ck_assert_str_eq(attr_of(svg, "fresh", "data-bw", b, sizeof(b)), "0");
	ck_assert_str_eq(attr_of(svg, "grew", "data-bo", b, sizeof(b)), "8");
	ck_assert_str_eq(attr_of(svg, "grew", "data-bw", b, sizeof(b)), "10");
	ck_assert_str_eq(attr_of(svg, "grew", "class", b, sizeof(b)), "");
	ck_assert_str_eq(attr_of(svg, "all", "data-bw", b, sizeof(b)), "50");
	/* the views, the legend's counts (of outlines), the summary, the
	 * script's differential part */
	ck_assert_ptr_nonnull(
		strstr(svg, "id=\"view-u\" class=\"button view on\""));
	ck_assert_ptr_nonnull(strstr(svg, ">Before</text>"));
	ck_assert_ptr_nonnull(strstr(svg, ">1 new</text>"));
	ck_assert_ptr_nonnull(strstr(svg, ">1 vanished</text>"));
	/* self shares: grew 20% to 41.7%, shrank 40% to 20.8%, deep 16%
	 * to none, fresh none to 12.5%, other 14% to 14.6%; the largest
	 * five, by size, minus signs U+2212 */
	ck_assert_ptr_nonnull(strstr(
		svg,
		">Largest changes of self share: grew +21.7 pts, shrank "
		"\xe2\x88\x92"
		"19.2 pts, deep \xe2\x88\x92"
		"16.0 pts "
		"(vanished), fresh +12.5 pts (new), other +0.6 pts</text>"));
	ck_assert_ptr_nonnull(strstr(svg, ">Self share:</text>"));
	ck_assert_ptr_nonnull(strstr(svg, "function describeDiff"));
	ck_assert_ptr_null(strstr(svg, "\n//#"));
	free(svg);
	/* a plain graph has none of it */
	o.base_column = PERFAN_FG_NO_BASE;
	svg = svg_of(p, &o);
	ck_assert_ptr_null(strstr(svg, "view-u"));
	free(svg);
	perfan_profile_free(p);
	/* 90 levels deep: a differential graph's frames get lower (8 px) so that it fits 900 px (16 px each would take 1,570), a
	 * plain one's not */
	char deep[2048] = "";
	for (int i = 0; i < 90; i++)
		strcat(deep, i ? ";f" : "f");
	strcat(deep, " 3 5\n");
	p = two_count(deep);
	o.base_column = 1;
	svg = svg_of(p, &o);
	unsigned h = 0;
	h = svg_height(svg);
	ck_assert_msg(h <= 900 && h > 800, "height %u", h);
	ck_assert_ptr_nonnull(strstr(svg, "#frames text { font-size: 6px; }"));
	free(svg);
	o.max_height = -1;
	svg = svg_of(p, &o);
	h = svg_height(svg);
	ck_assert_uint_gt(h, 1500);
	free(svg);
	o.max_height = 0;
	o.base_column = PERFAN_FG_NO_BASE;
	svg = svg_of(p, &o);
	h = svg_height(svg);
	ck_assert_uint_gt(h, 1500);
	ck_assert_ptr_null(strstr(svg, "id=\"summary\""));
	ck_assert_ptr_null(strstr(svg, "data-bo"));
	ck_assert_ptr_null(strstr(svg, "data-s="));
	ck_assert_ptr_null(strstr(svg, "describeDiff"));
	ck_assert_ptr_null(strstr(svg, "\n//#"));
	ck_assert_ptr_null(strstr(svg, "<title>gone</title>"));
	free(svg);
	perfan_profile_free(p);
}
END_TEST

static int is_neutral(const unsigned c[3])
{
	return c[0] == 250 && c[1] == 250 && c[2] == 250;
}

START_TEST(test_diff_color_self_total)
{
	/* mid's own time keeps its share (20%), its total doubles (40% to
	 * 80%): neutral by self, red by total; cold shrinks either way */
	perfan_profile *p =
		two_count("top;mid 10 10\ntop;mid;hot 10 30\ntop;cold 30 10\n");
	struct perfan_flamegraph_opts o = PERFAN_FG_OPTS_INIT;
	o.base_column = 1;
	unsigned mid[3], hot[3], cold[3], top[3];
	char *svg = svg_of(p, &o);
	fill_of(svg, "mid", mid);
	fill_of(svg, "hot", hot);
	fill_of(svg, "cold", cold);
	fill_of(svg, "top", top);
	ck_assert_msg(is_neutral(mid), "mid %u,%u,%u", mid[0], mid[1], mid[2]);
	ck_assert_msg(is_neutral(top), "top");
	/* the largest changes (+-40 points) are fully saturated */
	ck_assert(hot[0] == 255 && hot[1] == 0 && hot[2] == 0);
	ck_assert(cold[0] == 0 && cold[1] == 0 && cold[2] == 255);
	free(svg);

	o.color_total = 1;
	svg = svg_of(p, &o);
	fill_of(svg, "mid", mid);
	fill_of(svg, "hot", hot);
	fill_of(svg, "cold", cold);
	fill_of(svg, "top", top);
	ck_assert(mid[0] == 255 && mid[1] == 0 && mid[2] == 0);
	ck_assert(hot[0] == 255 && hot[1] == 0 && hot[2] == 0);
	ck_assert(cold[0] == 0 && cold[1] == 0 && cold[2] == 255);
	ck_assert_msg(is_neutral(top), "top"); /* 100% on both sides */
	ck_assert_ptr_nonnull(strstr(svg, ">Total share:</text>"));
	free(svg);

	/* negate swaps the hues, by total too */
	o.negate = 1;
	svg = svg_of(p, &o);
	fill_of(svg, "mid", mid);
	fill_of(svg, "cold", cold);
	ck_assert(mid[0] == 0 && mid[1] == 0 && mid[2] == 255);
	ck_assert(cold[0] == 255 && cold[1] == 0 && cold[2] == 0);
	free(svg);
	perfan_profile_free(p);
}
END_TEST

START_TEST(test_diff_noise)
{
	/* 10000 samples a side: small moves 0.1 points (10.0% to 9.9%),
	 * big 2 points (5% to 7%), rest -2 points (85% to 83.1%) */
	perfan_profile *p = two_count(
		"a;big 500 700\na;small 1000 990\na;rest 8500 8310\n");
	struct perfan_flamegraph_opts o = PERFAN_FG_OPTS_INIT;
	o.base_column = 1;
	unsigned big[3], small[3], rest[3];
	char *svg = svg_of(p, &o);
	fill_of(svg, "small", small);
	ck_assert(small[2] == 255 && small[0] < 250); /* pale blue */
	ck_assert_ptr_nonnull(strstr(svg, ">unchanged</text>"));
	free(svg);

	/* a floor of 0.5 points: small is neutral, big still red */
	o.noise_floor = 0.005;
	svg = svg_of(p, &o);
	fill_of(svg, "small", small);
	fill_of(svg, "big", big);
	ck_assert(is_neutral(small));
	ck_assert(big[0] == 255 && big[2] < 255);
	ck_assert_ptr_nonnull(strstr(svg, ">within noise</text>"));
	free(svg);

	/* two sigmas of binomial noise: 0.85 points for small (neutral),
	 * 0.67 for big and 1.04 for rest (both changes real) */
	o.noise_floor = 0;
	o.noise_sigmas = 2;
	svg = svg_of(p, &o);
	fill_of(svg, "small", small);
	fill_of(svg, "big", big);
	fill_of(svg, "rest", rest);
	ck_assert(is_neutral(small));
	ck_assert(big[0] == 255 && big[2] < 255);
	ck_assert(rest[2] == 255 && rest[0] < 255);
	free(svg);
	/* ten sigmas (3.4 points for big): everything is noise */
	o.noise_sigmas = 10;
	svg = svg_of(p, &o);
	fill_of(svg, "big", big);
	fill_of(svg, "rest", rest);
	ck_assert(is_neutral(big));
	ck_assert(is_neutral(rest));
	free(svg);
	/* a negative threshold is none */
	o.noise_sigmas = -1;
	o.noise_floor = -1;
	svg = svg_of(p, &o);
	fill_of(svg, "small", small);
	ck_assert(!is_neutral(small));
	free(svg);
	perfan_profile_free(p);
}
END_TEST

START_TEST(test_errors)
{
	perfan_profile *p = folded("a 1\n", 0, NULL);
	struct perfan_flamegraph_opts o = PERFAN_FG_OPTS_INIT;
	ck_assert_int_eq(perfan_flamegraph_write(p, NULL, &o), PERFAN_EINVAL);
	o.column = 5;
	FILE *fp = fopen("/dev/null", "w");
	ck_assert_int_eq(perfan_flamegraph_write(p, fp, &o), PERFAN_EINVAL);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "column 5"));
	fclose(fp);
	ck_assert_int_eq(perfan_fg_palette_parse("nope"), -1);
	ck_assert_int_eq(perfan_fg_palette_parse("hot"), PERFAN_FG_HOT);
	perfan_profile_free(p);
	/* an empty profile draws "all" alone */
	perfan_profile *e;
	ck_assert_int_eq(perfan_profile_new(&e, NULL), 0);
	char *svg = svg_of(e, NULL);
	ck_assert_ptr_nonnull(strstr(svg, "<title>all</title>"));
	free(svg);
	perfan_profile_free(e);
}
END_TEST

static Suite *flamegraph_suite(void)
{
	Suite *s = suite_create("flamegraph");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_layout_exact);
	tcase_add_test(tc, test_minwidth_other);
	tcase_add_test(tc, test_reverse);
	tcase_add_test(tc, test_flamechart);
	tcase_add_test(tc, test_prune_same_graph);
	tcase_add_test(tc, test_prune_unsorted);
	tcase_add_test(tc, test_svg_deterministic_and_escaped);
	tcase_add_test(tc, test_differential);
	tcase_add_test(tc, test_diff_union_layout);
	tcase_add_test(tc, test_diff_union_shape);
	tcase_add_test(tc, test_diff_svg);
	tcase_add_test(tc, test_diff_color_self_total);
	tcase_add_test(tc, test_diff_noise);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(flamegraph_suite)
