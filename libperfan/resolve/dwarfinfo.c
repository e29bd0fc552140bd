/* resolve/dwarfinfo.c: what DWARF adds to a symbol (libdw): the functions
 * inlined at an address, and source file and line of each frame. Each
 * compile unit's functions are indexed by address once, so a lookup walks
 * one function's DIEs instead of the whole unit (dwarf_getscopes). */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "resolve/dwarf_internal.h"
#include "util/cmp.h"
#include "util/grow.h"
#include "util/search.h"

struct perfan__dwarf *perfan__dwarf_open(struct perfan__elf *e)
{
	if (!e || !e->has_debug_info)
		return NULL;
	Dwarf *dw = dwarf_begin_elf(e->elf, DWARF_C_READ, NULL);
	if (!dw)
		return NULL;
	struct perfan__dwarf *d = calloc(1, sizeof(*d));
	if (!d) {
		dwarf_end(dw);
		return NULL;
	}
	d->dw = dw;
	Dwarf_Aranges *ar;
	size_t nar = 0;
	if (dwarf_getaranges(dw, &ar, &nar) || nar == 0)
		d->scan_units = 1;
	return d;
}

int perfan__dwarf_unit(struct perfan__dwarf *d, uint64_t addr, Dwarf_Die *cu)
{
	if (dwarf_addrdie(d->dw, addr, cu))
		return 0;
	if (!d->scan_units)
		return -1;
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (!dwarf_nextcu(d->dw, off, &next, &hsize, NULL, NULL, NULL)) {
		if (dwarf_offdie(d->dw, off + hsize, cu) &&
		    dwarf_haspc(cu, addr) > 0)
			return 0;
		off = next;
	}
	return -1;
}

void perfan__dwarf_close(struct perfan__dwarf *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nidx; i++)
		free(d->idx[i].v);
	free(d->idx);
	perfan__htab_free(&d->cus);
	dwarf_end(d->dw);
	free(d);
}

static int add_range(struct cu_index *ci, uint64_t lo, uint64_t hi,
		     Dwarf_Off die)
{
	if (lo >= hi)
		return 0;
	if (perfan__grow((void **)&ci->v, &ci->cap, ci->n + 1, sizeof(*ci->v)))
		return -1;
	ci->v[ci->n++] = (struct fnrange){lo, hi, die};
	return 0;
}

/* Functions with code under DIE (a unit, namespace, class...). */
static int index_children(struct cu_index *ci, Dwarf_Die *die, int depth)
{
	Dwarf_Die c;
	if (depth > MAX_DEPTH || dwarf_child(die, &c))
		return 0;
	do {
		int tag = dwarf_tag(&c);
		if (tag == DW_TAG_subprogram) {
			Dwarf_Addr base, lo, hi;
			ptrdiff_t off = 0;
			while ((off = dwarf_ranges(&c, off, &base, &lo, &hi)) >
			       0)
				if (add_range(ci, lo, hi, dwarf_dieoffset(&c)))
					return -1;
		} else if (tag == DW_TAG_namespace ||
			   tag == DW_TAG_class_type ||
			   tag == DW_TAG_structure_type ||
			   tag == DW_TAG_union_type || tag == DW_TAG_module) {
			if (index_children(ci, &c, depth + 1))
				return -1;
		}
	} while (!dwarf_siblingof(&c, &c));
	return 0;
}

static int range_cmp(const void *a, const void *b)
{
	const struct fnrange *x = a, *y = b;
	int c = perfan__cmp_u64(x->lo, y->lo);
	return c ? c : perfan__cmp_u64(x->hi, y->hi);
}

static struct cu_index *cu_index(struct perfan__dwarf *d, Dwarf_Die *cu)
{
	Dwarf_Off key = dwarf_dieoffset(cu);
	uint64_t *v = perfan__htab_get(&d->cus, key);
	if (v)
		return &d->idx[*v];
	if (perfan__grow((void **)&d->idx, &d->capidx, d->nidx + 1,
			 sizeof(*d->idx)))
		return NULL;
	struct cu_index *ci = &d->idx[d->nidx];
	memset(ci, 0, sizeof(*ci));
	if (index_children(ci, cu, 0) ||
	    perfan__htab_put(&d->cus, key, d->nidx)) {
		free(ci->v);
		return NULL;
	}
	if (ci->n)
		qsort(ci->v, ci->n, sizeof(*ci->v), range_cmp);
	d->nidx++;
	return ci;
}

