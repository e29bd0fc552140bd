/* sources/perfdata/record_counts.h: the record counts of a perf.data, shared by the
 * counting (sources/perfdata/record_counts.c) and its writer (render/record_counts_write.c). */
#ifndef PERFAN_ANALYSIS_RECSTATS_H
#define PERFAN_ANALYSIS_RECSTATS_H

#include <perfan/perfan.h>

#define PERFAN__RECSTATS_NTYPES 256

struct perfan_recstats {
	const perfan_perfdata *pd; /* borrowed: event names, file info */
	perfan_perfdata *owned;    /* perfan_recstats_read's reader */
	uint64_t total;
	uint64_t by_type[PERFAN__RECSTATS_NTYPES];
	uint64_t other_types; /* type >= PERFAN__RECSTATS_NTYPES */
	size_t nev;
	uint64_t *samples, *lost_samples;
	int has_aux;
};

#endif
