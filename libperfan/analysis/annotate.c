/* analysis/annotate.c: the annotate analysis: counts sample addresses per
 * (DSO, address) from the stream, groups them by symbol, chooses the
 * hottest or the named functions and has each annotated. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/annotate_internal.h"
#include "util/cmp.h"
#include "util/error.h"
#include "util/log.h"
#include "util/opts.h"

#define DEFAULT_TOP 5

static const char SKID_NOTE[] =
	"Sampling skid: a sample names the instruction that was about to "
	"run when the timer or counter fired, so the cost of a slow "
	"instruction (a load that missed the cache, a divide) usually shows "
	"on the one after it. Read a hot instruction with the one before "
	"it.";

int perfan_annotate_new(perfan_annotate **out, perfan_stream *s,
			const struct perfan_annotate_opts *opts)
{
	*out = NULL;
	if (!s)
		return perfan__err(PERFAN_EINVAL, "annotate: no stream");
	perfan_annotate *a = calloc(1, sizeof(*a));
	if (!a)
		return perfan__nomem(NULL);
	a->s = s;
	a->r.note = SKID_NOTE;
	int rc = PERFAN__OPTS_COPY(a->o, opts);
	if (rc) {
		free(a);
		return rc;
	}
	if (!a->o.top)
		a->o.top = DEFAULT_TOP;
	/* The caller's name and directory arrays are copied: the result
	 * must not point at them. */
	const char **names = perfan__arena_alloc(
		&a->arena, (a->o.nr_symbols + 1) * sizeof(*names));
	const char **dirs = perfan__arena_alloc(
		&a->arena, (a->o.nr_source_dirs + 1) * sizeof(*dirs));
	int bad = !names || !dirs;
	for (size_t i = 0; !bad && i < a->o.nr_symbols; i++)
		bad = !(names[i] = perfan__arena_strndup(
				&a->arena, a->o.symbols[i], SIZE_MAX));
	for (size_t i = 0; !bad && i < a->o.nr_source_dirs; i++)
		bad = !(dirs[i] = perfan__arena_strndup(
				&a->arena, a->o.source_dirs[i], SIZE_MAX));
	if (bad) {
		perfan_annotate_free(a);
		return perfan__nomem(NULL);
	}
	a->o.symbols = names;
	a->o.source_dirs = dirs;
	a->src.dirs = dirs;
	a->src.ndirs = a->o.nr_source_dirs;
	*out = a;
	return 0;
}

void perfan_annotate_free(perfan_annotate *a)
{
	if (!a)
		return;
	perfan__ahist_free(&a->hist);
	perfan__sources_free(&a->src);
	perfan__arena_free(&a->arena);
	if (a->own_stream)
		perfan_stream_free(a->s);
	free(a);
}

int perfan_annotate_feed(perfan_annotate *a,
			 const struct perfan_stream_event *ev)
{
	if (ev->type != PERFAN_STREAM_SAMPLE)
		return 0;
	/* One event, as perf annotate shows one at a time: the first with
	 * samples (select another with the stream's event filter). */
	if (!a->event)
		a->event = ev->event;
	if (ev->event != a->event) {
		a->r.other_event_samples++;
		return 0;
	}
	const struct perfan_stream_sample *s = &ev->u.sample;
	a->r.total_samples++;
	a->r.total_period += s->period;
	/* The sampled address is the leaf frame's (inlined frames above it
	 * share it). */
	const struct perfan_stream_frame *f = s->nr_frames ? &s->frames[0]
							   : NULL;
	if (!f || !f->dso) {
		a->r.unattributed_samples++;
		return 0;
	}
	if (perfan__ahist_add(&a->hist, f->dso, f->dso_addr, s->period))
		return perfan__nomem(NULL);
	return 0;
}

