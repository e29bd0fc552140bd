/* stream/stream_dso.c: what a stream frame's DSO handle tells: its files
 * and its symbols. */
#include <stdlib.h>
#include <string.h>

#include <perfan/stream.h>

#include "resolve/symbols.h"
#include "util/error.h"
#include "util/log.h"

int perfan_stream_dso(perfan_stream *s, const perfan_dso *dso,
		      struct perfan_stream_dso *out)
{
	memset(out, 0, sizeof(*out));
	if (!s || !dso)
		return perfan__err(PERFAN_EINVAL, "no stream or DSO");
	const struct perfan__dso *d = (const struct perfan__dso *)dso;
	out->path = d->path;
	out->short_name = d->short_name;
	if (d->build_id_size) {
		out->build_id = d->build_id;
		out->build_id_size = d->build_id_size;
	} else if (d->runtime && d->runtime->build_id_size) {
		out->build_id = d->runtime->build_id;
		out->build_id_size = d->runtime->build_id_size;
	}
	out->binary = d->runtime ? d->runtime->path : NULL;
	out->debug_file = d->debug ? d->debug->path : NULL;
	out->machine = d->runtime ? d->runtime->e_machine
		       : d->debug ? d->debug->e_machine
				  : 0;
	return 0;
}

const char *perfan_stream_dso_problem(perfan_stream *s, const perfan_dso *dso)
{
	if (!s || !dso)
		return NULL;
	return ((const struct perfan__dso *)dso)->why;
}

int perfan_stream_symbol(perfan_stream *s, const perfan_dso *dso, uint64_t addr,
			 struct perfan_stream_symbol *out)
{
	memset(out, 0, sizeof(*out));
	if (!s || !dso)
		return perfan__err(PERFAN_EINVAL, "no stream or DSO");
	const struct perfan__dso *d = (const struct perfan__dso *)dso;
	const struct perfan__sym *sym =
		d->has_symtab ? perfan__symtab_find(&d->symtab, addr) : NULL;
	if (!sym)
		return PERFAN_ENOTFOUND;
	struct perfan__symctx *ctx = perfan__stream_ctx(s);
	out->raw_name = sym->name;
	out->name = sym->name;
	out->start = sym->start;
	out->size = sym->end - sym->start;
	char *dm = ctx->o.no_demangle ? NULL : perfan__demangle(sym->name);
	if (dm) {
		char *kept = perfan__arena_strndup(&ctx->arena, dm, strlen(dm));
		free(dm);
		if (!kept)
			return perfan__nomem(NULL);
		out->name = kept;
	}
	return 0;
}
