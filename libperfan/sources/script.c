/* sources/script.c: `perf script` text in the registry, read by
 * perfan_script_read (sources/script_text.c) with the shared options. */
#include "sources/internal.h"

#include <errno.h>
#include <string.h>

#include "util/error.h"

static int detect(const void *buf, size_t len)
{
	return perfan__input_detect(buf, len) == PERFAN__INPUT_SCRIPT;
}

static int load(perfan_source *s, perfan_profile *p,
		struct perfan_source_stats *st)
{
	FILE *fp = perfan__input_text(s);
	if (!fp)
		return PERFAN_EIO; /* named by perfan__input_text */
	struct perfan_script_opts so =
		PERFAN_OPTS_INIT(struct perfan_script_opts);
	so.pid = s->o.root == PERFAN_ROOT_PID;
	so.tid = s->o.root == PERFAN_ROOT_PID_TID;
	so.kernel = s->o.script.kernel;
	so.jit = s->o.script.jit;
	so.addrs = s->o.script.addrs;
	so.event = s->o.event;
	so.count_samples = s->o.count_samples;
	so.compat = s->o.script.compat;
	so.log = s->o.log;
	so.log_payload = s->o.log_payload;
	struct perfan_script_stats local;
	return perfan_script_read(p, fp, s->name, &so,
				  st ? &st->script : &local);
}

const struct perfan__format perfan__format_script = {
	.name = "perf script",
	.caps = PERFAN_SOURCE_EVENTS | PERFAN_SOURCE_FRAMES,
	.detect = detect,
	.load = load,
};
