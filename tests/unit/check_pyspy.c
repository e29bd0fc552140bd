/* check_pyspy.c: py-spy's raw output through the registry
 * (sources/pyspy.c), on the stacks of testdata/pyspy (a real run of
 * app.py written in py-spy's format, see its COMMAND): detection against
 * the repository's folded files and perfan's own collapse output, line
 * numbers folded into functions (the shares of a function are the sums of
 * its lines'), roots, frame kinds, pairs, and the reader on every prefix
 * and on damaged copies (through the fuzz target). */
#define _GNU_SOURCE
#include <perfan/perfan.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "../fuzz/fuzz_pyspy.c"
#include "testutil.h"

static const char *const files[] = {
	"raw.txt",           "raw-nolineno.txt",
	"raw-threads.txt",   "raw-subprocesses.txt",
	"fixed.txt",         "fixed-nolineno.txt",
	"fixed-threads.txt", "fixed-subprocesses.txt",
};
#define NFILES (sizeof(files) / sizeof(*files))

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	ck_assert_msg(fp != NULL, "cannot open %s", path);
	char *buf = NULL;
	size_t cap = 0, n = 0, k;
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 1 << 16;
			buf = realloc(buf, cap + 1);
			ck_assert_ptr_nonnull(buf);
		}
		k = fread(buf + n, 1, cap - n, fp);
		n += k;
	} while (k);
	fclose(fp);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static const char *pyspy_file(const char *name)
{
	static char rel[256];
	tu_fmt(rel, sizeof(rel), "pyspy/%s", name);
	return tu_testdata(rel);
}

/* What a load says: its error (0) and format. */
struct got {
	int rc;
	const char *format;
	unsigned caps;
	char msg[512];
	char warning[512];
};

static void on_log(enum perfan_log_level level, const char *msg, void *pl)
{
	(void)level;
	snprintf(((struct got *)pl)->warning,
		 sizeof(((struct got *)pl)->warning), "%s", msg);
}

/* DATA[0..LEN) read through the registry, as a file named NAME. */
static perfan_profile *load_buf(const char *data, size_t len, const char *name,
				int lineno, int root, struct got *g)
{
	struct perfan_source_opts so =
		PERFAN_OPTS_INIT(struct perfan_source_opts);
	so.pyspy.lineno = lineno;
	so.root = root;
	so.log = on_log;
	so.log_payload = g;
	memset(g, 0, sizeof(*g));
	int fd = fuzz_memfd("fuzz-pyspy", (const uint8_t *)data, len);
	ck_assert_int_ge(fd, 0);
	perfan_source *s;
	ck_assert_int_eq(perfan_source_open_fd(&s, fd, name, &so), 0);
	g->format = perfan_source_format(s);
	g->caps = perfan_source_caps(s);
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	g->rc = perfan_source_load(s, p, NULL);
	if (g->rc)
		snprintf(g->msg, sizeof(g->msg), "%s", perfan_error_last());
	perfan_source_free(s);
	close(fd);
	return p;
}

static perfan_profile *load_file(const char *name, int lineno, int root)
{
	size_t len;
	char *data = slurp(pyspy_file(name), &len);
	struct got g;
	perfan_profile *p = load_buf(data, len, name, lineno, root, &g);
	ck_assert_msg(g.rc == 0, "%s: %s", name, g.msg);
	ck_assert_str_eq(g.format, "py-spy");
	free(data);
	return p;
}

/* The stacks of P as folded lines (sorted). */
static char *folded(const perfan_profile *p, int no_process)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct perfan_folded_write_opts o =
		PERFAN_OPTS_INIT(struct perfan_folded_write_opts);
	o.no_process = no_process;
	ck_assert_int_eq(perfan_folded_write(p, fp, &o), 0);
	fclose(fp);
	return buf;
}

static const char *detect_str(const char *s)
{
	return perfan_source_detect(s, strlen(s));
}

/* ---- detection ----------------------------------------------------------- */

