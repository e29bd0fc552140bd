/* sources/registry.c: the table of input formats, the one place that knows
 * them all. A new format is one file, sources/NAME.c, defining a
 * `struct perfan__format` (name, caps, detect, load), declared in
 * sources/internal.h, plus one line in the table below; nothing else (the
 * CLI included) changes, for the callers decide by caps, not by name. */
#include "sources/internal.h"

#include <stdio.h>
#include <string.h>

#include "sources/read.h"
#include "util/error.h"
#include "util/log.h"

/* In the order detection asks: the most specific first (a perf.data has a
 * magic number, a cProfile dump is a marshal dict; py-spy's raw output is
 * folded stacks too, with frames and roots plain folded stacks never have,
 * so it is asked before them; the other text formats are told apart by one
 * classifier). */
static const struct perfan__format *const formats[] = {
	&perfan__format_perfdata,   &perfan__format_cprofile,
	&perfan__format_nsight,   /* "SQLite format 3": binary, like the two */
	&perfan__format_autograd, /* JSON: an array with "CPU functions" */
	&perfan__format_kineto,   /* JSON (gzip too): before speedscope */
	&perfan__format_speedscope, /* JSON, before the text classifier */
	&perfan__format_pyspy,    /* folded stacks too, with py-spy's frames */
	&perfan__format_bpftrace, /* "@[": before folded, which it is not */
	&perfan__format_folded,     &perfan__format_script,
};

const struct perfan__format *perfan__format_detect(const void *buf, size_t len)
{
	if (!buf || !len)
		return NULL;
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i]->detect(buf, len))
			return formats[i];
	return NULL;
}

const char *perfan_source_detect(const void *buf, size_t len)
{
	const struct perfan__format *f = perfan__format_detect(buf, len);
	return f ? f->name : NULL;
}

/* The names of the formats after perf.data, for the message on an input
 * of none: "perf script, folded, ...". */
static const char *format_list(char *list, size_t cap)
{
	list[0] = '\0';
	for (size_t i = 1; i < sizeof(formats) / sizeof(formats[0]); i++) {
		size_t n = strlen(list);
		snprintf(list + n, cap - n, "%s%s", i > 1 ? ", " : "",
			 formats[i]->name);
	}
	return list;
}

/* Text up to a NUL byte in the first bytes of S (no other control byte
 * but tab, CR and newline before it): a text input damaged there, said
 * with its line. Returns PERFAN_EFORMAT with the message, or 0. */
static int nul_in_text(const perfan_source *s)
{
	const unsigned char *b = (const unsigned char *)s->peek;
	size_t line = 1, col = 1, start = 0;
	for (size_t i = 0; i < s->npeek; i++, col++) {
		if (b[i] == '\n') {
			line++;
			col = 0;
			start = i + 1;
		} else if (!b[i]) {
			if (!i)
				return 0;
			return perfan__err_at(PERFAN_EFORMAT, s->name, start,
					      line,
					      "a NUL byte at column %zu: not a "
					      "text line",
					      col);
		} else if ((b[i] < 0x20 && b[i] != '\t' && b[i] != '\r') ||
			   b[i] == 0x7f) {
			return 0;
		}
	}
	return 0;
}

int perfan__source_read(perfan_source *s, perfan_profile *p,
			struct perfan_source_stats *stats)
{
	if (!s || !p)
		return perfan__err_null("perfan_source_load",
					s ? "profile" : "source");
	if (stats)
		memset(stats, 0, sizeof(*stats));
	if (!s->fmt) {
		char list[256];
		if (!s->npeek)
			return 0; /* empty: no samples */
		if (nul_in_text(s))
			return PERFAN_EFORMAT;
		return perfan__err(PERFAN_EFORMAT,
				   "%s: neither perf.data nor any other "
				   "format perfan reads (%s)",
				   s->name, format_list(list, sizeof(list)));
	}
	if (!s->fmt->load)
		return perfan__err(PERFAN_EINVAL,
				   "%s: a %s is read by load/ (perfan_load)",
				   s->name, s->fmt->name);
	if (s->used)
		return perfan__err(PERFAN_EINVAL, "%s was read already",
				   s->name);
	s->used = 1;
	return s->fmt->load(s, p, stats);
}

const perfan_perfdata *perfan_source_reader(const perfan_source *s)
{
	return s ? s->reader : NULL;
}

int perfan_source_load_pair(perfan_profile *p, perfan_source *before,
			    perfan_source *after, const char *before_column,
			    const char *after_column)
{
	if (!p || !before || !after)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_source_load_pair: an argument is "
				   "NULL");
	if (!before->fmt || before->fmt != after->fmt ||
	    !before->fmt->load_pair)
		return perfan__err(PERFAN_EINVAL,
				   "%s and %s are not two inputs of a format "
				   "read in pairs",
				   before->name, after->name);
	if (before->used || after->used)
		return perfan__err(PERFAN_EINVAL, "%s or %s was read already",
				   before->name, after->name);
	before->used = after->used = 1;
	return before->fmt->load_pair(p, before, after, before_column,
				      after_column);
}

int perfan_source_trace(perfan_source *s, perfan_trace **out)
{
	if (out)
		*out = NULL;
	if (!s || !out)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_source_trace: an argument is NULL");
	if (!s->fmt || !s->fmt->trace)
		return perfan__err(PERFAN_EINVAL,
				   "%s is not a trace of a GPU profiler "
				   "(torch.profiler, Nsight Systems)",
				   s->name);
	if (s->used)
		return perfan__err(PERFAN_EINVAL, "%s was read already",
				   s->name);
	s->used = 1;
	return s->fmt->trace(s, out);
}
