/* render/triage_html.c: the triage as one self-contained HTML page that
 * works offline: the answer in a few lines (render/triage_summary.c),
 * then a section per question (on CPU or waiting, plateaus,
 * flame graphs, blocking sites, the CPU verdict, changes, what to record
 * next), each saying what to record where its data is missing. The flame
 * graphs are the SVG documents perfan_flamegraph_write makes, each kept in
 * a script element of its own and shown in a frame, so that their scripts
 * and ids stay apart. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <perfan/flamegraph.h>
#include <perfan/offcpu.h>

#include "render/gil_section.h"
#include "render/internal.h"
#include "render/markup.h"
#include "render/rangejs.h"
#include "render/site_text.h"
#include "render/thread_rows.h"
#include "render/timeline.h"
#include "render/triage.h"
#include "render/triage_graph.h"
#include "render/triage_summary.h"
#include "util/error.h"
#include "util/log.h"

static void put(FILE *fp, const char *s)
{
	perfan__markup_text(fp, s ? s : "", s ? strlen(s) : 0);
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static const char style[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;"
	"max-width:1250px;color:#222}"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;"
	"border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse}td,th{padding:2px 8px;"
	"text-align:right}td.l,th.l{text-align:left}"
	"tr:nth-child(even){background:#f4f4f4}"
	".missing{background:#fff4e0;border-left:4px solid #e90;"
	"padding:6px 10px}"
	"code{background:#eee;padding:1px 4px;white-space:pre-wrap}"
	".bar{display:inline-block;height:10px;background:#c44}"
	".bar.off{background:#48c}"
	"iframe.fg{width:100%;border:1px solid #ccc}"
	"tr.member{display:none}tbody.open tr.member{display:table-row}"
	"tr.pool-row{cursor:pointer}"
	"tr.pool-row td.l:first-child:before{content:'\\25b8 '}"
	"tbody.open tr.pool-row td.l:first-child:before{content:'\\25be '}"
	/* the thread table compact enough that the summary, it and the
	 * plateaus fit a first screen */
	"table.threads{font-size:13px;line-height:1.25}"
	"table.threads th{font-size:12px;vertical-align:bottom}"
	"table.threads td,table.threads th{padding:1px 5px}"
	"table.threads td.l{white-space:nowrap;max-width:30em;"
	"overflow:hidden;text-overflow:ellipsis}"
	"table.threads tbody.more{display:none}"
	"table.threads.all tbody.more{display:table-row-group}"
	"details.more summary{cursor:pointer;color:#05a}"
	"#summary{background:#eef4fb;border:1px solid #9bc;padding:2px 12px}"
	"#summary h2{margin:.3em 0;border:0}"
	"#summary ul{margin:.3em 0;padding-left:1.2em}";

/* The page's script: each flame graph from its script element into a
 * frame as wide as the page, the SVG drawn at that width (scaled from its
 * own, its aspect kept) and the frame as high as the SVG is then. */
