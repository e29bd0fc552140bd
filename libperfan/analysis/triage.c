/* analysis/triage.c: the first look at one recording from the other
 * analyses' results: the widest plateaus, the blocking call sites of all
 * threads together, and what to record next for what the input lacks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/triage.h>

#include "analysis/amdahl.h"
#include "analysis/diff_result.h"
#include "analysis/triage_internal.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"
#include "util/opts.h"

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Every thread's sites, merged by wait, caller, class, site and
 * mechanism, heaviest first. */
static int cmp_site(const void *va, const void *vb)
{
	const struct perfan_triage_site *a = va, *b = vb;
	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	int c = strcmp(a->wait ? a->wait : "", b->wait ? b->wait : "");
	if (!c)
		c = strcmp(a->caller ? a->caller : "",
			   b->caller ? b->caller : "");
	if (!c && a->wait_class != b->wait_class)
		c = a->wait_class < b->wait_class ? -1 : 1;
	if (!c)
		c = strcmp(a->site ? a->site : "", b->site ? b->site : "");
	if (!c)
		c = strcmp(a->mechanism ? a->mechanism : "",
			   b->mechanism ? b->mechanism : "");
	return c;
}

/* Whether thread site S is triage site T. */
static int same_site(const struct perfan_triage_site *t,
		     const struct perfan_thread_site *s)
{
	return same_str(t->wait, s->wait) && same_str(t->caller, s->caller) &&
	       t->wait_class == s->wait_class && same_str(t->site, s->site) &&
	       same_str(t->mechanism, s->mechanism);
}

static int gather_sites(struct perfan_triage *t, size_t max)
{
	const perfan_threads *th = t->in.threads;
	if (!th)
		return 0;
	size_t cap = 0;
	for (size_t i = 0; i < perfan_threads_nr(th); i++) {
		const struct perfan_thread_row *row = perfan_threads_row(th, i);
		for (size_t k = 0; k < row->nr_sites; k++) {
			const struct perfan_thread_site *s = &row->sites[k];
			size_t j = 0;
			while (j < t->nsites && !same_site(&t->sites[j], s))
				j++;
			if (j == t->nsites) {
				if (perfan__grow((void **)&t->sites, &cap,
						 t->nsites + 1,
						 sizeof(*t->sites)))
					return perfan__nomem("triage");
				t->sites[t->nsites++] =
					(struct perfan_triage_site){
						s->wait,
						s->caller,
						0,
						0,
						s->wait_class,
						s->site,
						s->mechanism};
			}
			t->sites[j].total += s->total;
			t->sites[j].nr_threads++;
		}
	}
	if (t->nsites)
		qsort(t->sites, t->nsites, sizeof(*t->sites), cmp_site);
	if (t->nsites > max)
		t->nsites = max;
	return 0;
}

/* Row W of the bound thread's report: the plateau ROW's function, in
 * that thread. */
static int same_function(const struct perfan_report_row *w,
			 const struct perfan_report_row *row)
{
	return same_str(w->sym, row->sym) && same_str(w->dso, row->dso) &&
	       (w->kind == PERFAN_FRAME_KERNEL) ==
		       (row->kind == PERFAN_FRAME_KERNEL);
}

/* The plateaus, each with its Amdahl bounds on the thread that does the
 * work (in.bound_*): its weight in that thread against the thread's. */
static int bound_plateaus(struct perfan_triage *t)
{
	const struct perfan_triage_in *in = &t->in;
	t->plateaus = calloc(t->nplateaus + 1, sizeof(*t->plateaus));
	if (!t->plateaus)
		return perfan__nomem("triage");
	for (size_t i = 0; i < t->nplateaus; i++)
		t->plateaus[i] =
			*perfan_report_row(in->plateaus, in->column, i);
	if (!in->bound_total || !in->bound_rows)
		return 0; /* one thread: the report's bounds are its */
	int holds = in->cpu ? perfan__amdahl_holds(in->cpu, in->column) : 1;
	const perfan_report *br = in->bound_rows;
	size_t col = in->bound_column, n = perfan_report_nr_rows(br, col);
	for (size_t i = 0; i < t->nplateaus; i++) {
		struct perfan_report_row *row = &t->plateaus[i];
		uint64_t self = 0, total = 0;
		for (size_t k = 0; k < n; k++) {
			const struct perfan_report_row *w =
				perfan_report_row(br, col, k);
			/* the thread's rows under each of its comms */
			if (w->tid == in->bound_tid && same_function(w, row)) {
				self += w->self;
				total += w->total;
			}
		}
		row->speedup_self =
			holds ? perfan__amdahl(self, in->bound_total) : NAN;
		row->speedup_total =
			holds ? perfan__amdahl(total, in->bound_total) : NAN;
	}
	return 0;
}

/* ---- what changed ------------------------------------------------------ */

static double by_change(const struct perfan_diff_row *r)
{
	return fabs(r->self_change);
}

static double by_after(const struct perfan_diff_row *r)
{
	return r->after_self;
}

static double by_before(const struct perfan_diff_row *r)
{
	return r->before_self;
}

/* The MAX heaviest by KEY of the diff's rows that KEEP keeps (and that
 * are significant when the diff was tested) into *OUT. */
