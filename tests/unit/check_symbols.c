/* check_symbols.c: the resolver's parts on their own: the hash table and
 * its tables' pages asked for at once, map lists (overlaps, copy-on-write),
 * threads over fork and exec, kallsyms parsing and perf's size and alias
 * rules, demangling, ELF symbol tables (perf's choice of symbols, PLT
 * slots, offsets to addresses) and DWARF lines, on testdata's binaries. */
#define _GNU_SOURCE
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "resolve/symbols.h"
#include "testutil.h"
#include "util/maparr.h"
#include "util/prefault.h"

/* A calloc'd table of 1 MiB, its pages asked for at once: still zero,
 * and resident before its first touch, where the kernel can (Linux 5.14). */
START_TEST(test_prefault)
{
	size_t bytes = ((size_t)1 << 20) + 24;
	unsigned char *p = calloc(1, bytes);
	ck_assert_ptr_nonnull(p);
	perfan__prefault(p, bytes);
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *a =
		(unsigned char *)(((uintptr_t)p + (uintptr_t)page - 1) &
				  ~((uintptr_t)page - 1));
	size_t pages = (size_t)(p + bytes - a) / (size_t)page;
	void *probe = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(probe, MAP_FAILED);
	int can = !madvise(probe, (size_t)page, 23 /* MADV_POPULATE_WRITE */);
	munmap(probe, (size_t)page);
	if (can) {
		unsigned char *vec = malloc(pages);
		ck_assert_int_eq(mincore(a, pages * (size_t)page, vec), 0);
		for (size_t i = 0; i < pages; i++)
			ck_assert_int_eq(vec[i] & 1, 1);
		free(vec);
	}
	size_t nonzero = 0;
	for (size_t i = 0; i < bytes; i++)
		nonzero += p[i] != 0;
	ck_assert_uint_eq(nonzero, 0);
	free(p);
	perfan__prefault(NULL, bytes); /* nothing to do: no crash */
}
END_TEST

/* util/maparr: an array's bytes survive every growth, the one that
 * crosses to huge pages (a fresh mapping, the bytes copied) and the ones
 * by mremap; an eager array starts as one 2 MiB page. */
static void maparr_fill(struct perfan__maparr *a, size_t from, size_t to)
{
	for (size_t i = from; i < to; i += 8) {
		uint64_t v = i * 0x9E3779B97F4A7C15ull;
		memcpy((char *)a->p + i, &v, 8);
	}
}

static void maparr_check(const struct perfan__maparr *a, size_t to)
{
	for (size_t i = 0; i < to; i += 8) {
		uint64_t v;
		memcpy(&v, (const char *)a->p + i, 8);
		ck_assert_msg(v == i * 0x9E3779B97F4A7C15ull,
			      "byte %zu lost in a growth", i);
	}
}

START_TEST(test_maparr)
{
	struct perfan__maparr a = {.huge_from = (size_t)4 << 20};
	size_t have = 0;
	for (size_t need = 4096; need <= ((size_t)24 << 20); need *= 3) {
		ck_assert_int_eq(perfan__maparr_grow(&a, need), 0);
		ck_assert_uint_ge(a.bytes, need);
		maparr_check(&a, have);
		maparr_fill(&a, have, need);
		have = need;
	}
	ck_assert_uint_eq(a.huge_from, (size_t)4 << 20);
	perfan__maparr_free(&a);
	ck_assert_ptr_null(a.p);
	ck_assert_uint_eq(a.bytes, 0);

	struct perfan__maparr e = {.huge_from = PERFAN__MAPARR_EAGER};
	ck_assert_int_eq(perfan__maparr_grow(&e, 1), 0);
	ck_assert_uint_eq(e.bytes, (size_t)2 << 20);
	maparr_fill(&e, 0, e.bytes);
	ck_assert_int_eq(perfan__maparr_grow(&e, e.bytes + 1), 0);
	ck_assert_uint_eq(e.bytes, (size_t)4 << 20);
	maparr_check(&e, (size_t)2 << 20);
	perfan__maparr_free(&e);
}
END_TEST

START_TEST(test_htab)
{
	struct perfan__htab h = {0};
	for (uint64_t k = 0; k < 20000; k++)
		ck_assert_int_eq(perfan__htab_put(&h, k * 4096, k + 1), 0);
	ck_assert_uint_eq(h.n, 20000);
	for (uint64_t k = 0; k < 20000; k += 2)
		ck_assert_int_eq(perfan__htab_del(&h, k * 4096), 1);
	ck_assert_int_eq(perfan__htab_del(&h, 12345), 0);
	for (uint64_t k = 0; k < 20000; k++) {
		uint64_t *v = perfan__htab_get(&h, k * 4096);
		if (k % 2 == 0) {
			ck_assert_ptr_null(v);
		} else {
			ck_assert_ptr_nonnull(v);
			ck_assert_uint_eq(*v, k + 1);
		}
	}
	ck_assert_int_eq(perfan__htab_put(&h, 4096, 7), 0); /* replace */
	ck_assert_uint_eq(*perfan__htab_get(&h, 4096), 7);
	/* key 0, kept beside the slots (0 marks an empty one) */
	ck_assert_ptr_null(perfan__htab_get(&h, 0));
	ck_assert_int_eq(perfan__htab_put(&h, 0, 99), 0);
	ck_assert_uint_eq(*perfan__htab_get(&h, 0), 99);
	ck_assert_uint_eq(h.n, 10001);
	size_t pos = 0, n = 0, zeros = 0;
	uint64_t key, val, sum = 0;
	while (perfan__htab_next(&h, &pos, &key, &val)) {
		n++;
		zeros += key == 0;
		sum += val;
	}
	ck_assert_uint_eq(n, h.n);
	ck_assert_uint_eq(zeros, 1);
	/* the odd k's k + 1 (10000 of them, 4096's replaced by 7), and 99 */
	ck_assert_uint_eq(sum, 10000ull * 10001 - 2 + 7 + 99);
	ck_assert_int_eq(perfan__htab_del(&h, 0), 1);
	ck_assert_int_eq(perfan__htab_del(&h, 0), 0);
	ck_assert_ptr_null(perfan__htab_get(&h, 0));
	ck_assert_uint_eq(h.n, 10000);
	perfan__htab_free(&h);
	ck_assert_ptr_null(perfan__htab_get(&h, 1));
	ck_assert_ptr_null(perfan__htab_get(&h, 0));
}
END_TEST

