/* resolve/funcinfo.c: one function's instructions with their source lines
 * and inline chains, from the files the resolver found for its DSO. */
#include <stdlib.h>
#include <string.h>

#include "resolve/funcinfo.h"
#include "util/error.h"
#include "util/log.h"

/* The code: the binary's, else a debug file's when it has contents. */
static int code_of(const struct perfan__dso *d, uint64_t start, uint64_t size,
		   const uint8_t **code, size_t *len, uint16_t *machine)
{
	const struct perfan__elf *files[2] = {d->runtime, d->debug};
	for (int i = 0; i < 2; i++) {
		if (!files[i])
			continue;
		if (!perfan__elf_code(files[i], start, size, code, len) &&
		    *len) {
			*machine = files[i]->e_machine;
			return 0;
		}
	}
	if (!d->runtime && !d->debug)
		return perfan__err(PERFAN_ENOTFOUND,
				   "%s: binary not found (give --symfs or "
				   "--buildid-dir)",
				   d->path);
	return perfan__err(PERFAN_ENOTFOUND, "%s: no code at %#llx in %s",
			   d->path, (unsigned long long)start,
			   d->runtime ? d->runtime->path : d->debug->path);
}

/* Each instruction's row: the last row at or below its address. */
static void assign_lines(struct perfan__func *f,
			 const struct perfan__linerow *rows, size_t nrows)
{
	size_t r = 0;
	for (size_t i = 0; i < f->n; i++) {
		uint64_t a = f->insns[i].in.addr;
		while (r + 1 < nrows && rows[r + 1].addr <= a)
			r++;
		if (nrows && rows[r].addr <= a) {
			f->insns[i].file = rows[r].file;
			f->insns[i].line = rows[r].line;
		}
	}
}

static size_t first_at(const struct perfan__func *f, uint64_t addr)
{
	size_t lo = 0, hi = f->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->insns[mid].in.addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int deeper_first(const void *a, const void *b)
{
	const struct perfan__inlined *x =
		*(const struct perfan__inlined *const *)a;
	const struct perfan__inlined *y =
		*(const struct perfan__inlined *const *)b;
	return x->depth < y->depth ? 1 : x->depth > y->depth ? -1 : 0;
}

/* Each instruction's inline chain: count, place, then sort innermost
 * first. */
static int assign_chains(struct perfan__func *f)
{
	size_t total = 0;
	for (size_t k = 0; k < f->ninl; k++)
		for (size_t i = first_at(f, f->inl[k].lo);
		     i < f->n && f->insns[i].in.addr < f->inl[k].hi; i++) {
			f->insns[i].inl_n++;
			total++;
		}
	if (!total)
		return 0;
	f->chain = malloc(total * sizeof(*f->chain));
	if (!f->chain)
		return perfan__nomem(NULL);
	uint32_t at = 0;
	for (size_t i = 0; i < f->n; i++) {
		f->insns[i].inl_first = at;
		at += f->insns[i].inl_n;
		f->insns[i].inl_n = 0;
	}
	for (size_t k = 0; k < f->ninl; k++)
		for (size_t i = first_at(f, f->inl[k].lo);
		     i < f->n && f->insns[i].in.addr < f->inl[k].hi; i++) {
			struct perfan__func_insn *in = &f->insns[i];
			f->chain[in->inl_first + in->inl_n++] = &f->inl[k];
		}
	for (size_t i = 0; i < f->n; i++)
		if (f->insns[i].inl_n > 1)
			qsort(f->chain + f->insns[i].inl_first,
			      f->insns[i].inl_n, sizeof(*f->chain),
			      deeper_first);
	return 0;
}

int perfan__func_load(const perfan_dso *dso, uint64_t start, uint64_t size,
		      const struct perfan__disasm_ops *ops, unsigned flags,
		      struct perfan__func *out)
{
	memset(out, 0, sizeof(*out));
	struct perfan__dso *d = (struct perfan__dso *)dso;
	const uint8_t *code;
	size_t len;
	int err = code_of(d, start, size, &code, &len, &out->machine);
	if (err)
		return err;
	struct perfan__insn *ins;
	size_t n;
	err = perfan__disasm_all(ops, out->machine, flags, code, len, start,
				 &ins, &n);
	if (err)
		return err;
	out->insns = calloc(n ? n : 1, sizeof(*out->insns));
	if (!out->insns) {
		free(ins);
		return perfan__nomem(NULL);
	}
	out->n = n;
	for (size_t i = 0; i < n; i++) {
		out->insns[i].in = ins[i];
		if (ins[i].flow == PERFAN__FLOW_BAD)
			out->bad++;
	}
	free(ins);

	struct perfan__dwarf *dw = perfan__dso_dwarf(d);
	struct perfan__linerow *rows;
	size_t nrows;
	if ((err = perfan__dwarf_lines(dw, start, start + size, &rows, &nrows)))
		goto fail;
	assign_lines(out, rows, nrows);
	out->have_lines = nrows > 0;
	free(rows);
	if ((err = perfan__dwarf_inlined(dw, start, &out->inl, &out->ninl)) ||
	    (err = assign_chains(out)))
		goto fail;
	return 0;
fail:
	perfan__func_free(out);
	return err;
}

void perfan__func_free(struct perfan__func *f)
{
	if (!f)
		return;
	free(f->insns);
	free(f->chain);
	free(f->inl);
	memset(f, 0, sizeof(*f));
}
