/* cli/cmd_gpu.c: perfan gpu: the CPU/GPU split of a GPU profiler's trace
 * per step, why the GPU waited, and the CPU code that starved it. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <perfan/perfan.h>

#include "analysis.h"
#include "args.h"
#include "cli.h"
#include "gpu_opt.h"

#define CMD "gpu"

/* --folded: the CPU stacks charged, as folded lines */
#define GPU_FOLDED 2

static const char head[] =
	"usage: perfan gpu [--step REGEX] [--device N] [--json] [--hta-compat]\n"
	"                  [-o FILE] TRACE\n"
	"       perfan gpu --key-averages [--json] [-o FILE] TRACE\n"
	"\n"
	"The CPU/GPU split of a GPU profiler's TRACE (torch.profiler's Kineto\n"
	"JSON, .json.gz; the autograd profiler's; an Nsight Systems SQLite\n"
	"export) per step (ProfilerStep#N; none: the whole trace) and GPU:\n"
	"the step's verdict in one line (CPU-bound, GPU-bound, sync-bound,\n"
	"communication-bound), GPU busy and idle time (compute, communication,\n"
	"copies and sets), the idle gaps by why the GPU waited (host wait: the\n"
	"next work was launched after the GPU went idle; kernel wait: queued,\n"
	"a gap under the threshold; sync wait: the host was in a sync when\n"
	"the GPU went idle; other),\n"
	"the longest gaps, launch delays and the launch queue, the launching\n"
	"threads' CPU time, each stream; then the whole trace as HTA breaks it\n"
	"down, and the CPU stacks the host-wait time is charged to (what the\n"
	"launching thread did from the gap's start to the next launch). With\n"
	"-o FILE.svg, a flame graph of GPU idle time by CPU stack. With\n"
	"--key-averages, torch's own table instead, as torch computes it.\n"
	"\n";

struct opts {
	struct perfan_load_opts load;
	struct perfan_gpu_opts go;
	int format, keyavg;
	const char *out;
};

static const char *set_kernel_wait(void *ns, const char *arg)
{
	char *end;
	double us = strtod(arg, &end);
	if (end == arg || *end || !(us > 0) || us > 1e9)
		return "is not a time in us above 0";
	*(int64_t *)ns = (int64_t)(us * 1e3 + 0.5);
	return NULL;
}

static const struct cli_opt options[] = {
	CLI_STRING("step", "REGEX", go.step,
		   "the steps: annotations this extended regular\n"
		   "expression matches (default ^ProfilerStep#[0-9]+)"),
	CLI_CALL("device", "N", go, cli_gpu_device, "only GPU N"),
	CLI_FLAG("hta-compat", go.hta_compat,
		 "as HTA: times rounded to us (start up, end\n"
		 "down), the last ProfilerStep left out, a 30 us\n"
		 "kernel-wait threshold, no sync-wait class"),
	CLI_CALL("kernel-wait", "US", go.kernel_wait, set_kernel_wait,
		 "gaps shorter than US with the next work already\n"
		 "queued are kernel waits (default 10; 30 with\n"
		 "--hta-compat)"),
	CLI_FLAG_VALUE("json", format, PERFAN_GPU_JSON,
		       "print a JSON object instead"),
	CLI_FLAG_VALUE("folded", format, GPU_FOLDED,
		       "print the GPU idle time by CPU stack as\n"
		       "folded lines (ns) instead"),
	CLI_FLAG("key-averages", keyavg,
		 "print torch's key_averages() table instead: per\n"
		 "op, self CPU, CPU total, self CUDA, CUDA total"),
	CLI_TABLE(cli_threads_table, load),
	CLI_OUTPUT(out),
	CLI_END,
};

static int gpu_run(void **out, perfan_load *l, const char *path,
		   const void *opts)
{
	perfan_gpu *r = NULL;
	int rc = perfan_load_gpu(&r, l, path, opts);
	*out = r;
	return rc;
}

static int gpu_write(const void *r, FILE *fp, int format)
{
	if (format == GPU_FOLDED) {
		struct perfan_folded_write_opts fo = {sizeof(fo), 0, 0, 0};
		return perfan_folded_write(perfan_gpu_profile(r), fp, &fo);
	}
	struct perfan_gpu_write_opts wo = {sizeof(wo), format};
	return perfan_gpu_write(r, fp, &wo);
}

static void gpu_free(void *r)
{
	perfan_gpu_free(r);
}

static const perfan_profile *idle_profile(const void *r)
{
	return perfan_gpu_profile(r);
}

static const struct cli_analysis analysis = {
	.cmd = CMD,
	.run = gpu_run,
	.write = gpu_write,
	.free = gpu_free,
	.profile = idle_profile,
	.title = "GPU idle time by CPU stack"};

CLI_ANALYSIS_FNS(keyavg)

static const struct cli_analysis keyavg_analysis = {.cmd = CMD,
						    .run = keyavg_run,
						    .write = keyavg_write,
						    .free = keyavg_free};

int cmd_gpu(int argc, char **argv)
{
	struct opts o = {.go = PERFAN_OPTS_INIT(struct perfan_gpu_opts)};
	cli_args_init(&o.load, CMD);
	int status = cli_opt_parse(argc, argv, options, &o, head, CMD, 0);
	if (status >= 0)
		return status;
	if (optind != argc - 1)
		return cli_opt_error(CMD, options, head, "%s",
				     optind >= argc ? "no trace"
						    : "one trace only");
	const char *path = argv[argc - 1];
	if (cli_output_guard(CMD, o.out, &path, 1))
		return 1;
	if (o.keyavg && o.format == GPU_FOLDED)
		return cli_opt_error(CMD, options, head, "%s",
				     "--key-averages prints no folded lines");
	return cli_analysis_run(o.keyavg ? &keyavg_analysis : &analysis,
				&o.load, path, &o.go, o.format, o.out);
}
