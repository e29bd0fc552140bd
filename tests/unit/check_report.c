/* check_report.c: perfan_report on small made-up profiles (keys, recursion
 * counted once, inlined code, filters, limits, Amdahl bounds, call graphs,
 * text and JSON) and against perf report on every testdata recording:
 * self shares (report*.txt, --no-children) within 0.1 points and total
 * shares (report-children*.txt, --children) within 0.5 points for every
 * row above 0.5 %.
 *
 * The recordings are resolved "hermetically", as check_resolve does:
 * binaries only from testdata/<case>/ (found by build-id), no build-id
 * cache, kernel symbols from testdata/kallsyms, so that the tests pass on
 * machines whose system libraries differ from the recording machine's.
 * Hence:
 *  - Rows of modules testdata has (its binaries, the kernel) are compared
 *    per symbol. Rows of system libraries (libc, ld.so, libpython, ...) are
 *    compared per module: perf report --sort comm,dso
 *    (report-children-dso*.txt) against perfan's rows of that module.
 *  - DWARF stacks cannot be unwound past a frame of a library testdata
 *    lacks (its unwind tables are in that library). For DWARF recordings a
 *    row's total is compared only where perf's own stacks (script*.txt)
 *    show that row before the first such frame whenever they show it; the
 *    rows left out are named in the output. On the recording machine a
 *    second pass resolves with the system's files and compares every row
 *    (system libraries still per module, as perf names their inlined
 *    functions in ways no symbol table has).
 *  - perf 6.1 ignores --children for pipe-mode input (pipe/report-children
 *    *.txt have self shares only), so for pipe/ the total shares are summed
 *    from perf's own stacks in script.txt instead. */
#define _GNU_SOURCE
#include <math.h>
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

/* ---- made-up profiles -------------------------------------------------- */

struct fixture {
	perfan_profile *p;
	int col;
};

static perfan_frame_id fr(perfan_profile *p, const char *name,
			  const char *module, uint32_t kind)
{
	perfan_frame_id id;
	ck_assert_int_eq(
		perfan_profile_frame(p, &id, name, module, NULL, 0, kind), 0);
	return id;
}

/* Stacks, root first (total 11):
 *   a: main f f g   3   (f recursive; g in libc)
 *   a: main f h     2
 *   b: main g       5
 *   a: main k       1   (k a kernel function) */
static void made_up(struct fixture *fx, int root_pid)
{
	ck_assert_int_eq(perfan_profile_new(&fx->p, NULL), 0);
	perfan_profile *p = fx->p;
	fx->col = perfan_profile_add_column(p, "cpu-clock", "samples");
	ck_assert_int_ge(fx->col, 0);
	/* the roots as perf.data's fold makes them: threads a-10/11 and
	 * b-10/20 of one process, each with its comm and ids as data */
	enum perfan_process_root root = root_pid ? PERFAN_ROOT_PID_TID
						 : PERFAN_ROOT_COMM;
	perfan_frame_id a, b;
	ck_assert_int_eq(perfan_profile_process_frame(p, &a, root, "a", 10, 11),
			 0);
	ck_assert_int_eq(perfan_profile_process_frame(p, &b, root, "b", 10, 20),
			 0);
	ck_assert_str_eq(perfan_profile_frame_get(p, a)->name,
			 root_pid ? "a-10/11" : "a");
	perfan_frame_id main_ = fr(p, "main", "prog", PERFAN_FRAME_NATIVE);
	perfan_frame_id f = fr(p, "f", "prog", PERFAN_FRAME_NATIVE);
	perfan_frame_id g = fr(p, "g", "libc.so.6", PERFAN_FRAME_NATIVE);
	perfan_frame_id h = fr(p, "h", "prog", PERFAN_FRAME_NATIVE);
	perfan_frame_id k =
		fr(p, "k", "[kernel.kallsyms]", PERFAN_FRAME_KERNEL);
	perfan_frame_id s1[] = {a, main_, f, f, g};
	perfan_frame_id s2[] = {a, main_, f, h};
	perfan_frame_id s3[] = {b, main_, g};
	perfan_frame_id s4[] = {a, main_, k};
	ck_assert_int_eq(perfan_profile_add(p, s1, 5, fx->col, 3, NULL, NULL),
			 0);
	ck_assert_int_eq(perfan_profile_add(p, s2, 4, fx->col, 2, NULL, NULL),
			 0);
	ck_assert_int_eq(perfan_profile_add(p, s3, 3, fx->col, 5, NULL, NULL),
			 0);
	ck_assert_int_eq(perfan_profile_add(p, s4, 3, fx->col, 1, NULL, NULL),
			 0);
}

static perfan_report *report(perfan_profile *p, const char *sort,
			     int no_children)
{
	struct perfan_report_opts o =
		PERFAN_OPTS_INIT(struct perfan_report_opts);
	o.sort = sort;
	o.no_children = no_children;
	perfan_report *r;
	ck_assert_msg(perfan_report_new(&r, p, &o) == 0, "%s",
		      perfan_error_last());
	return r;
}

static void expect_row(perfan_report *r, size_t i, const char *comm,
		       const char *dso, const char *sym, uint64_t total,
		       uint64_t self)
{
	const struct perfan_report_row *row = perfan_report_row(r, 0, i);
	ck_assert_ptr_nonnull(row);
	if (comm)
		ck_assert_str_eq(row->comm, comm);
	else
		ck_assert_ptr_null(row->comm);
	if (dso)
		ck_assert_str_eq(row->dso, dso);
	else
		ck_assert_ptr_null(row->dso);
	if (sym)
		ck_assert_str_eq(row->sym, sym);
	else
		ck_assert_ptr_null(row->sym);
	ck_assert_uint_eq(row->total, total);
	ck_assert_uint_eq(row->self, self);
}

