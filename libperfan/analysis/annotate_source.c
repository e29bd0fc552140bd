/* analysis/annotate_source.c: the text of source lines, each file read
 * once, looked for under the given directories and then where DWARF says
 * it was compiled. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/annotate_internal.h"
#include "util/grow.h"

/* Files larger than this are not shown (a generated file, a mistake). */
#define MAX_SOURCE (64u << 20)

struct perfan__srcfile {
	struct perfan__srcfile *next;
	char *name; /* as asked for */
	char *text; /* the whole file, lines NUL-terminated in place */
	char **lines;
	size_t nlines;
};

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (perfan__grow((void **)&buf, &cap, n + 65536 + 1, 1))
			break;
		size_t got = fread(buf + n, 1, cap - n - 1, fp);
		n += got;
		if (got == 0 || n > MAX_SOURCE)
			break;
	}
	int bad = ferror(fp) || n > MAX_SOURCE || !buf;
	fclose(fp);
	if (bad) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	*len = n;
	return buf;
}

static char *find(const struct perfan__sources *s, const char *file,
		  size_t *len)
{
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	for (size_t i = 0; i < s->ndirs; i++) {
		const char *cand[2] = {file, base};
		for (int k = 0; k < 2; k++) {
			size_t n = strlen(s->dirs[i]) + strlen(cand[k]) + 2;
			char *p = malloc(n);
			if (!p)
				return NULL;
			snprintf(p, n, "%s%s%s", s->dirs[i],
				 cand[k][0] == '/' ? "" : "/", cand[k]);
			char *t = slurp(p, len);
			free(p);
			if (t)
				return t;
		}
	}
	return slurp(file, len);
}

static struct perfan__srcfile *load(struct perfan__sources *s, const char *file)
{
	struct perfan__srcfile *f = calloc(1, sizeof(*f));
	if (!f || !(f->name = strdup(file))) {
		free(f);
		return NULL;
	}
	size_t len = 0, cap = 0;
	f->text = find(s, file, &len);
	for (char *p = f->text; p && p < f->text + len;) {
		if (perfan__grow((void **)&f->lines, &cap, f->nlines + 1,
				 sizeof(*f->lines)))
			break;
		f->lines[f->nlines++] = p;
		char *nl = memchr(p, '\n', (size_t)(f->text + len - p));
		if (!nl)
			break;
		*nl = 0;
		if (nl > p && nl[-1] == '\r')
			nl[-1] = 0;
		p = nl + 1;
	}
	f->next = s->files;
	s->files = f;
	return f;
}

const char *perfan__source_line(struct perfan__sources *s, const char *file,
				uint32_t line)
{
	if (!file || !line)
		return NULL;
	struct perfan__srcfile *f = s->files;
	while (f && strcmp(f->name, file))
		f = f->next;
	if (!f && !(f = load(s, file)))
		return NULL;
	return line <= f->nlines ? f->lines[line - 1] : NULL;
}

void perfan__sources_free(struct perfan__sources *s)
{
	struct perfan__srcfile *f = s->files;
	while (f) {
		struct perfan__srcfile *n = f->next;
		free(f->name);
		free(f->text);
		free(f->lines);
		free(f);
		f = n;
	}
	s->files = NULL;
}