static const char script[] =
	"document.querySelectorAll('script[type=\"image/svg+xml\"]')"
	".forEach(function(s){"
	"var t=s.textContent.replace(/<\\\\\\/(script)/gi,'</$1')"
	".replace(/<\\\\!--/g,'<!--');"
	"var f=document.getElementById(s.dataset.frame);"
	"var m=/<svg[^>]*\\swidth=\"(\\d+)\" height=\"(\\d+)\"/.exec(t);"
	"if(m){var fit=function(){f.style.height=Math.ceil(f.clientWidth*"
	"m[2]/m[1])+2+'px';};fit();window.addEventListener('resize',fit);"
	"t=t.replace(m[0],m[0].replace(/width=\"\\d+\" height=\"\\d+\"/,"
	"'width=\"100%\" height=\"100%\"'));}"
	"f.src=URL.createObjectURL(new Blob([t],{type:'image/svg+xml'}));"
	"});"
	"document.querySelectorAll('tr.pool-row').forEach(function(r){"
	"r.onclick=function(){r.parentNode.classList.toggle('open');};});"
	"document.querySelectorAll('table.threads thead th').forEach("
	"function(h,k){h.style.cursor='pointer';h.onclick=function(){"
	"var t=h.closest('table'),d=h.dataset.d=h.dataset.d=='a'?'d':'a';"
	"var b=[].slice.call(t.tBodies);b.sort(function(x,y){"
	"var u=x.rows[0].cells[k],v=y.rows[0].cells[k];"
	"var p=u.dataset.v!==undefined?+u.dataset.v:u.textContent,"
	"q=v.dataset.v!==undefined?+v.dataset.v:v.textContent;"
	"var c=p<q?-1:p>q?1:0;return d=='a'?c:-c;});"
	"var n=+t.dataset.top||0;b.forEach(function(x,i){t.appendChild(x);"
	"if(n)x.classList.toggle('more',i>=n);});};});"
	"document.querySelectorAll('details.more').forEach(function(d){"
	"d.ontoggle=function(){document.getElementById(d.dataset.table)"
	".classList.toggle('all',d.open);};});";

static void missing(FILE *fp, const struct perfan_triage *t, const char *what,
		    int topic)
{
	fputs("<p class=\"missing\">Not recorded: ", fp);
	put(fp, what);
	fputs(".", fp);
	for (size_t i = 0; i < t->nnext; i++)
		if (t->next[i].topic == topic && t->next[i].command) {
			fputs(" Record it with: <code>", fp);
			put(fp, t->next[i].command);
			fputs("</code>", fp);
			break;
		}
	fputs("</p>\n", fp);
}

/* The figures of a row of the thread table: a thread's or a pool's. */
struct figs {
	uint64_t wall, on_cpu, off_total, gil, waiting;
	const uint64_t *off;
	const char *top;
};

