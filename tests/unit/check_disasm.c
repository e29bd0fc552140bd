/* check_disasm.c: the disassembler behind resolve/disasm.h and the DWARF
 * line and inline tables annotate reads: aarch64 (testdata/unwind-aarch64,
 * testdata/annotate-aarch64, against llvm-objdump) and x86-64
 * (testdata/annotate, against the instruction addresses perf annotate
 * printed through objdump). */
#include <check.h>
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resolve/disasm.h"
#include "resolve/symbols.h"
#include "testutil.h"

#define EM_X86_64_ 62
#define EM_AARCH64_ 183

struct fn {
	struct perfan__elf *e;
	struct perfan__symtab st;
	const struct perfan__sym *sym;
	struct perfan__insn *v;
	size_t n;
};

/* Function NAME of testdata file REL, disassembled (FLAGS as disasm.h). */
static void load_fn(struct fn *f, const char *rel, const char *name,
		    unsigned flags)
{
	memset(f, 0, sizeof(*f));
	ck_assert_int_eq(perfan__elf_open(&f->e, tu_testdata(rel)), 0);
	ck_assert_int_eq(perfan__symtab_load(&f->st, f->e, f->e, NULL), 0);
	for (size_t i = 0; i < f->st.n; i++)
		if (!strcmp(f->st.syms[i].name, name))
			f->sym = &f->st.syms[i];
	ck_assert_msg(f->sym != NULL, "%s: no symbol %s", rel, name);
	const uint8_t *code;
	size_t len;
	ck_assert_int_eq(perfan__elf_code(f->e, f->sym->start,
					  f->sym->end - f->sym->start, &code,
					  &len),
			 0);
	ck_assert_uint_eq(len, f->sym->end - f->sym->start);
	ck_assert_int_eq(perfan__disasm_all(NULL, f->e->e_machine, flags, code,
					    len, f->sym->start, &f->v, &f->n),
			 0);
}

static void free_fn(struct fn *f)
{
	free(f->v);
	perfan__symtab_free(&f->st);
	perfan__elf_close(f->e);
}

static uint64_t sym_start(const struct fn *f, const char *name)
{
	for (size_t i = 0; i < f->st.n; i++)
		if (!strcmp(f->st.syms[i].name, name))
			return f->st.syms[i].start;
	ck_abort_msg("no symbol %s", name);
	return 0;
}

/* frames.S: mid is seven 4-byte instructions: stp, mov, str, bl leaf,
 * ldr, ldp, ret; _start ends in "b ." (a branch to itself). */
START_TEST(test_aarch64_flow)
{
	struct fn f;
	load_fn(&f, "unwind-aarch64/frames", "mid", 0);
	ck_assert_uint_eq(f.e->e_machine, EM_AARCH64_);
	ck_assert_uint_eq(f.n, 7);
	for (size_t i = 0; i < f.n; i++) {
		ck_assert_uint_eq(f.v[i].size, 4);
		ck_assert_uint_eq(f.v[i].addr, f.sym->start + 4 * i);
	}
	ck_assert_uint_eq(f.v[3].flow, PERFAN__FLOW_CALL);
	ck_assert(f.v[3].has_target);
	ck_assert_uint_eq(f.v[3].target, sym_start(&f, "leaf"));
	ck_assert_str_eq(f.v[3].text, "bl #0x210224");
	ck_assert_uint_eq(f.v[6].flow, PERFAN__FLOW_RET);
	ck_assert(!f.v[6].has_target);
	ck_assert_uint_eq(f.v[0].flow, PERFAN__FLOW_SEQ);
	free_fn(&f);

	load_fn(&f, "unwind-aarch64/frames", "_start", 0);
	const struct perfan__insn *last = &f.v[f.n - 1];
	ck_assert_uint_eq(last->flow, PERFAN__FLOW_JUMP);
	ck_assert(last->has_target);
	ck_assert_uint_eq(last->target, last->addr);
	ck_assert_uint_eq(f.v[1].flow, PERFAN__FLOW_CALL);
	ck_assert_uint_eq(f.v[1].target, sym_start(&f, "mid"));
	free_fn(&f);
}
END_TEST

/* llvm-objdump -d -l: "; FILE:LINE" where the line changes, then
 * "  ADDR: bytes  insn" rows. Each row's line into LINES[i] / ADDRS[i]. */
static size_t read_oracle(const char *path, uint64_t *addrs, uint32_t *lines,
			  char (*mnem)[16], size_t max)
{
	FILE *fp = fopen(path, "r");
	ck_assert_msg(fp != NULL, "%s", path);
	char buf[512];
	uint32_t cur = 0;
	size_t n = 0;
	while (fgets(buf, sizeof(buf), fp) && n < max) {
		const char *colon;
		unsigned long long a;
		if (buf[0] == ';' && (colon = strrchr(buf, ':'))) {
			cur = (uint32_t)strtoul(colon + 1, NULL, 10);
		} else if (sscanf(buf, " %llx: %*x %*x %*x %*x %15s", &a,
				  mnem[n]) == 2) {
			addrs[n] = a;
			lines[n++] = cur;
		}
	}
	fclose(fp);
	return n;
}

