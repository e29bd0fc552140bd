/* resolve/buildid.c: the build-ids a recording names, as the resolver's
 * files look them up (a path's recorded build-id, and its hex). */
#include <string.h>

#include "resolve/symbols.h"
#include "util/hash.h"
#include "util/hex.h"
#include "util/htab.h"

const char *perfan__buildid_hex(const uint8_t *id, size_t size, char *buf)
{
	return perfan__hex_bytes(id, size > 20 ? 20 : size, buf);
}

const struct perfan__buildid *
perfan__recorded_buildid(struct perfan__symctx *ctx, const char *path,
			 int kernel)
{
	uint64_t h = perfan__hash_bytes(path, strlen(path), 0);
	uint64_t *v = perfan__htab_get(&ctx->bid_by_path, h);
	if (!v)
		return NULL;
	const struct perfan__buildid *b = &ctx->bids[*v];
	if (!strcmp(b->path, path) && b->kernel == kernel)
		return b;
	/* A hash collision or the same name in the other space: look at
	 * them all (rare). */
	for (size_t i = 0; i < ctx->nbids; i++)
		if (ctx->bids[i].kernel == kernel &&
		    !strcmp(ctx->bids[i].path, path))
			return &ctx->bids[i];
	return NULL;
}