static struct perfan__dso file_dso = {.kind = PERFAN__DSO_FILE};
static struct perfan__dso other_dso = {.kind = PERFAN__DSO_FILE};

static void insert(struct perfan__maps **m, uint64_t start, uint64_t end,
		   uint64_t pgoff, struct perfan__dso *d)
{
	struct perfan__map map = {start, end, pgoff, d, 0, 0};
	ck_assert_int_eq(perfan__maps_insert(m, &map), 0);
}

START_TEST(test_maps_overlaps)
{
	struct perfan__maps *m = perfan__maps_new();
	insert(&m, 0x1000, 0x5000, 0, &file_dso);
	/* a map in the middle splits the old one, the tail keeps its file
	 * offset */
	insert(&m, 0x2000, 0x3000, 0x100000, &other_dso);
	ck_assert_uint_eq(m->n, 3);
	const struct perfan__map *f = perfan__maps_find(m, 0x1fff);
	ck_assert_ptr_eq(f->dso, &file_dso);
	ck_assert_uint_eq(f->end, 0x2000);
	f = perfan__maps_find(m, 0x2000);
	ck_assert_ptr_eq(f->dso, &other_dso);
	f = perfan__maps_find(m, 0x3000);
	ck_assert_ptr_eq(f->dso, &file_dso);
	ck_assert_uint_eq(f->pgoff, 0x2000);
	ck_assert_uint_eq(perfan__map_ip(f, 0x3010), 0x2010);
	ck_assert_ptr_null(perfan__maps_find(m, 0x5000));
	ck_assert_ptr_null(perfan__maps_find(m, 0xfff));

	/* one map over several replaces them and cuts the edges */
	insert(&m, 0x1800, 0x4000, 0, &other_dso);
	ck_assert_uint_eq(m->n, 3);
	ck_assert_uint_eq(perfan__maps_find(m, 0x17ff)->end, 0x1800);
	ck_assert_uint_eq(perfan__maps_find(m, 0x3fff)->start, 0x1800);
	ck_assert_uint_eq(perfan__maps_find(m, 0x4000)->pgoff, 0x3000);
	/* the same range again: replaced, not duplicated */
	insert(&m, 0x1800, 0x4000, 0x10, &file_dso);
	ck_assert_uint_eq(m->n, 3);
	ck_assert_uint_eq(perfan__maps_find(m, 0x2000)->pgoff, 0x10);
	/* empty maps are ignored */
	insert(&m, 0x9000, 0x9000, 0, &file_dso);
	ck_assert_uint_eq(m->n, 3);

	/* copy on write: a shared list is copied before a change */
	struct perfan__maps *child = perfan__maps_get(m);
	ck_assert_ptr_eq(child, m);
	insert(&child, 0x8000, 0x9000, 0, &file_dso);
	ck_assert_ptr_ne(child, m);
	ck_assert_uint_eq(child->n, 4);
	ck_assert_uint_eq(m->n, 3);
	ck_assert_ptr_null(perfan__maps_find(m, 0x8000));
	ck_assert_ptr_nonnull(perfan__maps_find(child, 0x8000));
	perfan__maps_put(child);
	perfan__maps_put(m);
}
END_TEST

START_TEST(test_maps_many)
{
	struct perfan__maps *m = perfan__maps_new();
	for (uint64_t i = 0; i < 1000; i++)
		insert(&m, 0x100000 + i * 0x2000,
		       0x100000 + i * 0x2000 + 0x1000, i, &file_dso);
	for (uint64_t i = 0; i < 1000; i++) {
		uint64_t a = 0x100000 + i * 0x2000;
		ck_assert_uint_eq(perfan__maps_find(m, a + 0xfff)->pgoff, i);
		ck_assert_ptr_null(perfan__maps_find(m, a + 0x1000));
	}
	/* one map over all of them */
	insert(&m, 0x100000, 0x100000 + 1000 * 0x2000, 7, &other_dso);
	ck_assert_uint_eq(m->n, 1);
	perfan__maps_put(m);
}
END_TEST

START_TEST(test_ksymbols)
{
	struct perfan__ksymbols k = {0};
	ck_assert_int_eq(perfan__ksymbols_add(&k, 0x2000, 0x100, "bpf_b"), 0);
	ck_assert_int_eq(perfan__ksymbols_add(&k, 0x1000, 0x100, "bpf_a"), 0);
	ck_assert_str_eq(perfan__ksymbols_find(&k, 0x10ff)->name, "bpf_a");
	ck_assert_ptr_null(perfan__ksymbols_find(&k, 0x1100));
	ck_assert_str_eq(perfan__ksymbols_find(&k, 0x2000)->name, "bpf_b");
	/* reuse of an address replaces */
	ck_assert_int_eq(perfan__ksymbols_add(&k, 0x2080, 0x100, "bpf_c"), 0);
	ck_assert_uint_eq(k.n, 2);
	ck_assert_str_eq(perfan__ksymbols_find(&k, 0x2100)->name, "bpf_c");
	perfan__ksymbols_del(&k, 0x1000);
	ck_assert_ptr_null(perfan__ksymbols_find(&k, 0x1000));
	perfan__ksymbols_free(&k);
}
END_TEST