START_TEST(test_children_and_self)
{
	struct fixture fx;
	made_up(&fx, 0);
	perfan_report *r = report(fx.p, NULL, 0);
	ck_assert_uint_eq(perfan_report_nr_columns(r), 1);
	ck_assert_uint_eq(perfan_report_total(r, 0), 11);
	ck_assert_uint_eq(perfan_report_nr_rows(r, 0), 7);
	/* by total, then self, then comm, dso, sym */
	expect_row(r, 0, "a", "prog", "main", 6, 0);
	expect_row(r, 1, "b", "libc.so.6", "g", 5, 5);
	expect_row(r, 2, "a", "prog", "f", 5, 0); /* recursion counts once */
	expect_row(r, 3, "b", "prog", "main", 5, 0);
	expect_row(r, 4, "a", "libc.so.6", "g", 3, 3);
	expect_row(r, 5, "a", "prog", "h", 2, 2);
	expect_row(r, 6, "a", "[kernel.kallsyms]", "k", 1, 1);
	const struct perfan_report_row *row = perfan_report_row(r, 0, 0);
	ck_assert_double_eq_tol(row->total_percent, 600.0 / 11, 1e-9);
	ck_assert_double_eq_tol(row->self_percent, 0, 1e-9);
	/* Amdahl: 1 / (1 - 6/11) */
	ck_assert_double_eq_tol(row->speedup_total, 11.0 / 5, 1e-9);
	ck_assert_double_eq_tol(row->speedup_self, 1, 1e-9);
	ck_assert_uint_eq(perfan_report_row(r, 0, 6)->kind,
			  PERFAN_FRAME_KERNEL);
	ck_assert_ptr_null(perfan_report_row(r, 0, 7));
	ck_assert_ptr_null(perfan_report_row(r, 1, 0));
	perfan_report_free(r);

	/* self only: rows without self weight go */
	r = report(fx.p, NULL, 1);
	ck_assert_uint_eq(perfan_report_nr_rows(r, 0), 4);
	expect_row(r, 0, "b", "libc.so.6", "g", 5, 5);
	expect_row(r, 1, "a", "libc.so.6", "g", 3, 3);
	expect_row(r, 2, "a", "prog", "h", 2, 2);
	expect_row(r, 3, "a", "[kernel.kallsyms]", "k", 1, 1);
	perfan_report_free(r);
	perfan_profile_free(fx.p);
}
END_TEST

START_TEST(test_sort_keys)
{
	struct fixture fx;
	made_up(&fx, 0);
	/* per module: a stack counts once toward each module on it */
	perfan_report *r = report(fx.p, "dso", 0);
	ck_assert_uint_eq(perfan_report_nr_rows(r, 0), 3);
	expect_row(r, 0, NULL, "prog", NULL, 11, 2);
	expect_row(r, 1, NULL, "libc.so.6", NULL, 8, 8);
	expect_row(r, 2, NULL, "[kernel.kallsyms]", NULL, 1, 1);
	perfan_report_free(r);

	r = report(fx.p, "sym", 0);
	expect_row(r, 0, NULL, NULL, "main", 11, 0);
	expect_row(r, 1, NULL, NULL, "g", 8, 8);
	expect_row(r, 2, NULL, NULL, "f", 5, 0);
	perfan_report_free(r);

	/* the order of the keys is the order of ties and columns */
	r = report(fx.p, "sym,comm", 0);
	expect_row(r, 0, "a", NULL, "main", 6, 0);
	expect_row(r, 1, "b", NULL, "g", 5, 5);
	expect_row(r, 2, "a", NULL, "f", 5, 0);
	expect_row(r, 3, "b", NULL, "main", 5, 0);
	const enum perfan_report_key *keys;
	ck_assert_uint_eq(perfan_report_keys(r, &keys), 2);
	ck_assert_int_eq(keys[0], PERFAN_REPORT_KEY_SYM);
	ck_assert_int_eq(keys[1], PERFAN_REPORT_KEY_COMM);
	perfan_report_free(r);

	r = report(fx.p, "comm", 0);
	expect_row(r, 0, "a", NULL, NULL, 6, 6);
	expect_row(r, 1, "b", NULL, NULL, 5, 5);
	perfan_report_free(r);

	struct perfan_report_opts o =
		PERFAN_OPTS_INIT(struct perfan_report_opts);
	const char *bad[] = {"dso,", "symbol", "sym,sym", ",dso"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o.sort = bad[i];
		ck_assert_int_eq(perfan_report_new(&r, fx.p, &o),
				 PERFAN_EINVAL);
		ck_assert_ptr_null(r);
		ck_assert_str_ne(perfan_error_last(), "");
	}
	perfan_profile_free(fx.p);
}
END_TEST

START_TEST(test_pid_key)
{
	struct fixture fx;
	made_up(&fx, 1);
	struct perfan_report_opts o =
		PERFAN_OPTS_INIT(struct perfan_report_opts);
	o.sort = "pid,sym";
	o.root_format = PERFAN_ROOT_PID_TID;
	perfan_report *r;
	ck_assert_int_eq(perfan_report_new(&r, fx.p, &o), 0);
	const struct perfan_report_row *row = perfan_report_row(r, 0, 0);
	ck_assert_str_eq(row->comm, "a");
	ck_assert_int_eq(row->pid, 10);
	ck_assert_int_eq(row->tid, 11);
	ck_assert_str_eq(row->sym, "main");
	row = perfan_report_row(r, 0, 1);
	ck_assert_str_eq(row->comm, "b");
	ck_assert_int_eq(row->tid, 20);
	perfan_report_free(r);

	/* comm alone merges the threads of a name, the numbers cut off */
	o.sort = "comm";
	ck_assert_int_eq(perfan_report_new(&r, fx.p, &o), 0);
	expect_row(r, 0, "a", NULL, NULL, 6, 6);
	ck_assert_int_eq(perfan_report_row(r, 0, 0)->pid, -1);
	perfan_report_free(r);
	perfan_profile_free(fx.p);
}
END_TEST

START_TEST(test_dso_filter_limits)
{
	struct fixture fx;
	made_up(&fx, 0);
	struct perfan_report_opts o =
		PERFAN_OPTS_INIT(struct perfan_report_opts);
	o.dsos = "/usr/lib/x86_64-linux-gnu/libc.so.6,[kernel.kallsyms]";
	perfan_report *r;
	ck_assert_int_eq(perfan_report_new(&r, fx.p, &o), 0);
	ck_assert_uint_eq(perfan_report_nr_rows(r, 0), 3);
	expect_row(r, 0, "b", "libc.so.6", "g", 5, 5);
	expect_row(r, 1, "a", "libc.so.6", "g", 3, 3);
	expect_row(r, 2, "a", "[kernel.kallsyms]", "k", 1, 1);
	/* shares stay shares of the whole */
	ck_assert_double_eq_tol(perfan_report_row(r, 0, 0)->total_percent,
				500.0 / 11, 1e-9);
	perfan_report_free(r);

	o.dsos = NULL;
	o.percent_limit = 40; /* 5/11 = 45 % stays, 3/11 = 27 % goes */
	ck_assert_int_eq(perfan_report_new(&r, fx.p, &o), 0);
	ck_assert_uint_eq(perfan_report_nr_rows(r, 0), 4);
	perfan_report_free(r);

	o.limit = 2;
	ck_assert_int_eq(perfan_report_new(&r, fx.p, &o), 0);
	ck_assert_uint_eq(perfan_report_nr_rows(r, 0), 2);
	perfan_report_free(r);

	o.limit = 0;
	o.percent_limit = 0;
	o.no_children = 1;
	o.limit = 1;
	ck_assert_int_eq(perfan_report_new(&r, fx.p, &o), 0);
	ck_assert_uint_eq(perfan_report_nr_rows(r, 0), 1);
	expect_row(r, 0, "b", "libc.so.6", "g", 5, 5);
	ck_assert_double_eq_tol(perfan_report_row(r, 0, 0)->speedup_self,
				11.0 / 6, 1e-9);
	perfan_report_free(r);
	perfan_profile_free(fx.p);
}
END_TEST