START_TEST(test_detect_files)
{
	for (size_t i = 0; i < NFILES; i++) {
		size_t len;
		char *data = slurp(pyspy_file(files[i]), &len);
		const char *f = perfan_source_detect(data, len);
		/* --nolineno without roots has nothing plain folded stacks
		 * lack: read as folded stacks, the same stacks (see
		 * check_functions) */
		const char *want = strstr(files[i], "nolineno") ? "folded"
								: "py-spy";
		ck_assert_msg(f && !strcmp(f, want), "%s: %s", files[i],
			      f ? f : "none");
		if (!strcmp(want, "folded")) {
			free(data);
			continue;
		}
		free(data);
		struct got g;
		perfan_profile *p = load_file(files[i], 0, PERFAN_ROOT_COMM);
		perfan_profile_free(p);
		data = slurp(pyspy_file(files[i]), &len);
		p = load_buf(data, len, files[i], 0, PERFAN_ROOT_COMM, &g);
		ck_assert_uint_eq(g.caps, PERFAN_SOURCE_COUNTED |
						  PERFAN_SOURCE_PAIRED |
						  PERFAN_SOURCE_ROOTS);
		perfan_profile_free(p);
		free(data);
	}
}
END_TEST

START_TEST(test_detect_lines)
{
	/* py-spy's: a line number, a root */
	ck_assert_str_eq(detect_str("main (app.py:3);f (app.py:9) 4\n"),
			 "py-spy");
	ck_assert_str_eq(detect_str("thread (0x7F3A2B1C0700);main (a.py) 1\n"),
			 "py-spy");
	ck_assert_str_eq(detect_str("thread (12): MainThread;main (a.py) 1\n"),
			 "py-spy");
	ck_assert_str_eq(detect_str("process 9:\"python a.py\";main (a.py) 1"),
			 "py-spy");
	ck_assert_str_eq(detect_str(" 3\nmain (app.py:3) 4\n"), "py-spy");
	/* damage after good lines: still py-spy, for its reader to name */
	ck_assert_str_eq(detect_str("main (app.py:3) 4\nf (app.py:\n"),
			 "py-spy");
	/* folded stacks: perfan's Python frames have no line, its roots
	 * are comms; a frame of another shape; a comment */
	ck_assert_str_eq(detect_str("<module> (app.py);main (app.py) 3\n"),
			 "folded");
	ck_assert_str_eq(detect_str("python3;main (app.py:3) 3\n"), "folded");
	ck_assert_str_eq(
		detect_str("main (app.py:3) 3\npython3;main (app.py) 2\n"),
		"folded");
	ck_assert_str_eq(detect_str("a;b 1\n"), "folded");
	ck_assert_str_eq(detect_str("#x\nmain (app.py:3) 3\n"), "folded");
	ck_assert_ptr_null(strstr(detect_str(" 3\n 4\n"), "py-spy"));
	const char *elf = detect_str("\x7f"
				     "ELF\x02\x01\x01");
	ck_assert(!elf || strcmp(elf, "py-spy"));
}
END_TEST

/* The first 64 KiB of a .zst file, decompressed. */
static char *unzstd_head(const char *path, size_t *len)
{
	size_t zlen;
	char *z = slurp(path, &zlen);
	size_t cap = 65536;
	char *out = malloc(cap + 1);
	ck_assert_ptr_nonnull(out);
	ZSTD_DStream *ds = ZSTD_createDStream();
	ZSTD_initDStream(ds);
	ZSTD_inBuffer in = {z, zlen, 0};
	ZSTD_outBuffer ob = {out, cap, 0};
	while (ob.pos < ob.size && in.pos < in.size) {
		size_t r = ZSTD_decompressStream(ds, &ob, &in);
		ck_assert_msg(!ZSTD_isError(r), "%s: %s", path,
			      ZSTD_getErrorName(r));
		if (!r)
			break;
	}
	ZSTD_freeDStream(ds);
	free(z);
	*len = ob.pos;
	return out;
}

/* Every folded file the repository holds as an expected output stays
 * "folded". */
START_TEST(test_detect_repo_folded)
{
	const char *dirs[] = {"script-wild", "py-handler", "diff", "pstats"};
	size_t seen = 0;
	for (size_t d = 0; d < sizeof(dirs) / sizeof(*dirs); d++) {
		DIR *dp = opendir(tu_testdata(dirs[d]));
		if (!dp)
			continue;
		struct dirent *e;
		while ((e = readdir(dp))) {
			const char *n = e->d_name;
			int zst = strstr(n, ".folded.zst") != NULL;
			size_t nl = strlen(n);
			if (!zst && !(nl > 7 && !strcmp(n + nl - 7, ".folded")))
				continue;
			char rel[512];
			tu_fmt(rel, sizeof(rel), "%s/%s", dirs[d], n);
			size_t len;
			char *data = zst ? unzstd_head(tu_testdata(rel), &len)
					 : slurp(tu_testdata(rel), &len);
			const char *f = perfan_source_detect(
				data, len < 65536 ? len : 65536);
			ck_assert_msg(f && !strcmp(f, "folded"), "%s: %s", rel,
				      f ? f : "none");
			free(data);
			seen++;
		}
		closedir(dp);
	}
	ck_assert_uint_ge(seen, 12);
}
END_TEST

