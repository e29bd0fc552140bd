/* resolve/funcinfo.h: one function of a stream's DSO as annotate reads it:
 * its instructions, each with its source line and the chain of functions
 * inlined there. */
#ifndef PERFAN_SYMBOLS_FUNCINFO_H
#define PERFAN_SYMBOLS_FUNCINFO_H

#include <perfan/stream.h>

#include "resolve/disasm.h"
#include "resolve/symbols.h"

struct perfan__func_insn {
	struct perfan__insn in;
	const char *file; /* the line-table row's source file, or NULL */
	uint32_t line;
	/* The inlined instances holding the instruction, innermost first:
	 * chain[inl_first .. inl_first + inl_n) of the function. */
	uint32_t inl_first, inl_n;
};

struct perfan__func {
	struct perfan__func_insn *insns; /* in address order */
	size_t n;
	const struct perfan__inlined **chain;
	struct perfan__inlined *inl;
	size_t ninl;
	uint16_t machine;
	size_t bad;     /* instructions that did not decode */
	int have_lines; /* the DSO has a line table for it */
};

/* Function [START, START + SIZE) of DSO: code from the binary (or a debug
 * file with contents), decoded with OPS (NULL: capstone, FLAGS as in
 * disasm.h), lines and inlined instances from its DWARF. Returns 0, or
 * PERFAN_ENOTFOUND (no file with its code), PERFAN_EUNSUPPORTED (a
 * machine without decoder), PERFAN_ENOMEM, with the message set. */
int perfan__func_load(const perfan_dso *dso, uint64_t start, uint64_t size,
		      const struct perfan__disasm_ops *ops, unsigned flags,
		      struct perfan__func *out);
void perfan__func_free(struct perfan__func *f);

#endif
