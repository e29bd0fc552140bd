/* check_python.c: the native, mixed and python views of a made-up CPython
 * 3.12 stack (trampolines, the eval loop and call glue, C code and the
 * kernel below the innermost Python function), and their names; kept
 * samples carried into a view; the runtime frames a Python function's self
 * time holds, and the C hot spots of that self time. */
#define _GNU_SOURCE
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define LIBPY "libpython3.12.so.1.0"

struct fr {
	const char *name, *module;
	uint32_t kind;
};

static const struct fr stack[] = {
	{"python3", NULL, PERFAN_FRAME_PROCESS},
	{"_start", "python3.12", PERFAN_FRAME_NATIVE},
	{"__libc_start_call_main", "libc.so.6", PERFAN_FRAME_NATIVE},
	{"Py_BytesMain", LIBPY, PERFAN_FRAME_NATIVE},
	{"PyEval_EvalCode", LIBPY, PERFAN_FRAME_NATIVE},
	{"_PyEval_Vector", LIBPY, PERFAN_FRAME_INLINED},
	{"py_trampoline_evaluator", LIBPY, PERFAN_FRAME_NATIVE},
	{"py::<module>:/w/h.py", "perf-1.map", PERFAN_FRAME_PYTHON},
	{"_PyEval_EvalFrameDefault", LIBPY, PERFAN_FRAME_NATIVE},
	{"PyObject_Vectorcall", LIBPY, PERFAN_FRAME_NATIVE},
	{"_PyFunction_Vectorcall", LIBPY, PERFAN_FRAME_NATIVE},
	{"py_trampoline_evaluator", LIBPY, PERFAN_FRAME_NATIVE},
	{"py::main:/w/h.py", "perf-1.map", PERFAN_FRAME_PYTHON},
	{"_PyEval_EvalFrameDefault", LIBPY, PERFAN_FRAME_NATIVE},
	{"builtin_sorted", LIBPY, PERFAN_FRAME_NATIVE},
	{"PyObject_Vectorcall", LIBPY, PERFAN_FRAME_NATIVE},
	{"py_trampoline_evaluator", LIBPY, PERFAN_FRAME_NATIVE},
	{"py::Handler.key:/w/h.py", "perf-1.map", PERFAN_FRAME_PYTHON},
	{"_PyEval_EvalFrameDefault", LIBPY, PERFAN_FRAME_NATIVE},
	{"list_contains", LIBPY, PERFAN_FRAME_NATIVE},
	{"encoder_call", "_json.so", PERFAN_FRAME_NATIVE},
	{"asm_exc_page_fault", "[kernel.kallsyms]", PERFAN_FRAME_KERNEL},
};
#define N (sizeof(stack) / sizeof(*stack))

/* The frames of the made-up stack in P, into F[N]. */
static void intern_stack(perfan_profile *p, perfan_frame_id *f)
{
	for (size_t i = 0; i < N; i++)
		f[i] = tu_frame(p, stack[i].name, stack[i].module, NULL, 0,
				stack[i].kind);
}

static perfan_profile *made_up(void)
{
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	ck_assert_int_eq(perfan_profile_add_column(p, "cpu-clock", "samples"),
			 0);
	perfan_frame_id f[N];
	intern_stack(p, f);
	ck_assert_int_eq(perfan_profile_add(p, f, N, 0, 7, NULL, NULL), 0);
	/* a sample in the interpreter's start-up: no Python frame */
	ck_assert_int_eq(perfan_profile_add(p, f, 4, 0, 1, NULL, NULL), 0);
	return p;
}

/* The stacks of P, "a;b;c w" sorted, joined by newlines. */
static char *stacks(const perfan_profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct perfan_folded_write_opts o =
		PERFAN_OPTS_INIT(struct perfan_folded_write_opts);
	ck_assert_int_eq(perfan_folded_write(p, fp, &o), 0);
	fclose(fp);
	return buf;
}

