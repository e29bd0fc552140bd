/* check_offcpu.c: the off-CPU analysis against testdata/offcpu: its
 * EXPECTED.txt (the programs' own timing of their planted waits, and the
 * intervals perf script's own records make, per thread, call site and
 * prev_state), perf sched timehist's per-thread waits on the system-wide
 * recording, SWITCH records, perf's offcpu-time event (perf record
 * --off-cpu), a sampled sched_switch, open intervals, the wall and off-CPU
 * profiles (through the Python view too), and a cut
 * recording. Resolved hermetically with the case's own kallsyms and symfs
 * (as tests/cli/offcpu_data.sh). */
#define _GNU_SOURCE
#include <math.h>
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testutil.h"

#define MS 1000000.0 /* ns */

/* ---- EXPECTED.txt ------------------------------------------------------ */

enum { E_THREAD, E_PLANTED, E_OFFCPU, E_OFFCPUTIME };

struct eline {
	int kind;
	char rec[32], comm[32], site[32], state[8];
	int tid;
	double lifetime, off; /* thread: LIFETIME; planted: OFF (ms) */
	int n, exact, woken;  /* offcpu */
	double total, runq;   /* offcpu (ms) */
};

static struct eline *exp_lines;
static size_t exp_n;

static void load_expected(void)
{
	if (exp_lines)
		return;
	FILE *f = fopen(tu_testdata("offcpu/EXPECTED.txt"), "r");
	ck_assert_msg(f != NULL, "no testdata/offcpu/EXPECTED.txt");
	char line[512];
	size_t cap = 0;
	while (fgets(line, sizeof(line), f)) {
		struct eline e = {0};
		char kind[16];
		if (sscanf(line, "%15s", kind) != 1 || kind[0] == '#')
			continue;
		if (!strcmp(kind, "thread")) {
			e.kind = E_THREAD;
			char life[32];
			if (sscanf(line, "thread %31s %d %31s %31s", e.rec,
				   &e.tid, e.comm, life) != 4 ||
			    !strcmp(life, "-"))
				continue;
			e.lifetime = atof(life);
		} else if (!strcmp(kind, "planted")) {
			e.kind = E_PLANTED;
			double wall, cpu;
			ck_assert_int_eq(sscanf(line,
						"planted %31s %d %31s %31s %d "
						"%lf %lf %lf",
						e.rec, &e.tid, e.comm, e.site,
						&e.n, &wall, &cpu, &e.off),
					 8);
		} else if (!strcmp(kind, "offcpu")) {
			e.kind = E_OFFCPU;
			ck_assert_int_eq(sscanf(line,
						"offcpu %31s %d %31s %31s %7s "
						"%d %lf %d %d %lf",
						e.rec, &e.tid, e.comm, e.site,
						e.state, &e.n, &e.total,
						&e.exact, &e.woken, &e.runq),
					 10);
		} else if (!strcmp(kind, "offcputime")) {
			e.kind = E_OFFCPUTIME;
			ck_assert_int_eq(sscanf(line,
						"offcputime %31s %d %31s %31s "
						"%d %lf",
						e.rec, &e.tid, e.comm, e.site,
						&e.n, &e.total),
					 6);
		} else {
			continue;
		}
		if (exp_n == cap) {
			cap = cap ? cap * 2 : 256;
			exp_lines =
				realloc(exp_lines, cap * sizeof(*exp_lines));
			ck_assert_ptr_nonnull(exp_lines);
		}
		exp_lines[exp_n++] = e;
	}
	fclose(f);
	ck_assert_uint_gt(exp_n, 100);
}

/* EXPECTED's prev_state letters (or "-": a SWITCH record) as perfan's. */
static uint32_t state_of_letter(const char *s)
{
	if (!strcmp(s, "S"))
		return PERFAN_OFFCPU_SLEEP;
	if (!strcmp(s, "D"))
		return PERFAN_OFFCPU_DISK;
	if (s[0] == 'R') /* R, R+ (preempted) */
		return PERFAN_OFFCPU_RUNQ;
	if (!strcmp(s, "-"))
		return PERFAN_OFFCPU_BLOCKED;
	return PERFAN_OFFCPU_OTHER;
}

/* ---- running the analysis ---------------------------------------------- */

/* The planted call sites (EXPECTED's SITES). */
static const char *const sites[] = {
	"wait_sleep",     "wait_mutex",       "holder", "wait_pipe",
	"writer",         "wait_disk",        "spin",   "parse",
	"handle_request", "wait_disk_direct",
};

/* EXPECTED's site of a stack: its first planted function, "[other]" when
 * none is, "-" for no stack; perf's py::NAME:FILE trampolines by NAME. */
static void site_of(const struct perfan_offcpu_interval *iv, char *out,
		    size_t n, int *vdso)
{
	*vdso = 0;
	snprintf(out, n, "%s", iv->nr_frames ? "[other]" : "-");
	for (size_t i = 0; i < iv->nr_frames; i++)
		if (iv->frames[i].module &&
		    !strcmp(iv->frames[i].module, "[vdso]"))
			*vdso = 1;
	for (size_t i = 0; i < iv->nr_frames; i++) {
		const char *name = iv->frames[i].name;
		size_t len = strlen(name);
		if (!strncmp(name, "py::", 4)) {
			name += 4;
			const char *c = strchr(name, ':');
			len = c ? (size_t)(c - name) : strlen(name);
		}
		for (size_t k = 0; k < sizeof(sites) / sizeof(*sites); k++)
			if (strlen(sites[k]) == len &&
			    !strncmp(name, sites[k], len)) {
				snprintf(out, n, "%s", sites[k]);
				return;
			}
	}
}

struct iv {
	int32_t pid, tid;
	uint32_t state, flags;
	uint32_t orig; /* a WAKEUP_DELAY part: the state of the part before */
	uint64_t start, end;
	char site[32];
	int vdso; /* the stack runs through the vDSO */
};

struct run {
	struct iv *v;
	size_t n, cap;
	perfan_profile *p;
	perfan_offcpu *oc;
	const struct perfan_offcpu_summary *sum;
	perfan_perfdata *pd;
	struct perfan_resolve_stats st;
	int rc;
};

