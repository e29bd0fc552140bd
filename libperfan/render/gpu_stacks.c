/* render/gpu_stacks.c: the CPU stacks charged the most GPU idle time, and
 * a stack as a line of text. */
#include "render/gpu_stacks.h"

#include <stdlib.h>

#include <perfan/text.h>

static int cmp_stack(const void *a, const void *b)
{
	const struct perfan__gpu_stack *x = a, *y = b;
	if (x->w != y->w)
		return x->w < y->w ? 1 : -1;
	return x->n > y->n ? 1 : x->n < y->n ? -1 : 0;
}

size_t perfan__gpu_stacks(const perfan_profile *p, struct perfan__gpu_stack *v,
			  size_t max)
{
	size_t nn = perfan_profile_nr_nodes(p), k = 0;
	struct perfan__gpu_stack *all = malloc((nn ? nn : 1) * sizeof(*all));
	if (!all)
		return 0;
	for (perfan_node_id n = 1; n < nn; n++) {
		uint64_t w = perfan_profile_node_self(p, n, 0);
		if (w)
			all[k++] = (struct perfan__gpu_stack){n, w};
	}
	qsort(all, k, sizeof(*all), cmp_stack);
	if (k > max)
		k = max;
	for (size_t i = 0; i < k; i++)
		v[i] = all[i];
	free(all);
	return k;
}

void perfan__gpu_stack_text(FILE *fp, const perfan_profile *p, perfan_node_id n)
{
	for (int d = 0; n != PERFAN_ROOT_NODE && d < 4;
	     n = perfan_profile_node_parent(p, n), d++) {
		if (d)
			fputs(" <- ", fp);
		perfan_text_escape(fp,
				   perfan_profile_frame_get(
					   p, perfan_profile_node_frame(p, n))
					   ->name);
	}
}

void perfan__gpu_stack_rows(FILE *fp, const perfan_profile *p, size_t max)
{
	uint64_t total = perfan_profile_total(p, 0);
	struct perfan__gpu_stack v[16];
	size_t k = perfan__gpu_stacks(p, v, max < 16 ? max : 16);
	for (size_t i = 0; i < k; i++) {
		fprintf(fp, "  %9.3f ms %5.1f %%  ", (double)v[i].w / 1e6,
			total ? 100.0 * (double)v[i].w / (double)total : 0.0);
		perfan__gpu_stack_text(fp, p, v[i].n);
		fputc('\n', fp);
	}
}
