/* resolve/capstone_load.h: capstone's functions, loaded on first use. */
#ifndef PERFAN_RESOLVE_CAPSTONE_LOAD_H
#define PERFAN_RESOLVE_CAPSTONE_LOAD_H

#include <capstone/capstone.h>

/* The capstone functions perfan calls, with capstone's own types. */
struct perfan__cs {
	__typeof__(cs_open) *open;
	__typeof__(cs_close) *close;
	__typeof__(cs_option) *option;
	__typeof__(cs_strerror) *strerror;
	__typeof__(cs_malloc) *malloc;
	__typeof__(cs_free) *free;
	__typeof__(cs_disasm_iter) *disasm_iter;
	__typeof__(cs_insn_group) *insn_group;
};

/* capstone, dlopen'ed the first time it is asked for (thread-safe):
 * linked at start-up its ~77 000 load-time relocations cost every run a
 * few milliseconds, and most runs disassemble nothing. NULL, with the
 * error set (PERFAN_EUNSUPPORTED, which library and why), when it cannot
 * be loaded. */
const struct perfan__cs *perfan__capstone(void);

#endif