static int collect(const struct perfan_offcpu_interval *in, void *payload)
{
	struct run *r = payload;
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 1024;
		r->v = realloc(r->v, r->cap * sizeof(*r->v));
		ck_assert_ptr_nonnull(r->v);
	}
	struct iv *v = &r->v[r->n];
	v->pid = in->pid;
	v->tid = in->tid;
	v->state = in->state;
	v->flags = in->flags;
	v->start = in->start;
	v->end = in->end;
	v->orig = in->state;
	ck_assert_uint_le(in->start, in->end);
	ck_assert_ptr_nonnull(perfan_offcpu_state_name(in->state));
	site_of(in, v->site, sizeof(v->site), &v->vdso);
	if (in->state == PERFAN_OFFCPU_WAKEUP_DELAY) {
		/* delivered right after the part before the wakeup */
		ck_assert_uint_gt(r->n, 0);
		const struct iv *b = &r->v[r->n - 1];
		ck_assert_int_eq(b->tid, in->tid);
		ck_assert_uint_eq(b->end, in->start);
		v->orig = b->state;
	}
	r->n++;
	return 0;
}

/* The hermetic options for testdata/offcpu (its own kallsyms and symfs). */
static struct perfan_resolve_opts offcpu_opts(int root)
{
	static char symfs[4096], kallsyms[4096], nocache[4096], maps[4096];
	tu_fmt(symfs, sizeof(symfs), "%s", tu_testdata("offcpu/symfs"));
	tu_fmt(kallsyms, sizeof(kallsyms), "%s",
	       tu_testdata("offcpu/kallsyms"));
	tu_fmt(nocache, sizeof(nocache), "%s",
	       tu_testdata("offcpu/no-such-cache"));
	tu_fmt(maps, sizeof(maps), "%s", tu_testdata("offcpu"));
	struct perfan_resolve_opts o = PERFAN_RESOLVE_OPTS_INIT;
	o.host = tu_host();
	o.symfs = symfs;
	o.kallsyms = kallsyms;
	o.buildid_dir = nocache;
	o.perf_map_dir = maps;
	o.root = root;
	return o;
}

static void run_rec(struct run *r, const char *rec, int view, int split,
		    int root)
{
	memset(r, 0, sizeof(*r));
	char rel[256];
	tu_fmt(rel, sizeof(rel), "offcpu/%s", rec);
	ck_assert_msg(!perfan_perfdata_open(&r->pd, tu_testdata(rel), NULL),
		      "%s: %s", rel, perfan_error_last());
	ck_assert_int_eq(perfan_profile_new(&r->p, NULL), 0);
	struct perfan_resolve_opts ro = offcpu_opts(root);
	struct perfan_offcpu_opts oo = {.sz = sizeof(oo),
					.no_wakeup_split = !split,
					.interval = collect,
					.payload = r};
	r->rc = perfan_offcpu_profile(r->p, r->pd, &ro, view, &oo, &r->oc,
				      &r->st);
	ck_assert_msg(r->rc == 0, "%s: %s", rec, perfan_error_last());
	ck_assert_ptr_nonnull(r->oc);
	r->sum = perfan_offcpu_summary(r->oc);
}

static void run_free(struct run *r)
{
	perfan_offcpu_free(r->oc);
	perfan_profile_free(r->p);
	perfan_perfdata_free(r->pd);
	free(r->v);
}

static const struct perfan_offcpu_thread *thread_of(const struct run *r,
						    int tid)
{
	for (size_t i = 0; i < r->sum->nr_threads; i++)
		if (r->sum->threads[i].tid == tid)
			return &r->sum->threads[i];
	return NULL;
}

static uint64_t off_total(const struct perfan_offcpu_thread *t)
{
	uint64_t s = 0;
	for (int k = 0; k < PERFAN_OFFCPU_NR_STATES; k++)
		s += t->off[k];
	return s;
}

/* Sum and count of R's intervals of TID (SITE NULL: any; STATE -1: any)
 * whose flags include ALL. */
static double sum_ivs(const struct run *r, int tid, const char *site, int state,
		      uint32_t all, int *n)
{
	double s = 0;
	int c = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct iv *v = &r->v[i];
		if (v->tid != tid || (site && strcmp(v->site, site)) ||
		    (state >= 0 && v->state != (uint32_t)state) ||
		    (v->flags & all) != all)
			continue;
		s += (double)(v->end - v->start);
		c++;
	}
	if (n)
		*n = c;
	return s / MS;
}

/* EXPECTED's offcpu lines of REC, TID, SITE (NULL: any) and perfan state. */
static double exp_offcpu(const char *rec, int tid, const char *site,
			 uint32_t state, int *n, int *exact, double *runq)
{
	double s = 0, q = 0;
	int c = 0, x = 0;
	for (size_t i = 0; i < exp_n; i++) {
		const struct eline *e = &exp_lines[i];
		if (e->kind != E_OFFCPU || strcmp(e->rec, rec) ||
		    e->tid != tid || (site && strcmp(e->site, site)) ||
		    state_of_letter(e->state) != state)
			continue;
		s += e->total;
		q += e->runq;
		c += e->n;
		x += e->exact;
	}
	if (n)
		*n = c;
	if (exact)
		*exact = x;
	if (runq)
		*runq = q;
	return s;
}

/* perf script prints times in microseconds: each interval EXPECTED sums
 * can be off by a microsecond. */
static double tol_ms(int n)
{
	return 0.01 + 0.001 * n;
}

/* How much earlier than EXPECTED's N inexact intervals (ended at the
 * thread's next record) perfan's may end: it ends one at the cpu-clock
 * sample that follows it minus the CPU time that sample counted after the
 * switch-in, up to a period (1 ms at freq=999) before the record. */
static double late_ms(int n)
{
	return n * 1.1;
}

/* ---- 1. planted waits and perf's own intervals -------------------------- */