/* Inlined frames: their self weight belongs to the function they were
 * inlined into; they have a total of their own. */
START_TEST(test_inlined)
{
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	int col = perfan_profile_add_column(p, "cycles", "period");
	perfan_frame_id a = fr(p, "a", NULL, PERFAN_FRAME_PROCESS);
	perfan_frame_id m = fr(p, "main", "prog", PERFAN_FRAME_NATIVE);
	perfan_frame_id f = fr(p, "f", "prog", PERFAN_FRAME_NATIVE);
	perfan_frame_id in = fr(p, "inl", "prog", PERFAN_FRAME_INLINED);
	perfan_frame_id s1[] = {a, m, f, in};
	perfan_frame_id s2[] = {a, m, f};
	ck_assert_int_eq(perfan_profile_add(p, s1, 4, col, 400, NULL, NULL), 0);
	ck_assert_int_eq(perfan_profile_add(p, s2, 3, col, 100, NULL, NULL), 0);
	perfan_report *r = report(p, "sym", 0);
	expect_row(r, 0, NULL, NULL, "f", 500, 500);
	expect_row(r, 1, NULL, NULL, "main", 500, 0);
	expect_row(r, 2, NULL, NULL, "inl", 400, 0);
	ck_assert_uint_eq(perfan_report_row(r, 0, 2)->kind,
			  PERFAN_FRAME_INLINED);
	perfan_report_free(r);
	perfan_profile_free(p);
}
END_TEST

/* ---- call graphs -------------------------------------------------------- */

struct gline {
	uint32_t depth;
	char name[32];
	uint64_t w;
};

struct glines {
	perfan_profile *p;
	struct gline v[64];
	size_t n;
};

static int collect(const struct perfan_report_graph_node *n, void *payload)
{
	struct glines *g = payload;
	ck_assert_uint_lt(g->n, 64);
	g->v[g->n].depth = n->depth;
	snprintf(g->v[g->n].name, sizeof(g->v[0].name), "%s",
		 perfan_profile_frame_get(g->p, n->frame)->name);
	g->v[g->n].w = n->weight;
	g->n++;
	return 0;
}

static void expect_graph(struct glines *g, const char *want)
{
	char got[1024] = "";
	for (size_t i = 0; i < g->n; i++) {
		char b[64];
		snprintf(b, sizeof(b), "%s%u:%s=%llu", i ? " " : "",
			 g->v[i].depth, g->v[i].name,
			 (unsigned long long)g->v[i].w);
		strcat(got, b);
	}
	ck_assert_str_eq(got, want);
}

START_TEST(test_graphs)
{
	struct fixture fx;
	made_up(&fx, 0);
	perfan_report *r = report(fx.p, NULL, 0);
	/* row 2 is a/prog/f */
	struct glines g = {.p = fx.p};
	ck_assert_int_eq(perfan_report_graph_walk(r, 0, 2,
						  PERFAN_REPORT_GRAPH_CALLEE,
						  collect, &g),
			 0);
	expect_graph(&g, "1:f=5 2:main=5");
	g.n = 0;
	ck_assert_int_eq(perfan_report_graph_walk(r, 0, 2,
						  PERFAN_REPORT_GRAPH_CALLER,
						  collect, &g),
			 0);
	expect_graph(&g, "1:main=5 2:f=5 3:f=3 4:g=3 3:h=2");
	/* row 1 is b/libc/g: its callers */
	g.n = 0;
	ck_assert_int_eq(perfan_report_graph_walk(r, 0, 1,
						  PERFAN_REPORT_GRAPH_CALLEE,
						  collect, &g),
			 0);
	expect_graph(&g, "1:g=5 2:main=5");
	ck_assert_int_eq(perfan_report_graph_walk(r, 0, 99,
						  PERFAN_REPORT_GRAPH_CALLEE,
						  collect, &g),
			 PERFAN_EINVAL);
	perfan_report_free(r);

	/* by symbol only: g's callers from both processes, merged */
	r = report(fx.p, "sym", 0);
	g.n = 0;
	ck_assert_int_eq(perfan_report_graph_walk(r, 0, 1,
						  PERFAN_REPORT_GRAPH_CALLEE,
						  collect, &g),
			 0);
	expect_graph(&g, "1:g=8 2:main=5 2:f=3 3:f=3 4:main=3");
	perfan_report_free(r);

	/* self only: the stacks that end in the row, root first */
	r = report(fx.p, "sym", 1);
	g.n = 0;
	ck_assert_int_eq(perfan_report_graph_walk(r, 0, 0,
						  PERFAN_REPORT_GRAPH_CALLER,
						  collect, &g),
			 0);
	expect_graph(&g, "1:main=8 2:g=5 2:f=3 3:f=3 4:g=3");
	perfan_report_free(r);
	perfan_profile_free(fx.p);
}
END_TEST

static char *write_report(perfan_report *r, int format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(fp);
	struct perfan_report_write_opts wo =
		PERFAN_OPTS_INIT(struct perfan_report_write_opts);
	wo.format = format;
	ck_assert_int_eq(perfan_report_write(r, fp, &wo), 0);
	fclose(fp);
	return buf;
}