/* A cell with its value V for sorting. */
static void cell(FILE *fp, double v, const char *fmt, double shown)
{
	fprintf(fp, "<td data-v=\"%.6g\">", v);
	fprintf(fp, fmt, shown);
	fputs("</td>", fp);
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* In a thread table's STATES: the column of the top function is shown
 * (its rows have one: a profile of on-CPU time). */
#define TOP_COLUMN (1u << 31)

/* One row of the thread table: NAME (a thread's label, a pool's) with
 * its figures; CLS its class ("" none); STATES a bit per state column
 * shown, and TOP_COLUMN. */
static void table_row(FILE *fp, uint32_t states, const char *cls,
		      const char *name, int32_t tid, const struct figs *f)
{
	fprintf(fp, "<tr%s%s%s><td class=\"l\">", *cls ? " class=\"" : "", cls,
		*cls ? "\"" : "");
	put(fp, name);
	fputs("</td>", fp);
	if (tid >= 0)
		fprintf(fp, "<td data-v=\"%d\">%d</td>", tid, tid);
	else
		fputs("<td data-v=\"0\"></td>", fp);
	cell(fp, ms(f->wall), "%.1f", ms(f->wall));
	cell(fp, ms(f->on_cpu), "%.1f", ms(f->on_cpu));
	cell(fp, ms(f->off_total), "%.1f", ms(f->off_total));
	for (uint32_t s = 0; s < PERFAN_OFFCPU_NR_STATES; s++)
		if (states & (1u << s))
			cell(fp, ms(f->off[s]), "%.1f", ms(f->off[s]));
	double on = pct(f->on_cpu, f->wall);
	cell(fp, on, "%.1f%%", on);
	cell(fp, pct(f->gil, f->wall), "%.1f%%", pct(f->gil, f->wall));
	cell(fp, pct(f->waiting, f->wall), "%.1f%%", pct(f->waiting, f->wall));
	if (states & TOP_COLUMN) {
		fputs("<td class=\"l\">", fp);
		put(fp, f->top ? f->top : "");
		fputs("</td>", fp);
	}
	double w = f->wall ? 120.0 / (double)f->wall : 0;
	fprintf(fp,
		"<td class=\"l\"><span class=\"bar\" "
		"style=\"width:%.0fpx\"></span><span class=\"bar "
		"off\" style=\"width:%.0fpx\"></span></td></tr>\n",
		w * (double)f->on_cpu, w * (double)f->off_total);
}

/* Thread R, a member of pool POOL when it is not NULL (hidden until the
 * pool's row is opened). */
static void thread_row(FILE *fp, uint32_t states,
		       const struct perfan_thread_row *r, const char *pool)
{
	struct figs f = {r->wall,    r->on_cpu, r->off_total, r->gil,
			 r->waiting, r->off,    r->top};
	table_row(fp, states, pool ? pool : "", r->name ? r->name : r->comm,
		  r->tid, &f);
}

/* Pool P: its sums, then its threads, folded. */
static void pool_row(FILE *fp, const perfan_threads *th, uint32_t states,
		     const struct perfan_thread_pool_row *p, int more)
{
	char label[512], cls[64];
	perfan__pool_label(label, sizeof(label), p);
	size_t k = perfan_threads_row(th, p->first)->pool;
	snprintf(cls, sizeof(cls), "member pool-%zu", k);
	fprintf(fp, "<tbody class=\"pool%s\" data-pool=\"%zu\">",
		more ? " more" : "", k);
	struct figs f = {p->wall,    p->on_cpu, p->off_total, p->gil,
			 p->waiting, p->off,    p->top};
	table_row(fp, states, "pool-row", label, -1, &f);
	for (size_t i = p->first; i < perfan_threads_nr(th); i++) {
		const struct perfan_thread_row *r = perfan_threads_row(th, i);
		if (r->pool == k)
			thread_row(fp, states, r, cls);
	}
	fputs("</tbody>\n", fp);
}

/* The answer in a few lines, each linked to the section it sums up. */
static void summary(const struct perfan_triage *t, FILE *fp)
{
	struct perfan__triage_line l[PERFAN__TRIAGE_LINES];
	size_t n = perfan__triage_summary(t, l);
	fputs("<section id=\"summary\"><h2>In short</h2><ul>\n", fp);
	for (size_t i = 0; i < n; i++) {
		fprintf(fp, "<li data-section=\"%s\"><a href=\"#%s\">",
			l[i].section, l[i].section);
		put(fp, l[i].label);
		fputs("</a> ", fp);
		put(fp, l[i].text);
		fputs(".", fp);
		if (l[i].command) {
			fputs(" Record it with: <code>", fp);
			put(fp, l[i].command);
			fputs("</code>", fp);
		}
		fputs("</li>\n", fp);
	}
	fputs("</ul></section>\n", fp);
}

static void threads(const struct perfan_triage *t, FILE *fp)
{
	fputs("<section id=\"on-cpu\"><h2>1. On CPU or waiting?</h2>\n", fp);
	const perfan_threads *th = t->in.threads;
	if (!th) {
		missing(fp, t, "off-CPU time: whether threads wait",
			PERFAN_TRIAGE_WAITING);
		fputs("</section>\n", fp);
		return;
	}
	uint32_t states = perfan_threads_states(th);
	for (size_t i = 0; i < perfan_threads_nr(th); i++)
		if (perfan_threads_row(th, i)->top)
			states |= TOP_COLUMN;
	/* a tbody per thread or pool: a click on a column's head orders
	 * them by it */
	size_t top = perfan__triage_top_rows(t);
	fprintf(fp,
		"<table class=\"threads\" id=\"threads\" data-top=\"%zu\">"
		"<thead><tr><th class=\"l\">thread</th><th>tid</th>"
		"<th>wall ms</th><th>on-CPU ms</th><th>off-CPU ms</th>",
		top);
	for (uint32_t s = 0; s < PERFAN_OFFCPU_NR_STATES; s++)
		if (states & (1u << s)) {
			fputs("<th>", fp);
			put(fp, perfan_offcpu_state_name(s));
			fputs(" ms</th>", fp);
		}
	fputs("<th>%on-CPU</th><th>%GIL</th><th>%waiting</th>", fp);
	if (states & TOP_COLUMN)
		fputs("<th class=\"l\">top function</th>", fp);
	fputs("<th class=\"l\"></th></tr></thead>\n", fp);
	/* the first TOP rows shown, the others folded: the order the table
	 * has (the busiest first) or a click on a column's head gives */
	size_t shown = 0;
	for (size_t i = 0; i < perfan_threads_nr(th); i++) {
		const struct perfan_thread_row *r = perfan_threads_row(th, i);
		int skip;
		const struct perfan_thread_pool_row *p =
			perfan__thread_row_pool(th, i, &skip);
		if (skip)
			continue;
		int more = shown++ >= top;
		if (p) {
			pool_row(fp, th, states, p, more);
		} else {
			fputs(more ? "<tbody class=\"more\">" : "<tbody>", fp);
			thread_row(fp, states, r, NULL);
			fputs("</tbody>\n", fp);
		}
	}
	fputs("</table>\n", fp);
	char folded[128];
	if (perfan__triage_folded(t, folded, sizeof(folded))) {
		fputs("<details class=\"more\" data-table=\"threads\">"
		      "<summary>",
		      fp);
		put(fp, folded);
		fputs("</summary></details>\n", fp);
	}
	size_t lt, lp;
	perfan_threads_left_out(th, &lt, &lp);
	if (lt)
		fprintf(fp,
			"<p>And %zu threads of %zu other processes, left out "
			"(<code>--all</code> keeps them).</p>\n",
			lt, lp);
	fputs("</section>\n", fp);
}

static void plateaus(const struct perfan_triage *t, FILE *fp)
{
	fputs("<section id=\"plateaus\"><h2>2. The widest plateaus, and the "
	      "most a fix could give</h2>\n",
	      fp);
	if (!t->nplateaus) {
		missing(fp, t, "on-CPU samples", PERFAN_TRIAGE_ON_CPU);
		fputs("</section>\n", fp);
		return;
	}
	fputs("<table><tr><th>self</th><th>total</th><th>max speedup</th>"
	      "<th class=\"l\">function</th><th class=\"l\">module</th>"
	      "</tr>\n",
	      fp);
	for (size_t i = 0; i < t->nplateaus; i++) {
		const struct perfan_report_row *r = perfan_triage_plateau(t, i);
		fprintf(fp, "<tr><td>%.2f%%</td><td>%.2f%%</td>",
			r->self_percent, r->total_percent);
		if (isfinite(r->speedup_total))
			fprintf(fp, "<td>%.2fx</td>", r->speedup_total);
		else
			fputs(isnan(r->speedup_total) ? "<td>-</td>"
						      : "<td>inf</td>",
			      fp);
		fputs("<td class=\"l\">", fp);
		put(fp, r->sym);
		fputs("</td><td class=\"l\">", fp);
		put(fp, r->kind == PERFAN_FRAME_PYTHON ? "" : r->dso);
		fputs("</td></tr>\n", fp);
	}
	fputs("</table><p>Max speedup: 1/(1-p) for a function of total share "
	      "p (itself and what it calls), the most the whole could gain "
	      "if it cost nothing",
	      fp);
	int32_t pid, tid;
	const char *comm;
	size_t nth;
	if (perfan_triage_bound_thread(t, &pid, &tid, &comm, &nth) && nth > 1) {
		fputs(", p its share of thread ", fp);
		put(fp, comm ? comm : "?");
		fprintf(fp,
			" %d/%d, the busiest of %zu on CPU (--tid chooses "
			"another)",
			pid, tid, nth);
	}
	fputs(".</p></section>\n", fp);
}

/* The off-CPU profile's column of off-CPU time, else of wall time, by
 * its kind. */
static size_t wait_column(const perfan_profile *p)
{
	static const enum perfan_column_kind kinds[] = {PERFAN_COLUMN_OFFCPU,
							PERFAN_COLUMN_WALL};
	for (size_t k = 0; k < 2; k++)
		for (size_t c = 0; c < perfan_profile_nr_columns(p); c++)
			if (perfan_profile_column_kind(p, c) == kinds[k])
				return c;
	return 0;
}

static int graphs(const struct perfan_triage *t, FILE *fp)
{
	/* (the rule, for the graphs range.js redraws for a range) */
	fprintf(fp,
		"<section id=\"flamegraph\" data-per-thread=\"%d\" "
		"data-kernel-detail=\"%d\"><h2>Flame graphs</h2>\n",
		!!t->in.per_thread, !!t->in.kernel_detail);
	fputs("<p>Both draw threads by one rule, as their titles say: "
	      "merged, or with <code>--per-thread</code> a root per "
	      "thread. Towers narrower than 1&nbsp;% are cut "
	      "where they would only add height, their callers outlined; "
	      "<code>perfan flamegraph</code> draws them whole.</p>\n",
	      fp);
	int rc = 0;
	const perfan_profile *cpu = t->in.cpu_graph ? t->in.cpu_graph
						    : t->in.cpu;
	size_t col = t->in.cpu_graph ? t->in.cpu_graph_column : t->in.column;
	const perfan_profile *wait = t->in.wait_graph ? t->in.wait_graph
						      : t->in.wait;
	if (cpu && t->nplateaus)
		rc = perfan__triage_graph(fp, t, cpu, col, "fg-cpu");
	else
		missing(fp, t, "on-CPU samples", PERFAN_TRIAGE_ON_CPU);
	if (!rc && wait && t->in.threads)
		rc = perfan__triage_graph(fp, t, wait, wait_column(wait),
					  "fg-wait");
	else if (!rc)
		missing(fp, t, "off-CPU time with stacks",
			PERFAN_TRIAGE_WAITING);
	fputs("</section>\n", fp);
	return rc;
}

/* The threads over time; a range selected on it filters the thread table
 * and the flame graphs (render/range.js). */
static int timeline(const struct perfan_triage *t, FILE *fp)
{
	fputs("<section id=\"timeline\"><h2>Threads over time</h2>\n", fp);
	int rc = 0;
	if (t->in.timeline) {
		fputs("<p>Shift-drag a range to see the thread table and the "
		      "flame graphs of that range alone.</p>\n",
		      fp);
		rc = perfan__timeline_html_part(t->in.timeline, fp, "tl");
	} else {
		missing(fp, t, "context switches over time",
			PERFAN_TRIAGE_WAITING);
	}
	fputs("</section>\n", fp);
	return rc;
}

/* The threads that waited for the GIL, when any did; a pool's as one
 * row. */
static void gil(const struct perfan_triage *t, FILE *fp)
{
	const struct perfan_gil_result *g = t->in.gil;
	struct perfan__gil_units us;
	if (!perfan__gil_section_any(g) || perfan__gil_units(&us, g))
		return;
	fputs("<p>Waiting for CPython's GIL (<code>perfan gil</code> tells "
	      "more):</p>\n<table id=\"gil\"><tr><th>GIL wait ms</th>"
	      "<th>of its life</th><th class=\"l\">thread</th><th "
	      "class=\"l\">held most by</th><th>of the wait</th></tr>\n",
	      fp);
	char buf[256];
	for (size_t i = 0; i < us.n; i++) {
		struct perfan__gil_row r;
		if (!perfan__gil_section_row(&us, i, &r))
			continue;
		fprintf(fp, "<tr><td>%.1f</td><td>%.1f%%</td><td class=\"l\">",
			ms(r.u->sum.wait), 100 * r.share);
		perfan__gil_unit_label(r.u, buf, sizeof(buf));
		put(fp, buf);
		fputs("</td><td class=\"l\">", fp);
		if (r.top) {
			perfan__gil_unit_label(r.top, buf, sizeof(buf));
			put(fp, buf);
			fprintf(fp, "</td><td>%.1f%%</td></tr>\n",
				100 * r.top_share);
		} else {
			fputs("-</td><td>-</td></tr>\n", fp);
		}
	}
	fputs("</table>\n", fp);
	perfan__gil_units_free(&us);
}

static void sites(const struct perfan_triage *t, FILE *fp)
{
	fputs("<section id=\"blocking\"><h2>3. Where the threads "
	      "blocked</h2>\n",
	      fp);
	if (!t->in.threads) {
		missing(fp, t, "off-CPU time with stacks",
			PERFAN_TRIAGE_WAITING);
	} else if (!t->nsites) {
		gil(t, fp);
		fputs("<p>No blocking call site.</p>\n", fp);
	} else {
		gil(t, fp);
		fputs("<table><tr><th>ms</th><th>threads</th><th "
		      "class=\"l\">wait</th><th class=\"l\">called from</th>"
		      "</tr>\n",
		      fp);
		for (size_t i = 0; i < t->nsites; i++) {
			const struct perfan_triage_site *s = &t->sites[i];
			fprintf(fp,
				"<tr><td>%.1f</td><td>%zu</td><td "
				"class=\"l\">",
				ms(s->total), s->nr_threads);
			const char *cls =
				perfan__site_class_words(s->wait_class);
			const char *from = cls ? s->site : s->caller;
			put(fp, cls && s->mechanism ? s->mechanism : s->wait);
			if (cls) {
				fputs(" (", fp);
				put(fp, cls);
				fputc(')', fp);
			}
			fputs("</td><td class=\"l\">", fp);
			put(fp, from ? from : "(no caller)");
			fputs("</td></tr>\n", fp);
		}
		fputs("</table>\n", fp);
	}
	fputs("</section>\n", fp);
}

static void verdict(const struct perfan_triage *t, FILE *fp)
{
	fputs("<section id=\"verdict\"><h2>4. Is the CPU stalled?</h2>\n", fp);
	const perfan_classify *c = t->in.classify;
	if (!c) {
		missing(fp, t,
			"perf stat counters (IPC, cache and branch "
			"misses)",
			PERFAN_TRIAGE_COUNTERS);
		fputs("</section>\n", fp);
		return;
	}
	fputs("<table><tr><th class=\"l\">verdict</th><th>confidence</th>"
	      "<th>IPC</th><th class=\"l\">why</th><th class=\"l\">next</th>"
	      "</tr>\n",
	      fp);
	for (size_t i = 0; i < perfan_classify_nr_groups(c); i++) {
		const struct perfan_classify_group *g =
			perfan_classify_group(c, i);
		if (!g->whole)
			continue;
		fputs("<tr><td class=\"l\">", fp);
		put(fp, perfan_verdict_name(g->verdict));
		fprintf(fp, "</td><td>%.2f</td>", g->confidence);
		if (isfinite(g->m.ipc))
			fprintf(fp, "<td>%.2f</td>", g->m.ipc);
		else
			fputs("<td></td>", fp);
		fputs("<td class=\"l\">", fp);
		put(fp, g->reason);
		fputs("</td><td class=\"l\">", fp);
		put(fp, g->next);
		fputs("</td></tr>\n", fp);
	}
	fputs("</table></section>\n", fp);
}

/* A table of diff rows: shares, change, q-value, function. */
static void change_table(FILE *fp, const struct perfan_diff_row *const *rows,
			 size_t n)
{
	fputs("<table><tr><th>before</th><th>after</th><th>change</th>"
	      "<th>q</th><th class=\"l\">function</th></tr>\n",
	      fp);
	for (size_t i = 0; i < n; i++) {
		const struct perfan_diff_row *r = rows[i];
		char q[32];
		perfan__triage_q(r, q, sizeof(q));
		fprintf(fp,
			"<tr><td>%.2f%%</td><td>%.2f%%</td><td>%+.2f</td>"
			"<td>%s</td><td class=\"l\">",
			100 * r->before_self, 100 * r->after_self,
			100 * r->self_change, q);
		put(fp, r->name);
		fputs(r->is_new ? " (new)" : r->vanished ? " (gone)" : "", fp);
		fputs(r->significant ? " *" : "", fp);
		fputs("</td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
}

static void changes(const struct perfan_triage *t, FILE *fp)
{
	fputs("<section id=\"changes\"><h2>5. What changed since the run "
	      "before</h2>\n",
	      fp);
	const perfan_diff *d = t->in.diff;
	if (!d) {
		missing(fp, t, "a run to compare with", PERFAN_TRIAGE_COMPARE);
		fputs("</section>\n", fp);
		return;
	}
	int tested = perfan_diff_tested(d);
	fprintf(fp, "<p>%zu run%s before, %zu after: %s, largest first.</p>\n",
		t->runs_before, t->runs_before > 1 ? "s" : "", t->runs_after,
		tested ? "the significant changes of own time (* significant; "
			 "q: the test's adjusted p-value)"
		       : "the largest changes of own time (one run a side: no "
			 "test; -b A1 A2 -a B1 B2 tests them)");
	change_table(fp, t->changes, t->nchanges);
	static const char *const what[] = {"New", "Vanished"};
	for (int k = 0; k < 2; k++) {
		size_t n = k ? t->ngone : t->nadded;
		fprintf(fp, "<h3 id=\"%s\">%s functions%s%s</h3>\n",
			k ? "vanished" : "new", what[k],
			tested ? " (significant)" : "", n ? "" : ": none");
		if (n)
			change_table(fp, k ? t->gone : t->added, n);
	}
	fputs("</section>\n", fp);
}

static void next(const struct perfan_triage *t, FILE *fp)
{
	fputs("<section id=\"next\"><h2>6. What to record next</h2>\n", fp);
	if (!t->nnext)
		fputs("<p>Nothing: this recording answers every "
		      "question.</p>\n",
		      fp);
	else
		fputs("<ul>\n", fp);
	for (size_t i = 0; i < t->nnext; i++) {
		fputs("<li>", fp);
		put(fp, t->next[i].why);
		if (t->next[i].command) {
			fputs(": <code>", fp);
			put(fp, t->next[i].command);
			fputs("</code>", fp);
		}
		fputs("</li>\n", fp);
	}
	if (t->nnext)
		fputs("</ul>\n", fp);
	fputs("</section>\n", fp);
}

int perfan__triage_write_html(const struct perfan_triage *t, FILE *fp)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
	      "charset=\"utf-8\"><title>perfan triage of ",
	      fp);
	put(fp, t->in.name);
	fprintf(fp,
		"</title><style>%s</style></head><body>\n<h1>perfan "
		"triage of ",
		style);
	put(fp, t->in.name);
	fputs("</h1>\n", fp);
	int rc = 0;
	if (t->in.gpu) {
		/* a trace: what applies only to a perf recording left out */
		rc = perfan__triage_trace_html(t, fp);
		if (t->in.classify)
			verdict(t, fp);
		if (t->in.diff)
			changes(t, fp);
	} else {
		summary(t, fp);
		threads(t, fp);
		plateaus(t, fp);
		rc = graphs(t, fp);
		if (!rc)
			rc = timeline(t, fp);
		sites(t, fp);
		verdict(t, fp);
		changes(t, fp);
		next(t, fp);
	}
	fprintf(fp, "<script>%s</script>\n", script);
	if (t->in.timeline)
		fprintf(fp, "<script>%s\nperfanTriageRange('tl');</script>\n",
			perfan__range_js);
	fputs("</body></html>\n", fp);
	if (!rc && ferror(fp))
		rc = perfan__err(PERFAN_EIO, "triage: write error");
	return rc;
}
