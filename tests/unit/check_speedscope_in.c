/* check_speedscope_in.c: speedscope's JSON format as an input
 * (sources/speedscope.c), on speedscope 1.25.0's own exports
 * (testdata/speedscope): detection by content; the oracles (an export of
 * folded text collapses to that text under the profile's root; an export
 * of perf script text to the same stacks under the same comm roots, its
 * time the span of the samples); several profiles as threads, with their
 * units as columns; every prefix an error naming an offset, and damaged
 * copies through the fuzz target. The small JSON documents written below
 * are not imitations of a tool's file: each holds one rule of the format
 * that no tool here writes (sampled profiles, Python frames, mixed key
 * orders, broken nesting) and the test says which. */
#define _GNU_SOURCE
#include "../fuzz/fuzz_speedscope.c"

#include <math.h>
#include <sys/wait.h>

#include "testutil.h"

#define SCHEMA_MEMBER                                                          \
	"\"$schema\": \"https://www.speedscope.app/file-format-schema.json\""

static struct perfan_source_opts opts(int root)
{
	struct perfan_source_opts o =
		PERFAN_OPTS_INIT(struct perfan_source_opts);
	o.root = root;
	return o;
}

/* PATH through the registry into a new profile; the load's result in
 * *RC (NULL: it must succeed). */
static perfan_profile *load(const char *path,
			    const struct perfan_source_opts *o, int *rc,
			    const char **format)
{
	perfan_source *s;
	perfan_profile *p;
	ck_assert_int_eq(perfan_source_open(&s, path, o), 0);
	if (format)
		*format = perfan_source_format(s);
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	int r = perfan_source_load(s, p, NULL);
	if (rc)
		*rc = r;
	else
		ck_assert_msg(r == 0, "%s: %s", path, perfan_error_last());
	perfan_source_free(s);
	return p;
}

/* A document in memory through the reader. */
static perfan_profile *parse(const char *doc, int root, int *rc)
{
	struct perfan_source_opts o = opts(root);
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	int r = perfan__speedscope_parse(p, doc, strlen(doc), "doc", &o);
	if (rc)
		*rc = r;
	else
		ck_assert_msg(r == 0, "%s", perfan_error_last());
	return p;
}

static int column(const perfan_profile *p, const char *name)
{
	for (size_t c = 0; c < perfan_profile_nr_columns(p); c++)
		if (!strcmp(perfan_profile_column_name(p, c), name))
			return (int)c;
	return -1;
}

static char *folded(const perfan_profile *p, int col)
{
	struct perfan_folded_write_opts wo =
		PERFAN_OPTS_INIT(struct perfan_folded_write_opts);
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_ge(col, 0);
	wo.column = (size_t)col;
	ck_assert_int_eq(perfan_folded_write(p, fp, &wo), 0);
	fclose(fp);
	return buf;
}

/* Every line of TEXT with its weight cut off (the stack alone), each once
 * as in the folded text, joined again. */
static char *stacks_only(const char *text)
{
	char *out = strdup(text), *w = out;
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n'),
			   *end = nl ? nl : l + strlen(l);
		const char *sp = end;
		while (sp > l && sp[-1] != ' ')
			sp--;
		size_t n = sp > l ? (size_t)(sp - l - 1) : (size_t)(end - l);
		memcpy(w, l, n);
		w += n;
		*w++ = '\n';
		l = nl ? nl + 1 : end;
	}
	*w = '\0';
	return out;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* TEXT's lines sorted (as LC_ALL=C sort). */
static char *sort_lines(const char *text)
{
	char *copy = strdup(text), *save = NULL, *out;
	size_t n = 0, k = 0, len = 0;
	for (const char *q = text; *q; q++)
		n += *q == '\n';
	char **lines = calloc(n + 1, sizeof(*lines));
	for (char *l = strtok_r(copy, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save))
		lines[k++] = l;
	qsort(lines, k, sizeof(*lines), cmp_str);
	out = malloc(strlen(text) + 2);
	for (size_t i = 0; i < k; i++) {
		size_t l = strlen(lines[i]);
		memcpy(out + len, lines[i], l);
		len += l;
		out[len++] = '\n';
	}
	out[len] = '\0';
	free(lines);
	free(copy);
	return out;
}

static const char *const real[] = {
	"speedscope/mtfork.script.speedscope.json",
	"speedscope/node.trace.speedscope.json",
	"speedscope/kernel.folded.speedscope.json",
	"speedscope/node.heapprofile.speedscope.json",
	"speedscope/fp.script.speedscope.json",
	"speedscope/node.cpuprofile.speedscope.json",
};
#define NR_REAL (sizeof(real) / sizeof(real[0]))
#define NR_SMALL                                                               \
	3 /* every prefix of the first; every 7th of these, every
		      29th of the others */

