/* check_profile.c: the profile model (interning, the stack trie, lazy
 * totals, children order, kept samples), folded stacks in and out, and the
 * perf script reader against stackcollapse-perf.pl's outputs in the peer
 * data, and identity as data: threads on process frames and states on
 * off-CPU leaves, checked against perf script on real recordings. */
#define _GNU_SOURCE /* fmemopen, open_memstream */
#include <perfan/perfan.h>

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static perfan_profile *new_profile(int keep)
{
	struct perfan_profile_opts o =
		PERFAN_OPTS_INIT(struct perfan_profile_opts);
	o.keep_samples = keep;
	perfan_profile *p = NULL;
	ck_assert_int_eq(perfan_profile_new(&p, &o), 0);
	ck_assert_ptr_nonnull(p);
	return p;
}

static perfan_frame_id frame(perfan_profile *p, const char *name,
			     const char *module, uint32_t kind)
{
	perfan_frame_id id;
	ck_assert_int_eq(
		perfan_profile_frame(p, &id, name, module, NULL, 0, kind), 0);
	return id;
}

/* The whole of a file, or NULL. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);
	char tmp[65536];
	size_t k;
	while ((k = fread(tmp, 1, sizeof(tmp), f)) > 0)
		fwrite(tmp, 1, k, m);
	fclose(f);
	fclose(m);
	if (len)
		*len = n;
	return buf;
}

/* perfan_folded_write of P into a string. */
static char *folded(const perfan_profile *p,
		    const struct perfan_folded_write_opts *o)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);
	ck_assert_int_eq(perfan_folded_write(p, m, o), 0);
	fclose(m);
	return buf;
}

/* Read TEXT as folded stacks into a new profile. */
static int read_folded_text(perfan_profile *p, const char *text,
			    const struct perfan_folded_read_opts *o)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	ck_assert_ptr_nonnull(f);
	int rc = perfan_folded_read(p, f, "t.folded", NULL, o);
	fclose(f);
	return rc;
}

/* ---- interning -------------------------------------------------------- */

START_TEST(test_frames_interned)
{
	perfan_profile *p = new_profile(0);
	char name[16] = "main";
	perfan_frame_id a = frame(p, name, "prog", PERFAN_FRAME_NATIVE);
	strcpy(name, "xxxx"); /* the profile keeps its own copy */
	ck_assert_uint_eq(frame(p, "main", "prog", PERFAN_FRAME_NATIVE), a);
	ck_assert_uint_ne(frame(p, "main", NULL, PERFAN_FRAME_NATIVE), a);
	ck_assert_uint_ne(frame(p, "main", "", PERFAN_FRAME_NATIVE), a);
	ck_assert_uint_ne(frame(p, "main", "prog", PERFAN_FRAME_INLINED), a);
	perfan_frame_id f1, f2;
	ck_assert_int_eq(perfan_profile_frame(p, &f1, "main", "prog", "a.c", 3,
					      PERFAN_FRAME_NATIVE),
			 0);
	ck_assert_int_eq(perfan_profile_frame(p, &f2, "main", "prog", "a.c", 4,
					      PERFAN_FRAME_NATIVE),
			 0);
	ck_assert_uint_ne(f1, f2);
	ck_assert_uint_ne(f1, a);
	ck_assert_uint_eq(perfan_profile_nr_frames(p), 6);

	const struct perfan_frame *f = perfan_profile_frame_get(p, f1);
	ck_assert_str_eq(f->name, "main");
	ck_assert_str_eq(f->module, "prog");
	ck_assert_str_eq(f->file, "a.c");
	ck_assert_uint_eq(f->line, 3);
	/* interned strings: equal names share their storage */
	ck_assert_ptr_eq(f->name, perfan_profile_frame_get(p, a)->name);
	ck_assert_ptr_null(perfan_profile_frame_get(p, 999));

	/* a frame's pointer outlives later interning */
	for (int i = 0; i < 20000; i++) {
		char n[32];
		snprintf(n, sizeof(n), "f%d", i);
		frame(p, n, NULL, PERFAN_FRAME_NATIVE);
	}
	ck_assert_str_eq(f->name, "main");
	ck_assert_ptr_eq(perfan_profile_frame_get(p, f1), f);

	perfan_frame_id bad;
	ck_assert_int_eq(perfan_profile_frame(p, &bad, NULL, NULL, NULL, 0, 0),
			 PERFAN_EINVAL);
	ck_assert_int_eq(perfan_profile_frame(p, &bad, "x", NULL, NULL, 0, 99),
			 PERFAN_EINVAL);
	perfan_profile_free(p);
	perfan_profile_free(NULL);
}
END_TEST

START_TEST(test_columns)
{
	perfan_profile *p = new_profile(0);
	ck_assert_uint_eq(perfan_profile_nr_columns(p), 0);
	ck_assert_int_eq(perfan_profile_add_column(p, "cycles", "samples"), 0);
	ck_assert_int_eq(perfan_profile_add_column(p, "cycles", "period"), 1);
	ck_assert_int_eq(perfan_profile_add_column(p, "cycles", "samples"), 0);
	ck_assert_int_eq(perfan_profile_add_column(p, "instructions", NULL), 2);
	ck_assert_uint_eq(perfan_profile_nr_columns(p), 3);
	ck_assert_str_eq(perfan_profile_column_name(p, 1), "cycles");
	ck_assert_str_eq(perfan_profile_column_unit(p, 1), "period");
	ck_assert_str_eq(perfan_profile_column_unit(p, 2), "samples");
	ck_assert_ptr_null(perfan_profile_column_name(p, 3));
	ck_assert_int_eq(perfan_profile_add_column(p, NULL, NULL),
			 PERFAN_EINVAL);
	perfan_profile_free(p);
}
END_TEST

/* ---- the trie ----------------------------------------------------------- */

