/* symbols/demangle.c: C++ and Rust symbol names made readable with
 * libiberty's demanglers, as perf shows them: no parameter lists (perf
 * demangles with DMGL_NO_OPTS), Rust hashes dropped, and a version or
 * @plt suffix kept as it was. */
#include <stdlib.h>
#include <string.h>

#include <demangle.h>

#include "symbols/symbols.h"

static char *demangle_core(const char *s)
{
	if (s[0] != '_')
		return NULL;
	if (s[1] == 'R') /* Rust v0 */
		return rust_demangle(s, DMGL_NO_OPTS);
	if (s[1] != 'Z')
		return NULL;
	/* Legacy Rust names are valid Itanium names with a hash at the end:
	 * the Rust demangler recognises them (and decodes $LT$ and the like)
	 * and refuses C++ ones. */
	char *r = rust_demangle(s, DMGL_NO_OPTS);
	if (r)
		return r;
	return cplus_demangle_v3(s, DMGL_NO_OPTS);
}

char *perfan__demangle(const char *name)
{
	if (name[0] != '_')
		return NULL;
	const char *at = strchr(name, '@');
	if (!at)
		return demangle_core(name);

	/* "name@VERSION", "name@@VERSION", "name@plt": demangle the name. */
	size_t len = (size_t)(at - name);
	char *base = malloc(len + 1);
	if (!base)
		return NULL;
	memcpy(base, name, len);
	base[len] = '\0';
	char *d = demangle_core(base);
	free(base);
	if (!d)
		return NULL;
	size_t dl = strlen(d), sl = strlen(at);
	char *r = malloc(dl + sl + 1);
	if (r) {
		memcpy(r, d, dl);
		memcpy(r + dl, at, sl + 1);
	}
	free(d);
	return r;
}
