/* perfan/python.h: CPython in profiles: the frames of its perf trampolines
 * (`python -X perf`, `-X perf_jit`), named py::QUALNAME:FILE by perf maps
 * and jitdumps, and views of a profile in which Python functions take the
 * place of the interpreter frames that ran them. */
#ifndef PERFAN_PYTHON_H
#define PERFAN_PYTHON_H

#include <perfan/common.h>
#include <perfan/profile.h>

#ifdef __cplusplus
extern "C" {
#endif

enum perfan_python_view {
	/* frames as perf shows them, trampolines named py::qualname:file */
	PERFAN_PY_NATIVE = 0,
	/* each Python function in place of the _PyEval_EvalFrameDefault that
	 * ran it and the call glue around it; C code called from Python
	 * (list_contains, an extension, the kernel) stays below it */
	PERFAN_PY_MIXED = 1,
	/* Python functions only, with the native frames outside the
	 * interpreter at the leaf (as py-spy --native shows them) */
	PERFAN_PY_PYTHON = 2,
};

/* "native", "mixed" or "python"; -1 for anything else. */
PERFAN_API int perfan_python_view_parse(const char *name);

/* Whether P has a Python frame (kind PERFAN_FRAME_PYTHON). */
PERFAN_API int perfan_python_present(const perfan_profile *p);

/* Whether NAME is one of the interpreter's frames that run Python code or
 * pass a call on to it (_PyEval_EvalFrameDefault, _PyEval_Vector,
 * _PyFunction_Vectorcall, PyObject_Vectorcall, py_trampoline_evaluator,
 * ...): what the mixed view leaves out. */
PERFAN_API int perfan_python_is_glue(const char *name);

/* A new profile *OUT with every column of SRC, its stacks in VIEW (enum
 * perfan_python_view). Python frames are named "qualname (file)", their
 * module the file. SRC's kept samples are carried over, in their order
 * and with their meta, each at its stack's leaf in the view; *OUT then
 * keeps the samples of what is added to it later. Returns 0,
 * PERFAN_EINVAL, PERFAN_ENOMEM. */
PERFAN_API int perfan_python_view(perfan_profile **out,
				  const perfan_profile *src, int view);

#ifdef __cplusplus
}
#endif
#endif
