/* resolve/unwind.c: DWARF unwinding of a sample's copied user stack
 * (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER) for x86-64 and aarch64,
 * with each DSO's CFI read by libdw (.eh_frame of the binary, else
 * .debug_frame of the binary or its debug file).
 *
 * The stepping loop is our own rather than dwfl_getthread_frames: a frame
 * libdw has no CFI for (a CPython trampoline, issue 6) must be steppable by
 * its known layout. libdw's rules for an address are compiled once per
 * (DSO, address) into a small form that the loop applies without libdw. */
#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "resolve/jit.h"
#include "resolve/pytramp.h"
#include "resolve/symbols.h"
#include "resolve/unwind.h"
#include "util/grow.h"

/* perf_event.h's PERF_SAMPLE_REGS_ABI_64. */
#define REGS_ABI_64 2

/* DWARF registers tracked: enough for aarch64's x0-x30 and sp. */
#define MAX_REGS 32
/* Bounds of a DWARF expression's evaluation. */
#define EXPR_STACK 64
#define EXPR_STEPS 1000

/* ---- architectures ------------------------------------------------------ */

struct arch {
	uint16_t machine; /* EM_* */
	uint8_t nregs;    /* DWARF registers 0..nregs-1 are tracked */
	uint8_t sp;       /* DWARF number of the stack pointer */
	int8_t pc;        /* DWARF number holding this frame's pc (x86-64's
			     return address column), or -1 */
	uint8_t perf_pc;  /* perf_regs index of the pc */
	uint8_t nperf;    /* perf_regs indexes known */
	/* perf_regs index (bit of sample_regs_user) -> DWARF number, or -1 */
	int8_t dwarf_of[40];
};

/* perf_regs x86-64: AX BX CX DX SI DI BP SP IP FLAGS CS SS DS ES FS GS
 * R8..R15; DWARF: rax rdx rcx rbx rsi rdi rbp rsp r8..r15, 16 = return
 * address (rip). */
static const struct arch arch_x86_64 = {
	.machine = EM_X86_64,
	.nregs = 17,
	.sp = 7,
	.pc = 16,
	.perf_pc = 8,
	.nperf = 24,
	.dwarf_of = {0,  3,  2,  1,  4, 5, 6,  7,  -1, -1, -1, -1,
		     -1, -1, -1, -1, 8, 9, 10, 11, 12, 13, 14, 15},
};

/* perf_regs aarch64: X0..X30 SP PC; DWARF: x0..x30, 31 = sp; the pc has
 * no DWARF number (the return address column is x30). */
static const struct arch arch_aarch64 = {
	.machine = EM_AARCH64,
	.nregs = 32,
	.sp = 31,
	.pc = -1,
	.perf_pc = 32,
	.nperf = 33,
	.dwarf_of = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
		     11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
		     22, 23, 24, 25, 26, 27, 28, 29, 30, 31, -1},
};

static const struct arch *arch_of_machine(unsigned machine)
{
	switch (machine) {
	case EM_X86_64: return &arch_x86_64;
	case EM_AARCH64: return &arch_aarch64;
	default: return NULL;
	}
}

static const struct arch *arch_of_name(const char *name)
{
	if (!strcmp(name, "x86_64"))
		return &arch_x86_64;
	if (!strcmp(name, "aarch64") || !strcmp(name, "arm64"))
		return &arch_aarch64;
	return NULL;
}

/* ---- compiled CFI rules -------------------------------------------------- */

enum rule_kind {
	RULE_UNDEF = 1,  /* the caller's value cannot be recovered */
	RULE_OFFSET,     /* saved at CFA + off */
	RULE_VAL_OFFSET, /* is CFA + off */
	RULE_REG,        /* is the value of register `src` */
	RULE_EXPR,       /* saved at the address `ops` computes */
	RULE_VAL_EXPR,   /* is the value `ops` computes */
};

/* The rule for one register; registers without one keep their value
 * ("same value"). */
struct rule {
	uint8_t reg, kind, src;
	uint32_t nops;
	int64_t off;
	const Dwarf_Op *ops;
};

/* What the CFI says about one address, as the loop applies it. */
struct frame_rules {
	uint8_t ra;          /* DWARF column of the return address */
	uint8_t signal;      /* a signal frame: its caller's pc is exact */
	uint8_t cfa_is_expr; /* else CFA = cfa_reg + cfa_off */
	uint8_t cfa_reg;
	uint8_t has_sp;   /* a rule for the stack pointer (else CFA) */
	uint8_t ra_undef; /* the outermost frame */
	uint32_t ncfa_ops, nrules;
	uint64_t undef; /* registers whose caller's value is lost (no rule) */
	int64_t cfa_off;
	const Dwarf_Op *cfa_ops;
	struct rule rules[];
};

/* "No CFI covers this address", in a cache of frame_rules pointers. */
#define NO_RULES ((uint64_t)1)

