/* check_pstats.c: cProfile dumps written by Python 3.8, 3.11, 3.13 (and
 * 2.7) read as each Python's own pstats read them (testdata/pstats/: the
 * raw dict dumped as JSON, print_stats, print_callers, print_callees), the
 * reader on every prefix and on damaged copies (through the fuzz target),
 * detection, and the flameprof-style flame graph estimate. */
#define _GNU_SOURCE
#include "../fuzz/fuzz_pstats.c"

#include <math.h>

#include "testutil.h"

static const char *const versions[] = {"3.8", "3.11", "3.13", "2.7"};
#define NR_TEXT_VERSIONS 3 /* 2.7's pstats prints its tables otherwise */

static const char *case_path(const char *v, const char *suffix)
{
	char rel[128];
	snprintf(rel, sizeof(rel), "pstats/py%s.%s", v, suffix);
	return tu_testdata(rel);
}

static perfan_pstats *open_dump(const char *v)
{
	perfan_pstats *s = NULL;
	int rc = perfan_pstats_read_path(&s, case_path(v, "pstats"), NULL);
	ck_assert_msg(rc == 0, "py%s: %s", v, perfan_error_last());
	return s;
}

/* ---- a small JSON reader for the oracle: arrays, numbers, strings ---- */

struct jv {
	char kind; /* '[', 'n', 's' */
	double num;
	char *str;
	struct jv *items;
	size_t n;
};

static const char *ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *jparse(const char *p, struct jv *v)
{
	memset(v, 0, sizeof(*v));
	p = ws(p);
	if (*p == '[') {
		size_t cap = 0;
		v->kind = '[';
		p = ws(p + 1);
		while (*p != ']') {
			if (v->n == cap) {
				cap = cap ? 2 * cap : 8;
				v->items = realloc(v->items,
						   cap * sizeof(*v->items));
				ck_assert_ptr_nonnull(v->items);
			}
			p = jparse(p, &v->items[v->n++]);
			p = ws(p);
			if (*p == ',')
				p = ws(p + 1);
			else
				ck_assert_msg(*p == ']', "oracle: bad array");
		}
		return p + 1;
	}
	if (*p == '"') {
		char *o = v->str = malloc(strlen(p) + 1);
		ck_assert_ptr_nonnull(o);
		v->kind = 's';
		for (p++; *p != '"'; p++) {
			ck_assert_msg(*p, "oracle: open string");
			if (*p == '\\') {
				p++;
				ck_assert_msg(*p == '"' || *p == '\\' ||
						      *p == '/',
					      "oracle: escape \\%c", *p);
			}
			*o++ = *p;
		}
		*o = '\0';
		return p + 1;
	}
	char *end;
	v->kind = 'n';
	v->num = strtod(p, &end);
	ck_assert_msg(end != p, "oracle: not a number at '%.20s'", p);
	return end;
}

static void jfree(struct jv *v)
{
	for (size_t i = 0; i < v->n; i++)
		jfree(&v->items[i]);
	free(v->items);
	free(v->str);
}

static void assert_key(const struct jv *k, const struct perfan_pstats_func *f,
		       const char *v)
{
	ck_assert_msg(k->kind == '[' && k->n == 3, "py%s: oracle key", v);
	ck_assert_str_eq(f->file, k->items[0].str);
	ck_assert_uint_eq(f->line, (uint32_t)k->items[1].num);
	ck_assert_str_eq(f->name, k->items[2].str);
}

/* Every function's (cc, nc, tt, ct) and each caller's (nc, cc, tt, ct)
 * exactly as the Python that wrote the dump loaded them. */
