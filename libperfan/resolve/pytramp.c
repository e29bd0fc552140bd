/* resolve/pytramp.c: unwinding through CPython's perf trampolines. The code
 * `python -X perf` copies into anonymous memory for each Python function
 * has no unwind table, so perf's unwinder stops at the first one. Its bytes
 * are those of libpython's _Py_trampoline_func_start.._end; their effect on
 * the stack pointer is read off the instructions (not assumed), which gives
 * the CFA at every offset of a trampoline. */
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "resolve/pytramp.h"
#include "resolve/symbols.h"
#include "util/grow.h"

/* The template of one libpython, or the knowledge that a DSO has none. */
struct tmpl {
	const struct perfan__dso *dso;
	int ok;
	uint32_t size;
	int16_t cfa_sp[PERFAN__PYTRAMP_MAX + 1]; /* CFA - SP; -1: unknown */
};

struct perfan__pytramps {
	struct tmpl *t;
	size_t n, cap;
};

void perfan__pytramps_free(struct perfan__pytramps *p)
{
	if (!p)
		return;
	free(p->t);
	free(p);
}

/* LEN bytes of E at virtual address ADDR, from the section holding them. */
static int read_bytes(struct perfan__elf *e, uint64_t addr, uint8_t *out,
		      size_t len)
{
	Elf *elf = e->elf;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    addr < sh.sh_addr || addr - sh.sh_addr >= sh.sh_size ||
		    len > sh.sh_size - (addr - sh.sh_addr))
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || d->d_size < sh.sh_size)
			return -1;
		memcpy(out, (const uint8_t *)d->d_buf + (addr - sh.sh_addr),
		       len);
		return 0;
	}
	return -1;
}

/* Simulate the x86-64 instructions of a trampoline: the CFA - SP at each
 * instruction boundary. Only what trampolines are made of is understood
 * (endbr64, push/pop %rbp, mov %rsp,%rbp, sub/add $imm8,%rsp, call *%reg,
 * ret, nop); anything else makes the template unusable. */
static int simulate(struct tmpl *t, const uint8_t *b, uint32_t n)
{
	for (uint32_t i = 0; i <= PERFAN__PYTRAMP_MAX; i++)
		t->cfa_sp[i] = -1;
	int sp = 8; /* CFA - SP on entry: the return address */
	uint32_t i = 0;
	while (i < n) {
		t->cfa_sp[i] = (int16_t)sp;
		uint32_t left = n - i, len = 0;
		if (left >= 4 && b[i] == 0xf3 && b[i + 1] == 0x0f &&
		    b[i + 2] == 0x1e && b[i + 3] == 0xfa)
			len = 4; /* endbr64 */
		else if (b[i] == 0x90)
			len = 1; /* nop */
		else if (b[i] == 0x55)
			len = 1, sp += 8; /* push %rbp */
		else if (b[i] == 0x5d)
			len = 1, sp -= 8; /* pop %rbp */
		else if (left >= 3 && b[i] == 0x48 && b[i + 1] == 0x89 &&
			 b[i + 2] == 0xe5)
			len = 3; /* mov %rsp,%rbp */
		else if (left >= 4 && b[i] == 0x48 && b[i + 1] == 0x83 &&
			 b[i + 2] == 0xec)
			len = 4, sp += (int8_t)b[i + 3]; /* sub $imm8,%rsp */
		else if (left >= 4 && b[i] == 0x48 && b[i + 1] == 0x83 &&
			 b[i + 2] == 0xc4)
			len = 4, sp -= (int8_t)b[i + 3]; /* add $imm8,%rsp */
		else if (left >= 2 && b[i] == 0xff && (b[i + 1] & 0xf8) == 0xd0)
			len = 2; /* call *%reg: the callee returns here */
		else if (left >= 3 && b[i] == 0x41 && b[i + 1] == 0xff &&
			 (b[i + 2] & 0xf8) == 0xd0)
			len = 3; /* call *%r8..%r15 */
		else if (b[i] == 0xc3)
			len = 1; /* ret */
		else
			return -1;
		if (sp < 8 || sp > 4096)
			return -1;
		i += len;
	}
	t->cfa_sp[n] = (int16_t)sp;
	return sp == 8 ? 0 : -1; /* balanced, as a trampoline is */
}

/* The template of DSO, computed once. */
static const struct tmpl *template_of(struct perfan__pytramps *p,
				      struct perfan__symctx *ctx,
				      struct perfan__dso *dso)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->t[i].dso == dso)
			return &p->t[i];
	if (perfan__grow((void **)&p->t, &p->cap, p->n + 1, sizeof(*p->t)))
		return NULL;
	struct tmpl *t = &p->t[p->n++];
	memset(t, 0, sizeof(*t));
	t->dso = dso;
	perfan__dso_load(ctx, dso);
	if (!dso->has_symtab || !dso->runtime ||
	    dso->runtime->e_machine != EM_X86_64)
		return t;
	uint64_t start = 0, end = 0;
	for (size_t i = 0; i < dso->symtab.n; i++) {
		const struct perfan__sym *s = &dso->symtab.syms[i];
		if (!strcmp(s->name, "_Py_trampoline_func_start"))
			start = s->start;
		else if (!strcmp(s->name, "_Py_trampoline_func_end"))
			end = s->start;
	}
	if (!start || end <= start || end - start > PERFAN__PYTRAMP_MAX)
		return t;
	uint8_t b[PERFAN__PYTRAMP_MAX];
	t->size = (uint32_t)(end - start);
	if (read_bytes(dso->runtime, start, b, t->size) ||
	    simulate(t, b, t->size))
		return t;
	t->ok = 1;
	return t;
}

int perfan__pytramp_cfa(struct perfan__pytramps **pp,
			struct perfan__symctx *ctx,
			const struct perfan__thread *t,
			const struct perfan__map *map, uint64_t pc,
			uint64_t entry, int64_t *cfa_sp)
{
	if (!*pp && !(*pp = calloc(1, sizeof(**pp))))
		return -1;
	if (!t->proc || !t->proc->maps || !map)
		return -1;
	/* the libpython of this process */
	const struct tmpl *tp = NULL;
	const struct perfan__maps *ms = t->proc->maps;
	for (size_t i = 0; i < ms->n && !tp; i++) {
		struct perfan__dso *d = ms->v[i].dso;
		if (!d || d->kind != PERFAN__DSO_FILE ||
		    !(ms->v[i].prot & 4 /* PROT_EXEC */) ||
		    !strstr(d->short_name, "python"))
			continue;
		const struct tmpl *c = template_of(*pp, ctx, d);
		if (c && c->ok)
			tp = c;
	}
	if (!tp)
		return -1;
	/* the trampoline's start: the perf map's entry when there is one,
	 * else the packing of the arena (copies back to back from its
	 * start) */
	uint64_t off = entry && pc >= entry ? pc - entry
					    : (pc - map->start) % tp->size;
	if (off >= tp->size || tp->cfa_sp[off] < 0)
		return -1;
	*cfa_sp = tp->cfa_sp[off];
	return 0;
}