/* perfan's own collapse output: of py-spy input (function frames, comm
 * roots or none), and of a Python recording in its Python views, whose
 * frames are "qualname (file)" too. */
START_TEST(test_detect_own_output)
{
	for (size_t i = 0; i < NFILES; i++) {
		if (strstr(files[i], "nolineno"))
			continue; /* folded stacks already */
		perfan_profile *p = load_file(files[i], 0, PERFAN_ROOT_COMM);
		for (int np = 0; np < 2; np++) {
			char *out = folded(p, np);
			ck_assert_msg(!strcmp(detect_str(out), "folded"),
				      "%s (no_process %d): %s", files[i], np,
				      detect_str(out));
			free(out);
		}
		perfan_profile_free(p);
	}
	perfan_perfdata *pd;
	ck_assert_int_eq(perfan_perfdata_open(
				 &pd, tu_testdata("py-handler/perf312fp.data"),
				 NULL),
			 0);
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	struct perfan_resolve_opts o = PERFAN_RESOLVE_OPTS_INIT;
	o.host = tu_host();
	o.symfs = tu_testdata("py-handler");
	o.perf_map_dir = tu_testdata("py-handler");
	o.buildid_dir = tu_testdata("no-such-cache");
	o.kallsyms = tu_testdata("kallsyms");
	o.weight = PERFAN_WEIGHT_SAMPLES;
	ck_assert_int_eq(perfan_resolve_perfdata(p, pd, &o, NULL), 0);
	perfan_perfdata_free(pd);
	ck_assert(perfan_python_present(p));
	for (int view = PERFAN_PY_MIXED; view <= PERFAN_PY_PYTHON; view++) {
		perfan_profile *v;
		ck_assert_int_eq(perfan_python_view(&v, p, view), 0);
		for (int np = 0; np < 2; np++) {
			char *out = folded(v, np);
			ck_assert_ptr_nonnull(strstr(out, " (/"));
			ck_assert_msg(!strcmp(detect_str(out), "folded"),
				      "view %d no_process %d: %s", view, np,
				      detect_str(out));
			free(out);
		}
		perfan_profile_free(v);
	}
	perfan_profile_free(p);
}
END_TEST

/* ---- line numbers ------------------------------------------------------ */

/* A frame's name without its ":LINE)": "f (a.py:3)" -> "f (a.py)". */
static void function_of(const char *name, char *out, size_t n)
{
	snprintf(out, n, "%s", name);
	size_t l = strlen(out), d = l - 1;
	if (l < 3 || out[l - 1] != ')')
		return;
	while (d > 0 && out[d - 1] >= '0' && out[d - 1] <= '9')
		d--;
	if (d < l - 1 && d > 0 && out[d - 1] == ':') {
		out[d - 1] = ')';
		out[d] = '\0';
	}
}

static perfan_report *report_of(const perfan_profile *p)
{
	struct perfan_report_opts ro =
		PERFAN_OPTS_INIT(struct perfan_report_opts);
	ro.sort = "sym";
	ro.root_format = PERFAN_ROOT_COMM;
	perfan_report *r;
	ck_assert_int_eq(perfan_report_new(&r, p, &ro), 0);
	return r;
}

/* The done-when of issue 13: read with line numbers folded (the default),
 * a function's shares (total and self) are exactly the sums of its
 * lines' shares read with --lineno, and the stacks are those py-spy's own
 * --nolineno wrote from the same samples. */
