/* sources/perfdata/ahead.h: the records a reader thread read ahead that
 * the caller has not taken yet (pipeline.c), for work a consumer starts on
 * them early. */
#ifndef PERFAN_PERFDATA_AHEAD_H
#define PERFAN_PERFDATA_AHEAD_H

#include <stddef.h>

#include <perfan/perfdata.h>
#include <perfan/records.h>

/* The records after the one perfan_perfdata_next gave last that are kept
 * in the same batch, decoded (now, on the caller's thread, where the
 * reader did not), into *RECS: valid while the count returned is not 0 and
 * until the perfan_perfdata_next after the last of them. 0 when nothing is
 * read ahead (one thread, a stream) or the batch is done (or its next
 * record does not decode: perfan_perfdata_next says so in its place): the
 * next perfan_perfdata_next reuses its memory. */
size_t perfan__perfdata_ahead(perfan_perfdata *pd,
			      const struct perfan_record **recs);
/* The threads PD was opened to use (perfan_perfdata_opts' threads): its
 * reader is the second; a consumer's own worker is a third. */
int perfan__perfdata_threads(const perfan_perfdata *pd);

#endif