static void expect(int view, const char *want)
{
	perfan_profile *p = made_up(), *v;
	ck_assert_int_eq(perfan_python_view(&v, p, view), 0);
	char *got = stacks(v);
	ck_assert_msg(!strcmp(got, want), "view %d:\n%s\nwanted:\n%s", view,
		      got, want);
	ck_assert_uint_eq(perfan_profile_total(v, 0), 8);
	free(got);
	perfan_profile_free(v);
	perfan_profile_free(p);
}

START_TEST(test_views)
{
	expect(PERFAN_PY_NATIVE,
	       "python3;_start;__libc_start_call_main;Py_BytesMain 1\n"
	       "python3;_start;__libc_start_call_main;Py_BytesMain;"
	       "PyEval_EvalCode;_PyEval_Vector;py_trampoline_evaluator;"
	       "py::<module>:/w/h.py;_PyEval_EvalFrameDefault;"
	       "PyObject_Vectorcall;_PyFunction_Vectorcall;"
	       "py_trampoline_evaluator;py::main:/w/h.py;"
	       "_PyEval_EvalFrameDefault;builtin_sorted;PyObject_Vectorcall;"
	       "py_trampoline_evaluator;py::Handler.key:/w/h.py;"
	       "_PyEval_EvalFrameDefault;list_contains;encoder_call;"
	       "asm_exc_page_fault 7\n");
	/* no interpreter frame between two Python frames; C called from
	 * Python stays (builtin_sorted calls back into Python) */
	expect(PERFAN_PY_MIXED,
	       "python3;_start;__libc_start_call_main;Py_BytesMain 1\n"
	       "python3;_start;__libc_start_call_main;Py_BytesMain;"
	       "<module> (/w/h.py);main (/w/h.py);builtin_sorted;"
	       "Handler.key (/w/h.py);list_contains;encoder_call;"
	       "asm_exc_page_fault 7\n");
	/* Python only, with the leaves outside the interpreter */
	expect(PERFAN_PY_PYTHON,
	       "python3;<module> (/w/h.py);main (/w/h.py);"
	       "Handler.key (/w/h.py);encoder_call;asm_exc_page_fault 7\n"
	       "python3;_start;__libc_start_call_main;Py_BytesMain 1\n");
}
END_TEST

START_TEST(test_parse_and_present)
{
	ck_assert_int_eq(perfan_python_view_parse("mixed"), PERFAN_PY_MIXED);
	ck_assert_int_eq(perfan_python_view_parse("py"), -1);
	perfan_profile *p = made_up(), *e;
	ck_assert(perfan_python_present(p));
	ck_assert_int_eq(perfan_profile_new(&e, NULL), 0);
	ck_assert(!perfan_python_present(e));
	perfan_profile *v;
	ck_assert_int_eq(perfan_python_view(&v, p, 7), PERFAN_EINVAL);
	ck_assert(perfan_python_is_glue("_PyEval_EvalFrameDefault"));
	ck_assert(!perfan_python_is_glue("list_contains"));
	perfan_profile_free(e);
	perfan_profile_free(p);
}
END_TEST

/* The leaf-first names of node N of P, joined by ';'. */
static void leaf_path(const perfan_profile *p, perfan_node_id n, char *out,
		      size_t cap)
{
	size_t k = 0;
	out[0] = '\0';
	for (; n != PERFAN_ROOT_NODE; n = perfan_profile_node_parent(p, n))
		k += (size_t)snprintf(out + k, cap - k, "%s%s", k ? ";" : "",
				      perfan_profile_frame_get(
					      p,
					      perfan_profile_node_frame(p, n))
					      ->name);
}

/* Kept samples cross into a view: in their order, with their meta and
 * weight, each at the view's leaf of its stack (also one of no weight). */
