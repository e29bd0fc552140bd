/* fuzz_disasm.c: libFuzzer target for what annotate reads from an ELF
 * file: the input is opened as an ELF image (perfan__elf_open_mem), its
 * symbols loaded, and each of the first functions' code read, decoded with
 * the machine's decoder and given its DWARF lines and inlined instances.
 * Inputs that are no ELF are also decoded raw as x86-64 and aarch64 code.
 * Promises checked: instructions tile the code (each starts where the one
 * before ended, none is empty, none runs past the end), line rows are in
 * address order, inlined ranges are non-empty with a depth of at least 1.
 * A broken promise aborts with a message on stderr. */
#include <perfan/perfan.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resolve/disasm.h"
#include "resolve/symbols.h"

/* Functions looked at per input, so that one input stays fast. */
#define MAX_FUNCS 16
/* raw bytes decoded, at most: random code past 4 KiB finds nothing new
 * and costs its decoding (an instruction is 224 bytes) */
#define MAX_CODE (4u << 10)

static volatile size_t fuzz_disasm_sink;

static void fuzz_disasm_fail(const char *what)
{
	fprintf(stderr, "fuzz_disasm: %s\n", what);
	abort();
}

static void decode(uint16_t machine, const uint8_t *code, size_t len,
		   uint64_t addr)
{
	struct perfan__insn *v;
	size_t n;
	int rc = perfan__disasm_all(NULL, machine, 0, code, len, addr, &v, &n);
	if (rc == PERFAN_EUNSUPPORTED)
		return;
	if (rc)
		fuzz_disasm_fail("decoding failed");
	uint64_t at = addr;
	for (size_t i = 0; i < n; i++) {
		if (v[i].addr != at || !v[i].size)
			fuzz_disasm_fail("instructions do not tile the code");
		if (v[i].flow > PERFAN__FLOW_BAD)
			fuzz_disasm_fail("no such flow");
		fuzz_disasm_sink += strlen(v[i].text);
		at += v[i].size;
	}
	if (at != addr + len)
		fuzz_disasm_fail("instructions do not cover the code");
	free(v);
}

static void lines(struct perfan__dwarf *d, uint64_t lo, uint64_t hi)
{
	struct perfan__linerow *rows;
	size_t n;
	if (perfan__dwarf_lines(d, lo, hi, &rows, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		if (i && rows[i].addr <= rows[i - 1].addr)
			fuzz_disasm_fail("line rows out of order");
		if (rows[i].file)
			fuzz_disasm_sink += strlen(rows[i].file);
	}
	free(rows);
	struct perfan__inlined *in;
	if (perfan__dwarf_inlined(d, lo, &in, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		if (in[i].lo >= in[i].hi || !in[i].depth)
			fuzz_disasm_fail("bad inlined range");
		if (in[i].name)
			fuzz_disasm_sink += strlen(in[i].name);
		if (in[i].call_file)
			fuzz_disasm_sink += strlen(in[i].call_file);
	}
	free(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfan__elf *e = perfan__elf_open_mem(data, size, "fuzz");
	if (!e) {
		size_t len = size < MAX_CODE ? size : MAX_CODE;
		decode(62, data, len, 0x1000);
		decode(183, data, len, 0x1000);
		return 0;
	}
	struct perfan__symtab st;
	memset(&st, 0, sizeof(st));
	if (!perfan__symtab_load(&st, e, e, NULL)) {
		struct perfan__dwarf *d = perfan__dwarf_open(e);
		for (size_t i = 0; i < st.n && i < MAX_FUNCS; i++) {
			const struct perfan__sym *s = &st.syms[i];
			uint64_t sz = s->end - s->start;
			const uint8_t *code;
			size_t len;
			if (sz > MAX_CODE)
				sz = MAX_CODE;
			if (!perfan__elf_code(e, s->start, sz, &code, &len)) {
				if (len > sz)
					fuzz_disasm_fail(
						"more code than asked");
				decode(e->e_machine, code, len, s->start);
			}
			lines(d, s->start, s->end);
		}
		perfan__dwarf_close(d);
	}
	perfan__symtab_free(&st);
	perfan__elf_close(e);
	return 0;
}