START_TEST(test_trie_and_totals)
{
	perfan_profile *p = new_profile(0);
	int c0 = perfan_profile_add_column(p, "cpu-clock", "samples");
	int c1 = perfan_profile_add_column(p, "cpu-clock", "period");
	perfan_frame_id m = frame(p, "main", NULL, 0);
	perfan_frame_id a = frame(p, "a", NULL, 0);
	perfan_frame_id b = frame(p, "b", NULL, 0);
	perfan_node_id leaf1, leaf2, leaf3;
	perfan_frame_id s1[] = {m, a, b};
	perfan_frame_id s2[] = {m, a};
	perfan_frame_id s3[] = {m, b};
	ck_assert_int_eq(perfan_profile_add(p, s1, 3, c0, 2, NULL, &leaf1), 0);
	ck_assert_int_eq(perfan_profile_add(p, s2, 2, c0, 3, NULL, &leaf2), 0);
	ck_assert_int_eq(perfan_profile_add(p, s3, 2, c1, 1000, NULL, &leaf3),
			 0);
	ck_assert_int_eq(perfan_profile_add(p, s1, 3, c0, 5, NULL, NULL), 0);
	/* root, main, main;a, main;a;b, main;b */
	ck_assert_uint_eq(perfan_profile_nr_nodes(p), 5);
	ck_assert_uint_eq(perfan_profile_node_depth(p, leaf1), 3);
	ck_assert_uint_eq(perfan_profile_node_frame(p, leaf1), b);
	ck_assert_uint_eq(perfan_profile_node_parent(p, leaf1), leaf2);
	perfan_node_id mn = perfan_profile_node_parent(p, leaf2);
	ck_assert_uint_eq(perfan_profile_node_parent(p, mn), PERFAN_ROOT_NODE);
	ck_assert_uint_eq(perfan_profile_node_parent(p, leaf3), mn);
	ck_assert_uint_eq(perfan_profile_node_depth(p, PERFAN_ROOT_NODE), 0);

	ck_assert_uint_eq(perfan_profile_node_self(p, leaf1, c0), 7);
	ck_assert_uint_eq(perfan_profile_node_self(p, leaf2, c0), 3);
	ck_assert_uint_eq(perfan_profile_node_self(p, mn, c0), 0);
	ck_assert_uint_eq(perfan_profile_node_total(p, leaf2, c0), 10);
	ck_assert_uint_eq(perfan_profile_node_total(p, mn, c0), 10);
	ck_assert_uint_eq(perfan_profile_node_total(p, mn, c1), 1000);
	ck_assert_uint_eq(perfan_profile_total(p, c0), 10);
	ck_assert_uint_eq(perfan_profile_total(p, c1), 1000);

	/* totals follow later adds */
	ck_assert_int_eq(perfan_profile_add(p, s3, 2, c0, 1, NULL, NULL), 0);
	ck_assert_uint_eq(perfan_profile_total(p, c0), 11);
	ck_assert_uint_eq(perfan_profile_node_total(p, mn, c0), 11);
	/* an empty stack weighs on the root */
	ck_assert_int_eq(perfan_profile_add(p, NULL, 0, c0, 4, NULL, &leaf1),
			 0);
	ck_assert_uint_eq(leaf1, PERFAN_ROOT_NODE);
	ck_assert_uint_eq(perfan_profile_total(p, c0), 15);
	ck_assert_uint_eq(perfan_profile_node_self(p, PERFAN_ROOT_NODE, c0), 4);

	/* bad arguments change nothing */
	perfan_frame_id bad[] = {m, 12345};
	ck_assert_int_eq(perfan_profile_add(p, bad, 2, c0, 1, NULL, NULL),
			 PERFAN_EINVAL);
	ck_assert_int_eq(perfan_profile_add(p, s1, 3, 7, 1, NULL, NULL),
			 PERFAN_EINVAL);
	ck_assert_uint_eq(perfan_profile_nr_nodes(p), 5);
	ck_assert_uint_eq(perfan_profile_total(p, c0), 15);
	/* out of range reads are zero */
	ck_assert_uint_eq(perfan_profile_node_self(p, 99, c0), 0);
	ck_assert_uint_eq(perfan_profile_node_total(p, 1, 9), 0);

	/* weights saturate instead of wrapping */
	ck_assert_int_eq(
		perfan_profile_add(p, s2, 2, c1, UINT64_MAX, NULL, NULL), 0);
	ck_assert_uint_eq(perfan_profile_total(p, c1), UINT64_MAX);
	perfan_profile_free(p);
}
END_TEST

START_TEST(test_children_sorted)
{
	perfan_profile *p = new_profile(0);
	int col = perfan_profile_add_column(p, "x", NULL);
	const char *names[] = {"zeta",  "alpha", "mid",
			       "alpha", "Beta",  "alpha"};
	const char *mods[] = {NULL, "libz", NULL, "liba", NULL, NULL};
	perfan_frame_id root = frame(p, "root", NULL, 0);
	for (int i = 0; i < 6; i++) {
		perfan_frame_id st[] = {root, frame(p, names[i], mods[i], 0)};
		ck_assert_int_eq(
			perfan_profile_add(p, st, 2, col, 1, NULL, NULL), 0);
	}
	const perfan_node_id *kids;
	ck_assert_uint_eq(
		perfan_profile_node_children(p, PERFAN_ROOT_NODE, &kids), 1);
	perfan_node_id r = kids[0];
	size_t n = perfan_profile_node_children(p, r, &kids);
	ck_assert_uint_eq(n, 6);
	/* by name (bytes: upper case first), then module (none first) */
	const char *want_n[] = {"Beta",  "alpha", "alpha",
				"alpha", "mid",   "zeta"};
	const char *want_m[] = {NULL, NULL, "liba", "libz", NULL, NULL};
	for (size_t i = 0; i < n; i++) {
		const struct perfan_frame *f = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, kids[i]));
		ck_assert_str_eq(f->name, want_n[i]);
		if (want_m[i])
			ck_assert_str_eq(f->module, want_m[i]);
		else
			ck_assert_ptr_null(f->module);
		ck_assert_uint_eq(perfan_profile_node_parent(p, kids[i]), r);
	}
	/* a new child shows up in its place */
	perfan_frame_id st[] = {root, frame(p, "beta", NULL, 0)};
	ck_assert_int_eq(perfan_profile_add(p, st, 2, col, 1, NULL, NULL), 0);
	n = perfan_profile_node_children(p, r, &kids);
	ck_assert_uint_eq(n, 7);
	ck_assert_str_eq(perfan_profile_frame_get(
				 p, perfan_profile_node_frame(p, kids[4]))
				 ->name,
			 "beta");
	ck_assert_uint_eq(perfan_profile_node_children(p, kids[0], &kids), 0);
	perfan_profile_free(p);
}
END_TEST

/* Families beyond the sibling-list size are hashed: lookups must find the
 * same nodes before and after, in any order of adds. */
START_TEST(test_large_families)
{
	perfan_profile *p = new_profile(0);
	int col = perfan_profile_add_column(p, "x", NULL);
	enum { N = 3000 };
	static perfan_frame_id fr[N];
	for (int i = 0; i < N; i++) {
		char n[16];
		snprintf(n, sizeof(n), "f%04d", i);
		fr[i] = frame(p, n, NULL, 0);
	}
	for (int pass = 0; pass < 3; pass++) {
		for (int i = 0; i < N; i++) {
			int k = pass == 1 ? N - 1 - i : (i * 7919) % N;
			perfan_frame_id st[] = {fr[0], fr[k], fr[(k + 1) % N]};
			ck_assert_int_eq(perfan_profile_add(p, st, 3, col, 1,
							    NULL, NULL),
					 0);
		}
	}
	/* root, fr[0], N children of it, one grandchild each */
	ck_assert_uint_eq(perfan_profile_nr_nodes(p), 2 + 2 * N);
	ck_assert_uint_eq(perfan_profile_total(p, col), 3 * N);
	const perfan_node_id *kids;
	perfan_profile_node_children(p, PERFAN_ROOT_NODE, &kids);
	perfan_node_id top = kids[0];
	ck_assert_uint_eq(perfan_profile_node_children(p, top, &kids), N);
	for (int i = 0; i < N; i++) {
		ck_assert_uint_eq(perfan_profile_node_frame(p, kids[i]), fr[i]);
		ck_assert_uint_eq(perfan_profile_node_total(p, kids[i], col),
				  3);
	}
	perfan_profile_free(p);
}
END_TEST