START_TEST(test_view_samples)
{
	perfan_profile *p, *v;
	struct perfan_profile_opts po =
		PERFAN_OPTS_INIT(struct perfan_profile_opts);
	po.keep_samples = 1;
	ck_assert_int_eq(perfan_profile_new(&p, &po), 0);
	ck_assert_int_eq(perfan_profile_add_column(p, "cpu-clock", "period"),
			 0);
	perfan_frame_id f[N];
	intern_stack(p, f);
	/* times out of order, as kept: the view keeps the order it got */
	struct {
		size_t n;
		uint64_t w, t;
	} add[] = {{N, 5, 30}, {4, 1, 10}, {N - 3, 2, 20},
		   {N, 0, 40}, {N, 4, 5},  {N - 1, 0, 50}};
	size_t na = sizeof(add) / sizeof(*add);
	for (size_t i = 0; i < na; i++) {
		struct perfan_sample_meta m = {add[i].t, 1, 2, 0};
		ck_assert_int_eq(perfan_profile_add(p, f, add[i].n, 0, add[i].w,
						    &m, NULL),
				 0);
	}
	ck_assert_int_eq(perfan_python_view(&v, p, PERFAN_PY_MIXED), 0);
	ck_assert_uint_eq(perfan_profile_nr_samples(v), na);
	static const char *const want[] = {
		"asm_exc_page_fault;encoder_call;list_contains;Handler.key "
		"(/w/h.py);builtin_sorted;main (/w/h.py);<module> "
		"(/w/h.py);Py_BytesMain;__libc_start_call_main;_start;python3",
		"Py_BytesMain;__libc_start_call_main;_start;python3",
		/* ends in the eval loop under Handler.key: glue, left out */
		"Handler.key (/w/h.py);builtin_sorted;main (/w/h.py);<module> "
		"(/w/h.py);Py_BytesMain;__libc_start_call_main;_start;python3",
		/* a stack of no weight, met only by its sample */
		"encoder_call;list_contains;Handler.key (/w/h.py);builtin_sorted;"
		"main (/w/h.py);<module> (/w/h.py);Py_BytesMain;"
		"__libc_start_call_main;_start;python3",
	};
	static const int which[] = {0, 1, 2, 0, 0, 3};
	for (size_t i = 0; i < na; i++) {
		const struct perfan_profile_sample *s =
			perfan_profile_sample_get(v, i);
		char got[1024];
		leaf_path(v, s->leaf, got, sizeof(got));
		ck_assert_str_eq(got, want[which[i]]);
		ck_assert_uint_eq(s->weight, add[i].w);
		ck_assert_uint_eq(s->meta.time, add[i].t);
		ck_assert_int_eq(s->meta.tid, 2);
		ck_assert_uint_eq(s->col, 0);
	}
	/* the weights are the samples', once */
	ck_assert_uint_eq(perfan_profile_total(v, 0), 12);
	/* and the view keeps what is added later */
	perfan_frame_id x;
	ck_assert_int_eq(perfan_profile_frame(v, &x, "x", NULL, NULL, 0,
					      PERFAN_FRAME_NATIVE),
			 0);
	ck_assert_int_eq(perfan_profile_add(v, &x, 1, 0, 3, NULL, NULL), 0);
	ck_assert_uint_eq(perfan_profile_nr_samples(v), na + 1);
	perfan_profile_free(v);
	/* no kept samples: none in the view */
	perfan_profile *q = made_up();
	ck_assert_int_eq(perfan_python_view(&v, q, PERFAN_PY_MIXED), 0);
	ck_assert_uint_eq(perfan_profile_nr_samples(v), 0);
	perfan_profile_free(v);
	perfan_profile_free(q);
	perfan_profile_free(p);
}
END_TEST