START_TEST(test_detect)
{
	for (size_t i = 0; i < NR_REAL; i++) {
		size_t len;
		char *d = tu_slurp(tu_testdata(real[i]), &len);
		ck_assert_pstr_eq(perfan_source_detect(d, len), "speedscope");
		free(d);
	}
	/* white space anywhere JSON allows it, the key in any place */
	static const char spaced[] =
		"\r\n {\"exporter\": \"x\",\n \"$schema\"  :\t\n"
		"\"https://www.speedscope.app/file-format-schema.json\"";
	ck_assert_pstr_eq(perfan_source_detect(spaced, sizeof(spaced) - 1),
			  "speedscope");
	/* another schema, not an object, the URL as another key's value */
	static const char *const not [] = {
		"{\"$schema\": \"http://json-schema.org/draft-07/schema#\"}",
		"[{" SCHEMA_MEMBER "}]",
		"{\"x\": \"https://www.speedscope.app/file-format-schema.json\"}",
		"{\"$schema\" \"https://www.speedscope.app/file-format-schema."
		"json\"}",
	};
	for (size_t i = 0; i < sizeof(not ) / sizeof(not [0]); i++) {
		const char *f = perfan_source_detect(not [i], strlen(not [i]));
		ck_assert_msg(!f || strcmp(f, "speedscope"), "%s: %s", not [i],
			      f);
	}
	/* folded text stays folded */
	static const char text[] = "a;b;c 12\na;b 3\n";
	ck_assert_pstr_eq(perfan_source_detect(text, sizeof(text) - 1),
			  "folded");
}
END_TEST

/* speedscope's export of stackcollapse-perf.pl's folded text: perfan's
 * collapse of it is the collapse of the text, under one root frame named
 * after the profile (speedscope named it after the file). */
START_TEST(test_folded_oracle)
{
	struct perfan_source_opts o = opts(PERFAN_ROOT_COMM);
	const char *fmt;
	perfan_profile *ss =
		load(tu_testdata("speedscope/kernel.folded.speedscope.json"),
		     &o, NULL, &fmt);
	ck_assert_pstr_eq(fmt, "speedscope");
	perfan_profile *fo =
		load(tu_testdata("script-wild/kernel.kernel.flamegraph.folded"),
		     &o, NULL, &fmt);
	ck_assert_pstr_eq(fmt, "folded");
	ck_assert_uint_eq(perfan_profile_nr_columns(ss), 1);
	ck_assert_str_eq(perfan_profile_column_unit(ss, 0), "samples");
	char *a = folded(ss, column(ss, "samples")), *b = folded(fo, 0);
	static const char root[] = "kernel.kernel.flamegraph.folded;";
	/* every line under the root, and nothing else */
	size_t lines = 0;
	char *stripped = malloc(strlen(a) + 1), *w = stripped;
	for (const char *l = a; *l; lines++) {
		ck_assert_msg(!strncmp(l, root, sizeof(root) - 1), "line %s",
			      l);
		l += sizeof(root) - 1;
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l + 1) : strlen(l);
		memcpy(w, l, n);
		w += n;
		l += n;
	}
	*w = '\0';
	ck_assert_uint_ge(lines, 20);
	ck_assert_str_eq(stripped, b);
	ck_assert_uint_eq(perfan_profile_total(ss, 0),
			  perfan_profile_total(fo, 0));
	const struct perfan_frame *r = perfan_profile_frame_get(
		ss, perfan_profile_node_frame(
			    ss, perfan_profile_nr_nodes(ss) > 1 ? 1 : 0));
	ck_assert_str_eq(r->name, "kernel.kernel.flamegraph.folded");
	ck_assert_uint_eq(r->kind, PERFAN_FRAME_PROCESS);
	free(stripped);
	free(a);
	free(b);
	perfan_profile_free(ss);
	perfan_profile_free(fo);
}
END_TEST

/* speedscope's export of perf script text: the same stacks under the same
 * comm roots as perfan reads from the text (speedscope's "??? (dso)" is
 * "[dso]" again), weighed in time: all of it is the span from the first
 * sample to the last, which speedscope splits between them. */