static void check_against_expected(const char *rec)
{
	load_expected();
	struct run r, rs;
	run_rec(&r, rec, PERFAN_VIEW_OFFCPU, 0, PERFAN_ROOT_PID_TID);
	run_rec(&rs, rec, PERFAN_VIEW_OFFCPU, 1, PERFAN_ROOT_PID_TID);
	ck_assert_int_eq(r.sum->switch_sampled, 0);
	ck_assert_uint_eq(r.sum->sched_switch, r.sum->switch_stacks);
	int planted = 0, groups = 0;

	/* (a) the program's own measure of each planted wait */
	for (size_t i = 0; i < exp_n; i++) {
		const struct eline *e = &exp_lines[i];
		if (e->kind != E_PLANTED || strcmp(e->rec, rec))
			continue;
		double got = sum_ivs(&r, e->tid, e->site, -1, 0, NULL);
		double tol = fmax(0.05 * e->off, 2.0);
		planted++;
		/* spin is no wait but the CPU-bound phase, preempted: in a
		 * recording of one process the CPU comes back to it from
		 * tasks it does not trace, so two thirds of its intervals
		 * end where its next cpu-clock sample says (offcpu.c
		 * cpu_sample), within the 5 % as well */
		ck_assert_msg(fabs(got - e->off) <= tol,
			      "%s tid %d %s: %.3f ms off-CPU, planted %.3f",
			      rec, e->tid, e->site, got, e->off);
	}
	ck_assert_int_ge(planted, 1);

	/* (b) perf's own intervals, per thread, site and state */
	for (size_t i = 0; i < exp_n; i++) {
		const struct eline *e = &exp_lines[i];
		if (e->kind != E_THREAD || strcmp(e->rec, rec))
			continue;
		for (uint32_t st = 0; st < PERFAN_OFFCPU_WAKEUP_DELAY; st++) {
			int wn, gn, wx, gx;
			double want = exp_offcpu(rec, e->tid, NULL, st, &wn,
						 &wx, NULL);
			double got = sum_ivs(&r, e->tid, NULL, (int)st, 0, &gn);
			sum_ivs(&r, e->tid, NULL, (int)st, PERFAN_OFFCPU_EXACT,
				&gx);
			ck_assert_msg(gn == wn && gx == wx &&
					      got <= want + tol_ms(wn) &&
					      got >= want - tol_ms(wn) -
							      late_ms(wn - wx),
				      "%s tid %d %s: %d intervals (%d exact) "
				      "%.3f ms, perf's %d (%d) %.3f",
				      rec, e->tid, perfan_offcpu_state_name(st),
				      gn, gx, got, wn, wx, want);
			/* DWARF stacks stop in the vDSO (testdata lacks
			 * this kernel's, see offcpu_data.sh): such an
			 * interval is "[other]" to perfan, at its planted
			 * site to perf */
			int vn = 0;
			double vdso = 0;
			for (size_t k = 0; k < r.n; k++)
				if (r.v[k].tid == e->tid && r.v[k].vdso &&
				    r.v[k].state == st) {
					vdso += (double)(r.v[k].end -
							 r.v[k].start) /
						MS;
					vn++;
				}
			for (size_t k = 0; k < sizeof(sites) / sizeof(*sites);
			     k++) {
				want = exp_offcpu(rec, e->tid, sites[k], st,
						  &wn, &wx, NULL);
				got = sum_ivs(&r, e->tid, sites[k], (int)st, 0,
					      &gn);
				if (!wn && !gn)
					continue;
				groups++;
				ck_assert_msg(
					gn <= wn && gn + vn >= wn &&
						got <= want + tol_ms(wn) &&
						got + vdso >=
							want - tol_ms(wn) -
								late_ms(wn -
									wx),
					"%s tid %d %s %s: %d intervals "
					"%.3f ms, perf's %d %.3f",
					rec, e->tid, sites[k],
					perfan_offcpu_state_name(st), gn, got,
					wn, want);
			}
		}
		/* the wakeup's split: run-queue delay after the wakeup, in
		 * exact intervals (EXPECTED's RUNQ) */
		for (size_t k = 0; k < sizeof(sites) / sizeof(*sites); k++)
			for (uint32_t st = 0; st < PERFAN_OFFCPU_RUNQ; st++) {
				double want;
				int wn;
				exp_offcpu(rec, e->tid, sites[k], st, &wn, NULL,
					   &want);
				double got = 0;
				for (size_t j = 0; j < rs.n; j++) {
					const struct iv *v = &rs.v[j];
					if (v->tid == e->tid &&
					    v->state ==
						    PERFAN_OFFCPU_WAKEUP_DELAY &&
					    v->orig == st &&
					    (v->flags & PERFAN_OFFCPU_EXACT) &&
					    !strcmp(v->site, sites[k]))
						got += (double)(v->end -
								v->start) /
						       MS;
				}
				ck_assert_msg(fabs(got - want) <= tol_ms(wn) ||
						      (!strcmp(rec,
							       "perf.dwarf."
							       "data") &&
						       got <= want),
					      "%s tid %d %s %s: run-queue "
					      "delay %.3f ms, perf's %.3f",
					      rec, e->tid, sites[k],
					      perfan_offcpu_state_name(st), got,
					      want);
			}
		/* and the split keeps each thread's off-CPU total */
		const struct perfan_offcpu_thread *a = thread_of(&r, e->tid),
						  *b = thread_of(&rs, e->tid);
		ck_assert_ptr_nonnull(a);
		ck_assert_ptr_nonnull(b);
		ck_assert_uint_eq(off_total(a), off_total(b));
		ck_assert_uint_eq(a->off[PERFAN_OFFCPU_WAKEUP_DELAY], 0);
	}
	ck_assert_int_ge(groups, 3);
	run_free(&r);
	run_free(&rs);
}

START_TEST(test_expected_fp)
{
	check_against_expected("perf.data");
}
END_TEST

START_TEST(test_expected_dwarf)
{
	check_against_expected("perf.dwarf.data");
}
END_TEST

START_TEST(test_expected_python)
{
	check_against_expected("perf.py.data");
}
END_TEST

/* ---- 2. wall time = lifetime -------------------------------------------- */

static void check_lifetimes(const char *rec)
{
	load_expected();
	struct run r;
	run_rec(&r, rec, PERFAN_VIEW_WALL, 1, PERFAN_ROOT_PID_TID);
	int n = 0;
	for (size_t i = 0; i < exp_n; i++) {
		const struct eline *e = &exp_lines[i];
		if (e->kind != E_THREAD || strcmp(e->rec, rec))
			continue;
		const struct perfan_offcpu_thread *t = thread_of(&r, e->tid);
		ck_assert_msg(t != NULL, "%s: no thread %d", rec, e->tid);
		double wall = (double)(t->on_cpu + off_total(t)) / MS;
		double life = (double)(t->end - t->start) / MS;
		/* perfan's lifetime starts at the FORK, perf script's at
		 * the thread's first record of its own, a few us later */
		ck_assert_msg(fabs(life - e->lifetime) <= 0.01 * e->lifetime,
			      "%s tid %d: lifetime %.3f, perf's %.3f", rec,
			      e->tid, life, e->lifetime);
		/* Intervals whose switch-in was not recorded end where the
		 * next cpu-clock sample says it was (see offcpu.c
		 * cpu_sample), so on + off tiles the lifetime in these
		 * recordings of one process too. */
		ck_assert_msg(fabs(wall - e->lifetime) <= 0.02 * e->lifetime,
			      "%s tid %d: on %.3f + off %.3f ms, lifetime "
			      "%.3f (%u inexact intervals)",
			      rec, e->tid, (double)t->on_cpu / MS,
			      (double)off_total(t) / MS, e->lifetime,
			      t->inexact);
		n++;
	}
	ck_assert_int_ge(n, 1);
	run_free(&r);
}

