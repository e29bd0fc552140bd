/* render/json.c: the JSON writer the header and stats sinks share. */
#include "render/json.h"

#include <inttypes.h>
#include <math.h>

#include <perfan/text.h>

void perfan__json_init(struct perfan__json *j, FILE *fp, int pretty)
{
	j->fp = fp;
	j->pretty = pretty;
	j->depth = 0;
	j->first[0] = 1;
}

void perfan__json_item(struct perfan__json *j, const char *key)
{
	if (j->depth > 0) {
		if (j->pretty) {
			fputs(j->first[j->depth] ? "\n" : ",\n", j->fp);
			for (int i = 0; i < j->depth; i++)
				fputs("  ", j->fp);
		} else if (!j->first[j->depth]) {
			fputs(", ", j->fp);
		}
		j->first[j->depth] = 0;
	}
	if (key) {
		perfan_json_string(j->fp, key);
		fputs(": ", j->fp);
	}
}

void perfan__json_open(struct perfan__json *j, const char *key, char c)
{
	perfan__json_item(j, key);
	fputc(c, j->fp);
	if (j->depth < PERFAN__JSON_DEPTH - 1)
		j->depth++;
	j->first[j->depth] = 1;
}

void perfan__json_close(struct perfan__json *j, char c)
{
	int empty = j->first[j->depth];
	j->depth--;
	if (!empty && j->pretty) {
		fputc('\n', j->fp);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->fp);
	}
	fputc(c, j->fp);
}

void perfan__json_str(struct perfan__json *j, const char *key, const char *v)
{
	perfan__json_item(j, key);
	if (v)
		perfan_json_string(j->fp, v);
	else
		fputs("null", j->fp);
}

void perfan__json_u64(struct perfan__json *j, const char *key, uint64_t v)
{
	perfan__json_item(j, key);
	fprintf(j->fp, "%" PRIu64, v);
}

void perfan__json_i64(struct perfan__json *j, const char *key, int64_t v)
{
	perfan__json_item(j, key);
	fprintf(j->fp, "%" PRId64, v);
}

void perfan__json_bool(struct perfan__json *j, const char *key, int v)
{
	perfan__json_item(j, key);
	fputs(v ? "true" : "false", j->fp);
}

void perfan__json_strs(struct perfan__json *j, const char *key,
		       const char *const *v, size_t n)
{
	perfan__json_open(j, key, '[');
	for (size_t i = 0; i < n; i++)
		perfan__json_str(j, NULL, v[i]);
	perfan__json_close(j, ']');
}

void perfan__json_f64(struct perfan__json *j, const char *key, double v,
		      int digits)
{
	perfan__json_item(j, key);
	if (isfinite(v))
		fprintf(j->fp, "%.*f", digits, v);
	else
		fputs("null", j->fp);
}
