/* analysis/classify_gil.c: a software verdict read again with a
 * recording's GIL ledger (perfan/gil.h): a Python process whose computing
 * threads wait mostly for the GIL is GIL-bound, not cpu-bound: the issue's
 * threads at "0.91 of 2 CPUs" take turns on one lock. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/classify.h>
#include <perfan/gil.h>

#include "analysis/classify_internal.h"
#include "util/error.h"
#include "util/log.h"

/* A thread is GIL-bound past both: its GIL wait against its off-CPU time
 * and against its life. */
#define GIL_OF_OFF 0.5
#define GIL_OF_LIFE 0.2
#define SRC_GIL                                                                \
	"the GIL ledger (perfan gil): take_gil in the switch-out stacks, or "  \
	"its perf probe events"

/* T's off-CPU time in G's summary. */
static uint64_t off_cpu(const struct perfan_gil_result *g,
			const struct perfan_gil_thread *t)
{
	const struct perfan_offcpu_summary *s = g->offcpu;
	for (size_t i = 0; s && i < s->nr_threads; i++) {
		const struct perfan_offcpu_thread *o = &s->threads[i];
		if (o->pid != t->pid || o->tid != t->tid)
			continue;
		uint64_t off = 0;
		for (int st = 0; st < PERFAN_OFFCPU_NR_STATES; st++)
			off += o->off[st];
		return off;
	}
	return 0;
}

static int gil_bound(const struct perfan_gil_result *g,
		     const struct perfan_gil_thread *t)
{
	uint64_t life = t->end > t->start ? t->end - t->start : 0;
	return t->wait && t->wait > GIL_OF_OFF * (double)off_cpu(g, t) &&
	       t->wait > GIL_OF_LIFE * (double)life;
}

static int software(int verdict)
{
	return verdict == PERFAN_VERDICT_CPU_BOUND ||
	       verdict == PERFAN_VERDICT_MOSTLY_WAITING ||
	       verdict == PERFAN_VERDICT_MIXED;
}

/* Append to *BUF (of *LEN) the text FMT makes; its offset, or -1. */
static long put(char **buf, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static long put(char **buf, size_t *len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *b = n < 0 ? NULL : realloc(*buf, *len + (size_t)n + 1);
	if (!b)
		return -1;
	va_start(ap, fmt);
	vsnprintf(b + *len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	long at = (long)*len;
	*buf = b;
	*len += (size_t)n + 1;
	return at;
}

/* Group G's verdict made GIL-bound by the ledger's threads BOUND[0..NB):
 * its evidence, reason and next step. */
static int make_gil_bound(struct cl_group *cg,
			  const struct perfan_gil_result *g,
			  const size_t *bound, size_t nb, double share)
{
	size_t nev = cg->pub.nr_evidence + nb;
	struct perfan_classify_evidence *ev =
		realloc(cg->ev, nev * sizeof(*ev));
	if (!ev)
		return perfan__nomem("classify");
	cg->ev = ev;
	char *buf = NULL;
	size_t len = 0;
	long *at = calloc(nb + 1, sizeof(*at));
	if (!at)
		return perfan__nomem("classify");
	for (size_t k = 0; k < nb; k++) {
		const struct perfan_gil_thread *t = &g->threads[bound[k]];
		at[k] = put(&buf, &len,
			    "%s %d/%d waited %.1f ms for the GIL: %.0f %% of "
			    "its %.1f ms off CPU",
			    t->name   ? t->name
			    : t->comm ? t->comm
				      : "?",
			    (int)t->pid, (int)t->tid, (double)t->wait / 1e6,
			    100.0 * (double)t->wait /
				    (double)(off_cpu(g, t) ? off_cpu(g, t) : 1),
			    (double)off_cpu(g, t) / 1e6);
		if (at[k] < 0)
			break;
	}
	at[nb] = put(&buf, &len,
		     "the threads that compute wait for CPython's GIL: %zu "
		     "of them, with %.0f %% of the on-CPU time, each waited "
		     "for it over half its off-CPU time and over 20 %% of its "
		     "life; the process runs one thread at a time%s%s",
		     nb, 100 * share,
		     cg->pub.reason && *cg->pub.reason ? "; " : "",
		     cg->pub.reason ? cg->pub.reason : "");
	for (size_t k = 0; k <= nb; k++)
		if (at[k] < 0) {
			free(at);
			free(buf);
			return perfan__nomem("classify");
		}
	free(cg->strings);
	cg->strings = buf;
	for (size_t k = 0; k < nb; k++) {
		const struct perfan_gil_thread *t = &g->threads[bound[k]];
		uint64_t life = t->end > t->start ? t->end - t->start : 1;
		cg->ev[cg->pub.nr_evidence++] =
			(struct perfan_classify_evidence){"gil_wait_of_life",
							  (double)t->wait /
								  (double)life,
							  ">",
							  GIL_OF_LIFE,
							  buf + at[k],
							  SRC_GIL};
	}
	free(cg->reason);
	cg->reason = NULL;
	cg->pub.reason = buf + at[nb];
	cg->pub.evidence = cg->ev;
	cg->pub.verdict = PERFAN_VERDICT_GIL_BOUND;
	cg->pub.confidence = 0.8;
	cg->pub.next =
		"find who holds the GIL: perfan gil perf.data (who held it "
		"while each thread waited, the blame flame graph with -o "
		"blame.svg); move the CPU-bound work to processes "
		"(multiprocessing, concurrent.futures.ProcessPoolExecutor), "
		"to native code that releases the GIL, or to a free-threaded "
		"CPython (3.13t)";
	free(at);
	return 0;
}

int perfan_classify_gil(perfan_classify *c, const struct perfan_gil_result *g)
{
	if (!c || !g)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_classify_gil: NULL argument");
	size_t *bound =
		calloc(g->nr_threads ? g->nr_threads : 1, sizeof(*bound));
	if (!bound)
		return perfan__nomem("classify");
	/* the ledger's threads are those of the processes with GIL waits:
	 * the GIL-bound ones' share of their on-CPU time decides */
	size_t nb = 0;
	uint64_t on = 0, on_bound = 0;
	for (size_t i = 0; i < g->nr_threads; i++) {
		const struct perfan_gil_thread *t = &g->threads[i];
		on += t->on_cpu;
		if (gil_bound(g, t)) {
			bound[nb++] = i;
			on_bound += t->on_cpu;
		}
	}
	double share = on ? (double)on_bound / (double)on : 0;
	int rc = 0;
	for (size_t i = 0; nb && share >= 0.5 && !rc && i < c->n; i++) {
		struct cl_group *cg = &c->g[i];
		if (cg->pub.whole && software(cg->pub.verdict))
			rc = make_gil_bound(cg, g, bound, nb, share);
	}
	free(bound);
	return rc;
}