START_TEST(test_lifetimes)
{
	/* perf.sched.data has no cpu-clock samples (perf sched record
	 * records none), perf.freq.data misses switches: no wall time */
	check_lifetimes("perf.data");
	check_lifetimes("perf.dwarf.data");
	check_lifetimes("perf.py.data");
	check_lifetimes("perf.switch.data");
}
END_TEST

/* ---- 3. PERF_RECORD_SWITCH ---------------------------------------------- */

/* Which recordings have switches to take time off the CPU from: the
 * switch records' attr bit, sched_switch samples; not cpu-clock alone. */
START_TEST(test_recorded)
{
	const char *recs[] = {"offcpu/perf.switch.data",
			      "offcpu/perf.sched.data", "fp/perf.data"};
	for (int i = 0; i < 3; i++) {
		perfan_perfdata *pd = NULL;
		ck_assert_int_eq(perfan_perfdata_open(&pd, tu_testdata(recs[i]),
						      NULL),
				 0);
		ck_assert_int_eq(perfan_offcpu_recorded(pd), i < 2);
		perfan_perfdata_free(pd);
	}
	ck_assert_int_eq(perfan_offcpu_recorded(NULL), 0);
}
END_TEST

START_TEST(test_switch_records)
{
	load_expected();
	const char *rec = "perf.switch.data";
	struct run r;
	run_rec(&r, rec, PERFAN_VIEW_OFFCPU, 1, PERFAN_ROOT_PID_TID);
	ck_assert_uint_eq(r.sum->sched_switch, 0);
	ck_assert_uint_gt(r.sum->switch_records, 300);
	ck_assert_int_eq(r.sum->system_wide, 0);
	int n = 0;
	for (size_t i = 0; i < exp_n; i++) {
		const struct eline *e = &exp_lines[i];
		if (e->kind != E_OFFCPU || strcmp(e->rec, rec))
			continue;
		ck_assert_str_eq(e->site, "-");
		uint32_t st = state_of_letter(e->state);
		int gn, gx;
		double got = sum_ivs(&r, e->tid, "-", (int)st, 0, &gn);
		sum_ivs(&r, e->tid, "-", (int)st, PERFAN_OFFCPU_EXACT, &gx);
		ck_assert_msg(gn == e->n && gx == e->exact &&
				      fabs(got - e->total) <= tol_ms(e->n),
			      "%s tid %d %s: %d intervals (%d exact) %.3f ms, "
			      "perf's %d (%d) %.3f",
			      rec, e->tid, e->state, gn, gx, got, e->n,
			      e->exact, e->total);
		n++;
	}
	ck_assert_int_ge(n, 10);
	/* no stacks in SWITCH records, and no other states */
	for (size_t i = 0; i < r.n; i++) {
		ck_assert_str_eq(r.v[i].site, "-");
		ck_assert(r.v[i].state == PERFAN_OFFCPU_RUNQ ||
			  r.v[i].state == PERFAN_OFFCPU_BLOCKED);
	}
	run_free(&r);
}
END_TEST

/* ---- 4. perf sched timehist ----------------------------------------------- */

struct th_tid {
	int tid;
	int lines;
	double wait, delay; /* ms, over lines after the thread's first */
};

/* timehist.sched.txt: "TIME [CPU] COMM[TID/PID] WAIT DELAY RUN ...". */
static size_t read_timehist(struct th_tid *out, size_t max)
{
	FILE *f = fopen(tu_testdata("offcpu/timehist.sched.txt"), "r");
	ck_assert_ptr_nonnull(f);
	char line[1024];
	size_t n = 0;
	while (fgets(line, sizeof(line), f)) {
		double t;
		int cpu;
		if (sscanf(line, " %lf [%d]", &t, &cpu) != 2)
			continue;
		/* the task's [tid] or [tid/pid], the last '[' before the
		 * numbers (a comm may hold brackets) */
		char *close = strstr(line + 24, "] ");
		char *cols = close;
		while (close && (cols = strstr(close + 1, "] ")))
			if (sscanf(cols + 2, "%lf", &t) == 1)
				close = cols;
			else
				break;
		ck_assert_ptr_nonnull(close);
		char *open = close;
		while (open > line && *open != '[')
			open--;
		int tid = atoi(open + 1);
		double wait, delay, run;
		ck_assert_int_eq(sscanf(close + 1, "%lf %lf %lf", &wait, &delay,
					&run),
				 3);
		size_t k = 0;
		while (k < n && out[k].tid != tid)
			k++;
		if (k == n) {
			ck_assert_uint_lt(n, max);
			out[n++] = (struct th_tid){.tid = tid};
		}
		/* a thread's first line: timehist has no earlier switch-out
		 * to measure from, so counts its wait as 0 */
		if (out[k].lines++) {
			out[k].wait += wait;
			out[k].delay += delay;
		}
	}
	fclose(f);
	return n;
}

/* Whether timehist prints interval I of R: at the thread's next
 * switch-out, which opens another interval, or is its last: a process's
 * main thread exits a zombie (prev_state Z) that perf still knows. Another
 * thread exits dead (X) after its EXIT record, when perf has forgotten it:
 * that line is ":-1[-1/PID]", a thread -1 that every such exit shares (its
 * "wait" measured from the previous exit), left out below. */
static int printed(const struct run *r, size_t i)
{
	const struct iv *v = &r->v[i];
	for (size_t k = 0; k < r->n; k++)
		if (r->v[k].tid == v->tid &&
		    r->v[k].state != PERFAN_OFFCPU_WAKEUP_DELAY &&
		    r->v[k].start >= v->end && k != i)
			return 1;
	const struct perfan_offcpu_thread *t = NULL;
	for (size_t k = 0; k < r->sum->nr_threads; k++)
		if (r->sum->threads[k].tid == v->tid)
			t = &r->sum->threads[k];
	return t && t->exited && t->pid == t->tid;
}

