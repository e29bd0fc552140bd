/* render/record_write.c: perfan record's plan as the shell commands it
 * runs (--dry-run). */
#include <stdio.h>
#include <string.h>

#include <perfan/record.h>

#include "util/error.h"

/* S as one shell word: bare when it holds only safe characters, else in
 * single quotes. */
static void word(FILE *fp, const char *s)
{
	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvw"
			    "xyz0123456789-_./,=+:@%") == strlen(s)) {
		fputs(s, fp);
		return;
	}
	fputc('\'', fp);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", fp);
		else
			fputc(*s, fp);
	fputc('\'', fp);
}

int perfan_record_plan_write(const perfan_record_plan *p, FILE *fp)
{
	const struct perfan_record_plan_result *r =
		perfan_record_plan_result(p);
	if (!r || !fp)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_record_plan_write: NULL argument");
	for (size_t i = 0; i < r->nr_steps; i++) {
		const struct perfan_record_step *s = &r->steps[i];
		for (size_t k = 0; s->argv[k]; k++) {
			if (k)
				fputc(' ', fp);
			word(fp, s->argv[k]);
		}
		if (s->kind == PERFAN_RECORD_STEP_CLEANUP)
			fputs(" 2>/dev/null || true", fp);
		else if (s->kind == PERFAN_RECORD_STEP_RECORD &&
			 r->duration > 0)
			fprintf(fp, "   # stopped with SIGINT after %g s",
				r->duration);
		fputc('\n', fp);
	}
	return ferror(fp) ? perfan__err(PERFAN_EIO, "write failed") : 0;
}
