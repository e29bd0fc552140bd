/* analysis/amdahl.c: where Amdahl's bound holds (a CPU clock of one
 * process, wall time of one thread) and the bound itself; report, diff
 * and triage ask here. */
#include <math.h>

#include "analysis/amdahl.h"

/* Whether the stacks of column COL come from one process (THREAD 0) or
 * one thread (THREAD 1), as their process frames say; stacks under no
 * process frame, or under one known only by its name (a folded file's
 * root), say nothing either way. */
static int one_owner(const perfan_profile *p, size_t col, int thread)
{
	const perfan_node_id *kids;
	size_t n = perfan_profile_node_children(p, PERFAN_ROOT_NODE, &kids);
	int64_t seen = -2; /* none yet */
	int unknown = 0;
	for (size_t i = 0; i < n; i++) {
		if (!perfan_profile_node_total(p, kids[i], col))
			continue;
		const struct perfan_frame *f = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, kids[i]));
		if (f->kind != PERFAN_FRAME_PROCESS || !f->comm) {
			unknown = 1;
			continue;
		}
		int32_t id = thread ? f->tid : f->pid;
		if (id < 0 || (seen != -2 && seen != id))
			return 0; /* several under one comm, or two */
		seen = id;
	}
	/* wall time of threads no frame tells apart may be a sum */
	return !thread || (seen != -2 && !unknown);
}

int perfan__amdahl_holds(const perfan_profile *p, size_t col)
{
	switch (perfan_profile_column_kind(p, col)) {
	case PERFAN_COLUMN_CPU:
	case PERFAN_COLUMN_EVENT: return one_owner(p, col, 0);
	case PERFAN_COLUMN_WALL: return one_owner(p, col, 1);
	default: return 0;
	}
}

double perfan__amdahl(uint64_t w, uint64_t total)
{
	if (!total)
		return 1.0;
	if (w >= total)
		return INFINITY;
	return 1.0 / (1.0 - (double)w / (double)total);
}
