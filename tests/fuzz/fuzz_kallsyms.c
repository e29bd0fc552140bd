/* fuzz_kallsyms.c: libFuzzer target for the kallsyms reader: the input is
 * read as a kallsyms file (resolve/kallsyms.c), as found and as from
 * another boot (moved by its _text). Promises checked: symbols in strictly
 * rising address order, each ending past its start, each found at its own
 * start, names non-empty and within their line, modules "[...]". A broken promise aborts with
 * a message on stderr. */
#define _GNU_SOURCE /* memfd_create */
#include <perfan/perfan.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memfd.h"
#include "resolve/symbols.h"

static void fuzz_kallsyms_fail(const char *what)
{
	fprintf(stderr, "fuzz_kallsyms: %s\n", what);
	abort();
}

static void check(const char *path, const char *reloc, uint64_t addr)
{
	struct perfan__kallsyms k;
	if (perfan__kallsyms_load(&k, path, reloc, addr))
		return;
	if (!k.n)
		fuzz_kallsyms_fail("loaded without symbols");
	size_t n = perfan__kallsyms_count(&k);
	uint64_t prev = 0;
	for (size_t i = 0; i < n; i++) {
		struct perfan__ksym s, f;
		perfan__kallsyms_at(&k, i, &s);
		if (i && s.start <= prev)
			fuzz_kallsyms_fail("symbols out of order");
		prev = s.start;
		if (s.end <= s.start)
			fuzz_kallsyms_fail("a symbol ends before it starts");
		if (!perfan__kallsyms_find(&k, s.start, &f) ||
		    f.start != s.start || f.name != s.name)
			fuzz_kallsyms_fail("a symbol not found at its start");
		if (!s.name || !s.name_len ||
		    memchr(s.name, '\n', s.name_len) ||
		    memchr(s.name, '\t', s.name_len))
			fuzz_kallsyms_fail(
				"an empty name, or one past its line");
		size_t ml = s.module ? strlen(s.module) : 0;
		if (s.module &&
		    (ml < 2 || s.module[0] != '[' || s.module[ml - 1] != ']'))
			fuzz_kallsyms_fail("a module not in brackets");
	}
	perfan__kallsyms_free(&k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = fuzz_memfd("kallsyms", data, size);
	if (fd < 0)
		return 0;
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	check(path, NULL, 0);
	check(path, "_text", 0xffffffff91000000ULL);
	close(fd);
	return 0;
}