START_TEST(test_dict_equals_python)
{
	const char *v = versions[_i];
	perfan_pstats *s = open_dump(v);
	size_t len, i, listed = 0;
	char *text = tu_slurp(case_path(v, "json"), &len);
	struct jv rows;

	jparse(text, &rows);
	for (i = 0; i < perfan_pstats_nr_funcs(s); i++)
		listed += perfan_pstats_func(s, i)->listed;
	ck_assert_uint_eq(listed, rows.n);
	ck_assert_uint_ge(rows.n, 15);
	for (i = 0; i < rows.n; i++) {
		const struct jv *r = &rows.items[i];
		const struct perfan_pstats_func *f = perfan_pstats_func(s, i);
		ck_assert(f->listed);
		assert_key(&r->items[0], f, v);
		ck_assert_uint_eq(f->cc, (uint64_t)r->items[1].num);
		ck_assert_uint_eq(f->nc, (uint64_t)r->items[2].num);
		ck_assert_msg(f->tt == r->items[3].num &&
				      f->ct == r->items[4].num,
			      "py%s %s: tt %.17g ct %.17g, pstats %.17g %.17g",
			      v, f->name, f->tt, f->ct, r->items[3].num,
			      r->items[4].num);
		const struct jv *cl = &r->items[5];
		ck_assert_uint_eq(f->nr_callers, cl->n);
		for (size_t k = 0; k < cl->n; k++) {
			const struct jv *c = &cl->items[k];
			const struct perfan_pstats_edge *e =
				perfan_pstats_edge(s, f->callers + k);
			ck_assert_uint_eq(e->callee, i);
			assert_key(&c->items[0],
				   perfan_pstats_func(s, e->caller), v);
			ck_assert_uint_eq(e->nc, (uint64_t)c->items[1].num);
			ck_assert_uint_eq(e->cc, (uint64_t)c->items[2].num);
			ck_assert(e->tt == c->items[3].num);
			ck_assert(e->ct == c->items[4].num);
		}
	}
	/* the recursion the workload has: fib is 8361 calls, 1 primitive */
	for (i = 0; i < rows.n; i++)
		if (!strcmp(perfan_pstats_func(s, i)->name, "fib"))
			break;
	ck_assert_uint_lt(i, rows.n);
	ck_assert_uint_eq(perfan_pstats_func(s, i)->nc, 8361);
	ck_assert_uint_eq(perfan_pstats_func(s, i)->cc, 1);
	jfree(&rows);
	free(text);
	perfan_pstats_free(s);
}
END_TEST

/* The lines of TEXT from the first that starts with (or, with
 * spaces before it, contains) START to the next empty line or the end. */
static char *block(const char *text, const char *start)
{
	const char *b = strstr(text, start), *e;
	ck_assert_msg(b != NULL, "no '%s' in the text", start);
	while (b > text && b[-1] != '\n')
		b--;
	e = strstr(b, "\n\n");
	return e ? strndup(b, (size_t)(e - b + 1)) : strdup(b);
}

static char *report(const perfan_pstats *s, int sort)
{
	struct perfan_pstats_write_opts o =
		PERFAN_OPTS_INIT(struct perfan_pstats_write_opts);
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(fp);
	o.sort = sort;
	ck_assert_int_eq(perfan_pstats_write(s, fp, &o), 0);
	fclose(fp);
	return buf;
}

/* The report's table, caller and callee tables, in name order, are the
 * lines that Python's pstats printed: ncalls ("nc/cc"), tottime, percall,
 * cumtime, percall of every function, and every edge. */
START_TEST(test_text_equals_pstats)
{
	const char *v = versions[_i];
	perfan_pstats *s = open_dump(v);
	char *mine = report(s, PERFAN_PSTATS_SORT_NAME);
	static const char *const tabs[][2] = {
		{"print_stats", "   ncalls  tottime"},
		{"print_callers", "was called by..."},
		{"print_callees", "called..."},
		{"print_stats", "function calls ("},
	};
	for (size_t t = 0; t < sizeof(tabs) / sizeof(tabs[0]); t++) {
		size_t len;
		char name[32];
		snprintf(name, sizeof(name), "%s.txt", tabs[t][0]);
		char *oracle = tu_slurp(case_path(v, name), &len);
		char *want = block(oracle, tabs[t][1]);
		char *got = block(mine, tabs[t][1]);
		/* pstats indents its summary line; perfan does not */
		const char *w = want;
		while (*w == ' ' && t == 3)
			w++;
		ck_assert_msg(!strcmp(w, got),
			      "py%s %s differs:\n--- pstats\n%s--- perfan\n%s",
			      v, tabs[t][0], w, got);
		free(want);
		free(got);
		free(oracle);
	}
	free(mine);
	perfan_pstats_free(s);
}
END_TEST

/* Sorted by cumulative time and by tottime, with the notes: inline_cost's
 * large own time with cheap callees, too_often's 60000 calls. */