START_TEST(test_keep_samples)
{
	perfan_profile *p = new_profile(1);
	int col = perfan_profile_add_column(p, "x", NULL);
	perfan_frame_id st[] = {frame(p, "a", NULL, 0), frame(p, "b", NULL, 0)};
	struct perfan_sample_meta m = {
		.time = 42, .pid = 1, .tid = 2, .cpu = 3};
	perfan_node_id leaf;
	ck_assert_int_eq(perfan_profile_add(p, st, 2, col, 5, &m, &leaf), 0);
	ck_assert_int_eq(perfan_profile_add(p, st, 1, col, 6, NULL, NULL), 0);
	ck_assert_uint_eq(perfan_profile_nr_samples(p), 2);
	const struct perfan_profile_sample *s = perfan_profile_sample_get(p, 0);
	ck_assert_uint_eq(s->leaf, leaf);
	ck_assert_uint_eq(s->weight, 5);
	ck_assert_uint_eq(s->meta.time, 42);
	ck_assert_int_eq(s->meta.tid, 2);
	ck_assert_int_eq(s->meta.cpu, 3);
	s = perfan_profile_sample_get(p, 1);
	ck_assert_uint_eq(s->leaf, perfan_profile_node_parent(p, leaf));
	ck_assert_int_eq(s->meta.pid, -1);
	ck_assert_ptr_null(perfan_profile_sample_get(p, 2));
	perfan_profile_free(p);

	p = new_profile(0);
	col = perfan_profile_add_column(p, "x", NULL);
	st[0] = frame(p, "a", NULL, 0);
	ck_assert_int_eq(perfan_profile_add(p, st, 1, col, 5, &m, NULL), 0);
	ck_assert_uint_eq(perfan_profile_nr_samples(p), 0);
	perfan_profile_free(p);
}
END_TEST

/* ---- folded ------------------------------------------------------------- */

START_TEST(test_folded_tolerant)
{
	perfan_profile *p = new_profile(0);
	ck_assert_int_eq(read_folded_text(p,
					  "b;c 2\r\n"
					  "\n"
					  "a;b 3  \n"
					  "   \t\n"
					  "b;c\t5\n"
					  "a 1\n"
					  "sp ace;x 4\n"
					  "a;;b 1",
					  NULL),
			 0);
	char *out = folded(p, NULL);
	ck_assert_str_eq(out, "a 1\na;;b 1\na;b 3\nb;c 7\nsp ace;x 4\n");
	free(out);
	ck_assert_str_eq(perfan_profile_column_name(p, 0), "samples");
	ck_assert_str_eq(perfan_profile_column_unit(p, 0), "samples");
	ck_assert_uint_eq(perfan_profile_total(p, 0), 16);
	perfan_profile_free(p);
	/* one blank parts stack and count: more belong to the last frame,
	 * as flamegraph.pl reads them */
	p = new_profile(0);
	ck_assert_int_eq(read_folded_text(p, "a;  3\n", NULL), 0);
	out = folded(p, NULL);
	ck_assert_str_eq(out, "a;  3\n");
	free(out);
	perfan_profile_free(p);
}
END_TEST

START_TEST(test_folded_errors)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{"a;b 1\na;b\n", "t.folded:2: "},
		{"a;b 1x\n", "t.folded:1: "},
		{"a;b 1\n\nx;y 1.5\n", "t.folded:3: "},
		{" 7\n", "t.folded:1: no stack"},
		{"a 99999999999999999999999\n",
		 "t.folded:1: count larger than 2^64-1"},
		{"a;b12\n", "t.folded:1: "},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		perfan_profile *p = new_profile(0);
		int rc = read_folded_text(p, cases[i].text, NULL);
		ck_assert_msg(rc == PERFAN_EFORMAT, "case %zu: rc %d", i, rc);
		ck_assert_msg(strstr(perfan_error_last(), cases[i].msg),
			      "case %zu: '%s' lacks '%s'", i,
			      perfan_error_last(), cases[i].msg);
		perfan_profile_free(p);
	}
	/* the lines before a bad one are kept */
	perfan_profile *p = new_profile(0);
	ck_assert_int_eq(read_folded_text(p, "a;b 1\nc 2\nbad\n", NULL),
			 PERFAN_EFORMAT);
	ck_assert_uint_eq(perfan_profile_total(p, 0), 3);
	ck_assert_int_eq(perfan_folded_read_path(p, "/nonexistent/x", NULL,
						 NULL),
			 PERFAN_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "/nonexistent/x"));
	perfan_profile_free(p);
}
END_TEST

START_TEST(test_folded_kinds)
{
	struct perfan_folded_read_opts ro =
		PERFAN_OPTS_INIT(struct perfan_folded_read_opts);
	ro.process_root = 1;
	ro.annotations = 1;
	perfan_profile *p = new_profile(0);
	ck_assert_int_eq(read_folded_text(p,
					  "java-1;main;work_[j];copy_[k] 2\n"
					  "java-2;main;work_[j];inl_[i] 3\n"
					  "java-1;main;x_[q] 1\n",
					  &ro),
			 0);
	const perfan_node_id *kids;
	ck_assert_uint_eq(
		perfan_profile_node_children(p, PERFAN_ROOT_NODE, &kids), 2);
	ck_assert_uint_eq(perfan_profile_frame_get(
				  p, perfan_profile_node_frame(p, kids[0]))
				  ->kind,
			  PERFAN_FRAME_PROCESS);
	/* plain: suffixes gone, the kinds kept */
	char *out = folded(p, NULL);
	ck_assert_str_eq(out, "java-1;main;work;copy 2\n"
			      "java-1;main;x_[q] 1\n"
			      "java-2;main;work;inl 3\n");
	free(out);
	/* annotated again, and without the process: lines merge */
	struct perfan_folded_write_opts wo =
		PERFAN_OPTS_INIT(struct perfan_folded_write_opts);
	wo.annotate = PERFAN_FOLDED_KERNEL | PERFAN_FOLDED_JIT |
		      PERFAN_FOLDED_INLINED;
	wo.no_process = 1;
	out = folded(p, &wo);
	ck_assert_str_eq(out, "main;work_[j];copy_[k] 2\n"
			      "main;work_[j];inl_[i] 3\n"
			      "main;x_[q] 1\n");
	free(out);
	wo.annotate = PERFAN_FOLDED_KERNEL;
	wo.no_process = 1;
	out = folded(p, &wo);
	ck_assert_str_eq(out, "main;work;copy_[k] 2\n"
			      "main;work;inl 3\n"
			      "main;x_[q] 1\n");
	free(out);
	/* a column the profile lacks */
	wo.column = 3;
	FILE *null = fopen("/dev/null", "w");
	ck_assert_int_eq(perfan_folded_write(p, null, &wo), PERFAN_EINVAL);
	fclose(null);
	perfan_profile_free(p);
}
END_TEST

