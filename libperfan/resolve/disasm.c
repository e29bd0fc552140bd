/* resolve/disasm.c: a function's instructions through a decoder table. */
#include <stdlib.h>

#include "resolve/disasm.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"

int perfan__disasm_all(const struct perfan__disasm_ops *ops, uint16_t e_machine,
		       unsigned flags, const uint8_t *code, size_t len,
		       uint64_t addr, struct perfan__insn **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!ops)
		ops = &perfan__disasm_capstone;
	void *st;
	int err = ops->open(&st, e_machine, flags);
	if (err)
		return err;
	struct perfan__insn *v = NULL;
	size_t nv = 0, cap = 0;
	for (;;) {
		if (perfan__grow((void **)&v, &cap, nv + 1, sizeof(*v))) {
			err = perfan__nomem(NULL);
			break;
		}
		err = ops->next(st, &code, &len, &addr, &v[nv]);
		if (err)
			break;
		nv++;
	}
	ops->close(st);
	if (err != PERFAN_ITEROVER) {
		free(v);
		return err;
	}
	*out = v;
	*n = nv;
	return 0;
}
