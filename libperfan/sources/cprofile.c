/* sources/cprofile.c: cProfile/profile dumps in the registry: their call
 * tables (perfan_source_pstats), or the flame graph estimate built from
 * their call edges (sources/pstats_profile.c) as their profile. */
#include "sources/internal.h"

#include <errno.h>
#include <string.h>

#include "sources/pstats_internal.h"
#include "util/error.h"

static int detect(const void *buf, size_t len)
{
	return perfan_pstats_detect(buf, len);
}

static int read_dump(perfan_source *s, perfan_pstats **out)
{
	*out = NULL;
	FILE *fp = perfan__input_text(s);
	if (!fp)
		return PERFAN_EIO; /* named by perfan__input_text */
	struct perfan_pstats_opts o =
		PERFAN_OPTS_INIT(struct perfan_pstats_opts);
	o.name = s->name;
	return perfan__pstats_read_fp(out, fp, s->name, &o);
}

static int load(perfan_source *s, perfan_profile *p,
		struct perfan_source_stats *st)
{
	(void)st;
	perfan_pstats *dump;
	perfan_profile *est = NULL;
	int rc = read_dump(s, &dump);
	if (!rc)
		rc = perfan_pstats_profile(dump, &est);
	perfan_pstats_free(dump);
	if (rc)
		return rc;
	int col = perfan_profile_add_column(p,
					    perfan_profile_column_name(est, 0),
					    perfan_profile_column_unit(est, 0));
	rc = col < 0 ? col : perfan_profile_merge(p, (size_t)col, est, 0);
	perfan_profile_free(est);
	return rc;
}

int perfan_source_pstats(perfan_source *s, perfan_pstats **out)
{
	if (!out)
		return perfan__err_null(__func__, "OUT");
	*out = NULL;
	if (!s || !s->fmt || !(s->fmt->caps & PERFAN_SOURCE_CALLS))
		return perfan__err(PERFAN_EINVAL, "%s: not a cProfile dump",
				   s ? s->name : "(null)");
	if (s->used)
		return perfan__err(PERFAN_EINVAL, "%s was read already",
				   s->name);
	s->used = 1;
	return read_dump(s, out);
}

const struct perfan__format perfan__format_cprofile = {
	.name = "cProfile",
	.caps = PERFAN_SOURCE_CALLS | PERFAN_SOURCE_ESTIMATED,
	.detect = detect,
	.load = load,
};