static void check_functions(const char *name, const char *nolineno)
{
	perfan_profile *fn = load_file(name, 0, PERFAN_ROOT_COMM);
	perfan_profile *ln = load_file(name, 1, PERFAN_ROOT_COMM);
	if (nolineno) {
		/* py-spy's own --nolineno of the same samples, read as the
		 * folded stacks it is */
		perfan_profile *ref;
		ck_assert_int_eq(perfan_profile_new(&ref, NULL), 0);
		ck_assert_int_eq(perfan_folded_read_path(ref,
							 pyspy_file(nolineno),
							 "samples", NULL),
				 0);
		char *a = folded(fn, 0), *b = folded(ref, 0);
		ck_assert_str_eq(a, b);
		free(a);
		free(b);
		perfan_profile_free(ref);
	}
	perfan_report *rf = report_of(fn), *rl = report_of(ln);
	ck_assert_uint_eq(perfan_report_total(rf, 0),
			  perfan_report_total(rl, 0));
	size_t nf = perfan_report_nr_rows(rf, 0),
	       nl = perfan_report_nr_rows(rl, 0);
	ck_assert_uint_gt(nl, nf); /* some function ran on several lines */
	size_t split = 0;
	printf("%s: %-36s %8s %8s  %s\n", name, "function", "total%", "self%",
	       "lines: total% (self%) ...");
	for (size_t i = 0; i < nf; i++) {
		const struct perfan_report_row *f = perfan_report_row(rf, 0, i);
		uint64_t total = 0, self = 0;
		double tp = 0, sp = 0;
		size_t lines = 0;
		char line_text[1024] = "";
		for (size_t k = 0; k < nl; k++) {
			const struct perfan_report_row *l =
				perfan_report_row(rl, 0, k);
			char fname[512];
			function_of(l->sym, fname, sizeof(fname));
			if (strcmp(fname, f->sym))
				continue;
			ck_assert_uint_eq(l->kind, f->kind);
			total += l->total;
			self += l->self;
			tp += l->total_percent;
			sp += l->self_percent;
			lines++;
			size_t at = strlen(line_text);
			snprintf(line_text + at, sizeof(line_text) - at,
				 " %.*s: %.2f (%.2f)",
				 (int)strspn(strrchr(l->sym, ':') + 1,
					     "0123456789"),
				 strrchr(l->sym, ':') + 1, l->total_percent,
				 l->self_percent);
		}
		ck_assert_msg(lines > 0, "%s: no line of %s", name, f->sym);
		/* a function on no stack twice (no recursion in app.py): its
		 * samples are its lines' samples */
		ck_assert_msg(
			total == f->total && self == f->self,
			"%s: %s total %llu self %llu, its lines %llu %llu",
			name, f->sym, (unsigned long long)f->total,
			(unsigned long long)f->self, (unsigned long long)total,
			(unsigned long long)self);
		ck_assert(fabs(tp - f->total_percent) < 1e-9);
		ck_assert(fabs(sp - f->self_percent) < 1e-9);
		split += lines > 1;
		printf("%s: %-36s %8.2f %8.2f %s\n", name, f->sym,
		       f->total_percent, f->self_percent, line_text);
	}
	ck_assert_uint_gt(split, 0);
	perfan_report_free(rf);
	perfan_report_free(rl);
	perfan_profile_free(fn);
	perfan_profile_free(ln);
}

START_TEST(test_functions_are_sums_of_lines)
{
	check_functions("raw.txt", "raw-nolineno.txt");
	check_functions("fixed.txt", "fixed-nolineno.txt");
	check_functions("raw-subprocesses.txt", NULL);
}
END_TEST

/* One frame per function, named "name (file)" as perfan's Python views
 * name Python frames, with the file as its module; --lineno keeps each
 * line's frame. */
START_TEST(test_frames)
{
	const char *t = "main (app.py:48);summarize_slow (app.py:16) 3\n"
			"main (app.py:48);summarize_slow (app.py:17) 5\n";
	struct got g;
	perfan_profile *p =
		load_buf(t, strlen(t), "t", 0, PERFAN_ROOT_COMM, &g);
	ck_assert_int_eq(g.rc, 0);
	char *out = folded(p, 0);
	ck_assert_str_eq(out, "main (app.py);summarize_slow (app.py) 8\n");
	free(out);
	int found = 0;
	for (uint32_t i = 0; i < perfan_profile_nr_frames(p); i++) {
		const struct perfan_frame *f = perfan_profile_frame_get(p, i);
		ck_assert_uint_eq(f->kind, PERFAN_FRAME_PYTHON);
		ck_assert_str_eq(f->module, "app.py");
		ck_assert_str_eq(f->file, "app.py");
		ck_assert_uint_eq(f->line, 0);
		found += !strcmp(f->name, "summarize_slow (app.py)");
	}
	ck_assert_int_eq(found, 1);
	perfan_profile_free(p);
	p = load_buf(t, strlen(t), "t", 1, PERFAN_ROOT_COMM, &g);
	out = folded(p, 0);
	ck_assert_str_eq(out,
			 "main (app.py:48);summarize_slow (app.py:16) 3\n"
			 "main (app.py:48);summarize_slow (app.py:17) 5\n");
	free(out);
	for (uint32_t i = 0; i < perfan_profile_nr_frames(p); i++) {
		const struct perfan_frame *f = perfan_profile_frame_get(p, i);
		ck_assert_uint_eq(f->line, !strcmp(f->name, "main (app.py:48)")
						   ? 48
					   : strstr(f->name, ":16") ? 16
								    : 17);
	}
	perfan_profile_free(p);

	/* --native: machine code stays native; pseudo-files are Python */
	t = "<module> (<frozen runpy>:88);_PyEval (ceval.c:12);"
	    "PyObject_Call (libpython3.11.so.1.0);memcpy (libc.so.6);"
	    "0x7f00aa (?);f (ext.cpp:3);g (mod.so) 2\n";
	p = load_buf(t, strlen(t), "n", 0, PERFAN_ROOT_COMM, &g);
	ck_assert_int_eq(g.rc, 0);
	ck_assert_str_eq(g.format, "py-spy");
	for (uint32_t i = 0; i < perfan_profile_nr_frames(p); i++) {
		const struct perfan_frame *f = perfan_profile_frame_get(p, i);
		int py = !strncmp(f->name, "<module>", 8);
		ck_assert_msg(f->kind == (py ? PERFAN_FRAME_PYTHON
					     : PERFAN_FRAME_NATIVE),
			      "%s: kind %u", f->name, f->kind);
	}
	out = folded(p, 0);
	ck_assert_str_eq(out, "<module> (<frozen runpy>);_PyEval (ceval.c);"
			      "PyObject_Call (libpython3.11.so.1.0);memcpy "
			      "(libc.so.6);0x7f00aa (?);f (ext.cpp);g "
			      "(mod.so) 2\n");
	free(out);
	perfan_profile_free(p);
}
END_TEST

