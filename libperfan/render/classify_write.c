/* render/classify_write.c: a classification as text (one block per
 * interval / aggregation, then the whole) and as JSON. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <perfan/classify.h>

#include "render/json.h"
#include "render/sink.h"
#include <perfan/text.h>

enum kind { K_PLAIN, K_PCT, K_MPKI };

static const struct {
	const char *key, *label;
	size_t off;
	enum kind kind;
} fields[] = {
#define F(k, l, kind)                                                          \
	{                                                                      \
#k, l, offsetof(struct perfan_classify_metrics, k), kind       \
	}
	F(cycles, "cycles", K_PLAIN),
	F(instructions, "instructions", K_PLAIN),
	F(ipc, "IPC", K_PLAIN),
	F(cpi, "CPI", K_PLAIN),
	F(cpus_utilized, "CPUs utilised", K_PLAIN),
	F(cache_miss_ratio, "cache misses per reference", K_PCT),
	F(cache_mpki, "cache misses per 1000 instructions", K_MPKI),
	F(branch_miss_ratio, "branch misses per branch", K_PCT),
	F(branch_mpki, "branch misses per 1000 instructions", K_MPKI),
	F(l1d_miss_ratio, "L1-dcache load miss ratio", K_PCT),
	F(llc_miss_ratio, "LLC load miss ratio", K_PCT),
	F(dtlb_miss_ratio, "dTLB load miss ratio", K_PCT),
	F(itlb_miss_ratio, "iTLB load miss ratio", K_PCT),
	F(fe_stall_ratio, "front-end stalled cycles", K_PCT),
	F(be_stall_ratio, "back-end stalled cycles", K_PCT),
	F(tma_retiring, "TMA retiring", K_PCT),
	F(tma_bad_speculation, "TMA bad speculation", K_PCT),
	F(tma_frontend_bound, "TMA front-end bound", K_PCT),
	F(tma_backend_bound, "TMA back-end bound", K_PCT),
	F(tma_memory_bound, "TMA memory bound", K_PCT),
	F(tma_core_bound, "TMA core bound", K_PCT),
	F(tma_fetch_latency, "TMA fetch latency", K_PCT),
	F(tma_fetch_bandwidth, "TMA fetch bandwidth", K_PCT),
	F(tma_branch_mispredicts, "TMA branch mispredicts", K_PCT),
	F(tma_machine_clears, "TMA machine clears", K_PCT),
	F(tma_light_operations, "TMA light operations", K_PCT),
	F(tma_heavy_operations, "TMA heavy operations", K_PCT),
#undef F
};

static const struct {
	const char *key, *label;
	size_t off;
	enum kind kind;
} times[] = {
#define T(k, l, kind)                                                          \
	{                                                                      \
#k, l, offsetof(struct perfan_classify_time, k), kind          \
	}
	T(on_cpu, "on CPU, of the wall time", K_PCT),
	T(elapsed, "elapsed (s)", K_PLAIN),
	T(user, "user (s)", K_PLAIN),
	T(sys, "sys (s)", K_PLAIN),
	T(sys_share, "sys, of the CPU time", K_PCT),
	T(context_switches_per_sec, "context switches per second", K_PLAIN),
	T(cpu_migrations_per_sec, "CPU migrations per second", K_PLAIN),
	T(page_faults_per_sec, "page faults per second", K_PLAIN),
#undef T
};

static double field(const struct perfan_classify_metrics *m, size_t i)
{
	return *(const double *)((const char *)m + fields[i].off);
}

static double time_field(const struct perfan_classify_time *t, size_t i)
{
	return *(const double *)((const char *)t + times[i].off);
}

/* Several runs in the input: each title names its run. */
static int runs_of(const perfan_classify *c)
{
	for (size_t i = 0; i < perfan_classify_nr_groups(c); i++)
		if (perfan_classify_group(c, i)->run > 0 ||
		    perfan_classify_group(c, i)->combined)
			return 1;
	return 0;
}

static int is_pct_metric(const char *metric)
{
	return strstr(metric, "ratio") || !strncmp(metric, "tma_", 4) ||
	       !strcmp(metric, "on_cpu");
}

