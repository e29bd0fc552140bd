/* util/demangle.h: the demanglers that the perf.data resolver and the
 * perf script reader share, so that a name reads the same from both. */
#ifndef PERFAN_UTIL_DEMANGLE_H
#define PERFAN_UTIL_DEMANGLE_H

#include <stddef.h>

/* C++ (Itanium) and Rust (legacy and v0) names demangled the way perf shows
 * them (no parameter lists, Rust hashes stripped). A malloc'd string, or
 * NULL when NAME is not mangled. */
char *perfan__demangle(const char *name);

/* A Rust legacy name that a C++ demangler left half done, as perf script
 * prints it where its own Rust pass gave up:
 * "GcBox$LT$T$GT$::new::_$u7b$$u7b$closure$u7d$$u7d$::h0123456789abcdef",
 * the N bytes at S. Mangled again and demangled as perfan__demangle does a
 * symbol ("GcBox<T>::new::{{closure}}"). A malloc'd string, or NULL when it
 * is not one (no "::h" and 16 hex digits at the end, a part that is not a
 * legacy identifier, or a name the Rust demangler refuses). */
char *perfan__demangle_rust_partial(const char *s, size_t n);

#endif
