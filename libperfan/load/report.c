/* load/report.c: perfan_load_report, the report of what a load read with
 * what its writer shows beside the rows: the per-thread table of a time
 * view, the native functions under each Python function's self time, the
 * resolver's figures of a perf.data; an input without samples said as
 * advice. */
#include "load/internal.h"

#include <stdlib.h>

#include <perfan/gil.h>
#include <perfan/python.h>
#include <perfan/report.h>
#include <perfan/threads.h>

#include "util/error.h"
#include "util/log.h"

struct perfan_load_report {
	const perfan_load *l;
	perfan_report *r;
	perfan_threads *threads;
	perfan_python_hotspots **detail; /* NULL: no native detail asked */
	size_t nr_detail;
	/* the GIL ledger beside a time view with GIL waits, and the load
	 * that read it */
	perfan_gil *gil;
	perfan_load *gil_load;
};

void perfan_load_report_free(perfan_load_report *lr)
{
	if (!lr)
		return;
	for (size_t i = 0; i < lr->nr_detail; i++)
		perfan_python_hotspots_free(lr->detail[i]);
	free(lr->detail);
	perfan_threads_free(lr->threads);
	perfan_gil_free(lr->gil);
	perfan_load_free(lr->gil_load);
	perfan_report_free(lr->r);
	free(lr);
}

/* The C functions of each Python function's self time: a hotspots table
 * per column with weight of NATIVE (the profile before the Python view),
 * rows as OPTS limit them. */
static int native_detail(perfan_load_report *lr, const perfan_profile *native,
			 const struct perfan_report_opts *opts)
{
	struct perfan_python_hotspots_opts ho =
		PERFAN_OPTS_INIT(struct perfan_python_hotspots_opts);
	ho.limit = opts->limit;
	ho.percent_limit = opts->percent_limit;
	size_t n = perfan_profile_nr_columns(native);
	lr->detail = calloc(n ? n : 1, sizeof(*lr->detail));
	if (!lr->detail)
		return perfan__nomem("report");
	for (size_t c = 0; c < n; c++) {
		if (!perfan_profile_total(native, c))
			continue;
		ho.column = c;
		int rc = perfan_python_hotspots_new(&lr->detail[lr->nr_detail],
						    native, &ho);
		if (rc)
			return rc;
		lr->nr_detail++;
	}
	return 0;
}

int perfan_load_report_new(perfan_load_report **out, perfan_load *l,
			   const struct perfan_report_opts *opts,
			   unsigned flags)
{
	if (!out || !l)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_load_report_new: an argument is "
				   "NULL");
	*out = NULL;
	perfan_load_report *lr = calloc(1, sizeof(*lr));
	if (!lr)
		return perfan__nomem("report");
	lr->l = l;
	const char *name = l->info.name;
	const perfan_profile *native = l->native ? l->native : l->p;
	int have_samples = 0;
	for (size_t c = 0; c < perfan_profile_nr_columns(l->p); c++)
		have_samples |= perfan_profile_total(l->p, c) != 0;
	if (!have_samples && !l->read_rc)
		perfan__load_advise(l, PERFAN_ADVICE_WARN, "no samples in %s",
				    name);
	int detail = flags & PERFAN_LOAD_REPORT_NATIVE_DETAIL;
	if (detail && !perfan_python_present(native))
		perfan__load_advise(l, PERFAN_ADVICE_WARN,
				    "--native-detail: %s has no Python "
				    "function (python 3.12+ -X perf)",
				    name);
	int rc = perfan_report_new(&lr->r, l->p, opts);
	if (!rc && l->offcpu) {
		struct perfan_threads_opts to = PERFAN_THREADS_OPTS_INIT;
		to.skip_idle = 1;
		to.names = l->names;
		to.all = !!(flags & PERFAN_LOAD_REPORT_ALL_THREADS);
		to.sort = l->o.thread_sort;
		rc = perfan_threads_new(&lr->threads,
					l->waits ? l->waits : l->p,
					perfan_offcpu_summary(l->offcpu), &to);
		if (!rc)
			rc = perfan__load_gil_beside(&lr->gil, &lr->gil_load,
						     l);
	}
	if (!rc && detail)
		rc = native_detail(lr, native, opts);
	if (rc) {
		perfan_load_report_free(lr);
		return rc;
	}
	*out = lr;
	return 0;
}

const perfan_report *perfan_load_report_rows(const perfan_load_report *lr)
{
	return lr ? lr->r : NULL;
}

void perfan_load_report_write_opts(const perfan_load_report *lr,
				   struct perfan_report_write_opts *wo)
{
	const struct perfan_load_info *in = &lr->l->info;
	wo->name = in->name;
	wo->stats = in->caps & PERFAN_SOURCE_RECORDS ? &in->resolve : NULL;
	wo->threads = lr->threads;
	wo->gil = lr->gil ? perfan_gil_result(lr->gil) : NULL;
	wo->wall = lr->l->o.time_view == PERFAN_VIEW_WALL;
	wo->native_detail =
		(const struct perfan_python_hotspots *const *)lr->detail;
	wo->nr_native_detail = lr->nr_detail;
}