START_TEST(test_script_oracle)
{
	static const char *const cases[][2] = {
		{"speedscope/fp.script.speedscope.json", "fp/script.txt"},
		{"speedscope/mtfork.script.speedscope.json",
		 "multi-thread-fork/script.txt"},
	};
	struct perfan_source_opts o = opts(PERFAN_ROOT_COMM);
	perfan_profile *ss = load(tu_testdata(cases[_i][0]), &o, NULL, NULL);
	perfan_profile *sc = load(tu_testdata(cases[_i][1]), &o, NULL, NULL);
	int t = column(ss, "time"), n = column(ss, "samples");
	ck_assert_int_ge(t, 0);
	ck_assert_str_eq(perfan_profile_column_unit(ss, (size_t)t), "ns");
	char *a = folded(ss, t), *b = folded(sc, 0);
	if (n >= 0) { /* mtfork: the exec'd true's one sample, unit none */
		char *c = folded(ss, n);
		ck_assert_uint_eq(perfan_profile_total(ss, (size_t)n), 1);
		ck_assert_ptr_nonnull(strstr(c, "true;"));
		char *ab = malloc(strlen(a) + strlen(c) + 1);
		strcat(strcpy(ab, a), c);
		free(a);
		free(c);
		a = sort_lines(ab);
		free(ab);
	}
	char *sa = stacks_only(a), *sb = stacks_only(b);
	ck_assert_str_eq(sa, sb);
	/* the time: the span of each thread's samples in the text, a
	 * thread being a comm and a tid as speedscope takes it (mtfork's child
	 * is mt-child, then true after its exec) */
	size_t len;
	char *text = tu_slurp(tu_testdata(cases[_i][1]), &len);
	struct {
		char comm[64];
		int tid;
		double first, last;
	} th[8];
	int nt = 0;
	for (char *l = text; l && *l;) {
		char comm[64];
		int tid, i = 0;
		double at;
		if (*l != ' ' && *l != '\t' && *l != '\n' &&
		    sscanf(l, "%63s %d %lf:", comm, &tid, &at) == 3) {
			while (i < nt &&
			       (th[i].tid != tid || strcmp(th[i].comm, comm)))
				i++;
			if (i == nt) {
				ck_assert_int_lt(nt, 8);
				snprintf(th[i].comm, sizeof(th[i].comm), "%s",
					 comm);
				th[i].tid = tid;
				th[i].first = at;
				nt++;
			}
			th[i].last = at;
		}
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	free(text);
	ck_assert_int_eq(nt, _i ? 4 : 1);
	double span = 0;
	for (int i = 0; i < nt; i++)
		span += th[i].last - th[i].first;
	uint64_t total = perfan_profile_total(ss, (size_t)t);
	ck_assert_msg(fabs((double)total - span * 1e9) < 2e3,
		      "%s: %llu ns, the samples span %.9f s", cases[_i][0],
		      (unsigned long long)total, span);
	free(sa);
	free(sb);
	free(a);
	free(b);
	perfan_profile_free(ss);
	perfan_profile_free(sc);
}
END_TEST

/* The process frame at the root of every stack with the name NAME, or
 * NULL. */
static const struct perfan_frame *root_named(const perfan_profile *p,
					     const char *name)
{
	const perfan_node_id *kids;
	size_t n = perfan_profile_node_children(p, PERFAN_ROOT_NODE, &kids);
	for (size_t i = 0; i < n; i++) {
		const struct perfan_frame *f = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, kids[i]));
		if (!strcmp(f->name, name))
			return f;
	}
	return NULL;
}

/* Four profiles (three threads, and the child again after its exec): four
 * roots with their tids, two units as two columns; --pid/--tid name them
 * as perf script text's roots; no root merges them; an event picks a
 * column's profiles. */
START_TEST(test_threads)
{
	static const struct {
		const char *comm;
		int tid;
	} th[] = {{"mtfork", 7437},
		  {"worker", 7439},
		  {"mt-child", 7440},
		  {"true", 7440}};
	const char *path =
		tu_testdata("speedscope/mtfork.script.speedscope.json");
	struct perfan_source_opts o = opts(PERFAN_ROOT_COMM);
	perfan_profile *p = load(path, &o, NULL, NULL);
	ck_assert_uint_eq(perfan_profile_nr_columns(p), 2);
	ck_assert_str_eq(perfan_profile_column_name(p, 0), "time");
	ck_assert_str_eq(perfan_profile_column_name(p, 1), "samples");
	for (size_t i = 0; i < 4; i++) {
		const struct perfan_frame *f = root_named(p, th[i].comm);
		ck_assert_msg(f != NULL, "no root %s", th[i].comm);
		ck_assert_uint_eq(f->kind, PERFAN_FRAME_PROCESS);
		ck_assert_int_eq(f->tid, th[i].tid);
	}
	perfan_profile_free(p);
	o.root = PERFAN_ROOT_PID_TID;
	p = load(path, &o, NULL, NULL);
	ck_assert_ptr_nonnull(root_named(p, "worker-7439/7439"));
	ck_assert_ptr_nonnull(root_named(p, "true-7440/7440"));
	perfan_profile_free(p);
	o.root = PERFAN_ROOT_NONE;
	p = load(path, &o, NULL, NULL);
	for (size_t i = 0; i < perfan_profile_nr_frames(p); i++)
		ck_assert_uint_ne(
			perfan_profile_frame_get(p, (uint32_t)i)->kind,
			PERFAN_FRAME_PROCESS);
	ck_assert_ptr_nonnull(root_named(p, "__libc_start_call_main"));
	perfan_profile_free(p);
	o.root = PERFAN_ROOT_COMM;
	o.event = "samples";
	p = load(path, &o, NULL, NULL);
	ck_assert_uint_eq(perfan_profile_nr_columns(p), 1);
	ck_assert_uint_eq(perfan_profile_total(p, 0), 1);
	ck_assert_ptr_nonnull(root_named(p, "true"));
	ck_assert_ptr_null(root_named(p, "worker"));
	perfan_profile_free(p);
}
END_TEST