/* Output order is byte order of the whole stack text, also where a name is
 * a prefix of its sibling's ("f1;x" after "f10"), and frames whose text is
 * the same (other module, other kind) make one line. */
START_TEST(test_folded_order_and_merge)
{
	perfan_profile *p = new_profile(0);
	int col = perfan_profile_add_column(p, "x", NULL);
	perfan_frame_id r = frame(p, "r", NULL, 0);
	perfan_frame_id f1 = frame(p, "f1", NULL, 0);
	perfan_frame_id f1m = frame(p, "f1", "lib", 0);
	perfan_frame_id f10 = frame(p, "f10", NULL, 0);
	perfan_frame_id fb = frame(p, "f1!", NULL, 0);
	perfan_frame_id x = frame(p, "x", NULL, 0);
	perfan_frame_id xm = frame(p, "x", "m", PERFAN_FRAME_KERNEL);
	perfan_frame_id stacks[][3] = {
		{r, f1, x}, {r, f10, x}, {r, fb, x},  {r, f1m, xm},
		{r, f1, 0}, {r, f1m, 0}, {r, f10, 0},
	};
	size_t lens[] = {3, 3, 3, 3, 2, 2, 2};
	for (size_t i = 0; i < 7; i++)
		ck_assert_int_eq(perfan_profile_add(p, stacks[i], lens[i], col,
						    i + 1, NULL, NULL),
				 0);
	char *out = folded(p, NULL);
	ck_assert_str_eq(out, "r;f1 11\n"
			      "r;f1!;x 3\n"
			      "r;f10 7\n"
			      "r;f10;x 2\n"
			      "r;f1;x 5\n");
	free(out);
	/* the same through sorting whole lines (a name with ';') */
	frame(p, "semi;colon", NULL, 0);
	out = folded(p, NULL);
	ck_assert_str_eq(out, "r;f1 11\n"
			      "r;f1!;x 3\n"
			      "r;f10 7\n"
			      "r;f10;x 2\n"
			      "r;f1;x 5\n");
	free(out);
	perfan_profile_free(p);
}
END_TEST

/* Every stackcollapse-perf.pl output in the peer data reads and writes
 * back byte for byte: they are sorted as perfan sorts. */
START_TEST(test_folded_round_trip_peer)
{
	TU_REQUIRE_PEERDATA("perf-script/results-laststack");
	const char *dir = tu_peerdata("perf-script/results-laststack");
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d))) {
		if (!strstr(e->d_name, ".txt"))
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		size_t len;
		char *want = slurp(path, &len);
		ck_assert_ptr_nonnull(want);
		perfan_profile *p = new_profile(0);
		ck_assert_msg(perfan_folded_read_path(p, path, "x", NULL) == 0,
			      "%s: %s", path, perfan_error_last());
		char *got = folded(p, NULL);
		ck_assert_msg(!strcmp(got, want), "%s does not round-trip",
			      e->d_name);
		free(got);
		free(want);
		perfan_profile_free(p);
		n++;
	}
	closedir(d);
	ck_assert_int_eq(n, 78);
}
END_TEST

/* ---- perf script ------------------------------------------------------------ */

static const char *opt_names[] = {"pid", "tid", "kernel",
				  "jit", "all", "addrs"};

/* perfan_script_read with stackcollapse-perf.pl's options and
 * PERFAN_SCRIPT_COMPAT_FLAMEGRAPH gives its outputs, all 78 cases. */
START_TEST(test_script_compat_peer)
{
	TU_REQUIRE_PEERDATA("perf-script/results-laststack");
	const char *dir = tu_peerdata("perf-script");
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	struct dirent *e;
	int n = 0, bad = 0;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < 5 || strcmp(e->d_name + l - 4, ".txt"))
			continue;
		for (size_t k = 0; k < 6; k++) {
			char in[4096], res[4096];
			snprintf(in, sizeof(in), "%s/%s", dir, e->d_name);
			snprintf(res, sizeof(res),
				 "%s/results-laststack/%.*s-collapsed-%s.txt",
				 dir, (int)(l - 4), e->d_name, opt_names[k]);
			struct perfan_script_opts so =
				PERFAN_OPTS_INIT(struct perfan_script_opts);
			so.pid = k == 0;
			so.tid = k == 1;
			so.kernel = k == 2 || k == 4;
			so.jit = k == 3 || k == 4;
			so.addrs = k == 5;
			so.compat = PERFAN_SCRIPT_COMPAT_FLAMEGRAPH;
			perfan_profile *p = new_profile(0);
			struct perfan_script_stats st;
			ck_assert_int_eq(
				perfan_script_read_path(p, in, &so, &st), 0);
			struct perfan_folded_write_opts wo = PERFAN_OPTS_INIT(
				struct perfan_folded_write_opts);
			wo.column = st.column < 0 ? 0 : (size_t)st.column;
			char *got = folded(p, &wo);
			char *want = slurp(res, NULL);
			ck_assert_ptr_nonnull(want);
			if (strcmp(got, want)) {
				printf("FAIL: %s --%s\n", e->d_name,
				       opt_names[k]);
				bad++;
			}
			free(got);
			free(want);
			perfan_profile_free(p);
			n++;
		}
	}
	closedir(d);
	ck_assert_int_eq(n, 78);
	ck_assert_int_eq(bad, 0);
}
END_TEST

static int read_script_text(perfan_profile *p, const char *text,
			    const struct perfan_script_opts *o,
			    struct perfan_script_stats *st)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	ck_assert_ptr_nonnull(f);
	int rc = perfan_script_read(p, f, "t.script", o, st);
	fclose(f);
	return rc;
}

static int nwarn;
static void count_warn(enum perfan_log_level l, const char *m, void *pl)
{
	(void)l;
	(void)m;
	(void)pl;
	nwarn++;
}

