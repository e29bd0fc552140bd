/* perfan/keyavg.h: torch.profiler's own table, key_averages(), from a trace
 * (perfan/trace.h), computed as torch computes it (its
 * torch/autograd/profiler_util.py, 1.13): per op name, the calls, self CPU
 * time and CPU total, self CUDA time and CUDA total. What the table misses
 * is said by its writer: overlapping streams are counted twice, and the
 * time the GPU stood idle is in no row. */
#ifndef PERFAN_KEYAVG_H
#define PERFAN_KEYAVG_H

#include <stdint.h>
#include <stdio.h>

#include <perfan/common.h>
#include <perfan/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One row: the events of one key (their name; "ProfilerStep#N" as
 * "ProfilerStep*") on one side. Times in ns. */
struct perfan_keyavg_row {
	const char *key; /* owned by the trace */
	int gpu;         /* 0: CPU events (ops, annotations, runtime calls);
			    1: GPU work (kernels, copies, sets) */
	uint64_t count;
	/* a CPU event: its duration, less its direct children's (the spans
	 * of its thread it holds, torch's cpu_children, after torch's
	 * merging of an op into a parent of the same name that holds only
	 * it); GPU work: 0 */
	int64_t self_cpu, cpu_total;
	/* a CPU event: the GPU work it launched (linked by External id, or
	 * through its launch's correlation), and in Kineto traces its
	 * children's CUDA total (torch 1.13 for events not is_legacy, which
	 * the trace does not say); self: less its children's. GPU work: its
	 * duration */
	int64_t self_cuda, cuda_total;
};

struct perfan_keyavg_result {
	/* sorted by self CPU time, then self CUDA time (both descending),
	 * then key */
	size_t nr_rows;
	const struct perfan_keyavg_row *rows;
	/* torch's "Self CPU time total" and "Self CUDA time total": the
	 * sums of the rows' self times */
	int64_t self_cpu, self_cuda;
};

typedef struct perfan_keyavg perfan_keyavg;

/* Since 0.2. Torch's key_averages() of T into *OUT (freed with
 * perfan_keyavg_free; it borrows T's strings: free it first). Returns 0 or
 * PERFAN_EINVAL / PERFAN_ENOMEM (*OUT NULL then). */
PERFAN_API int perfan_keyavg_new(perfan_keyavg **out, const perfan_trace *t);
PERFAN_API void perfan_keyavg_free(perfan_keyavg *k);
PERFAN_API const struct perfan_keyavg_result *
perfan_keyavg_result(const perfan_keyavg *k);

enum perfan_keyavg_format {
	PERFAN_KEYAVG_TEXT = 0,
	PERFAN_KEYAVG_JSON = 1,
};

struct perfan_keyavg_write_opts {
	size_t sz;
	int format; /* enum perfan_keyavg_format */
};

/* Since 0.2. Write the table: text as torch's table() prints it (Name,
 * Self CPU %, Self CPU, CPU total %, CPU total, CPU time avg, and the CUDA
 * columns when there is GPU time, # of Calls; then the totals and a note
 * on what the table misses), or JSON ({"key_averages": {"unit" ("ns"), "self_cpu_time_total", "self_cuda_time_total", "rows": [{"key", "gpu",
 * "count", "self_cpu_time_total", "cpu_time_total", "self_cuda_time_total",
 * "cuda_time_total"}]}}, times in ns). Returns 0, PERFAN_EINVAL or
 * PERFAN_EIO. */
PERFAN_API int perfan_keyavg_write(const perfan_keyavg *k, FILE *fp,
				   const struct perfan_keyavg_write_opts *opts);

#ifdef __cplusplus
}
#endif

#endif
