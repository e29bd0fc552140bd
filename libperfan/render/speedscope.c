/* render/speedscope.c: the speedscope sink: the trie, or the kept samples
 * in time order, as speedscope's sampled profiles (one per thread root)
 * over shared frames, through the sinks' JSON writer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/pprof.h>
#include <perfan/speedscope.h>

#include "profile/model.h"
#include "render/json.h"
#include "render/speedscope_head.h"
#include "util/cmp.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/htab.h"
#include "util/log.h"
#include "util/opts.h"

#define NONE UINT32_MAX

struct writer {
	const perfan_profile *p;
	struct perfan_speedscope_write_opts o;
	struct perfan__json j;
	size_t nn;
	/* per node: its profile (group), NONE for the root and for nodes
	 * with no weight in the column */
	uint32_t *group;
	/* per frame: its index in shared.frames, NONE if unused */
	uint32_t *ssframe;
	/* shared.frames: the perfan frame each index came from */
	perfan_frame_id *frames;
	size_t nframes;
	struct perfan__htab frame_ix; /* hash of name, file, line -> index */
	/* the groups: 0 is the stacks without a process root; others a
	 * process root node each */
	perfan_node_id *gnode;
	size_t ngroups;
	uint64_t *gtotal;
	perfan_node_id *path; /* a stack, leaf first */
	size_t path_cap;
};

/* What speedscope shows as a frame's file: its source file, else its
 * module (a shared object, or a Python file). */
static const char *frame_file(const struct perfan_frame *f)
{
	return f->file ? f->file : f->module;
}

static int same_frame(const struct perfan_frame *a,
		      const struct perfan_frame *b)
{
	const char *fa = frame_file(a), *fb = frame_file(b);
	return !strcmp(a->name, b->name) && a->line == b->line &&
	       (fa == fb || (fa && fb && !strcmp(fa, fb)));
}

/* Frame ID's index in shared.frames: frames that speedscope would show
 * alike (name, file, line) are one. */
static int ss_frame(struct writer *w, perfan_frame_id id)
{
	if (w->ssframe[id] != NONE)
		return 0;
	const struct perfan_frame *f = perfan_profile_frame_get(w->p, id);
	const char *file = frame_file(f);
	uint64_t h = perfan__hash_mem(f->name, strlen(f->name)) ^
		     perfan__hash_u64(f->line + 1);
	if (file)
		h ^= perfan__hash_u64(perfan__hash_mem(file, strlen(file)));
	for (;; h++) {
		uint64_t *ix = perfan__htab_get(&w->frame_ix, h);
		if (!ix)
			break;
		if (same_frame(perfan_profile_frame_get(w->p, w->frames[*ix]),
			       f)) {
			w->ssframe[id] = (uint32_t)*ix;
			return 0;
		}
	}
	w->frames[w->nframes] = id;
	w->ssframe[id] = (uint32_t)w->nframes;
	return perfan__htab_put(&w->frame_ix, h, w->nframes++)
		       ? perfan__nomem("speedscope")
		       : 0;
}

static int is_process(const struct writer *w, perfan_node_id n)
{
	return perfan_profile_frame_get(w->p,
					perfan_profile_node_frame(w->p, n))
		       ->kind == PERFAN_FRAME_PROCESS;
}

/* The groups (group 0 first, then the process roots in the trie's
 * order), each node's group, and the frames the column's stacks use. */