START_TEST(test_text_and_json)
{
	struct fixture fx;
	made_up(&fx, 0);
	struct perfan_report_opts o =
		PERFAN_OPTS_INIT(struct perfan_report_opts);
	o.call_graph = PERFAN_REPORT_GRAPH_CALLER;
	o.limit = 3;
	perfan_report *r;
	ck_assert_int_eq(perfan_report_new(&r, fx.p, &o), 0);
	char *t = write_report(r, PERFAN_REPORT_TEXT);
	ck_assert_msg(strstr(t, "# Samples: 11  of event 'cpu-clock'\n"), "%s",
		      t);
	ck_assert_msg(strstr(t, "# Children      Self  Max speedup  Command  "
				"Shared Object  Symbol\n"
				"# ........  ........  ...........  .......  "
				".............  ........\n"),
		      "%s", t);
	ck_assert_msg(strstr(t, "    54.55%     0.00%        2.20x  a        "
				"prog           [.] main\n"),
		      "%s", t);
	/* a/prog/f: the paths through it, root first */
	ck_assert_msg(strstr(t, "[.] f\n"
				"            |\n"
				"            ---main\n"
				"               f\n"
				"               |\n"
				"               |--27.27%--f\n"
				"               |          g\n"
				"               |\n"
				"                --18.18%--h\n"),
		      "%s", t);
	ck_assert_ptr_null(strstr(t, "[k] k")); /* limit */
	free(t);
	t = write_report(r, PERFAN_REPORT_JSON);
	ck_assert_msg(strstr(t, "{\"sort\": [\"comm\", \"dso\", \"sym\"], "
				"\"children\": true, \"columns\": "
				"[{\"event\": \"cpu-clock\", \"unit\": "
				"\"samples\", \"total\": 11, \"rows\": ["),
		      "%s", t);
	ck_assert_msg(strstr(t, "{\"comm\": \"a\", \"dso\": \"prog\", \"sym\": "
				"\"main\", \"kind\": \"native\", \"self\": 0, "
				"\"total\": 6, \"self_percent\": 0.0000, "
				"\"total_percent\": 54.5455, "
				"\"max_speedup_self\": 1.0000, "
				"\"max_speedup_total\": 2.2000, "
				"\"call_graph\": {\"mode\": \"caller\", "
				"\"children\": [{\"name\": \"main\""),
		      "%s", t);
	free(t);
	perfan_report_free(r);

	/* a row with all the weight: no bound */
	o.limit = 0;
	o.call_graph = 0;
	o.sort = "comm";
	o.no_speedup = 1;
	ck_assert_int_eq(perfan_profile_add_column(fx.p, "empty", NULL), 1);
	ck_assert_int_eq(perfan_report_new(&r, fx.p, &o), 0);
	ck_assert(isinf(perfan_report_row(r, 0, 0)->speedup_total) == 0);
	t = write_report(r, PERFAN_REPORT_TEXT);
	ck_assert_ptr_null(strstr(t, "Max speedup"));
	ck_assert_ptr_null(strstr(t, "'empty'")); /* no samples: no section */
	free(t);
	perfan_report_free(r);
	o.sort = "sym";
	ck_assert_int_eq(perfan_report_new(&r, fx.p, &o), 0);
	ck_assert(isinf(perfan_report_row(r, 0, 0)->speedup_total)); /* main */
	t = write_report(r, PERFAN_REPORT_JSON);
	ck_assert_msg(strstr(t, "\"max_speedup_total\": null"), "%s", t);
	free(t);
	perfan_report_free(r);
	perfan_profile_free(fx.p);
}
END_TEST

START_TEST(test_empty_and_null)
{
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	perfan_report *r;
	ck_assert_int_eq(perfan_report_new(&r, p, NULL), 0);
	ck_assert_uint_eq(perfan_report_nr_columns(r), 0);
	char *t = write_report(r, PERFAN_REPORT_TEXT);
	ck_assert_str_eq(t, "");
	free(t);
	t = write_report(r, PERFAN_REPORT_JSON);
	ck_assert_str_eq(t, "{\"sort\": [\"comm\", \"dso\", \"sym\"], "
			    "\"children\": true, \"columns\": []}\n");
	free(t);
	perfan_report_free(r);
	ck_assert_int_eq(perfan_report_new(&r, NULL, NULL), PERFAN_EINVAL);
	ck_assert_int_eq(perfan_report_new(NULL, p, NULL), PERFAN_EINVAL);
	perfan_report_free(NULL);
	ck_assert_uint_eq(perfan_report_nr_rows(NULL, 0), 0);
	ck_assert_ptr_null(perfan_report_row(NULL, 0, 0));
	perfan_profile_free(p);
}
END_TEST

/* ---- against perf report ------------------------------------------------ */

struct prow {
	double total, self; /* total < 0: the oracle has no Children column */
	char comm[64], dso[128], sym[512]; /* sym "" for --sort comm,dso */
};

struct psection {
	char event[64];
	struct prow *rows;
	size_t n, cap;
};

struct poracle {
	struct psection sec[8];
	size_t nsec;
	int children; /* the file has a Children column */
};

static void trim(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

/* perf report --stdio rows: "[total%]  self%  comm  dso[  [.] sym]". */
static void read_oracle(const char *path, struct poracle *o)
{
	memset(o, 0, sizeof(*o));
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) > 0) {
		trim(line);
		char *q = strstr(line, "of event '");
		if (line[0] == '#') {
			if (q) {
				ck_assert_uint_lt(o->nsec, 8);
				q += 10;
				char *e = strchr(q, '\'');
				snprintf(o->sec[o->nsec].event, 64, "%.*s",
					 (int)(e - q), q);
				o->nsec++;
			}
			if (strstr(line, "# Children "))
				o->children = 1;
			continue;
		}
		if (!o->nsec || !strchr(line, '%'))
			continue;
		struct prow r;
		memset(&r, 0, sizeof(r));
		char *s = line, *end;
		double a = strtod(s, &end);
		if (end == s || *end != '%')
			continue;
		s = end + 1;
		r.total = -1;
		r.self = a;
		double b = strtod(s, &end);
		if (end != s && *end == '%') {
			r.total = a;
			r.self = b;
			s = end + 1;
		}
		while (*s == ' ')
			s++;
		size_t n = strcspn(s, " ");
		snprintf(r.comm, sizeof(r.comm), "%.*s", (int)n, s);
		s += n;
		while (*s == ' ')
			s++;
		char *mark = strstr(s, " [.] ");
		if (!mark)
			mark = strstr(s, " [k] ");
		if (mark) {
			snprintf(r.sym, sizeof(r.sym), "%s", mark + 5);
			*mark = '\0';
		}
		trim(s);
		snprintf(r.dso, sizeof(r.dso), "%s", s);
		struct psection *sec = &o->sec[o->nsec - 1];
		if (sec->n == sec->cap) {
			sec->cap = sec->cap ? sec->cap * 2 : 64;
			sec->rows = realloc(sec->rows,
					    sec->cap * sizeof(*sec->rows));
			ck_assert_ptr_nonnull(sec->rows);
		}
		sec->rows[sec->n++] = r;
	}
	free(line);
	fclose(f);
}

static void free_oracle(struct poracle *o)
{
	for (size_t i = 0; i < o->nsec; i++)
		free(o->sec[i].rows);
}

/* perf names perf-PID.map code "[JIT] tid PID"; perfan names the map. */
static void perf_dso_name(const char *in, char *out, size_t n)
{
	int pid;
	if (sscanf(in, "perf-%d.map", &pid) == 1)
		snprintf(out, n, "[JIT] tid %d", pid);
	else
		snprintf(out, n, "%s", in);
}

/* An address perf could not name ("0x00007f...", "0000000000000000"). */
static int is_address(const char *sym)
{
	if (!strncmp(sym, "0x", 2))
		sym += 2;
	return *sym && strspn(sym, "0123456789abcdef") == strlen(sym);
}