START_TEST(test_script_forms)
{
	/* call chains, a period, a second event, CRLF, no blank line at the
	 * end */
	static const char text[] =
		"# comment\n"
		"prog 10/11 [000] 1.000001:     250 cpu-clock: \n"
		"\t 11cc hot+0x2c (/bin/prog)\n"
		"\t 1080 main+0x10 (/bin/prog)\n"
		"\n"
		"prog 10/12 [001] 1.000002:     7 page-faults: \n"
		"\t 1080 main+0x10 (/bin/prog)\n"
		"\n"
		"my prog 10/11 [000] 1.000003:     250 cpu-clock: \r\n"
		"\tffffffff81000000 schedule ([kernel.kallsyms])\r\n"
		"\t 1080 main+0x10 (/bin/prog)\r\n"
		"\r\n"
		"what is this\n"
		"prog 10/11 [000] 1.000004:     250 cpu-clock: \n"
		"\t 11cc hot+0x2c (/bin/prog)\n"
		"\t 1080 main+0x10 (/bin/prog)\n";
	perfan_profile *p = new_profile(1);
	struct perfan_script_opts so =
		PERFAN_OPTS_INIT(struct perfan_script_opts);
	so.tid = 1;
	so.kernel = 1;
	so.log = count_warn;
	struct perfan_script_stats st;
	nwarn = 0;
	ck_assert_int_eq(read_script_text(p, text, &so, &st), 0);
	ck_assert_uint_eq(st.samples, 3);
	ck_assert_uint_eq(st.samples_filtered, 1);
	ck_assert_uint_eq(st.lines_unrecognized, 1);
	ck_assert_int_eq(nwarn, 2); /* the other event, the odd line */
	ck_assert_int_eq(st.column, 0);
	ck_assert_str_eq(perfan_profile_column_name(p, 0), "cpu-clock");
	ck_assert_str_eq(perfan_profile_column_unit(p, 0), "period");
	char *out = folded(p, NULL);
	ck_assert_str_eq(out, "my_prog-10/11;main;schedule_[k] 250\n"
			      "prog-10/11;main;hot 500\n");
	free(out);
	/* the samples, in order, with what the headers say */
	ck_assert_uint_eq(perfan_profile_nr_samples(p), 3);
	const struct perfan_profile_sample *s = perfan_profile_sample_get(p, 1);
	ck_assert_uint_eq(s->meta.time, 1000003000ull);
	ck_assert_int_eq(s->meta.pid, 10);
	ck_assert_int_eq(s->meta.tid, 11);
	ck_assert_int_eq(s->meta.cpu, 0);
	ck_assert_uint_eq(s->weight, 250);
	perfan_profile_free(p);

	/* the other event, counted per sample */
	p = new_profile(0);
	so = (struct perfan_script_opts)PERFAN_OPTS_INIT(
		struct perfan_script_opts);
	so.event = "page-faults";
	so.count_samples = 1;
	ck_assert_int_eq(read_script_text(p, text, &so, &st), 0);
	ck_assert_uint_eq(st.samples, 1);
	ck_assert_str_eq(perfan_profile_column_unit(p, 0), "samples");
	out = folded(p, NULL);
	ck_assert_str_eq(out, "prog;main 1\n");
	free(out);
	perfan_profile_free(p);
}
END_TEST

/* Without call chains perf script prints one line per sample. */
START_TEST(test_script_one_line)
{
	static const char text[] =
		"prog 11 [000] 1.000001:     250 cpu-clock:  11cc hot+0x2c (/bin/prog)\n"
		"prog 11 [000] 1.000002:     250 cpu-clock:  11cc hot+0x2d (/bin/prog)\n"
		"prog 11 [000] 1.000003:     250 cpu-clock:  ffffffff81000000 schedule ([kernel.kallsyms])\n"
		"prog 11 [000] 1.000004:       1 faults:  1080 main+0x10 (/bin/prog)\n"
		"sh 12 [000] 1.000005:     250 cpu-clock:  7f00 [unknown] ([unknown])\n";
	perfan_profile *p = new_profile(0);
	struct perfan_script_stats st;
	ck_assert_int_eq(read_script_text(p, text, NULL, &st), 0);
	ck_assert_uint_eq(st.samples, 4);
	ck_assert_uint_eq(st.samples_filtered, 1);
	char *out = folded(p, NULL);
	ck_assert_str_eq(out,
			 "prog;hot 500\nprog;schedule 250\nsh;[unknown] 250\n");
	free(out);
	perfan_profile_free(p);

	/* as perf prints it: the command padded on the left */
	static const char padded[] =
		"            prog  7010   486.913945:    1001001 cpu-clock:      5611c326d1cc hot_a+0x2c (/x/prog)\n"
		"            prog  7010   486.914944:    1001001 cpu-clock:      5611c326d1c9 hot_a+0x29 (/x/prog)\n"
		"     V8 Worker  7011   486.915944:    1001001 cpu-clock:  ffffffff81000000 schedule ([kernel.kallsyms])\n";
	p = new_profile(0);
	struct perfan_script_opts so =
		PERFAN_OPTS_INIT(struct perfan_script_opts);
	so.pid = 1;
	so.kernel = 1;
	ck_assert_int_eq(read_script_text(p, padded, &so, &st), 0);
	ck_assert_uint_eq(st.samples, 3);
	out = folded(p, NULL);
	ck_assert_str_eq(out, "V8_Worker-?;schedule_[k] 1001001\n"
			      "prog-?;hot_a 2002002\n");
	free(out);
	perfan_profile_free(p);
}
END_TEST

/* One sample per frame line: "prog;NAME count" per name, in byte order. */
static char *script_names(const char *frames, int compat)
{
	char text[8192];
	size_t w = 0;
	for (const char *l = frames; *l;) {
		const char *nl = strchr(l, '\n');
		w += (size_t)snprintf(text + w, sizeof(text) - w,
				      "prog 1/1 [000] 1.000001: 1 cpu-clock: \n"
				      "\t%.*s\n\n",
				      (int)(nl - l), l);
		l = nl + 1;
	}
	ck_assert_uint_lt(w, sizeof(text));
	perfan_profile *p = new_profile(0);
	struct perfan_script_opts so =
		PERFAN_OPTS_INIT(struct perfan_script_opts);
	so.kernel = so.jit = 1;
	so.compat = compat;
	ck_assert_int_eq(read_script_text(p, text, &so, NULL), 0);
	char *out = folded(p, NULL);
	perfan_profile_free(p);
	return out;
}

/* Names by inferno's rules (collapse/perf.rs: tidy_generic, is_kernel, the
 * jitted-*.so test; its test_tidy_generic cases), and byte for byte as
 * stackcollapse-perf.pl with PERFAN_SCRIPT_COMPAT_FLAMEGRAPH. */