static int plan(struct writer *w)
{
	const perfan_profile *p = w->p;
	size_t col = w->o.column;
	const perfan_node_id *kids;
	size_t nk = perfan_profile_node_children(p, PERFAN_ROOT_NODE, &kids);
	w->gnode = malloc((nk + 1) * sizeof(*w->gnode));
	w->gtotal = calloc(nk + 1, sizeof(*w->gtotal));
	w->group = malloc(w->nn * sizeof(*w->group));
	size_t nf = perfan_profile_nr_frames(p);
	w->ssframe = malloc((nf ? nf : 1) * sizeof(*w->ssframe));
	w->frames = malloc((nf ? nf : 1) * sizeof(*w->frames));
	if (!w->gnode || !w->gtotal || !w->group || !w->ssframe || !w->frames)
		return perfan__nomem("speedscope");
	for (size_t i = 0; i < nf; i++)
		w->ssframe[i] = NONE;
	w->gnode[0] = PERFAN_ROOT_NODE;
	w->ngroups = 1;
	for (size_t i = 0; i < nk; i++)
		w->group[kids[i]] = NONE;
	for (size_t i = 0; i < nk; i++) {
		if (!is_process(w, kids[i]) ||
		    !perfan_profile_node_total(p, kids[i], col))
			continue;
		w->group[kids[i]] = (uint32_t)w->ngroups;
		w->gnode[w->ngroups++] = kids[i];
	}
	/* a parent's id is below its children's */
	w->group[PERFAN_ROOT_NODE] = NONE;
	for (perfan_node_id n = 1; n < w->nn; n++) {
		if (!perfan_profile_node_total(p, n, col)) {
			w->group[n] = NONE;
			continue;
		}
		perfan_node_id up = perfan_profile_node_parent(p, n);
		if (up != PERFAN_ROOT_NODE) {
			w->group[n] = w->group[up];
		} else if (w->group[n] != NONE) {
			/* a process root: the profile, no frame */
			w->gtotal[w->group[n]] =
				perfan_profile_node_total(p, n, col);
			continue;
		} else {
			w->group[n] = 0;
			w->gtotal[0] = perfan__sat_add(
				w->gtotal[0],
				perfan_profile_node_total(p, n, col));
		}
		int rc = ss_frame(w, perfan_profile_node_frame(p, n));
		if (rc)
			return rc;
	}
	return 0;
}

/* One sample: the stack of node N root first, without its process root. */
static int write_stack(struct writer *w, perfan_node_id n)
{
	size_t depth = perfan_profile_node_depth(w->p, n);
	if (perfan__grow((void **)&w->path, &w->path_cap, depth,
			 sizeof(*w->path)))
		return perfan__nomem("speedscope");
	size_t k = 0;
	for (perfan_node_id x = n; x != PERFAN_ROOT_NODE;
	     x = perfan_profile_node_parent(w->p, x))
		w->path[k++] = x;
	int rooted = k && is_process(w, w->path[k - 1]) &&
		     w->group[w->path[k - 1]] != 0;
	if (rooted)
		k--;
	perfan__json_open(&w->j, NULL, '[');
	while (k--)
		perfan__json_u64(
			&w->j, NULL,
			w->ssframe[perfan_profile_node_frame(w->p, w->path[k])]);
	perfan__json_close(&w->j, ']');
	return 0;
}

/* A kept sample to sort: its time, then its index (kept order for equal
 * times). */
struct timed {
	uint64_t time;
	size_t i;
};

static int cmp_time(const void *a, const void *b)
{
	const struct timed *x = a, *y = b;
	int c = perfan__cmp_u64(x->time, y->time);
	return c ? c : perfan__cmp_u64(x->i, y->i);
}

/* Whether kept sample S goes into the file. */
static int written(const struct writer *w,
		   const struct perfan_profile_sample *s)
{
	return s->col == w->o.column && s->weight && w->group[s->leaf] != NONE;
}

/* The kept samples of the column by group, each group in time order:
 * *ORDER holds them, group G's from START[G] to START[G+1]. Returns 0
 * with *ORDER NULL when no sample has a time. */