/* The CFI of one DSO, with the rules compiled so far. */
struct dso_cfi {
	Dwarf_CFI *eh;  /* .eh_frame of the binary (dwarf_getcfi_elf) */
	Dwarf *dw;      /* for .debug_frame: opened on the first miss */
	Dwarf_CFI *dbg; /* dwarf_getcfi(dw), owned by dw */
	Elf *dbg_elf;   /* the file holding .debug_frame */
	int dbg_tried;
	/* a worker's own handles of the DSO's files (libelf's are not to be
	 * shared between threads): the binary's and the debug file's */
	Elf *own[2];
	const struct arch *arch;   /* from the ELF's e_machine */
	struct perfan__htab rules; /* ELF address -> frame_rules * */
	struct perfan__arena arena;
};

struct unwind_state {
	struct perfan__htab by_dso; /* struct perfan__dso * -> dso_cfi * */
	/* DSOs added to by_dso since perfan__unwind_fresh last took them */
	struct perfan__dso **fresh;
	size_t nfresh, capfresh;
	const struct arch *arch; /* the recording's, from its features */
	int warned_arch;
	struct perfan__pytramps *pytramps; /* CPython's trampolines */
	struct perfan__map_cache maps;     /* perfan__proc_map's */
};

static Dwarf_Op *copy_ops(struct perfan__arena *ar, const Dwarf_Op *ops,
			  size_t n)
{
	Dwarf_Op *c = perfan__arena_alloc(ar, n * sizeof(*c));
	if (c)
		memcpy(c, ops, n * sizeof(*c));
	return c;
}

/* Turn libdw's view of the register REG at a frame (as
 * dwarf_frame_register gives it) into a rule. Returns 0 for "same value",
 * 1 with *R set, -1 when out of memory. */
static int compile_reg(struct perfan__arena *ar, int reg, const Dwarf_Op *mem,
		       const Dwarf_Op *ops, size_t nops, struct rule *r)
{
	memset(r, 0, sizeof(*r));
	r->reg = (uint8_t)reg;
	if (!nops) {
		if (!ops)
			return 0;
		r->kind = RULE_UNDEF;
		return 1;
	}
	int value = ops[nops - 1].atom == DW_OP_stack_value;
	size_t n = nops - (size_t)value;
	if (ops == mem && n >= 1 && n <= 2 &&
	    ops[0].atom == DW_OP_call_frame_cfa &&
	    (n == 1 || ops[1].atom == DW_OP_plus_uconst)) {
		/* libdw's form of offset(N) and val_offset(N) */
		r->kind = value ? RULE_VAL_OFFSET : RULE_OFFSET;
		r->off = n == 2 ? (int64_t)ops[1].number : 0;
		return 1;
	}
	if (nops == 1 && ops[0].atom == DW_OP_regx) {
		if (ops[0].number >= MAX_REGS) {
			r->kind = RULE_UNDEF;
			return 1;
		}
		r->kind = RULE_REG;
		r->src = (uint8_t)ops[0].number;
		return 1;
	}
	if (!n) { /* an empty expression computes nothing */
		r->kind = RULE_UNDEF;
		return 1;
	}
	r->kind = value ? RULE_VAL_EXPR : RULE_EXPR;
	r->nops = (uint32_t)n;
	r->ops = copy_ops(ar, ops, n);
	return r->ops ? 1 : -1;
}

/* Compile the frame libdw computed; NULL if it is unusable for A (or out of
 * memory). */
static const struct frame_rules *compile(struct perfan__arena *ar,
					 const struct arch *a, Dwarf_Frame *df)
{
	Dwarf_Addr start, end;
	bool signal = false;
	int ra = dwarf_frame_info(df, &start, &end, &signal);
	if (ra < 0 || ra >= a->nregs)
		return NULL;
	Dwarf_Op *cops;
	size_t ncops;
	if (dwarf_frame_cfa(df, &cops, &ncops) || !ncops)
		return NULL;

	struct rule tmp[MAX_REGS];
	size_t nr = 0;
	int has_sp = 0, ra_undef = 0;
	uint64_t undef = 0;
	for (int reg = 0; reg < a->nregs; reg++) {
		Dwarf_Op mem[3], *ops = NULL;
		size_t nops = 0;
		int k;
		if (dwarf_frame_register(df, reg, mem, &ops, &nops)) {
			memset(&tmp[nr], 0, sizeof(tmp[nr]));
			tmp[nr].reg = (uint8_t)reg;
			tmp[nr].kind = RULE_UNDEF;
			k = 1;
		} else {
			k = compile_reg(ar, reg, mem, ops, nops, &tmp[nr]);
		}
		if (k < 0)
			return NULL;
		if (!k)
			continue;
		if (reg == a->sp && tmp[nr].kind != RULE_UNDEF)
			has_sp = 1;
		else if (reg == a->sp)
			continue; /* the caller's sp is the CFA */
		if (tmp[nr].kind == RULE_UNDEF) {
			/* a bit, not a rule: most registers are lost */
			undef |= 1ull << reg;
			ra_undef |= reg == ra;
			continue;
		}
		nr++;
	}

	struct frame_rules *f =
		perfan__arena_alloc(ar, sizeof(*f) + nr * sizeof(f->rules[0]));
	if (!f)
		return NULL;
	f->ra = (uint8_t)ra;
	f->signal = signal;
	f->has_sp = (uint8_t)has_sp;
	f->ra_undef = (uint8_t)ra_undef;
	f->undef = undef;
	if (ncops == 1 && cops[0].atom == DW_OP_bregx &&
	    cops[0].number < a->nregs) {
		f->cfa_reg = (uint8_t)cops[0].number;
		f->cfa_off = (int64_t)cops[0].number2;
	} else {
		f->cfa_is_expr = 1;
		f->ncfa_ops = (uint32_t)ncops;
		f->cfa_ops = copy_ops(ar, cops, ncops);
		if (!f->cfa_ops)
			return NULL;
	}
	f->nrules = (uint32_t)nr;
	memcpy(f->rules, tmp, nr * sizeof(tmp[0]));
	return f;
}