/* loop.c: every instruction's line is llvm-objdump's; step() is inlined
 * at line 13; b.ne closes the loop backwards; _start calls loop. */
START_TEST(test_aarch64_lines)
{
	uint64_t addrs[128];
	uint32_t lines[128];
	char mnem[128][16];
	size_t no = read_oracle(tu_testdata("annotate-aarch64/objdump-l.txt"),
				addrs, lines, mnem, 128);
	ck_assert_uint_gt(no, 20);

	struct fn f;
	load_fn(&f, "annotate-aarch64/loop", "loop", 0);
	struct perfan__dwarf *d = perfan__dwarf_open(f.e);
	ck_assert_ptr_nonnull(d);
	struct perfan__linerow *rows;
	size_t nrows;
	ck_assert_int_eq(perfan__dwarf_lines(d, f.sym->start, f.sym->end, &rows,
					     &nrows),
			 0);
	ck_assert_uint_gt(nrows, 3);
	size_t matched = 0, r = 0;
	int back = 0;
	for (size_t i = 0; i < f.n; i++) {
		while (r + 1 < nrows && rows[r + 1].addr <= f.v[i].addr)
			r++;
		for (size_t k = 0; k < no; k++) {
			if (addrs[k] != f.v[i].addr)
				continue;
			ck_assert_msg(rows[r].line == lines[k],
				      "%llx: line %u, llvm-objdump %u",
				      (unsigned long long)f.v[i].addr,
				      rows[r].line, lines[k]);
			ck_assert_msg(!strncmp(f.v[i].text, mnem[k],
					       strlen(mnem[k])),
				      "%llx: %s, llvm-objdump %s",
				      (unsigned long long)f.v[i].addr,
				      f.v[i].text, mnem[k]);
			ck_assert_ptr_nonnull(strstr(rows[r].file, "loop.c"));
			matched++;
		}
		if (f.v[i].flow == PERFAN__FLOW_CJUMP && f.v[i].has_target &&
		    f.v[i].target < f.v[i].addr &&
		    f.v[i].target >= f.sym->start)
			back++;
	}
	ck_assert_uint_eq(matched, f.n);
	ck_assert_int_eq(back, 1);
	ck_assert_uint_eq(f.v[0].flow, PERFAN__FLOW_CJUMP); /* cbz */

	struct perfan__inlined *in;
	size_t nin;
	ck_assert_int_eq(perfan__dwarf_inlined(d, f.sym->start, &in, &nin), 0);
	ck_assert_uint_ge(nin, 1);
	int covers_mul = 0;
	for (size_t k = 0; k < nin; k++) {
		ck_assert_str_eq(in[k].name, "step");
		ck_assert_uint_eq(in[k].call_line, 13);
		ck_assert_uint_eq(in[k].depth, 1);
		ck_assert_ptr_nonnull(strstr(in[k].call_file, "loop.c"));
		for (size_t i = 0; i < f.n; i++)
			if (!strncmp(f.v[i].text, "mul ", 4) &&
			    f.v[i].addr >= in[k].lo && f.v[i].addr < in[k].hi)
				covers_mul = 1;
	}
	ck_assert(covers_mul);
	free(in);
	free(rows);
	perfan__dwarf_close(d);
	free_fn(&f);

	load_fn(&f, "annotate-aarch64/loop", "_start", 0);
	int calls = 0;
	for (size_t i = 0; i < f.n; i++)
		if (f.v[i].flow == PERFAN__FLOW_CALL) {
			ck_assert_uint_eq(f.v[i].target, sym_start(&f, "loop"));
			calls++;
		}
	ck_assert_int_eq(calls, 1);
	free_fn(&f);
}
END_TEST

/* The instruction addresses perf annotate printed (objdump's) for FILE. */
static size_t perf_addrs(const char *rel, uint64_t *out, size_t max)
{
	FILE *fp = fopen(tu_testdata(rel), "r");
	ck_assert_msg(fp != NULL, "%s", rel);
	char buf[512];
	size_t n = 0;
	while (fgets(buf, sizeof(buf), fp) && n < max) {
		double pct;
		unsigned long long a;
		if (sscanf(buf, " %lf : %llx:", &pct, &a) == 2)
			out[n++] = a;
	}
	fclose(fp);
	return n;
}

/* x86-64: capstone finds the instructions objdump found, at the same
 * addresses, for perf's three oracles of testdata/annotate. */
