/* resolve/pylib.h: which file of a python executable holds its
 * interpreter. */
#ifndef PERFAN_RESOLVE_PYLIB_H
#define PERFAN_RESOLVE_PYLIB_H

/* The libpython that the ELF executable EXE names in its DT_NEEDED,
 * looked up as the dynamic loader does (DT_RPATH, LD_LIBRARY_PATH as
 * given, DT_RUNPATH, the system's directories; $ORIGIN expanded), or EXE
 * itself when it needs no libpython (the interpreter linked in), malloc'd
 * in *OUT. PERFAN_ENOTFOUND or PERFAN_EFORMAT without a message when EXE
 * is missing or not ELF (a script: the caller asks the interpreter);
 * PERFAN_ENOTFOUND with one when the library is nowhere. */
int perfan__elf_libpython(const char *exe, const char *ld_library_path,
			  char **out);

#endif