/* ---- per-DSO CFI ---------------------------------------------------------- */

static int has_section(Elf *elf, const char *want)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
		    !sh.sh_size)
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, want))
			return 1;
	}
	return 0;
}

static void dso_cfi_free(struct dso_cfi *c)
{
	if (!c)
		return;
	if (c->eh)
		dwarf_cfi_end(c->eh);
	if (c->dw)
		dwarf_end(c->dw);
	for (int i = 0; i < 2; i++)
		if (c->own[i])
			elf_end(c->own[i]);
	perfan__htab_free(&c->rules);
	perfan__arena_free(&c->arena);
	free(c);
}

/* A worker's own handle of E's file; NULL where it has none (an image in
 * memory, a file gone). */
static Elf *own_elf(const struct perfan__elf *e)
{
	if (!e || e->image || !e->path)
		return NULL;
	int fd = open(e->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		elf = NULL;
	}
	if (elf) {
		elf_cntl(elf, ELF_C_FDREAD);
		elf_cntl(elf, ELF_C_FDDONE);
	}
	close(fd);
	return elf;
}

/* The CFI of loaded DSO D, read through RT and DBG (D's binary and debug
 * file: libelf handles of D->runtime and D->debug); NULL if it has none.
 * OWN: RT and DBG become the result's. */
static struct dso_cfi *cfi_new(const struct perfan__dso *d, Elf *rt, Elf *dbg,
			       int own)
{
	struct perfan__elf *e = d->runtime ? d->runtime : d->debug;
	struct dso_cfi *c = d->has_symtab && e ? calloc(1, sizeof(*c)) : NULL;
	if (!c) {
		for (int i = 0; own && i < 2; i++)
			if (i ? dbg : rt)
				elf_end(i ? dbg : rt);
		return NULL;
	}
	if (own) {
		c->own[0] = rt;
		c->own[1] = dbg;
	}
	c->arch = arch_of_machine(e->e_machine);
	if (rt)
		c->eh = dwarf_getcfi_elf(rt);
	if (dbg && has_section(dbg, ".debug_frame"))
		c->dbg_elf = dbg;
	else if (rt && has_section(rt, ".debug_frame"))
		c->dbg_elf = rt;
	if (!c->arch || (!c->eh && !c->dbg_elf)) {
		dso_cfi_free(c);
		return NULL;
	}
	return c;
}

/* The CFI of DSO, looked up once; NULL if it has none. */
static struct dso_cfi *dso_cfi(struct perfan__symctx *ctx,
			       struct unwind_state *st, struct perfan__dso *d)
{
	uint64_t *v = perfan__htab_get(&st->by_dso, (uintptr_t)d);
	if (v)
		return (struct dso_cfi *)(uintptr_t)*v;

	perfan__dso_load(ctx, d);
	struct dso_cfi *c = cfi_new(d, d->runtime ? d->runtime->elf : NULL,
				    d->debug ? d->debug->elf : NULL, 0);
	if (!c)
		perfan__symlog(ctx, PERFAN_LOG_DEBUG,
			       "unwind: no CFI for %s: stacks end there",
			       d->path);
	if (perfan__htab_put(&st->by_dso, (uintptr_t)d, (uintptr_t)c)) {
		dso_cfi_free(c);
		return NULL;
	}
	/* loaded, and read no more than a worker may read: the workers may
	 * have it now */
	if (!perfan__grow((void **)&st->fresh, &st->capfresh, st->nfresh + 1,
			  sizeof(*st->fresh)))
		st->fresh[st->nfresh++] = d;
	return c;
}

