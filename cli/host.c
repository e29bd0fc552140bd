/* cli/host.c: the machine the recording is read on, from the environment
 * (PERFAN_HOST_*), so that tests, and users reading a recording as if on
 * another machine, can pin what uname and /proc would say. */
#include <stdlib.h>

#include <perfan/perfan.h>

#include "cli.h"

const struct perfan_host *cli_host(void)
{
	static struct perfan_host h;
	h = (struct perfan_host){
		.sz = sizeof(h),
		.osrelease = getenv("PERFAN_HOST_OSRELEASE"),
		.hostname = getenv("PERFAN_HOST_NAME"),
		.kallsyms = getenv("PERFAN_HOST_KALLSYMS"),
		.kernel_notes = getenv("PERFAN_HOST_KERNEL_NOTES"),
	};
	return &h;
}