START_TEST(test_timehist)
{
	struct run r, rs;
	run_rec(&r, "perf.sched.data", PERFAN_VIEW_OFFCPU, 0,
		PERFAN_ROOT_PID_TID);
	run_rec(&rs, "perf.sched.data", PERFAN_VIEW_OFFCPU, 1,
		PERFAN_ROOT_PID_TID);
	ck_assert_int_eq(r.sum->system_wide, 1);
	ck_assert_int_eq(r.sum->switch_sampled, 0);
	static struct th_tid th[256];
	size_t n = read_timehist(th, 256);
	ck_assert_uint_gt(n, 20);
	int compared = 0;
	for (size_t k = 0; k < n; k++) {
		/* ":-1": see printed() */
		if (th[k].tid <= 0)
			continue;
		double wait = 0, delay = 0;
		for (size_t i = 0; i < r.n; i++) {
			const struct iv *v = &r.v[i];
			/* Not in timehist's totals: an UNSEEN interval (its
			 * first wait: 0), one that ended at the thread's
			 * next record, not at a recorded switch-in (the
			 * first switch on a CPU: timehist has no earlier one
			 * there and counts 0), one still open at the end, and
			 * one not printed (above). */
			if (v->tid != th[k].tid ||
			    !(v->flags & PERFAN_OFFCPU_EXACT) ||
			    (v->flags & (PERFAN_OFFCPU_OPEN_START |
					 PERFAN_OFFCPU_OPEN_END)) ||
			    !printed(&r, i))
				continue;
			wait += (double)(v->end - v->start) / MS;
		}
		for (size_t i = 0; i < rs.n; i++) {
			const struct iv *v = &rs.v[i];
			/* (after an UNSEEN interval: the delay of timehist's
			 * first line, left out) */
			if (v->tid != th[k].tid ||
			    v->state != PERFAN_OFFCPU_WAKEUP_DELAY ||
			    v->orig == PERFAN_OFFCPU_UNSEEN ||
			    !(v->flags & PERFAN_OFFCPU_EXACT) ||
			    (v->flags & PERFAN_OFFCPU_OPEN_END) ||
			    !printed(&rs, i))
				continue;
			delay += (double)(v->end - v->start) / MS;
		}
		/* timehist prints ms with 3 decimals per line */
		double tol = 0.002 + 0.001 * th[k].lines;
		ck_assert_msg(fabs(wait - th[k].wait) <= tol,
			      "tid %d: waits %.3f ms, timehist's %.3f",
			      th[k].tid, wait, th[k].wait);
		ck_assert_msg(fabs(delay - th[k].delay) <= tol,
			      "tid %d: run-queue delay %.3f ms, timehist's "
			      "sch delay %.3f",
			      th[k].tid, delay, th[k].delay);
		if (th[k].wait > 1.0)
			compared++;
	}
	ck_assert_int_ge(compared, 20);
	run_free(&r);
	run_free(&rs);
}
END_TEST

/* ---- 5. a sampled sched_switch, open intervals ---------------------------- */

START_TEST(test_sampled_and_open)
{
	struct run r;
	run_rec(&r, "perf.freq.data", PERFAN_VIEW_OFFCPU, 1,
		PERFAN_ROOT_PID_TID);
	ck_assert_int_eq(r.sum->switch_sampled, 1); /* -F 999 */
	ck_assert_uint_gt(r.sum->sched_switch, 0);
	run_free(&r);

	run_rec(&r, "perf.sched.data", PERFAN_VIEW_OFFCPU, 1,
		PERFAN_ROOT_PID_TID);
	const struct perfan_offcpu_summary *s = r.sum;
	ck_assert_uint_gt(s->end, s->start);
	int open_start = 0, open_end = 0;
	for (size_t i = 0; i < s->nr_threads; i++) {
		const struct perfan_offcpu_thread *t = &s->threads[i];
		if (i)
			ck_assert(t->pid > s->threads[i - 1].pid ||
				  (t->pid == s->threads[i - 1].pid &&
				   t->tid >= s->threads[i - 1].tid));
		/* every interval delivered is in the thread's totals */
		double sum = sum_ivs(&r, t->tid, NULL, -1, 0, NULL);
		ck_assert_double_le(fabs(sum - (double)off_total(t) / MS),
				    1e-6);
		int os, oe;
		sum_ivs(&r, t->tid, NULL, -1, PERFAN_OFFCPU_OPEN_START, &os);
		sum_ivs(&r, t->tid, NULL, -1, PERFAN_OFFCPU_OPEN_END, &oe);
		ck_assert_int_eq((int)t->open_start, os);
		ck_assert_int_eq((int)t->open_end, oe);
		open_start += os;
		open_end += oe;
	}
	/* kernel threads and other processes first seen at a switch-in:
	 * off-CPU since the recording began; and switched out for good */
	ck_assert_int_ge(open_start, 5);
	ck_assert_int_ge(open_end, 5);
	for (size_t i = 0; i < r.n; i++) {
		const struct iv *v = &r.v[i];
		if (v->flags & PERFAN_OFFCPU_OPEN_START) {
			ck_assert_uint_eq(v->state, PERFAN_OFFCPU_UNSEEN);
			ck_assert_uint_eq(v->start, s->start);
			ck_assert_uint_gt(v->end, v->start);
			ck_assert(v->flags & PERFAN_OFFCPU_EXACT);
			ck_assert_str_eq(v->site, "-");
		}
		if (v->flags & PERFAN_OFFCPU_OPEN_END)
			ck_assert_uint_eq(v->end, s->end);
		ck_assert_int_gt(v->tid, 0); /* never the idle tasks */
	}
	/* the workload's main thread waited for perf's go before its first
	 * switch-in (perf sched record forks it first) */
	const struct perfan_offcpu_thread *main_t = NULL;
	for (size_t i = 0; i < s->nr_threads; i++)
		if (s->threads[i].comm &&
		    !strcmp(s->threads[i].comm, "offcpu") &&
		    s->threads[i].pid == s->threads[i].tid)
			main_t = &s->threads[i];
	ck_assert_ptr_nonnull(main_t);
	ck_assert_uint_eq(main_t->intervals[PERFAN_OFFCPU_UNSEEN], 1);
	ck_assert_uint_gt(main_t->off[PERFAN_OFFCPU_UNSEEN], 50 * MS);
	ck_assert_int_eq(main_t->exited, 1);
	run_free(&r);

	/* a recording of one process: what it switched to is not its */
	run_rec(&r, "perf.data", PERFAN_VIEW_OFFCPU, 1, PERFAN_ROOT_PID_TID);
	ck_assert_int_eq(r.sum->system_wide, 0);
	ck_assert_uint_eq(r.sum->nr_threads, 8);
	for (size_t i = 0; i < r.n; i++)
		ck_assert_uint_ne(r.v[i].state, PERFAN_OFFCPU_UNSEEN);
	run_free(&r);
}
END_TEST

/* ---- 6. the profiles ------------------------------------------------------ */

static int column(perfan_profile *p, const char *name)
{
	for (size_t c = 0; c < perfan_profile_nr_columns(p); c++)
		if (!strcmp(perfan_profile_column_name(p, c), name)) {
			ck_assert_str_eq(perfan_profile_column_unit(p, c),
					 "ns");
			return (int)c;
		}
	ck_abort_msg("no column %s", name);
	return -1;
}