/* A function with samples: its symbol and where its counts are. */
struct cand {
	struct perfan_stream_symbol sym;
	uint32_t dso;
	size_t first, n; /* counts hist.c[first .. first + n) */
	uint64_t samples, period;
};

static int hotter(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;
	int c = perfan__cmp_u64(b->period, a->period); /* hottest first */
	if (!c)
		c = perfan__cmp_u64(b->samples, a->samples);
	if (!c)
		c = strcmp(a->sym.name, b->sym.name);
	return c ? c : perfan__cmp_u64(a->sym.start, b->sym.start);
}

static int more_samples(const void *x, const void *y)
{
	const struct perfan_annotate_unresolved *a = x, *b = y;
	int c = perfan__cmp_u64(b->samples, a->samples);
	return c ? c : strcmp(a->dso_path, b->dso_path);
}

/* The files with samples outside their symbols, LOST[i] of DSO i. */
static int unresolved_of(perfan_annotate *a, const uint64_t *lost)
{
	size_t n = 0;
	for (size_t i = 0; i < a->hist.ndsos; i++)
		n += lost[i] > 0;
	struct perfan_annotate_unresolved *u =
		perfan__arena_alloc(&a->arena, (n ? n : 1) * sizeof(*u));
	if (!u)
		return perfan__nomem(NULL);
	size_t k = 0;
	for (size_t i = 0; i < a->hist.ndsos; i++) {
		if (!lost[i])
			continue;
		struct perfan_stream_dso d;
		perfan_stream_dso(a->s, a->hist.dsos[i], &d);
		u[k].dso_path = d.path;
		u[k].samples = lost[i];
		u[k].found = d.binary || d.debug_file;
		u[k].why = u[k].found
				   ? NULL
				   : perfan_stream_dso_problem(a->s,
							       a->hist.dsos[i]);
		k++;
	}
	qsort(u, k, sizeof(*u), more_samples);
	a->r.unresolved = u;
	a->r.nr_unresolved = k;
	return 0;
}

/* Group the sorted counts into functions; addresses without a symbol are
 * unattributed. */
static int candidates(perfan_annotate *a, struct cand **out, size_t *nout)
{
	struct perfan__ahist *h = &a->hist;
	struct cand *v = calloc(h->n ? h->n : 1, sizeof(*v));
	if (!v)
		return perfan__nomem(NULL);
	uint64_t *lost = calloc(h->ndsos ? h->ndsos : 1, sizeof(*lost));
	if (!lost) {
		free(v);
		return perfan__nomem(NULL);
	}
	size_t n = 0;
	for (size_t i = 0; i < h->n;) {
		const struct perfan__hcount *c = &h->c[i];
		struct perfan_stream_symbol sym;
		int rc = perfan_stream_symbol(a->s, h->dsos[c->dso], c->addr,
					      &sym);
		if (rc == PERFAN_ENOMEM) {
			free(v);
			free(lost);
			return rc;
		}
		/* no symbol, or one of no size that does not hold it */
		if (rc || c->addr - sym.start >= sym.size) {
			a->r.unattributed_samples += c->samples;
			lost[c->dso] += c->samples;
			i++;
			continue;
		}
		struct cand *k = &v[n++];
		k->sym = sym;
		k->dso = c->dso;
		k->first = i;
		while (i < h->n && h->c[i].dso == c->dso &&
		       h->c[i].addr >= sym.start &&
		       h->c[i].addr - sym.start < sym.size) {
			k->samples += h->c[i].samples;
			k->period += h->c[i].period;
			i++;
		}
		k->n = i - k->first;
	}
	*out = v;
	*nout = n;
	int err = unresolved_of(a, lost);
	free(lost);
	return err;
}

static int wanted(const perfan_annotate *a, const struct cand *k,
		  unsigned char *seen)
{
	int hit = 0;
	for (size_t i = 0; i < a->o.nr_symbols; i++)
		if (!strcmp(a->o.symbols[i], k->sym.name) ||
		    !strcmp(a->o.symbols[i], k->sym.raw_name)) {
			seen[i] = 1;
			hit = 1;
		}
	return hit;
}