START_TEST(test_script_names)
{
	static const char frames[] =
		"1 go/build.(*importReader).readByte+0x1 (/bin/p)\n"
		"2 foo<Vec::<usize>>(Vec<usize>) (/bin/p)\n"
		"3 .run()V (/bin/p)\n"
		"4 base(BasicType) const (/bin/p)\n"
		"5 std::function<void (int, int)>::operator()(int, int) (/bin/p)\n"
		"6 {lambda(int, int)#2}::operator() (/bin/p)\n"
		"7 (anonymous namespace)::myBar() (/bin/p)\n"
		"8 [(foo)]::bar() (/bin/p)\n"
		"9 RegExp:[&<>\"'] (/tmp/perf-12.map)\n"
		"a _ZN3foo3barEi (/bin/p)\n"
		"b GcBox$LT$T$GT$::new::_$u7b$$u7b$closure$u7d$$u7d$::h0123456789abcdef+0x1f (/bin/p)\n"
		"c ext4_a ([ext4])\n"
		"d ext4_b (/lib/modules/6.1.0-18-amd64/kernel/fs/ext4/ext4.ko)\n"
		"e vm_a (/usr/lib/debug/boot/vmlinux-6.1.0-18-amd64)\n"
		"f vm_b (/lib/modules/4.3.0/build/vmlinux)\n"
		"10 vm_c (/opt/vmlinux-dir/lib.so)\n"
		"11 [unknown] ([unknown])\n"
		"12 py::f:/x.py (/tmp/jitted-10910-11.so)\n"
		"13 (p) (/bin/p)\n";
	char *got = script_names(frames, PERFAN_SCRIPT_COMPAT_NONE);
	ck_assert_str_eq(got,
			 "prog 1\n"
			 "prog;(anonymous namespace)::myBar 1\n"
			 "prog;.run 1\n"
			 "prog;GcBox<T>::new::{{closure}} 1\n"
			 "prog;RegExp:[&<>\"']_[j] 1\n"
			 "prog;[(foo)]::bar 1\n"
			 "prog;[unknown] 1\n"
			 "prog;base 1\n"
			 "prog;ext4_a_[k] 1\n"
			 "prog;ext4_b_[k] 1\n"
			 "prog;foo::bar 1\n"
			 "prog;foo<Vec::<usize>> 1\n"
			 "prog;go/build.(*importReader).readByte 1\n"
			 "prog;py::f:/x.py_[j] 1\n"
			 "prog;std::function<void (int, int)>::operator 1\n"
			 "prog;vm_a_[k] 1\n"
			 "prog;vm_b_[k] 1\n"
			 "prog;vm_c 1\n"
			 "prog;{lambda(int, int)#2}::operator 1\n");
	free(got);
	/* what stackcollapse-perf.pl --kernel --jit writes of the same text */
	got = script_names(frames, PERFAN_SCRIPT_COMPAT_FLAMEGRAPH);
	ck_assert_str_eq(
		got,
		"prog 2\n"
		"prog;.run 1\n"
		"prog;GcBox$LT$T$GT$::new::_$u7b$$u7b$closure$u7d$$u7d$::h0123456789abcdef 1\n"
		"prog;RegExp:[&<>]_[j] 1\n"
		"prog;[ 1\n"
		"prog;[unknown] 1\n"
		"prog;_ZN3foo3barEi 1\n"
		"prog;base 1\n"
		"prog;ext4_a_[k] 1\n"
		"prog;ext4_b 1\n"
		"prog;foo<Vec::<usize>> 1\n"
		"prog;go/build.(*importReader).readByte 1\n"
		"prog;py::f:/x.py 1\n"
		"prog;std::function<void  1\n"
		"prog;vm_a 1\n"
		"prog;vm_b_[k] 1\n"
		"prog;vm_c 1\n"
		"prog;{lambda 1\n");
	free(got);

	/* a compat that is none */
	perfan_profile *p = new_profile(0);
	struct perfan_script_opts so =
		PERFAN_OPTS_INIT(struct perfan_script_opts);
	so.compat = 7;
	ck_assert_int_eq(read_script_text(p, "p 1 [000] 1.0: 1 e:\n", &so,
					  NULL),
			 PERFAN_EINVAL);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "compat 7"));
	perfan_profile_free(p);
}
END_TEST

/* ---- identity as data (issue 33) --------------------------------------- */

/* A process frame is made from its thread, and keeps it: the name is the
 * data's, never the other way round. */
