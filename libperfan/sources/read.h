/* sources/read.h: how load/ reads an opened source: a format read by its
 * own reader into a profile, or a perf.data's reader with the resolver's
 * options the source was opened with (load/ runs the fold: the registry
 * does not call the resolver, which comes after it). */
#ifndef PERFAN_SOURCES_READ_H
#define PERFAN_SOURCES_READ_H

#include <perfan/resolve.h>
#include <perfan/source.h>

/* S into P as its format's reader reads it (PERFAN_EINVAL for a format of
 * records, perf.data, which has none), with perfan_source_load's checks:
 * an input of no format, one read already. */
int perfan__source_read(perfan_source *s, perfan_profile *p,
			struct perfan_source_stats *stats);

/* S's perf.data reader from its first byte (S's log and threads), which S
 * keeps (perfan_source_reader: do not free it), and in *RO the resolver's
 * options S was opened with (its resolve options, its root, weight, event
 * and log over them); S counts as read. Returns 0, PERFAN_EINVAL for
 * another format or a second read, or the reader's error. */
int perfan__source_records(perfan_source *s, perfan_perfdata **pd,
			   struct perfan_resolve_opts *ro);

/* Keep S's input, a perf.data stream, in a temporary file as it is read,
 * so that perfan__source_reopen can read it again (a file-mode one is
 * kept whatever is asked: its reader needs it whole). */
void perfan__source_keep(perfan_source *s);

/* Whether S's input can be read again (perfan__source_reopen): a regular
 * file, or a stream kept as it was read. */
int perfan__source_rereadable(const perfan_source *s);

/* A new source *OUT over S's input from its first byte, with OPTS, not
 * opened again: a regular file (or the temporary file a file-mode perf.data
 * from a stream was kept in) through a copy of its descriptor. Returns 0,
 * PERFAN_EUNSUPPORTED for a stream, which is read once, or an error. */
int perfan__source_reopen(perfan_source **out, const perfan_source *s,
			  const struct perfan_source_opts *opts);

#endif