static int by_time(struct writer *w, struct timed **order, size_t **start)
{
	*order = NULL;
	*start = NULL;
	size_t ns = perfan_profile_nr_samples(w->p), nt = 0;
	int timed = 0;
	for (size_t i = 0; i < ns; i++) {
		const struct perfan_profile_sample *s =
			perfan_profile_sample_get(w->p, i);
		if (written(w, s)) {
			nt++;
			timed |= s->meta.time != 0;
		}
	}
	if (!timed)
		return 0;
	struct timed *o = malloc(nt * sizeof(*o));
	size_t *st = calloc(w->ngroups + 1, sizeof(*st));
	size_t *fill = calloc(w->ngroups, sizeof(*fill));
	if (!o || !st || !fill) {
		free(o);
		free(st);
		free(fill);
		return perfan__nomem("speedscope");
	}
	/* a counting sort by group, then each group by time */
	for (size_t i = 0; i < ns; i++) {
		const struct perfan_profile_sample *s =
			perfan_profile_sample_get(w->p, i);
		if (written(w, s))
			st[w->group[s->leaf] + 1]++;
	}
	for (size_t g = 0; g < w->ngroups; g++)
		st[g + 1] += st[g];
	for (size_t i = 0; i < ns; i++) {
		const struct perfan_profile_sample *s =
			perfan_profile_sample_get(w->p, i);
		if (!written(w, s))
			continue;
		uint32_t g = w->group[s->leaf];
		o[st[g] + fill[g]++] = (struct timed){s->meta.time, i};
	}
	free(fill);
	for (size_t g = 0; g < w->ngroups; g++)
		qsort(o + st[g], st[g + 1] - st[g], sizeof(*o), cmp_time);
	*order = o;
	*start = st;
	return 0;
}

/* Group G's samples: its stacks depth first, in the trie's order, each
 * with its self weight (a process root's own, of stacks with no frame
 * below it, as an empty stack). PASS 0 writes the stacks, 1 the weights. */
static int walk_group(struct writer *w, uint32_t g, int pass)
{
	const perfan_profile *p = w->p;
	size_t col = w->o.column;
	/* the nodes still to visit, as a stack */
	size_t cap = 64, n = 0;
	perfan_node_id *todo = malloc(cap * sizeof(*todo));
	if (!todo)
		return perfan__nomem("speedscope");
	/* group 0 starts at the root's children, the others at their root */
	perfan_node_id one = w->gnode[g];
	const perfan_node_id *kids = &one;
	size_t nk =
		g ? 1
		  : perfan_profile_node_children(p, PERFAN_ROOT_NODE, &kids);
	int rc = 0;
	for (;;) {
		/* push the children, last first, so the first comes out
		 * first */
		if (perfan__grow((void **)&todo, &cap, n + nk, sizeof(*todo))) {
			rc = perfan__nomem("speedscope");
			break;
		}
		for (size_t i = nk; i-- > 0;)
			if (w->group[kids[i]] == g)
				todo[n++] = kids[i];
		if (!n)
			break;
		perfan_node_id x = todo[--n];
		uint64_t self = perfan_profile_node_self(p, x, col);
		if (self) {
			if (pass == 0)
				rc = write_stack(w, x);
			else
				perfan__json_u64(&w->j, NULL, self);
			if (rc)
				break;
		}
		nk = perfan_profile_node_children(p, x, &kids);
	}
	free(todo);
	return rc;
}

/* speedscope's unit for the column (perfan_pprof_unit's, where speedscope
 * has it). */
static const char *unit_of(const perfan_profile *p, size_t col)
{
	if (col >= perfan_profile_nr_columns(p))
		return "none";
	const char *u = perfan_pprof_unit(perfan_profile_column_name(p, col),
					  perfan_profile_column_unit(p, col));
	static const char *const units[] = {"bytes", "microseconds",
					    "milliseconds", "nanoseconds",
					    "seconds"};
	for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++)
		if (!strcmp(u, units[i]))
			return units[i];
	return "none";
}

/* The name of group G's profile: its process frame's, or the name of a
 * thread known by what it was started to run, "NAME-PID/TID" in BUF. */
static const char *group_name(const struct writer *w, uint32_t g, char *buf,
			      size_t n)
{
	const struct perfan_frame *f = perfan_profile_frame_get(
		w->p, perfan_profile_node_frame(w->p, w->gnode[g]));
	const struct perfan_thread_name *tn =
		f->kind == PERFAN_FRAME_PROCESS && f->pid >= 0 && f->tid >= 0
			? perfan_thread_names_find(w->o.names, f->pid, f->tid)
			: NULL;
	/* a name it set itself is its comm, which the frame shows */
	if (!tn || tn->source != PERFAN_THREAD_NAME_ENTRY || !f->comm ||
	    !tn->comm || strcmp(f->comm, tn->comm))
		return f->name;
	snprintf(buf, n, "%s-%d/%d", tn->name, (int)f->pid, (int)f->tid);
	return buf;
}

