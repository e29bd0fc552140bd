/* analysis/stackmap.c: stream frames interned in an analysis' own profile,
 * the off-CPU engine run over a perf.data with a callback per event, and a
 * profile replaced by its Python view (analysis/stackmap.h). */
#include <stdlib.h>
#include <string.h>

#include <perfan/python.h>

#include "analysis/offcpu_internal.h"
#include "analysis/stackmap.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"

#define NO_FRAME ((perfan_frame_id)-1)

int perfan__stackmap_frame(struct perfan__stackmap *m,
			   const struct perfan_stream_frame *sf,
			   perfan_frame_id *out)
{
	if (sf->id >= m->n) {
		size_t cap = m->n;
		if (perfan__grow((void **)&m->ids, &cap, (size_t)sf->id + 1,
				 sizeof(*m->ids)))
			return perfan__nomem("stacks");
		for (size_t i = m->n; i < cap; i++)
			m->ids[i] = NO_FRAME;
		m->n = cap;
	}
	if (m->ids[sf->id] == NO_FRAME) {
		int err = perfan_profile_frame(m->p, &m->ids[sf->id], sf->name,
					       sf->module, sf->file, sf->line,
					       sf->kind);
		if (err)
			return err;
	}
	*out = m->ids[sf->id];
	return 0;
}

int perfan__stackmap_room(struct perfan__stackmap *m, size_t n)
{
	return perfan__grow((void **)&m->path, &m->cap, n, sizeof(*m->path))
		       ? perfan__nomem("stacks")
		       : 0;
}

int perfan__stackmap_path(struct perfan__stackmap *m, size_t at,
			  const struct perfan_stream_frame *frames, size_t n,
			  size_t extra)
{
	int err = perfan__stackmap_room(m, at + n + extra);
	for (size_t i = 0; !err && i < n; i++)
		err = perfan__stackmap_frame(m, &frames[n - 1 - i],
					     &m->path[at + i]);
	return err;
}

int perfan__stackmap_thread_add(struct perfan__stackmap *m, int32_t pid,
				int32_t tid, const char *comm,
				const struct perfan_stream_frame *frames,
				size_t n, size_t col, uint64_t w,
				perfan_node_id *leaf)
{
	int err = perfan__stackmap_path(m, 1, frames, n, 0);
	if (!err)
		err = perfan_profile_process_frame(
			m->p, &m->path[0], PERFAN_ROOT_PID_TID, comm, pid, tid);
	return err ? err
		   : perfan_profile_add(m->p, m->path, n + 1, col, w, NULL,
					leaf);
}

void perfan__stackmap_free(struct perfan__stackmap *m)
{
	free(m->ids);
	free(m->path);
	memset(m, 0, sizeof(*m));
}

int perfan__offcpu_read(perfan_perfdata *pd,
			const struct perfan_resolve_opts *ro,
			const struct perfan_offcpu_opts *oo,
			int (*each)(const struct perfan_stream_event *ev,
				    void *payload),
			void *payload, const char *who, perfan_offcpu **oc)
{
	*oc = NULL;
	struct perfan_resolve_opts so = PERFAN_RESOLVE_OPTS_INIT;
	if (ro)
		memcpy(&so, ro, ro->sz < sizeof(so) ? ro->sz : sizeof(so));
	so.sz = sizeof(so);
	so.filter = PERFAN_FILTER_INIT;
	perfan_stream *s = NULL;
	int err = perfan_stream_open(&s, pd, &so);
	if (!err)
		err = perfan_offcpu_new(oc, s, oo);
	const struct perfan_stream_event *ev;
	while (!err && !(err = perfan_stream_next(s, &ev))) {
		err = perfan_offcpu_feed(*oc, ev);
		if (!err && each)
			err = each(ev, payload);
	}
	if (err == PERFAN_ITEROVER)
		err = perfan_offcpu_finish(*oc);
	if (*oc)
		perfan__offcpu_detach(*oc);
	perfan_stream_free(s);
	if (err == PERFAN_ENOMEM)
		perfan__err(err, "%s: out of memory in the %s",
			    perfan_perfdata_name(pd), who);
	return err;
}

int perfan__python_view_in_place(perfan_profile **p, int view)
{
	if (view <= PERFAN_PY_NATIVE || !perfan_python_present(*p))
		return 0;
	perfan_profile *v;
	int err = perfan_python_view(&v, *p, view);
	if (err)
		return err;
	perfan_profile_free(*p);
	*p = v;
	return 0;
}