/* Each unit's column: bytes as node --heap-prof counted them (the sum of
 * the self sizes in prog.heapprofile is 303376), microseconds in ns (the
 * span of the events, all of it under the root), Chrome trace events in
 * ns, and the frames speedscope took from them (kinds, files, lines). */
START_TEST(test_units)
{
	struct perfan_source_opts o = opts(PERFAN_ROOT_COMM);
	perfan_profile *p =
		load(tu_testdata("speedscope/node.heapprofile.speedscope.json"),
		     &o, NULL, NULL);
	ck_assert_uint_eq(perfan_profile_nr_columns(p), 1);
	ck_assert_str_eq(perfan_profile_column_name(p, 0), "bytes");
	ck_assert_str_eq(perfan_profile_column_unit(p, 0), "bytes");
	ck_assert_uint_eq(perfan_profile_total(p, 0), 303376);
	perfan_profile_free(p);

	p = load(tu_testdata("speedscope/node.cpuprofile.speedscope.json"), &o,
		 NULL, NULL);
	ck_assert_uint_eq(perfan_profile_nr_columns(p), 1);
	ck_assert_str_eq(perfan_profile_column_unit(p, 0), "ns");
	/* the first event at 13876 us, the last at 3971175 */
	ck_assert_uint_eq(perfan_profile_total(p, 0),
			  (3971175ull - 13876ull) * 1000);
	/* hotA spins twice as long as hotB, six times as long as coldC */
	uint64_t self[3] = {0};
	static const char *const hot[] = {"hotA", "hotB", "coldC"};
	for (perfan_node_id n = 1; n < perfan_profile_nr_nodes(p); n++) {
		const struct perfan_frame *f = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, n));
		for (int k = 0; k < 3; k++)
			if (!strcmp(f->name, hot[k])) {
				self[k] += perfan_profile_node_total(p, n, 0);
				ck_assert_uint_eq(f->kind, PERFAN_FRAME_NATIVE);
				ck_assert_ptr_nonnull(f->file);
				ck_assert_ptr_nonnull(
					strstr(f->file, "prog.js"));
				ck_assert_uint_gt(f->line, 0);
			}
	}
	ck_assert_msg(
		self[0] > 1.5 * self[1] && self[1] > 2 * self[2] && self[2] > 0,
		"hotA %llu hotB %llu coldC %llu", (unsigned long long)self[0],
		(unsigned long long)self[1], (unsigned long long)self[2]);
	perfan_profile_free(p);

	p = load(tu_testdata("speedscope/node.trace.speedscope.json"), &o, NULL,
		 NULL);
	ck_assert_str_eq(perfan_profile_column_unit(p, 0), "ns");
	ck_assert_ptr_nonnull(root_named(
		p, "node (pid 25843), JavaScriptMainThread (tid 25843)"));
	ck_assert_uint_gt(perfan_profile_total(p, 0), 0);
	perfan_profile_free(p);

	/* perf's kernel frames, by the module speedscope kept as the file */
	p = load(tu_testdata("speedscope/fp.script.speedscope.json"), &o, NULL,
		 NULL);
	int kernel = 0;
	for (size_t i = 0; i < perfan_profile_nr_frames(p); i++) {
		const struct perfan_frame *f =
			perfan_profile_frame_get(p, (uint32_t)i);
		if (!strcmp(f->name, "asm_sysvec_apic_timer_interrupt")) {
			kernel = 1;
			ck_assert_uint_eq(f->kind, PERFAN_FRAME_KERNEL);
			ck_assert_pstr_eq(f->module, "[kernel.kallsyms]");
		}
		if (!strcmp(f->name, "hot_a")) {
			ck_assert_pstr_eq(f->module, "prog");
			ck_assert_ptr_null(f->file);
		}
	}
	ck_assert(kernel);
	perfan_profile_free(p);
}
END_TEST

/* Sampled profiles (what py-spy writes: no tool here writes them), units
 * scaled to ns, Python frames named as perfan names py-spy's, and the
 * members of a file, a profile and an event in any order. */
