/* sources/perfdata/record_counts.c: counting a perf.data's records per type and its
 * samples and lost samples per event, as `perf report --stats` does. */
#include "sources/perfdata/record_counts.h"

#include <stdlib.h>
#include <string.h>

#include "sources/perfdata/open_path.h"
#include "util/error.h"
#include "util/log.h"

static int grow(struct perfan_recstats *c, size_t nev)
{
	if (nev <= c->nev)
		return 0;
	uint64_t *s = realloc(c->samples, nev * sizeof(*s));
	if (!s)
		return -1;
	c->samples = s;
	uint64_t *l = realloc(c->lost_samples, nev * sizeof(*l));
	if (!l)
		return -1;
	c->lost_samples = l;
	memset(c->samples + c->nev, 0, (nev - c->nev) * sizeof(*s));
	memset(c->lost_samples + c->nev, 0, (nev - c->nev) * sizeof(*l));
	c->nev = nev;
	return 0;
}

static int count(perfan_perfdata *pd, struct perfan_recstats *c)
{
	const struct perfan_record *r;
	int rc;
	while ((rc = perfan_perfdata_next(pd, &r)) == 0) {
		c->total++;
		if (r->type < PERFAN__RECSTATS_NTYPES)
			c->by_type[r->type]++;
		else
			c->other_types++;
		if (!r->event)
			continue;
		if (r->type != PERFAN_REC_SAMPLE &&
		    r->type != PERFAN_REC_LOST_SAMPLES)
			continue;
		if (grow(c, perfan_perfdata_nr_events(pd)))
			return perfan__nomem(NULL);
		if (r->type == PERFAN_REC_SAMPLE)
			c->samples[r->event->index]++;
		else
			c->lost_samples[r->event->index] +=
				r->u.lost_samples.lost;
	}
	return rc == PERFAN_ITEROVER ? 0 : rc;
}

int perfan_recstats_new(perfan_recstats **out, perfan_perfdata *pd)
{
	if (!out || !pd)
		return perfan__err_null(__func__, out ? "reader" : "out");
	struct perfan_recstats *c = calloc(1, sizeof(*c));
	*out = c;
	if (!c)
		return perfan__nomem(NULL);
	c->pd = pd;
	int rc = count(pd, c);
	/* every event, also those without samples (the JSON lists them) */
	if (grow(c, perfan_perfdata_nr_events(pd)) && !rc)
		rc = perfan__nomem(NULL);
	c->has_aux = perfan_features_has(perfan_perfdata_features(pd),
					 PERFAN_FEAT_AUXTRACE);
	return rc;
}

void perfan_recstats_free(perfan_recstats *rs)
{
	if (!rs)
		return;
	free(rs->samples);
	free(rs->lost_samples);
	perfan_perfdata_free(rs->owned);
	free(rs);
}

int perfan_recstats_read(perfan_recstats **out, const char *path,
			 const struct perfan_header_read_opts *opts)
{
	if (!out)
		return perfan__err_null(__func__, "out");
	*out = NULL;
	perfan_perfdata *pd;
	int rc = perfan__perfdata_open_path(&pd, path, opts, 1, __func__);
	if (rc)
		return rc;
	rc = perfan_recstats_new(out, pd);
	if (*out)
		(*out)->owned = pd;
	else
		perfan_perfdata_free(pd);
	return rc;
}
