/* analysis/gpu_charge.c: a gap of the GPU charged to the CPU code that
 * caused it: what the thread that launched the work after the gap did from
 * the gap's start to that launch, by the stack of its innermost span at
 * each moment (its python_function chain where the trace has one, else
 * the cpu_op's `Call stack`, else the nesting of its ops); the rest of the
 * gap to the launch call's own stack. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gpu_internal.h"
#include "analysis/torch_frame.h"
#include "trace/nest.h"
#include "trace/root.h"
#include "util/grow.h"
#include "util/log.h"

struct chg {
	perfan_gpu *g;
	uint32_t thread;
	perfan_frame_id *f;
	size_t n, cap;
	/* F[0..REAL) ends with the frame the time is charged to as a
	 * function: not a user_annotation or "[no op]"; 1 (the root): none */
	size_t real;
	struct perfan__htab *leaf;
};

/* How many spans of thread T start at or before TM. */
static size_t count_le(const perfan_gpu *g, uint32_t t, int64_t tm)
{
	const uint32_t *v = g->by_thread[t];
	size_t lo = 0, hi = g->nr_by_thread[t];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (g->ts[v[mid]] <= tm)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The innermost span of thread T holding moment TM, of which K spans
 * start at or before TM (count_le), or GPU_NONE: the last to start before
 * it, or the first of its enclosing spans to end after it. */
static uint32_t innermost(const perfan_gpu *g, uint32_t t, size_t k, int64_t tm)
{
	uint32_t x = k ? g->by_thread[t][k - 1] : GPU_NONE;
	while (x != GPU_NONE && g->end[x] <= tm)
		x = g->parent[x];
	return x;
}

static int push(struct chg *c, const char *name, size_t len, uint32_t kind)
{
	if (perfan__grow((void **)&c->f, &c->cap, c->n + 1, sizeof(*c->f)))
		return perfan__nomem("gpu");
	/* a name the trace holds (interned, or an entry of an interned Call
	 * stack, which ends where its pointer says): its frame found by the
	 * pointer and kind before by its text */
	uint64_t key = (uint64_t)(uintptr_t)name ^ ((uint64_t)kind << 58);
	uint64_t *id = perfan__htab_get(&c->g->frames, key);
	if (id) {
		c->f[c->n++] = (perfan_frame_id)*id;
		return 0;
	}
	char buf[4096];
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, name, len);
	buf[len] = 0;
	int rc = perfan_profile_frame(c->g->profile, &c->f[c->n], buf, NULL,
				      NULL, 0, kind);
	if (!rc && perfan__htab_put(&c->g->frames, key, c->f[c->n]))
		rc = perfan__nomem("gpu");
	c->n++;
	return rc;
}

static int root(struct chg *c)
{
	perfan_gpu *g = c->g;
	const struct perfan_trace_thread *th = &g->ti->threads[c->thread];
	c->n = 0;
	if (perfan__grow((void **)&c->f, &c->cap, 1, sizeof(*c->f)))
		return perfan__nomem("gpu");
	if (g->roots[c->thread] == GPU_NONE) {
		int rc = perfan__trace_root(g->profile, th, PERFAN_ROOT_PID_TID,
					    &g->roots[c->thread]);
		if (rc)
			return rc;
	}
	c->f[c->n++] = g->roots[c->thread];
	return 0;
}

/* The stack of span X (GPU_NONE: none) after the root, torch's own
 * profiler frames and what they called left out (the time is the caller's:
 * it entered the profiler), and C->REAL. */
