/* check_python.c: the native, mixed and python views of a made-up CPython
 * 3.12 stack (trampolines, the eval loop and call glue, C code and the
 * kernel below the innermost Python function), and their names; kept
 * samples carried into a view. */
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

static Suite *python_suite(void)
{
	Suite *s = suite_create("python");
	TCase *tc = tcase_create("views");
	tcase_add_test(tc, test_views);
	tcase_add_test(tc, test_parse_and_present);
	tcase_add_test(tc, test_view_samples);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(python_suite)