START_TEST(test_threads)
{
	struct perfan__threads ts = {0};
	struct perfan__dso d = {.kind = PERFAN__DSO_FILE};
	/* parent 100 with a map, a thread 101, a forked child 200 */
	ck_assert_int_eq(perfan__threads_comm(&ts, 100, 100, "parent", 0), 0);
	struct perfan__thread *p = perfan__thread_findnew(&ts, 100, 100);
	insert(&p->proc->maps, 0x1000, 0x2000, 0, &d);
	ck_assert_int_eq(perfan__threads_fork(&ts, 100, 100, 101, 100), 0);
	struct perfan__thread *t = perfan__thread_findnew(&ts, 100, 101);
	ck_assert_ptr_eq(t->proc, p->proc); /* same address space */
	ck_assert_str_eq(t->comm, "parent");
	ck_assert_int_eq(perfan__threads_comm(&ts, 100, 101, "worker", 0), 0);
	ck_assert_str_eq(t->comm, "worker");
	ck_assert_str_eq(p->comm, "parent");

	ck_assert_int_eq(perfan__threads_fork(&ts, 200, 100, 200, 100), 0);
	struct perfan__thread *c = perfan__thread_findnew(&ts, 200, 200);
	ck_assert_ptr_ne(c->proc, p->proc);
	ck_assert_str_eq(c->comm, "parent");
	ck_assert_ptr_nonnull(perfan__maps_find(c->proc->maps, 0x1800));
	/* the child's new map is its own */
	insert(&c->proc->maps, 0x3000, 0x4000, 0, &d);
	ck_assert_ptr_null(perfan__maps_find(p->proc->maps, 0x3000));
	/* a map the parent adds later is not the child's */
	insert(&p->proc->maps, 0x5000, 0x6000, 0, &d);
	ck_assert_ptr_null(perfan__maps_find(c->proc->maps, 0x5000));

	/* exec: a new address space; the old one only under it */
	ck_assert_int_eq(perfan__threads_comm(&ts, 200, 200, "true", 1), 0);
	ck_assert_str_eq(c->comm, "true");
	ck_assert_ptr_null(perfan__maps_find(c->proc->maps, 0x1800));
	ck_assert_ptr_nonnull(perfan__maps_find(c->proc->old_maps, 0x1800));
	ck_assert_ptr_nonnull(perfan__maps_find(p->proc->maps, 0x1800));

	/* exit keeps the thread for late samples; a new process with the
	 * same tid replaces it */
	perfan__threads_exit(&ts, 200, 200);
	ck_assert_ptr_eq(perfan__thread_findnew(&ts, 200, 200), c);
	ck_assert_int_eq(perfan__threads_fork(&ts, 200, 100, 200, 100), 0);
	c = perfan__thread_findnew(&ts, 200, 200);
	ck_assert_str_eq(c->comm, "parent");
	ck_assert_ptr_nonnull(perfan__maps_find(c->proc->maps, 0x5000));

	/* a thread never named: no comm (":tid" when shown) */
	t = perfan__thread_findnew(&ts, 300, 301);
	ck_assert_ptr_null(t->comm);
	ck_assert_int_eq(t->proc->pid, 300);
	/* the tid taken by another process */
	t = perfan__thread_findnew(&ts, 400, 301);
	ck_assert_int_eq(t->pid, 400);

	/* many short processes: memory stays bounded */
	for (int i = 0; i < 20000; i++) {
		ck_assert_int_eq(perfan__threads_fork(&ts, 1000 + i, 100,
						      1000 + i, 100),
				 0);
		perfan__threads_exit(&ts, 1000 + i, 1000 + i);
	}
	ck_assert_uint_lt(ts.by_tid.n, 10000);
	ck_assert_uint_lt(ts.procs.n, 10000);
	perfan__threads_free(&ts);
}
END_TEST

