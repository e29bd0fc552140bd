/* render/triage_summary.c: the triage's first screen, which its text and
 * HTML sinks share: the answer in a few lines made of the sections'
 * figures (no new guess), and the thread table's first rows. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <perfan/waits.h>

#include "render/thread_rows.h"
#include "render/triage.h"
#include "render/triage_summary.h"

size_t perfan__triage_top_rows(const struct perfan_triage *t)
{
	return t->o.max_threads ? t->o.max_threads : 10;
}

int perfan__triage_folded(const struct perfan_triage *t, char *buf, size_t n)
{
	const perfan_threads *th = t->in.threads;
	size_t top = perfan__triage_top_rows(t), rows = 0, rest = 0,
	       threads = 0;
	for (size_t i = 0; th && i < perfan_threads_nr(th); i++) {
		int skip;
		const struct perfan_thread_pool_row *p =
			perfan__thread_row_pool(th, i, &skip);
		if (skip || rows++ < top)
			continue;
		rest++;
		threads += p ? p->nr_threads : 1;
	}
	if (!rest)
		return 0;
	if (rest == threads)
		snprintf(buf, n, "and %zu more thread%s", rest,
			 rest > 1 ? "s" : "");
	else
		snprintf(buf, n, "and %zu more threads and pools (%zu threads)",
			 rest, threads);
	return 1;
}

/* Append to line L's text. */
__attribute__((format(printf, 2, 3))) static void
say(struct perfan__triage_line *l, const char *fmt, ...)
{
	size_t k = strlen(l->text);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(l->text + k, sizeof(l->text) - k, fmt, ap);
	va_end(ap);
}

