/* analysis/leaf_state.h: the off-CPU state an off-CPU leaf frame names
 * ("[off-cpu: STATE]", perfan/offcpu.h), for the sinks and analyses that
 * read time profiles. */
#ifndef PERFAN_ANALYSIS_LEAF_STATE_H
#define PERFAN_ANALYSIS_LEAF_STATE_H

/* The enum perfan_offcpu_state NAME names, or -1. */
int perfan__offcpu_leaf_state(const char *name);

#endif