static const char *write_tmp(const char *text)
{
	static char path[64];
	snprintf(path, sizeof(path), "/tmp/perfan-check-symbols-XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

/* The name of the kernel symbol at ADDR in K, as a C string ("" when
 * none covers it). */
static const char *ksym_name(const struct perfan__kallsyms *k, uint64_t addr)
{
	static char buf[128];
	struct perfan__ksym s;
	if (!perfan__kallsyms_find(k, addr, &s))
		return "";
	ck_assert_uint_lt(s.name_len, sizeof(buf));
	memcpy(buf, s.name, s.name_len);
	buf[s.name_len] = '\0';
	return buf;
}

/* The module of the kernel symbol at ADDR in K (one must cover it). */
static const char *ksym_module(const struct perfan__kallsyms *k, uint64_t addr)
{
	struct perfan__ksym s;
	ck_assert(perfan__kallsyms_find(k, addr, &s));
	return s.module;
}

START_TEST(test_kallsyms)
{
	const char *path = write_tmp("ffffffff81000000 T _stext\n"
				     "ffffffff81000000 T _text\n"
				     "ffffffff81000100 t foo\n"
				     "ffffffff81000100 T foo_alias\n"
				     "ffffffff81000200 D some_data\n"
				     "ffffffff81000280 A absolute\n"
				     "ffffffff81000300 r rodata\n"
				     "ffffffff81000400 W last_kernel\n"
				     "garbage line\n"
				     "ffffffffc0000100 t mod_fn2\t[my_mod]\n"
				     "ffffffffc0000000 t mod_fn\t[my_mod]\n");
	struct perfan__kallsyms k;
	ck_assert_int_eq(perfan__kallsyms_load(&k, path, NULL, 0), 0);
	/* one per address: the last one listed, as perf's fix-ups leave */
	ck_assert_uint_eq(k.n, 6);
	ck_assert_str_eq(ksym_name(&k, 0xffffffff81000050), "_text");
	ck_assert_str_eq(ksym_name(&k, 0xffffffff81000150), "foo_alias");
	/* 'A' and 'r' are not kept: the data symbol runs on */
	ck_assert_str_eq(ksym_name(&k, 0xffffffff810003ff), "some_data");
	/* before a module: a page past the page it starts in */
	struct perfan__ksym s;
	ck_assert(perfan__kallsyms_find(&k, 0xffffffff81001fff, &s));
	ck_assert_str_eq(ksym_name(&k, 0xffffffff81001fff), "last_kernel");
	ck_assert_ptr_null(s.module);
	ck_assert(!perfan__kallsyms_find(&k, 0xffffffff81002000, &s));
	ck_assert(!perfan__kallsyms_find(&k, 0xffffffff80ffffff, &s));
	ck_assert_str_eq(ksym_name(&k, 0xffffffffc0000050), "mod_fn");
	ck_assert_str_eq(ksym_module(&k, 0xffffffffc0000050), "[my_mod]");
	ck_assert_str_eq(ksym_name(&k, 0xffffffffc0000fff), "mod_fn2");
	perfan__kallsyms_free(&k);

	/* another boot: _text moved by KASLR, the kernel's symbols follow */
	ck_assert_int_eq(perfan__kallsyms_load(&k, path, "_text",
					       0xffffffff91000000),
			 0);
	ck_assert_str_eq(ksym_name(&k, 0xffffffff91000150), "foo_alias");
	ck_assert(!perfan__kallsyms_find(&k, 0xffffffff81000150, &s));
	ck_assert_str_eq(ksym_name(&k, 0xffffffffc0000050), "mod_fn");
	perfan__kallsyms_free(&k);
	unlink(path);

	/* module columns with and without brackets, the last line without
	 * its newline: one module name shared by a module's symbols */
	path = write_tmp("ffffffffc0000000 t a\tm1\n"
			 "ffffffffc0000100 t b\tm1\n"
			 "ffffffffc0001000 t c\t[m2]\n"
			 "ffffffffc0001100 t d\t[m2]\n"
			 "ffffffffc0002000 t e\t[m3");
	ck_assert_int_eq(perfan__kallsyms_load(&k, path, NULL, 0), 0);
	ck_assert_uint_eq(k.n, 5);
	const char *m1 = ksym_module(&k, 0xffffffffc0000000);
	ck_assert_str_eq(m1, "[m1]");
	ck_assert_ptr_eq(ksym_module(&k, 0xffffffffc0000100), m1);
	ck_assert_str_eq(ksym_name(&k, 0xffffffffc0001100), "d");
	const char *m2 = ksym_module(&k, 0xffffffffc0001100);
	ck_assert_str_eq(m2, "[m2]");
	ck_assert_ptr_eq(ksym_module(&k, 0xffffffffc0001000), m2);
	/* a column that only opens a bracket is bracketed whole */
	ck_assert_str_eq(ksym_module(&k, 0xffffffffc0002000), "[[m3]");
	perfan__kallsyms_free(&k);
	unlink(path);

	/* the same through a pipe, which tells no size (as /proc/kallsyms):
	 * read to its end, not mapped; addresses of fewer digits, in
	 * upper case */
	const char *piped = "ffffffff81000000 T _text\n"
			    "FFFFFFFF81000100 t upper\n"
			    "81000200 t short\n"
			    "1ffffffff81000300 t too_long\n"
			    "ffffffff8100g300 t not_hex\n";
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_int_eq(write(fds[1], piped, strlen(piped)),
			 (ssize_t)strlen(piped));
	close(fds[1]);
	char fdpath[64];
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fds[0]);
	ck_assert_int_eq(perfan__kallsyms_load(&k, fdpath, NULL, 0), 0);
	close(fds[0]);
	ck_assert_uint_eq(perfan__kallsyms_count(&k), 3);
	ck_assert_str_eq(ksym_name(&k, 0x81000200), "short");
	ck_assert_str_eq(ksym_name(&k, 0xffffffff81000150), "upper");
	ck_assert_str_eq(ksym_name(&k, 0xffffffff81000050), "_text");
	perfan__kallsyms_free(&k);

	/* kptr_restrict: every address 0 */
	path = write_tmp("0000000000000000 T _text\n0000000000000000 T foo\n");
	ck_assert_int_eq(perfan__kallsyms_load(&k, path, NULL, 0),
			 PERFAN_EUNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), path));
	unlink(path);
	ck_assert_int_eq(perfan__kallsyms_load(&k, "/nonexistent/kallsyms",
					       NULL, 0),
			 PERFAN_ENOTFOUND);
}
END_TEST

static void demangles(const char *in, const char *out)
{
	char *d = perfan__demangle(in);
	if (!out) {
		ck_assert_msg(d == NULL, "%s -> %s", in, d);
		return;
	}
	ck_assert_msg(d != NULL, "%s not demangled", in);
	ck_assert_str_eq(d, out);
	free(d);
}

/* A file of more than a MiB (mapped) parses as the same text read whole
 * from a pipe: every line, wherever a page ends; a line of 300 KiB (its name
 * too long to keep) costs only itself. */
START_TEST(test_kallsyms_blocks)
{
	enum { N = 40000, LONG_AT = 9000, LONG_LEN = 300 << 10 };
	size_t cap = (size_t)N * 64 + LONG_LEN + 64, len = 0;
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	for (int i = 0; i < N; i++) {
		if (i == LONG_AT) {
			len += (size_t)snprintf(text + len, cap - len,
						"ffffffff90000000 t ");
			memset(text + len, 'x', LONG_LEN);
			len += LONG_LEN;
			text[len++] = '\n';
		}
		/* names of 1 to 40 bytes, so that lines end anywhere */
		len += (size_t)snprintf(text + len, cap - len,
					"ffffffff8%07x %c s%0*d%s\n", i * 16,
					i % 3 ? 't' : 'T', 1 + i % 30, i,
					i % 7 ? "" : "\t[mod]");
	}
	ck_assert_uint_gt(len, (size_t)1 << 20);
	char path[] = "/tmp/perfan-check-kallsyms-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
	struct perfan__kallsyms byfile, whole;
	ck_assert_int_eq(perfan__kallsyms_load(&byfile, path, NULL, 0), 0);
	unlink(path);

	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	pid_t child = fork();
	ck_assert_int_ge(child, 0);
	if (!child) {
		close(fds[0]);
		_exit(write(fds[1], text, len) == (ssize_t)len ? 0 : 1);
	}
	close(fds[1]);
	char fdpath[64];
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fds[0]);
	ck_assert_int_eq(perfan__kallsyms_load(&whole, fdpath, NULL, 0), 0);
	close(fds[0]);
	int status;
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert_int_eq(status, 0);

	ck_assert_uint_eq(perfan__kallsyms_count(&byfile), N);
	ck_assert_uint_eq(perfan__kallsyms_count(&whole), N);
	for (size_t i = 0; i < N; i++) {
		struct perfan__ksym a, b;
		perfan__kallsyms_at(&byfile, i, &a);
		perfan__kallsyms_at(&whole, i, &b);
		ck_assert_uint_eq(a.start, 0xffffffff80000000ull + i * 16);
		ck_assert_uint_eq(a.start, b.start);
		ck_assert_uint_eq(a.end, b.end);
		ck_assert_uint_eq(a.name_len, b.name_len);
		char want[48];
		snprintf(want, sizeof(want), "s%0*d", 1 + (int)(i % 30),
			 (int)i);
		ck_assert_uint_eq(a.name_len, strlen(want));
		ck_assert(!memcmp(a.name, want, a.name_len));
		ck_assert(!memcmp(a.name, b.name, a.name_len));
		ck_assert(!a.module == !b.module);
		ck_assert(!a.module == !!(i % 7));
	}
	perfan__kallsyms_free(&byfile);
	perfan__kallsyms_free(&whole);
	free(text);
}
END_TEST