START_TEST(test_sort_and_notes)
{
	perfan_pstats *s = open_dump(versions[_i]);
	char *cum = report(s, PERFAN_PSTATS_SORT_CUMULATIVE);
	char *tot = report(s, PERFAN_PSTATS_SORT_TOTTIME);
	const char *row1 = strstr(strstr(cum, "filename:lineno"), "\n") + 1;
	ck_assert_msg(strstr(row1, "{built-in method builtins.exec}") ==
				      strchr(row1, '{') ||
			      !strncmp(strchr(row1, '\n') - 23,
				       "workload.py:3(<module>)", 23),
		      "the first row by cumtime is not the root:\n%s", cum);
	row1 = strstr(strstr(tot, "filename:lineno"), "\n") + 1;
	ck_assert_msg(strstr(row1, "workload.py:11(inline_cost)") <
			      strchr(row1 + 1, '\n'),
		      "inline_cost is not first by tottime:\n%s", tot);
	ck_assert_ptr_nonnull(strstr(cum, "workload.py:11(inline_cost): an "
					  "inline cost"));
	ck_assert_ptr_nonnull(strstr(cum, "workload.py:21(too_often): work "
					  "done too often: 60000 calls"));
	ck_assert_ptr_null(strstr(cum, "workload.py:21(too_often): an "
				       "inline"));
	ck_assert_ptr_null(strstr(cum, "workload.py:57(main): "));
	free(cum);
	free(tot);
	perfan_pstats_free(s);
}
END_TEST

START_TEST(test_json)
{
	struct perfan_pstats_write_opts o =
		PERFAN_OPTS_INIT(struct perfan_pstats_write_opts);
	perfan_pstats *s = open_dump("3.11");
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	o.json = 1;
	ck_assert_int_eq(perfan_pstats_write(s, fp, &o), 0);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(buf,
				     "\"function\": \"workload.py:33(fib)\", "
				     "\"file\": \"workload.py\", \"line\": 33, "
				     "\"name\": \"fib\", \"ncalls\": 8361, "
				     "\"primitive_calls\": 1"));
	ck_assert_ptr_nonnull(strstr(buf, "\"kind\": \"inline-cost\""));
	ck_assert_ptr_nonnull(strstr(buf, "\"kind\": \"too-often\""));
	free(buf);
	perfan_pstats_free(s);
}
END_TEST

/* Cut anywhere, a dump is an error naming the offset, never a result. */
START_TEST(test_every_prefix)
{
	const char *v = versions[_i];
	size_t len;
	char *data = tu_slurp(case_path(v, "pstats"), &len);
	struct perfan_pstats_opts o =
		PERFAN_OPTS_INIT(struct perfan_pstats_opts);
	o.name = "cut";
	for (size_t n = 0; n < len; n++) {
		perfan_pstats *s = NULL;
		int rc = perfan_pstats_parse(&s, data, n, &o);
		ck_assert_msg(rc == PERFAN_ETRUNCATED, "py%s cut at %zu: %d %s",
			      v, n, rc, perfan_error_last());
		ck_assert_ptr_null(s);
		ck_assert_msg(strstr(perfan_error_last(), "cut: offset "),
			      "message '%s'", perfan_error_last());
		LLVMFuzzerTestOneInput((const uint8_t *)data, n);
	}
	free(data);
}
END_TEST

/* Each byte changed three ways, through the fuzz target's checks. */
START_TEST(test_every_byte_damaged)
{
	const char *v = versions[_i];
	size_t len;
	char *data = tu_slurp(case_path(v, "pstats"), &len);
	static const uint8_t how[] = {0xff, 0x80, 0x01};
	for (size_t i = 0; i < len; i++)
		for (size_t k = 0; k < sizeof(how); k++) {
			data[i] ^= (char)how[k];
			LLVMFuzzerTestOneInput((const uint8_t *)data, len);
			data[i] ^= (char)how[k];
		}
	free(data);
}
END_TEST

#define KEY(f, line, n) ")\x03z\x01" f "i" line "\x00\x00\x00z\x01" n
#define DBL1 "\x00\x00\x00\x00\x00\x00\xf0\x3f" /* 1.0 */
#define VAL(callers)                                                           \
	")\x05i\x01\x00\x00\x00i\x01\x00\x00\x00g" DBL1 "g" DBL1 "{" callers "0"
#define CALLER ")\x04i\x01\x00\x00\x00i\x01\x00\x00\x00g" DBL1 "g" DBL1

