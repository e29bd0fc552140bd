/* render/triage_text.c: the triage's findings for a terminal, the answer
 * in a few lines first, then one section per question, each saying what
 * to record where its data is missing. */
#include <math.h>
#include <stdio.h>

#include "render/gil_section.h"
#include "render/site_text.h"
#include "render/thread_rows.h"
#include "render/triage.h"
#include "render/triage_summary.h"
#include "util/error.h"

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static void missing(FILE *fp, const char *what)
{
	fprintf(fp, "  not recorded: %s (see \"What to record next\")\n", what);
}

/* The answer in a few lines, each naming the section it sums up. */
static void summary(const struct perfan_triage *t, FILE *fp)
{
	struct perfan__triage_line l[PERFAN__TRIAGE_LINES];
	size_t n = perfan__triage_summary(t, l);
	fputs("\nIn short\n", fp);
	for (size_t i = 0; i < n; i++) {
		fprintf(fp, "  [%d] %s %s.\n", l[i].number, l[i].label,
			l[i].text);
		if (l[i].command)
			fprintf(fp, "      %s\n", l[i].command);
	}
}

static void threads(const struct perfan_triage *t, FILE *fp)
{
	fputs("\n1. On CPU or waiting?\n", fp);
	const perfan_threads *th = t->in.threads;
	if (!th) {
		missing(fp, "off-CPU time");
		return;
	}
	fprintf(fp, "  %10s %10s %10s %8s  %s\n", "wall ms", "on-CPU ms",
		"off-CPU ms", "CPU/wall", "thread");
	size_t top = perfan__triage_top_rows(t), shown = 0;
	for (size_t i = 0; i < perfan_threads_nr(th) && shown < top; i++) {
		const struct perfan_thread_row *r = perfan_threads_row(th, i);
		int skip;
		const struct perfan_thread_pool_row *p =
			perfan__thread_row_pool(th, i, &skip);
		char label[512];
		if (skip)
			continue;
		shown++;
		if (p)
			perfan__pool_label(label, sizeof(label), p);
		else
			perfan__thread_label(label, sizeof(label), r);
		uint64_t wall = p ? p->wall : r->wall;
		uint64_t on = p ? p->on_cpu : r->on_cpu;
		fprintf(fp, "  %10.1f %10.1f %10.1f %8.2f  %s\n", ms(wall),
			ms(on), ms(p ? p->off_total : r->off_total),
			wall ? (double)on / (double)wall : 0.0, label);
	}
	char folded[128];
	if (perfan__triage_folded(t, folded, sizeof(folded)))
		fprintf(fp,
			"  %s (perfan report --off-cpu --sort-threads on-cpu "
			"lists them all)\n",
			folded);
	size_t lt, lp;
	perfan_threads_left_out(th, &lt, &lp);
	if (lt)
		fprintf(fp,
			"  and %zu threads of %zu other processes, left out "
			"(--all keeps them)\n",
			lt, lp);
}

static void plateaus(const struct perfan_triage *t, FILE *fp)
{
	fputs("\n2. The widest plateaus, and the most a fix could give\n", fp);
	if (!t->nplateaus) {
		missing(fp, "on-CPU samples");
		return;
	}
	int32_t pid, tid;
	const char *comm;
	size_t nth;
	if (perfan_triage_bound_thread(t, &pid, &tid, &comm, &nth) && nth > 1)
		fprintf(fp,
			"  (max speedup: of thread %s %d/%d, the busiest of %zu "
			"on CPU; --tid chooses another)\n",
			comm ? comm : "?", pid, tid, nth);
	fprintf(fp, "  %7s %7s %12s  %s\n", "self", "total", "max speedup",
		"function (module)");
	for (size_t i = 0; i < t->nplateaus; i++) {
		const struct perfan_report_row *r = perfan_triage_plateau(t, i);
		char sp[32];
		if (isfinite(r->speedup_total))
			snprintf(sp, sizeof(sp), "%.2fx", r->speedup_total);
		else
			snprintf(sp, sizeof(sp), "%s",
				 isnan(r->speedup_total) ? "-" : "inf");
		fprintf(fp, "  %6.2f%% %6.2f%% %12s  %s", r->self_percent,
			r->total_percent, sp, r->sym ? r->sym : "?");
		/* a Python function's name carries its file, its module */
		if (r->kind != PERFAN_FRAME_PYTHON)
			fprintf(fp, " (%s)", r->dso ? r->dso : "?");
		fputc('\n', fp);
	}
}