START_TEST(test_wall_profile)
{
	struct run r;
	run_rec(&r, "perf.data", PERFAN_VIEW_WALL, 1, PERFAN_ROOT_PID_TID);
	int col = column(r.p, "wall");
	ck_assert_uint_eq(perfan_profile_nr_columns(r.p), 1);
	/* one root per thread and name it had (a new thread runs a little
	 * under its creator's name) */
	const perfan_node_id *kids;
	size_t nk = perfan_profile_node_children(r.p, PERFAN_ROOT_NODE, &kids);
	ck_assert_uint_ge(nk, r.sum->nr_threads);
	uint64_t all = 0;
	for (size_t k = 0; k < r.sum->nr_threads; k++) {
		const struct perfan_offcpu_thread *t = &r.sum->threads[k];
		uint64_t w = 0;
		int named = 0;
		for (size_t i = 0; i < nk; i++) {
			const struct perfan_frame *f = perfan_profile_frame_get(
				r.p, perfan_profile_node_frame(r.p, kids[i]));
			ck_assert_uint_eq(f->kind, PERFAN_FRAME_PROCESS);
			if (f->tid != t->tid)
				continue;
			ck_assert_int_eq(f->pid, t->pid);
			char name[96];
			snprintf(name, sizeof(name), "%s-%d/%d", t->comm,
				 t->pid, t->tid);
			named |= !strcmp(f->name, name);
			w += perfan_profile_node_total(r.p, kids[i],
						       (size_t)col);
		}
		ck_assert_msg(named, "no root for %s", t->comm);
		ck_assert_uint_eq(w, t->on_cpu + off_total(t));
		all += w;
	}
	ck_assert_uint_eq(all, perfan_profile_total(r.p, (size_t)col));
	/* leaves: an off-CPU state, or on-CPU code */
	size_t nn = perfan_profile_nr_nodes(r.p);
	uint64_t off = 0, offcpu_leaves = 0;
	for (perfan_node_id n = 1; n < nn; n++) {
		const struct perfan_frame *f = perfan_profile_frame_get(
			r.p, perfan_profile_node_frame(r.p, n));
		uint64_t self = perfan_profile_node_self(r.p, n, (size_t)col);
		if (f->kind != PERFAN_FRAME_OFFCPU)
			continue;
		ck_assert_uint_eq(self, perfan_profile_node_total(r.p, n,
								  (size_t)col));
		ck_assert(!strncmp(f->name, "[off-cpu: ", 10));
		off += self;
		offcpu_leaves++;
	}
	uint64_t want_off = 0, want_on = 0;
	for (size_t i = 0; i < r.sum->nr_threads; i++) {
		want_off += off_total(&r.sum->threads[i]);
		want_on += r.sum->threads[i].on_cpu;
	}
	ck_assert_uint_eq(off, want_off);
	ck_assert_uint_eq(all - off, want_on);
	ck_assert_uint_gt(offcpu_leaves, 10);
	perfan_frame_id fid;
	ck_assert_int_eq(perfan_profile_frame(r.p, &fid, "[off-cpu: sleep]",
					      NULL, NULL, 0,
					      PERFAN_FRAME_OFFCPU),
			 0);
	ck_assert_uint_lt(fid, perfan_profile_nr_frames(r.p));
	run_free(&r);

	/* the off-CPU view: no on-CPU time, the same off-CPU total */
	run_rec(&r, "perf.data", PERFAN_VIEW_OFFCPU, 1, PERFAN_ROOT_COMM);
	col = column(r.p, "off-cpu");
	ck_assert_uint_eq(perfan_profile_total(r.p, (size_t)col), want_off);
	run_free(&r);
}
END_TEST

/* Whether node N of P, or an ancestor, is named starting with PREFIX. */
static int under(const perfan_profile *p, perfan_node_id n, const char *prefix)
{
	for (; n != PERFAN_ROOT_NODE; n = perfan_profile_node_parent(p, n)) {
		const struct perfan_frame *f = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, n));
		if (!strncmp(f->name, prefix, strlen(prefix)))
			return 1;
	}
	return 0;
}

START_TEST(test_python_view)
{
	struct run r;
	run_rec(&r, "perf.py.data", PERFAN_VIEW_WALL, 1, PERFAN_ROOT_COMM);
	perfan_profile *v = NULL;
	ck_assert_int_eq(perfan_python_view(&v, r.p, PERFAN_PY_MIXED), 0);
	int col = column(v, "wall");
	ck_assert_uint_eq(perfan_profile_total(v, (size_t)col),
			  perfan_profile_total(r.p, (size_t)col));
	/* time.sleep inside handle_request: handle_request above a sleep */
	uint64_t sleep_in_handler = 0;
	size_t nn = perfan_profile_nr_nodes(v);
	for (perfan_node_id n = 1; n < nn; n++) {
		const struct perfan_frame *f = perfan_profile_frame_get(
			v, perfan_profile_node_frame(v, n));
		if (strcmp(f->name, "[off-cpu: sleep]"))
			continue;
		ck_assert_uint_eq(f->kind, PERFAN_FRAME_OFFCPU);
		if (under(v, n, "handle_request ("))
			sleep_in_handler +=
				perfan_profile_node_self(v, n, (size_t)col);
	}
	const struct perfan_offcpu_thread *t = &r.sum->threads[0];
	ck_assert_uint_eq(r.sum->nr_threads, 1);
	/* all its sleep is in handle_request (EXPECTED: 20 sleeps there) */
	ck_assert_uint_gt(sleep_in_handler, 0);
	ck_assert_uint_eq(sleep_in_handler, t->off[PERFAN_OFFCPU_SLEEP]);
	perfan_profile_free(v);

	/* and in the python view, Python functions with the leaf kept */
	ck_assert_int_eq(perfan_python_view(&v, r.p, PERFAN_PY_PYTHON), 0);
	uint64_t offcpu = 0;
	nn = perfan_profile_nr_nodes(v);
	for (perfan_node_id n = 1; n < nn; n++) {
		const struct perfan_frame *f = perfan_profile_frame_get(
			v, perfan_profile_node_frame(v, n));
		if (f->kind == PERFAN_FRAME_OFFCPU)
			offcpu += perfan_profile_node_self(v, n, (size_t)col);
	}
	ck_assert_uint_eq(offcpu, off_total(t));
	perfan_profile_free(v);
	run_free(&r);
}
END_TEST

