/* render/hotspots_write.c: the sink of the Python hot spots: a table in
 * perf report's columns, or JSON. */
#include <stdio.h>
#include <string.h>

#include <perfan/python.h>

#include "python/hotspots_result.h"
#include "render/json.h"
#include "render/sink.h"

/* A module's last part, as perf report names dsos. */
static const char *short_module(const char *m)
{
	if (!m)
		return "[unknown]";
	const char *s = strrchr(m, '/');
	return s ? s + 1 : m;
}

static void write_text(const void *result, FILE *fp)
{
	const perfan_python_hotspots *h = result;
	const perfan_profile *p = h->p;
	int cols = perfan_profile_nr_columns(p) > 0;
	fprintf(fp,
		"# Self time of Python functions by the native function it "
		"ran in%s%s%s\n",
		cols ? " (event '" : "",
		cols ? perfan_profile_column_name(p, h->o.column) : "",
		cols ? "')" : "");
	fputs("# (the python view's self time: the interpreter and runtime "
	      "frames below the\n# function; Of self: share of the "
	      "function's self time)\n#\n",
	      fp);
	fprintf(fp, "# %8s  %8s  %s\n", "Overhead", "Of self",
		"Python function / native function [module]");
	fputs("# ........  ........  ......................................."
	      "......\n#\n",
	      fp);
	for (size_t i = 0; i < h->nfuncs; i++) {
		const struct perfan_python_self *f = &h->funcs[i];
		fprintf(fp, "  %7.2f%%  %8s  %s\n", f->percent, "", f->name);
		for (size_t k = 0; k < f->nr_hotspots; k++) {
			const struct perfan_python_hotspot *s = &f->hotspots[k];
			fprintf(fp, "  %7.2f%%  %7.2f%%      %s  [%s]\n",
				s->percent, s->self_percent, s->name,
				short_module(s->module));
		}
	}
}

static void json_pct(struct perfan__json *j, const char *key, double v)
{
	perfan__json_item(j, key);
	fprintf(j->fp, "%.4f", v);
}

static void write_json(const void *result, FILE *fp)
{
	const perfan_python_hotspots *h = result;
	const perfan_profile *p = h->p;
	int cols = perfan_profile_nr_columns(p) > 0;
	struct perfan__json j;
	perfan__json_init(&j, fp, 0);
	perfan__json_open(&j, NULL, '{');
	perfan__json_str(&j, "event",
			 cols ? perfan_profile_column_name(p, h->o.column)
			      : NULL);
	perfan__json_str(&j, "unit",
			 cols ? perfan_profile_column_unit(p, h->o.column)
			      : NULL);
	perfan__json_u64(&j, "total", h->total);
	perfan__json_open(&j, "functions", '[');
	for (size_t i = 0; i < h->nfuncs; i++) {
		const struct perfan_python_self *f = &h->funcs[i];
		perfan__json_open(&j, NULL, '{');
		perfan__json_str(&j, "name", f->name);
		perfan__json_str(&j, "module", f->module);
		perfan__json_u64(&j, "self", f->self);
		json_pct(&j, "percent", f->percent);
		perfan__json_open(&j, "native", '[');
		for (size_t k = 0; k < f->nr_hotspots; k++) {
			const struct perfan_python_hotspot *s = &f->hotspots[k];
			perfan__json_open(&j, NULL, '{');
			perfan__json_str(&j, "name", s->name);
			perfan__json_str(&j, "module", s->module);
			perfan__json_u64(&j, "weight", s->weight);
			json_pct(&j, "percent", s->percent);
			json_pct(&j, "self_percent", s->self_percent);
			perfan__json_close(&j, '}');
		}
		perfan__json_close(&j, ']');
		perfan__json_close(&j, '}');
	}
	perfan__json_close(&j, ']');
	perfan__json_close(&j, '}');
}

static perfan__sink_fn *const formats[] = {
	[PERFAN_PYTHON_HOTSPOTS_TEXT] = write_text,
	[PERFAN_PYTHON_HOTSPOTS_JSON] = write_json,
};

static const struct perfan__sink sink = {"perfan_python_hotspots_write",
					 formats,
					 sizeof(formats) / sizeof(*formats)};

int perfan_python_hotspots_write(
	const perfan_python_hotspots *h, FILE *fp,
	const struct perfan_python_hotspots_write_opts *opts)
{
	return perfan__sink_write(&sink, h, fp, opts);
}
