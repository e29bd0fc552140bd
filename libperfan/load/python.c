/* load/python.c: the Python view of a loaded profile, and the advice when a
 * Python recording cannot show Python functions. */
#include "load/internal.h"

#include <string.h>

#include <perfan/python.h>
#include <perfan/threads.h>

/* Stacks in the interpreter without Python frames (Python ran without -X
 * perf), or with only the innermost one (frame pointers through a
 * libpython built without them, or perf's own unwinding). */
void perfan__load_python_check(perfan_load *l)
{
	const perfan_profile *p = l->p;
	size_t nn = perfan_profile_nr_nodes(p);
	if (!perfan_profile_nr_columns(p))
		return;
	uint64_t interp = 0, with = 0, deep = 0;
	for (perfan_node_id n = 1; n < nn; n++) {
		uint64_t w = perfan_profile_node_self(p, n, 0);
		if (!w)
			continue;
		int py = 0, lib = 0;
		for (perfan_node_id x = n; x != PERFAN_ROOT_NODE;
		     x = perfan_profile_node_parent(p, x)) {
			const struct perfan_frame *f = perfan_profile_frame_get(
				p, perfan_profile_node_frame(p, x));
			py += f->kind == PERFAN_FRAME_PYTHON;
			lib |= f->module && strstr(f->module, "libpython");
		}
		interp += lib ? w : 0;
		with += py ? w : 0;
		deep += py > 1 ? w : 0;
	}
	if (interp < 20 || deep * 2 >= interp)
		return;
	if (!with)
		perfan__load_advise_once(
			l, PERFAN_ADVICE_WARN,
			"%s: no Python function is on these stacks: Python ran "
			"without -X perf, or the stacks were taken with frame "
			"pointers (-g) through a libpython built without them; "
			"record with perfan record --python -- python3.12 "
			"SCRIPT (it adds -X perf, Python 3.12+, and records "
			"DWARF stacks: perf record --call-graph dwarf)",
			l->info.name);
	else
		perfan__load_advise_once(
			l, PERFAN_ADVICE_WARN,
			"%s: %llu of %llu samples in the interpreter show fewer "
			"than two Python functions (a libpython without frame "
			"pointers under perf record -g?): record with perfan "
			"record --python -- COMMAND (DWARF stacks, perf "
			"record --call-graph dwarf; --stack-size 65528 for "
			"deeper ones)",
			l->info.name, (unsigned long long)(interp - deep),
			(unsigned long long)interp);
}

int perfan__load_python_view(perfan_load *l)
{
	/* the names first: they are read from the native stacks */
	perfan_thread_names_free(l->names);
	l->names = NULL;
	if (l->o.root == PERFAN_ROOT_PID_TID) {
		int rc = perfan_thread_names_new(&l->names, l->p, NULL);
		if (rc)
			return rc;
	}
	int view = l->o.python_view;
	if (view == PERFAN_PY_NATIVE || !perfan_python_present(l->p))
		return 0;
	perfan_profile *v;
	int rc = perfan_python_view(&v, l->p,
				    view < 0 ? PERFAN_PY_PYTHON : view);
	if (rc)
		return rc;
	if (l->o.keep_native) {
		perfan_profile_free(l->native);
		l->native = l->p;
	} else {
		perfan_profile_free(l->p);
	}
	l->p = v;
	return 0;
}