START_TEST(test_filters)
{
	load_expected();
	/* a tid filter keeps that thread's stacks, all of its intervals
	 * (whose switch-ins are other threads' records) */
	struct run all, one;
	run_rec(&all, "perf.data", PERFAN_VIEW_WALL, 1, PERFAN_ROOT_PID_TID);
	const struct perfan_offcpu_thread *t = NULL;
	for (size_t i = 0; i < all.sum->nr_threads; i++)
		if (!strcmp(all.sum->threads[i].comm, "sleeper"))
			t = &all.sum->threads[i];
	ck_assert_ptr_nonnull(t);

	memset(&one, 0, sizeof(one));
	ck_assert_int_eq(perfan_perfdata_open(&one.pd,
					      tu_testdata("offcpu/perf.data"),
					      NULL),
			 0);
	ck_assert_int_eq(perfan_profile_new(&one.p, NULL), 0);
	struct perfan_resolve_opts ro = offcpu_opts(PERFAN_ROOT_PID_TID);
	ro.filter.tid = t->tid;
	ck_assert_int_eq(perfan_offcpu_profile(one.p, one.pd, &ro,
					       PERFAN_VIEW_WALL, NULL, NULL,
					       &one.st),
			 0);
	int col = column(one.p, "wall");
	ck_assert_uint_eq(perfan_profile_total(one.p, (size_t)col),
			  t->on_cpu + off_total(t));
	ck_assert_uint_gt(one.st.samples_filtered, 0);
	const perfan_node_id *kids;
	ck_assert_uint_eq(perfan_profile_node_children(one.p, PERFAN_ROOT_NODE,
						       &kids),
			  1);
	run_free(&one);

	/* a time window clips intervals to it */
	memset(&one, 0, sizeof(one));
	ck_assert_int_eq(perfan_perfdata_open(&one.pd,
					      tu_testdata("offcpu/perf.data"),
					      NULL),
			 0);
	ck_assert_int_eq(perfan_profile_new(&one.p, NULL), 0);
	ro = offcpu_opts(PERFAN_ROOT_PID_TID);
	ro.filter.time_start = all.sum->start + 100000000ull;
	ro.filter.time_end = ro.filter.time_start + 50000000ull;
	ck_assert_int_eq(perfan_offcpu_profile(one.p, one.pd, &ro,
					       PERFAN_VIEW_OFFCPU, NULL, NULL,
					       NULL),
			 0);
	col = column(one.p, "off-cpu");
	uint64_t want = 0;
	for (size_t i = 0; i < all.n; i++) {
		uint64_t s = all.v[i].start > ro.filter.time_start
				     ? all.v[i].start
				     : ro.filter.time_start;
		uint64_t e = all.v[i].end < ro.filter.time_end
				     ? all.v[i].end
				     : ro.filter.time_end;
		if (e > s)
			want += e - s;
	}
	ck_assert_uint_gt(want, 0);
	ck_assert_uint_eq(perfan_profile_total(one.p, (size_t)col), want);
	run_free(&one);
	run_free(&all);
}
END_TEST

/* ---- perf's own offcpu-time event ----------------------------------------- */

START_TEST(test_offcpu_time)
{
	load_expected();
	const char *rec = "perf.offcpu.data";
	struct run r;
	run_rec(&r, rec, PERFAN_VIEW_OFFCPU, 1, PERFAN_ROOT_PID_TID);
	ck_assert_uint_eq(r.sum->sched_switch, 0);
	ck_assert_uint_gt(r.sum->cpu_samples, 100);
	int lines = 0, samples = 0;
	double all = 0;
	for (size_t i = 0; i < exp_n; i++) {
		const struct eline *e = &exp_lines[i];
		if (e->kind != E_OFFCPUTIME || strcmp(e->rec, rec))
			continue;
		int n;
		double got = sum_ivs(&r, e->tid, e->site, PERFAN_OFFCPU_BLOCKED,
				     PERFAN_OFFCPU_AGGREGATE, &n);
		/* periods in ns, EXPECTED in ms with 3 decimals */
		ck_assert_msg(n == e->n && fabs(got - e->total) <= 0.001,
			      "%s tid %d %s: %d offcpu-time totals, %.3f ms; "
			      "perf's %d, %.3f",
			      rec, e->tid, e->site, n, got, e->n, e->total);
		lines++;
		samples += e->n;
		all += e->total;
	}
	ck_assert_int_ge(lines, 2);
	ck_assert_uint_eq(r.sum->offcpu_time, (uint64_t)samples);
	ck_assert_uint_eq(r.n, (size_t)samples);
	for (size_t i = 0; i < r.n; i++) {
		/* a total, no timeline: from 0 to its period */
		ck_assert_uint_eq(r.v[i].flags, PERFAN_OFFCPU_AGGREGATE);
		ck_assert_uint_eq(r.v[i].start, 0);
	}
	/* their fake times (0xffffffff00000000 ns on) are no time */
	ck_assert_uint_lt(r.sum->end, 1ull << 62);
	int col = column(r.p, "off-cpu");
	ck_assert_double_le(
		fabs((double)perfan_profile_total(r.p, (size_t)col) / MS - all),
		0.001 * lines);
	/* lifetimes as perf script's records give them */
	for (size_t i = 0; i < exp_n; i++) {
		const struct eline *e = &exp_lines[i];
		if (e->kind != E_THREAD || strcmp(e->rec, rec))
			continue;
		const struct perfan_offcpu_thread *t = thread_of(&r, e->tid);
		ck_assert_ptr_nonnull(t);
		ck_assert_double_le(
			fabs((double)(t->end - t->start) / MS - e->lifetime),
			0.01 * e->lifetime);
	}
	run_free(&r);
}
END_TEST

/* ---- 7. bad input --------------------------------------------------------- */

START_TEST(test_cut_recordings)
{
	static const char *const recs[] = {"killed/perf.data",
					   "killed/perf.cut.data",
					   "killed/perf.closed.data"};
	for (size_t i = 0; i < sizeof(recs) / sizeof(*recs); i++) {
		perfan_perfdata *pd = NULL;
		if (perfan_perfdata_open(&pd, tu_testdata(recs[i]), NULL))
			continue; /* refused at the header: also fine */
		perfan_profile *p = NULL;
		ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
		struct perfan_resolve_opts ro = PERFAN_RESOLVE_OPTS_INIT;
		char nocache[4096];
		tu_fmt(nocache, sizeof(nocache), "%s",
		       tu_testdata("killed/no-such-cache"));
		ro.host = tu_host();
		ro.buildid_dir = nocache;
		ro.root = PERFAN_ROOT_PID;
		perfan_offcpu *oc = NULL;
		int rc = perfan_offcpu_profile(p, pd, &ro, PERFAN_VIEW_WALL,
					       NULL, &oc, NULL);
		if (rc)
			ck_assert_str_ne(perfan_error_last(), "");
		if (oc) {
			const struct perfan_offcpu_summary *s =
				perfan_offcpu_summary(oc);
			ck_assert_uint_le(s->start, s->end);
			/* cpu-clock only: on-CPU time, no intervals */
			ck_assert_uint_eq(s->sched_switch, 0);
			for (size_t k = 0; k < s->nr_threads; k++)
				ck_assert_uint_eq(off_total(&s->threads[k]), 0);
		}
		perfan_offcpu_free(oc);
		perfan_profile_free(p);
		perfan_perfdata_free(pd);
	}
}
END_TEST

