/* analysis/key_averages.c: torch's key_averages() over a trace, step by step
 * as torch 1.13's profiler_util.py does it: the CPU events nested per thread
 * (_populate_cpu_children), an op merged into a parent of its name that
 * holds only it (_remove_dup_nodes), GPU work charged to the op that
 * launched it, then the events summed per key (FunctionEventAvg.add). */
#define _GNU_SOURCE /* qsort_r */
#include <perfan/keyavg.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/log.h"
#include "util/search.h"

#define NONE UINT32_MAX

struct perfan_keyavg {
	struct perfan_keyavg_result r;
	struct perfan_keyavg_row *rows;
};

/* One of torch's FunctionEvents. */
struct node {
	const struct perfan_trace_event *e;
	const char *key;
	uint32_t parent, first, next; /* the tree after merging */
	uint32_t nchildren;
	int gpu, gone;
	int64_t kernels; /* the GPU work it launched, ns */
	int64_t cuda;    /* its CUDA total */
};

struct pair {
	uint64_t id; /* an External id or correlation, >= 0 */
	uint32_t node;
};

/* Names torch leaves out of its events (_filter_name). */
static int filtered(const char *name)
{
	static const char *const names[] = {
		"[memory]",
		"[OutOfMemory]",
		"profiler::_record_function_enter",
		"profiler::_record_function_enter_new",
		"profiler::_record_function_exit",
		"aten::is_leaf",
		"aten::output_nr",
		"aten::_version",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

/* 1: a CPU event torch keeps, 2: GPU work, 0: neither (python_function
 * spans are not among torch's events). */
static int side(const struct perfan_trace_event *e)
{
	if (!e->name || filtered(e->name))
		return 0;
	switch (e->kind) {
	case PERFAN_TRACE_CPU_OP:
	case PERFAN_TRACE_USER_ANNOTATION:
	case PERFAN_TRACE_RUNTIME:
	case PERFAN_TRACE_DRIVER: return e->device < 0 ? 1 : 0;
	case PERFAN_TRACE_KERNEL:
	case PERFAN_TRACE_MEMCPY:
	case PERFAN_TRACE_MEMSET: return 2;
	default: return 0;
	}
}

/* torch's order within a thread: start, then the longer first; ties in
 * input order (Python's sort is stable). */
static int by_thread_start(const void *a, const void *b, void *nodes)
{
	const struct node *nd = nodes;
	const struct perfan_trace_event *x = nd[*(const uint32_t *)a].e,
					*y = nd[*(const uint32_t *)b].e;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	int64_t xe = x->ts + x->dur, ye = y->ts + y->dur;
	if (xe != ye)
		return xe > ye ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int by_id(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* The first pair of V with ID (ID >= 0), or NONE. */
static uint32_t find(const struct pair *v, size_t n, int64_t id)
{
	uint64_t key = (uint64_t)id;
	size_t i = key ? perfan__count_le(v, n, sizeof(*v),
					  offsetof(struct pair, id), key - 1)
		       : 0;
	return i < n && v[i].id == key ? v[i].node : NONE;
}

/* _populate_cpu_children over the nodes in ORDER (by_thread_start). */
static void nest(struct node *nd, const uint32_t *order, size_t n,
		 uint32_t *stack)
{
	size_t depth = 0;
	uint32_t thread = UINT32_MAX;
	for (size_t i = 0; i < n; i++) {
		struct node *c = &nd[order[i]];
		if (c->e->thread != thread) {
			thread = c->e->thread;
			depth = 0;
		}
		int64_t start = c->e->ts, end = c->e->ts + c->e->dur;
		while (depth) {
			struct node *p = &nd[stack[depth - 1]];
			int64_t pend = p->e->ts + p->e->dur;
			if (start >= pend || end > pend) {
				depth--;
				continue;
			}
			c->parent = stack[depth - 1];
			c->next = p->first;
			p->first = order[i];
			p->nchildren++;
			break;
		}
		stack[depth++] = order[i];
	}
}

/* _remove_dup_nodes: until none is left, an event whose parent has its
 * name and holds only it gives the parent its children and its kernels
 * and goes. */
static void merge_dups(struct node *nd, size_t n)
{
	for (int changed = 1; changed;) {
		changed = 0;
		for (size_t i = 0; i < n; i++) {
			struct node *c = &nd[i];
			if (c->gone || c->parent == NONE)
				continue;
			struct node *p = &nd[c->parent];
			if (p->e->name != c->e->name || p->nchildren != 1)
				continue;
			p->first = c->first;
			p->nchildren = c->nchildren;
			p->kernels = c->kernels;
			for (uint32_t k = c->first; k != NONE; k = nd[k].next)
				nd[k].parent = c->parent;
			c->gone = 1;
			changed = 1;
		}
	}
}

/* GPU work to the CPU op or annotation that launched it: by its External
 * id, else through its launch's correlation (torch: the kernel's linked
 * correlation id is the op's id). */
static int link_kernels(struct node *nd, size_t n)
{
	struct pair *ops = malloc((n ? n : 1) * sizeof(*ops)),
		    *launch = malloc((n ? n : 1) * sizeof(*launch));
	size_t nops = 0, nlaunch = 0;
	if (!ops || !launch) {
		free(ops);
		free(launch);
		return perfan__nomem(NULL);
	}
	for (size_t i = 0; i < n; i++) {
		const struct perfan_trace_event *e = nd[i].e;
		if (nd[i].gpu)
			continue;
		if ((e->kind == PERFAN_TRACE_CPU_OP ||
		     e->kind == PERFAN_TRACE_USER_ANNOTATION) &&
		    e->external_id >= 0)
			ops[nops++] =
				(struct pair){e->external_id, (uint32_t)i};
		if ((e->kind == PERFAN_TRACE_RUNTIME ||
		     e->kind == PERFAN_TRACE_DRIVER) &&
		    e->correlation >= 0 && e->external_id >= 0)
			launch[nlaunch++] = (struct pair){
				(uint64_t)e->correlation, (uint32_t)i};
	}
	qsort(ops, nops, sizeof(*ops), by_id);
	qsort(launch, nlaunch, sizeof(*launch), by_id);
	for (size_t i = 0; i < n; i++) {
		if (!nd[i].gpu)
			continue;
		const struct perfan_trace_event *e = nd[i].e;
		int64_t ext = e->external_id;
		if (ext < 0 && e->correlation >= 0) {
			uint32_t l = find(launch, nlaunch, e->correlation);
			if (l != NONE)
				ext = nd[l].e->external_id;
		}
		uint32_t op = ext >= 0 ? find(ops, nops, ext) : NONE;
		if (op != NONE)
			nd[op].kernels += e->dur;
	}
	free(ops);
	free(launch);
	return 0;
}

static int by_key(const void *a, const void *b)
{
	const struct perfan_keyavg_row *x = a, *y = b;
	if (x->gpu != y->gpu)
		return x->gpu - y->gpu;
	return strcmp(x->key, y->key);
}

static int by_self(const void *a, const void *b)
{
	const struct perfan_keyavg_row *x = a, *y = b;
	if (x->self_cpu != y->self_cpu)
		return x->self_cpu > y->self_cpu ? -1 : 1;
	if (x->self_cuda != y->self_cuda)
		return x->self_cuda > y->self_cuda ? -1 : 1;
	return by_key(a, b);
}

/* FunctionEventAvg.add per key, then sorted. */
static int rows_of(struct perfan_keyavg *k, const struct node *nd, size_t n)
{
	size_t m = 0;
	k->rows = calloc(n ? n : 1, sizeof(*k->rows));
	if (!k->rows)
		return perfan__nomem(NULL);
	for (size_t i = 0; i < n; i++) {
		const struct node *x = &nd[i];
		if (x->gone)
			continue;
		struct perfan_keyavg_row *r = &k->rows[m++];
		r->key = x->key;
		r->gpu = x->gpu;
		r->count = 1;
		if (x->gpu) {
			r->self_cuda = r->cuda_total = x->e->dur;
			continue;
		}
		r->cpu_total = r->self_cpu = x->e->dur;
		r->cuda_total = r->self_cuda = x->cuda;
		for (uint32_t c = x->first; c != NONE; c = nd[c].next) {
			r->self_cpu -= nd[c].e->dur;
			r->self_cuda -= nd[c].cuda;
		}
	}
	qsort(k->rows, m, sizeof(*k->rows), by_key);
	size_t out = 0;
	for (size_t i = 0; i < m; i++) {
		struct perfan_keyavg_row *r = &k->rows[i];
		if (out && !by_key(&k->rows[out - 1], r)) {
			struct perfan_keyavg_row *s = &k->rows[out - 1];
			s->count += r->count;
			s->self_cpu += r->self_cpu;
			s->cpu_total += r->cpu_total;
			s->self_cuda += r->self_cuda;
			s->cuda_total += r->cuda_total;
		} else
			k->rows[out++] = *r;
	}
	qsort(k->rows, out, sizeof(*k->rows), by_self);
	for (size_t i = 0; i < out; i++) {
		k->r.self_cpu += k->rows[i].self_cpu;
		k->r.self_cuda += k->rows[i].self_cuda;
	}
	k->r.nr_rows = out;
	k->r.rows = k->rows;
	return 0;
}

static int compute(struct perfan_keyavg *k, const struct perfan_trace_info *ti)
{
	size_t n = 0, ncpu = 0;
	struct node *nd =
		malloc((ti->nr_events ? ti->nr_events : 1) * sizeof(*nd));
	uint32_t *order = NULL, *stack = NULL;
	int rc = 0;
	if (!nd)
		return perfan__nomem(NULL);
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		int s = side(e);
		if (!s)
			continue;
		/* torch names its steps' rows with a wildcard */
		const char *key = !strncmp(e->name, "ProfilerStep#", 13)
					  ? "ProfilerStep*"
					  : e->name;
		nd[n++] = (struct node){e, key,    NONE, NONE, NONE,
					0, s == 2, 0,    0,    0};
		ncpu += s == 1;
	}
	order = malloc((ncpu ? ncpu : 1) * sizeof(*order));
	stack = malloc((ncpu ? ncpu : 1) * sizeof(*stack));
	if (!order || !stack) {
		rc = perfan__nomem(NULL);
		goto out;
	}
	for (size_t i = 0, j = 0; i < n; i++)
		if (!nd[i].gpu)
			order[j++] = (uint32_t)i;
	qsort_r(order, ncpu, sizeof(*order), by_thread_start, nd);
	if ((rc = link_kernels(nd, n)))
		goto out;
	nest(nd, order, ncpu, stack);
	merge_dups(nd, n);
	/* CUDA totals from the leaves up: a child comes after its parent */
	for (size_t i = ncpu; i-- > 0;) {
		struct node *x = &nd[order[i]];
		if (x->gone)
			continue;
		x->cuda += x->kernels;
		if (x->parent != NONE)
			nd[x->parent].cuda += x->cuda;
	}
	rc = rows_of(k, nd, n);
out:
	free(order);
	free(stack);
	free(nd);
	return rc;
}

int perfan_keyavg_new(perfan_keyavg **out, const perfan_trace *t)
{
	if (out)
		*out = NULL;
	if (!out || !t)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_keyavg_new: an argument is NULL");
	struct perfan_keyavg *k = calloc(1, sizeof(*k));
	if (!k)
		return perfan__nomem(NULL);
	int rc = compute(k, perfan_trace_info(t));
	if (rc) {
		perfan_keyavg_free(k);
		return rc;
	}
	*out = k;
	return 0;
}

void perfan_keyavg_free(perfan_keyavg *k)
{
	if (!k)
		return;
	free(k->rows);
	free(k);
}

const struct perfan_keyavg_result *perfan_keyavg_result(const perfan_keyavg *k)
{
	return k ? &k->r : NULL;
}