/* A module whose file testdata has for CASE (or the kernel, whose symbols
 * testdata/kallsyms has). */
static int own_module(const char *kase, const char *dso)
{
	if (!strcmp(dso, "[kernel.kallsyms]"))
		return 1;
	if (dso[0] == '[')
		return 0;
	char rel[512];
	snprintf(rel, sizeof(rel), "%s/%s", kase, dso);
	if (!access(tu_testdata(rel), R_OK))
		return 1;
	snprintf(rel, sizeof(rel), "%s/jitted/%s", kase, dso);
	return !access(tu_testdata(rel), R_OK);
}

/* ---- perf script's stacks ----------------------------------------------- */

/* Keys ("comm\tdso\tsym" and "comm\tdso") with the weight of the samples
 * that have them, and whether some sample has them only beyond a frame of
 * a module testdata lacks. */
struct skey {
	char *key;
	double w;
	int beyond;
};

struct sstacks {
	char event[64];
	struct skey *v;
	size_t n, cap;
	double total;
};

struct script {
	struct sstacks ev[8];
	size_t nev;
};

static struct skey *skey_get(struct sstacks *s, const char *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].key, key))
			return &s->v[i];
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		ck_assert_ptr_nonnull(s->v);
	}
	s->v[s->n].key = strdup(key);
	s->v[s->n].w = 0;
	s->v[s->n].beyond = 0;
	return &s->v[s->n++];
}

struct sframe {
	char dso[128], sym[512];
};

static void script_sample(struct script *sc, const char *kase,
			  const char *event, const char *comm, double w,
			  struct sframe *fr, size_t n)
{
	struct sstacks *s = NULL;
	for (size_t i = 0; i < sc->nev; i++)
		if (!strcmp(sc->ev[i].event, event))
			s = &sc->ev[i];
	if (!s) {
		ck_assert_uint_lt(sc->nev, 8);
		s = &sc->ev[sc->nev++];
		snprintf(s->event, sizeof(s->event), "%s", event);
	}
	s->total += w;
	/* each key once per sample; visible: before the first frame of a
	 * module testdata lacks, inclusive */
	char **seen = calloc(2 * n + 1, sizeof(*seen));
	int *vis = calloc(2 * n + 1, sizeof(*vis));
	size_t nseen = 0;
	int visible = 1;
	for (size_t i = 0; i < n; i++) {
		char keys[2][1024];
		snprintf(keys[0], sizeof(keys[0]), "%s\t%s\t%s", comm,
			 fr[i].dso, fr[i].sym);
		snprintf(keys[1], sizeof(keys[1]), "%s\t%s", comm, fr[i].dso);
		for (int k = 0; k < 2; k++) {
			size_t j;
			for (j = 0; j < nseen; j++)
				if (!strcmp(seen[j], keys[k]))
					break;
			if (j == nseen)
				seen[nseen++] = strdup(keys[k]);
			vis[j] |= visible;
		}
		if (!own_module(kase, fr[i].dso))
			visible = 0;
	}
	for (size_t j = 0; j < nseen; j++) {
		struct skey *k = skey_get(s, seen[j]);
		k->w += w;
		k->beyond |= !vis[j];
		free(seen[j]);
	}
	free(seen);
	free(vis);
}

/* perf script: "comm tid [cpu] time: [period] event: ..." and frames
 * "\taddr sym+off (dso)", leaf first. */
static void read_script(const char *path, const char *kase, struct script *sc)
{
	memset(sc, 0, sizeof(*sc));
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	char *line = NULL;
	size_t cap = 0, nfr = 0, frcap = 256;
	struct sframe *fr = malloc(frcap * sizeof(*fr));
	char comm[64] = "", event[64] = "";
	double w = 0;
	int in = 0;
	ssize_t len;
	for (;;) {
		len = getline(&line, &cap, f);
		if (len > 0)
			trim(line);
		int header = len > 0 && line[0] && line[0] != ' ' &&
			     line[0] != '\t';
		if (in && (len < 0 || header || !line[0])) {
			script_sample(sc, kase, event, comm, w, fr, nfr);
			in = 0;
			nfr = 0;
		}
		if (len < 0)
			break;
		if (!line[0])
			continue;
		if (header) {
			/* the time ends in ':' after digits and a '.' */
			char *c = line, *t = NULL;
			while ((c = strchr(c, ':'))) {
				char *d = c;
				while (d > line &&
				       (d[-1] == '.' ||
					(d[-1] >= '0' && d[-1] <= '9')))
					d--;
				if (d < c && d[-1] == ' ' &&
				    memchr(d, '.', (size_t)(c - d))) {
					t = c;
					break;
				}
				c++;
			}
			ck_assert_ptr_nonnull(t);
			size_t cl = strcspn(line, " ");
			snprintf(comm, sizeof(comm), "%.*s", (int)cl, line);
			char *e = t + 1;
			while (*e == ' ')
				e++;
			char *end;
			w = strtod(e, &end);
			if (end != e && *end == ' ') {
				e = end;
				while (*e == ' ')
					e++;
			} else {
				w = 1; /* tracepoints: no period shown */
			}
			char *ee = strchr(e, ':');
			/* tracepoint names have a ':' inside */
			if (ee && ee[1] && ee[1] != ' ')
				ee = strchr(ee + 1, ':');
			ck_assert_ptr_nonnull(ee);
			snprintf(event, sizeof(event), "%.*s", (int)(ee - e),
				 e);
			in = 1;
			continue;
		}
		/* "addr sym+off (dso)" */
		char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		s += strcspn(s, " ");
		while (*s == ' ')
			s++;
		char *open = strrchr(s, '(');
		ck_assert_ptr_nonnull(open);
		char *close = strrchr(open, ')');
		ck_assert_ptr_nonnull(close);
		*close = '\0';
		if (nfr == frcap) {
			frcap *= 2;
			fr = realloc(fr, frcap * sizeof(*fr));
		}
		struct sframe *x = &fr[nfr];
		const char *dso = open + 1;
		if (!strcmp(dso, "inlined")) {
			snprintf(x->dso, sizeof(x->dso), "%s",
				 nfr ? fr[nfr - 1].dso : "[unknown]");
		} else {
			const char *b = strrchr(dso, '/');
			perf_dso_name(b ? b + 1 : dso, x->dso, sizeof(x->dso));
		}
		char *se = open;
		while (se > s && se[-1] == ' ')
			se--;
		*se = '\0';
		char *plus = strstr(s, "+0x");
		if (plus &&
		    strspn(plus + 3, "0123456789abcdef") == strlen(plus + 3))
			*plus = '\0';
		snprintf(x->sym, sizeof(x->sym), "%s", s);
		nfr++;
	}
	free(fr);
	free(line);
	fclose(f);
}