START_TEST(test_demangle)
{
	demangles("main", NULL);
	demangles("_start", NULL);
	demangles("clock_nanosleep@GLIBC_2.2.5", NULL);
	/* C++ without parameter lists, as perf shows it */
	demangles("_ZN3foo3barEi", "foo::bar");
	demangles("_ZNSt6vectorIiSaIiEE9push_backERKi",
		  "std::vector<int, std::allocator<int> >::push_back");
	demangles("_ZN12_GLOBAL__N_13bazEv", "(anonymous namespace)::baz");
	/* suffixes stay */
	demangles("_ZN3foo3barEv@plt", "foo::bar@plt");
	demangles("_Znwm@GLIBCXX_3.4", "operator new@GLIBCXX_3.4");
	/* Rust: legacy (hash dropped, escapes decoded) and v0 */
	demangles("_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write");
	demangles(
		"_ZN58_$LT$alloc..string..String$u20$as$u20$core..fmt..Debug$GT$3fmt17h3f32b6dabd6a3b4fE",
		"<alloc::string::String as core::fmt::Debug>::fmt");
	demangles("_RNvC6_123foo3bar", "123foo::bar");
	/* not valid: left alone */
	demangles("_Zfoo", NULL);
}
END_TEST

static void finishes(const char *in, const char *out)
{
	char *d = perfan__demangle_rust_partial(in, strlen(in));
	if (!out) {
		ck_assert_msg(d == NULL, "%s -> %s", in, d);
		return;
	}
	ck_assert_msg(d != NULL, "%s not finished", in);
	ck_assert_str_eq(d, out);
	free(d);
}

/* Rust names that a C++ demangler left half done, as old perfs print them:
 * inferno's cases (collapse/common.rs, fix_partially_demangled_rust_symbol)
 * give what inferno gives, but for the '_' that inferno keeps before
 * "{{closure}}" and libiberty (so perf and perfan on perf.data) drops;
 * names that are not such are left alone. */
START_TEST(test_demangle_rust_partial)
{
	finishes("std::sys::unix::fs::File::open::hb90e1c1c787080f0",
		 "std::sys::unix::fs::File::open");
	finishes(
		"_$LT$std..fs..ReadDir$u20$as$u20$core..iter..traits..iterator..Iterator$GT$::next::hc14f1750ca79129b",
		"<std::fs::ReadDir as core::iter::traits::iterator::Iterator>::next");
	finishes(
		"rg::search_parallel::_$u7b$$u7b$closure$u7d$$u7d$::_$u7b$$u7b$closure$u7d$$u7d$::h6e849b55a66fcd85",
		"rg::search_parallel::{{closure}}::{{closure}}");
	finishes(
		"_$LT$F$u20$as$u20$alloc..boxed..FnBox$LT$A$GT$$GT$::call_box::h8612a2a83552fc2d",
		"<F as alloc::boxed::FnBox<A>>::call_box");
	finishes(
		"_$LT$$RF$std..fs..File$u20$as$u20$std..io..Read$GT$::read::h5d84059cf335c8e6",
		"<&std::fs::File as std::io::Read>::read");
	finishes(
		"_$LT$std..thread..JoinHandle$LT$T$GT$$GT$::join::hca6aa63e512626da",
		"<std::thread::JoinHandle<T>>::join");
	finishes(
		"std::sync::mpsc::shared::Packet$LT$T$GT$::recv::hfde2d9e28d13fd56",
		"std::sync::mpsc::shared::Packet<T>::recv");
	finishes(
		"crossbeam_utils::thread::ScopedThreadBuilder::spawn::_$u7b$$u7b$closure$u7d$$u7d$::h8fdc7d4f74c0da05",
		"crossbeam_utils::thread::ScopedThreadBuilder::spawn::{{closure}}");
	/* the example */
	finishes(
		"GcBox$LT$T$GT$::new::_$u7b$$u7b$closure$u7d$$u7d$::h0123456789abcdef",
		"GcBox<T>::new::{{closure}}");
	/* the same as the symbol in perf.data input */
	char *d = perfan__demangle(
		"_ZN14GcBox$LT$T$GT$3new28_$u7b$$u7b$closure$u7d$$u7d$17h0123456789abcdefE");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d, "GcBox<T>::new::{{closure}}");
	free(d);
	/* fully mangled and fully demangled names, and others: alone */
	finishes("_ZN4test1a2bcE", NULL);
	finishes("_ZN3std2rt19lang_start_internal17h540c897fe52ba9c5E", NULL);
	finishes("<F as alloc::boxed::FnBox<A>>::call_box", NULL);
	finishes("<T as Foo>::bar::h0123456789abcdef", NULL);
	finishes("main", NULL);
	finishes("::h0123456789abcdef", NULL);
	finishes("a::::h0123456789abcdef", NULL);
	finishes("a::9b::h0123456789abcdef", NULL);
	finishes("a::b::h0123456789abcdeg", NULL);
	finishes("a::b::h0123456789ABCDEF", NULL);
	finishes("a::b:h0123456789abcdef", NULL);
	/* a hash of too few distinct digits is not one (libiberty) */
	finishes("a::b::h0000000000000000", NULL);
	/* not NUL-terminated: only the N bytes count */
	d = perfan__demangle_rust_partial("a::b::h0123456789abcdef+0x10", 23);
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d, "a::b");
	free(d);
}
END_TEST