/* The command of what to record next about TOPIC, or NULL. */
static const char *record(const struct perfan_triage *t, int topic)
{
	for (size_t i = 0; i < t->nnext; i++)
		if (t->next[i].topic == topic && t->next[i].command)
			return t->next[i].command;
	return NULL;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* The thread the plateaus' bounds are on, else the one longest on CPU. */
static const struct perfan_thread_row *busiest(const struct perfan_triage *t)
{
	const perfan_threads *th = t->in.threads;
	const struct perfan_thread_row *best = NULL;
	int32_t tid;
	int bound = perfan_triage_bound_thread(t, NULL, &tid, NULL, NULL);
	for (size_t i = 0; th && i < perfan_threads_nr(th); i++) {
		const struct perfan_thread_row *r = perfan_threads_row(th, i);
		if (bound && r->tid == tid)
			return r;
		if (!best || r->on_cpu > best->on_cpu)
			best = r;
	}
	return best;
}

/* What thread R's waiting was mostly, by wait class (its timeline lane's
 * off-CPU time by class; the GIL is said apart). */
static void mostly(struct perfan__triage_line *l, const struct perfan_triage *t,
		   const struct perfan_thread_row *r)
{
	const struct perfan_timeline_result *tl = t->in.timeline;
	const struct perfan_timeline_lane *lane = NULL;
	for (size_t i = 0; tl && i < tl->nr_lanes; i++)
		if (tl->lanes[i].tid == r->tid && tl->lanes[i].pid == r->pid)
			lane = &tl->lanes[i];
	if (!lane)
		return;
	int done[PERFAN_WAIT_NR_CLASSES] = {0};
	done[PERFAN_WAIT_GIL] = 1;
	int said = 0;
	while (said < 2) {
		uint32_t c = PERFAN_WAIT_NR_CLASSES;
		for (uint32_t j = 0; j < PERFAN_WAIT_NR_CLASSES; j++)
			if (!done[j] && (c == PERFAN_WAIT_NR_CLASSES ||
					 lane->wait[j] > lane->wait[c]))
				c = j;
		if (c == PERFAN_WAIT_NR_CLASSES ||
		    pct(lane->wait[c], r->wall) < 0.05)
			break;
		done[c] = 1;
		const char *name = perfan_wait_class_name(c);
		say(l, "%s%s %.1f%%", said++ ? ", " : " (mostly ",
		    name ? name : "unclassified", pct(lane->wait[c], r->wall));
	}
	if (said)
		say(l, ")");
}

static void on_cpu(struct perfan__triage_line *l, const struct perfan_triage *t)
{
	*l = (struct perfan__triage_line){"on-cpu", 1, "On CPU or waiting?", "",
					  NULL};
	const struct perfan_thread_row *r = busiest(t);
	if (!r) {
		say(l, "not recorded: off-CPU time");
		l->command = record(t, PERFAN_TRIAGE_WAITING);
		return;
	}
	say(l, "%s %d/%d, the busiest thread, was on CPU %.1f%% of its %.1f ms",
	    r->name   ? r->name
	    : r->comm ? r->comm
		      : "?",
	    (int)r->pid, (int)r->tid, pct(r->on_cpu, r->wall),
	    (double)r->wall / 1e6);
	if (r->gil)
		say(l, ", waited for the GIL %.1f%%", pct(r->gil, r->wall));
	if (pct(r->waiting, r->wall) >= 0.05)
		say(l, ", waited %.1f%%", pct(r->waiting, r->wall));
	mostly(l, t, r);
	if (r->off[PERFAN_OFFCPU_RUNQ])
		say(l, ", waited for a CPU %.1f%%",
		    pct(r->off[PERFAN_OFFCPU_RUNQ], r->wall));
}

static void plateau(struct perfan__triage_line *l,
		    const struct perfan_triage *t)
{
	*l = (struct perfan__triage_line){"plateaus", 2,
					  "The widest plateau:", "", NULL};
	if (!t->nplateaus) {
		say(l, "not recorded: on-CPU samples");
		l->command = record(t, PERFAN_TRIAGE_ON_CPU);
		return;
	}
	const struct perfan_report_row *r = perfan_triage_plateau(t, 0);
	say(l, "%s", r->sym ? r->sym : "?");
	/* a Python function's name carries its file, its module */
	if (r->kind != PERFAN_FRAME_PYTHON)
		say(l, " (%s)", r->dso ? r->dso : "?");
	say(l, ", %.2f%% of the on-CPU time in itself", r->self_percent);
	if (isnan(r->speedup_total))
		return;
	int32_t pid, tid;
	const char *name;
	size_t nth;
	if (perfan_triage_bound_thread(t, &pid, &tid, &name, &nth) && nth > 1)
		say(l, "; if it cost nothing, thread %s %d/%d would be done",
		    name ? name : "?", (int)pid, (int)tid);
	else
		say(l, "; if it cost nothing, the whole would be done");
	if (isfinite(r->speedup_total))
		say(l, " at most %.2fx sooner", r->speedup_total);
	else
		say(l, " in no time (it is all the time)");
}

static void stalled(struct perfan__triage_line *l,
		    const struct perfan_triage *t)
{
	*l = (struct perfan__triage_line){"verdict", 4, "Is the CPU stalled?",
					  "", NULL};
	const perfan_classify *c = t->in.classify;
	for (size_t i = 0; c && i < perfan_classify_nr_groups(c); i++) {
		const struct perfan_classify_group *g =
			perfan_classify_group(c, i);
		if (!g->whole)
			continue;
		say(l, "%s (confidence %.2f", perfan_verdict_name(g->verdict),
		    g->confidence);
		if (isfinite(g->m.ipc))
			say(l, ", IPC %.2f", g->m.ipc);
		say(l, ")");
		return;
	}
	say(l, "%s",
	    c ? "no verdict of the whole run"
	      : "not recorded: perf stat counters (--stat FILE)");
	l->command = c ? NULL : record(t, PERFAN_TRIAGE_COUNTERS);
}

static void changed(struct perfan__triage_line *l,
		    const struct perfan_triage *t)
{
	*l = (struct perfan__triage_line){
		"changes", 5, "What changed since the run before?", "", NULL};
	int tested = perfan_diff_tested(t->in.diff);
	if (!t->nchanges) {
		say(l, "no %schange of own time", tested ? "significant " : "");
	} else {
		const struct perfan_diff_row *r = t->changes[0];
		char q[32];
		perfan__triage_q(r, q, sizeof(q));
		say(l, "%s%s: own time %.2f%% -> %.2f%% (%+.2f points", r->name,
		    r->is_new     ? " (new)"
		    : r->vanished ? " (gone)"
				  : "",
		    100 * r->before_self, 100 * r->after_self,
		    100 * r->self_change);
		if (tested)
			say(l, ", q %s", q);
		say(l, ")");
	}
	if (t->nadded)
		say(l, "; new: %s%s", t->added[0]->name,
		    t->nadded > 1 ? " and more" : "");
	if (t->ngone)
		say(l, "; %zu function%s gone", t->ngone,
		    t->ngone > 1 ? "s" : "");
}

size_t perfan__triage_summary(const struct perfan_triage *t,
			      struct perfan__triage_line *lines)
{
	size_t n = 0;
	on_cpu(&lines[n++], t);
	plateau(&lines[n++], t);
	stalled(&lines[n++], t);
	if (t->in.diff)
		changed(&lines[n++], t);
	return n;
}
