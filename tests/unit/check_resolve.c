/* check_resolve.c: perfan_resolve_perfdata against perf's own outputs on the
 * frame-pointer recordings in testdata: each sample's stack as perf script
 * shows it (root first, function names per frame), and per-symbol self
 * shares as perf report --no-children shows them.
 *
 * The tests must pass on machines whose libraries and kernel differ from
 * the recording machine's, so they resolve "hermetically": binaries only
 * from testdata/<case>/ (--symfs, found by build-id), no build-id cache,
 * kernel symbols from testdata/kallsyms (a filtered copy of the recording
 * kernel's, see testdata/make-kallsyms.py). Frames in system libraries
 * (libc, ld.so) are then compared by module only: perf named them from
 * this machine's files, which testdata does not carry. Where this machine's
 * libc is the recording one, a second pass compares every frame. */
#define _GNU_SOURCE
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "resolve/symbols.h"
#include "testutil.h"

/* The libc the recordings were made with (Debian 12's glibc): its symbols
 * are checked only where this machine has the same file. */
#define RECORDING_LIBC "/usr/lib/x86_64-linux-gnu/libc.so.6"
#define RECORDING_LIBC_BUILD_ID "93ac61ec5a8eb1396f9fbd350e3169a558528a40"
#define RECORDING_LIBC_DEBUG                                                   \
	"/usr/lib/debug/.build-id/93/ac61ec5a8eb1396f9fbd350e3169a558528a40.debug"

/* ---- small growable string list ------------------------------------- */

struct strs {
	char **v;
	size_t n, cap;
};

static void strs_add(struct strs *s, char *str)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		ck_assert_ptr_nonnull(s->v);
	}
	s->v[s->n++] = str;
}