static int find_function(struct perfan__dwarf *d, struct cu_index *ci,
			 uint64_t addr, Dwarf_Die *out)
{
	size_t lo = perfan__count_le(ci->v, ci->n, sizeof(*ci->v),
				     offsetof(struct fnrange, lo), addr);
	for (size_t i = lo, k = 0; i > 0 && k < 16; i--, k++)
		if (addr < ci->v[i - 1].hi)
			return dwarf_offdie(d->dw, ci->v[i - 1].die, out) ? 0
									  : -1;
	return -1;
}

const char *perfan__dwarf_die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *n = NULL;
	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a))
		n = dwarf_formstring(&a);
	if (!n)
		n = dwarf_diename(die);
	return n;
}

/* The inlined subroutines holding ADDR inside FN, outermost first. */
static size_t inline_chain(Dwarf_Die *fn, uint64_t addr, Dwarf_Die *chain,
			   size_t max)
{
	size_t n = 0;
	Dwarf_Die cur = *fn;
	for (int depth = 0; depth < MAX_DEPTH; depth++) {
		Dwarf_Die c;
		int found = 0;
		if (dwarf_child(&cur, &c))
			break;
		do {
			int tag = dwarf_tag(&c);
			if (tag != DW_TAG_inlined_subroutine &&
			    tag != DW_TAG_lexical_block &&
			    tag != DW_TAG_try_block &&
			    tag != DW_TAG_catch_block)
				continue;
			if (dwarf_haspc(&c, addr) <= 0)
				continue;
			if (tag == DW_TAG_inlined_subroutine && n < max)
				chain[n++] = c;
			cur = c;
			found = 1;
			break;
		} while (!dwarf_siblingof(&c, &c));
		if (!found)
			break;
	}
	return n;
}

int perfan__dwarf_function(struct perfan__dwarf *d, uint64_t addr,
			   Dwarf_Die *cu, Dwarf_Die *fn)
{
	if (perfan__dwarf_unit(d, addr, cu))
		return -1;
	struct cu_index *ci = cu_index(d, cu);
	return !ci || find_function(d, ci, addr, fn) ? -1 : 0;
}

size_t perfan__dwarf_frames(struct perfan__dwarf *d, uint64_t addr, int inlines,
			    int lines, struct perfan__srcframe *out, size_t max)
{
	if (!d || !max)
		return 0;
	Dwarf_Die cu, fn;
	if (perfan__dwarf_function(d, addr, &cu, &fn))
		return 0;

	Dwarf_Die chain[MAX_DEPTH];
	size_t nc = inlines ? inline_chain(&fn, addr, chain,
					   max - 1 < MAX_DEPTH ? max - 1
							       : MAX_DEPTH)
			    : 0;
	/* Innermost first: chain reversed, then the function. */
	size_t n = 0;
	for (size_t i = nc; i > 0; i--)
		out[n++] = (struct perfan__srcframe){
			perfan__dwarf_die_name(&chain[i - 1]), NULL, 0, 1};
	out[n++] = (struct perfan__srcframe){perfan__dwarf_die_name(&fn), NULL,
					     0, 0};
	if (!lines)
		return n;

	Dwarf_Line *l = dwarf_getsrc_die(&cu, addr);
	int ln;
	if (l) {
		out[0].file = dwarf_linesrc(l, NULL, NULL);
		if (!dwarf_lineno(l, &ln) && ln > 0)
			out[0].line = (uint32_t)ln;
	}
	/* An inlined subroutine was called from the frame outside it, at its
	 * DW_AT_call_file:DW_AT_call_line. */
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	if (dwarf_getsrcfiles(&cu, &files, &nfiles))
		files = NULL;
	for (size_t k = 0; k < nc; k++) {
		Dwarf_Die *in = &chain[nc - 1 - k]; /* out[k]'s DIE */
		struct perfan__srcframe *caller = &out[k + 1];
		Dwarf_Attribute a;
		Dwarf_Word w;
		if (files && dwarf_attr(in, DW_AT_call_file, &a) &&
		    !dwarf_formudata(&a, &w) && w < nfiles)
			caller->file = dwarf_filesrc(files, w, NULL, NULL);
		if (dwarf_attr(in, DW_AT_call_line, &a) &&
		    !dwarf_formudata(&a, &w) && w <= UINT32_MAX)
			caller->line = (uint32_t)w;
	}
	return n;
}
