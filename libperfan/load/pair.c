/* load/pair.c: two inputs as one differential profile (the columns
 * "after" and "before"), the one place it is assembled: two folded files
 * read together in bounded memory (and again whole when pruning meets
 * them out of order), any other pair each whole on its own and merged;
 * and sums of runs for commands that compare several. */
#define _GNU_SOURCE /* strdup */
#include "load/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <perfan/threads.h>

#include "util/error.h"

/* ---- two folded files ---------------------------------------------------- */

static int regular(const char *path)
{
	struct stat sb;
	return strcmp(path, "-") && !stat(path, &sb) && S_ISREG(sb.st_mode);
}

/* Open BEFORE (SRC[0]) and AFTER (SRC[1]) with L's options pruned by
 * PRUNE (RO: the resolver's, kept by the caller while they are open).
 * Returns 1 when both are of a format read in pairs, in regular files, 0
 * when not, or a negative error. */
static int open_pair(perfan_load *l, perfan_source *src[2], const char *before,
		     const char *after, double prune,
		     struct perfan_resolve_opts *ro)
{
	src[0] = src[1] = NULL;
	/* peeking at a pipe would take bytes a read alone then lacks */
	if (!regular(before) || !regular(after))
		return 0;
	perfan_load_resolve_opts(ro, &l->o);
	struct perfan_source_opts so;
	perfan__load_source_opts(&so, l, ro, prune);
	int rc = perfan_source_open(&src[0], before, &so);
	if (!rc)
		rc = perfan_source_open(&src[1], after, &so);
	if (rc)
		return rc;
	for (int i = 0; i < 2; i++)
		if (!perfan_source_size(src[i]) ||
		    !(perfan_source_caps(src[i]) & PERFAN_SOURCE_PAIRED) ||
		    perfan_source_format(src[i]) !=
			    perfan_source_format(src[1 - i]))
			return 0;
	return 1;
}

static void close_pair(perfan_source *src[2])
{
	perfan_source_free(src[0]);
	perfan_source_free(src[1]);
	src[0] = src[1] = NULL;
}

/* A new profile with the columns of a differential graph. */
static int pair_profile(perfan_profile **out)
{
	*out = NULL;
	int rc = perfan_profile_new(out, NULL);
	if (!rc && (rc = perfan_profile_add_column(*out, PERFAN_LOAD_AFTER,
						   "samples")) > 0)
		rc = 0;
	if (!rc && (rc = perfan_profile_add_column(*out, PERFAN_LOAD_BEFORE,
						   "samples")) > 0)
		rc = 0;
	if (rc) {
		perfan_profile_free(*out);
		*out = NULL;
	}
	return rc;
}

/* Both opened inputs into a new *NP. */
static int read_pair(perfan_load *l, perfan_profile **np, perfan_source *src[2])
{
	int rc = pair_profile(np);
	if (rc)
		return rc;
	char what[160];
	snprintf(what, sizeof(what), "%s and %s", perfan_source_name(src[0]),
		 perfan_source_name(src[1]));
	l->info.name = what;
	if (l->o.progress)
		l->o.progress(PERFAN_LOAD_START, what,
			      perfan_source_size(src[0]) +
				      perfan_source_size(src[1]),
			      l->o.progress_payload);
	rc = perfan_source_load_pair(*np, src[0], src[1], PERFAN_LOAD_BEFORE,
				     PERFAN_LOAD_AFTER);
	if (l->o.progress)
		l->o.progress(PERFAN_LOAD_END, what, 0, l->o.progress_payload);
	l->info.name = NULL;
	return rc;
}

/* The options that do not apply to either, as advice. */
static void opened_pair(perfan_load *l, perfan_source *src[2])
{
	for (int i = 0; i < 2; i++) {
		struct perfan_load_info in = {0};
		in.format = perfan_source_format(src[i]);
		in.caps = perfan_source_caps(src[i]);
		in.name = perfan_source_name(src[i]);
		in.size = perfan_source_size(src[i]);
		perfan__load_opened(l, &in);
	}
	l->info.format = perfan_source_format(src[1]);
	l->info.caps = perfan_source_caps(src[1]);
}