static void sites(const struct perfan_triage *t, FILE *fp)
{
	fputs("\n3. Where the threads blocked\n", fp);
	if (!t->in.threads) {
		missing(fp, "off-CPU time with stacks");
		return;
	}
	if (perfan__gil_section_any(t->in.gil))
		perfan__gil_section_text(fp, t->in.gil, "  ");
	if (!t->nsites) {
		fputs("  no blocking call site\n", fp);
		return;
	}
	int classes = 0;
	for (size_t i = 0; i < t->nsites; i++)
		classes |= t->sites[i].wait_class != 0;
	fprintf(fp, "  %10s %7s  %s\n", "ms", "threads",
		classes ? "site <- what it waited in (class), or wait <- "
			  "caller"
			: "wait <- caller");
	for (size_t i = 0; i < t->nsites; i++) {
		const struct perfan_triage_site *s = &t->sites[i];
		fprintf(fp, "  %10.1f %7zu  ", ms(s->total), s->nr_threads);
		if (s->wait_class)
			perfan__site_text(fp, s->wait, s->caller, s->wait_class,
					  s->site, s->mechanism);
		else
			fprintf(fp, "%s <- %s", s->wait ? s->wait : "?",
				s->caller ? s->caller : "(no caller)");
		fputc('\n', fp);
	}
}

static void verdict(const struct perfan_triage *t, FILE *fp)
{
	fputs("\n4. Is the CPU stalled?\n", fp);
	const perfan_classify *c = t->in.classify;
	if (!c) {
		missing(fp, "perf stat counters");
		return;
	}
	for (size_t i = 0; i < perfan_classify_nr_groups(c); i++) {
		const struct perfan_classify_group *g =
			perfan_classify_group(c, i);
		if (!g->whole)
			continue;
		fprintf(fp, "  %s (confidence %.2f)",
			perfan_verdict_name(g->verdict), g->confidence);
		if (g->command)
			fprintf(fp, " for %s", g->command);
		fputc('\n', fp);
		if (isfinite(g->m.ipc))
			fprintf(fp, "  IPC %.2f\n", g->m.ipc);
		if (g->reason)
			fprintf(fp, "  %s\n", g->reason);
		if (g->next)
			fprintf(fp, "  next: %s\n", g->next);
	}
}

/* A diff row's name, what became of it, and its significance. */
static void change_row(FILE *fp, const struct perfan_diff_row *r)
{
	char q[16];
	perfan__triage_q(r, q, sizeof(q));
	fprintf(fp, "  %7.2f%% %7.2f%% %+7.2f %15s  %s%s%s\n",
		100 * r->before_self, 100 * r->after_self, 100 * r->self_change,
		q, r->name,
		r->is_new     ? " (new)"
		: r->vanished ? " (gone)"
			      : "",
		r->significant ? " *" : "");
}

static void changes(const struct perfan_triage *t, FILE *fp)
{
	const perfan_diff *d = t->in.diff;
	if (!d) {
		fputs("\n5. What changed since the run before\n", fp);
		missing(fp, "a run to compare with");
		return;
	}
	size_t nb = t->runs_before, na = t->runs_after;
	fprintf(fp,
		"\n5. What changed since the run%s before (%zu before, %zu "
		"after)\n",
		nb > 1 ? "s" : "", nb, na);
	if (perfan_diff_tested(d))
		fputs("  significant changes of own time (* significant; q: "
		      "the test's adjusted p-value), largest first\n",
		      fp);
	else
		fputs("  the largest changes of own time (one run a side: no "
		      "test; -b A1 A2 -a B1 B2 tests them)\n",
		      fp);
	fprintf(fp, "  %8s %8s %7s %15s  %s\n", "before", "after", "change",
		"q", "function");
	for (size_t i = 0; i < t->nchanges; i++)
		change_row(fp, t->changes[i]);
	static const char *const what[] = {"new", "vanished"};
	for (int k = 0; k < 2; k++) {
		size_t n = k ? t->ngone : t->nadded;
		fprintf(fp, "  %s functions%s:%s\n", what[k],
			perfan_diff_tested(d) ? " (significant)" : "",
			n ? "" : " none");
		for (size_t i = 0; i < n; i++)
			change_row(fp, (k ? t->gone : t->added)[i]);
	}
}

int perfan__triage_write_text(const struct perfan_triage *t, FILE *fp)
{
	fprintf(fp, "perfan triage of %s\n", t->in.name ? t->in.name : "?");
	if (t->in.gpu) {
		/* a trace: what applies only to a perf recording left out */
		perfan__triage_trace_text(t, fp);
		if (t->in.classify)
			verdict(t, fp);
		if (t->in.diff)
			changes(t, fp);
		return ferror(fp)
			       ? perfan__err(PERFAN_EIO, "triage: write error")
			       : 0;
	}
	summary(t, fp);
	threads(t, fp);
	plateaus(t, fp);
	sites(t, fp);
	verdict(t, fp);
	changes(t, fp);
	fputs("\n6. What to record next\n", fp);
	if (!t->nnext)
		fputs("  nothing: this recording answers every question\n", fp);
	for (size_t i = 0; i < t->nnext; i++)
		fprintf(fp, "  - %s%s%s\n", t->next[i].why,
			t->next[i].command ? ":\n      " : "",
			t->next[i].command ? t->next[i].command : "");
	return ferror(fp) ? perfan__err(PERFAN_EIO, "triage: write error") : 0;
}
