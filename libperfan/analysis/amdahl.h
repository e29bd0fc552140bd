/* analysis/amdahl.h: where Amdahl's bound 1 / (1 - p) means something:
 * the time of one process or thread, never counts of an event or time
 * summed over threads that ran side by side. */
#ifndef PERFAN_ANALYSIS_AMDAHL_H
#define PERFAN_ANALYSIS_AMDAHL_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/profile.h>

/* Whether the share of a function in column COL of P bounds how much
 * sooner the work is done without it: a CPU clock (or an event not said,
 * as a folded file's samples) of one process, or wall time of one thread.
 * Never counts of another event (a tracepoint, page faults), off-CPU time
 * alone, wall time of several threads, or CPU time of several processes. */
int perfan__amdahl_holds(const perfan_profile *p, size_t col);

/* 1 / (1 - W / TOTAL): 1 for no TOTAL, infinity for W >= TOTAL. */
double perfan__amdahl(uint64_t w, uint64_t total);

#endif