START_TEST(test_sampled)
{
	static const char doc[] =
		"{\"profiles\": [{\"weights\": [0.5, 1.25, 2, 0.004], "
		"\"samples\": [[0, 1], [0, 1, 2], [0, 3], [0, 1]], "
		"\"unit\": \"milliseconds\", \"name\": \"Thread 1 \\\"Main\\\"\", "
		"\"startValue\": 0, \"endValue\": 3.754, \"type\": \"sampled\"}, "
		"{\"type\": \"evented\", \"name\": \"b\", \"unit\": \"bytes\", "
		"\"startValue\": 0, \"endValue\": 9, \"events\": [{\"frame\": 0, "
		"\"at\": 1, \"type\": \"O\"}, {\"at\": 4, \"type\": \"O\", "
		"\"frame\": 2}, {\"type\": \"C\", \"frame\": 2, \"at\": 9}, "
		"{\"type\": \"C\", \"frame\": 0, \"at\": 9}]}], "
		"\"shared\": {\"frames\": [{\"name\": \"<module>\", "
		"\"file\": \"/srv/app.py\", \"line\": 1}, {\"name\": \"work\", "
		"\"file\": \"/srv/app.py\", \"line\": 7}, {\"name\": \"work\", "
		"\"file\": \"/srv/app.py\", \"line\": 9, \"col\": 3}, "
		"{\"name\": \"memcpy\", \"file\": \"libc.c\", \"line\": 12}]}, "
		"\"activeProfileIndex\": 1, \"exporter\": \"x@1\", " SCHEMA_MEMBER
		"}";
	perfan_profile *p = parse(doc, PERFAN_ROOT_COMM, NULL);
	ck_assert_uint_eq(perfan_profile_nr_columns(p), 2);
	int t = column(p, "time"), b = column(p, "bytes");
	ck_assert_int_ge(t, 0);
	ck_assert_int_ge(b, 0);
	/* 0.5 + 1.25 + 2 + 0.004 ms; a function's lines are one frame (a
	 * call from work at line 7 to work is work;work) */
	ck_assert_uint_eq(perfan_profile_total(p, (size_t)t), 3754000);
	char *f = folded(p, t);
	ck_assert_str_eq(f, "Main;<module> (/srv/app.py);memcpy "
			    "2000000\n"
			    "Main;<module> (/srv/app.py);work "
			    "(/srv/app.py) 504000\n"
			    "Main;<module> (/srv/app.py);work "
			    "(/srv/app.py);work (/srv/app.py) 1250000\n");
	free(f);
	f = folded(p, b);
	ck_assert_str_eq(f, "b;<module> (/srv/app.py) 3\n"
			    "b;<module> (/srv/app.py);work (/srv/app.py) 5\n");
	free(f);
	for (size_t i = 0; i < perfan_profile_nr_frames(p); i++) {
		const struct perfan_frame *fr =
			perfan_profile_frame_get(p, (uint32_t)i);
		if (!strcmp(fr->name, "work (/srv/app.py)")) {
			ck_assert_uint_eq(fr->kind, PERFAN_FRAME_PYTHON);
			ck_assert_pstr_eq(fr->module, "/srv/app.py");
			ck_assert_uint_eq(fr->line, 0);
		}
		if (!strcmp(fr->name, "memcpy")) {
			ck_assert_uint_eq(fr->kind, PERFAN_FRAME_NATIVE);
			ck_assert_pstr_eq(fr->file, "libc.c");
			ck_assert_uint_eq(fr->line, 12);
		}
	}
	/* py-spy's thread names: the Python name as perfan names py-spy's raw
	 * "thread (ID): NAME" roots, its tid, py-spy's text with --tid */
	const struct perfan_frame *root = root_named(p, "Main");
	ck_assert_ptr_nonnull(root);
	ck_assert_int_eq(root->tid, 1);
	ck_assert_int_eq(root->pid, -1);
	perfan_profile_free(p);
	p = parse(doc, PERFAN_ROOT_PID_TID, NULL);
	ck_assert_ptr_nonnull(root_named(p, "thread (1): Main"));
	perfan_profile_free(p);
	/* --samples: the four samples counted, the evented bytes as they are */
	struct perfan_source_opts o = opts(PERFAN_ROOT_COMM);
	o.count_samples = 1;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	ck_assert_int_eq(
		perfan__speedscope_parse(p, doc, strlen(doc), "doc", &o), 0);
	t = column(p, "samples");
	ck_assert_int_ge(t, 0);
	ck_assert_uint_eq(perfan_profile_total(p, (size_t)t), 4);
	ck_assert_int_lt(column(p, "time"), 0);
	ck_assert_uint_eq(perfan_profile_total(p, (size_t)column(p, "bytes")),
			  8);
	perfan_profile_free(p);
}
END_TEST

/* A profile without events: its column, no stacks, nothing written
 * (the folded writer on an empty column once added an offset to NULL:
 * found by fuzz_speedscope). */
START_TEST(test_empty_profile)
{
	static const char doc[] =
		"{" SCHEMA_MEMBER
		", \"shared\": {\"frames\": []}, \"profiles\": "
		"[{\"type\": \"evented\", \"name\": \"p\", \"unit\": "
		"\"seconds\", \"startValue\": 0, \"endValue\": 0, "
		"\"events\": []}, {\"type\": \"sampled\", \"name\": \"q\", "
		"\"unit\": \"none\", \"startValue\": 0, \"endValue\": 0, "
		"\"samples\": [[]], \"weights\": [3]}]}";
	perfan_profile *p = parse(doc, PERFAN_ROOT_COMM, NULL);
	ck_assert_uint_eq(perfan_profile_nr_columns(p), 2);
	ck_assert_uint_eq(perfan_profile_total(p, 0), 0);
	ck_assert_uint_eq(perfan_profile_total(p, 1), 0);
	for (int c = 0; c < 2; c++) {
		char *f = folded(p, c);
		ck_assert_str_eq(f, "");
		free(f);
	}
	perfan_profile_free(p);
}
END_TEST

