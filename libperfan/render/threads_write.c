/* render/threads_write.c: the per-thread table as text (ms, a column per
 * off-CPU state present, open intervals, top blocking call sites) and as
 * JSON (ns). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <perfan/text.h>
#include <perfan/threads.h>
#include <perfan/waits.h>

#include "analysis/threads_result.h"
#include "render/json.h"
#include "render/sink.h"
#include "render/site_text.h"
#include "render/thread_rows.h"

/* ---- text ------------------------------------------------------------------ */

/* NS as milliseconds in a column of WIDTH, "-" for none. */
static void put_ms(FILE *fp, int width, uint64_t ns)
{
	if (ns)
		fprintf(fp, "  %*.3f", width, (double)ns / 1e6);
	else
		fprintf(fp, "  %*s", width, "-");
}

static void put_dots(FILE *fp, size_t n)
{
	fputs("  ", fp);
	for (size_t i = 0; i < n; i++)
		fputc('.', fp);
}

static void put_thread(FILE *fp, const struct perfan_thread_row *r)
{
	char buf[512];
	perfan__thread_label(buf, sizeof(buf), r);
	perfan_text_escape(fp, buf);
}

static void put_pool(FILE *fp, const struct perfan_thread_pool_row *p)
{
	char buf[512];
	perfan__pool_label(buf, sizeof(buf), p);
	perfan_text_escape(fp, buf);
}

/* "  (top: FUNCTION)", the function cut to 60 columns. */
static void put_top(FILE *fp, const char *top)
{
	enum { MAX = 60 };
	if (!top)
		return;
	size_t n = strlen(top);
	fputs("  (top: ", fp);
	if (n <= MAX) {
		perfan_text_escape(fp, top);
	} else {
		char buf[MAX + 1];
		memcpy(buf, top, MAX - 3);
		memcpy(buf + MAX - 3, "...", 4);
		perfan_text_escape(fp, buf);
	}
	fputc(')', fp);
}

/* The states a site's time is in, "(sleep 1.000, run-queue delay 0.200)". */
static void put_site_states(FILE *fp, const struct perfan_thread_site *s)
{
	const char *sep = "(";
	for (uint32_t st = 0; st < PERFAN_OFFCPU_NR_STATES; st++) {
		if (!s->off[st])
			continue;
		fprintf(fp, "%s%s", sep, perfan_offcpu_state_name(st));
		if (s->off[st] != s->total)
			fprintf(fp, " %.3f", (double)s->off[st] / 1e6);
		sep = ", ";
	}
	if (*sep == ',')
		fputc(')', fp);
}