static struct perfan__elf *open_testdata(const char *rel)
{
	struct perfan__elf *e;
	ck_assert_int_eq(perfan__elf_open(&e, tu_testdata(rel)), 0);
	return e;
}

START_TEST(test_elf_files)
{
	struct perfan__elf *e = open_testdata("fp/prog");
	char hex[41];
	ck_assert_str_eq(perfan__buildid_hex(e->build_id, e->build_id_size,
					     hex),
			 "228966694bdd4aef97825e766724b423ce7c7d6c");
	ck_assert(e->has_symtab);
	ck_assert(e->has_dynsym);
	ck_assert(e->has_debug_info);
	ck_assert_ptr_null(e->debuglink);
	perfan__elf_close(e);

	ck_assert_int_eq(perfan__elf_open(&e, "/nonexistent/prog"),
			 PERFAN_ENOTFOUND);
	ck_assert_int_eq(perfan__elf_open(&e, tu_testdata("fp/prog.c")),
			 PERFAN_EFORMAT);
	/* a FIFO must not block */
	char fifo[] = "/tmp/perfan-check-fifo-XXXXXX";
	int fd = mkstemp(fifo);
	ck_assert_int_ge(fd, 0);
	close(fd);
	unlink(fifo);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(perfan__elf_open(&e, fifo), PERFAN_EFORMAT);
	unlink(fifo);
}
END_TEST

START_TEST(test_symtab)
{
	struct perfan__elf *e = open_testdata("fp/prog");
	struct perfan__symtab st;
	ck_assert_int_eq(perfan__symtab_load(&st, e, e, NULL), 0);
	/* perf script: "11cc hot_a+0x2c" */
	uint64_t a = perfan__symtab_off2addr(&st, 0x11cc);
	ck_assert_uint_eq(a, 0x11cc);
	const struct perfan__sym *s = perfan__symtab_find(&st, a);
	ck_assert_str_eq(s->name, "hot_a");
	ck_assert_uint_eq(s->start, 0x11a0);
	ck_assert_uint_eq(s->end, 0x11a0 + 73);
	/* the data segment's file offset differs from its address */
	ck_assert_uint_eq(perfan__symtab_off2addr(&st, 0x2dd8), 0x3dd8);
	ck_assert_str_eq(perfan__symtab_find(&st, 0x108a)->name, "main");
	perfan__symtab_free(&st);
	perfan__elf_close(e);

	e = open_testdata("sched/sched");
	ck_assert_int_eq(perfan__symtab_load(&st, e, e, NULL), 0);
	/* just past main: perf script shows "113e [unknown]" */
	ck_assert_ptr_null(perfan__symtab_find(&st, 0x113e));
	ck_assert_str_eq(perfan__symtab_find(&st, 0x113d)->name, "main");
	/* PLT slots, as perf names them */
	ck_assert_str_eq(perfan__symtab_find(&st, 0x1040)->name, "printf@plt");
	ck_assert_str_eq(perfan__symtab_find(&st, 0x108f)->name, "perror@plt");
	/* perf 6.1 names no PLT header: _init (size 0, so extended to the
	 * next symbol) covers it */
	ck_assert_str_eq(perfan__symtab_find(&st, 0x1020)->name, "_init");
	/* a zero-size symbol reaches the next one */
	s = perfan__symtab_find(&st, 0x1170);
	ck_assert_str_eq(s->name, "deregister_tm_clones");
	ck_assert_uint_eq(s->end, 0x11a0);
	perfan__symtab_free(&st);
	perfan__elf_close(e);
}
END_TEST

START_TEST(test_dwarf_lines)
{
	struct perfan__elf *e = open_testdata("fp/prog");
	struct perfan__dwarf *d = perfan__dwarf_open(e);
	ck_assert_ptr_nonnull(d);
	struct perfan__srcframe f[8];
	size_t n = perfan__dwarf_frames(d, 0x11cc, 1, 1, f, 8);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(f[0].name, "hot_a");
	ck_assert_int_eq(f[0].inlined, 0);
	ck_assert_ptr_nonnull(f[0].file);
	ck_assert_ptr_nonnull(strstr(f[0].file, "prog.c"));
	ck_assert_uint_gt(f[0].line, 30);
	ck_assert_uint_lt(f[0].line, 50);
	ck_assert_uint_eq(perfan__dwarf_frames(d, 0x10, 1, 1, f, 8), 0);
	perfan__dwarf_close(d);
	perfan__elf_close(e);
}
END_TEST

