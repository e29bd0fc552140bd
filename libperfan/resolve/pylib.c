/* resolve/pylib.c: the libpython an ELF python executable loads (its
 * DT_NEEDED libpython found as the dynamic loader would), or the
 * executable itself when it holds the interpreter. */
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "resolve/pylib.h"
#include "resolve/symbols.h"
#include "util/error.h"

/* DIRS (':'-separated, $ORIGIN as ORIGIN) joined with NAME: the first that
 * exists, malloc'd, in *OUT. */
static int search(const char *dirs, const char *origin, const char *name,
		  char **out)
{
	const char *p = dirs;
	while (p && *p) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char dir[PATH_MAX], path[PATH_MAX];
		if (n && n < sizeof(dir)) {
			memcpy(dir, p, n);
			dir[n] = '\0';
			const char *o = strstr(dir, "$ORIGIN");
			int w = o ? snprintf(path, sizeof(path), "%.*s%s%s/%s",
					     (int)(o - dir), dir, origin, o + 7,
					     name)
				  : snprintf(path, sizeof(path), "%s/%s", dir,
					     name);
			if (w > 0 && (size_t)w < sizeof(path) &&
			    !access(path, R_OK)) {
				*out = strdup(path);
				return *out ? 0 : perfan__nomem(NULL);
			}
		}
		p = end ? end + 1 : NULL;
	}
	return PERFAN_ENOTFOUND;
}

#define SYSTEM_DIRS                                                            \
	"/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib/aarch64-linux-"  \
	"gnu:/usr/lib/aarch64-linux-gnu:/lib64:/usr/lib64:/lib:/usr/lib:/usr/" \
	"local/lib"

int perfan__elf_libpython(const char *exe, const char *ld_library_path,
			  char **out)
{
	*out = NULL;
	struct perfan__elf *e = NULL;
	int err = perfan__elf_open(&e, exe);
	if (err)
		return err; /* (callers try another way: no message) */
	Elf *elf = e->elf;
	Elf_Scn *scn = NULL;
	const char *needed = NULL, *runpath = NULL, *rpath = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC ||
		    !sh.sh_entsize)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t n = d ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; i < n; i++) {
			GElf_Dyn dyn;
			if (!gelf_getdyn(d, (int)i, &dyn))
				continue;
			const char *s = NULL;
			if (dyn.d_tag == DT_NEEDED || dyn.d_tag == DT_RUNPATH ||
			    dyn.d_tag == DT_RPATH)
				s = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val);
			if (!s)
				continue;
			if (dyn.d_tag == DT_NEEDED &&
			    !strncmp(s, "libpython", 9))
				needed = s;
			else if (dyn.d_tag == DT_RUNPATH)
				runpath = s;
			else if (dyn.d_tag == DT_RPATH)
				rpath = s;
		}
	}
	if (!needed) {
		/* the interpreter is in the executable */
		*out = strdup(exe);
		err = *out ? 0 : perfan__nomem(NULL);
		goto done;
	}
	char origin[PATH_MAX];
	snprintf(origin, sizeof(origin), "%s", exe);
	char *slash = strrchr(origin, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(origin, sizeof(origin), ".");
	/* the loader's order: DT_RPATH (without DT_RUNPATH),
	 * LD_LIBRARY_PATH, DT_RUNPATH, the system's directories */
	err = PERFAN_ENOTFOUND;
	if (rpath && !runpath)
		err = search(rpath, origin, needed, out);
	if (err == PERFAN_ENOTFOUND && ld_library_path)
		err = search(ld_library_path, origin, needed, out);
	if (err == PERFAN_ENOTFOUND && runpath)
		err = search(runpath, origin, needed, out);
	if (err == PERFAN_ENOTFOUND)
		err = search(SYSTEM_DIRS, origin, needed, out);
	if (err == PERFAN_ENOTFOUND)
		err = perfan__err(PERFAN_ENOTFOUND,
				  "%s needs %s, found in none of its "
				  "library directories",
				  exe, needed);
done:
	perfan__elf_close(e);
	return err;
}