/* BEFORE and AFTER, two folded files, into a new *NP. Returns 1 when they
 * are not (nothing read), else 0 or a negative error (what was read
 * before it in *NP). */
static int folded_pair(perfan_load *l, perfan_profile **np, const char *before,
		       const char *after)
{
	perfan_source *src[2];
	struct perfan_resolve_opts ro;
	double prune = l->o.folded_prune;
	*np = NULL;
	int k = open_pair(l, src, before, after, prune, &ro), rc = 0;
	if (k > 0) {
		opened_pair(l, src);
		rc = read_pair(l, np, src);
	}
	uint64_t size = perfan_source_size(src[0]) + perfan_source_size(src[1]);
	close_pair(src);
	if (k <= 0)
		return k < 0 ? k : 1;
	if (rc != PERFAN_EUNSUPPORTED || !(prune > 0))
		return rc;
	/* pruning met a file out of order: read both whole */
	if (size >= 64 << 20)
		perfan__load_advise(
			l, PERFAN_ADVICE_WARN,
			"%s and %s are not both sorted: read again "
			"whole (sorted with LC_ALL=C sort they take "
			"less memory)",
			before, after);
	perfan_profile_free(*np);
	*np = NULL;
	k = open_pair(l, src, before, after, 0, &ro);
	rc = k < 0 ? k : k ? read_pair(l, np, src) : 0;
	close_pair(src);
	if (k == 0) /* changed under us */
		rc = perfan__err(PERFAN_EFORMAT,
				 "%s and %s are no longer folded stacks",
				 before, after);
	return rc;
}

/* ---- any other two ------------------------------------------------------- */

static void set_period_event(perfan_load *l, const perfan_load *after,
			     size_t col)
{
	const perfan_profile *p = after->p;
	if (!perfan_profile_nr_columns(p) ||
	    strcmp(perfan_profile_column_unit(p, col), "period"))
		return;
	free(l->period_event);
	l->period_event = strdup(perfan_profile_column_name(p, col));
	l->info.period_event = l->period_event;
}

/* PATHS[0] (before) and PATHS[1] (after) each whole on its own, merged
 * into a new *OUT; errors go to the advice as they happen. Returns 0 or
 * PERFAN_LOAD_ADVISED. */
static int each_whole(perfan_load **out, const char *const paths[2],
		      const struct perfan_load_opts *opts)
{
	struct perfan_load_opts one = *opts;
	one.folded_prune = 0;
	perfan_load *side[2] = {NULL, NULL};
	size_t col[2] = {0, 0};
	int status = 0, read_both = 1, rc;
	for (int i = 0; i < 2 && read_both; i++) {
		rc = perfan_load_new(&side[i], &one);
		if (!rc)
			rc = perfan_load_read(side[i], paths[i]);
		if (rc < 0 && side[i])
			perfan__load_advise(side[i], PERFAN_ADVICE_ERROR, "%s",
					    perfan_error_last());
		if (!side[i]) {
			if (one.advice)
				one.advice(PERFAN_ADVICE_ERROR,
					   perfan_error_last(),
					   one.advice_payload);
			status = PERFAN_LOAD_ADVISED;
			break;
		}
		status = rc ? PERFAN_LOAD_ADVISED : status;
		read_both &= side[i]->info.format != NULL || !status;
		col[i] = perfan_load_column(side[i], PERFAN_LOAD_BEFORE, NULL);
	}
	if (read_both && side[1]) {
		rc = perfan_load_pair_merge(out, side[0], col[0], side[1],
					    col[1]);
		if (rc) {
			perfan__load_advise(side[1], PERFAN_ADVICE_ERROR, "%s",
					    perfan_error_last());
			status = PERFAN_LOAD_ADVISED;
		} else {
			set_period_event(*out, side[1], col[1]);
		}
	}
	perfan_load_free(side[0]);
	perfan_load_free(side[1]);
	return status;
}