static void put_title(FILE *fp, const struct perfan_classify_group *g, int runs)
{
	if (g->combined)
		fputs("runs combined ", fp);
	else if (runs)
		fprintf(fp, "run %u ", g->run + 1);
	if (g->whole)
		fputs("whole", fp);
	if (g->pmu)
		fprintf(fp, " %s", g->pmu);
	if (g->interval >= 0)
		fprintf(fp, "%sinterval %.9f", g->whole ? " " : "",
			g->interval);
	if (g->aggr)
		fprintf(fp, "%s%s", g->interval >= 0 ? " " : "", g->aggr);
}

static void write_text(const void *result, FILE *fp)
{
	const perfan_classify *c = result;
	int runs = runs_of(c);
	for (size_t i = 0; i < perfan_classify_nr_groups(c); i++) {
		const struct perfan_classify_group *g =
			perfan_classify_group(c, i);
		if (i)
			fputc('\n', fp);
		put_title(fp, g, runs);
		fprintf(fp, ": %s", perfan_verdict_name(g->verdict));
		if (g->verdict != PERFAN_VERDICT_UNKNOWN)
			fprintf(fp, " (confidence %.2f)", g->confidence);
		fputc('\n', fp);
		if (g->command && (g->whole || runs))
			fprintf(fp, "  command: %s\n", g->command);
		fprintf(fp, "  why: %s\n", g->reason);
		if (g->warning)
			fprintf(fp, "  warning: %s\n", g->warning);
		for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]);
		     k++) {
			double v = field(&g->m, k);
			if (isnan(v))
				continue;
			if (fields[k].kind == K_PCT)
				fprintf(fp, "  %-36s %10.2f %%\n",
					fields[k].label, 100 * v);
			else if (k < 2)
				fprintf(fp, "  %-36s %10.0f\n", fields[k].label,
					v);
			else if (!strcmp(fields[k].key, "cpus_utilized"))
				/* perf's own precision */
				fprintf(fp, "  %-36s %10.3f\n", fields[k].label,
					v);
			else
				fprintf(fp, "  %-36s %10.2f\n", fields[k].label,
					v);
		}
		for (size_t k = 0; k < sizeof(times) / sizeof(times[0]); k++) {
			double v = time_field(&g->time, k);
			if (isnan(v) || isinf(v) || g->pmu)
				continue; /* a PMU's: the same as its run's */
			if (times[k].kind == K_PCT)
				fprintf(fp, "  %-36s %10.2f %%\n",
					times[k].label, 100 * v);
			else
				fprintf(fp, "  %-36s %10.3f\n", times[k].label,
					v);
		}
		if (g->m.min_running_pct < 100)
			fprintf(fp, "  %-36s %10.2f %%\n",
				g->pmu ? "ran (lowest run share)"
				       : "multiplexed: lowest run share",
				g->m.min_running_pct);
		for (size_t k = 0; k < g->nr_pmus; k++)
			if (!isnan(g->pmus[k].ipc))
				fprintf(fp, "  %-36s %10.2f\n", g->pmus[k].pmu,
					g->pmus[k].ipc);
		if (g->nr_evidence)
			fputs("  evidence:\n", fp);
		for (size_t k = 0; k < g->nr_evidence; k++) {
			const struct perfan_classify_evidence *e =
				&g->evidence[k];
			if (is_pct_metric(e->metric))
				fprintf(fp,
					"    %s %.2f %% %s %.2f %%: %s [%s]\n",
					e->metric, 100 * e->value, e->op,
					100 * e->threshold, e->rule, e->source);
			else
				fprintf(fp, "    %s %.2f %s %.2f: %s [%s]\n",
					e->metric, e->value, e->op,
					e->threshold, e->rule, e->source);
		}
		fprintf(fp, "  next: %s\n", g->next);
	}
}

/* A number as %.15g; NaN and infinities are null. */
static void json_num(struct perfan__json *j, const char *key, double v)
{
	perfan__json_g(j, key, isinf(v) ? NAN : v, 15);
}

