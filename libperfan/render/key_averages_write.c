/* render/key_averages_write.c: torch's key_averages() table as torch's
 * table() prints it (its columns, times as its _format_time writes them),
 * with a note on what it misses, and as JSON. */
#include <stdio.h>
#include <string.h>

#include <perfan/keyavg.h>
#include <perfan/text.h>

#include "render/json.h"
#include "render/sink.h"

#define NAME_MAX_WIDTH 55 /* torch's max_name_column_width */
#define COL 12

/* torch's _format_time, from ns */
static void fmt_time(char *buf, size_t n, double ns)
{
	double us = ns / 1e3;
	if (us >= 1e6)
		snprintf(buf, n, "%.3fs", us / 1e6);
	else if (us >= 1e3)
		snprintf(buf, n, "%.3fms", us / 1e3);
	else
		snprintf(buf, n, "%.3fus", us);
}

/* torch's _format_time_share */
static void fmt_share(char *buf, size_t n, int64_t ns, int64_t total)
{
	if (!total)
		snprintf(buf, n, "NaN");
	else
		snprintf(buf, n, "%.2f%%", (double)ns * 100.0 / (double)total);
}

static void rule(FILE *fp, int name_w, int ncols)
{
	for (int i = 0; i < name_w; i++)
		fputc('-', fp);
	for (int c = 0; c < ncols; c++) {
		fputs("  ", fp);
		for (int i = 0; i < COL; i++)
			fputc('-', fp);
	}
	fputs("  \n", fp);
}

static void cell(FILE *fp, const char *s)
{
	fprintf(fp, "  %*s", COL, s);
}

static void write_text(const void *result, FILE *fp)
{
	const struct perfan_keyavg_result *r = perfan_keyavg_result(result);
	int name_w = 4, cuda = r->self_cuda != 0;
	for (size_t i = 0; i < r->nr_rows; i++) {
		int l = (int)strlen(r->rows[i].key) + 4;
		name_w = l > name_w ? l : name_w;
		cuda |= r->rows[i].cuda_total != 0;
	}
	name_w = name_w > NAME_MAX_WIDTH ? NAME_MAX_WIDTH : name_w;
	int ncols = cuda ? 10 : 6;
	static const char *const heads[] = {"Self CPU %",   "Self CPU",
					    "CPU total %",  "CPU total",
					    "CPU time avg", "Self CUDA",
					    "Self CUDA %",  "CUDA total",
					    "CUDA time avg"};
	rule(fp, name_w, ncols);
	fprintf(fp, "%*s", name_w, "Name");
	for (int c = 0; c < (cuda ? 9 : 5); c++)
		cell(fp, heads[c]);
	cell(fp, "# of Calls");
	fputs("  \n", fp);
	rule(fp, name_w, ncols);
	char b[64];
	for (size_t i = 0; i < r->nr_rows; i++) {
		const struct perfan_keyavg_row *w = &r->rows[i];
		int l = (int)strlen(w->key);
		if (l > name_w - 3) /* torch cuts a long name to "..." */
			fprintf(fp, "%.*s...", name_w - 3, w->key);
		else
			fprintf(fp, "%*s", name_w, w->key);
		double n = w->count ? (double)w->count : 1;
		fmt_share(b, sizeof(b), w->self_cpu, r->self_cpu), cell(fp, b);
		fmt_time(b, sizeof(b), (double)w->self_cpu), cell(fp, b);
		fmt_share(b, sizeof(b), w->cpu_total, r->self_cpu), cell(fp, b);
		fmt_time(b, sizeof(b), (double)w->cpu_total), cell(fp, b);
		fmt_time(b, sizeof(b), (double)w->cpu_total / n), cell(fp, b);
		if (cuda) {
			fmt_time(b, sizeof(b), (double)w->self_cuda),
				cell(fp, b);
			fmt_share(b, sizeof(b), w->self_cuda, r->self_cuda);
			cell(fp, b);
			fmt_time(b, sizeof(b), (double)w->cuda_total),
				cell(fp, b);
			fmt_time(b, sizeof(b), (double)w->cuda_total / n),
				cell(fp, b);
		}
		snprintf(b, sizeof(b), "%llu", (unsigned long long)w->count);
		cell(fp, b);
		fputs("  \n", fp);
	}
	rule(fp, name_w, ncols);
	fmt_time(b, sizeof(b), (double)r->self_cpu);
	fprintf(fp, "Self CPU time total: %s\n", b);
	if (cuda) {
		fmt_time(b, sizeof(b), (double)r->self_cuda);
		fprintf(fp, "Self CUDA time total: %s\n", b);
	}
	fputs("\nNote: torch's table sums each op's GPU time over every stream, "
	      "so work on\noverlapping streams counts twice, and the time the "
	      "GPU stood idle is in\nno row: `perfan gpu` shows busy and idle "
	      "time per step and stream.\n",
	      fp);
}

static void write_json(const void *result, FILE *fp)
{
	const struct perfan_keyavg_result *r = perfan_keyavg_result(result);
	struct perfan__json j;
	perfan__json_init(&j, fp, 0);
	perfan__json_open(&j, NULL, '{');
	perfan__json_open(&j, "key_averages", '{');
	perfan__json_str(&j, "unit", "ns");
	perfan__json_i64(&j, "self_cpu_time_total", r->self_cpu);
	perfan__json_i64(&j, "self_cuda_time_total", r->self_cuda);
	perfan__json_open_lines(&j, "rows", '[');
	for (size_t i = 0; i < r->nr_rows; i++) {
		const struct perfan_keyavg_row *w = &r->rows[i];
		perfan__json_open(&j, NULL, '{');
		perfan__json_str(&j, "key", w->key);
		perfan__json_bool(&j, "gpu", w->gpu);
		perfan__json_u64(&j, "count", w->count);
		perfan__json_i64(&j, "self_cpu_time_total", w->self_cpu);
		perfan__json_i64(&j, "cpu_time_total", w->cpu_total);
		perfan__json_i64(&j, "self_cuda_time_total", w->self_cuda);
		perfan__json_i64(&j, "cuda_time_total", w->cuda_total);
		perfan__json_close(&j, '}');
	}
	perfan__json_end(&j);
}

static perfan__sink_fn *const formats[] = {
	[PERFAN_KEYAVG_TEXT] = write_text,
	[PERFAN_KEYAVG_JSON] = write_json,
};

static const struct perfan__sink sink = {"perfan_keyavg_write", formats,
					 sizeof(formats) / sizeof(*formats)};

int perfan_keyavg_write(const perfan_keyavg *k, FILE *fp,
			const struct perfan_keyavg_write_opts *opts)
{
	return perfan__sink_write(&sink, k, fp, opts);
}
