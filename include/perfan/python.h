/* perfan/python.h: CPython in profiles: the frames of its perf trampolines
 * (`python -X perf`, `-X perf_jit`), named py::QUALNAME:FILE by perf maps
 * and jitdumps, and views of a profile in which Python functions take the
 * place of the interpreter frames that ran them. */
#ifndef PERFAN_PYTHON_H
#define PERFAN_PYTHON_H

#include <stdio.h>

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
	/* Python functions only: the frames of the runtime (see
	 * perfan_python_is_runtime) from the innermost Python function to
	 * the first frame outside it, or to the leaf, are left out, so
	 * their time is that function's self time; from that first frame
	 * on (an extension module such as _json or libcrypto, and all it
	 * calls; the kernel; JIT code) every frame stays, as native
	 * leaves. The native frames between two Python functions are left
	 * out. */
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

/* Whether MODULE (a path or its last part) is CPython's: libpython* or
 * the python* executable. */
PERFAN_API int perfan_python_is_interpreter(const char *module);

/* Whether MODULE belongs to the runtime a Python function's own time is
 * spent in when the interpreter calls it directly: the interpreter
 * (perfan_python_is_interpreter), glibc's libc, libm, libpthread, libdl
 * and librt, the dynamic loader (ld-linux*, ld.so: __tls_get_addr) and
 * the vDSO. Extension modules (_json.cpython-*.so, _hashlib and the
 * libcrypto it calls) and every other library are not. */
PERFAN_API int perfan_python_is_runtime(const char *module);

/* Of NAME, a trampoline's or jitdump's "py::QUALNAME:FILE" as CPython
 * writes it: *QUAL and *QUAL_LEN the qualified name ("Queue.get"), *FILE
 * the file (NULL when absent), both pointing into NAME. Returns 1, or 0
 * (the outputs untouched) when NAME is not such a name. */
PERFAN_API int perfan_python_frame_split(const char *name, const char **qual,
					 size_t *qual_len, const char **file);

/* A new profile *OUT with every column of SRC, its stacks in VIEW (enum
 * perfan_python_view). Python frames are named "qualname (file)", their
 * module the file. SRC's kept samples are carried over, in their order
 * and with their meta, each at its stack's leaf in the view; *OUT then
 * keeps the samples of what is added to it later. Returns 0,
 * PERFAN_EINVAL, PERFAN_ENOMEM. */
PERFAN_API int perfan_python_view(perfan_profile **out,
				  const perfan_profile *src, int view);

/* ---- the C hot spots inside each Python function ------------------- */

/* The native functions a Python function's self time (as the python view
 * counts it) was made of: for each sample whose innermost Python
 * function is followed by runtime frames only, its leaf function. */
typedef struct perfan_python_hotspots perfan_python_hotspots;

struct perfan_python_hotspots_opts {
	size_t sz;
	/* The column (event) of the profile to weigh samples by. */
	size_t column;
	/* At most this many Python functions, by self weight (0: all). */
	size_t limit;
	/* Leave out Python functions and native functions whose share of
	 * the column's total is below this many percent. */
	double percent_limit;
};

/* A native function inside a Python function's self time. Strings are
 * borrowed from the hot spots (or their profile). */
struct perfan_python_hotspot {
	const char *name;    /* the leaf function, as the profile names it */
	const char *module;  /* its module; NULL when not known */
	uint64_t weight;     /* of the samples that end in it */
	double percent;      /* of the column's total */
	double self_percent; /* of the Python function's self weight */
};

/* A Python function with self time, and what its self time was made of,
 * heaviest first (then by name). */
struct perfan_python_self {
	const char *name;   /* "qualname (file)", as the Python views name it */
	const char *module; /* its file */
	uint64_t self;      /* weight of its self time */
	double percent;     /* of the column's total */
	size_t nr_hotspots; /* after percent_limit */
	const struct perfan_python_hotspot *hotspots;
};

/* The hot spots of P, a profile in the native or mixed view (in the
 * mixed view the interpreter loop's own samples are the Python function's
 * leaf, since the view leaves _PyEval_EvalFrameDefault out). Python
 * functions are ordered by self weight, heaviest first, then by name.
 * P must outlive the result. Returns 0, PERFAN_EINVAL (NULL argument, no
 * such column), PERFAN_ENOMEM. Free
 * with perfan_python_hotspots_free. */
PERFAN_API int
perfan_python_hotspots_new(perfan_python_hotspots **out,
			   const perfan_profile *p,
			   const struct perfan_python_hotspots_opts *opts);
PERFAN_API void perfan_python_hotspots_free(perfan_python_hotspots *h);

/* The column's total weight, its name and unit (borrowed). */
PERFAN_API uint64_t
perfan_python_hotspots_total(const perfan_python_hotspots *h);
PERFAN_API size_t
perfan_python_hotspots_nr_functions(const perfan_python_hotspots *h);
/* Function I (< nr_functions); borrowed, lives as long as H. */
PERFAN_API const struct perfan_python_self *
perfan_python_hotspots_function(const perfan_python_hotspots *h, size_t i);

enum perfan_python_hotspots_format {
	PERFAN_PYTHON_HOTSPOTS_TEXT = 0, /* a table, in report's columns */
	PERFAN_PYTHON_HOTSPOTS_JSON = 1, /* one JSON object */
};

struct perfan_python_hotspots_write_opts {
	size_t sz;
	int format; /* enum perfan_python_hotspots_format */
};

/* Write H to FP: text, a "#" header and per Python function its share
 * and name, then under it its native functions with their share of the
 * whole and of the function's self time; or JSON: {"event", "unit",
 * "total", "functions": [{"name", "module", "self", "percent",
 * "native": [{"name", "module", "weight", "percent", "self_percent"}]}]}.
 * Returns 0, PERFAN_EINVAL, PERFAN_EIO when writing fails. OPTS NULL:
 * text. */
PERFAN_API int perfan_python_hotspots_write(
	const perfan_python_hotspots *h, FILE *fp,
	const struct perfan_python_hotspots_write_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