static void write_text(const void *result, FILE *fp)
{
	const perfan_threads *t = result;
	enum { W = 10 };
	static const char *const fixed[] = {"wall", "on-CPU"};
	int width[PERFAN_OFFCPU_NR_STATES];
	int switches = 0;
	for (size_t i = 0; i < t->nrows; i++)
		switches |= t->rows[i].on_cpu_switches;
	fputs("# Threads: wall-clock time per thread in ms (wall: its lifetime "
	      "in the recording;\n# on-CPU: its cpu-clock/task-clock samples",
	      fp);
	if (switches)
		fputs(" (where every switch-in is recorded: from its "
		      "switch-ins to its switch-outs)",
		      fp);
	fputs("; off-CPU by the state it left the CPU in)\n#\n#", fp);
	for (size_t i = 0; i < 2; i++)
		fprintf(fp, "%s%*s", i ? "  " : " ", W, fixed[i]);
	for (uint32_t st = 0; st < PERFAN_OFFCPU_NR_STATES; st++) {
		if (!(t->states & (1u << st)))
			continue;
		const char *name = perfan_offcpu_state_name(st);
		width[st] = (int)strlen(name) > W ? (int)strlen(name) : W;
		fprintf(fp, "  %*s", width[st], name);
	}
	fprintf(fp, "  %*s  %6s  %8s  thread (top function)\n#", 8, "CPU/wall",
		"%GIL", "%waiting");
	for (size_t i = 0; i < 2; i++) {
		if (!i) {
			fputc(' ', fp);
			for (int k = 0; k < W; k++)
				fputc('.', fp);
		} else {
			put_dots(fp, W);
		}
	}
	for (uint32_t st = 0; st < PERFAN_OFFCPU_NR_STATES; st++)
		if (t->states & (1u << st))
			put_dots(fp, (size_t)width[st]);
	put_dots(fp, 8);
	put_dots(fp, 6);
	put_dots(fp, 8);
	put_dots(fp, 21);
	fputs("\n", fp);
	for (size_t i = 0; i < t->nrows; i++) {
		const struct perfan_thread_row *r = &t->rows[i];
		int skip;
		const struct perfan_thread_pool_row *p =
			perfan__thread_row_pool(t, i, &skip);
		if (skip)
			continue;
		uint64_t wall = p ? p->wall : r->wall;
		fprintf(fp, " %*.3f", W, (double)wall / 1e6);
		put_ms(fp, W, p ? p->on_cpu : r->on_cpu);
		for (uint32_t st = 0; st < PERFAN_OFFCPU_NR_STATES; st++)
			if (t->states & (1u << st))
				put_ms(fp, width[st],
				       p ? p->off[st] : r->off[st]);
		uint64_t gil = p ? p->gil : r->gil;
		uint64_t waiting = p ? p->waiting : r->waiting;
		double cpu = p ? (wall ? (double)p->on_cpu / (double)wall : 0.0)
			       : r->cpu_ratio;
		fprintf(fp, "  %7.2f%%  %5.1f%%  %7.1f%%  ", 100 * cpu,
			wall ? 100.0 * (double)gil / (double)wall : 0.0,
			wall ? 100.0 * (double)waiting / (double)wall : 0.0);
		if (!p) {
			put_thread(fp, r);
		} else {
			put_pool(fp, p);
			fprintf(fp, " (per thread: wall %.3f, on-CPU %.3f)",
				(double)p->wall / 1e6 / (double)p->nr_threads,
				(double)p->on_cpu / 1e6 /
					(double)p->nr_threads);
		}
		put_top(fp, p ? p->top : r->top);
		fputc('\n', fp);
	}
	if (t->left_threads)
		fprintf(fp,
			"# and %zu threads of %zu other processes, left out "
			"(--all keeps them)\n",
			t->left_threads, t->left_procs);

	int open = 0;
	for (size_t i = 0; i < t->nrows; i++) {
		const struct perfan_thread_row *r = &t->rows[i];
		int skip;
		const struct perfan_thread_pool_row *p =
			perfan__thread_row_pool(t, i, &skip);
		uint32_t os = p ? p->open_start : r->open_start;
		uint32_t oe = p ? p->open_end : r->open_end;
		if (skip || (!os && !oe))
			continue;
		if (!open++)
			fputs("#\n# Open intervals: off-CPU at an edge of the "
			      "recording, counted from or to that edge\n",
			      fp);
		fputs("#   ", fp);
		if (p)
			put_pool(fp, p);
		else
			put_thread(fp, r);
		fputc(':', fp);
		if (os)
			fprintf(fp, " %u open at the start (%s)", os,
				perfan_offcpu_state_name(PERFAN_OFFCPU_UNSEEN));
		if (oe)
			fprintf(fp, "%s %u still open at the end",
				os ? "," : "", oe);
		fputc('\n', fp);
	}

	int sites = 0, classes = 0;
	for (size_t i = 0; i < t->nrows; i++)
		for (size_t k = 0; k < t->rows[i].nr_sites; k++)
			classes |= t->rows[i].sites[k].wait_class != 0;
	for (size_t i = 0; i < t->nrows; i++) {
		const struct perfan_thread_row *r = &t->rows[i];
		int skip;
		const struct perfan_thread_pool_row *p =
			perfan__thread_row_pool(t, i, &skip);
		size_t nsites = p ? p->nr_sites : r->nr_sites;
		const struct perfan_thread_site *ss = p ? p->sites : r->sites;
		if (skip || !nsites)
			continue;
		if (!sites++)
			fputs(classes ? "#\n# Top blocking call sites per "
					"thread, ms: the user's function <- "
					"what it waited in (the class), or "
					"the wait in the function that called "
					"it\n"
				      : "#\n# Top blocking call sites per "
					"thread, ms: the wait, in the function "
					"that called it\n",
			      fp);
		fputs("#\n# ", fp);
		if (p)
			put_pool(fp, p);
		else
			put_thread(fp, r);
		fputc('\n', fp);
		for (size_t k = 0; k < nsites; k++) {
			const struct perfan_thread_site *s = &ss[k];
			fprintf(fp, " %*.3f  ", W, (double)s->total / 1e6);
			perfan__site_text(fp, s->wait, s->caller, s->wait_class,
					  s->site, s->mechanism);
			fputs("  ", fp);
			put_site_states(fp, s);
			fputc('\n', fp);
		}
	}
}

/* ---- JSON ------------------------------------------------------------------ */

/* {"STATE": V, ...} of the states with a value. */
static void json_states(struct perfan__json *j, const char *key,
			const uint64_t *v)
{
	perfan__json_open(j, key, '{');
	for (uint32_t st = 0; st < PERFAN_OFFCPU_NR_STATES; st++)
		if (v[st])
			perfan__json_u64(j, perfan_offcpu_state_name(st),
					 v[st]);
	perfan__json_close(j, '}');
}

static void json_states32(struct perfan__json *j, const char *key,
			  const uint32_t *v)
{
	uint64_t w[PERFAN_OFFCPU_NR_STATES];
	for (uint32_t st = 0; st < PERFAN_OFFCPU_NR_STATES; st++)
		w[st] = v[st];
	json_states(j, key, w);
}

static void json_sites(struct perfan__json *j,
		       const struct perfan_thread_site *sites, size_t n);

