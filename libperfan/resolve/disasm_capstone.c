/* resolve/disasm_capstone.c: the capstone decoder (x86-64, aarch64),
 * through the functions resolve/capstone_load.c looks up. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resolve/capstone_load.h"
#include "resolve/disasm.h"
#include "util/error.h"
#include "util/log.h"

#define EM_X86_64_ 62
#define EM_AARCH64_ 183

struct cst {
	const struct perfan__cs *cs;
	csh h;
	cs_insn *insn;
	uint16_t machine;
	unsigned min_size; /* skipped over bytes that do not decode */
};

static int cst_open(void **state, uint16_t e_machine, unsigned flags)
{
	*state = NULL;
	cs_arch arch;
	cs_mode mode;
	if (e_machine == EM_X86_64_) {
		arch = CS_ARCH_X86;
		mode = CS_MODE_64;
	} else if (e_machine == EM_AARCH64_) {
		arch = CS_ARCH_ARM64;
		mode = CS_MODE_ARM;
	} else {
		return perfan__err(PERFAN_EUNSUPPORTED,
				   "no disassembler for ELF machine %u",
				   (unsigned)e_machine);
	}
	const struct perfan__cs *cs = perfan__capstone();
	if (!cs)
		return PERFAN_EUNSUPPORTED;
	struct cst *c = calloc(1, sizeof(*c));
	if (!c)
		return perfan__nomem(NULL);
	c->cs = cs;
	cs_err e = cs->open(arch, mode, &c->h);
	if (e != CS_ERR_OK) {
		free(c);
		return perfan__err(PERFAN_EUNSUPPORTED, "capstone: %s",
				   cs->strerror(e));
	}
	cs->option(c->h, CS_OPT_DETAIL, CS_OPT_ON);
	if (arch == CS_ARCH_X86)
		cs->option(c->h, CS_OPT_SYNTAX,
			   (flags & PERFAN__DISASM_INTEL) ? CS_OPT_SYNTAX_INTEL
							  : CS_OPT_SYNTAX_ATT);
	c->insn = cs->malloc(c->h);
	if (!c->insn) {
		cs->close(&c->h);
		free(c);
		return perfan__nomem(NULL);
	}
	c->machine = e_machine;
	c->min_size = arch == CS_ARCH_X86 ? 1 : 4;
	*state = c;
	return 0;
}

static void x86_flow(const struct cst *c, const cs_insn *i,
		     struct perfan__insn *o)
{
	const cs_x86 *x = &i->detail->x86;
	int imm = x->op_count > 0 && x->operands[0].type == X86_OP_IMM;
	if (c->cs->insn_group(c->h, i, CS_GRP_RET) || i->id == X86_INS_RET ||
	    i->id == X86_INS_RETF)
		o->flow = PERFAN__FLOW_RET;
	else if (i->id == X86_INS_CALL)
		o->flow = PERFAN__FLOW_CALL;
	else if (i->id == X86_INS_JMP || i->id == X86_INS_LJMP)
		o->flow = imm ? PERFAN__FLOW_JUMP : PERFAN__FLOW_INDIRECT;
	else if (c->cs->insn_group(c->h, i, CS_GRP_JUMP))
		o->flow = PERFAN__FLOW_CJUMP;
	if (o->flow != PERFAN__FLOW_SEQ && o->flow != PERFAN__FLOW_RET && imm) {
		o->has_target = 1;
		o->target = (uint64_t)x->operands[0].imm;
	}
}

/* capstone 4 puts bl in the jump group, so go by instruction id. */
static void arm64_flow(const cs_insn *i, struct perfan__insn *o)
{
	const cs_arm64 *a = &i->detail->arm64;
	switch (i->id) {
	case ARM64_INS_BL: o->flow = PERFAN__FLOW_CALL; break;
	case ARM64_INS_BLR: o->flow = PERFAN__FLOW_CALL; break;
	case ARM64_INS_RET: o->flow = PERFAN__FLOW_RET; break;
	case ARM64_INS_BR: o->flow = PERFAN__FLOW_INDIRECT; break;
	case ARM64_INS_B:
		o->flow = a->cc == ARM64_CC_INVALID || a->cc == ARM64_CC_AL ||
					  a->cc == ARM64_CC_NV
				  ? PERFAN__FLOW_JUMP
				  : PERFAN__FLOW_CJUMP;
		break;
	case ARM64_INS_CBZ:
	case ARM64_INS_CBNZ:
	case ARM64_INS_TBZ:
	case ARM64_INS_TBNZ: o->flow = PERFAN__FLOW_CJUMP; break;
	default: return;
	}
	for (int k = a->op_count - 1; k >= 0; k--)
		if (a->operands[k].type == ARM64_OP_IMM &&
		    o->flow != PERFAN__FLOW_RET && i->id != ARM64_INS_BLR) {
			o->has_target = 1;
			o->target = (uint64_t)a->operands[k].imm;
			break;
		}
}

static int cst_next(void *state, const uint8_t **code, size_t *len,
		    uint64_t *addr, struct perfan__insn *o)
{
	struct cst *c = state;
	if (!*len)
		return PERFAN_ITEROVER;
	memset(o, 0, offsetof(struct perfan__insn, text));
	o->addr = *addr;
	if (!c->cs->disasm_iter(c->h, code, len, addr, c->insn)) {
		size_t skip = *len < c->min_size ? *len : c->min_size;
		o->size = (uint8_t)skip;
		o->flow = PERFAN__FLOW_BAD;
		snprintf(o->text, sizeof(o->text), "(bad)");
		*code += skip;
		*len -= skip;
		*addr += skip;
		return 0;
	}
	const cs_insn *i = c->insn;
	o->size = (uint8_t)i->size;
	if (i->op_str[0])
		snprintf(o->text, sizeof(o->text), "%s %s", i->mnemonic,
			 i->op_str);
	else
		snprintf(o->text, sizeof(o->text), "%s", i->mnemonic);
	if (c->machine == EM_X86_64_)
		x86_flow(c, i, o);
	else
		arm64_flow(i, o);
	return 0;
}

static void cst_close(void *state)
{
	struct cst *c = state;
	if (!c)
		return;
	c->cs->free(c->insn, 1);
	c->cs->close(&c->h);
	free(c);
}

const struct perfan__disasm_ops perfan__disasm_capstone = {
	.name = "capstone",
	.open = cst_open,
	.next = cst_next,
	.close = cst_close,
};
