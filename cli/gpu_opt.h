/* cli/gpu_opt.h: the options of the GPU analysis that perfan gpu and
 * perfan triage of a trace share (cli/gpu_opt.c). */
#ifndef PERFAN_CLI_GPU_OPT_H
#define PERFAN_CLI_GPU_OPT_H

/* --device N into the struct perfan_gpu_opts GO: NULL, or why ARG is no
 * GPU's index. */
const char *cli_gpu_device(void *go, const char *arg);

#endif