static void json_row(struct perfan__json *j, const struct perfan_thread_row *r)
{
	perfan__json_open(j, NULL, '{');
	perfan__json_str(j, "comm", r->comm ? r->comm : "");
	perfan__json_str(j, "name", r->name ? r->name : r->comm ? r->comm : "");
	perfan__json_str(j, "role", r->role);
	if (r->pool == PERFAN_NO_POOL)
		perfan__json_str(j, "pool", NULL);
	else
		perfan__json_u64(j, "pool", r->pool);
	perfan__json_i64(j, "pid", r->pid);
	perfan__json_i64(j, "tid", r->tid);
	perfan__json_u64(j, "start", r->start);
	perfan__json_u64(j, "end", r->end);
	perfan__json_u64(j, "wall", r->wall);
	perfan__json_u64(j, "on_cpu", r->on_cpu);
	perfan__json_u64(j, "on_cpu_samples", r->on_cpu_samples);
	perfan__json_str(j, "on_cpu_from",
			 r->on_cpu_switches ? "switches" : "samples");
	perfan__json_u64(j, "off_cpu", r->off_total);
	json_states(j, "off", r->off);
	json_states32(j, "intervals", r->intervals);
	perfan__json_u64(j, "open_start", r->open_start);
	perfan__json_u64(j, "open_end", r->open_end);
	perfan__json_u64(j, "inexact", r->inexact);
	perfan__json_bool(j, "exited", r->exited);
	perfan__json_f64(j, "cpu_wall_ratio",
			 isfinite(r->cpu_ratio) ? r->cpu_ratio : 0.0, 6);
	perfan__json_u64(j, "gil", r->gil);
	perfan__json_u64(j, "waiting", r->waiting);
	perfan__json_str(j, "top", r->top);
	perfan__json_u64(j, "top_self", r->top_self);
	json_sites(j, r->sites, r->nr_sites);
	perfan__json_close(j, '}');
}

static void json_sites(struct perfan__json *j,
		       const struct perfan_thread_site *sites, size_t n)
{
	perfan__json_open(j, "sites", '[');
	for (size_t k = 0; k < n; k++) {
		const struct perfan_thread_site *s = &sites[k];
		perfan__json_open(j, NULL, '{');
		perfan__json_str(j, "wait", s->wait ? s->wait : "");
		perfan__json_str(j, "caller", s->caller);
		perfan__json_u64(j, "total", s->total);
		json_states(j, "off", s->off);
		perfan__json_str(j, "class",
				 perfan_wait_class_name(s->wait_class));
		perfan__json_str(j, "site", s->site);
		perfan__json_str(j, "mechanism", s->mechanism);
		perfan__json_close(j, '}');
	}
	perfan__json_close(j, ']');
}

static void json_pool(struct perfan__json *j,
		      const struct perfan_thread_pool_row *p)
{
	perfan__json_open(j, NULL, '{');
	perfan__json_str(j, "name", p->name);
	perfan__json_i64(j, "pid", p->pid);
	perfan__json_u64(j, "threads", p->nr_threads);
	perfan__json_u64(j, "wall", p->wall);
	perfan__json_u64(j, "on_cpu", p->on_cpu);
	perfan__json_u64(j, "off_cpu", p->off_total);
	json_states(j, "off", p->off);
	perfan__json_u64(j, "gil", p->gil);
	perfan__json_u64(j, "waiting", p->waiting);
	perfan__json_str(j, "top", p->top);
	perfan__json_u64(j, "top_self", p->top_self);
	perfan__json_u64(j, "on_cpu_per_thread", p->on_cpu / p->nr_threads);
	perfan__json_u64(j, "wall_per_thread", p->wall / p->nr_threads);
	json_sites(j, p->sites, p->nr_sites);
	perfan__json_close(j, '}');
}

/* {"threads": [ a row a line ]} and a newline. */
static void write_json(const void *result, FILE *fp)
{
	const perfan_threads *t = result;
	struct perfan__json j;
	perfan__json_init(&j, fp, 0);
	perfan__json_open(&j, NULL, '{');
	perfan__json_open_lines(&j, "threads", '[');
	for (size_t i = 0; i < t->nrows; i++)
		json_row(&j, &t->rows[i]);
	perfan__json_close(&j, ']');
	perfan__json_open_lines(&j, "pools", '[');
	for (size_t i = 0; i < t->npools; i++)
		json_pool(&j, &t->pools[i]);
	perfan__json_close(&j, ']');
	perfan__json_u64(&j, "left_out_threads", t->left_threads);
	perfan__json_u64(&j, "left_out_processes", t->left_procs);
	perfan__json_end(&j);
}

static perfan__sink_fn *const formats[] = {
	[PERFAN_THREADS_TEXT] = write_text,
	[PERFAN_THREADS_JSON] = write_json,
};

static const struct perfan__sink sink = {"perfan_threads_write", formats,
					 sizeof(formats) / sizeof(*formats)};

int perfan_threads_write(const perfan_threads *t, FILE *fp,
			 const struct perfan_threads_write_opts *opts)
{
	return perfan__sink_write(&sink, t, fp, opts);
}