static void strs_free(struct strs *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* How many of A's strings B also has (multiset intersection). */
static size_t common(struct strs *a, struct strs *b)
{
	qsort(a->v, a->n, sizeof(*a->v), cmp_str);
	qsort(b->v, b->n, sizeof(*b->v), cmp_str);
	size_t i = 0, j = 0, c = 0;
	while (i < a->n && j < b->n) {
		int d = strcmp(a->v[i], b->v[j]);
		if (!d) {
			c++;
			i++;
			j++;
		} else if (d < 0) {
			i++;
		} else {
			j++;
		}
	}
	return c;
}

/* Print the first few keys of A that B lacks (both sorted). */
static void show_missing(const char *what, struct strs *a, struct strs *b)
{
	size_t i = 0, j = 0, shown = 0;
	while (i < a->n && shown < 3) {
		int d = j < b->n ? strcmp(a->v[i], b->v[j]) : -1;
		if (!d) {
			i++;
			j++;
		} else if (d < 0) {
			printf("  %s: %s\n", what, a->v[i++]);
			shown++;
		} else {
			j++;
		}
	}
}

/* ---- perf script's stacks --------------------------------------------- */

struct buf {
	char *s;
	size_t n, cap;
};

static void buf_put(struct buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		ck_assert_ptr_nonnull(b->s);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void buf_puts(struct buf *b, const char *s)
{
	buf_put(b, s, strlen(s));
}

/* The name perfan gives a frame perf script printed as FUNC (offset
 * already cut) in MOD. FULL: every module resolvable (recording machine);
 * else system libraries are not, and show as "[module]". */
static void expected_name(struct buf *out, const char *func, const char *mod,
			  int full)
{
	const char *base = strrchr(mod, '/');
	base = base ? base + 1 : mod;
	int ours = strstr(mod, "/testdata/") ||
		   !strcmp(mod, "[kernel.kallsyms]");
	if (!strcmp(mod, "[unknown]")) {
		buf_puts(out, "[unknown]");
	} else if (!strcmp(func, "[unknown]") || (!ours && !full)) {
		buf_puts(out, "[");
		buf_puts(out, base);
		buf_puts(out, "]");
	} else {
		buf_puts(out, func);
	}
}

/* One key per sample: "time_us tid event comm;root;...;leaf". */
static void perf_script_keys(const char *path, int full, struct strs *keys)
{
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	struct buf head = {0};
	char *frames[2048];
	size_t nframes = 0;
	int in_sample = 0;
	for (;;) {
		len = getline(&line, &cap, f);
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len <= 0 || line[0] == '#' ||
		    (len > 0 && line[0] != ' ' && line[0] != '\t')) {
			/* end of the previous sample */
			if (in_sample && (len <= 0 || line[0] != '#')) {
				struct buf k = {0};
				buf_puts(&k, head.s);
				for (size_t i = nframes; i > 0; i--) {
					buf_puts(&k, ";");
					buf_puts(&k, frames[i - 1]);
					free(frames[i - 1]);
				}
				if (!nframes)
					buf_puts(&k, "");
				strs_add(keys, k.s);
				nframes = 0;
				in_sample = 0;
			}
			if (len < 0)
				break;
			if (len == 0 || line[0] == '#')
				continue;
			/* "comm  tid [cpu] sec.usec: [period] event: ..." */
			char *colon = NULL;
			char *p = line;
			for (;;) {
				p = strchr(p, ':');
				ck_assert_ptr_nonnull(p);
				char *q = p;
				while (q > line &&
				       (q[-1] == '.' ||
					(q[-1] >= '0' && q[-1] <= '9')))
					q--;
				if (q < p && q > line && q[-1] == ' ' &&
				    memchr(q, '.', (size_t)(p - q))) {
					colon = p;
					break;
				}
				p++;
			}
			char *t = colon;
			while (t[-1] != ' ')
				t--;
			unsigned long long sec, usec;
			ck_assert_int_eq(sscanf(t, "%llu.%llu", &sec, &usec),
					 2);
			/* before the time: comm, tid, maybe [cpu] */
			char *e = t;
			while (e > line && e[-1] == ' ')
				e--;
			if (e[-1] == ']') {
				while (e > line && e[-1] != '[')
					e--;
				e--;
				while (e > line && e[-1] == ' ')
					e--;
			}
			char *ts = e;
			while (ts > line && ts[-1] >= '0' && ts[-1] <= '9')
				ts--;
			int tid = atoi(ts);
			char *ce = ts;
			while (ce > line && ce[-1] == ' ')
				ce--;
			*ce = '\0';
			char comm[128];
			snprintf(comm, sizeof(comm), "%s", line);
			for (char *c = comm; *c; c++)
				if (*c == ' ')
					*c = '_';
			/* after the time: [period] event: */
			char *ev = colon + 1;
			while (*ev == ' ' || (*ev >= '0' && *ev <= '9'))
				ev++;
			char *eve = strchr(ev, ':');
			/* tracepoint names have a ':' inside */
			if (eve && eve[1] != ' ' && eve[1] != '\0')
				eve = strchr(eve + 1, ':');
			ck_assert_ptr_nonnull(eve);
			char hb[512];
			snprintf(hb, sizeof(hb), "%llu %d %.*s %s",
				 sec * 1000000 + usec, tid, (int)(eve - ev), ev,
				 comm);
			head.n = 0;
			buf_puts(&head, hb);
			in_sample = 1;
			continue;
		}
		/* "\t  addr func+0xoff (module)" */
		char *mod_open = strrchr(line, '(');
		ck_assert_ptr_nonnull(mod_open);
		char *mod = mod_open + 1;
		char *mod_end = strrchr(mod, ')');
		ck_assert_ptr_nonnull(mod_end);
		*mod_end = '\0';
		char *fp = line;
		while (*fp == ' ' || *fp == '\t')
			fp++;
		while (*fp && *fp != ' ')
			fp++; /* the address */
		while (*fp == ' ')
			fp++;
		char *fe = mod_open;
		while (fe > fp && fe[-1] == ' ')
			fe--;
		*fe = '\0';
		char *plus = strstr(fp, "+0x");
		if (plus &&
		    strspn(plus + 3, "0123456789abcdef") == strlen(plus + 3))
			*plus = '\0';
		struct buf nb = {0};
		expected_name(&nb, fp, mod, full);
		ck_assert_uint_lt(nframes, 2048);
		frames[nframes++] = nb.s;
	}
	free(line);
	free(head.s);
	fclose(f);
}

/* ---- perfan's stacks ------------------------------------------------- */

struct run {
	perfan_profile *p;
	struct perfan_resolve_stats st;
	int warned_mismatch;
};

static void count_log(enum perfan_log_level level, const char *msg,
		      void *payload)
{
	struct run *r = payload;
	if (level == PERFAN_LOG_WARN && strstr(msg, "build-id"))
		r->warned_mismatch++;
}

/* Resolve testdata/CASE/FILE. HERMETIC: only testdata's files. */
static void resolve(struct run *r, const char *kase, const char *file,
		    int hermetic, const char *symfs_case,
		    enum perfan_weight weight)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "%s/%s", kase, file);
	perfan_perfdata *pd;
	ck_assert_msg(!perfan_perfdata_open(&pd, tu_testdata(rel), NULL), "%s",
		      perfan_error_last());
	struct perfan_profile_opts po =
		PERFAN_OPTS_INIT(struct perfan_profile_opts);
	po.keep_samples = 1;
	ck_assert_int_eq(perfan_profile_new(&r->p, &po), 0);

	struct perfan_resolve_opts o =
		PERFAN_OPTS_INIT(struct perfan_resolve_opts);
	o.host = tu_host();
	o.filter = PERFAN_FILTER_INIT;
	o.root = PERFAN_ROOT_COMM;
	o.weight = weight;
	o.log = count_log;
	o.log_payload = r;
	char symfs[4096], nocache[4096], kallsyms[4096];
	snprintf(kallsyms, sizeof(kallsyms), "%s", tu_testdata("kallsyms"));
	o.kallsyms = kallsyms;
	if (hermetic) {
		snprintf(symfs, sizeof(symfs), "%s",
			 tu_testdata(symfs_case ? symfs_case : kase));
		snprintf(nocache, sizeof(nocache), "%s",
			 tu_testdata("no-such-build-id-cache"));
		o.symfs = symfs;
		o.buildid_dir = nocache;
	}
	int err = perfan_resolve_perfdata(r->p, pd, &o, &r->st);
	ck_assert_msg(!err, "%s: %s", rel, perfan_error_last());
	perfan_perfdata_free(pd);
}