/* ---- roots --------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The root frames of P with their process children, "root[pid]>child
 * [pid/tid]," sorted (roots of other kinds as their names). */
static char *roots(const perfan_profile *p)
{
	char *items[64];
	size_t ni = 0;
	const perfan_node_id *kids;
	size_t n = perfan_profile_node_children(p, PERFAN_ROOT_NODE, &kids);
	for (size_t i = 0; i < n; i++) {
		const struct perfan_frame *f = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, kids[i]));
		if (f->kind != PERFAN_FRAME_PROCESS) {
			ck_assert_uint_lt(ni, 64);
			ck_assert_int_ge(asprintf(&items[ni++], "%s,", f->name),
					 0);
			continue;
		}
		const perfan_node_id *k2;
		size_t n2 = perfan_profile_node_children(p, kids[i], &k2);
		for (size_t j = 0; j < n2; j++) {
			const struct perfan_frame *t = perfan_profile_frame_get(
				p, perfan_profile_node_frame(p, k2[j]));
			if (t->kind != PERFAN_FRAME_PROCESS)
				continue;
			ck_assert_uint_lt(ni, 64);
			ck_assert_int_ge(asprintf(&items[ni++],
						  "%s[%d]>%s[%d/%d],", f->name,
						  f->pid, t->name, t->pid,
						  t->tid),
					 0);
		}
	}
	qsort(items, ni, sizeof(*items), cmp_str);
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	for (size_t i = 0; i < ni; i++) {
		fputs(items[i], fp);
		free(items[i]);
	}
	fclose(fp);
	return buf;
}

/* NAME read with ROOT has the root WANT (as roots() writes it). */
static void has_root(const char *name, int root, const char *want)
{
	perfan_profile *p = load_file(name, 0, root);
	char *r = roots(p);
	ck_assert_msg(strstr(r, want), "%s: no %s in %s", name, want, r);
	free(r);
	perfan_profile_free(p);
}

static int has_process(const perfan_profile *p)
{
	for (uint32_t i = 0; i < perfan_profile_nr_frames(p); i++)
		if (perfan_profile_frame_get(p, i)->kind ==
		    PERFAN_FRAME_PROCESS)
			return 1;
	return 0;
}