/* The compiled rules at ELF address ADDR of C, or NULL (no CFI there). */
static const struct frame_rules *rules_at(struct dso_cfi *c, uint64_t addr)
{
	uint64_t *v = perfan__htab_get(&c->rules, addr);
	if (v)
		return *v == NO_RULES
			       ? NULL
			       : (const struct frame_rules *)(uintptr_t)*v;

	Dwarf_Frame *df = NULL;
	if (c->eh && dwarf_cfi_addrframe(c->eh, addr, &df))
		df = NULL;
	if (!df && c->dbg_elf) {
		if (!c->dbg_tried) {
			c->dbg_tried = 1;
			c->dw = dwarf_begin_elf(c->dbg_elf, DWARF_C_READ, NULL);
			c->dbg = c->dw ? dwarf_getcfi(c->dw) : NULL;
		}
		if (c->dbg && dwarf_cfi_addrframe(c->dbg, addr, &df))
			df = NULL;
	}
	const struct frame_rules *f = df ? compile(&c->arena, c->arch, df)
					 : NULL;
	free(df);
	if (perfan__htab_put(&c->rules, addr, f ? (uintptr_t)f : NO_RULES))
		return NULL;
	return f;
}

/* ---- one frame's registers, and memory ------------------------------------ */

struct regs {
	uint64_t v[MAX_REGS];
	uint64_t valid; /* bit per register */
	uint64_t pc;
};

/* The copied stack: bytes [lo, lo + len) of the thread's memory. */
struct mem {
	const unsigned char *data;
	uint64_t lo, len;
};

static int mem_read(const struct mem *m, uint64_t addr, unsigned size,
		    uint64_t *out)
{
	if (addr < m->lo || m->len < size || addr - m->lo > m->len - size)
		return -1;
	uint64_t v = 0;
	/* Little-endian targets only (x86-64, aarch64 Linux). */
	memcpy(&v, m->data + (addr - m->lo), size);
	*out = v;
	return 0;
}

static int reg_get(const struct regs *r, uint64_t reg, uint64_t *out)
{
	if (reg >= MAX_REGS || !(r->valid & (1ull << reg)))
		return -1;
	*out = r->v[reg];
	return 0;
}

/* Evaluate the DWARF expression OPS[0..N) as CFI uses it (registers of R,
 * memory of M, CFA for DW_OP_call_frame_cfa). Returns 0 and the value on
 * top of the stack. */
