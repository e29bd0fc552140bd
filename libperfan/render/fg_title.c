/* render/fg_title.c: a flame graph's default title, what it shows: its
 * mode, its event, how threads are drawn and the filters in force, for
 * perfan flamegraph's graphs and the triage page's alike. */
#include <stdarg.h>
#include <stdio.h>

#include <perfan/filter.h>
#include <perfan/flamegraph.h>

#include "render/internal.h"

struct text {
	char *buf;
	size_t size, len;
};

static void add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = t->len < t->size ? t->size - t->len : 0;
	int n = vsnprintf(room ? t->buf + t->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len += (size_t)n;
}

/* How P's stacks start: at a process frame per thread, per process or
 * per command; NULL without process frames. */
static const char *roots(const perfan_profile *p)
{
	const perfan_node_id *kids;
	size_t n = perfan_profile_node_children(p, PERFAN_ROOT_NODE, &kids);
	uint32_t most = PERFAN_ROOT_NONE;
	for (size_t i = 0; i < n; i++) {
		const struct perfan_frame *f = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, kids[i]));
		if (f->kind == PERFAN_FRAME_PROCESS && f->root > most)
			most = f->root;
	}
	return most == PERFAN_ROOT_PID_TID ? "a root per thread"
	       : most == PERFAN_ROOT_PID   ? "a root per process"
	       : most == PERFAN_ROOT_COMM  ? "threads merged"
					   : NULL;
}

static void filters(struct text *t, const struct perfan_filter *f)
{
	if (!f || perfan_filter_none(f))
		return;
	if (f->pid >= 0)
		add(t, ", --pid %lld", (long long)f->pid);
	if (f->tid >= 0)
		add(t, ", --tid %lld", (long long)f->tid);
	if (f->comm)
		add(t, ", --comm %s", f->comm);
	if (f->cpu >= 0)
		add(t, ", --cpu %lld", (long long)f->cpu);
	if (f->time_start || f->time_end) {
		add(t, ", ");
		if (f->time_start)
			add(t, "%.3f", (double)f->time_start / 1e9);
		add(t, "-");
		if (f->time_end)
			add(t, "%.3f", (double)f->time_end / 1e9);
		add(t, " s");
	}
}

size_t perfan__fg_title(char *buf, size_t size, const perfan_profile *p,
			const struct perfan_flamegraph_opts *o)
{
	struct text t = {buf, size, 0};
	if (size)
		buf[0] = '\0';
	size_t col = o->column;
	enum perfan_column_kind kind = perfan_profile_column_kind(p, col);
	const char *event = perfan_profile_column_name(p, col);
	const char *shape = o->flamechart ? " (flame chart)"
			    : o->inverted ? " (icicle)"
					  : "";
	const char *how = roots(p);
	if (o->base_column != PERFAN_FG_NO_BASE ||
	    col >= perfan_profile_nr_columns(p) ||
	    kind == PERFAN_COLUMN_EVENT) {
		/* a folded file's or a comparison's: no event to name */
		add(&t, "%s",
		    o->flamechart ? "Flame Chart"
		    : o->inverted ? "Icicle Graph"
				  : "Flame Graph");
		filters(&t, o->filter);
		return t.len;
	}
	if (kind == PERFAN_COLUMN_OFFCPU || kind == PERFAN_COLUMN_WALL)
		add(&t, "%s%s (ns)",
		    kind == PERFAN_COLUMN_WALL ? "Wall time" : "Off-CPU time",
		    shape);
	else
		add(&t, "%s%s: %s",
		    kind == PERFAN_COLUMN_CPU ? "On-CPU" : "Samples", shape,
		    event ? event : "?");
	if (how)
		add(&t, ", %s", how);
	filters(&t, o->filter);
	return t.len;
}
