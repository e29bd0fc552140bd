/* sources/folded_pipe.h: a pruned folded read on two threads
 * (sources/folded_pipe.c). */
#ifndef PERFAN_PROFILE_FOLDED_PIPE_H
#define PERFAN_PROFILE_FOLDED_PIPE_H

#include "sources/folded_reader.h"
#include "util/lines.h"

/* The lines of L (keep mode) into R (with its pruning tree): another
 * thread reads them and interns their frames, this one builds the tree.
 * What R holds afterwards is what perfan__freader_lines leaves. Returns
 * as that does, or 1 when no thread could be started (nothing was read:
 * read on this thread). */
int perfan__folded_pipe(struct perfan__freader *r, struct perfan__lines *l);

#endif
