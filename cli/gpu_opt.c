/* cli/gpu_opt.c: --device N of the GPU analysis (perfan gpu, perfan
 * triage of a trace). */
#include <stdint.h>
#include <stdlib.h>

#include <perfan/gpu.h>

#include "gpu_opt.h"

const char *cli_gpu_device(void *go, const char *arg)
{
	struct perfan_gpu_opts *o = go;
	char *end;
	long n = strtol(arg, &end, 10);
	if (end == arg || *end || n < 0 || n > INT32_MAX)
		return "is not a GPU's index (0, 1, ...)";
	o->one_device = 1;
	o->device = (int32_t)n;
	return NULL;
}
