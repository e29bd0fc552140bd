/* util/demangle.c: C++ and Rust symbol names made readable with
 * libiberty's demanglers, as perf shows them: no parameter lists (perf
 * demangles with DMGL_NO_OPTS), Rust hashes dropped, and a version or
 * @plt suffix kept as it was; and Rust names that perf script left half
 * demangled, finished by the same demangler. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <demangle.h>

#include "util/demangle.h"

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

/* A byte of a legacy Rust identifier as rustc mangles it: what is not
 * [A-Za-z0-9_] comes as "$..$" escapes and '.'. */
static int legacy_ident_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.';
}

/* The end of the part of a path that starts at B: its "::" or PATH. */
static size_t part_end(const char *s, size_t path, size_t b)
{
	for (size_t i = b; i + 1 < path; i++)
		if (s[i] == ':' && s[i + 1] == ':')
			return i;
	return path;
}

char *perfan__demangle_rust_partial(const char *s, size_t n)
{
	/* "::h" and the 16 hex digits of the hash end the name */
	static const size_t hash_len = 3 + 16;
	if (n <= hash_len || memcmp(s + n - hash_len, "::h", 3))
		return NULL;
	for (size_t i = n - 16; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return NULL;
	}
	/* Mangle the path again, "_ZN" LEN IDENT ... "17h" HASH "E", so that
	 * the demangler that reads symbols reads it: one set of rules for
	 * perf.data and perf script text. */
	size_t path = n - hash_len, need = 3 + 3 + 16 + 2;
	for (size_t b = 0, e; b < path; b = e == path ? path : e + 2) {
		e = part_end(s, path, b);
		if (e == b || (s[b] >= '0' && s[b] <= '9') ||
		    (e < path && e + 2 == path))
			return NULL; /* empty, or its length would run on */
		for (size_t i = b; i < e; i++)
			if (!legacy_ident_byte((unsigned char)s[i]))
				return NULL; /* not a mangled part */
		need += 20 + (e - b);
	}
	char *m = malloc(need);
	if (!m)
		return NULL;
	size_t w = (size_t)snprintf(m, need, "_ZN");
	for (size_t b = 0, e; b < path; b = e == path ? path : e + 2) {
		e = part_end(s, path, b);
		w += (size_t)snprintf(m + w, need - w, "%zu%.*s", e - b,
				      (int)(e - b), s + b);
	}
	snprintf(m + w, need - w, "17h%.16sE", s + n - 16);
	char *r = rust_demangle(m, DMGL_NO_OPTS);
	free(m);
	return r;
}