START_TEST(test_identity_model)
{
	perfan_profile *p = new_profile(0);
	perfan_frame_id a, b, c, d, e, x, t;
	ck_assert_int_eq(perfan_profile_process_frame(
				 p, &a, PERFAN_ROOT_PID_TID, "my comm", 10, 11),
			 0);
	const struct perfan_frame *f = perfan_profile_frame_get(p, a);
	ck_assert_str_eq(f->name, "my_comm-10/11");
	ck_assert_str_eq(f->comm, "my comm");
	ck_assert_uint_eq(f->kind, PERFAN_FRAME_PROCESS);
	ck_assert_uint_eq(f->root, PERFAN_ROOT_PID_TID);
	ck_assert_int_eq(f->pid, 10);
	ck_assert_int_eq(f->tid, 11);

	/* a comm that reads as a root is a comm; a comm root learns of
	 * each thread under it, a pid root keeps its pid */
	ck_assert_int_eq(perfan_profile_process_frame(p, &b, PERFAN_ROOT_COMM,
						      "x-1/2", 5, 6),
			 0);
	ck_assert_int_eq(perfan_profile_process_frame(p, &c, PERFAN_ROOT_COMM,
						      "x-1/2", 5, 7),
			 0);
	ck_assert_uint_eq(b, c);
	f = perfan_profile_frame_get(p, b);
	ck_assert_str_eq(f->name, "x-1/2");
	ck_assert_str_eq(f->comm, "x-1/2");
	ck_assert_uint_eq(f->root, PERFAN_ROOT_COMM);
	ck_assert_int_eq(f->pid, 5);
	ck_assert_int_eq(f->tid, -1);
	ck_assert_int_eq(perfan_profile_process_frame(p, &d, PERFAN_ROOT_PID,
						      "w", 5, 6),
			 0);
	ck_assert_int_eq(perfan_profile_process_frame(p, &e, PERFAN_ROOT_PID,
						      "w", 5, 7),
			 0);
	ck_assert_uint_eq(d, e);
	ck_assert_int_eq(perfan_profile_frame_thread(p, d, 9, 9), 0);
	f = perfan_profile_frame_get(p, d);
	ck_assert_str_eq(f->name, "w-5");
	ck_assert_int_eq(f->pid, 5);
	ck_assert_int_eq(f->tid, -1);
	ck_assert_int_eq(perfan_profile_process_frame(p, &e, PERFAN_ROOT_PID,
						      "w", 8, 8),
			 0);
	ck_assert_uint_ne(d, e);

	/* a thread never named, a pid not known, a tid not known */
	ck_assert_int_eq(perfan_profile_process_frame(
				 p, &x, PERFAN_ROOT_PID_TID, NULL, -1, 42),
			 0);
	f = perfan_profile_frame_get(p, x);
	ck_assert_str_eq(f->name, ":42-?/42");
	ck_assert_str_eq(f->comm, ":42");
	ck_assert_int_eq(f->pid, -1);
	ck_assert_int_eq(f->tid, 42);
	ck_assert_int_eq(perfan_profile_process_frame(
				 p, &x, PERFAN_ROOT_PID_TID, "q", 3, -1),
			 0);
	f = perfan_profile_frame_get(p, x);
	ck_assert_str_eq(f->name, "q-3");
	ck_assert_uint_eq(f->root, PERFAN_ROOT_PID);
	ck_assert_int_eq(perfan_profile_process_frame(p, &x, 7, "q", 3, 3),
			 PERFAN_EINVAL);

	/* the same text with no thread behind it is another frame */
	t = frame(p, "x-1/2", NULL, PERFAN_FRAME_PROCESS);
	ck_assert_uint_ne(t, b);
	f = perfan_profile_frame_get(p, t);
	ck_assert_ptr_null(f->comm);
	ck_assert_uint_eq(f->root, PERFAN_ROOT_NONE);

	/* off-CPU leaves: the state is data; a leaf made by name has none */
	perfan_frame_id o1, o2, o3;
	ck_assert_int_eq(perfan_profile_offcpu_frame(p, &o1, PERFAN_OFFCPU_RUNQ,
						     "[off-cpu: R]"),
			 0);
	ck_assert_int_eq(perfan_profile_offcpu_frame(p, &o3, PERFAN_OFFCPU_RUNQ,
						     "[off-cpu: R]"),
			 0);
	ck_assert_uint_eq(o1, o3);
	o2 = frame(p, "[off-cpu: R]", NULL, PERFAN_FRAME_OFFCPU);
	ck_assert_uint_ne(o1, o2);
	ck_assert_uint_eq(perfan_profile_frame_get(p, o1)->state,
			  PERFAN_OFFCPU_RUNQ);
	ck_assert_uint_eq(perfan_profile_frame_get(p, o1)->kind,
			  PERFAN_FRAME_OFFCPU);
	ck_assert_uint_eq(perfan_profile_frame_get(p, o2)->state,
			  PERFAN_FRAME_NO_STATE);
	ck_assert_uint_eq(perfan_profile_frame_get(p, a)->state, 0);

	/* a merge and a copy keep all of it */
	int col = perfan_profile_add_column(p, "x", "samples");
	perfan_frame_id s1[] = {a, o1}, s2[] = {b, o2}, s3[] = {t};
	ck_assert_int_eq(perfan_profile_add(p, s1, 2, col, 1, NULL, NULL), 0);
	ck_assert_int_eq(perfan_profile_add(p, s2, 2, col, 1, NULL, NULL), 0);
	ck_assert_int_eq(perfan_profile_add(p, s3, 1, col, 1, NULL, NULL), 0);
	perfan_profile *m = new_profile(0);
	ck_assert_int_eq(perfan_profile_add_column(m, "x", "samples"), 0);
	ck_assert_int_eq(perfan_profile_merge(m, 0, p, col), 0);
	perfan_frame_id ids[] = {a, b, t, o1, o2};
	for (size_t i = 0; i < 5; i++) {
		perfan_frame_id cp;
		ck_assert_int_eq(perfan_profile_frame_copy(m, &cp, p, ids[i]),
				 0);
		const struct perfan_frame *want =
			perfan_profile_frame_get(p, ids[i]);
		const struct perfan_frame *got =
			perfan_profile_frame_get(m, cp);
		ck_assert_str_eq(got->name, want->name);
		ck_assert_uint_eq(got->kind, want->kind);
		ck_assert_uint_eq(got->root, want->root);
		ck_assert_uint_eq(got->state, want->state);
		ck_assert_int_eq(got->pid, want->pid);
		ck_assert_int_eq(got->tid, want->tid);
		if (want->comm)
			ck_assert_str_eq(got->comm, want->comm);
		else
			ck_assert_ptr_null(got->comm);
	}
	/* the merge interned each of the five before the copies */
	ck_assert_uint_eq(perfan_profile_nr_frames(m), 5);
	perfan_profile_free(m);
	perfan_profile_free(p);
}
END_TEST

struct thr {
	char comm[64];
	int32_t pid, tid;
	int seen;
};

/* The (comm, pid, tid) of every sample in perf script text made with
 * -F comm,pid,tid[,time],event: the rightmost PID/TID token, the comm
 * before it (spaces and all). Returns how many distinct ones. */
static size_t script_threads(const char *rel, struct thr *out, size_t max)
{
	size_t len, n = 0;
	char *text = slurp(tu_testdata(rel), &len);
	ck_assert_msg(text != NULL, "%s", rel);
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (strstr(line, "PERF_RECORD_"))
			continue;
		char *ids = NULL;
		for (char *s = line; *s; s++) {
			if (s > line && s[-1] != ' ')
				continue;
			int a = 0, b = 0;
			char *q = s;
			while (*q >= '0' && *q <= '9')
				q++, a++;
			if (!a || *q != '/')
				continue;
			q++;
			while (*q >= '0' && *q <= '9')
				q++, b++;
			if (b && (*q == ' ' || !*q))
				ids = s;
		}
		if (!ids)
			continue;
		char *c = line;
		while (*c == ' ')
			c++;
		char *ce = ids;
		while (ce > c && ce[-1] == ' ')
			ce--;
		struct thr t = {{0}, 0, 0, 0};
		snprintf(t.comm, sizeof(t.comm), "%.*s", (int)(ce - c), c);
		ck_assert_int_eq(sscanf(ids, "%d/%d", &t.pid, &t.tid), 2);
		size_t i = 0;
		while (i < n && (strcmp(out[i].comm, t.comm) ||
				 out[i].pid != t.pid || out[i].tid != t.tid))
			i++;
		if (i == n) {
			ck_assert_uint_lt(n, max);
			out[n++] = t;
		}
	}
	free(text);
	return n;
}

/* Fold REC (under testdata) with a root per thread; every root's comm,
 * pid and tid is one of perf script's (WANT), and each of those has a
 * root. */
static void check_roots(perfan_profile *p, struct thr *want, size_t nwant)
{
	size_t nroots = 0;
	const perfan_node_id *kids;
	size_t nk = perfan_profile_node_children(p, PERFAN_ROOT_NODE, &kids);
	for (size_t k = 0; k < nk; k++) {
		const struct perfan_frame *f = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, kids[k]));
		ck_assert_uint_eq(f->kind, PERFAN_FRAME_PROCESS);
		ck_assert_uint_eq(f->root, PERFAN_ROOT_PID_TID);
		ck_assert_ptr_nonnull(f->comm);
		size_t i = 0;
		while (i < nwant &&
		       (strcmp(want[i].comm, f->comm) ||
			want[i].pid != f->pid || want[i].tid != f->tid))
			i++;
		ck_assert_msg(i < nwant,
			      "root %s (%s %d/%d) not in perf script", f->name,
			      f->comm, f->pid, f->tid);
		want[i].seen = 1;
		nroots++;
	}
	for (size_t i = 0; i < nwant; i++)
		ck_assert_msg(want[i].seen, "no root for %s %d/%d",
			      want[i].comm, want[i].pid, want[i].tid);
	ck_assert_uint_eq(nroots, nwant);
}