/* What the format forbids, each with the error and where it is: the
 * evented ones are speedscope's own export of fp/script.txt with one
 * change (made here, so that what it breaks is known). */
#define DOC(profiles, frames)                                                  \
	"{" SCHEMA_MEMBER ", \"shared\": {\"frames\": [" frames "]}, "         \
	"\"profiles\": [" profiles "]}"
#define FR "{\"name\": \"a\"}, {\"name\": \"b\"}"
#define EV(type, frame, at)                                                    \
	"{\"type\": \"" type "\", \"frame\": " #frame ", \"at\": " #at "}"
#define EVENTED(events)                                                        \
	"{\"type\": \"evented\", \"name\": \"p\", \"unit\": \"none\", "        \
	"\"startValue\": 0, \"endValue\": 9, \"events\": [" events "]}"
#define SAMPLED(samples, weights)                                              \
	"{\"type\": \"sampled\", \"name\": \"p\", \"unit\": \"none\", "        \
	"\"startValue\": 0, \"endValue\": 9, \"samples\": [" samples "], "     \
	"\"weights\": [" weights "]}"

static const struct {
	const char *doc;
	int rc;
	const char *msg;
} broken[] = {
	{DOC(EVENTED(EV("O", 0, 0) "," EV("O", 1, 1) "," EV("C", 0, 2) "," EV(
		     "C", 1, 3)),
	     FR),
	 PERFAN_EFORMAT,
	 "an event closes frame 0 (\"a\") but the innermost open frame is 1 "
	 "(\"b\", opened at offset "},
	{DOC(EVENTED(EV("O", 0, 0) "," EV("O", 1, 1) "," EV("C", 1, 2)), FR),
	 PERFAN_EFORMAT,
	 "frame 0 (\"a\") is opened here and never closed (1 frames open at "
	 "the end of profile 0)"},
	{DOC(EVENTED(EV("C", 1, 2)), FR), PERFAN_EFORMAT,
	 "an event closes frame 1 (\"b\") but no frame is open"},
	{DOC(EVENTED(EV("O", 0, 5) "," EV("C", 0, 4)), FR), PERFAN_EFORMAT,
	 "an event at 4, before the one before it (at 5): events must be in "
	 "time order"},
	{DOC(EVENTED(EV("O", 2, 0) "," EV("C", 2, 1)), FR), PERFAN_EFORMAT,
	 "frame 2 is not one of the file's 2 frames"},
	{DOC(EVENTED(EV("O", 0.5, 0)), FR), PERFAN_EFORMAT,
	 "frame 0.5 is not one of"},
	{DOC(EVENTED(EV("X", 0, 0)), FR), PERFAN_EFORMAT,
	 "an event's type is \"O\" or \"C\", not \"X\""},
	{DOC(EVENTED("{\"type\": \"O\", \"at\": 1}"), FR), PERFAN_EFORMAT,
	 "an event without \"frame\""},
	{DOC(SAMPLED("[0], [1]", "1"), FR), PERFAN_EFORMAT,
	 "profile 0 has more samples than weights"},
	{DOC(SAMPLED("[0]", "1, 2"), FR), PERFAN_EFORMAT,
	 "profile 0 has fewer samples than weights"},
	{DOC(SAMPLED("[0]", "-1"), FR), PERFAN_EFORMAT,
	 "the weight -1 is negative"},
	{DOC(SAMPLED("[0]", "1e300"), FR), PERFAN_EFORMAT,
	 "the weight 1e+300 is too large"},
	{DOC(SAMPLED("[0, 7]", "1"), FR), PERFAN_EFORMAT,
	 "frame 7 is not one of the file's 2 frames"},
	{DOC(SAMPLED("0", "1"), FR), PERFAN_EFORMAT,
	 "a sample (a stack) should be an array, not a number"},
	{DOC("{\"type\": \"flat\", \"unit\": \"none\"}", FR),
	 PERFAN_EUNSUPPORTED, "profile 0 is of type \"flat\""},
	{DOC("{\"type\": \"sampled\", \"unit\": \"hours\", \"samples\": [], "
	     "\"weights\": []}",
	     FR),
	 PERFAN_EFORMAT, "profile 0 has the unit \"hours\""},
	{DOC("{\"type\": \"sampled\", \"unit\": \"none\", \"samples\": []}",
	     FR),
	 PERFAN_EFORMAT, "profile 0 (sampled) has no \"weights\""},
	{DOC("{\"type\": \"evented\", \"unit\": \"none\", \"events\": [], "
	     "\"events\": []}",
	     FR),
	 PERFAN_EFORMAT, "a second \"events\" in one profile"},
	{DOC("", "{\"file\": \"x\"}"), PERFAN_EFORMAT, "frame 0 has no name"},
	{DOC("", "{\"name\": \"a\\u0000b\"}"), PERFAN_EFORMAT,
	 "a frame's name holds a NUL character"},
	{"{" SCHEMA_MEMBER ", \"profiles\": []}", PERFAN_EFORMAT,
	 "offset 0 (line 1): the file has no \"shared\""},
	{"{\"shared\": {\"frames\": []}, \"profiles\": []}", PERFAN_EFORMAT,
	 "the file has no \"$schema\""},
	{"{\"$schema\": \"https://example.org/s.json\", \"shared\": "
	 "{\"frames\": []}, \"profiles\": []}",
	 PERFAN_EFORMAT,
	 "\"$schema\" is \"https://example.org/s.json\", not "
	 "speedscope's"},
	{DOC("", FR) " []", PERFAN_EFORMAT,
	 "'[' after the end of the JSON "
	 "value"},
	{"{" SCHEMA_MEMBER ", " SCHEMA_MEMBER "}", PERFAN_EFORMAT,
	 "a second \"$schema\""},
	{"{" SCHEMA_MEMBER ", \"shared\": {\"frames\": []}, \"profiles\": [], "
	 "\"profiles\": []}",
	 PERFAN_EFORMAT, "a second \"profiles\""},
	{"{\"profiles\": [], \"shared\": {}, \"shared\": {}}", PERFAN_EFORMAT,
	 "a second \"shared\""},
	{"[]", PERFAN_EFORMAT,
	 "offset 0 (line 1): a speedscope file should "
	 "be an object, not an array"},
};