static int stack_of(struct chg *c, uint32_t x)
{
	const perfan_gpu *g = c->g;
	const struct perfan_trace_event *ev = g->ti->events;
	uint32_t chain[512];
	size_t n = 0, py = 0;
	const char *cs = NULL;
	for (uint32_t y = x; y != GPU_NONE && n < 512; y = g->parent[y]) {
		chain[n++] = y;
		py += ev[y].kind == PERFAN_TRACE_PYTHON_FUNCTION;
		if (!cs && ev[y].kind == PERFAN_TRACE_CPU_OP)
			cs = ev[y].call_stack;
	}
	int rc = 0;
	c->real = 1;
	if (!n)
		return push(c, "[no op]", 7, PERFAN_FRAME_NATIVE);
	if (py) {
		for (size_t k = n; k-- > 0 && !rc;) {
			const char *name = ev[chain[k]].name;
			if (ev[chain[k]].kind != PERFAN_TRACE_PYTHON_FUNCTION)
				continue;
			if (perfan__torch_profiler_frame(name, strlen(name)))
				break;
			rc = push(c, name, strlen(name), PERFAN_FRAME_PYTHON);
			c->real = c->n;
		}
		return rc;
	}
	if (cs && *cs) {
		/* innermost first, ';' between */
		const char *end = cs + strlen(cs);
		while (end > cs && !rc) {
			const char *p = end;
			while (p > cs && p[-1] != ';')
				p--;
			if (end > p &&
			    perfan__torch_profiler_frame(p, (size_t)(end - p)))
				break;
			if (end > p)
				rc = push(c, p, (size_t)(end - p),
					  PERFAN_FRAME_PYTHON);
			c->real = c->n;
			end = p > cs ? p - 1 : cs;
		}
		return rc;
	}
	for (size_t k = n; k-- > 0 && !rc;) {
		rc = push(c, ev[chain[k]].name ? ev[chain[k]].name : "?",
			  strlen(ev[chain[k]].name ? ev[chain[k]].name : "?"),
			  PERFAN_FRAME_NATIVE);
		if (ev[chain[k]].kind != PERFAN_TRACE_USER_ANNOTATION)
			c->real = c->n;
	}
	return rc;
}

static int add(struct chg *c, uint32_t x, int64_t ns)
{
	if (ns <= 0)
		return 0;
	int rc = root(c);
	if (!rc)
		rc = stack_of(c, x);
	if (!rc)
		rc = perfan_profile_add(c->g->profile, c->f, c->n, c->g->col,
					(uint64_t)ns, NULL, NULL);
	if (rc)
		return rc;
	if (c->real < 2)
		return 0; /* no function to name */
	perfan_frame_id leaf = c->f[c->real - 1];
	uint64_t *v = perfan__htab_get(c->leaf, leaf);
	if (v)
		*v += (uint64_t)ns;
	else if (perfan__htab_put(c->leaf, leaf, (uint64_t)ns))
		return perfan__nomem("gpu");
	return 0;
}

int perfan__gpu_charge(perfan_gpu *g, const struct perfan_gpu_gap *gap,
		       const struct gpu_work *next, struct perfan__htab *leaf)
{
	if (!next || next->launch == GPU_NONE)
		return 0;
	struct chg c = {.g = g,
			.thread = g->ti->events[next->launch].thread,
			.leaf = leaf};
	int64_t launch = g->ts[next->launch];
	int64_t b = launch < gap->end ? launch : gap->end;
	int rc = 0;
	const uint32_t *v = g->by_thread[c.thread];
	size_t nv = g->nr_by_thread[c.thread];
	size_t k = gap->start < b ? count_le(g, c.thread, gap->start) : 0;
	for (int64_t t = gap->start; t < b && !rc;) {
		/* K: the spans that start at or before T, T moving on */
		while (k < nv && g->ts[v[k]] <= t)
			k++;
		uint32_t x = innermost(g, c.thread, k, t);
		/* the start of the first span after T, or none */
		int64_t e = k < nv ? g->ts[v[k]] : INT64_MAX;
		if (x != GPU_NONE && g->end[x] < e)
			e = g->end[x];
		if (e > b)
			e = b;
		rc = add(&c, x, e - t);
		t = e;
	}
	if (!rc && gap->end > b)
		rc = add(&c, next->launch,
			 gap->end - (b > gap->start ? b : gap->start));
	free(c.f);
	return rc;
}