int perfan_load_pair(perfan_load **out, const char *before, const char *after,
		     const struct perfan_load_opts *opts, unsigned flags)
{
	if (!out || !before || !after)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_load_pair: an argument is NULL");
	*out = NULL;
	perfan_load *l;
	int rc = perfan_load_new(&l, opts);
	if (rc)
		return rc;
	perfan_profile *np = NULL;
	/* a time view reads each alone: perf.data, or the error saying so */
	rc = l->o.time_view ? 1 : folded_pair(l, &np, before, after);
	if (rc == 1) {
		struct perfan_load_opts o = l->o;
		perfan_load_free(l);
		if (flags & PERFAN_LOAD_PAIR_FOLDED_ONLY)
			return PERFAN_LOAD_NOT_PAIR;
		const char *const paths[2] = {before, after};
		return each_whole(out, paths, &o);
	}
	if (!np) {
		perfan_load_free(l);
		return rc;
	}
	/* what was read before an error too */
	perfan_profile_free(l->p);
	l->p = np;
	l->info.name = after;
	l->info.inputs = 2;
	*out = l;
	return rc;
}

/* ---- merging ---------------------------------------------------------------- */

/* SIDE's column COL into a new column NAME of P, in its unit. */
static int merge_side(perfan_profile *p, const char *name,
		      const perfan_profile *side, size_t col)
{
	int has = perfan_profile_nr_columns(side) > 0;
	const char *unit = has ? perfan_profile_column_unit(side, col)
			       : "samples";
	int c = perfan_profile_add_column(p, name, unit);
	if (c < 0)
		return c;
	return has ? perfan_profile_merge(p, (size_t)c, side, col) : 0;
}

int perfan_load_pair_merge(perfan_load **out, const perfan_load *before,
			   size_t bcol, const perfan_load *after, size_t acol)
{
	*out = NULL;
	perfan_load *l;
	struct perfan_load_opts o = before->o;
	o.keep_samples = 0;
	int rc = perfan_load_new(&l, &o);
	if (!rc)
		rc = merge_side(l->p, PERFAN_LOAD_AFTER, after->p, acol);
	if (!rc)
		rc = merge_side(l->p, PERFAN_LOAD_BEFORE, before->p, bcol);
	if (rc) {
		perfan_load_free(l);
		return rc;
	}
	l->info.name = after->info.name;
	l->info.format = after->info.format;
	l->info.caps = after->info.caps;
	l->info.inputs = 2;
	*out = l;
	return 0;
}

int perfan_load_sum(perfan_load **out, perfan_load *const *runs,
		    const size_t *cols, size_t n)
{
	*out = NULL;
	perfan_load *l;
	struct perfan_load_opts o = n ? runs[0]->o : PERFAN_LOAD_OPTS_INIT;
	o.keep_samples = 0;
	int rc = perfan_load_new(&l, &o), c = 0;
	if (!rc &&
	    (c = perfan_profile_add_column(l->p, "samples", "samples")) < 0)
		rc = c;
	for (size_t i = 0; !rc && i < n; i++)
		if (perfan_profile_nr_columns(runs[i]->p))
			rc = perfan_profile_merge(l->p, (size_t)c, runs[i]->p,
						  cols[i]);
	if (rc) {
		perfan_load_free(l);
		return rc;
	}
	*out = l;
	return 0;
}

int perfan_load_ensure_column(perfan_load *l)
{
	if (perfan_profile_nr_columns(l->p))
		return 0;
	int c = perfan_profile_add_column(l->p, "samples", "samples");
	return c < 0 ? c : 0;
}
