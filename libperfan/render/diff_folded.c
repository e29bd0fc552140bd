/* render/diff_folded.c: two profiles written as difffolded.pl's
 * three-column folded lines, "STACK BEFORE AFTER": each side written as
 * folded text, then the two sorted texts merged. */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/diff.h>
#include <perfan/folded.h>

#include "util/error.h"
#include "util/log.h"

struct side {
	char *buf;
	size_t len, pos;
	const char *line, *count; /* current line and where its count starts */
	size_t stack_len;
	unsigned long long n;
};

static int fold(const perfan_profile *p, size_t col, struct side *s)
{
	memset(s, 0, sizeof(*s));
	FILE *fp = open_memstream(&s->buf, &s->len);
	if (!fp)
		return perfan__nomem("diff");
	struct perfan_folded_write_opts o =
		PERFAN_OPTS_INIT(struct perfan_folded_write_opts);
	o.column = col;
	o.annotate = PERFAN_FOLDED_KERNEL | PERFAN_FOLDED_JIT |
		     PERFAN_FOLDED_INLINED;
	int rc = perfan_profile_nr_columns(p) ? perfan_folded_write(p, fp, &o)
					      : 0;
	fclose(fp);
	return rc;
}

/* Step to the next line; 0 at the end. */
static int next(struct side *s)
{
	if (s->pos >= s->len)
		return 0;
	const char *l = s->buf + s->pos;
	const char *nl = memchr(l, '\n', s->len - s->pos);
	size_t n = nl ? (size_t)(nl - l) : s->len - s->pos;
	s->pos += n + 1;
	const char *sp = l + n;
	while (sp > l && sp[-1] != ' ')
		sp--;
	s->line = l;
	s->stack_len = sp > l ? (size_t)(sp - l) - 1 : 0;
	s->n = strtoull(sp, NULL, 10);
	return 1;
}

static void put_scaled(FILE *fp, unsigned long long n, double scale,
		       int absolute)
{
	if (absolute || scale == 1) {
		fprintf(fp, "%llu", n);
		return;
	}
	char buf[64];
	snprintf(buf, sizeof(buf), "%.6f", (double)n * scale);
	size_t l = strlen(buf);
	while (l && buf[l - 1] == '0')
		buf[--l] = '\0';
	if (l && buf[l - 1] == '.')
		buf[--l] = '\0';
	fputs(buf, fp);
}

int perfan_diff_write_folded(const perfan_profile *before, size_t before_column,
			     const perfan_profile *after, size_t after_column,
			     int absolute, FILE *fp)
{
	if (!before || !after || !fp)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_diff_write_folded: NULL argument");
	struct side b, a;
	int rc = fold(before, before_column, &b);
	if (!rc)
		rc = fold(after, after_column, &a);
	else
		memset(&a, 0, sizeof(a));
	if (rc) {
		free(b.buf);
		free(a.buf);
		return rc;
	}
	uint64_t tb = perfan_profile_nr_columns(before)
			      ? perfan_profile_total(before, before_column)
			      : 0;
	uint64_t ta = perfan_profile_nr_columns(after)
			      ? perfan_profile_total(after, after_column)
			      : 0;
	double scale = tb ? (double)ta / (double)tb : 1;
	int hb = next(&b), ha = next(&a);
	while (hb || ha) {
		int c;
		if (!hb)
			c = 1;
		else if (!ha)
			c = -1;
		else {
			size_t m = b.stack_len < a.stack_len ? b.stack_len
							     : a.stack_len;
			c = memcmp(b.line, a.line, m);
			if (!c)
				c = b.stack_len < a.stack_len   ? -1
				    : b.stack_len > a.stack_len ? 1
								: 0;
		}
		const struct side *s = c <= 0 ? &b : &a;
		fwrite(s->line, 1, s->stack_len, fp);
		fputc(' ', fp);
		put_scaled(fp, c <= 0 ? b.n : 0, scale, absolute);
		fprintf(fp, " %llu\n", c >= 0 ? a.n : 0ull);
		if (c <= 0)
			hb = next(&b);
		if (c >= 0)
			ha = next(&a);
	}
	free(b.buf);
	free(a.buf);
	if (fflush(fp) || ferror(fp))
		return perfan__err(PERFAN_EIO, "diff: writing failed");
	return 0;
}