static void free_script(struct script *sc)
{
	for (size_t i = 0; i < sc->nev; i++) {
		for (size_t j = 0; j < sc->ev[i].n; j++)
			free(sc->ev[i].v[j].key);
		free(sc->ev[i].v);
	}
}

static const struct skey *script_key(const struct script *sc, const char *event,
				     const char *comm, const char *dso,
				     const char *sym, double *total)
{
	char key[1024];
	if (sym)
		snprintf(key, sizeof(key), "%s\t%s\t%s", comm, dso, sym);
	else
		snprintf(key, sizeof(key), "%s\t%s", comm, dso);
	for (size_t i = 0; i < sc->nev; i++) {
		if (strcmp(sc->ev[i].event, event))
			continue;
		*total = sc->ev[i].total;
		for (size_t j = 0; j < sc->ev[i].n; j++)
			if (!strncmp(sc->ev[i].v[j].key, key, strlen(key)) &&
			    (sc->ev[i].v[j].key[strlen(key)] == '\0'))
				return &sc->ev[i].v[j];
	}
	return NULL;
}

/* ---- perfan on a recording ------------------------------------------------ */

struct kase {
	const char *dir, *data, *suffix;
	int dwarf; /* user stacks unwound from copied stacks */
};

static const struct kase cases[] = {
	{"fp", "perf.data", "", 0},
	{"dwarf", "perf.data", "", 1},
	{"pipe", "perf.data", "", 0},
	{"zstd", "perf.data", "", 0},
	{"two-events", "perf.data", "", 0},
	{"cpu-pagefaults", "perf.data", "", 0},
	{"multi-thread-fork", "perf.data", "", 0},
	{"sched", "perf.data", "", 0},
	{"py312-perf", "perf.data", "", 0},
	{"py312-perf", "perf.dwarf.data", ".dwarf", 1},
	{"py313-perfjit", "perf.data", "", 1},
	{"py313-perfjit", "perf.jit.data", ".jit", 1},
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

static perfan_profile *resolve(const struct kase *k, int hermetic)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "%s/%s", k->dir, k->data);
	perfan_perfdata *pd;
	ck_assert_msg(!perfan_perfdata_open(&pd, tu_testdata(rel), NULL), "%s",
		      perfan_error_last());
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	struct perfan_resolve_opts o =
		PERFAN_OPTS_INIT(struct perfan_resolve_opts);
	o.host = tu_host();
	o.filter = PERFAN_FILTER_INIT;
	o.root = PERFAN_ROOT_COMM;
	o.weight = PERFAN_WEIGHT_PERIOD; /* perf report's shares */
	char symfs[4096], nocache[4096], kallsyms[4096], maps[4096];
	snprintf(kallsyms, sizeof(kallsyms), "%s", tu_testdata("kallsyms"));
	o.kallsyms = kallsyms;
	/* the perf maps and jitdumps the recordings left in /tmp, as kept */
	snprintf(maps, sizeof(maps), "%s", tu_testdata(k->dir));
	o.perf_map_dir = o.jitdump_dir = maps;
	if (hermetic) {
		snprintf(symfs, sizeof(symfs), "%s", tu_testdata(k->dir));
		snprintf(nocache, sizeof(nocache), "%s",
			 tu_testdata("no-such-build-id-cache"));
		o.symfs = symfs;
		o.buildid_dir = nocache;
	}
	struct perfan_resolve_stats st;
	ck_assert_msg(!perfan_resolve_perfdata(p, pd, &o, &st), "%s: %s", rel,
		      perfan_error_last());
	ck_assert_uint_eq(st.buildid_mismatches, 0);
	perfan_perfdata_free(pd);
	return p;
}

/* perfan's column for EVENT, or -1. */
static int column_of(perfan_report *r, perfan_profile *p, const char *event)
{
	for (size_t c = 0; c < perfan_report_nr_columns(r); c++)
		if (!strcmp(perfan_profile_column_name(p, c), event))
			return (int)c;
	return -1;
}

/* perfan's row for a perf row: perf cuts the comm to its column, so a
 * perfan comm that perf's starts counts when no comm is equal. */
static const struct perfan_report_row *find_row(perfan_report *r, int col,
						const char *comm,
						const char *dso,
						const char *sym)
{
	const struct perfan_report_row *prefix = NULL;
	for (size_t i = 0; i < perfan_report_nr_rows(r, (size_t)col); i++) {
		const struct perfan_report_row *row =
			perfan_report_row(r, (size_t)col, i);
		char d[128];
		perf_dso_name(row->dso, d, sizeof(d));
		if (strcmp(d, dso) || (sym && strcmp(row->sym, sym)))
			continue;
		if (!strcmp(row->comm, comm))
			return row;
		if (!strncmp(row->comm, comm, strlen(comm)) && !prefix)
			prefix = row;
	}
	return prefix;
}

struct tally {
	size_t checked, skipped;
};

/* Compare one perf row with perfan's: WHAT is "self" or "total". */
static void compare(const char *where, const char *what, const struct prow *pr,
		    double want, const struct perfan_report_row *row,
		    double tol, struct tally *t)
{
	double got = !row                    ? 0
		     : !strcmp(what, "self") ? row->self_percent
					     : row->total_percent;
	printf("%s: %s %s %s%s%s: perf %.2f%%, perfan %.2f%%\n", where, what,
	       pr->comm, pr->dso, pr->sym[0] ? " " : "", pr->sym, want, got);
	ck_assert_msg(fabs(got - want) <= tol,
		      "%s: %s share of %s %s %s: perf %.2f%%, perfan %.2f%% "
		      "(more than %.1f points apart)",
		      where, what, pr->comm, pr->dso, pr->sym, want, got, tol);
	t->checked++;
}

