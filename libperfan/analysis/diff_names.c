/* analysis/diff_names.c: the functions of a diff by name, an open
 * addressing table that the diff (diff.c) fills and its Amdahl
 * attribution (diff_amdahl.c) reads. */
#include <stdlib.h>
#include <string.h>

#include "analysis/diff_internal.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/log.h"

static int grow_table(perfan_diff *d)
{
	size_t n = d->nslots ? d->nslots * 2 : 1024;
	uint32_t *s = calloc(n, sizeof(*s));
	if (!s)
		return perfan__nomem("diff");
	for (size_t i = 0; i < d->nf; i++) {
		size_t h = perfan__hash_mem(d->fname[i], strlen(d->fname[i]));
		for (h &= n - 1; s[h]; h = (h + 1) & (n - 1))
			;
		s[h] = (uint32_t)i + 1;
	}
	free(d->slot);
	d->slot = s;
	d->nslots = n;
	return 0;
}

int perfan__diff_function(perfan_diff *d, const char *name, uint32_t *out)
{
	if ((d->nf + 1) * 2 > d->nslots && grow_table(d))
		return PERFAN_ENOMEM;
	size_t mask = d->nslots - 1;
	size_t h = perfan__hash_mem(name, strlen(name)) & mask;
	for (; d->slot[h]; h = (h + 1) & mask)
		if (!strcmp(d->fname[d->slot[h] - 1], name)) {
			*out = d->slot[h] - 1;
			return 0;
		}
	if (d->nf == d->fcap && perfan__grow((void **)&d->fname, &d->fcap,
					     d->nf + 1, sizeof(*d->fname)))
		return perfan__nomem("diff");
	d->fname[d->nf] = name;
	d->slot[h] = (uint32_t)++d->nf;
	*out = (uint32_t)d->nf - 1;
	return 0;
}

int perfan__diff_lookup(const perfan_diff *d, const char *name, uint32_t *out)
{
	if (!d->nslots)
		return -1;
	size_t mask = d->nslots - 1;
	for (size_t h = perfan__hash_mem(name, strlen(name)) & mask; d->slot[h];
	     h = (h + 1) & mask)
		if (!strcmp(d->fname[d->slot[h] - 1], name)) {
			*out = d->slot[h] - 1;
			return 0;
		}
	return -1;
}