static int write_profiles(struct writer *w)
{
	struct timed *order;
	size_t *start;
	int rc = by_time(w, &order, &start);
	if (rc)
		return rc;
	const char *unit = unit_of(w->p, w->o.column);
	const char *name = w->o.name ? w->o.name : "perfan";
	perfan__json_open(&w->j, "profiles", '[');
	for (uint32_t g = 0; g < w->ngroups && !rc; g++) {
		if (!w->gtotal[g])
			continue;
		perfan__json_open(&w->j, NULL, '{');
		perfan__json_str(&w->j, "type", "sampled");
		char own[512];
		perfan__json_str(&w->j, "name",
				 g ? group_name(w, g, own, sizeof(own)) : name);
		perfan__json_str(&w->j, "unit", unit);
		perfan__json_u64(&w->j, "startValue", 0);
		perfan__json_u64(&w->j, "endValue", w->gtotal[g]);
		for (int pass = 0; pass < 2 && !rc; pass++) {
			perfan__json_open(&w->j, pass ? "weights" : "samples",
					  '[');
			if (!order) {
				rc = walk_group(w, g, pass);
			} else {
				for (size_t i = start[g];
				     i < start[g + 1] && !rc; i++) {
					const struct perfan_profile_sample *s =
						perfan_profile_sample_get(
							w->p, order[i].i);
					if (pass)
						perfan__json_u64(&w->j, NULL,
								 s->weight);
					else
						rc = write_stack(w, s->leaf);
				}
			}
			perfan__json_close(&w->j, ']');
		}
		perfan__json_close(&w->j, '}');
	}
	perfan__json_close(&w->j, ']');
	free(order);
	free(start);
	return rc;
}

static int write_file(struct writer *w)
{
	int rc = plan(w);
	if (rc)
		return rc;
	/* the heaviest profile, in the order they are written */
	int64_t active = -1, k = 0;
	uint64_t best = 0;
	for (size_t g = 0; g < w->ngroups; g++) {
		if (!w->gtotal[g])
			continue;
		if (w->gtotal[g] > best) {
			best = w->gtotal[g];
			active = k;
		}
		k++;
	}
	struct perfan__json *j = &w->j;
	perfan__speedscope_head(j, w->o.name ? w->o.name : "perfan", active);
	perfan__json_open(j, "shared", '{');
	perfan__json_open(j, "frames", '[');
	for (size_t i = 0; i < w->nframes; i++) {
		const struct perfan_frame *f =
			perfan_profile_frame_get(w->p, w->frames[i]);
		perfan__json_open(j, NULL, '{');
		perfan__json_str(j, "name", f->name);
		if (frame_file(f))
			perfan__json_str(j, "file", frame_file(f));
		if (f->line)
			perfan__json_u64(j, "line", f->line);
		perfan__json_close(j, '}');
	}
	perfan__json_close(j, ']');
	perfan__json_close(j, '}');
	rc = write_profiles(w);
	perfan__json_close(j, '}');
	fputc('\n', w->j.fp);
	return rc;
}

int perfan_speedscope_write(const perfan_profile *p, FILE *out,
			    const struct perfan_speedscope_write_opts *o)
{
	if (!p || !out)
		return perfan__err(PERFAN_EINVAL,
				   "speedscope: no profile or output");
	struct writer w;
	memset(&w, 0, sizeof(w));
	w.p = p;
	int rc = PERFAN__OPTS_COPY(w.o, o);
	if (rc)
		return rc;
	size_t ncols = perfan_profile_nr_columns(p);
	if (w.o.column >= ncols && (ncols || w.o.column))
		return perfan__err(PERFAN_EINVAL,
				   "speedscope: column %zu of %zu", w.o.column,
				   ncols);
	w.nn = perfan_profile_nr_nodes(p);
	perfan__json_init(&w.j, out, 0);
	rc = write_file(&w);
	if (!rc && (fflush(out) || ferror(out)))
		rc = perfan__err(PERFAN_EIO, "speedscope: writing failed");
	free(w.group);
	free(w.ssframe);
	free(w.frames);
	free(w.gnode);
	free(w.gtotal);
	free(w.path);
	perfan__htab_free(&w.frame_ix);
	return rc;
}
