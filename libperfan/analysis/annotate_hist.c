/* analysis/annotate_hist.c: sample counts and periods per (DSO, address),
 * the histogram annotate reads functions from. */
#include <stdlib.h>

#include "analysis/annotate_internal.h"
#include "util/cmp.h"
#include "util/grow.h"

static int dso_index(struct perfan__ahist *h, const perfan_dso *dso,
		     size_t *out)
{
	uint64_t key = (uint64_t)(uintptr_t)dso;
	uint64_t *v = perfan__htab_get(&h->dso_idx, key);
	if (v) {
		*out = (size_t)*v;
		return 0;
	}
	if (perfan__grow((void **)&h->dsos, &h->capdsos, h->ndsos + 1,
			 sizeof(*h->dsos)) ||
	    perfan__grow((void **)&h->at, &h->capat, h->ndsos + 1,
			 sizeof(*h->at)) ||
	    perfan__htab_put(&h->dso_idx, key, h->ndsos))
		return PERFAN_ENOMEM;
	h->dsos[h->ndsos] = dso;
	h->at[h->ndsos] = (struct perfan__htab){0};
	*out = h->ndsos++;
	return 0;
}

int perfan__ahist_add(struct perfan__ahist *h, const perfan_dso *dso,
		      uint64_t addr, uint64_t period)
{
	size_t di;
	if (dso_index(h, dso, &di))
		return PERFAN_ENOMEM;
	uint64_t *v = perfan__htab_get(&h->at[di], addr);
	if (!v) {
		if (perfan__grow((void **)&h->c, &h->cap, h->n + 1,
				 sizeof(*h->c)) ||
		    perfan__htab_put(&h->at[di], addr, h->n))
			return PERFAN_ENOMEM;
		h->c[h->n] = (struct perfan__hcount){addr, (uint32_t)di, 0, 0};
		v = perfan__htab_get(&h->at[di], addr);
		*v = h->n++;
	}
	struct perfan__hcount *c = &h->c[*v];
	c->samples++;
	c->period += period;
	return 0;
}

static int by_dso_addr(const void *a, const void *b)
{
	const struct perfan__hcount *x = a, *y = b;
	int c = perfan__cmp_u64(x->dso, y->dso);
	return c ? c : perfan__cmp_u64(x->addr, y->addr);
}

void perfan__ahist_sort(struct perfan__ahist *h)
{
	for (size_t i = 0; i < h->ndsos; i++)
		perfan__htab_free(&h->at[i]);
	if (h->n)
		qsort(h->c, h->n, sizeof(*h->c), by_dso_addr);
}

void perfan__ahist_free(struct perfan__ahist *h)
{
	for (size_t i = 0; i < h->ndsos; i++)
		perfan__htab_free(&h->at[i]);
	free(h->at);
	free(h->dsos);
	perfan__htab_free(&h->dso_idx);
	free(h->c);
}