START_TEST(test_broken)
{
	int rc;
	perfan_profile *p = parse(broken[_i].doc, PERFAN_ROOT_COMM, &rc);
	ck_assert_msg(rc == broken[_i].rc, "%s: %d (%s)", broken[_i].doc, rc,
		      perfan_error_last());
	ck_assert_msg(!strncmp(perfan_error_last(), "doc: offset ", 12) &&
			      strstr(perfan_error_last(), broken[_i].msg),
		      "%s: message '%s', wanted '%s'", broken[_i].doc,
		      perfan_error_last(), broken[_i].msg);
	perfan_profile_free(p);
	LLVMFuzzerTestOneInput((const uint8_t *)broken[_i].doc,
			       strlen(broken[_i].doc));
}
END_TEST

/* A stack as deep as the bound reads (the root and 16383 frames), one
 * frame more is refused, not read in time that grows with the square of
 * the input. */
START_TEST(test_deep)
{
	for (int extra = 0; extra < 2; extra++) {
		size_t depth = 16383 + (size_t)extra,
		       cap = 2 * 64 * depth + 512;
		char *d = malloc(cap), *w = d;
		w += sprintf(w, "{" SCHEMA_MEMBER ", \"shared\": {\"frames\": "
				"[{\"name\": \"f\"}]}, \"profiles\": "
				"[{\"type\": \"evented\", \"name\": \"p\", "
				"\"unit\": \"none\", \"startValue\": 0, "
				"\"endValue\": 0, \"events\": [");
		for (size_t i = 0; i < 2 * depth; i++)
			w += sprintf(w,
				     "%s{\"type\": \"%c\", \"frame\": 0, "
				     "\"at\": %zu}",
				     i ? "," : "", i < depth ? 'O' : 'C', i);
		strcpy(w, "]}]}");
		int rc;
		perfan_profile *p = parse(d, PERFAN_ROOT_COMM, &rc);
		if (!extra) {
			ck_assert_msg(rc == 0, "%s", perfan_error_last());
			ck_assert_uint_eq(perfan_profile_total(p, 0),
					  2 * depth - 1);
		} else {
			ck_assert_int_eq(rc, PERFAN_EUNSUPPORTED);
			ck_assert_ptr_nonnull(
				strstr(perfan_error_last(),
				       "a stack deeper than 16384 "
				       "frames"));
		}
		perfan_profile_free(p);
		free(d);
	}
}
END_TEST

/* Two events of speedscope's export of fp/script.txt swapped: the close
 * of a frame before the close of the one inside it, and the offset of
 * both. */