static int eval(const Dwarf_Op *ops, size_t n, const struct regs *r,
		const struct mem *m, uint64_t cfa, uint64_t bias, uint64_t *out)
{
	uint64_t st[EXPR_STACK];
	size_t sp = 0, steps = 0;
#define PUSH(x)                                                                \
	do {                                                                   \
		uint64_t x_ = (x);                                             \
		if (sp == EXPR_STACK)                                          \
			return -1;                                             \
		st[sp++] = x_;                                                 \
	} while (0)
#define NEED(k)                                                                \
	do {                                                                   \
		if (sp < (k))                                                  \
			return -1;                                             \
	} while (0)
	for (size_t i = 0; i < n; i++) {
		const Dwarf_Op *op = &ops[i];
		uint64_t a, b;
		if (++steps > EXPR_STEPS)
			return -1;
		uint8_t atom = op->atom;
		if (atom >= DW_OP_lit0 && atom <= DW_OP_lit31) {
			PUSH((uint64_t)(atom - DW_OP_lit0));
			continue;
		}
		if (atom >= DW_OP_breg0 && atom <= DW_OP_breg31) {
			if (reg_get(r, atom - DW_OP_breg0, &a))
				return -1;
			PUSH(a + op->number);
			continue;
		}
		if (atom >= DW_OP_reg0 && atom <= DW_OP_reg31) {
			if (reg_get(r, atom - DW_OP_reg0, &a))
				return -1;
			PUSH(a);
			continue;
		}
		switch (atom) {
		case DW_OP_addr: PUSH(op->number + bias); break;
		case DW_OP_const1u:
		case DW_OP_const1s:
		case DW_OP_const2u:
		case DW_OP_const2s:
		case DW_OP_const4u:
		case DW_OP_const4s:
		case DW_OP_const8u:
		case DW_OP_const8s:
		case DW_OP_constu:
		case DW_OP_consts: PUSH(op->number); break;
		case DW_OP_bregx:
			if (reg_get(r, op->number, &a))
				return -1;
			PUSH(a + op->number2);
			break;
		case DW_OP_regx:
			if (reg_get(r, op->number, &a))
				return -1;
			PUSH(a);
			break;
		case DW_OP_call_frame_cfa: PUSH(cfa); break;
		case DW_OP_dup:
			NEED(1);
			PUSH(st[sp - 1]);
			break;
		case DW_OP_drop:
			NEED(1);
			sp--;
			break;
		case DW_OP_over:
			NEED(2);
			PUSH(st[sp - 2]);
			break;
		case DW_OP_pick:
			if (op->number >= sp)
				return -1;
			PUSH(st[sp - 1 - op->number]);
			break;
		case DW_OP_swap:
			NEED(2);
			a = st[sp - 1];
			st[sp - 1] = st[sp - 2];
			st[sp - 2] = a;
			break;
		case DW_OP_rot:
			NEED(3);
			a = st[sp - 1];
			st[sp - 1] = st[sp - 2];
			st[sp - 2] = st[sp - 3];
			st[sp - 3] = a;
			break;
		case DW_OP_deref:
			NEED(1);
			if (mem_read(m, st[sp - 1], 8, &st[sp - 1]))
				return -1;
			break;
		case DW_OP_deref_size:
			NEED(1);
			if (op->number < 1 || op->number > 8 ||
			    mem_read(m, st[sp - 1], (unsigned)op->number,
				     &st[sp - 1]))
				return -1;
			break;
		case DW_OP_abs:
			NEED(1);
			if ((int64_t)st[sp - 1] < 0)
				st[sp - 1] = -st[sp - 1];
			break;
		case DW_OP_neg:
			NEED(1);
			st[sp - 1] = -st[sp - 1];
			break;
		case DW_OP_not:
			NEED(1);
			st[sp - 1] = ~st[sp - 1];
			break;
		case DW_OP_plus_uconst:
			NEED(1);
			st[sp - 1] += op->number;
			break;
		case DW_OP_and:
		case DW_OP_div:
		case DW_OP_minus:
		case DW_OP_mod:
		case DW_OP_mul:
		case DW_OP_or:
		case DW_OP_plus:
		case DW_OP_shl:
		case DW_OP_shr:
		case DW_OP_shra:
		case DW_OP_xor:
		case DW_OP_le:
		case DW_OP_ge:
		case DW_OP_eq:
		case DW_OP_lt:
		case DW_OP_gt:
		case DW_OP_ne:
			NEED(2);
			b = st[--sp];
			a = st[sp - 1];
			switch (atom) {
			case DW_OP_and: a &= b; break;
			case DW_OP_div:
				if (!b || ((int64_t)a == INT64_MIN &&
					   (int64_t)b == -1))
					return -1;
				a = (uint64_t)((int64_t)a / (int64_t)b);
				break;
			case DW_OP_minus: a -= b; break;
			case DW_OP_mod:
				if (!b)
					return -1;
				a %= b;
				break;
			case DW_OP_mul: a *= b; break;
			case DW_OP_or: a |= b; break;
			case DW_OP_plus: a += b; break;
			case DW_OP_shl: a = b < 64 ? a << b : 0; break;
			case DW_OP_shr: a = b < 64 ? a >> b : 0; break;
			case DW_OP_shra:
				a = (uint64_t)((int64_t)a >> (b < 63 ? b : 63));
				break;
			case DW_OP_xor: a ^= b; break;
			case DW_OP_le: a = (int64_t)a <= (int64_t)b; break;
			case DW_OP_ge: a = (int64_t)a >= (int64_t)b; break;
			case DW_OP_eq: a = a == b; break;
			case DW_OP_lt: a = (int64_t)a < (int64_t)b; break;
			case DW_OP_gt: a = (int64_t)a > (int64_t)b; break;
			case DW_OP_ne: a = a != b; break;
			}
			st[sp - 1] = a;
			break;
		case DW_OP_skip:
		case DW_OP_bra: {
			if (atom == DW_OP_bra) {
				NEED(1);
				if (!st[--sp])
					break;
			}
			/* The target is a byte offset: 3 bytes past the
			 * branch, plus its operand. */
			uint64_t to =
				op->offset + 3 + (int64_t)(int16_t)op->number;
			size_t j = 0;
			while (j < n && ops[j].offset < to)
				j++;
			if (j < n && ops[j].offset != to)
				return -1;
			i = j - 1; /* the loop's i++ lands on j */
			break;
		}
		case DW_OP_nop: break;
		case DW_OP_stack_value: i = n; break;
		default: return -1; /* not used by CFI, or not supported */
		}
	}
#undef PUSH
#undef NEED
	if (!sp)
		return -1;
	*out = st[sp - 1];
	return 0;
}

/* ---- stepping -------------------------------------------------------------- */

enum step { STEP_OK, STEP_END, STEP_FAIL };

/* Apply F to the frame in R (pc included), in place, to get its caller's;
 * CFA of the frame into *CFA. R is left half changed unless STEP_OK. */
