/* render/json.c: the JSON writer of every sink. */
#include "render/json.h"

#include <inttypes.h>
#include <math.h>

#include <perfan/text.h>

static int level(const struct perfan__json *j)
{
	return j->depth < PERFAN__JSON_DEPTH ? j->depth
					     : PERFAN__JSON_DEPTH - 1;
}

/* Has the container being written no item yet? */
static int first(const struct perfan__json *j)
{
	return j->first[level(j) / 8] >> (level(j) % 8) & 1;
}

static void set_bit(const struct perfan__json *j, unsigned char *bits, int v)
{
	unsigned char bit = (unsigned char)(1u << (level(j) % 8));
	if (v)
		bits[level(j) / 8] |= bit;
	else
		bits[level(j) / 8] &= (unsigned char)~bit;
}

static void set_first(struct perfan__json *j, int v)
{
	set_bit(j, j->first, v);
}

void perfan__json_init(struct perfan__json *j, FILE *fp, int pretty)
{
	j->fp = fp;
	j->pretty = pretty;
	j->depth = 0;
	j->lines = -1;
	j->tight = -1;
	j->brk = 0;
	set_first(j, 1);
}

void perfan__json_item(struct perfan__json *j, const char *key)
{
	if (j->depth > 0) {
		if (j->pretty) {
			fputs(first(j) ? "\n" : ",\n", j->fp);
			for (int i = 0; i < j->depth; i++)
				fputs("  ", j->fp);
		} else if (j->brk) {
			fputs(first(j) ? "\n" : ",\n", j->fp);
			for (int i = 1; i < j->brk; i++)
				fputc(' ', j->fp);
			j->brk = 0;
		} else if (j->depth == j->lines) {
			fputs(first(j) ? "\n  " : ",\n  ", j->fp);
		} else if (!first(j)) {
			fputs(j->depth == j->tight ? "," : ", ", j->fp);
		}
		set_first(j, 0);
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
	j->depth++;
	set_first(j, 1);
	set_bit(j, j->array, c == '[');
}

void perfan__json_open_lines(struct perfan__json *j, const char *key, char c)
{
	perfan__json_open(j, key, c);
	j->lines = j->depth;
}

void perfan__json_break(struct perfan__json *j, int indent)
{
	j->brk = indent + 1;
}

void perfan__json_open_tight(struct perfan__json *j, const char *key, char c)
{
	perfan__json_open(j, key, c);
	j->tight = j->depth;
}

void perfan__json_close(struct perfan__json *j, char c)
{
	int empty = first(j);
	if (j->depth == j->tight)
		j->tight = -1;
	if (j->depth == j->lines) {
		j->lines = -1;
		if (!empty)
			fputc('\n', j->fp);
	}
	j->depth--;
	if (!empty && j->pretty) {
		fputc('\n', j->fp);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->fp);
	}
	fputc(c, j->fp);
}

void perfan__json_end(struct perfan__json *j)
{
	while (j->depth > 0) {
		int array = j->array[level(j) / 8] >> (level(j) % 8) & 1;
		perfan__json_close(j, array ? ']' : '}');
	}
	fputc('\n', j->fp);
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

void perfan__json_g(struct perfan__json *j, const char *key, double v,
		    int digits)
{
	perfan__json_item(j, key);
	if (isnan(v))
		fputs("null", j->fp);
	else if (isinf(v))
		fputs(v > 0 ? "\"inf\"" : "\"-inf\"", j->fp);
	else
		fprintf(j->fp, "%.*g", digits, v);
}