/* The frames of kept sample I, root first, into B; returns the root. */
static const char *sample_stack(perfan_profile *p, size_t i, struct buf *b)
{
	const struct perfan_profile_sample *s = perfan_profile_sample_get(p, i);
	const char *names[4096];
	size_t n = 0;
	for (perfan_node_id nd = s->leaf; nd != PERFAN_ROOT_NODE && n < 4096;
	     nd = perfan_profile_node_parent(p, nd))
		names[n++] = perfan_profile_frame_get(
				     p, perfan_profile_node_frame(p, nd))
				     ->name;
	for (size_t k = n; k > 1; k--) { /* names[n-1] is the process */
		buf_puts(b, ";");
		buf_puts(b, names[k - 2]);
	}
	return n ? names[n - 1] : "";
}

static void perfan_keys(perfan_profile *p, struct strs *keys)
{
	for (size_t i = 0; i < perfan_profile_nr_samples(p); i++) {
		const struct perfan_profile_sample *s =
			perfan_profile_sample_get(p, i);
		struct buf stack = {0};
		buf_puts(&stack, "");
		const char *comm = sample_stack(p, i, &stack);
		char hb[512];
		snprintf(hb, sizeof(hb), "%llu %d %s %s",
			 (unsigned long long)(s->meta.time / 1000), s->meta.tid,
			 perfan_profile_column_name(p, s->col), comm);
		struct buf k = {0};
		buf_puts(&k, hb);
		buf_puts(&k, stack.s);
		free(stack.s);
		strs_add(keys, k.s);
	}
}

/* At least 99% of perf script's samples have the same stack in perfan. */
static void check_stacks(const char *kase, const char *data, const char *script,
			 int hermetic)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "%s/%s", kase, script);
	struct strs want = {0}, got = {0};
	perf_script_keys(tu_testdata(rel), !hermetic, &want);
	struct run r = {0};
	resolve(&r, kase, data, hermetic, NULL, PERFAN_WEIGHT_SAMPLES);
	perfan_keys(r.p, &got);
	size_t same = common(&want, &got);
	printf("%s%s: %zu of %zu samples identical to perf script "
	       "(%llu frames, %llu unresolved, %llu truncated)\n",
	       rel, hermetic ? "" : " (all modules)", same, want.n,
	       (unsigned long long)r.st.frames,
	       (unsigned long long)r.st.frames_unresolved,
	       (unsigned long long)r.st.stacks_truncated);
	if (same * 100 < want.n * 99) {
		show_missing("perf  ", &want, &got);
		show_missing("perfan", &got, &want);
	}
	ck_assert_uint_gt(want.n, 0);
	ck_assert_uint_eq(got.n, want.n);
	ck_assert_uint_eq(r.st.samples, want.n);
	ck_assert_uint_eq(r.st.buildid_mismatches, 0);
	ck_assert_msg(same * 100 >= want.n * 99,
		      "%s: only %zu of %zu samples identical", rel, same,
		      want.n);
	strs_free(&want);
	strs_free(&got);
	perfan_profile_free(r.p);
}