/* Prefixes of a sched_switch recording (a copy cut short) and a copy with
 * bytes spoilt all through its data: an error or a shorter analysis, never
 * a crash, and totals that still add up. */
START_TEST(test_cut_and_spoilt_sched)
{
	FILE *f = fopen(tu_testdata("offcpu/perf.sched.data"), "rb");
	ck_assert_ptr_nonnull(f);
	static unsigned char data[1 << 20], copy[1 << 20];
	size_t len = fread(data, 1, sizeof(data), f);
	fclose(f);
	ck_assert_uint_gt(len, 100000);
	ck_assert_uint_lt(len, sizeof(data));
	for (int k = 1; k <= 12; k++) {
		size_t n = k <= 9 ? len * (size_t)k / 10 : len;
		memcpy(copy, data, n);
		/* spoil a byte in every STEP of the records (the data
		 * section, after the header's offset and size: the formats
		 * after it are the reader's business): fields, pids and
		 * times of garbage before the reader stops at a record */
		static const size_t steps[] = {3001, 7919, 20011};
		uint64_t doff, dsize;
		memcpy(&doff, data + 40, 8);
		memcpy(&dsize, data + 48, 8);
		ck_assert_uint_le(doff + dsize, len);
		for (size_t i = (size_t)doff + 64;
		     k > 9 && i < (size_t)(doff + dsize); i += steps[k - 10])
			copy[i] ^= 0x5a;
		int fd = memfd_create("cut", 0);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(write(fd, copy, n), (ssize_t)n);
		perfan_perfdata *pd = NULL;
		if (perfan_perfdata_open_fd(&pd, fd, "cut", NULL)) {
			close(fd);
			continue;
		}
		perfan_profile *p;
		ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
		struct perfan_resolve_opts ro =
			offcpu_opts(PERFAN_ROOT_PID_TID);
		perfan_offcpu *oc = NULL;
		int rc = perfan_offcpu_profile(p, pd, &ro, PERFAN_VIEW_WALL,
					       NULL, &oc, NULL);
		if (rc)
			ck_assert_str_ne(perfan_error_last(), "");
		ck_assert_ptr_nonnull(oc);
		const struct perfan_offcpu_summary *s =
			perfan_offcpu_summary(oc);
		uint64_t off = 0;
		for (size_t i = 0; i < s->nr_threads; i++)
			off += off_total(&s->threads[i]);
		ck_assert_uint_le(s->start, s->end);
		/* (spoilt times make sums of garbage: saturated in the
		 * profile, wrapped in the totals) */
		if (!rc && k <= 9)
			ck_assert_uint_eq(perfan_profile_total(
						  p, (size_t)column(p, "wall")),
					  off);
		perfan_offcpu_free(oc);
		perfan_profile_free(p);
		perfan_perfdata_free(pd);
		close(fd);
	}
}
END_TEST

START_TEST(test_api_errors)
{
	perfan_offcpu *oc = (perfan_offcpu *)1;
	ck_assert_int_eq(perfan_offcpu_new(&oc, NULL, NULL), PERFAN_EINVAL);
	ck_assert_int_eq(perfan_offcpu_feed(NULL, NULL), PERFAN_EINVAL);
	ck_assert_int_eq(perfan_offcpu_finish(NULL), PERFAN_EINVAL);
	perfan_offcpu_free(NULL);
	ck_assert_ptr_null(perfan_offcpu_state_name(PERFAN_OFFCPU_NR_STATES));
	ck_assert_str_eq(perfan_offcpu_state_name(PERFAN_OFFCPU_RUNQ),
			 "waiting for a CPU");
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	perfan_perfdata *pd;
	ck_assert_int_eq(perfan_perfdata_open(
				 &pd, tu_testdata("offcpu/perf.data"), NULL),
			 0);
	ck_assert_int_eq(perfan_offcpu_profile(p, pd, NULL, 7, NULL, NULL,
					       NULL),
			 PERFAN_EINVAL);
	ck_assert_int_eq(perfan_offcpu_profile(NULL, pd, NULL, PERFAN_VIEW_WALL,
					       NULL, NULL, NULL),
			 PERFAN_EINVAL);
	perfan_perfdata_free(pd);
	perfan_profile_free(p);

	/* the engine on its own, fed by hand from a stream */
	ck_assert_int_eq(perfan_perfdata_open(
				 &pd, tu_testdata("offcpu/perf.data"), NULL),
			 0);
	struct perfan_resolve_opts ro = offcpu_opts(PERFAN_ROOT_NONE);
	perfan_stream *s;
	ck_assert_int_eq(perfan_stream_open(&s, pd, &ro), 0);
	ck_assert_int_eq(perfan_offcpu_new(&oc, s, NULL), 0);
	const struct perfan_stream_event *ev;
	int rc;
	while (!(rc = perfan_stream_next(s, &ev)))
		ck_assert_int_eq(perfan_offcpu_feed(oc, ev), 0);
	ck_assert_int_eq(rc, PERFAN_ITEROVER);
	ck_assert_int_eq(perfan_offcpu_finish(oc), 0);
	ck_assert_int_eq(perfan_offcpu_finish(oc), 0);
	ck_assert_int_eq(perfan_offcpu_feed(oc, ev), PERFAN_EINVAL);
	const struct perfan_offcpu_summary *sum = perfan_offcpu_summary(oc);
	ck_assert_uint_eq(sum->nr_threads, 8);
	ck_assert_uint_eq(sum->sched_switch, 176); /* stats.txt */
	perfan_offcpu_free(oc);
	perfan_stream_free(s);
	perfan_perfdata_free(pd);
}
END_TEST

static Suite *offcpu_suite(void)
{
	Suite *s = suite_create("offcpu");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_expected_fp);
	tcase_add_test(tc, test_expected_dwarf);
	tcase_add_test(tc, test_expected_python);
	tcase_add_test(tc, test_lifetimes);
	tcase_add_test(tc, test_recorded);
	tcase_add_test(tc, test_switch_records);
	tcase_add_test(tc, test_offcpu_time);
	tcase_add_test(tc, test_timehist);
	tcase_add_test(tc, test_sampled_and_open);
	tcase_add_test(tc, test_wall_profile);
	tcase_add_test(tc, test_python_view);
	tcase_add_test(tc, test_filters);
	tcase_add_test(tc, test_cut_recordings);
	tcase_add_test(tc, test_cut_and_spoilt_sched);
	tcase_add_test(tc, test_api_errors);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(offcpu_suite)
