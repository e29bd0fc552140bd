/* python/views.c: a profile's stacks seen from Python: trampoline frames
 * renamed "qualname (file)", and in the mixed and python views the
 * interpreter's own frames around them left out. */
#include <stdlib.h>
#include <string.h>

#include <perfan/python.h>

#include "profile/model.h"
#include "python/internal.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"
#include "util/names.h"

int perfan_python_view_parse(const char *name)
{
	if (!name)
		return -1;
	if (!strcmp(name, "native"))
		return PERFAN_PY_NATIVE;
	if (!strcmp(name, "mixed"))
		return PERFAN_PY_MIXED;
	if (!strcmp(name, "python"))
		return PERFAN_PY_PYTHON;
	return -1;
}

int perfan_python_present(const perfan_profile *p)
{
	size_t n = perfan_profile_nr_frames(p);
	for (size_t i = 0; i < n; i++)
		if (perfan_profile_frame_get(p, (perfan_frame_id)i)->kind ==
		    PERFAN_FRAME_PYTHON)
			return 1;
	return 0;
}

/* CPython 3.12 and 3.13: the eval loop, the vectorcall path from a call
 * site to the callee's frame, and the perf trampoline's evaluator. */
static const char *const glue[] = {
	"_PyEval_EvalFrameDefault",
	"_PyEval_EvalFrame",
	"_PyEval_Vector",
	"_PyFunction_Vectorcall",
	"_PyObject_VectorcallTstate",
	"_PyObject_Vectorcall",
	"PyObject_Vectorcall",
	"PyObject_VectorcallDict",
	"_PyObject_VectorcallDictTstate",
	"_PyObject_FastCallDictTstate",
	"_PyObject_Call",
	"_PyObject_Call_Prepend",
	"PyObject_Call",
	"_PyVectorcall_Call",
	"PyVectorcall_Call",
	"method_vectorcall",
	"py_trampoline_evaluator",
	"PyEval_EvalCode",
	"_PyEval_EvalCodeWithName",
};

int perfan_python_is_glue(const char *name)
{
	return perfan__name_index(glue, sizeof(glue) / sizeof(*glue), name) >=
	       0;
}

/* The last part of a module's path. */
static const char *base(const char *m)
{
	const char *slash = m ? strrchr(m, '/') : NULL;
	return slash ? slash + 1 : m;
}

static int prefixed(const char *s, const char *const *pre, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strncmp(s, pre[i], strlen(pre[i])))
			return 1;
	return 0;
}

/* glibc's parts (old releases name them libc-2.31.so and the like), the
 * dynamic loader and the vDSO: what the interpreter calls for memory,
 * strings, thread-local state and time. */
static const char *const system_libs[] = {
	"libc.so",       "libc-2.",       "libm.so",  "libm-2.",
	"libpthread.so", "libpthread-2.", "libdl.so", "libdl-2.",
	"librt.so",      "librt-2.",      "ld-linux", "ld-2.",
	"ld64.so",       "ld.so",         "[vdso]",   "linux-vdso",
};

int perfan_python_is_interpreter(const char *module)
{
	const char *b = base(module);
	return b && (!strncmp(b, "libpython", 9) || !strncmp(b, "python", 6));
}

int perfan_python_is_runtime(const char *module)
{
	const char *b = base(module);
	return b && (perfan_python_is_interpreter(b) ||
		     prefixed(b, system_libs,
			      sizeof(system_libs) / sizeof(*system_libs)));
}

/* Machine code of the runtime, not a Python, kernel or JIT frame. */
static int runtime_frame(const struct perfan_frame *f)
{
	return (f->kind == PERFAN_FRAME_NATIVE ||
		f->kind == PERFAN_FRAME_UNKNOWN ||
		f->kind == PERFAN_FRAME_INLINED) &&
	       perfan_python_is_runtime(f->module);
}