static void json_verdict(struct perfan__json *j,
			 const struct perfan_classify_group *g)
{
	perfan__json_u64(j, "run", g->run);
	perfan__json_bool(j, "combined", g->combined);
	perfan__json_str(j, "command", g->command);
	perfan__json_str(j, "pmu", g->pmu);
	perfan__json_bool(j, "whole", g->whole);
	json_num(j, "interval", g->interval >= 0 ? g->interval : NAN);
	perfan__json_str(j, "aggr", g->aggr);
	perfan__json_str(j, "verdict", perfan_verdict_name(g->verdict));
	json_num(j, "confidence", g->confidence);
	perfan__json_str(j, "reason", g->reason ? g->reason : "");
	perfan__json_str(j, "warning", g->warning);
	perfan__json_str(j, "next", g->next ? g->next : "");
}

/* The metrics, times, PMUs and evidence, each on a line of its own. */
static void json_numbers(struct perfan__json *j,
			 const struct perfan_classify_group *g)
{
	perfan__json_break(j, 3);
	perfan__json_open(j, "metrics", '{');
	for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++)
		if (!isnan(field(&g->m, k)))
			json_num(j, fields[k].key, field(&g->m, k));
	json_num(j, "min_running_pct", g->m.min_running_pct);
	perfan__json_close(j, '}');
	perfan__json_break(j, 3);
	perfan__json_open(j, "time", '{');
	for (size_t k = 0; k < sizeof(times) / sizeof(times[0]); k++) {
		double v = time_field(&g->time, k);
		if (!isnan(v) && !isinf(v))
			json_num(j, times[k].key, v);
	}
	perfan__json_close(j, '}');
	perfan__json_break(j, 3);
	perfan__json_open(j, "pmus", '[');
	for (size_t k = 0; k < g->nr_pmus; k++) {
		perfan__json_open(j, NULL, '{');
		perfan__json_str(j, "pmu",
				 g->pmus[k].pmu ? g->pmus[k].pmu : "");
		json_num(j, "cycles", g->pmus[k].cycles);
		json_num(j, "instructions", g->pmus[k].instructions);
		json_num(j, "ipc", g->pmus[k].ipc);
		perfan__json_close(j, '}');
	}
	perfan__json_close(j, ']');
	perfan__json_break(j, 3);
	perfan__json_open(j, "evidence", '[');
	for (size_t k = 0; k < g->nr_evidence; k++) {
		const struct perfan_classify_evidence *e = &g->evidence[k];
		perfan__json_break(j, 4);
		perfan__json_open(j, NULL, '{');
		perfan__json_str(j, "metric", e->metric ? e->metric : "");
		json_num(j, "value", e->value);
		perfan__json_str(j, "op", e->op ? e->op : "");
		json_num(j, "threshold", e->threshold);
		perfan__json_str(j, "rule", e->rule ? e->rule : "");
		perfan__json_str(j, "source", e->source ? e->source : "");
		perfan__json_close(j, '}');
	}
	perfan__json_close(j, ']');
}

/* {"groups": [ a group a line (its numbers on lines of their own) ]}. */
static void write_json(const void *result, FILE *fp)
{
	const perfan_classify *c = result;
	struct perfan__json j;
	perfan__json_init(&j, fp, 0);
	perfan__json_open(&j, NULL, '{');
	perfan__json_open_lines(&j, "groups", '[');
	for (size_t i = 0; i < perfan_classify_nr_groups(c); i++) {
		const struct perfan_classify_group *g =
			perfan_classify_group(c, i);
		perfan__json_open(&j, NULL, '{');
		json_verdict(&j, g);
		json_numbers(&j, g);
		perfan__json_close(&j, '}');
	}
	if (!perfan_classify_nr_groups(c))
		fputc('\n', fp); /* "[\n]" even when empty */
	perfan__json_end(&j);
}

static perfan__sink_fn *const formats[] = {
	[PERFAN_CLASSIFY_TEXT] = write_text,
	[PERFAN_CLASSIFY_JSON] = write_json,
};

static const struct perfan__sink sink = {"perfan_classify_write", formats,
					 sizeof(formats) / sizeof(*formats)};

int perfan_classify_write(const perfan_classify *c, FILE *fp,
			  const struct perfan_classify_write_opts *opts)
{
	return perfan__sink_write(&sink, c, fp, opts);
}