static perfan_profile *fold_rec(const char *rel, perfan_perfdata **pd)
{
	ck_assert_msg(!perfan_perfdata_open(pd, tu_testdata(rel), NULL), "%s",
		      perfan_error_last());
	perfan_profile *p = new_profile(1);
	struct perfan_resolve_opts o = PERFAN_RESOLVE_OPTS_INIT;
	o.host = tu_host();
	o.root = PERFAN_ROOT_PID_TID;
	ck_assert_msg(!perfan_resolve_perfdata(p, *pd, &o, NULL), "%s",
		      perfan_error_last());
	return p;
}

/* Roots per thread of real recordings against perf script's comm, pid
 * and tid: threads, a fork, renames and an exec (multi-thread-fork), and
 * threads named "x-1/2" and "[off-cpu: R]" (lookalike), which report's
 * pid key gives as they are. */
START_TEST(test_identity_recordings)
{
	static const char *const recs[][2] = {
		{"multi-thread-fork/perf.data",
		 "multi-thread-fork/script-tasks.txt"},
		{"lookalike/perf.data", "lookalike/script-threads.txt"},
	};
	for (size_t r = 0; r < 2; r++) {
		struct thr want[32];
		size_t nwant = script_threads(recs[r][1], want, 32);
		ck_assert_uint_ge(nwant, 3);
		perfan_perfdata *pd;
		perfan_profile *p = fold_rec(recs[r][0], &pd);
		check_roots(p, want, nwant);
		/* every kept sample's root is its thread */
		for (size_t i = 0; i < perfan_profile_nr_samples(p); i++) {
			const struct perfan_profile_sample *s =
				perfan_profile_sample_get(p, i);
			perfan_node_id n = s->leaf;
			while (perfan_profile_node_parent(p, n) !=
			       PERFAN_ROOT_NODE)
				n = perfan_profile_node_parent(p, n);
			const struct perfan_frame *f = perfan_profile_frame_get(
				p, perfan_profile_node_frame(p, n));
			ck_assert_int_eq(f->pid, s->meta.pid);
			ck_assert_int_eq(f->tid, s->meta.tid);
		}
		if (r == 1) {
			/* report's comm and pid keys: the comm as the root
			 * shows it, the ids as data */
			struct perfan_report_opts o =
				PERFAN_OPTS_INIT(struct perfan_report_opts);
			o.sort = "pid";
			perfan_report *rep;
			ck_assert_int_eq(perfan_report_new(&rep, p, &o), 0);
			size_t found = 0;
			for (size_t c = 0; c < perfan_profile_nr_columns(p);
			     c++)
				for (size_t i = 0;
				     i < perfan_report_nr_rows(rep, c); i++) {
					const struct perfan_report_row *row =
						perfan_report_row(rep, c, i);
					if (!strcmp(row->comm, "x-1/2") ||
					    !strcmp(row->comm,
						    "[off-cpu:_R]")) {
						ck_assert_int_ne(row->tid,
								 row->pid);
						found++;
					} else {
						ck_assert_str_eq(row->comm,
								 "lookalike");
						ck_assert_int_eq(row->tid,
								 row->pid);
					}
				}
			ck_assert_uint_eq(found, 4); /* two events each */
			perfan_report_free(rep);
		}
		perfan_profile_free(p);
		perfan_perfdata_free(pd);
	}
}
END_TEST

/* The off-CPU view of lookalike: each leaf's state is data, named from
 * it; the thread named "[off-cpu: R]" is a root with that comm, not a
 * leaf. */
START_TEST(test_identity_offcpu)
{
	perfan_perfdata *pd;
	ck_assert(!perfan_perfdata_open(&pd, tu_testdata("lookalike/perf.data"),
					NULL));
	perfan_profile *p = new_profile(0);
	struct perfan_resolve_opts ro = PERFAN_RESOLVE_OPTS_INIT;
	ro.host = tu_host();
	ro.root = PERFAN_ROOT_PID_TID;
	struct perfan_offcpu_opts oo =
		PERFAN_OPTS_INIT(struct perfan_offcpu_opts);
	perfan_offcpu *oc = NULL;
	ck_assert_msg(!perfan_offcpu_profile(p, pd, &ro, PERFAN_VIEW_WALL, &oo,
					     &oc, NULL),
		      "%s", perfan_error_last());
	size_t leaves = 0, lookalike_root = 0;
	for (perfan_node_id n = 1; n < perfan_profile_nr_nodes(p); n++) {
		const struct perfan_frame *f = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, n));
		if (perfan_profile_node_parent(p, n) == PERFAN_ROOT_NODE) {
			ck_assert_uint_eq(f->kind, PERFAN_FRAME_PROCESS);
			lookalike_root += !strcmp(f->comm, "[off-cpu: R]");
			continue;
		}
		if (f->kind != PERFAN_FRAME_OFFCPU)
			continue;
		ck_assert_uint_lt(f->state, PERFAN_OFFCPU_NR_STATES);
		char want[64];
		snprintf(want, sizeof(want), "[off-cpu: %s]",
			 perfan_offcpu_state_name(f->state));
		ck_assert_str_eq(f->name, want);
		leaves++;
	}
	ck_assert_uint_eq(lookalike_root, 1);
	ck_assert_uint_gt(leaves, 2);
	perfan_offcpu_free(oc);
	perfan_profile_free(p);
	perfan_perfdata_free(pd);
}
END_TEST

static Suite *profile_suite(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("model");
	tcase_add_test(tc, test_frames_interned);
	tcase_add_test(tc, test_columns);
	tcase_add_test(tc, test_trie_and_totals);
	tcase_add_test(tc, test_children_sorted);
	tcase_add_test(tc, test_large_families);
	tcase_add_test(tc, test_keep_samples);
	suite_add_tcase(s, tc);
	tc = tcase_create("folded");
	tcase_add_test(tc, test_folded_tolerant);
	tcase_add_test(tc, test_folded_errors);
	tcase_add_test(tc, test_folded_kinds);
	tcase_add_test(tc, test_folded_order_and_merge);
	tcase_add_test(tc, test_folded_round_trip_peer);
	suite_add_tcase(s, tc);
	tc = tcase_create("script");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_script_compat_peer);
	tcase_add_test(tc, test_script_forms);
	tcase_add_test(tc, test_script_one_line);
	tcase_add_test(tc, test_script_names);
	suite_add_tcase(s, tc);
	tc = tcase_create("identity");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_identity_model);
	tcase_add_test(tc, test_identity_recordings);
	tcase_add_test(tc, test_identity_offcpu);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(profile_suite)
