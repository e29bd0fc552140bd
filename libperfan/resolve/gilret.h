/* resolve/gilret.h: where a libpython's take_gil returns. */
#ifndef PERFAN_RESOLVE_GILRET_H
#define PERFAN_RESOLVE_GILRET_H

#include <stdint.h>

/* The offset from take_gil's start of its only ret instruction, in the
 * ELF file PATH (a libpython, or a python linked statically with the
 * interpreter), found in its .symtab and decoded with capstone. Returns 0,
 * PERFAN_ENOTFOUND (no file, no take_gil), PERFAN_EUNSUPPORTED (not one
 * ret), with the message set. */
int perfan__gil_ret_offset(const char *path, uint64_t *off);

#endif
