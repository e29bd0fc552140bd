/* check_flamegraph.c: the flame graph layout on made-up profiles (name
 * order, exact offsets and widths, "(other)" for narrow frames in pixels
 * and percent, reversed stacks, flame charts from kept samples), pruned
 * folded reading against a whole read, and the SVG writer (determinism,
 * escaping of names, differential colours, errors). */
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
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(flamegraph_suite)