/* ---- perf report's self shares ----------------------------------------- */

struct share {
	char comm[64], dso[128], sym[256];
	double pct;
};

/* perf report --no-children rows "pct% comm dso [.] sym" per event, in
 * file order of the "# Samples: N of event 'E'" sections. */
static size_t report_rows(const char *path, struct share *rows, size_t max,
			  char events[][64], size_t *nevents, size_t *row_event)
{
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	char line[1024];
	size_t n = 0;
	*nevents = 0;
	while (fgets(line, sizeof(line), f)) {
		char *q = strstr(line, "of event '");
		if (line[0] == '#' && q) {
			q += 10;
			char *e = strchr(q, '\'');
			ck_assert_ptr_nonnull(e);
			snprintf(events[*nevents], 64, "%.*s", (int)(e - q), q);
			(*nevents)++;
			continue;
		}
		struct share s;
		char mark[8];
		if (line[0] == '#' || !*nevents || n == max ||
		    sscanf(line, " %lf%% %63s %127s %7s %255s", &s.pct, s.comm,
			   s.dso, mark, s.sym) != 5 ||
		    (strcmp(mark, "[.]") && strcmp(mark, "[k]")))
			continue;
		row_event[n] = *nevents - 1;
		rows[n++] = s;
	}
	fclose(f);
	return n;
}

/* Self share (percent of EVENT's weight) of leaf SYM in DSO for threads
 * whose comm starts with COMM (perf report cuts the comm column). */
static double perfan_share(perfan_profile *p, const char *event,
			   const char *comm, const char *dso, const char *sym)
{
	uint64_t total = 0, self = 0;
	for (size_t i = 0; i < perfan_profile_nr_samples(p); i++) {
		const struct perfan_profile_sample *s =
			perfan_profile_sample_get(p, i);
		if (strcmp(perfan_profile_column_name(p, s->col), event))
			continue;
		total += s->weight;
		const struct perfan_frame *leaf = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, s->leaf));
		perfan_node_id nd = s->leaf;
		while (perfan_profile_node_parent(p, nd) != PERFAN_ROOT_NODE)
			nd = perfan_profile_node_parent(p, nd);
		const char *c = perfan_profile_frame_get(
					p, perfan_profile_node_frame(p, nd))
					->name;
		if (!strncmp(c, comm, strlen(comm)) && leaf->module &&
		    !strcmp(leaf->module, dso) && !strcmp(leaf->name, sym))
			self += s->weight;
	}
	return total ? 100.0 * (double)self / (double)total : 0;
}

/* Every symbol above 0.5% in perf report, of testdata's binaries and the
 * kernel, has perfan's self share within 0.1 points. */
static void check_shares(const char *kase, const char *data, const char *report,
			 int hermetic)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "%s/%s", kase, report);
	struct share rows[256];
	size_t row_event[256];
	char events[8][64];
	size_t nevents;
	size_t n = report_rows(tu_testdata(rel), rows, 256, events, &nevents,
			       row_event);
	ck_assert_uint_gt(n, 0);
	struct run r = {0};
	resolve(&r, kase, data, hermetic, NULL, PERFAN_WEIGHT_PERIOD);
	size_t checked = 0;
	for (size_t i = 0; i < n; i++) {
		struct share *s = &rows[i];
		/* testdata's binaries are named after their case dir's files */
		char own[256];
		snprintf(own, sizeof(own), "%s/%s", kase, s->dso);
		int ours = !strcmp(s->dso, "[kernel.kallsyms]") ||
			   access(tu_testdata(own), R_OK) == 0;
		if (s->pct <= 0.5 || (hermetic && !ours))
			continue;
		double got = perfan_share(r.p, events[row_event[i]], s->comm,
					  s->dso, s->sym);
		printf("%s: %s %s %s %s: perf %.2f%%, perfan %.2f%%\n", rel,
		       events[row_event[i]], s->comm, s->dso, s->sym, s->pct,
		       got);
		ck_assert_msg(got > s->pct - 0.1 && got < s->pct + 0.1,
			      "%s: %s %s: perf %.2f%%, perfan %.2f%%", rel,
			      s->dso, s->sym, s->pct, got);
		checked++;
	}
	ck_assert_uint_gt(checked, 0);
	perfan_profile_free(r.p);
}