static enum step step(const struct arch *a, const struct frame_rules *f,
		      struct regs *r, const struct mem *m, uint64_t bias,
		      uint64_t *cfa_out)
{
	uint64_t cfa;
	if (f->cfa_is_expr) {
		if (eval(f->cfa_ops, f->ncfa_ops, r, m, 0, bias, &cfa))
			return STEP_FAIL;
	} else {
		if (reg_get(r, f->cfa_reg, &cfa))
			return STEP_FAIL;
		cfa += (uint64_t)f->cfa_off;
	}
	if (f->ra_undef)
		return STEP_END;

	/* every rule reads the frame's registers as they were: the values
	 * first, then into R */
	uint64_t vals[MAX_REGS], ok_mask = 0;
	uint32_t nrules = f->nrules < MAX_REGS ? f->nrules : MAX_REGS;
	for (uint32_t i = 0; i < nrules; i++) {
		const struct rule *ru = &f->rules[i];
		uint64_t v = 0;
		int ok;
		switch (ru->kind) {
		case RULE_OFFSET:
			ok = !mem_read(m, cfa + (uint64_t)ru->off, 8, &v);
			break;
		case RULE_VAL_OFFSET:
			v = cfa + (uint64_t)ru->off;
			ok = 1;
			break;
		case RULE_REG: ok = !reg_get(r, ru->src, &v); break;
		case RULE_EXPR:
			ok = !eval(ru->ops, ru->nops, r, m, cfa, bias, &v) &&
			     !mem_read(m, v, 8, &v);
			break;
		case RULE_VAL_EXPR:
			ok = !eval(ru->ops, ru->nops, r, m, cfa, bias, &v);
			break;
		default: ok = 0; break;
		}
		vals[i] = v;
		ok_mask |= (uint64_t)ok << i;
	}
	r->valid &= ~f->undef;
	for (uint32_t i = 0; i < nrules; i++) {
		const struct rule *ru = &f->rules[i];
		uint64_t bit = 1ull << ru->reg;
		if (ok_mask >> i & 1) {
			r->v[ru->reg] = vals[i];
			r->valid |= bit;
		} else {
			r->valid &= ~bit;
		}
	}
	if (!f->has_sp) {
		r->v[a->sp] = cfa;
		r->valid |= 1ull << a->sp;
	}
	uint64_t pc;
	if (reg_get(r, f->ra, &pc))
		return STEP_FAIL; /* saved outside the copied stack */
	if (a->machine == EM_AARCH64 && (pc >> 48))
		/* a pointer authentication code in the return address
		 * (48-bit user addresses) */
		pc &= (1ull << 48) - 1;
	if (!pc)
		return STEP_END;
	r->pc = pc;
	if (a->pc >= 0) {
		r->v[a->pc] = pc;
		r->valid |= 1ull << a->pc;
	}
	*cfa_out = cfa;
	return STEP_OK;
}

static struct unwind_state *state(struct perfan__symctx *ctx)
{
	if (!ctx->unwind)
		ctx->unwind = calloc(1, sizeof(struct unwind_state));
	return ctx->unwind;
}

/* The recording's architecture (its arch feature), else that of the DSOs
 * the sample's registers point into: one of them is the pc, and every DSO
 * of a process has the process's machine. */
static const struct arch *sample_arch(struct perfan__symctx *ctx,
				      struct unwind_state *st,
				      const struct perfan__thread *t,
				      const struct perfan_sample *s)
{
	if (st->arch)
		return st->arch;
	/* Looked up until found: in pipe mode the features arrive as
	 * records. */
	const struct perfan_features *f =
		ctx->pd ? perfan_perfdata_features(ctx->pd) : NULL;
	if (f && perfan_features_has(f, PERFAN_FEAT_ARCH) && f->arch) {
		st->arch = arch_of_name(f->arch);
		if (st->arch)
			return st->arch;
		if (!st->warned_arch++)
			perfan__symlog(ctx, PERFAN_LOG_WARN,
				       "unwind: recorded on %s, which perfan "
				       "cannot unwind: user stacks end at "
				       "their first frame",
				       f->arch);
		return NULL;
	}
	for (size_t i = 0; i < s->user_regs.nr; i++) {
		const struct perfan__map *m = perfan__proc_map(
			&st->maps, t->proc, s->user_regs.regs[i]);
		struct dso_cfi *c = m ? dso_cfi(ctx, st, m->dso) : NULL;
		if (c && c->arch)
			return c->arch;
	}
	return NULL;
}

/* The DSOs a worker may read (perfan__unwind_worker_allow) and their CFI
 * as it reads it, through its own libelf handles. */
struct perfan__unwind_worker {
	struct perfan__htab by_dso; /* dso * -> dso_cfi *, or NO_CFI */
	struct perfan__map_cache maps;
};

/* by_dso's "allowed, CFI not read yet" and "no CFI" */
#define CFI_ALLOWED ((uint64_t)1)
#define NO_CFI ((uint64_t)2)

/* Where a walk gets its maps and CFI: the caller's thread (CTX, ST, T:
 * it loads what it needs) or a worker (W: it asks for the caller's thread
 * where it would need more than it was given). */