START_TEST(test_roots)
{
	/* without --threads and --subprocesses: no process frame */
	perfan_profile *p = load_file("raw.txt", 0, PERFAN_ROOT_COMM);
	ck_assert(!has_process(p));
	uint64_t total = perfan_profile_total(p, 0);
	perfan_profile_free(p);

	/* --subprocesses --threads: the process a stack is in (its
	 * ancestors left out), named as perf.data roots are, then its
	 * thread by its name; pid and tid as data */
	p = load_file("raw-subprocesses.txt", 0, PERFAN_ROOT_COMM);
	char *r = roots(p);
	/* (a thread frame shared by two processes, as a comm root shared
	 * by two threads in perf.data, knows no single pid or tid) */
	ck_assert_str_eq(r, "python_app.py_--child[30752]>MainThread[-1/-1],"
			    "python_app.py_--child[30752]>worker[-1/-1],"
			    "python_app.py_--leaf[30755]>MainThread[-1/-1],"
			    "python_app.py_--leaf[30755]>worker[-1/-1],");
	free(r);
	perfan_profile_free(p);

	/* --pid, --tid: ids in the names, py-spy's thread text */
	has_root("raw-subprocesses.txt", PERFAN_ROOT_PID,
		 "python_app.py_--leaf-30755[30755]>"
		 "thread (30757): worker[30755/30757],");
	has_root("raw-subprocesses.txt", PERFAN_ROOT_PID_TID,
		 "python_app.py_--leaf-30755/30757[30755]>"
		 "thread (30757): worker[30755/30757],");

	/* --threads: the thread is the root */
	p = load_file("raw-threads.txt", 0, PERFAN_ROOT_COMM);
	const perfan_node_id *kids;
	size_t n = perfan_profile_node_children(p, PERFAN_ROOT_NODE, &kids);
	ck_assert_uint_eq(n, 2);
	for (size_t i = 0; i < n; i++) {
		const struct perfan_frame *f = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, kids[i]));
		ck_assert_uint_eq(f->kind, PERFAN_FRAME_PROCESS);
		ck_assert(!strcmp(f->name, "MainThread") ||
			  !strcmp(f->name, "worker"));
		ck_assert_int_eq(f->pid, -1);
		ck_assert_int_gt(f->tid, 0);
	}
	ck_assert_uint_eq(perfan_profile_total(p, 0), total);
	perfan_profile_free(p);

	/* no roots asked for: the same stacks as without the options */
	p = load_file("raw-subprocesses.txt", 0, PERFAN_ROOT_NONE);
	ck_assert(!has_process(p));
	perfan_profile_free(p);
	perfan_profile *a = load_file("raw-threads.txt", 0, PERFAN_ROOT_NONE);
	perfan_profile *b = load_file("raw.txt", 0, PERFAN_ROOT_NONE);
	char *fa = folded(a, 0), *fb = folded(b, 0);
	ck_assert_str_eq(fa, fb);
	free(fa);
	free(fb);
	perfan_profile_free(a);
	perfan_profile_free(b);

	/* a pthread id (py-spy without the OS thread id), a command line
	 * with ';' in it, a thread without a name */
	const char *t =
		"process 7:\"/usr/bin/sh -c a;b\";thread "
		"(0x7F3A2B1C0700);f (a.py:1) 2\n"
		"process 7:\"/usr/bin/sh -c a;b\";thread (8);f (a.py:1) 1\n";
	struct got g;
	p = load_buf(t, strlen(t), "t", 0, PERFAN_ROOT_COMM, &g);
	ck_assert_int_eq(g.rc, 0);
	r = roots(p);
	ck_assert_str_eq(r, "sh_-c_a;b[7]>thread (0x7F3A2B1C0700)[7/-1],"
			    "sh_-c_a;b[7]>thread (8)[7/8],");
	free(r);
	perfan_profile_free(p);
}
END_TEST

/* ---- two runs ------------------------------------------------------------ */

START_TEST(test_pair)
{
	perfan_profile *a = load_file("raw.txt", 0, PERFAN_ROOT_COMM);
	perfan_profile *b = load_file("fixed.txt", 0, PERFAN_ROOT_COMM);
	struct perfan_source_opts so =
		PERFAN_OPTS_INIT(struct perfan_source_opts);
	so.root = PERFAN_ROOT_COMM;
	perfan_source *s1, *s2;
	ck_assert_int_eq(perfan_source_open(&s1, pyspy_file("raw.txt"), &so),
			 0);
	ck_assert_int_eq(perfan_source_open(&s2, pyspy_file("fixed.txt"), &so),
			 0);
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	ck_assert_int_eq(perfan_source_load_pair(p, s1, s2, "before", "after"),
			 0);
	perfan_source_free(s1);
	perfan_source_free(s2);
	ck_assert_uint_eq(perfan_profile_nr_columns(p), 2);
	ck_assert_str_eq(perfan_profile_column_name(p, 0), "before");
	ck_assert_uint_eq(perfan_profile_total(p, 0),
			  perfan_profile_total(a, 0));
	ck_assert_uint_eq(perfan_profile_total(p, 1),
			  perfan_profile_total(b, 0));
	/* summarize_slow is one frame in both runs, on the same path */
	int n = 0;
	for (perfan_node_id x = 1; x < perfan_profile_nr_nodes(p); x++) {
		const struct perfan_frame *f = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, x));
		if (strcmp(f->name, "summarize_slow (app.py)"))
			continue;
		n++;
		ck_assert_uint_gt(perfan_profile_node_total(p, x, 0), 0);
		ck_assert_uint_gt(perfan_profile_node_total(p, x, 1), 0);
		/* the fix: a smaller share after */
		ck_assert_uint_lt(perfan_profile_node_total(p, x, 1) *
					  perfan_profile_total(p, 0),
				  perfan_profile_node_total(p, x, 0) *
					  perfan_profile_total(p, 1));
	}
	ck_assert_int_eq(n, 1);
	perfan_profile_free(p);
	perfan_profile_free(a);
	perfan_profile_free(b);
}
END_TEST

