/* python/hotspots.c: the native functions each Python function's self time
 * was spent in (list_contains, PyObject_RichCompare, ...): the leaf of each
 * sample whose frames after its innermost Python function are all the
 * runtime's, the samples the python view counts as that function's own. */
#include <stdlib.h>
#include <string.h>

#include <perfan/python.h>

#include "python/internal.h"
#include "util/cmp.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/htab.h"
#include "util/log.h"
#include "util/opts.h"

/* One (Python function, leaf) pair and its weight. */
struct pair {
	const char *py, *pymod; /* the function's name in the views */
	const char *leaf, *leafmod;
	uint64_t w;
};

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* Functions by name, then module. */
static int cmp_fn(const char *name_a, const char *mod_a, const char *name_b,
		  const char *mod_b)
{
	int c = cmp_str(name_a, name_b);
	return c ? c : cmp_str(mod_a, mod_b);
}

/* by function, then leaf: equal pairs end up side by side */
static int cmp_pair(const void *x, const void *y)
{
	const struct pair *a = x, *b = y;
	int c = cmp_fn(a->py, a->pymod, b->py, b->pymod);
	return c ? c : cmp_fn(a->leaf, a->leafmod, b->leaf, b->leafmod);
}

/* the heaviest first, then by function */
static int cmp_func(const void *x, const void *y)
{
	const struct perfan_python_self *a = x, *b = y;
	int c = perfan__cmp_u64(b->self, a->self);
	return c ? c : cmp_fn(a->name, a->module, b->name, b->module);
}

static int cmp_spot(const void *x, const void *y)
{
	const struct perfan_python_hotspot *a = x, *b = y;
	int c = perfan__cmp_u64(b->weight, a->weight);
	return c ? c : cmp_fn(a->name, a->module, b->name, b->module);
}

/* The (Python frame, leaf frame) pairs of P's column COL into *PAIRS, their
 * weights summed. */
static int collect(const perfan_profile *p, size_t col, struct perfan__htab *t)
{
	size_t nn = perfan_profile_nr_nodes(p), cap = 0;
	perfan_frame_id *path = NULL;
	int rc = 0;
	for (perfan_node_id n = 1; n < nn && !rc; n++) {
		uint64_t w = perfan_profile_node_self(p, n, col);
		if (!w)
			continue;
		size_t depth = perfan_profile_node_depth(p, n);
		if (depth > cap &&
		    perfan__grow((void **)&path, &cap, depth, sizeof(*path))) {
			rc = perfan__nomem("python hot spots");
			break;
		}
		size_t i = depth;
		for (perfan_node_id x = n; x != PERFAN_ROOT_NODE && i;
		     x = perfan_profile_node_parent(p, x))
			path[--i] = perfan_profile_node_frame(p, x);
		size_t last_py, foreign;
		perfan__python_split(p, path, depth, &last_py, &foreign);
		if (last_py == depth || foreign < depth)
			continue; /* no Python function, or not its own time */
		uint64_t key = (uint64_t)path[last_py] << 32 | path[depth - 1];
		uint64_t *v = perfan__htab_get(t, key);
		if (v)
			*v += w;
		else if (perfan__htab_put(t, key, w))
			rc = perfan__nomem("python hot spots");
	}
	free(path);
	return rc;
}

/* The Python frame ID's name in the views, owned by H. */
static int py_name(perfan_python_hotspots *h, const struct perfan_frame *f,
		   const char **name, const char **module)
{
	char *s;
	const char *file;
	if (perfan__python_name(f, &s, &file))
		return perfan__nomem("python hot spots");
	*name = f->name;
	*module = f->module;
	if (!s)
		return 0;
	h->names[h->nnames++] = s;
	*name = s;
	if (file)
		*module = file;
	return 0;
}