static const struct {
	const char *what;
	const char *bytes;
	size_t len;
	int rc;
	const char *msg;
} damaged[] = {
#define D(w, b, rc, m)                                                         \
	{                                                                      \
		w, b, sizeof(b) - 1, rc, m                                     \
	}
	D("a reference to a later object", "{r\x05\x00\x00\x00", PERFAN_EFORMAT,
	  "offset 1: a reference to object 5"),
	D("a container referring to itself", "{\xa9\x01r\x00\x00\x00\x00",
	  PERFAN_EFORMAT, "offset 3: a reference to object 0"),
	D("a tuple longer than the input", "{(\xff\xff\xff\x7f",
	  PERFAN_ETRUNCATED, "offset 1: a tuple of 2147483647 items"),
	D("a negative length", "{a\xff\xff\xff\xff", PERFAN_EFORMAT,
	  "negative length"),
	D("a long integer too large", "{l\x05\x00\x00\x00", PERFAN_EUNSUPPORTED,
	  "of 5 digits"),
	D("a list", "{[\x00\x00\x00\x00", PERFAN_EUNSUPPORTED, "type 0x5b"),
	D("not a dict", ")\x00", PERFAN_EFORMAT,
	  "offset 0: the dump is not a dict"),
	D("bytes after the dict", "{0x", PERFAN_EFORMAT,
	  "offset 2: 1 bytes after"),
	D("a key that is an int", "{i\x01\x00\x00\x00" VAL("") "0",
	  PERFAN_EFORMAT, "offset 1: a key that is not"),
	D("stats of 4",
	  "{" KEY("a", "\x01",
		  "f") ")\x04i\x01\x00\x00\x00i\x01\x00\x00\x00g" DBL1 "g" DBL1
		       "0",
	  PERFAN_EFORMAT, "are not (cc, nc"),
	D("a function twice",
	  "{" KEY("a", "\x01", "f") VAL("") KEY("a", "\x01", "f") VAL("") "0",
	  PERFAN_EFORMAT, "a:1(f) listed twice"),
	D("a NaN time",
	  "{" KEY("a", "\x01",
		  "f") ")\x05i\x01\x00\x00\x00i\x01\x00\x00\x00g\x00\x00\x00\x00\x00\x00\xf8\x7fg" DBL1
		       "{0"
		       "0",
	  PERFAN_EFORMAT, "not finite"),
	D("nested too deep",
	  "{)\x01)\x01)\x01)\x01)\x01)\x01)\x01)\x01)\x01)\x01)\x01)\x01)\x01)\x01)\x01)\x01)\x01)\x01",
	  PERFAN_EFORMAT, "nested more than 16 deep"),
	D("an open dict", "{" KEY("a", "\x01", "f") VAL(""), PERFAN_ETRUNCATED,
	  "offset 0: the dict starting here is not closed"),
};

START_TEST(test_damaged)
{
	perfan_pstats *s = NULL;
	struct perfan_pstats_opts o =
		PERFAN_OPTS_INIT(struct perfan_pstats_opts);
	o.name = "bad.pstats";
	int rc =
		perfan_pstats_parse(&s, damaged[_i].bytes, damaged[_i].len, &o);
	ck_assert_msg(rc == damaged[_i].rc, "%s: %d (%s)", damaged[_i].what, rc,
		      perfan_error_last());
	ck_assert_msg(strstr(perfan_error_last(), "bad.pstats") &&
			      strstr(perfan_error_last(), damaged[_i].msg),
		      "%s: message '%s'", damaged[_i].what,
		      perfan_error_last());
	ck_assert_ptr_null(s);
	LLVMFuzzerTestOneInput((const uint8_t *)damaged[_i].bytes,
			       damaged[_i].len);
}
END_TEST

/* A caller the dump has no entry for is kept, as a function not listed. */
START_TEST(test_unlisted_caller)
{
	static const char in[] = "{" KEY("a", "\x01", "f")
		VAL(KEY("b", "\x02", "g") CALLER) "0";
	perfan_pstats *s = NULL;
	ck_assert_int_eq(perfan_pstats_parse(&s, in, sizeof(in) - 1, NULL), 0);
	ck_assert_uint_eq(perfan_pstats_nr_funcs(s), 2);
	ck_assert_uint_eq(perfan_pstats_nr_edges(s), 1);
	ck_assert(perfan_pstats_func(s, 0)->listed);
	ck_assert(!perfan_pstats_func(s, 1)->listed);
	ck_assert_str_eq(perfan_pstats_func_label(s, 1), "b:2(g)");
	ck_assert_uint_eq(perfan_pstats_edge(s, 0)->caller, 1);
	ck_assert(perfan_pstats_detect(in, sizeof(in) - 1));
	perfan_pstats_free(s);
}
END_TEST