void perfan__python_split(const perfan_profile *p, const perfan_frame_id *path,
			  size_t depth, size_t *last_py, size_t *foreign)
{
	*last_py = *foreign = depth;
	for (size_t k = 0; k < depth; k++)
		if (perfan_profile_frame_get(p, path[k])->kind ==
		    PERFAN_FRAME_PYTHON)
			*last_py = k;
	if (*last_py == depth)
		return;
	for (size_t k = *last_py + 1; k < depth; k++)
		if (!runtime_frame(perfan_profile_frame_get(p, path[k]))) {
			*foreign = k;
			return;
		}
}

int perfan_python_frame_split(const char *name, const char **qual,
			      size_t *qual_len, const char **file)
{
	if (!name || strncmp(name, "py::", 4))
		return 0;
	/* py::QUALNAME:FILE; a qualname has no ':' */
	const char *q = name + 4, *colon = strchr(q, ':');
	*qual = q;
	*qual_len = colon ? (size_t)(colon - q) : strlen(q);
	*file = colon ? colon + 1 : NULL;
	return 1;
}

int perfan__python_name(const struct perfan_frame *f, char **out,
			const char **file)
{
	*out = NULL;
	*file = NULL;
	const char *q;
	size_t ql;
	if (f->kind != PERFAN_FRAME_PYTHON ||
	    !perfan_python_frame_split(f->name, &q, &ql, file))
		return 0;
	size_t fl = *file ? strlen(*file) : 0;
	char *name = malloc(ql + fl + 4);
	if (!name)
		return -1;
	memcpy(name, q, ql);
	if (*file)
		snprintf(name + ql, fl + 4, " (%s)", *file);
	else
		name[ql] = '\0';
	*out = name;
	return 0;
}

struct view {
	const perfan_profile *src;
	perfan_profile *dst;
	int view;
	perfan_frame_id *map; /* src frame -> dst frame, or NONE */
	perfan_frame_id *path, *out;
	size_t cap;
};

#define NONE ((perfan_frame_id)-1)

/* The frame of DST for SRC's frame ID, renamed if it is Python. */
static int dst_frame(struct view *v, perfan_frame_id id, perfan_frame_id *out)
{
	if (v->map[id] != NONE) {
		*out = v->map[id];
		return 0;
	}
	const struct perfan_frame *f = perfan_profile_frame_get(v->src, id);
	const char *file = NULL;
	int rc;
	char *name = NULL;
	if (v->view != PERFAN_PY_NATIVE && perfan__python_name(f, &name, &file))
		return perfan__nomem("python view");
	if (name) {
		rc = perfan_profile_frame(v->dst, out, name,
					  file ? file : f->module, f->file,
					  f->line, f->kind);
		free(name);
	} else {
		rc = perfan_profile_frame_copy(v->dst, out, v->src, id);
	}
	if (!rc)
		v->map[id] = *out;
	return rc;
}

/* The stack of SRC's node N in the view, into v->out; its length. */
static int view_stack(struct view *v, perfan_node_id n, size_t *len)
{
	size_t depth = perfan_profile_node_depth(v->src, n);
	void **const arrays[] = {(void **)&v->path, (void **)&v->out};
	const size_t size[] = {sizeof(*v->path), sizeof(*v->out)};
	if (perfan__grow_each(arrays, size, 2, &v->cap, depth + 1))
		return perfan__nomem("python view");
	size_t i = depth;
	for (perfan_node_id x = n; x != PERFAN_ROOT_NODE && i;
	     x = perfan_profile_node_parent(v->src, x))
		v->path[--i] = perfan_profile_node_frame(v->src, x);
	/* the innermost Python frame, and the first frame after it outside
	 * the runtime: the runtime's frames between them are the Python
	 * function's own time */
	size_t last_py, foreign;
	perfan__python_split(v->src, v->path, depth, &last_py, &foreign);
	size_t o = 0;
	for (size_t k = 0; k < depth; k++) {
		const struct perfan_frame *f =
			perfan_profile_frame_get(v->src, v->path[k]);
		int keep = 1;
		if (v->view == PERFAN_PY_MIXED && last_py < depth)
			keep = !(f->kind != PERFAN_FRAME_PYTHON &&
				 perfan_python_is_glue(f->name));
		else if (v->view == PERFAN_PY_PYTHON && last_py < depth)
			keep = f->kind == PERFAN_FRAME_PYTHON ||
			       f->kind == PERFAN_FRAME_PROCESS || k >= foreign;
		if (!keep)
			continue;
		int rc = dst_frame(v, v->path[k], &v->out[o]);
		if (rc)
			return rc;
		o++;
	}
	*len = o;
	return 0;
}