/* ---- cut and damaged ---------------------------------------------------- */

/* Every frame name of P, as text for strstr, "\n"-joined. */
static char *frame_names(const perfan_profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	fputc('\n', fp);
	for (uint32_t i = 0; i < perfan_profile_nr_frames(p); i++)
		fprintf(fp, "%s\n", perfan_profile_frame_get(p, i)->name);
	fclose(fp);
	return buf;
}

/* Cut anywhere: the lines before the cut are all read; the cut line
 * (py-spy ends each line with '\n') is left out with a warning naming
 * it, for its count or its last frame may be cut; no frame the whole
 * file does not have. */
START_TEST(test_every_prefix)
{
	const char *name = _i ? "raw-subprocesses.txt" : "raw.txt";
	size_t len;
	char *data = slurp(pyspy_file(name), &len);
	perfan_profile *whole = load_file(name, 0, PERFAN_ROOT_COMM);
	char *names = frame_names(whole);
	if (_i) {
		/* its first line (a process and a thread root) and the first
		 * with two processes (a subprocess under its parent): every
		 * prefix of all 4748 bytes takes minutes under ASan */
		char *nl = strchr(data, '\n'),
		     *two = strstr(data, "\";process ");
		ck_assert_ptr_nonnull(nl);
		ck_assert_ptr_nonnull(two);
		while (two > data && two[-1] != '\n')
			two--;
		size_t l1 = (size_t)(nl + 1 - data);
		size_t l2 = (size_t)(strchr(two, '\n') + 1 - two);
		memmove(data + l1, two, l2);
		len = l1 + l2;
		data[len] = '\0';
	}
	uint64_t before = 0; /* the counts of the whole lines so far */
	uint64_t lineno = 1;
	size_t line_start = 0;
	for (size_t n = 1; n <= len; n++) {
		if (data[n - 1] == '\n') {
			size_t sp = n - 1;
			while (data[sp - 1] != ' ')
				sp--;
			before += strtoull(data + sp, NULL, 10);
			line_start = n;
			lineno++;
		}
		struct got g;
		perfan_profile *p =
			load_buf(data, n, "cut", 0, PERFAN_ROOT_COMM, &g);
		if (lineno == 1 && (!g.format || strcmp(g.format, "py-spy"))) {
			/* a first line cut short is not py-spy's: no format,
			 * or text another reader makes what it can of */
			perfan_profile_free(p);
			continue;
		}
		ck_assert_msg(g.format && !strcmp(g.format, "py-spy"),
			      "%s cut at %zu: %s", name, n,
			      g.format ? g.format : "none");
		ck_assert_msg(g.rc == 0, "%s cut at %zu: %s", name, n, g.msg);
		ck_assert_uint_eq(perfan_profile_total(p, 0), before);
		if (line_start < n) {
			char want[96];
			snprintf(want, sizeof(want),
				 "cut: offset %zu (line %llu): the last line "
				 "has no newline",
				 line_start, (unsigned long long)lineno);
			ck_assert_msg(strstr(g.warning, want),
				      "cut at %zu: '%s'", n, g.warning);
		} else {
			ck_assert_str_eq(g.warning, "");
		}
		char *got = frame_names(p);
		for (char *s = got + 1, *e; (e = strchr(s, '\n')); s = e + 1) {
			*e = '\0';
			char key[1024];
			snprintf(key, sizeof(key), "\n%s\n", s);
			ck_assert_msg(strstr(names, key),
				      "cut at %zu: frame '%s' invented", n, s);
		}
		free(got);
		perfan_profile_free(p);
		if (n % 4 == 0 || data[n - 1] == '\n')
			LLVMFuzzerTestOneInput((const uint8_t *)data, n);
	}
	free(names);
	perfan_profile_free(whole);
	free(data);
}
END_TEST

/* Each byte changed, in turn to a NUL, a ';' and a '(', through the fuzz
 * target's checks (one way per byte: three take minutes under ASan). */