static void hex2bin(const char *hex, uint8_t *out)
{
	for (size_t i = 0; i < 20; i++) {
		unsigned v;
		ck_assert_int_eq(sscanf(hex + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
}

/* Finding a DSO's files: --symfs (by the recorded path, then by name),
 * perf's build-id cache, debug files by build-id; another build-id is
 * never used. */
START_TEST(test_dso_files)
{
	struct perfan__symctx ctx;
	struct perfan_resolve_stats st;
	memset(&ctx, 0, sizeof(ctx));
	memset(&st, 0, sizeof(st));
	ctx.stats = &st;
	char symfs[4096];
	snprintf(symfs, sizeof(symfs), "%s", tu_testdata("fp"));
	ctx.symfs = symfs;
	uint8_t fp_id[20], other_id[20];
	hex2bin("228966694bdd4aef97825e766724b423ce7c7d6c", fp_id);
	hex2bin("b8e693cb4a33e4d0d15bf75443b9000c820a728a", other_id);

	/* the recorded path does not exist under symfs: found by name */
	struct perfan__dso *d =
		perfan__dso_get(&ctx, "/elsewhere/fp/prog", fp_id, 20, 0);
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->short_name, "prog");
	ck_assert_ptr_eq(
		perfan__dso_get(&ctx, "/elsewhere/fp/prog", fp_id, 20, 0), d);
	perfan__dso_load(&ctx, d);
	ck_assert(d->has_symtab);
	ck_assert_ptr_nonnull(d->runtime);
	ck_assert_ptr_nonnull(perfan__dso_dwarf(d));
	ck_assert_uint_eq(st.buildid_mismatches, 0);

	/* another build-id recorded: not symbolized, counted */
	d = perfan__dso_get(&ctx, "/elsewhere/fp/prog", other_id, 20, 0);
	perfan__dso_load(&ctx, d);
	ck_assert(!d->has_symtab);
	ck_assert(d->mismatch);
	ck_assert_uint_eq(st.buildid_mismatches, 1);

	/* none recorded: used, unverified; a build-id arriving later that
	 * differs is reported */
	d = perfan__dso_get(&ctx, "/nowhere/prog", NULL, 0, 0);
	perfan__dso_load(&ctx, d);
	ck_assert(d->has_symtab);
	perfan__dso_check_late_buildid(&ctx, "/nowhere/prog", fp_id, 20);
	ck_assert_uint_eq(st.buildid_mismatches, 1);
	perfan__dso_check_late_buildid(&ctx, "/nowhere/prog", other_id, 20);
	ck_assert_uint_eq(st.buildid_mismatches, 2);

	/* pseudo files */
	d = perfan__dso_get(&ctx, "[vdso]", NULL, 0, 0);
	ck_assert_int_eq(d->kind, PERFAN__DSO_VDSO);
	ck_assert_str_eq(d->short_name, "[vdso]");
	d = perfan__dso_get(&ctx, "/tmp/perf-42.map", NULL, 0, 42);
	ck_assert_int_eq(d->kind, PERFAN__DSO_ANON);
	ck_assert_str_eq(d->short_name, "perf-42.map");
	perfan__dso_load(&ctx, d);
	ck_assert(!d->has_symtab);

	/* perf's build-id cache and a debug root, with no symfs */
	char dir[] = "/tmp/perfan-check-dso-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char p[4200], target[4096];
	snprintf(target, sizeof(target), "%s", tu_testdata("fp/prog"));
	if (target[0] != '/') {
		char cwd[2048];
		ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
		snprintf(target, sizeof(target), "%s/%s", cwd,
			 tu_testdata("fp/prog"));
	}
	snprintf(p, sizeof(p), "%s/cache", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/cache/.build-id", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/cache/.build-id/22", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p),
		 "%s/cache/.build-id/22/8966694bdd4aef97825e766724b423ce7c7d6c",
		 dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(
		p, sizeof(p),
		"%s/cache/.build-id/22/8966694bdd4aef97825e766724b423ce7c7d6c/elf",
		dir);
	ck_assert_int_eq(symlink(target, p), 0);
	char cache[4200];
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	ctx.symfs = "";
	ctx.buildid_dir = cache;
	d = perfan__dso_get(&ctx, "/not/here/prog", fp_id, 20, 0);
	perfan__dso_load(&ctx, d);
	ck_assert(d->has_symtab);
	ck_assert_ptr_nonnull(strstr(d->runtime->path, "/cache/.build-id/"));
	unlink(p);

	/* a debug file by build-id under --debug-dir, the binary absent */
	ctx.buildid_dir = NULL;
	char debug[4200];
	snprintf(debug, sizeof(debug), "%s/debug", dir);
	ctx.debug_dir = debug;
	snprintf(p, sizeof(p), "%s/debug", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/debug/.build-id", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/debug/.build-id/22", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(
		p, sizeof(p),
		"%s/debug/.build-id/22/8966694bdd4aef97825e766724b423ce7c7d6c.debug",
		dir);
	ck_assert_int_eq(symlink(target, p), 0);
	d = perfan__dso_get(&ctx, "/not/here/either/prog", fp_id, 20, 0);
	perfan__dso_load(&ctx, d);
	ck_assert_ptr_null(d->runtime);
	ck_assert_ptr_nonnull(d->debug);
	ck_assert(d->has_symtab);
	unlink(p);

	char cmd[4300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	perfan__dsos_free(&ctx);
}
END_TEST

/* Stripped binaries (testdata/dynsym): .dynsym names the functions, and the
 * PLT slots are named as perf 6.1 names them, its header not at all. */
START_TEST(test_dynsym_plt)
{
	struct perfan__elf *e = open_testdata("dynsym/prog");
	ck_assert(!e->has_symtab);
	ck_assert(e->has_dynsym);
	struct perfan__symtab st;
	ck_assert_int_eq(perfan__symtab_load(&st, e, e, NULL), 0);
	ck_assert_str_eq(perfan__symtab_find(&st, 0x11e0 + 20)->name, "spin");
	ck_assert_str_eq(perfan__symtab_find(&st, 0x1240)->name, "hash");
	/* perf script: "1056 dyn_tiny@plt+0x6", "1026 [unknown]" */
	ck_assert_str_eq(perfan__symtab_find(&st, 0x1056)->name,
			 "dyn_tiny@plt");
	ck_assert_ptr_null(perfan__symtab_find(&st, 0x1026));
	perfan__symtab_free(&st);
	perfan__elf_close(e);

	e = open_testdata("dynsym/libdyn.so");
	ck_assert(!e->has_symtab);
	ck_assert_int_eq(perfan__symtab_load(&st, e, e, NULL), 0);
	ck_assert_str_eq(perfan__symtab_find(&st, 0x1036)->name, "strlen@plt");
	ck_assert_str_eq(perfan__symtab_find(&st, 0x1113)->name, "dyn_tiny");
	ck_assert_str_eq(perfan__symtab_find(&st, 0x1150)->name, "dyn_work");
	perfan__symtab_free(&st);
	perfan__elf_close(e);
}
END_TEST

/* MiniDebugInfo (testdata/minidebug): the local functions from the
 * xz-compressed .symtab, merged with .dynsym's exported ones; a damaged
 * section gives nothing, not a crash. */
START_TEST(test_minidebug)
{
	struct perfan__elf *e = open_testdata("minidebug/prog");
	ck_assert(!e->has_symtab);
	ck_assert(e->has_gnu_debugdata);
	struct perfan__symtab st;
	ck_assert_int_eq(perfan__symtab_load(&st, e, e, NULL), 0);
	ck_assert_str_eq(perfan__symtab_find(&st, 0x1260)->name, "outer");
	const struct perfan__sym *s = perfan__symtab_find(&st, 0x11c0);
	ck_assert(!s || strcmp(s->name, "inner_a"));
	perfan__symtab_free(&st);

	struct perfan__elf *m = perfan__elf_minidebug(e);
	ck_assert_ptr_nonnull(m);
	ck_assert(m->has_symtab);
	ck_assert_ptr_nonnull(strstr(m->path, "[.gnu_debugdata]"));
	ck_assert_int_eq(perfan__symtab_load(&st, e, e, m), 0);
	ck_assert_str_eq(perfan__symtab_find(&st, 0x11c0)->name, "inner_a");
	ck_assert_str_eq(perfan__symtab_find(&st, 0x1200 + 72)->name,
			 "inner_b");
	ck_assert_str_eq(perfan__symtab_find(&st, 0x1260)->name, "outer");
	ck_assert_str_eq(perfan__symtab_find(&st, 0x1050)->name, "main");
	perfan__symtab_free(&st);
	perfan__elf_close(m);

	/* every byte of the section flipped in turn: NULL or an ELF */
	FILE *f = fopen(tu_testdata("minidebug/prog"), "rb");
	ck_assert_ptr_nonnull(f);
	static char img[65536];
	size_t n = fread(img, 1, sizeof(img), f);
	fclose(f);
	ck_assert_uint_gt(n, 0x3018 + 0x318);
	for (size_t i = 0x3018; i < 0x3018 + 0x318; i += 7) {
		img[i] ^= 0x5a;
		struct perfan__elf *c = perfan__elf_open_mem(img, n, "damaged");
		ck_assert_ptr_nonnull(c);
		struct perfan__elf *cm = perfan__elf_minidebug(c);
		if (cm) {
			ck_assert_int_eq(perfan__symtab_load(&st, c, c, cm), 0);
			perfan__symtab_free(&st);
		}
		perfan__elf_close(cm);
		perfan__elf_close(c);
		img[i] ^= 0x5a;
	}
	ck_assert_ptr_null(perfan__elf_minidebug(NULL));
	perfan__elf_close(e);
}
END_TEST

/* No build-id recorded (testdata/debug-buildid): the binary found under
 * --symfs names its debug file by its own build-id, under
 * <symfs>/usr/lib/debug/.build-id/, as libc6-dbg installs libc's. */
START_TEST(test_debug_own_buildid)
{
	struct perfan__symctx ctx;
	memset(&ctx, 0, sizeof(ctx));
	char symfs[4096];
	snprintf(symfs, sizeof(symfs), "%s", tu_testdata("debug-buildid"));
	ctx.symfs = symfs;
	struct perfan__dso *d =
		perfan__dso_get(&ctx, "/elsewhere/prog", NULL, 0, 0);
	perfan__dso_load(&ctx, d);
	ck_assert_ptr_nonnull(d->runtime);
	ck_assert(!d->runtime->has_symtab);
	ck_assert_ptr_nonnull(d->debug);
	ck_assert_ptr_nonnull(
		strstr(d->debug->path,
		       "/usr/lib/debug/.build-id/39/"
		       "af0fd20e9e753d5923449a47aa2c0bff3298d9.debug"));
	ck_assert(d->has_symtab);
	uint64_t a = perfan__symtab_off2addr(&d->symtab, 0x11c0);
	ck_assert_str_eq(perfan__symtab_find(&d->symtab, a)->name, "inner_a");

	/* the same debug file as Fedora (<root><path>.debug) and Ubuntu
	 * (<root><path>) lay them out */
	static const char *paths[] = {"/x0/prog", "/x1/prog"};
	static const char *debugs[] = {"usr/lib/debug/x0/prog.debug",
				       "usr/lib/debug/x1/prog"};
	for (int i = 0; i < 2; i++) {
		char dir[] = "/tmp/perfan-check-layout-XXXXXX";
		ck_assert_ptr_nonnull(mkdtemp(dir));
		static char cmd[16384];
		snprintf(cmd, sizeof(cmd),
			 "mkdir -p '%s%s' && rmdir '%s%s' && "
			 "mkdir -p '%s/usr/lib/debug/x%d' && "
			 "cp '%s/prog' '%s%s' && cp '%s/usr/lib/debug/"
			 ".build-id/39/af0fd20e9e753d5923449a47aa2c0bff3298d9"
			 ".debug' '%s/%s'",
			 dir, paths[i], dir, paths[i], dir, i, symfs, dir,
			 paths[i], symfs, dir, debugs[i]);
		ck_assert_int_eq(system(cmd), 0);
		ctx.symfs = dir;
		d = perfan__dso_get(&ctx, paths[i], NULL, 0, 0);
		perfan__dso_load(&ctx, d);
		ck_assert_ptr_nonnull(d->debug);
		ck_assert_ptr_nonnull(strstr(d->debug->path, debugs[i]));
		ck_assert_str_eq(perfan__symtab_find(&d->symtab, a)->name,
				 "inner_a");
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		ck_assert_int_eq(system(cmd), 0);
	}
	perfan__dsos_free(&ctx);
}
END_TEST

static Suite *symbols_suite(void)
{
	Suite *s = suite_create("symbols");
	TCase *tc = tcase_create("parts");
	tcase_add_test(tc, test_htab);
	tcase_add_test(tc, test_prefault);
	tcase_add_test(tc, test_maparr);
	tcase_add_test(tc, test_maps_overlaps);
	tcase_add_test(tc, test_maps_many);
	tcase_add_test(tc, test_ksymbols);
	tcase_add_test(tc, test_threads);
	tcase_add_test(tc, test_kallsyms);
	tcase_add_test(tc, test_kallsyms_blocks);
	tcase_add_test(tc, test_demangle);
	tcase_add_test(tc, test_demangle_rust_partial);
	tcase_add_test(tc, test_elf_files);
	tcase_add_test(tc, test_symtab);
	tcase_add_test(tc, test_dwarf_lines);
	tcase_add_test(tc, test_dso_files);
	tcase_add_test(tc, test_dynsym_plt);
	tcase_add_test(tc, test_minidebug);
	tcase_add_test(tc, test_debug_own_buildid);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(symbols_suite)
