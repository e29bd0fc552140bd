/* sources/folded.c: folded stacks ("a;b;c 12") in the registry, one file
 * or two read together for a differential profile (sources/folded_read.c). */
#include "sources/internal.h"

#include <errno.h>
#include <string.h>

#include <perfan/folded.h>

#include "util/error.h"

static int detect(const void *buf, size_t len)
{
	return perfan__input_detect(buf, len) == PERFAN__INPUT_FOLDED;
}

static struct perfan_folded_read_opts read_opts(const perfan_source *s)
{
	struct perfan_folded_read_opts fo =
		PERFAN_OPTS_INIT(struct perfan_folded_read_opts);
	fo.process_root = s->o.folded.process_root;
	fo.annotations = s->o.folded.annotations;
	fo.before_column = s->o.folded.before_column;
	fo.prune = s->o.folded.prune;
	fo.threads = s->o.threads;
	return fo;
}

static int load(perfan_source *s, perfan_profile *p,
		struct perfan_source_stats *st)
{
	(void)st;
	FILE *fp = perfan__input_text(s);
	if (!fp)
		return PERFAN_EIO;
	struct perfan_folded_read_opts fo = read_opts(s);
	return perfan_folded_read(p, fp, s->name, "samples", &fo);
}

static int load_pair(perfan_profile *p, perfan_source *before,
		     perfan_source *after, const char *before_column,
		     const char *after_column)
{
	FILE *fb = perfan__input_text(before),
	     *fa = fb ? perfan__input_text(after) : NULL;
	if (!fa)
		return PERFAN_EIO;
	struct perfan_folded_read_opts fo = read_opts(before);
	fo.before_column = NULL; /* each line has one count */
	return perfan_folded_read_pair(p, fb, before->name, fa, after->name,
				       before_column, after_column, &fo);
}

const struct perfan__format perfan__format_folded = {
	.name = "folded",
	.caps = PERFAN_SOURCE_COUNTED | PERFAN_SOURCE_PAIRED |
		PERFAN_SOURCE_PRUNED,
	.detect = detect,
	.load = load,
	.load_pair = load_pair,
};