START_TEST(test_every_byte_damaged)
{
	size_t len;
	char *data = slurp(pyspy_file("raw-threads.txt"), &len);
	static const char how[] = {'\0', ';', '('};
	for (size_t i = 0; i < len; i++) {
		char was = data[i];
		data[i] = how[i % sizeof(how)];
		LLVMFuzzerTestOneInput((const uint8_t *)data, len);
		data[i] = was;
	}
	free(data);
}
END_TEST

static const struct {
	const char *what, *text;
	size_t len;
	const char *msg;
} damaged[] = {
#define D(w, t, m)                                                             \
	{                                                                      \
		w, t, sizeof(t) - 1, m                                         \
	}
	D("no count", "f (a.py:1) 2\ng (a.py:2)\n",
	  "d: offset 13 (line 2): expected a stack, a space and a count"),
	D("empty frame", "f (a.py:1) 2\ng (a.py:2);;h (a.py:3) 1\n",
	  "d: offset 13 (line 2): an empty frame"),
	D("NUL", "f (a.py:1) 2\nf (a.py:1) 3\ng (a.\0py:2) 1\n",
	  "d: offset 26 (line 3): a NUL byte"),
	D("count", "f (a.py:1) 2\ng (a.py:2) 99999999999999999999\n",
	  "d: offset 13 (line 2): count larger than 2^64-1"),
	D("sum", "f (a.py:1) 18446744073709551615\ng (a.py:2) 1\n",
	  "d: offset 32 (line 2): the counts add up to more than 2^64-1"),
	D("root", "f (a.py:1) 2\nprocess 3;f (a.py:1) 1\n",
	  "d: offset 13 (line 2): a process root frame without its"),
#undef D
};

START_TEST(test_damaged)
{
	struct got g;
	const char *t = damaged[_i].text;
	size_t len = damaged[_i].len;
	perfan_profile *p = load_buf(t, len, "d", 0, PERFAN_ROOT_COMM, &g);
	ck_assert_str_eq(g.format, "py-spy");
	ck_assert_int_eq(g.rc, PERFAN_EFORMAT);
	ck_assert_msg(strstr(g.msg, damaged[_i].msg), "%s: '%s'",
		      damaged[_i].what, g.msg);
	/* the lines before it are kept */
	ck_assert_uint_gt(perfan_profile_total(p, 0), 0);
	perfan_profile_free(p);
	LLVMFuzzerTestOneInput((const uint8_t *)t, len);
}
END_TEST

START_TEST(test_not_text)
{
	static const char elf[] = "\x7f"
				  "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0";
	struct got g;
	perfan_profile *p =
		load_buf(elf, sizeof(elf), "bin", 0, PERFAN_ROOT_COMM, &g);
	ck_assert_ptr_null(g.format);
	ck_assert_int_eq(g.rc, PERFAN_EFORMAT);
	ck_assert_ptr_nonnull(strstr(g.msg, "bin: neither"));
	perfan_profile_free(p);
}
END_TEST

/* A thread with no Python frame: " N" (py-spy writes it so), left out
 * with a warning. */
START_TEST(test_empty_stack)
{
	const char *t = "f (a.py:1) 2\n 5\n";
	struct got g;
	perfan_profile *p =
		load_buf(t, strlen(t), "e", 0, PERFAN_ROOT_COMM, &g);
	ck_assert_str_eq(g.format, "py-spy");
	ck_assert_int_eq(g.rc, 0);
	ck_assert_uint_eq(perfan_profile_total(p, 0), 2);
	ck_assert_ptr_nonnull(strstr(g.warning, "e: 5 samples have no frame"));
	perfan_profile_free(p);
}
END_TEST

static Suite *pyspy_suite(void)
{
	Suite *s = suite_create("pyspy");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_detect_files);
	tcase_add_test(tc, test_detect_lines);
	tcase_add_test(tc, test_detect_repo_folded);
	tcase_add_test(tc, test_detect_own_output);
	tcase_add_test(tc, test_functions_are_sums_of_lines);
	tcase_add_test(tc, test_frames);
	tcase_add_test(tc, test_roots);
	tcase_add_test(tc, test_pair);
	tcase_add_loop_test(tc, test_every_prefix, 0, 2);
	tcase_add_test(tc, test_every_byte_damaged);
	tcase_add_loop_test(tc, test_damaged, 0,
			    (int)(sizeof(damaged) / sizeof(damaged[0])));
	tcase_add_test(tc, test_not_text);
	tcase_add_test(tc, test_empty_stack);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(pyspy_suite)
