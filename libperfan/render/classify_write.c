/* render/classify_write.c: a classification as text (one block per
 * interval / aggregation, then the whole) and as JSON. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <perfan/classify.h>

#include "util/error.h"
#include "util/opts.h"
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

static void write_text(FILE *fp, const perfan_classify *c)
{
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

static void json_num(FILE *fp, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", fp);
	else
		fprintf(fp, "%.15g", v);
}

static void write_json(FILE *fp, const perfan_classify *c)
{
	fputs("{\"groups\": [", fp);
	for (size_t i = 0; i < perfan_classify_nr_groups(c); i++) {
		const struct perfan_classify_group *g =
			perfan_classify_group(c, i);
		fprintf(fp,
			"%s\n  {\"run\": %u, \"combined\": %s, \"command\": ",
			i ? "," : "", g->run, g->combined ? "true" : "false");
		if (g->command)
			perfan_json_string(fp, g->command);
		else
			fputs("null", fp);
		fputs(", \"pmu\": ", fp);
		if (g->pmu)
			perfan_json_string(fp, g->pmu);
		else
			fputs("null", fp);
		fprintf(fp, ", \"whole\": %s, \"interval\": ",
			g->whole ? "true" : "false");
		if (g->interval >= 0)
			json_num(fp, g->interval);
		else
			fputs("null", fp);
		fputs(", \"aggr\": ", fp);
		if (g->aggr)
			perfan_json_string(fp, g->aggr);
		else
			fputs("null", fp);
		fputs(", \"verdict\": ", fp);
		perfan_json_string(fp, perfan_verdict_name(g->verdict));
		fputs(", \"confidence\": ", fp);
		json_num(fp, g->confidence);
		fputs(", \"reason\": ", fp);
		perfan_json_string(fp, g->reason);
		fputs(", \"warning\": ", fp);
		if (g->warning)
			perfan_json_string(fp, g->warning);
		else
			fputs("null", fp);
		fputs(", \"next\": ", fp);
		perfan_json_string(fp, g->next);
		fputs(",\n   \"metrics\": {", fp);
		int first = 1;
		for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]);
		     k++) {
			double v = field(&g->m, k);
			if (isnan(v))
				continue;
			fprintf(fp, "%s\"%s\": ", first ? "" : ", ",
				fields[k].key);
			json_num(fp, v);
			first = 0;
		}
		fprintf(fp, "%s\"min_running_pct\": ", first ? "" : ", ");
		json_num(fp, g->m.min_running_pct);
		fputs("},\n   \"time\": {", fp);
		first = 1;
		for (size_t k = 0; k < sizeof(times) / sizeof(times[0]); k++) {
			double v = time_field(&g->time, k);
			if (isnan(v) || isinf(v))
				continue;
			fprintf(fp, "%s\"%s\": ", first ? "" : ", ",
				times[k].key);
			json_num(fp, v);
			first = 0;
		}
		fputs("},\n   \"pmus\": [", fp);
		for (size_t k = 0; k < g->nr_pmus; k++) {
			fprintf(fp, "%s{\"pmu\": ", k ? ", " : "");
			perfan_json_string(fp, g->pmus[k].pmu);
			fputs(", \"cycles\": ", fp);
			json_num(fp, g->pmus[k].cycles);
			fputs(", \"instructions\": ", fp);
			json_num(fp, g->pmus[k].instructions);
			fputs(", \"ipc\": ", fp);
			json_num(fp, g->pmus[k].ipc);
			fputc('}', fp);
		}
		fputs("],\n   \"evidence\": [", fp);
		for (size_t k = 0; k < g->nr_evidence; k++) {
			const struct perfan_classify_evidence *e =
				&g->evidence[k];
			fprintf(fp, "%s\n    {\"metric\": ", k ? "," : "");
			perfan_json_string(fp, e->metric);
			fputs(", \"value\": ", fp);
			json_num(fp, e->value);
			fputs(", \"op\": ", fp);
			perfan_json_string(fp, e->op);
			fputs(", \"threshold\": ", fp);
			json_num(fp, e->threshold);
			fputs(", \"rule\": ", fp);
			perfan_json_string(fp, e->rule);
			fputs(", \"source\": ", fp);
			perfan_json_string(fp, e->source);
			fputc('}', fp);
		}
		fputs("]}", fp);
	}
	fputs("\n]}\n", fp);
}

int perfan_classify_write(const perfan_classify *c, FILE *fp,
			  const struct perfan_classify_write_opts *opts)
{
	struct perfan_classify_write_opts o;
	if (PERFAN__OPTS_COPY(o, opts))
		return PERFAN_EINVAL; /* named by perfan__opts_copy */
	int format = o.format;
	if (format == PERFAN_CLASSIFY_JSON)
		write_json(fp, c);
	else
		write_text(fp, c);
	if (fflush(fp) || ferror(fp))
		return perfan__err(PERFAN_EIO, "classify: write failed");
	return 0;
}
