/* resolve/disasm.h: one instruction decoder behind a table of functions,
 * so that another disassembler can replace capstone (disasm_capstone.c). */
#ifndef PERFAN_SYMBOLS_DISASM_H
#define PERFAN_SYMBOLS_DISASM_H

#include <stddef.h>
#include <stdint.h>

/* How control leaves an instruction. */
enum perfan__insn_flow {
	PERFAN__FLOW_SEQ = 0,  /* falls through */
	PERFAN__FLOW_JUMP,     /* unconditional jump */
	PERFAN__FLOW_CJUMP,    /* conditional jump */
	PERFAN__FLOW_CALL,     /* call (direct or not) */
	PERFAN__FLOW_RET,      /* return */
	PERFAN__FLOW_INDIRECT, /* jump through a register or memory */
	PERFAN__FLOW_BAD,      /* bytes that do not decode */
};

struct perfan__insn {
	uint64_t addr;      /* ELF virtual address */
	uint8_t size;       /* bytes */
	uint8_t flow;       /* enum perfan__insn_flow */
	uint8_t has_target; /* a direct branch or call: TARGET is known */
	uint64_t target;
	char text[196]; /* "mnemonic operands", NUL-terminated */
};

/* x86: Intel syntax (the default is AT&T, as perf and objdump print). */
#define PERFAN__DISASM_INTEL 1u

struct perfan__disasm_ops {
	const char *name;
	/* A decoder for E_MACHINE (ELF EM_*); PERFAN_EUNSUPPORTED for a
	 * machine it cannot decode, with the message set. */
	int (*open)(void **state, uint16_t e_machine, unsigned flags);
	/* Decode one instruction at *CODE (*LEN bytes left), at *ADDR, and
	 * advance all three. Bytes that do not decode give flow BAD and are
	 * skipped by the machine's smallest instruction. Returns 0, or
	 * PERFAN_ITEROVER when *LEN is 0. */
	int (*next)(void *state, const uint8_t **code, size_t *len,
		    uint64_t *addr, struct perfan__insn *out);
	void (*close)(void *state);
};

extern const struct perfan__disasm_ops perfan__disasm_capstone;

/* All instructions of CODE[0..LEN) at ADDR, with OPS (NULL: capstone), as
 * a malloc'd array in *OUT of *N. Returns 0, PERFAN_EUNSUPPORTED or
 * PERFAN_ENOMEM. */
int perfan__disasm_all(const struct perfan__disasm_ops *ops, uint16_t e_machine,
		       unsigned flags, const uint8_t *code, size_t len,
		       uint64_t addr, struct perfan__insn **out, size_t *n);

#endif