START_TEST(test_swapped_events)
{
	size_t len;
	char *d = tu_slurp(tu_testdata("speedscope/fp.script.speedscope.json"),
			   &len);
	/* the first two "C" events in a row: an inner frame's close, then
	 * its caller's */
	char *c1 = d, *e1, *c2;
	for (;; c1 = e1) {
		c1 = strstr(c1, "{\"type\":\"C\"");
		ck_assert_ptr_nonnull(c1);
		e1 = strchr(c1, '}') + 1;
		c2 = e1 + 1;
		if (*e1 == ',' && !strncmp(c2, "{\"type\":\"C\"", 11))
			break;
	}
	char *e2 = strchr(c2, '}') + 1;
	size_t n1 = (size_t)(e1 - c1), n2 = (size_t)(e2 - c2);
	char *tmp = malloc(n1 + n2 + 1);
	memcpy(tmp, c2, n2);
	tmp[n2] = ',';
	memcpy(tmp + n2 + 1, c1, n1);
	memcpy(c1, tmp, n1 + n2 + 1);
	free(tmp);
	struct perfan_source_opts o = opts(PERFAN_ROOT_COMM);
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	int rc = perfan__speedscope_parse(p, d, len, "swapped", &o);
	ck_assert_int_eq(rc, PERFAN_EFORMAT);
	char want[64];
	snprintf(want, sizeof(want),
		 "swapped: offset %zu (line 1): ", (size_t)(c1 - d));
	ck_assert_msg(!strncmp(perfan_error_last(), want, strlen(want)) &&
			      strstr(perfan_error_last(),
				     "but the innermost open frame is"),
		      "%s", perfan_error_last());
	perfan_profile_free(p);
	free(d);
}
END_TEST

/* Cut anywhere, a file is an error naming the offset. */
START_TEST(test_every_prefix)
{
	size_t len;
	char *d = tu_slurp(tu_testdata(real[_i]), &len);
	size_t step = !_i ? 1 : _i < NR_SMALL ? 7 : 29;
	for (size_t n = 0; n < len; n += step) {
		struct perfan_source_opts o = opts(PERFAN_ROOT_COMM);
		perfan_profile *p;
		ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
		int rc = perfan__speedscope_parse(p, d, n, "cut", &o);
		ck_assert_msg(rc == PERFAN_ETRUNCATED, "%s cut at %zu: %d %s",
			      real[_i], n, rc, perfan_error_last());
		ck_assert_msg(!strncmp(perfan_error_last(), "cut: offset ", 12),
			      "message '%s'", perfan_error_last());
		perfan_profile_free(p);
		if (n % 4 == 0) /* the target's checks, on a quarter of them */
			LLVMFuzzerTestOneInput((const uint8_t *)d, n);
	}
	LLVMFuzzerTestOneInput((const uint8_t *)d, len);
	free(d);
}
END_TEST

/* Each byte changed three ways, through the fuzz target's checks. */
START_TEST(test_every_byte_damaged)
{
	size_t len;
	char *d = tu_slurp(tu_testdata(real[_i]), &len);
	tu_damage_each_byte(d, len, LLVMFuzzerTestOneInput);
	free(d);
}
END_TEST

/* Through a pipe, as a FIFO or standard input would give it. */
START_TEST(test_pipe)
{
	size_t len;
	char *d = tu_slurp(
		tu_testdata("speedscope/mtfork.script.speedscope.json"), &len);
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		close(fds[0]);
		for (size_t off = 0; off < len;) {
			/* in small pieces, slower than the reader */
			ssize_t w = write(fds[1], d + off,
					  len - off < 1000 ? len - off : 1000);
			if (w <= 0)
				_exit(1);
			off += (size_t)w;
			usleep(1000);
		}
		_exit(0);
	}
	close(fds[1]);
	struct perfan_source_opts o = opts(PERFAN_ROOT_COMM);
	perfan_source *s;
	perfan_profile *p;
	ck_assert_int_eq(perfan_source_open_fd(&s, fds[0], "pipe", &o), 0);
	ck_assert_pstr_eq(perfan_source_format(s), "speedscope");
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	ck_assert_int_eq(perfan_source_load(s, p, NULL), 0);
	perfan_source_free(s);
	close(fds[0]);
	int status;
	waitpid(pid, &status, 0);
	perfan_profile *q =
		load(tu_testdata("speedscope/mtfork.script.speedscope.json"),
		     &o, NULL, NULL);
	char *a = folded(p, 0), *b = folded(q, 0);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	perfan_profile_free(p);
	perfan_profile_free(q);
	free(d);
}
END_TEST

static Suite *speedscope_in_suite(void)
{
	Suite *s = suite_create("speedscope_in");
	TCase *tc = tcase_create("oracles");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_detect);
	tcase_add_test(tc, test_folded_oracle);
	tcase_add_loop_test(tc, test_script_oracle, 0, 2);
	tcase_add_test(tc, test_threads);
	tcase_add_test(tc, test_units);
	tcase_add_test(tc, test_sampled);
	tcase_add_test(tc, test_empty_profile);
	tcase_add_test(tc, test_pipe);
	suite_add_tcase(s, tc);
	tc = tcase_create("robust");
	tcase_set_timeout(tc, 240);
	tcase_add_loop_test(tc, test_broken, 0,
			    (int)(sizeof(broken) / sizeof(broken[0])));
	tcase_add_test(tc, test_swapped_events);
	tcase_add_test(tc, test_deep);
	tcase_add_loop_test(tc, test_every_prefix, 0, (int)NR_REAL);
	tcase_add_loop_test(tc, test_every_byte_damaged, 0, 1);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(speedscope_in_suite)