struct walk_env {
	struct perfan__symctx *ctx;
	struct unwind_state *st;
	struct perfan__thread *t;
	struct perfan__unwind_worker *w;
	const struct perfan__proc *proc;
	struct perfan__map_cache *maps;
};

/* The CFI of D on a worker; sets *LEAVE when the caller's thread must
 * unwind (D not allowed yet, or its files cannot be opened again). */
static struct dso_cfi *worker_cfi(struct perfan__unwind_worker *w,
				  struct perfan__dso *d, int *leave)
{
	uint64_t *v = perfan__htab_get(&w->by_dso, (uintptr_t)d);
	if (!v) {
		*leave = 1;
		return NULL;
	}
	if (*v == NO_CFI)
		return NULL;
	if (*v != CFI_ALLOWED)
		return (struct dso_cfi *)(uintptr_t)*v;
	/* the same files as the caller's thread reads, opened again */
	Elf *rt = NULL, *dbg = NULL;
	if ((d->runtime && !(rt = own_elf(d->runtime))) ||
	    (d->debug && !(dbg = own_elf(d->debug)))) {
		if (rt)
			elf_end(rt);
		*leave = 1;
		return NULL;
	}
	struct dso_cfi *c = cfi_new(d, rt, dbg, 1); /* it owns RT and DBG */
	*v = c ? (uintptr_t)c : NO_CFI;
	return c;
}

static struct dso_cfi *env_cfi(const struct walk_env *env,
			       struct perfan__dso *d, int *leave)
{
	return env->w ? worker_cfi(env->w, d, leave)
		      : dso_cfi(env->ctx, env->st, d);
}

/* The user stack of S from the registers it recorded, for architecture A
 * (see perfan__unwind_user). *LEAVE: a worker met what only the caller's
 * thread can do. */
static size_t walk(const struct walk_env *env, const struct arch *a,
		   const struct perfan_sample *s, uint64_t *ips, size_t max,
		   int *truncated, int *leave)
{
	const struct perfan_regs *ur = &s->user_regs;
	/* The registers recorded, to DWARF numbers. */
	struct regs r;
	memset(&r, 0, sizeof(r));
	int have_pc = 0;
	size_t k = 0;
	for (unsigned bit = 0; bit < 64 && k < ur->nr; bit++) {
		if (!(ur->mask & (1ull << bit)))
			continue;
		uint64_t v = ur->regs[k++];
		if (bit == a->perf_pc) {
			r.pc = v;
			have_pc = 1;
		} else if (bit < a->nperf && a->dwarf_of[bit] >= 0) {
			r.v[a->dwarf_of[bit]] = v;
			r.valid |= 1ull << a->dwarf_of[bit];
		}
	}
	if (!have_pc || !(r.valid & (1ull << a->sp)))
		return 0;
	if (a->pc >= 0) {
		r.v[a->pc] = r.pc;
		r.valid |= 1ull << a->pc;
	}
	struct mem m = {s->user_stack, r.v[a->sp], 0};
	if (s->user_stack)
		m.len = s->user_stack_dyn_size;

	size_t n = 0;
	int activation = 1; /* the pc is exact, not a return address */
	uint64_t prev_cfa = r.v[a->sp];
	ips[n++] = r.pc;
	/* the last frame's map and its CFI: callers are mostly in the
	 * same binary */
	const struct perfan__map *last = NULL;
	struct dso_cfi *c = NULL;
	for (;;) {
		/* A return address is looked up inside the call. */
		uint64_t at = activation ? r.pc : r.pc - 1;
		const struct perfan__map *map =
			perfan__proc_map(env->maps, env->proc, at);
		if (map != last) {
			last = map;
			c = map ? env_cfi(env, map->dso, leave) : NULL;
			if (*leave)
				return 0;
		}
		if (!c && map && a->machine == EM_X86_64) {
			if (env->w) { /* perf maps, jitdumps: not here */
				*leave = 1;
				return 0;
			}
			struct perfan__symctx *ctx = env->ctx;
			struct perfan__thread *t = env->t;
			/* a CPython perf trampoline: no unwind table, a
			 * stack effect known from libpython's copy */
			int64_t off;
			/* its start, from the perf map or jitdump naming it
			 * (else the arena's packing tells) */
			const struct perfan__jitsym *js = perfan__jit_find(
				ctx, t->proc, map->dso->pid, at, s->time, NULL);
			if (perfan__pytramp_cfa(&env->st->pytramps, ctx, t, map,
						r.pc, js ? js->start : 0, &off))
				return n;
			uint64_t cfa = r.v[a->sp] + (uint64_t)off, ra;
			if (mem_read(&m, cfa - 8, 8, &ra)) {
				if (n < max && m.len)
					ips[n++] = UINT64_MAX;
				return n;
			}
			if (!ra || cfa <= prev_cfa || n == max)
				return n;
			prev_cfa = cfa;
			r.v[a->sp] = cfa;
			r.pc = ra;
			if (a->pc >= 0)
				r.v[a->pc] = ra;
			activation = 0;
			ips[n++] = ra - 1;
			continue;
		}
		if (!c || c->arch != a)
			return n;
		uint64_t addr = perfan__symtab_off2addr(
			&map->dso->symtab, perfan__map_ip(map, at));
		const struct frame_rules *f = rules_at(c, addr);
		if (!f)
			return n;
		uint64_t cfa = 0;
		switch (step(a, f, &r, &m, at - addr, &cfa)) {
		case STEP_END: *truncated = 0; return n;
		case STEP_FAIL:
			/* What was needed lay outside the copied stack. perf
			 * (with libunwind) then reports one more frame at
			 * address -1, which it shows as [unknown]: so do we,
			 * so that stacks cut short read the same. (Nothing
			 * copied, as in a sample inside execve, cut nothing.) */
			if (n < max && m.len)
				ips[n++] = UINT64_MAX;
			return n;
		case STEP_OK: break;
		}
		/* The stack grows down: each caller's CFA lies above. */
		if (n > 1 ? cfa <= prev_cfa : cfa < prev_cfa)
			return n;
		prev_cfa = cfa;
		if (n == max)
			return n;
		activation = f->signal;
		ips[n++] = activation ? r.pc : r.pc - 1;
	}
}

