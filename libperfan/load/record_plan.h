/* load/record_plan.h: the plan perfan record runs, as its files share it. */
#ifndef PERFAN_LOAD_RECORD_PLAN_H
#define PERFAN_LOAD_RECORD_PLAN_H

#include <perfan/record.h>

struct perfan_record_plan {
	struct perfan_record_plan_result res;
	struct perfan_record_step *steps;
	size_t cap_steps;
	char **notes;
	size_t cap_notes;
	char **strs; /* every string the plan made, freed with it */
	size_t nr_strs, cap_strs;
	int failed; /* an allocation failed while building */
};

/* ARGV (with ENV) runs Python with its perf support: -X perf or -X
 * perf_jit among the interpreter's options, or PYTHONPERFSUPPORT /
 * PYTHON_PERF_JIT_SUPPORT set. */
int perfan__record_python_target(char *const *argv, char *const *env);

#endif