static void check_case(const struct kase *k, int hermetic)
{
	char rel[512], where[256];
	snprintf(where, sizeof(where), "%s/%s%s", k->dir, k->data,
		 hermetic ? "" : " (system files)");
	struct poracle self_o, child_o, dso_o;
	snprintf(rel, sizeof(rel), "%s/report%s.txt", k->dir, k->suffix);
	read_oracle(tu_testdata(rel), &self_o);
	snprintf(rel, sizeof(rel), "%s/report-children%s.txt", k->dir,
		 k->suffix);
	read_oracle(tu_testdata(rel), &child_o);
	snprintf(rel, sizeof(rel), "%s/report-children-dso%s.txt", k->dir,
		 k->suffix);
	read_oracle(tu_testdata(rel), &dso_o);
	struct script sc;
	snprintf(rel, sizeof(rel), "%s/script%s.txt", k->dir, k->suffix);
	read_script(tu_testdata(rel), k->dir, &sc);

	perfan_profile *p = resolve(k, hermetic);
	perfan_report *rs = report(p, "comm,dso,sym", 0);
	perfan_report *rd = report(p, "comm,dso", 0);
	struct tally t = {0, 0};
	int cut_short = hermetic && k->dwarf;
	/* perf's own DWARF unwinding stops at the first CPython trampoline
	 * (JIT code without CFI); perfan's goes on to main, so the totals
	 * of what lies beyond differ by design (tests/cli/python.sh checks
	 * those stacks against perf inject's): self shares only */
	int perf_cut = !hermetic && k->dwarf && !strncmp(k->dir, "py", 2) &&
		       strcmp(k->data, "perf.jit.data");

	/* self, per symbol, of the modules testdata has */
	for (size_t s = 0; s < self_o.nsec; s++) {
		int col = column_of(rs, p, self_o.sec[s].event);
		ck_assert_int_ge(col, 0);
		for (size_t i = 0; i < self_o.sec[s].n; i++) {
			const struct prow *pr = &self_o.sec[s].rows[i];
			if (pr->self <= 0.5 || !pr->sym[0] ||
			    is_address(pr->sym) || !own_module(k->dir, pr->dso))
				continue;
			compare(where, "self", pr, pr->self,
				find_row(rs, col, pr->comm, pr->dso, pr->sym),
				0.1, &t);
		}
	}
	/* total, per symbol, of the modules testdata has */
	for (size_t s = 0; child_o.children && s < child_o.nsec; s++) {
		int col = column_of(rs, p, child_o.sec[s].event);
		ck_assert_int_ge(col, 0);
		for (size_t i = 0; i < child_o.sec[s].n; i++) {
			const struct prow *pr = &child_o.sec[s].rows[i];
			if (is_address(pr->sym) || !own_module(k->dir, pr->dso))
				continue;
			const struct perfan_report_row *row =
				find_row(rs, col, pr->comm, pr->dso, pr->sym);
			/* the Self column too: report*.txt of tracepoint
			 * events are sorted by trace, these by symbol */
			if (pr->self > 0.5)
				compare(where, "self", pr, pr->self, row, 0.1,
					&t);
			if (pr->total <= 0.5)
				continue;
			double total;
			const struct skey *sk =
				script_key(&sc, child_o.sec[s].event, pr->comm,
					   pr->dso, pr->sym, &total);
			if (perf_cut || (cut_short && (!sk || sk->beyond))) {
				printf("%s: total %s %s %s: not checked, perf "
				       "reaches it only through a library "
				       "testdata lacks, or stops short of it\n",
				       where, pr->comm, pr->dso, pr->sym);
				t.skipped++;
				continue;
			}
			compare(where, "total", pr, pr->total, row, 0.5, &t);
		}
	}
	/* per module: self and total of every module (system libraries
	 * only here) */
	for (size_t s = 0; s < dso_o.nsec; s++) {
		int col = column_of(rd, p, dso_o.sec[s].event);
		ck_assert_int_ge(col, 0);
		for (size_t i = 0; i < dso_o.sec[s].n; i++) {
			const struct prow *pr = &dso_o.sec[s].rows[i];
			const struct perfan_report_row *row =
				find_row(rd, col, pr->comm, pr->dso, NULL);
			if (pr->self > 0.5)
				compare(where, "self", pr, pr->self, row, 0.1,
					&t);
			if (!dso_o.children || pr->total <= 0.5)
				continue;
			double total;
			const struct skey *sk =
				script_key(&sc, dso_o.sec[s].event, pr->comm,
					   pr->dso, NULL, &total);
			if (perf_cut || (cut_short && (!sk || sk->beyond))) {
				printf("%s: total %s %s: not checked, perf "
				       "reaches it only through a library "
				       "testdata lacks, or stops short of it\n",
				       where, pr->comm, pr->dso);
				t.skipped++;
				continue;
			}
			compare(where, "total", pr, pr->total, row, 0.5, &t);
		}
	}
	/* no Children column (perf on pipe-mode input): totals from the
	 * stacks perf script printed */
	if (!child_o.children) {
		for (size_t e = 0; e < sc.nev; e++) {
			struct sstacks *ss = &sc.ev[e];
			int col = column_of(rs, p, ss->event);
			ck_assert_int_ge(col, 0);
			for (size_t j = 0; j < ss->n; j++) {
				struct prow pr;
				memset(&pr, 0, sizeof(pr));
				char *f1 = strchr(ss->v[j].key, '\t');
				char *f2 = strchr(f1 + 1, '\t');
				snprintf(pr.comm, sizeof(pr.comm), "%.*s",
					 (int)(f1 - ss->v[j].key),
					 ss->v[j].key);
				snprintf(pr.dso, sizeof(pr.dso), "%.*s",
					 (int)(f2 ? f2 - f1 - 1
						  : (long)strlen(f1 + 1)),
					 f1 + 1);
				if (f2)
					snprintf(pr.sym, sizeof(pr.sym), "%s",
						 f2 + 1);
				pr.total = 100.0 * ss->v[j].w / ss->total;
				if (pr.total <= 0.5)
					continue;
				if (f2 && (!own_module(k->dir, pr.dso) ||
					   !strcmp(pr.sym, "[unknown]")))
					continue;
				compare(where, "total (perf script)", &pr,
					pr.total,
					find_row(f2 ? rs : rd, col, pr.comm,
						 pr.dso, f2 ? pr.sym : NULL),
					0.5, &t);
			}
		}
	}
	printf("%s: %zu shares within bounds, %zu not checkable\n", where,
	       t.checked, t.skipped);
	ck_assert_uint_gt(t.checked, 0);
	perfan_report_free(rs);
	perfan_report_free(rd);
	perfan_profile_free(p);
	free_script(&sc);
	free_oracle(&self_o);
	free_oracle(&child_o);
	free_oracle(&dso_o);
}

/* Amdahl's bound only where it holds (issue 35): function rows of CPU
 * time of one process, or of wall time of one thread; never rows of a
 * thread or a command, counts of an event, off-CPU leaves, wall time of
 * several threads or CPU time of several processes. */
static double bound_of(const perfan_profile *p, const char *sort, size_t col,
		       const char *sym)
{
	struct perfan_report_opts o =
		PERFAN_OPTS_INIT(struct perfan_report_opts);
	o.sort = sort;
	perfan_report *r;
	ck_assert_int_eq(perfan_report_new(&r, p, &o), 0);
	double b = -1;
	for (size_t i = 0; i < perfan_report_nr_rows(r, col); i++) {
		const struct perfan_report_row *row =
			perfan_report_row(r, col, i);
		if (!sym || (row->sym && !strcmp(row->sym, sym))) {
			b = row->speedup_total;
			break;
		}
	}
	perfan_report_free(r);
	ck_assert_msg(b != -1, "no row %s", sym ? sym : "");
	return b;
}