START_TEST(test_runtime_modules)
{
	static const char *const yes[] = {
		LIBPY,
		"/root/.pyenv/versions/3.12.1/lib/libpython3.12.so.1.0",
		"python3.12",
		"libc.so.6",
		"/usr/lib/x86_64-linux-gnu/libc.so.6",
		"libc-2.31.so",
		"libm.so.6",
		"libpthread.so.0",
		"ld-linux-x86-64.so.2",
		"[vdso]",
	};
	static const char *const no[] = {
		"_json.cpython-312-x86_64-linux-gnu.so",
		"libcrypto.so.3",
		"libcrypt.so.1",
		"libmagic.so.1",
		"[kernel.kallsyms]",
		"perf-1.map",
	};
	for (size_t i = 0; i < sizeof(yes) / sizeof(*yes); i++)
		ck_assert_msg(perfan_python_is_runtime(yes[i]), "%s", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(*no); i++)
		ck_assert_msg(!perfan_python_is_runtime(no[i]), "%s", no[i]);
	ck_assert(!perfan_python_is_runtime(NULL));
	ck_assert(perfan_python_is_interpreter("python3"));
	ck_assert(!perfan_python_is_interpreter("libc.so.6"));
}
END_TEST

/* A Python function f whose samples end in the eval loop (3), in ld.so's
 * __tls_get_addr called by the interpreter (5), in the C an extension
 * calls (2), in the kernel under libc's write (1). */
static perfan_profile *self_case(void)
{
	static const struct fr fr[] = {
		{"python3", NULL, PERFAN_FRAME_PROCESS},
		{"py::f:/w/a.py", "perf-1.map", PERFAN_FRAME_PYTHON},
		{"_PyEval_EvalFrameDefault", LIBPY, PERFAN_FRAME_NATIVE},
		{"PyObject_RichCompare", LIBPY, PERFAN_FRAME_NATIVE},
		{"__tls_get_addr", "ld-linux-x86-64.so.2", PERFAN_FRAME_NATIVE},
		{"encoder_call", "_json.so", PERFAN_FRAME_NATIVE},
		{"PyUnicode_New", LIBPY, PERFAN_FRAME_NATIVE},
		{"malloc", "libc.so.6", PERFAN_FRAME_NATIVE},
		{"write", "libc.so.6", PERFAN_FRAME_NATIVE},
		{"ksys_write", "[kernel.kallsyms]", PERFAN_FRAME_KERNEL},
	};
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	ck_assert_int_eq(perfan_profile_add_column(p, "cpu-clock", "samples"),
			 0);
	perfan_frame_id f[10];
	for (size_t i = 0; i < 10; i++)
		f[i] = tu_frame(p, fr[i].name, fr[i].module, NULL, 0,
				fr[i].kind);
	perfan_frame_id a[] = {f[0], f[1], f[2]};
	perfan_frame_id b[] = {f[0], f[1], f[2], f[3], f[4]};
	perfan_frame_id c[] = {f[0], f[1], f[2], f[5], f[6], f[7]};
	perfan_frame_id d[] = {f[0], f[1], f[2], f[8], f[9]};
	ck_assert_int_eq(perfan_profile_add(p, a, 3, 0, 3, NULL, NULL), 0);
	ck_assert_int_eq(perfan_profile_add(p, b, 5, 0, 5, NULL, NULL), 0);
	ck_assert_int_eq(perfan_profile_add(p, c, 6, 0, 2, NULL, NULL), 0);
	ck_assert_int_eq(perfan_profile_add(p, d, 5, 0, 1, NULL, NULL), 0);
	return p;
}

START_TEST(test_python_self)
{
	perfan_profile *p = self_case(), *v;
	ck_assert_int_eq(perfan_python_view(&v, p, PERFAN_PY_PYTHON), 0);
	char *got = stacks(v);
	const char *want = "python3;f (/w/a.py) 8\n"
			   "python3;f (/w/a.py);encoder_call;PyUnicode_New;"
			   "malloc 2\n"
			   "python3;f (/w/a.py);ksys_write 1\n";
	ck_assert_msg(!strcmp(got, want), "%s\nwanted:\n%s", got, want);
	free(got);
	perfan_profile_free(v);
	perfan_profile_free(p);
}
END_TEST