START_TEST(test_x86_boundaries)
{
	static const char *const fns[] = {"crc_all", "insertion_sort",
					  "bsearch_all"};
	for (size_t k = 0; k < 3; k++) {
		char rel[128];
		snprintf(rel, sizeof(rel), "annotate/annotate-%s.txt", fns[k]);
		uint64_t want[512];
		size_t nw = perf_addrs(rel, want, 512);
		ck_assert_uint_gt(nw, 10);
		struct fn f;
		load_fn(&f, "annotate/annotate", fns[k], 0);
		ck_assert_uint_eq(f.e->e_machine, EM_X86_64_);
		ck_assert_uint_eq(f.n, nw);
		for (size_t i = 0; i < nw; i++)
			ck_assert_uint_eq(f.v[i].addr, want[i]);
		int ret = 0, back = 0;
		for (size_t i = 0; i < f.n; i++) {
			ret += f.v[i].flow == PERFAN__FLOW_RET;
			back += f.v[i].has_target &&
				f.v[i].flow == PERFAN__FLOW_CJUMP &&
				f.v[i].target < f.v[i].addr;
			ck_assert_uint_ne(f.v[i].flow, PERFAN__FLOW_BAD);
		}
		ck_assert_int_ge(ret, 1);
		ck_assert_int_ge(back, 1); /* every one has a loop */
		free_fn(&f);
	}
}
END_TEST

/* crc_all's "jne 0x1830" at 0x1843 (objdump: jne 1830) in both syntaxes. */
START_TEST(test_x86_syntax)
{
	struct fn att, intel;
	load_fn(&att, "annotate/annotate", "crc_all", 0);
	load_fn(&intel, "annotate/annotate", "crc_all", PERFAN__DISASM_INTEL);
	ck_assert_uint_eq(att.n, intel.n);
	size_t k = 0;
	while (k < att.n && att.v[k].addr != 0x1843)
		k++;
	ck_assert_uint_lt(k, att.n);
	ck_assert_str_eq(att.v[k].text, "jne 0x1830");
	ck_assert_uint_eq(att.v[k].target, 0x1830);
	ck_assert_uint_eq(att.v[k].flow, PERFAN__FLOW_CJUMP);
	/* movl %edi, %r8d at the entry; mov r8d, edi in Intel syntax */
	ck_assert_str_eq(att.v[0].text, "movl %edi, %r8d");
	ck_assert_str_eq(intel.v[0].text, "mov r8d, edi");
	free_fn(&att);
	free_fn(&intel);
}
END_TEST

/* Bytes that do not decode take the machine's smallest step and decoding
 * goes on; a machine without decoder is refused. */
START_TEST(test_bad_bytes)
{
	static const uint8_t x86[] = {0x06, 0x06, 0xc3}; /* push es: invalid
							    in 64-bit mode */
	struct perfan__insn *v;
	size_t n;
	ck_assert_int_eq(perfan__disasm_all(NULL, EM_X86_64_, 0, x86,
					    sizeof(x86), 0x1000, &v, &n),
			 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(v[0].flow, PERFAN__FLOW_BAD);
	ck_assert_uint_eq(v[0].size, 1);
	ck_assert_str_eq(v[0].text, "(bad)");
	ck_assert_uint_eq(v[2].addr, 0x1002);
	ck_assert_uint_eq(v[2].flow, PERFAN__FLOW_RET);
	free(v);

	/* aarch64: a truncated last word is one step of what is left */
	static const uint8_t a64[] = {0xc0, 0x03, 0x5f, 0xd6, 0xff, 0xff};
	ck_assert_int_eq(perfan__disasm_all(NULL, EM_AARCH64_, 0, a64,
					    sizeof(a64), 0x2000, &v, &n),
			 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(v[0].flow, PERFAN__FLOW_RET);
	ck_assert_uint_eq(v[1].flow, PERFAN__FLOW_BAD);
	ck_assert_uint_eq(v[1].size, 2);
	free(v);

	ck_assert_int_eq(perfan__disasm_all(NULL, 40 /* EM_ARM */, 0, x86,
					    sizeof(x86), 0, &v, &n),
			 PERFAN_EUNSUPPORTED);
	ck_assert_ptr_null(v);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "machine 40"));
}
END_TEST

/* A debug file's .text has no contents: code must come from the binary. */
START_TEST(test_nobits_code)
{
	struct perfan__elf *e;
	ck_assert_int_eq(
		perfan__elf_open(&e, tu_testdata("debug-buildid/usr/lib/debug/"
						 ".build-id/39/"
						 "af0fd20e9e753d5923449a47aa2c0"
						 "bff3298d9.debug")),
		0);
	const uint8_t *code;
	size_t len;
	ck_assert_int_eq(perfan__elf_code(e, 0x11b0, 16, &code, &len),
			 PERFAN_ENOTFOUND);
	perfan__elf_close(e);
	ck_assert_int_eq(
		perfan__elf_open(&e, tu_testdata("debug-buildid/prog")), 0);
	ck_assert_int_eq(perfan__elf_code(e, 0x11b0, 16, &code, &len), 0);
	ck_assert_uint_eq(len, 16);
	perfan__elf_close(e);
}
END_TEST

static Suite *disasm_suite(void)
{
	Suite *s = suite_create("disasm");
	TCase *tc = tcase_create("disasm");
	tcase_add_test(tc, test_aarch64_flow);
	tcase_add_test(tc, test_aarch64_lines);
	tcase_add_test(tc, test_x86_boundaries);
	tcase_add_test(tc, test_x86_syntax);
	tcase_add_test(tc, test_bad_bytes);
	tcase_add_test(tc, test_nobits_code);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(disasm_suite)
