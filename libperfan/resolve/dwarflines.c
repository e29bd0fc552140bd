/* resolve/dwarflines.c: a whole function's source lines and inlined
 * instances in one pass each, for annotating it (dwarfinfo.c answers one
 * address at a time). */
#include <stdlib.h>

#include "resolve/dwarf_internal.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"

static int push_row(struct perfan__linerow **v, size_t *n, size_t *cap,
		    struct perfan__linerow r)
{
	/* Several rows at one address: the last one holds, as in
	 * addr2line. */
	if (*n && (*v)[*n - 1].addr == r.addr) {
		(*v)[*n - 1] = r;
		return 0;
	}
	if (perfan__grow((void **)v, cap, *n + 1, sizeof(**v)))
		return PERFAN_ENOMEM;
	(*v)[(*n)++] = r;
	return 0;
}

static struct perfan__linerow row_of(Dwarf_Line *l, uint64_t addr)
{
	struct perfan__linerow r = {addr, NULL, 0};
	bool end = false;
	int ln = 0;
	if (dwarf_lineendsequence(l, &end) || end)
		return r;
	r.file = dwarf_linesrc(l, NULL, NULL);
	if (!dwarf_lineno(l, &ln) && ln > 0)
		r.line = (uint32_t)ln;
	return r;
}

int perfan__dwarf_lines(struct perfan__dwarf *d, uint64_t lo, uint64_t hi,
			struct perfan__linerow **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	Dwarf_Die cu;
	Dwarf_Lines *lines;
	size_t nl;
	if (!d || perfan__dwarf_unit(d, lo, &cu) ||
	    dwarf_getsrclines(&cu, &lines, &nl))
		return 0;
	struct perfan__linerow *v = NULL, before = {lo, NULL, 0};
	size_t nv = 0, cap = 0;
	int have_before = 0;
	for (size_t i = 0; i < nl; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		if (!l || dwarf_lineaddr(l, &a))
			continue;
		if (a <= lo) {
			/* The row in force at LO: the last at or below it
			 * with a line. */
			struct perfan__linerow b = row_of(l, a);
			if ((!have_before || a >= before.addr) &&
			    (!b.file || b.line)) {
				before = b;
				have_before = 1;
			}
			continue;
		}
		if (a >= hi)
			continue;
		if (nv && a < v[nv - 1].addr)
			continue; /* another sequence: not this function's */
		struct perfan__linerow row = row_of(l, a);
		if (row.file && !row.line)
			continue; /* line 0 (code of no line): the line before
				     goes on, as llvm-objdump shows it */
		if (!nv) {
			struct perfan__linerow b = before;
			b.addr = lo;
			if (push_row(&v, &nv, &cap, b))
				goto nomem;
		}
		if (push_row(&v, &nv, &cap, row))
			goto nomem;
	}
	if (!nv && have_before) {
		before.addr = lo;
		if (push_row(&v, &nv, &cap, before))
			goto nomem;
	}
	*out = v;
	*n = nv;
	return 0;
nomem:
	free(v);
	return perfan__nomem(NULL);
}

struct walk {
	struct perfan__inlined *v;
	size_t n, cap;
	Dwarf_Files *files;
	size_t nfiles;
};

static int add_instance(struct walk *w, Dwarf_Die *in, uint32_t depth)
{
	Dwarf_Attribute a;
	Dwarf_Word word;
	struct perfan__inlined e = {0,    0, depth, perfan__dwarf_die_name(in),
				    NULL, 0};
	if (w->files && dwarf_attr(in, DW_AT_call_file, &a) &&
	    !dwarf_formudata(&a, &word) && word < w->nfiles)
		e.call_file = dwarf_filesrc(w->files, word, NULL, NULL);
	if (dwarf_attr(in, DW_AT_call_line, &a) &&
	    !dwarf_formudata(&a, &word) && word <= UINT32_MAX)
		e.call_line = (uint32_t)word;
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	while ((off = dwarf_ranges(in, off, &base, &lo, &hi)) > 0) {
		if (lo >= hi)
			continue;
		if (perfan__grow((void **)&w->v, &w->cap, w->n + 1,
				 sizeof(*w->v)))
			return PERFAN_ENOMEM;
		e.lo = lo;
		e.hi = hi;
		w->v[w->n++] = e;
	}
	return 0;
}

static int walk_children(struct walk *w, Dwarf_Die *die, uint32_t depth,
			 int level)
{
	Dwarf_Die c;
	if (level > MAX_DEPTH || dwarf_child(die, &c))
		return 0;
	do {
		int tag = dwarf_tag(&c);
		uint32_t dd = depth;
		if (tag == DW_TAG_inlined_subroutine) {
			dd = depth + 1;
			if (add_instance(w, &c, dd))
				return PERFAN_ENOMEM;
		} else if (tag != DW_TAG_lexical_block &&
			   tag != DW_TAG_try_block &&
			   tag != DW_TAG_catch_block) {
			continue;
		}
		int err = walk_children(w, &c, dd, level + 1);
		if (err)
			return err;
	} while (!dwarf_siblingof(&c, &c));
	return 0;
}

int perfan__dwarf_inlined(struct perfan__dwarf *d, uint64_t lo,
			  struct perfan__inlined **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	Dwarf_Die cu, fn;
	if (!d || perfan__dwarf_function(d, lo, &cu, &fn))
		return 0;
	struct walk w = {0};
	if (dwarf_getsrcfiles(&cu, &w.files, &w.nfiles))
		w.files = NULL;
	if (walk_children(&w, &fn, 0, 0)) {
		free(w.v);
		return perfan__nomem(NULL);
	}
	*out = w.v;
	*n = w.n;
	return 0;
}