size_t perfan__unwind_user(struct perfan__symctx *ctx, struct perfan__thread *t,
			   const struct perfan_event *ev,
			   const struct perfan_sample *s, uint64_t *ips,
			   size_t max, int *truncated)
{
	(void)ev; /* the sample carries its own register mask */
	*truncated = 1;
	struct unwind_state *st = state(ctx);
	const struct perfan_regs *ur = &s->user_regs;
	if (!st || !max || ur->abi != REGS_ABI_64 || !ur->regs)
		return 0;
	const struct arch *a = sample_arch(ctx, st, t, s);
	if (!a)
		return 0;
	struct walk_env env = {ctx, st, t, NULL, t->proc, &st->maps};
	int leave = 0;
	return walk(&env, a, s, ips, max, truncated, &leave);
}

const void *perfan__unwind_arch(struct perfan__symctx *ctx)
{
	const struct unwind_state *st = ctx->unwind;
	return st ? st->arch : NULL;
}

size_t perfan__unwind_fresh(struct perfan__symctx *ctx,
			    struct perfan__dso *const **out)
{
	struct unwind_state *st = ctx->unwind;
	if (!st)
		return 0;
	size_t n = st->nfresh;
	*out = st->fresh;
	st->nfresh = 0;
	return n;
}

int perfan__unwind_worker_new(struct perfan__unwind_worker **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : PERFAN_ENOMEM;
}

int perfan__unwind_worker_allow(struct perfan__unwind_worker *w,
				struct perfan__dso *d)
{
	if (perfan__htab_get(&w->by_dso, (uintptr_t)d))
		return 0;
	return perfan__htab_put(&w->by_dso, (uintptr_t)d, CFI_ALLOWED);
}

size_t perfan__unwind_worker_run(struct perfan__unwind_worker *w,
				 const void *arch,
				 const struct perfan__proc *proc,
				 const struct perfan_sample *s, uint64_t *ips,
				 size_t max, int *truncated, int *leave)
{
	*truncated = 1;
	*leave = 0;
	const struct perfan_regs *ur = &s->user_regs;
	if (!max || ur->abi != REGS_ABI_64 || !ur->regs)
		return 0;
	if (!arch) {
		*leave = 1;
		return 0;
	}
	struct walk_env env = {NULL, NULL, NULL, w, proc, &w->maps};
	return walk(&env, arch, s, ips, max, truncated, leave);
}

void perfan__unwind_worker_free(struct perfan__unwind_worker *w)
{
	if (!w)
		return;
	size_t pos = 0;
	uint64_t key, val;
	while (perfan__htab_next(&w->by_dso, &pos, &key, &val))
		if (val != CFI_ALLOWED && val != NO_CFI)
			dso_cfi_free((struct dso_cfi *)(uintptr_t)val);
	perfan__htab_free(&w->by_dso);
	free(w);
}

void perfan__unwind_free(struct perfan__symctx *ctx)
{
	struct unwind_state *st = ctx->unwind;
	if (!st)
		return;
	size_t pos = 0;
	uint64_t key, val;
	while (perfan__htab_next(&st->by_dso, &pos, &key, &val))
		dso_cfi_free((struct dso_cfi *)(uintptr_t)val);
	perfan__htab_free(&st->by_dso);
	free(st->fresh);
	perfan__pytramps_free(st->pytramps);
	free(st);
	ctx->unwind = NULL;
}