START_TEST(test_hotspots)
{
	perfan_profile *p = self_case();
	perfan_python_hotspots *h;
	ck_assert_int_eq(perfan_python_hotspots_new(&h, p, NULL), 0);
	ck_assert_uint_eq(perfan_python_hotspots_total(h), 11);
	ck_assert_uint_eq(perfan_python_hotspots_nr_functions(h), 1);
	const struct perfan_python_self *f =
		perfan_python_hotspots_function(h, 0);
	ck_assert_str_eq(f->name, "f (/w/a.py)");
	ck_assert_str_eq(f->module, "/w/a.py");
	ck_assert_uint_eq(f->self, 8);
	ck_assert_uint_eq(f->nr_hotspots, 2);
	ck_assert_str_eq(f->hotspots[0].name, "__tls_get_addr");
	ck_assert_str_eq(f->hotspots[0].module, "ld-linux-x86-64.so.2");
	ck_assert_uint_eq(f->hotspots[0].weight, 5);
	ck_assert_double_eq_tol(f->hotspots[0].percent, 500.0 / 11, 1e-9);
	ck_assert_double_eq_tol(f->hotspots[0].self_percent, 62.5, 1e-9);
	ck_assert_str_eq(f->hotspots[1].name, "_PyEval_EvalFrameDefault");
	ck_assert_uint_eq(f->hotspots[1].weight, 3);
	ck_assert_ptr_null(perfan_python_hotspots_function(h, 1));

	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	ck_assert_int_eq(perfan_python_hotspots_write(h, fp, NULL), 0);
	ck_assert_int_eq(
		perfan_python_hotspots_write(
			h, fp,
			&(struct perfan_python_hotspots_write_opts){
				sizeof(struct perfan_python_hotspots_write_opts),
				PERFAN_PYTHON_HOTSPOTS_JSON}),
		0);
	fclose(fp);
	ck_assert_msg(strstr(buf, "  72.73%            f (/w/a.py)\n"
				  "    45.45%    62.50%      __tls_get_addr  "
				  "[ld-linux-x86-64.so.2]\n"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "\"functions\": [{\"name\": \"f (/w/a.py)\", "
				  "\"module\": \"/w/a.py\", \"self\": 8"),
		      "%s", buf);
	free(buf);
	ck_assert_int_eq(
		perfan_python_hotspots_write(
			h, stdout,
			&(struct perfan_python_hotspots_write_opts){
				sizeof(struct perfan_python_hotspots_write_opts),
				7}),
		PERFAN_EINVAL);
	perfan_python_hotspots_free(h);

	/* a floor leaves out the eval loop's 27 % */
	struct perfan_python_hotspots_opts o =
		PERFAN_OPTS_INIT(struct perfan_python_hotspots_opts);
	o.percent_limit = 30;
	ck_assert_int_eq(perfan_python_hotspots_new(&h, p, &o), 0);
	ck_assert_uint_eq(perfan_python_hotspots_function(h, 0)->nr_hotspots,
			  1);
	perfan_python_hotspots_free(h);
	o.percent_limit = 80; /* and f itself (73 %) */
	ck_assert_int_eq(perfan_python_hotspots_new(&h, p, &o), 0);
	ck_assert_uint_eq(perfan_python_hotspots_nr_functions(h), 0);
	perfan_python_hotspots_free(h);

	o.percent_limit = 0;
	o.column = 1;
	ck_assert_int_eq(perfan_python_hotspots_new(&h, p, &o), PERFAN_EINVAL);
	ck_assert_ptr_null(h);
	ck_assert_int_eq(perfan_python_hotspots_new(&h, NULL, NULL),
			 PERFAN_EINVAL);
	perfan_python_hotspots_free(NULL);
	perfan_profile_free(p);
}
END_TEST

static Suite *python_suite(void)
{
	Suite *s = suite_create("python");
	TCase *tc = tcase_create("views");
	tcase_add_test(tc, test_views);
	tcase_add_test(tc, test_parse_and_present);
	tcase_add_test(tc, test_view_samples);
	tcase_add_test(tc, test_runtime_modules);
	tcase_add_test(tc, test_python_self);
	tcase_add_test(tc, test_hotspots);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(python_suite)