/* ---- the tests -------------------------------------------------------- */

struct kase {
	const char *dir, *data, *script, *report;
};

static const struct kase cases[] = {
	{"fp", "perf.data", "script.txt", "report.txt"},
	{"two-events", "perf.data", "script.txt", "report.txt"},
	{"multi-thread-fork", "perf.data", "script.txt", "report.txt"},
	{"sched", "perf.data", "script.txt", NULL}, /* report sorts by trace */
	{"cpu-pagefaults", "perf.data", "script.txt", "report.txt"},
	{"zstd", "perf.data", "script.txt", "report.txt"},
	{"pipe", "perf.data", "script.txt", "report.txt"},
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

START_TEST(test_stacks_match_perf_script)
{
	const struct kase *k = &cases[_i];
	check_stacks(k->dir, k->data, k->script, 1);
}
END_TEST

START_TEST(test_shares_match_perf_report)
{
	const struct kase *k = &cases[_i];
	if (!k->report)
		return;
	check_shares(k->dir, k->data, k->report, 1);
}
END_TEST

/* Whether this is the recording machine, or one like it: the recording's
 * libc with its debug file (libc6-dbg), and testdata at the path the
 * recordings name. Then perf's names for every frame can be checked. */
static int on_recording_machine(const char *kase)
{
	char rec[256], *a, *b;
	snprintf(rec, sizeof(rec), "/work/main/testdata/%s", kase);
	a = realpath(rec, NULL);
	b = realpath(tu_testdata(kase), NULL);
	int same_dir = a && b && !strcmp(a, b);
	free(a);
	free(b);
	if (!same_dir || access(RECORDING_LIBC_DEBUG, R_OK))
		return 0;
	struct perfan__elf *e;
	if (perfan__elf_open(&e, RECORDING_LIBC))
		return 0;
	char hex[41];
	int same =
		!strcmp(perfan__buildid_hex(e->build_id, e->build_id_size, hex),
			RECORDING_LIBC_BUILD_ID);
	perfan__elf_close(e);
	return same;
}

START_TEST(test_stacks_all_modules_on_recording_machine)
{
	const struct kase *k = &cases[_i];
	if (!on_recording_machine(k->dir))
		TU_SKIP("not the recording machine (libc %s, its debug file, "
			"testdata at /work/main/testdata)",
			RECORDING_LIBC_BUILD_ID);
	check_stacks(k->dir, k->data, k->script, 0);
	if (k->report)
		check_shares(k->dir, k->data, k->report, 0);
}
END_TEST

/* A binary with another build-id than the recorded one is not used: the
 * mismatch is logged and counted, and its addresses stay unresolved. */
START_TEST(test_buildid_mismatch_not_symbolized)
{
	struct run r = {0};
	/* two-events/prog is another build of the same source */
	resolve(&r, "fp", "perf.data", 1, "two-events", PERFAN_WEIGHT_SAMPLES);
	ck_assert_uint_ge(r.st.buildid_mismatches, 1);
	ck_assert_int_ge(r.warned_mismatch, 1);
	for (size_t i = 0; i < perfan_profile_nr_frames(r.p); i++) {
		const struct perfan_frame *f = perfan_profile_frame_get(r.p, i);
		ck_assert_str_ne(f->name, "hot_a");
		ck_assert_str_ne(f->name, "main");
	}
	/* every sample is still there, with "[prog]" frames */
	ck_assert_uint_eq(perfan_profile_nr_samples(r.p), 515);
	int seen = 0;
	for (size_t i = 0; i < perfan_profile_nr_frames(r.p); i++)
		seen |= !strcmp(perfan_profile_frame_get(r.p, i)->name,
				"[prog]");
	ck_assert(seen);
	perfan_profile_free(r.p);
}
END_TEST

static size_t count_with(perfan_profile *p, const char *name)
{
	size_t n = 0;
	for (size_t i = 0; i < perfan_profile_nr_frames(p); i++)
		n += !strcmp(perfan_profile_frame_get(p, i)->name, name);
	return n;
}

/* Filters, the process root, weights, columns. */
static void resolve_opts(perfan_profile **p, const char *rel,
			 struct perfan_resolve_opts *o,
			 struct perfan_resolve_stats *st)
{
	perfan_perfdata *pd;
	ck_assert_int_eq(perfan_perfdata_open(&pd, tu_testdata(rel), NULL), 0);
	ck_assert_int_eq(perfan_profile_new(p, NULL), 0);
	ck_assert_int_eq(perfan_resolve_perfdata(*p, pd, o, st), 0);
	perfan_perfdata_free(pd);
}

START_TEST(test_filters_and_columns)
{
	perfan_profile *p;
	struct perfan_resolve_stats st;
	struct perfan_resolve_opts o =
		PERFAN_OPTS_INIT(struct perfan_resolve_opts);
	o.host = tu_host();
	char ks[4096];
	snprintf(ks, sizeof(ks), "%s", tu_testdata("kallsyms"));
	o.kallsyms = ks;
	o.filter = PERFAN_FILTER_INIT;

	/* two events: two columns, same sample counts */
	resolve_opts(&p, "two-events/perf.data", &o, &st);
	ck_assert_uint_eq(perfan_profile_nr_columns(p), 2);
	ck_assert_uint_eq(
		perfan_profile_total(p, 0) + perfan_profile_total(p, 1), 1026);
	ck_assert_str_eq(perfan_profile_column_unit(p, 0), "samples");
	perfan_profile_free(p);

	/* only task-clock, by period */
	o.filter.event = "task-clock";
	o.weight = PERFAN_WEIGHT_PERIOD;
	resolve_opts(&p, "two-events/perf.data", &o, &st);
	ck_assert_uint_eq(perfan_profile_nr_columns(p), 1);
	ck_assert_str_eq(perfan_profile_column_name(p, 0), "task-clock");
	ck_assert_str_eq(perfan_profile_column_unit(p, 0), "period");
	ck_assert_uint_eq(st.samples, 1026);
	ck_assert_uint_eq(st.samples_filtered, 513);
	ck_assert_uint_gt(perfan_profile_total(p, 0), 513);
	perfan_profile_free(p);
	o.filter.event = NULL;
	o.weight = PERFAN_WEIGHT_SAMPLES;

	/* comm: the worker thread only; root frames "comm-pid/tid" */
	o.filter.comm = "worker";
	o.root = PERFAN_ROOT_PID_TID;
	resolve_opts(&p, "multi-thread-fork/perf.data", &o, &st);
	ck_assert_uint_eq(perfan_profile_total(p, 0),
			  st.samples - st.samples_filtered);
	ck_assert_uint_gt(perfan_profile_total(p, 0), 150);
	size_t nroots = perfan_profile_node_children(
		p, PERFAN_ROOT_NODE, &(const perfan_node_id *){NULL});
	ck_assert_uint_eq(nroots, 1);
	ck_assert_uint_eq(count_with(p, "worker-7437/7439"), 1);
	ck_assert_uint_eq(count_with(p, "mtfork"), 0);
	perfan_profile_free(p);
	o.filter.comm = NULL;

	/* pid: the forked child, named mt-child then true after exec */
	o.filter.pid = 7440;
	o.root = PERFAN_ROOT_PID;
	resolve_opts(&p, "multi-thread-fork/perf.data", &o, &st);
	ck_assert_uint_eq(count_with(p, "mt-child-7440"), 1);
	ck_assert_uint_eq(count_with(p, "worker-7437"), 0);
	perfan_profile_free(p);
	o.filter.pid = -1;

	/* time: nothing before the first sample is lost, nothing after the
	 * end kept */
	o.filter.time_start = 1;
	o.filter.time_end = 486913945871ull; /* fp's first sample */
	o.root = PERFAN_ROOT_NONE;
	resolve_opts(&p, "fp/perf.data", &o, &st);
	ck_assert_uint_eq(perfan_profile_total(p, 0), 1);
	ck_assert_uint_eq(st.samples_filtered, 514);
	/* no process frame: the root's child is the outermost function */
	const perfan_node_id *kids;
	ck_assert_uint_eq(
		perfan_profile_node_children(p, PERFAN_ROOT_NODE, &kids), 1);
	perfan_profile_free(p);
	o.filter.time_start = o.filter.time_end = 0;

	/* cpu: sched was recorded with the CPU of each sample */
	o.filter.cpu = 1;
	resolve_opts(&p, "sched/perf.data", &o, &st);
	uint64_t on1 = st.samples - st.samples_filtered;
	perfan_profile_free(p);
	o.filter.cpu = 0;
	resolve_opts(&p, "sched/perf.data", &o, &st);
	ck_assert_uint_eq(on1 + st.samples - st.samples_filtered, 124);
	perfan_profile_free(p);
}
END_TEST

/* --addrs names what no symbol covers as stackcollapse-perf.pl --addrs
 * does: "[module <offset>]" and "[unknown <address>]". */
START_TEST(test_addrs)
{
	perfan_profile *p;
	struct perfan_resolve_stats st;
	struct perfan_resolve_opts o =
		PERFAN_OPTS_INIT(struct perfan_resolve_opts);
	o.host = tu_host();
	char ks[4096], symfs[4096];
	snprintf(ks, sizeof(ks), "%s", tu_testdata("kallsyms"));
	snprintf(symfs, sizeof(symfs), "%s", tu_testdata("sched"));
	o.kallsyms = ks;
	o.symfs = symfs;
	o.filter = PERFAN_FILTER_INIT;
	o.addrs = 1;
	resolve_opts(&p, "sched/perf.data", &o, &st);
	/* sched's 0x113e is just past main (perf script: "113e [unknown]") */
	ck_assert_uint_eq(count_with(p, "[sched <113e>]"), 1);
	perfan_profile_free(p);
	resolve_opts(&p, "fp/perf.data", &o, &st);
	ck_assert_uint_eq(count_with(p, "[unknown <7f69503128a8>]"), 1);
	ck_assert_uint_eq(count_with(p, "[unknown <0>]"), 1);
	ck_assert_uint_ge(st.stacks_truncated, 1);
	perfan_profile_free(p);
}
END_TEST

/* Every prefix of a recording: no crash, an error or a partial profile. */
START_TEST(test_truncated_input_never_crashes)
{
	FILE *f = fopen(tu_testdata("multi-thread-fork/perf.data"), "rb");
	ck_assert_ptr_nonnull(f);
	static unsigned char data[1 << 17];
	size_t n = fread(data, 1, sizeof(data), f);
	fclose(f);
	ck_assert_uint_gt(n, 1000);
	struct perfan_resolve_opts o =
		PERFAN_OPTS_INIT(struct perfan_resolve_opts);
	o.host = tu_host();
	char ks[4096], symfs[4096];
	snprintf(ks, sizeof(ks), "%s", tu_testdata("kallsyms"));
	snprintf(symfs, sizeof(symfs), "%s", tu_testdata("multi-thread-fork"));
	o.kallsyms = ks;
	o.symfs = symfs;
	o.filter = PERFAN_FILTER_INIT;
	o.inline_frames = o.source_lines = 1;
	for (size_t cut = 0; cut < n; cut += 997) {
		int fd = memfd_create("prefix", 0);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(write(fd, data, cut), (ssize_t)cut);
		lseek(fd, 0, SEEK_SET);
		perfan_perfdata *pd;
		if (perfan_perfdata_open_fd(&pd, fd, "prefix", NULL)) {
			close(fd);
			continue;
		}
		perfan_profile *p;
		ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
		struct perfan_resolve_stats st;
		int err = perfan_resolve_perfdata(p, pd, &o, &st);
		if (err)
			ck_assert_str_ne(perfan_error_last(), "");
		perfan_profile_free(p);
		perfan_perfdata_free(pd);
		close(fd);
	}
}
END_TEST

START_TEST(test_null_arguments)
{
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	ck_assert_int_eq(perfan_resolve_perfdata(p, NULL, NULL, NULL),
			 PERFAN_EINVAL);
	perfan_profile_free(p);
}
END_TEST

static Suite *resolve_suite(void)
{
	Suite *s = suite_create("resolve");
	TCase *tc = tcase_create("perf");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_stacks_match_perf_script, 0, NCASES);
	tcase_add_loop_test(tc, test_shares_match_perf_report, 0, NCASES);
	tcase_add_loop_test(tc, test_stacks_all_modules_on_recording_machine, 0,
			    NCASES);
	tcase_add_test(tc, test_buildid_mismatch_not_symbolized);
	tcase_add_test(tc, test_filters_and_columns);
	tcase_add_test(tc, test_addrs);
	tcase_add_test(tc, test_truncated_input_never_crashes);
	tcase_add_test(tc, test_null_arguments);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(resolve_suite)
