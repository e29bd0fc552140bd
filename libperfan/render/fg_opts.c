/* render/fg_opts.c: a flame graph's options with their defaults, and its
 * width, as the layout and the SVG writer both read them. */
#include <string.h>

#include <perfan/flamegraph.h>

#include "render/internal.h"

void perfan__fg_opts(struct perfan_flamegraph_opts *o,
		     const struct perfan_flamegraph_opts *opts)
{
	*o = PERFAN_FG_OPTS_INIT;
	if (opts) {
		size_t n = opts->sz < sizeof(*o) ? opts->sz : sizeof(*o);
		memcpy(o, opts, n);
		o->sz = sizeof(*o);
	}
	if (!(o->fontsize > 0))
		o->fontsize = 12;
	if (!(o->frame_height > 0))
		o->frame_height = 16;
	if (!o->fonttype || !*o->fonttype)
		o->fonttype = "Verdana";
	if (!o->nametype)
		o->nametype = "Function:";
	if (!(o->noise_floor > 0))
		o->noise_floor = 0;
	if (!(o->noise_sigmas > 0))
		o->noise_sigmas = 0;
}

double perfan__fg_width(const struct perfan_flamegraph_opts *o)
{
	return o->width > 0 ? o->width : 1200;
}