int perfan_annotate_finish(perfan_annotate *a)
{
	if (a->finished)
		return 0;
	a->finished = 1;
	a->r.event = a->event ? a->event->name : NULL;
	perfan__ahist_sort(&a->hist);
	struct cand *v = NULL;
	size_t n = 0;
	int err = candidates(a, &v, &n);
	if (err)
		return err;
	qsort(v, n, sizeof(*v), hotter);

	size_t ns = a->o.nr_symbols;
	unsigned char *seen = calloc(ns ? ns : 1, 1);
	struct perfan_annotate_func *fs =
		perfan__arena_alloc(&a->arena, (n ? n : 1) * sizeof(*fs));
	const char **missing = perfan__arena_alloc(
		&a->arena, (ns ? ns : 1) * sizeof(*missing));
	if (!seen || !fs || !missing) {
		free(seen);
		free(v);
		return perfan__nomem(NULL);
	}
	size_t nf = 0;
	for (size_t i = 0; i < n && !err; i++) {
		if (ns ? !wanted(a, &v[i], seen) : nf >= a->o.top)
			continue;
		struct perfan_annotate_func *f = &fs[nf++];
		f->name = v[i].sym.name;
		f->raw_name = v[i].sym.raw_name;
		f->start = v[i].sym.start;
		f->size = v[i].sym.size;
		f->samples = v[i].samples;
		f->period = v[i].period;
		f->percent = a->r.total_period
				     ? 100.0 * (double)f->period /
					       (double)a->r.total_period
				     : 0;
		err = perfan__annotate_func(a, f, a->hist.dsos[v[i].dso],
					    &a->hist.c[v[i].first], v[i].n);
	}
	for (size_t i = 0; i < ns; i++)
		if (!seen[i])
			missing[a->r.nr_missing++] = a->o.symbols[i];
	free(seen);
	free(v);
	a->r.functions = fs;
	a->r.nr_functions = nf;
	a->r.missing = missing;
	return err;
}

const struct perfan_annotate_result *
perfan_annotate_result(const perfan_annotate *a)
{
	return &a->r;
}

int perfan_annotate_perfdata(perfan_annotate **out, perfan_perfdata *pd,
			     const struct perfan_resolve_opts *ro,
			     const struct perfan_annotate_opts *opts)
{
	*out = NULL;
	struct perfan_resolve_opts r;
	int err = PERFAN__OPTS_COPY(r, ro);
	if (err)
		return err;
	if (!ro)
		r = PERFAN_RESOLVE_OPTS_INIT;
	if (opts && (opts->flags & PERFAN_ANNOTATE_NO_DEMANGLE))
		r.no_demangle = 1;
	perfan_stream *s;
	if ((err = perfan_stream_open(&s, pd, &r)))
		return err;
	perfan_annotate *a;
	if ((err = perfan_annotate_new(&a, s, opts))) {
		perfan_stream_free(s);
		return err;
	}
	a->own_stream = 1;
	const struct perfan_stream_event *ev;
	while (!(err = perfan_stream_next(s, &ev)))
		if ((err = perfan_annotate_feed(a, ev)))
			break;
	if (err == PERFAN_ENOMEM) {
		perfan_annotate_free(a);
		return err;
	}
	/* A cut or damaged recording still has the samples before the
	 * damage: annotate them, and return the error with them. */
	int read_err = err == PERFAN_ITEROVER ? 0 : err;
	char msg[512] = "";
	if (read_err)
		snprintf(msg, sizeof(msg), "%s", perfan_error_last());
	if ((err = perfan_annotate_finish(a))) {
		perfan_annotate_free(a);
		return err;
	}
	*out = a;
	if (read_err)
		return perfan__err(read_err, "%s", msg);
	return 0;
}