START_TEST(test_detect)
{
	size_t len;
	for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
		char *d = tu_slurp(case_path(versions[i], "pstats"), &len);
		ck_assert_msg(perfan_pstats_detect(d, len), "py%s",
			      versions[i]);
		ck_assert(perfan_pstats_detect(d, 8));
		free(d);
	}
	ck_assert(!perfan_pstats_detect("PERFILE2\x68\x00\x00\x00", 12));
	ck_assert(!perfan_pstats_detect("{main};a;b 12\n", 14));
	ck_assert(!perfan_pstats_detect("{", 1));
	ck_assert(!perfan_pstats_detect("", 0));
}
END_TEST

static perfan_node_id child(const perfan_profile *p, perfan_node_id n,
			    const char *name)
{
	const perfan_node_id *kids;
	size_t k = perfan_profile_node_children(p, n, &kids);
	for (size_t i = 0; i < k; i++)
		if (!strcmp(perfan_profile_frame_get(
				    p, perfan_profile_node_frame(p, kids[i]))
				    ->name,
			    name))
			return kids[i];
	return PERFAN_ROOT_NODE;
}

static const struct perfan_pstats_func *by_name(const perfan_pstats *s,
						const char *name)
{
	for (size_t i = 0; i < perfan_pstats_nr_funcs(s); i++)
		if (!strcmp(perfan_pstats_func(s, i)->name, name))
			return perfan_pstats_func(s, i);
	ck_abort_msg("no function %s", name);
	return NULL;
}

/* The flame graph estimate: the roots' cumtime in ns, a chain of single
 * callers exact to within the rounding, recursion folded into the
 * outermost call. */
START_TEST(test_profile)
{
	perfan_pstats *s = open_dump(versions[_i]);
	perfan_profile *p = NULL;
	perfan_node_id n;
	double roots = 0;

	ck_assert_int_eq(perfan_pstats_profile(s, &p), 0);
	ck_assert_str_eq(perfan_profile_column_unit(p, 0), "ns");
	for (size_t i = 0; i < perfan_pstats_nr_funcs(s); i++)
		if (!perfan_pstats_func(s, i)->nr_callers)
			roots += perfan_pstats_func(s, i)->ct;
	ck_assert_msg(fabs((double)perfan_profile_total(p, 0) - roots * 1e9) <
			      (double)perfan_profile_nr_nodes(p),
		      "total %llu ns, roots %.9f s",
		      (unsigned long long)perfan_profile_total(p, 0), roots);
	n = child(p, PERFAN_ROOT_NODE, "{built-in method builtins.exec}");
	if (n == PERFAN_ROOT_NODE) /* 2.7 does not see exec */
		n = child(p, PERFAN_ROOT_NODE, "<module>");
	else
		n = child(p, n, "<module>");
	n = child(p, child(p, n, "main"), "inline_cost");
	ck_assert_uint_ne(n, PERFAN_ROOT_NODE);
	double want = by_name(s, "inline_cost")->ct * 1e9;
	ck_assert_msg(fabs((double)perfan_profile_node_total(p, n, 0) - want) <
			      0.02 * want,
		      "inline_cost %llu ns, cumtime %.0f ns",
		      (unsigned long long)perfan_profile_node_total(p, n, 0),
		      want);
	n = child(p, perfan_profile_node_parent(p, n), "fib");
	ck_assert_uint_ne(n, PERFAN_ROOT_NODE);
	ck_assert_uint_eq(child(p, n, "fib"), PERFAN_ROOT_NODE);
	ck_assert_uint_eq(perfan_profile_node_self(p, n, 0),
			  perfan_profile_node_total(p, n, 0));
	perfan_profile_free(p);
	perfan_pstats_free(s);
}
END_TEST

static Suite *pstats_suite(void)
{
	Suite *s = suite_create("pstats");
	TCase *tc = tcase_create("oracles");
	size_t nv = sizeof(versions) / sizeof(versions[0]);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_dict_equals_python, 0, (int)nv);
	tcase_add_loop_test(tc, test_text_equals_pstats, 0, NR_TEXT_VERSIONS);
	tcase_add_loop_test(tc, test_sort_and_notes, 0, NR_TEXT_VERSIONS);
	tcase_add_test(tc, test_json);
	tcase_add_loop_test(tc, test_profile, 0, (int)nv);
	suite_add_tcase(s, tc);
	tc = tcase_create("robust");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_every_prefix, 0, (int)nv);
	tcase_add_loop_test(tc, test_every_byte_damaged, 0, (int)nv);
	tcase_add_loop_test(tc, test_damaged, 0,
			    (int)(sizeof(damaged) / sizeof(damaged[0])));
	tcase_add_test(tc, test_unlisted_caller);
	tcase_add_test(tc, test_detect);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(pstats_suite)
