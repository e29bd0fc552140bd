/* resolve/dwarf_internal.h: what dwarfinfo.c and dwarflines.c share: the
 * DWARF handle with its per-unit function index. */
#ifndef PERFAN_SYMBOLS_DWARF_INTERNAL_H
#define PERFAN_SYMBOLS_DWARF_INTERNAL_H

#include <dwarf.h>
#include <elfutils/libdw.h>

#include "resolve/symbols.h"
#include "util/htab.h"

/* Depth of nested inlining followed. */
#define MAX_DEPTH 64

struct fnrange {
	uint64_t lo, hi;
	Dwarf_Off die;
};

struct cu_index {
	struct fnrange *v;
	size_t n, cap;
};

struct perfan__dwarf {
	Dwarf *dw;
	struct perfan__htab cus; /* CU DIE offset -> index into idx */
	struct cu_index *idx;
	size_t nidx, capidx;
	/* No .debug_aranges (clang does not write it by default): units
	 * are found by their own ranges. */
	int scan_units;
};

/* The unit whose code holds ADDR. Returns 0 or -1. */
int perfan__dwarf_unit(struct perfan__dwarf *d, uint64_t addr, Dwarf_Die *cu);

/* The unit and function whose code holds ADDR (the innermost of those
 * starting at or below it). Returns 0 or -1. */
int perfan__dwarf_function(struct perfan__dwarf *d, uint64_t addr,
			   Dwarf_Die *cu, Dwarf_Die *fn);
/* The linkage name (mangled, for the demangler) where there is one, else
 * the plain name, following abstract origins and specifications. */
const char *perfan__dwarf_die_name(Dwarf_Die *die);

#endif