/* H's functions and hot spots from the merged, sorted pairs. */
static int group(perfan_python_hotspots *h, struct pair *pr, size_t n)
{
	size_t nf = 0;
	for (size_t i = 0; i < n; i++)
		nf += !i || cmp_str(pr[i].py, pr[i - 1].py) ||
		      cmp_str(pr[i].pymod, pr[i - 1].pymod);
	h->funcs = calloc(nf ? nf : 1, sizeof(*h->funcs));
	h->spots = calloc(n ? n : 1, sizeof(*h->spots));
	if (!h->funcs || !h->spots)
		return perfan__nomem("python hot spots");
	double total = (double)(h->total ? h->total : 1);
	double floor = h->o.percent_limit;
	size_t ns = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		uint64_t self = 0;
		for (; j < n && !cmp_str(pr[j].py, pr[i].py) &&
		       !cmp_str(pr[j].pymod, pr[i].pymod);
		     j++)
			self += pr[j].w;
		struct perfan_python_self *f = &h->funcs[h->nfuncs];
		f->name = pr[i].py;
		f->module = pr[i].pymod;
		f->self = self;
		f->percent = 100.0 * (double)self / total;
		if (f->percent < floor) {
			i = j;
			continue;
		}
		struct perfan_python_hotspot *s = &h->spots[ns];
		f->hotspots = s;
		for (; i < j; i++) {
			double pct = 100.0 * (double)pr[i].w / total;
			if (pct < floor)
				continue;
			s[f->nr_hotspots++] = (struct perfan_python_hotspot){
				.name = pr[i].leaf,
				.module = pr[i].leafmod,
				.weight = pr[i].w,
				.percent = pct,
				.self_percent =
					100.0 * (double)pr[i].w / (double)self,
			};
		}
		qsort(s, f->nr_hotspots, sizeof(*s), cmp_spot);
		ns += f->nr_hotspots;
		h->nfuncs++;
	}
	qsort(h->funcs, h->nfuncs, sizeof(*h->funcs), cmp_func);
	if (h->o.limit && h->nfuncs > h->o.limit)
		h->nfuncs = h->o.limit;
	return 0;
}

/* The table's pairs, named and merged by name. */
static int pairs(perfan_python_hotspots *h, const struct perfan__htab *t)
{
	struct pair *pr = calloc(t->n ? t->n : 1, sizeof(*pr));
	h->names = calloc(t->n ? t->n : 1, sizeof(*h->names));
	int rc = pr && h->names ? 0 : perfan__nomem("python hot spots");
	size_t n = 0, pos = 0;
	uint64_t key, w;
	while (!rc && perfan__htab_next(t, &pos, &key, &w)) {
		const struct perfan_frame *py = perfan_profile_frame_get(
			h->p, (perfan_frame_id)(key >> 32));
		const struct perfan_frame *leaf = perfan_profile_frame_get(
			h->p, (perfan_frame_id)(key & 0xffffffffu));
		struct pair *x = &pr[n++];
		rc = py_name(h, py, &x->py, &x->pymod);
		if (leaf == py) { /* the sample's leaf is the trampoline */
			x->leaf = x->py;
			x->leafmod = x->pymod;
		} else {
			x->leaf = leaf->name;
			x->leafmod = leaf->module;
		}
		x->w = w;
	}
	if (!rc) {
		qsort(pr, n, sizeof(*pr), cmp_pair);
		size_t m = 0;
		for (size_t i = 0; i < n; i++) {
			if (m && !cmp_pair(&pr[m - 1], &pr[i]))
				pr[m - 1].w += pr[i].w;
			else
				pr[m++] = pr[i];
		}
		rc = group(h, pr, m);
	}
	free(pr);
	return rc;
}

int perfan_python_hotspots_new(perfan_python_hotspots **out,
			       const perfan_profile *p,
			       const struct perfan_python_hotspots_opts *opts)
{
	if (!out || !p)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_python_hotspots_new: NULL argument");
	*out = NULL;
	perfan_python_hotspots *h = calloc(1, sizeof(*h));
	if (!h)
		return perfan__nomem("python hot spots");
	h->p = p;
	int rc = PERFAN__OPTS_COPY(h->o, opts);
	if (rc) {
		free(h);
		return rc;
	}
	size_t col = h->o.column;
	if (col >= perfan_profile_nr_columns(p) &&
	    (col || perfan_profile_nr_columns(p))) {
		free(h);
		return perfan__err(PERFAN_EINVAL,
				   "perfan_python_hotspots_new: no column %zu",
				   col);
	}
	h->total = perfan_profile_nr_columns(p)
			   ? perfan_profile_total(p, h->o.column)
			   : 0;
	struct perfan__htab t = {0};
	rc = perfan_profile_nr_columns(p) ? collect(p, h->o.column, &t) : 0;
	if (!rc)
		rc = pairs(h, &t);
	perfan__htab_free(&t);
	if (rc) {
		perfan_python_hotspots_free(h);
		return rc;
	}
	*out = h;
	return 0;
}

void perfan_python_hotspots_free(perfan_python_hotspots *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->nnames; i++)
		free(h->names[i]);
	free(h->names);
	free(h->funcs);
	free(h->spots);
	free(h);
}

uint64_t perfan_python_hotspots_total(const perfan_python_hotspots *h)
{
	return h ? h->total : 0;
}

size_t perfan_python_hotspots_nr_functions(const perfan_python_hotspots *h)
{
	return h ? h->nfuncs : 0;
}

const struct perfan_python_self *
perfan_python_hotspots_function(const perfan_python_hotspots *h, size_t i)
{
	return h && i < h->nfuncs ? &h->funcs[i] : NULL;
}