static int pick_rows(const perfan_diff *d,
		     int (*keep)(const struct perfan_diff_row *),
		     double (*key)(const struct perfan_diff_row *), size_t max,
		     const struct perfan_diff_row ***out, size_t *n)
{
	*out = calloc(max + 1, sizeof(**out));
	if (!*out)
		return perfan__nomem("triage");
	int tested = perfan_diff_tested(d);
	for (size_t i = 0; i < perfan_diff_nr_rows(d); i++) {
		const struct perfan_diff_row *r = perfan_diff_row(d, i);
		if (!keep(r) || (tested && !r->significant) || key(r) <= 0)
			continue;
		/* insert by KEY, heaviest first, keeping MAX */
		size_t at = *n;
		while (at > 0 && key((*out)[at - 1]) < key(r))
			at--;
		if (at >= max)
			continue;
		size_t end = *n < max ? *n : max - 1;
		memmove(*out + at + 1, *out + at, (end - at) * sizeof(**out));
		(*out)[at] = r;
		if (*n < max)
			(*n)++;
	}
	return 0;
}

static int any_row(const struct perfan_diff_row *r)
{
	(void)r;
	return 1;
}

static int new_row(const struct perfan_diff_row *r)
{
	return r->is_new;
}

static int gone_row(const struct perfan_diff_row *r)
{
	return r->vanished;
}

static int gather_changes(struct perfan_triage *t)
{
	const perfan_diff *d = t->in.diff;
	if (!d)
		return 0;
	size_t max = t->o.max_changes ? t->o.max_changes : 10;
	t->runs_before = d->nb;
	t->runs_after = d->na;
	int rc = pick_rows(d, any_row, by_change, max, &t->changes,
			   &t->nchanges);
	if (!rc)
		rc = pick_rows(d, new_row, by_after, max, &t->added,
			       &t->nadded);
	if (!rc)
		rc = pick_rows(d, gone_row, by_before, max, &t->gone,
			       &t->ngone);
	return rc;
}

int perfan_triage_new(perfan_triage **out, const struct perfan_triage_in *in,
		      const struct perfan_triage_opts *opts)
{
	if (!out || !in)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_triage_new: NULL argument");
	*out = NULL;
	struct perfan_triage *t = calloc(1, sizeof(*t));
	if (!t)
		return perfan__nomem("triage");
	int rc = PERFAN__OPTS_COPY(t->in, in);
	if (!rc)
		rc = PERFAN__OPTS_COPY(t->o, opts);
	if (rc) {
		free(t);
		return rc;
	}
	size_t maxp = t->o.max_plateaus ? t->o.max_plateaus : 10;
	size_t col = t->in.column;
	if (t->in.has_cpu && t->in.plateaus &&
	    col < perfan_report_nr_columns(t->in.plateaus)) {
		size_t n = perfan_report_nr_rows(t->in.plateaus, col);
		for (size_t i = 0; i < n && t->nplateaus < maxp; i++)
			if (perfan_report_row(t->in.plateaus, col, i)->self)
				t->nplateaus++;
	}
	rc = bound_plateaus(t);
	if (!rc)
		rc = gather_changes(t);
	if (!rc)
		rc = gather_sites(t, t->o.max_sites ? t->o.max_sites : 10);
	if (!rc && !t->in.gpu) /* what to record: a perf recording's */
		rc = perfan__triage_next(t);
	if (rc) {
		t->o.release = NULL; /* the caller's still */
		perfan_triage_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

void perfan_triage_free(perfan_triage *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nnext; i++) {
		free((void *)t->next[i].why);
		free((void *)t->next[i].command);
	}
	free(t->next);
	free(t->sites);
	free(t->plateaus);
	free(t->changes);
	free(t->added);
	free(t->gone);
	if (t->o.release)
		t->o.release(t->o.release_payload);
	free(t);
}

size_t perfan_triage_nr_plateaus(const perfan_triage *t)
{
	return t ? t->nplateaus : 0;
}

const struct perfan_report_row *perfan_triage_plateau(const perfan_triage *t,
						      size_t i)
{
	return t && i < t->nplateaus ? &t->plateaus[i] : NULL;
}

int perfan_triage_bound_thread(const perfan_triage *t, int32_t *pid,
			       int32_t *tid, const char **comm,
			       size_t *nr_threads)
{
	if (!t || !t->in.bound_total)
		return 0;
	if (pid)
		*pid = t->in.bound_pid;
	if (tid)
		*tid = t->in.bound_tid;
	if (comm) {
		/* what the thread table calls it (its role: engine_loop),
		 * else its comm */
		*comm = t->in.bound_comm;
		const perfan_threads *th = t->in.threads;
		for (size_t i = 0; th && i < perfan_threads_nr(th); i++) {
			const struct perfan_thread_row *r =
				perfan_threads_row(th, i);
			if (r->tid == t->in.bound_tid && r->name)
				*comm = r->name;
		}
	}
	if (nr_threads)
		*nr_threads = t->in.bound_threads;
	return 1;
}

size_t perfan_triage_nr_sites(const perfan_triage *t)
{
	return t ? t->nsites : 0;
}

const struct perfan_triage_site *perfan_triage_site(const perfan_triage *t,
						    size_t i)
{
	return t && i < t->nsites ? &t->sites[i] : NULL;
}

size_t perfan_triage_nr_next(const perfan_triage *t)
{
	return t ? t->nnext : 0;
}

const struct perfan_triage_next *perfan_triage_next(const perfan_triage *t,
						    size_t i)
{
	return t && i < t->nnext ? &t->next[i] : NULL;
}