START_TEST(test_amdahl_holds)
{
	struct fixture fx;
	made_up(&fx, 1);
	/* one process: the function rows have it, the thread's and the
	 * command's not */
	ck_assert_double_eq_tol(bound_of(fx.p, "comm,dso,sym", 0, "main"),
				11.0 / 5, 1e-9);
	ck_assert(isinf(bound_of(fx.p, "sym", 0, "main")));
	ck_assert(isnan(bound_of(fx.p, "pid,sym", 0, "main")));
	ck_assert(isnan(bound_of(fx.p, "comm", 0, NULL)));
	ck_assert(isnan(bound_of(fx.p, "dso", 0, NULL)));
	/* counts of an event (a tracepoint's, page faults): none */
	ck_assert_int_eq(perfan_profile_set_column_kind(fx.p, 0,
							PERFAN_COLUMN_COUNT),
			 0);
	ck_assert(isnan(bound_of(fx.p, "comm,dso,sym", 0, "main")));
	/* a CPU clock: as an event not said */
	ck_assert_int_eq(
		perfan_profile_set_column_kind(fx.p, 0, PERFAN_COLUMN_CPU), 0);
	ck_assert_double_eq_tol(bound_of(fx.p, "comm,dso,sym", 0, "main"),
				11.0 / 5, 1e-9);
	/* wall time of two threads is a sum: none; off-CPU time: none */
	ck_assert_int_eq(
		perfan_profile_set_column_kind(fx.p, 0, PERFAN_COLUMN_WALL), 0);
	ck_assert(isnan(bound_of(fx.p, "comm,dso,sym", 0, "main")));
	ck_assert_int_eq(perfan_profile_set_column_kind(fx.p, 0,
							PERFAN_COLUMN_OFFCPU),
			 0);
	ck_assert(isnan(bound_of(fx.p, "comm,dso,sym", 0, "main")));
	perfan_profile_free(fx.p);

	/* wall time of one thread: its functions have it, its off-CPU leaf
	 * not; a second process makes CPU time a sum */
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	int col = perfan_profile_add_column(p, "wall", "ns");
	ck_assert_int_eq(perfan_profile_set_column_kind(p, (size_t)col,
							PERFAN_COLUMN_WALL),
			 0);
	perfan_frame_id t, m, w, t2;
	ck_assert_int_eq(perfan_profile_process_frame(
				 p, &t, PERFAN_ROOT_PID_TID, "a", 10, 11),
			 0);
	m = fr(p, "main", "prog", PERFAN_FRAME_NATIVE);
	ck_assert_int_eq(perfan_profile_offcpu_frame(p, &w, 1, "[off-cpu: S]"),
			 0);
	perfan_frame_id s1[] = {t, m}, s2[] = {t, m, w};
	ck_assert_int_eq(
		perfan_profile_add(p, s1, 2, (size_t)col, 1, NULL, NULL), 0);
	ck_assert_int_eq(
		perfan_profile_add(p, s2, 3, (size_t)col, 3, NULL, NULL), 0);
	ck_assert(isinf(bound_of(p, "sym", 0, "main")));
	ck_assert(isnan(bound_of(p, "sym", 0, "[off-cpu: S]")));
	ck_assert_int_eq(perfan_profile_process_frame(
				 p, &t2, PERFAN_ROOT_PID_TID, "a", 10, 12),
			 0);
	perfan_frame_id s3[] = {t2, m};
	ck_assert_int_eq(
		perfan_profile_add(p, s3, 2, (size_t)col, 4, NULL, NULL), 0);
	ck_assert(isnan(bound_of(p, "sym", 0, "main")));
	ck_assert_int_eq(perfan_profile_set_column_kind(p, (size_t)col,
							PERFAN_COLUMN_CPU),
			 0);
	ck_assert(isinf(bound_of(p, "sym", 0, "main"))); /* one process */
	perfan_frame_id t3;
	ck_assert_int_eq(perfan_profile_process_frame(
				 p, &t3, PERFAN_ROOT_PID_TID, "b", 20, 20),
			 0);
	perfan_frame_id s4[] = {t3, m};
	ck_assert_int_eq(
		perfan_profile_add(p, s4, 2, (size_t)col, 4, NULL, NULL), 0);
	ck_assert(isnan(bound_of(p, "sym", 0, "main")));
	perfan_profile_free(p);
}
END_TEST

START_TEST(test_shares_match_perf_report)
{
	check_case(&cases[_i], 1);
}
END_TEST

/* The machine the recordings were made on (or one like it): testdata at
 * the path the recordings name and the recording's libc with its debug
 * file (Debian 12's glibc, libc6-dbg). */
static int on_recording_machine(void)
{
	char *a = realpath("/work/main/testdata", NULL);
	char *b = realpath(tu_testdata("."), NULL);
	int same = a && b && !strcmp(a, b);
	free(a);
	free(b);
	return same &&
	       !access("/usr/lib/debug/.build-id/93/"
		       "ac61ec5a8eb1396f9fbd350e3169a558528a40.debug",
		       R_OK) &&
	       !access("/root/.pyenv/versions/3.12.1/lib/libpython3.12.so.1.0",
		       R_OK) &&
	       !access("/root/.pyenv/versions/3.13.0/lib/libpython3.13.so.1.0",
		       R_OK);
}

START_TEST(test_shares_match_perf_report_system_files)
{
	if (!on_recording_machine())
		TU_SKIP("not the recording machine");
	/* perf inject wrote its jitted-*.so into /tmp, which is no system
	 * directory: the hermetic pass reads the copies in testdata */
	if (!strcmp(cases[_i].data, "perf.jit.data"))
		TU_SKIP("%s/%s: its jitted code is not a system file",
			cases[_i].dir, cases[_i].data);
	check_case(&cases[_i], 0);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("made-up");
	tcase_add_test(tc, test_children_and_self);
	tcase_add_test(tc, test_sort_keys);
	tcase_add_test(tc, test_pid_key);
	tcase_add_test(tc, test_dso_filter_limits);
	tcase_add_test(tc, test_inlined);
	tcase_add_test(tc, test_graphs);
	tcase_add_test(tc, test_text_and_json);
	tcase_add_test(tc, test_empty_and_null);
	tcase_add_test(tc, test_amdahl_holds);
	suite_add_tcase(s, tc);
	tc = tcase_create("perf");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_shares_match_perf_report, 0, NCASES);
	tcase_add_loop_test(tc, test_shares_match_perf_report_system_files, 0,
			    NCASES);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(report_suite)