int perfan_python_view(perfan_profile **out, const perfan_profile *src,
		       int view)
{
	if (!out || !src)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_python_view: NULL argument");
	*out = NULL;
	if (view < PERFAN_PY_NATIVE || view > PERFAN_PY_PYTHON)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_python_view: no view %d", view);
	struct view v = {.src = src, .view = view};
	size_t nf = perfan_profile_nr_frames(src);
	v.map = malloc((nf ? nf : 1) * sizeof(*v.map));
	int rc = v.map ? perfan_profile_new(&v.dst, NULL)
		       : perfan__nomem("python view");
	if (!rc) /* the program is the same */
		rc = perfan_profile_set_main_module(
			v.dst, perfan_profile_main_module(src));
	for (size_t i = 0; i < nf && v.map; i++)
		v.map[i] = NONE;
	size_t ncols = perfan_profile_nr_columns(src);
	for (size_t c = 0; c < ncols && !rc; c++) {
		int k = perfan_profile_add_column(
			v.dst, perfan_profile_column_name(src, c),
			perfan_profile_column_unit(src, c));
		if (k < 0)
			rc = k;
		else
			perfan_profile_set_column_kind(
				v.dst, (size_t)k,
				perfan_profile_column_kind(src, c));
	}
	size_t nn = perfan_profile_nr_nodes(src);
	/* src node -> dst leaf, for the kept samples */
	size_t ns = perfan_profile_nr_samples(src);
	perfan_node_id *leaf = NULL;
	if (!rc && ns && !(leaf = malloc(nn * sizeof(*leaf))))
		rc = perfan__nomem("python view");
	for (size_t i = 0; leaf && i < nn; i++)
		leaf[i] = i ? NONE : PERFAN_ROOT_NODE;
	for (perfan_node_id n = 1; n < nn && !rc; n++) {
		int any = 0;
		for (size_t c = 0; c < ncols; c++)
			any |= perfan_profile_node_self(src, n, c) != 0;
		if (!any)
			continue;
		size_t len = 0;
		if ((rc = view_stack(&v, n, &len)))
			break;
		for (size_t c = 0; c < ncols && !rc; c++) {
			uint64_t w = perfan_profile_node_self(src, n, c);
			if (w)
				rc = perfan_profile_add(v.dst, v.out, len, c, w,
							NULL,
							leaf ? &leaf[n] : NULL);
		}
	}
	/* the leaves of samples of no weight first: adding to DST records
	 * samples once it has some */
	for (size_t i = 0; i < ns && !rc; i++) {
		perfan_node_id n = perfan_profile_sample_get(src, i)->leaf;
		if (leaf[n] != NONE)
			continue;
		size_t len = 0;
		rc = view_stack(&v, n, &len);
		if (!rc)
			rc = perfan_profile_add(v.dst, v.out, len, 0, 0, NULL,
						&leaf[n]);
	}
	for (size_t i = 0; i < ns && !rc; i++) {
		struct perfan_profile_sample s =
			*perfan_profile_sample_get(src, i);
		s.leaf = leaf[s.leaf];
		rc = perfan__profile_push_sample(v.dst, &s);
	}
	free(leaf);
	free(v.map);
	free(v.path);
	free(v.out);
	if (rc) {
		perfan_profile_free(v.dst);
		return rc;
	}
	*out = v.dst;
	return 0;
}
