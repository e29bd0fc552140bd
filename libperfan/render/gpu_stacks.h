/* render/gpu_stacks.h: the CPU stacks charged the most GPU idle time
 * (perfan_gpu_profile), for the GPU analysis' and the triage's sinks. */
#ifndef PERFAN_RENDER_GPU_STACKS_H
#define PERFAN_RENDER_GPU_STACKS_H

#include <stdio.h>

#include <perfan/profile.h>

struct perfan__gpu_stack {
	perfan_node_id n; /* the stack's leaf */
	uint64_t w;       /* its self weight in column 0 (ns) */
};

/* The MAX stacks of P's column 0 with the most self weight, heaviest
 * first (ties: the earlier node), into V; how many. 0 when out of
 * memory. */
size_t perfan__gpu_stacks(const perfan_profile *p, struct perfan__gpu_stack *v,
			  size_t max);

/* Node N's stack as text, leaf first, " <- " between, four frames at
 * most. */
void perfan__gpu_stack_text(FILE *fp, const perfan_profile *p,
			    perfan_node_id n);

/* The MAX stacks perfan__gpu_stacks gives, a line each: ms, share of the
 * column's total, the stack. */
void perfan__gpu_stack_rows(FILE *fp, const perfan_profile *p, size_t max);

#endif
