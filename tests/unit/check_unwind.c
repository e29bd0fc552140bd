/* check_unwind.c: DWARF unwinding of copied user stacks (resolve/unwind.c)
 * against the stacks perf's own unwinder found for the same samples
 * (perf script on testdata's --call-graph dwarf recordings).
 *
 * Two views: perfan__unwind_user called directly, comparing each frame's
 * address with the one perf script prints (the offset in the DSO's file);
 * and the resolver's stacks, comparing function names. Both run
 * hermetically first: binaries only from testdata (found by build-id), so
 * unwinding can only continue while the frames are in testdata's own
 * binary, and must stop, marked truncated, at the first frame in a system
 * library (the test machine's libc may not be the recording's). Where this
 * machine has the recording's libraries (checked by build-id), every frame
 * is compared. Hand-made samples cover what the recordings lack: a CFA
 * given by a DWARF expression (x86-64 PLT stubs) and aarch64. */
#define _GNU_SOURCE
#include <gelf.h>
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "resolve/jit.h"
#include "resolve/symbols.h"
#include "resolve/unwind.h"
#include "testutil.h"

/* The recording machine's libc (Debian 12), which testdata does not
 * carry; its debug file names the frames perf showed in it. */
#define RECORDING_LIBC "/usr/lib/x86_64-linux-gnu/libc.so.6"
#define RECORDING_LIBC_BUILD_ID "93ac61ec5a8eb1396f9fbd350e3169a558528a40"
#define RECORDING_LIBC_DEBUG                                                   \
	"/usr/lib/debug/.build-id/93/ac61ec5a8eb1396f9fbd350e3169a558528a40.debug"

#define MAX_FRAMES 512

/* ---- perf script's stacks ----------------------------------------------- */

/* One frame as perf's unwinder found it: consecutive lines of perf script
 * with one address (inline expansions) are one frame, named by the last
 * line. MOD is "inlined" where perf named a frame after its DWARF function
 * rather than its symbol. */
struct pframe {
	uint64_t addr; /* as printed: the offset in the DSO's file */
	char *func, *mod;
	int kernel;
};

struct psample {
	uint64_t time_us;
	int tid;
	struct pframe *f;
	size_t n;
};

struct pscript {
	struct psample *s;
	size_t n, cap;
};

static void pscript_free(struct pscript *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		for (size_t k = 0; k < ps->s[i].n; k++) {
			free(ps->s[i].f[k].func);
			free(ps->s[i].f[k].mod);
		}
		free(ps->s[i].f);
	}
	free(ps->s);
	memset(ps, 0, sizeof(*ps));
}

static void parse_head(const char *line, struct psample *s)
{
	/* "comm  tid [cpu] sec.usec: [period] event: " (comm may hold
	 * spaces): the time is the last "digits.digits:" */
	const char *p = line, *colon = NULL;
	while ((p = strchr(p, ':'))) {
		const char *q = p;
		while (q > line &&
		       (q[-1] == '.' || (q[-1] >= '0' && q[-1] <= '9')))
			q--;
		if (q < p && q > line && q[-1] == ' ' &&
		    memchr(q, '.', p - q)) {
			colon = p;
			break;
		}
		p++;
	}
	ck_assert_msg(colon != NULL, "no time in \"%s\"", line);
	const char *t = colon;
	while (t[-1] != ' ')
		t--;
	unsigned long long sec, usec;
	ck_assert_int_eq(sscanf(t, "%llu.%llu", &sec, &usec), 2);
	s->time_us = sec * 1000000 + usec;
	const char *e = t;
	while (e > line && e[-1] == ' ')
		e--;
	if (e[-1] == ']') {
		while (e > line && e[-1] != '[')
			e--;
		e--;
		while (e > line && e[-1] == ' ')
			e--;
	}
	const char *ts = e;
	while (ts > line && ts[-1] >= '0' && ts[-1] <= '9')
		ts--;
	s->tid = atoi(ts);
}

static void add_frame(struct psample *s, uint64_t addr, const char *func,
		      size_t flen, const char *mod)
{
	if (s->n && s->f[s->n - 1].addr == addr) {
		struct pframe *f = &s->f[s->n - 1];
		free(f->func);
		free(f->mod);
		f->func = strndup(func, flen);
		f->mod = strdup(mod);
		return;
	}
	s->f = realloc(s->f, (s->n + 1) * sizeof(*s->f));
	ck_assert_ptr_nonnull(s->f);
	struct pframe *f = &s->f[s->n++];
	f->addr = addr;
	f->func = strndup(func, flen);
	f->mod = strdup(mod);
	f->kernel = !strcmp(mod, "[kernel.kallsyms]") || (int64_t)addr < 0;
}

static void read_script(const char *path, struct pscript *ps)
{
	FILE *fp = fopen(path, "r");
	ck_assert_msg(fp != NULL, "cannot open %s", path);
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	struct psample *cur = NULL;
	while ((len = getline(&line, &cap, fp)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len || line[0] == '#') {
			cur = NULL;
			continue;
		}
		if (line[0] != ' ' && line[0] != '\t') {
			if (ps->n == ps->cap) {
				ps->cap = ps->cap ? 2 * ps->cap : 256;
				ps->s = realloc(ps->s,
						ps->cap * sizeof(*ps->s));
				ck_assert_ptr_nonnull(ps->s);
			}
			cur = &ps->s[ps->n++];
			memset(cur, 0, sizeof(*cur));
			parse_head(line, cur);
			continue;
		}
		ck_assert_ptr_nonnull(cur);
		/* "\t  addr func+0xoff (module)" */
		char *mo = strrchr(line, '(');
		ck_assert_ptr_nonnull(mo);
		char *me = strrchr(mo, ')');
		ck_assert_ptr_nonnull(me);
		*me = '\0';
		char *a = line + strspn(line, " \t");
		char *fn;
		uint64_t addr = strtoull(a, &fn, 16);
		fn += strspn(fn, " ");
		char *fe = mo;
		while (fe > fn && fe[-1] == ' ')
			fe--;
		char *plus = NULL;
		for (char *q = fn; (q = strstr(q, "+0x")) && q < fe; q++)
			plus = q;
		if (plus &&
		    plus + 3 + strspn(plus + 3, "0123456789abcdef") == fe)
			fe = plus;
		add_frame(cur, addr, fn, (size_t)(fe - fn), mo + 1);
	}
	free(line);
	fclose(fp);
}

/* ---- where the comparison can see every frame ---------------------------- */

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Whether PATH here has build-id HEX. */
static int file_has_buildid(const char *path, const char *hex)
{
	struct perfan__elf *e;
	if (perfan__elf_open(&e, path))
		return 0;
	char h[41];
	int same = !strcmp(
		perfan__buildid_hex(e->build_id, e->build_id_size, h), hex);
	perfan__elf_close(e);
	return same;
}

/* Whether this machine has what the recording in testdata/CASE used: the
 * files perf buildid-list named, with their build-ids (libc too, which
 * testdata/dwarf's list lacks), libc's debug file, and testdata at the
 * path the recording names. */
static int on_recording_machine(const char *kase, const char *buildids)
{
	char rec[256], rel[256], *a, *b;
	snprintf(rec, sizeof(rec), "/work/main/testdata/%s", kase);
	a = realpath(rec, NULL);
	b = realpath(tu_testdata(kase), NULL);
	int ok = a && b && !strcmp(a, b);
	free(a);
	free(b);
	if (!ok || access(RECORDING_LIBC_DEBUG, R_OK) ||
	    !file_has_buildid(RECORDING_LIBC, RECORDING_LIBC_BUILD_ID))
		return 0;
	snprintf(rel, sizeof(rel), "%s/%s", kase, buildids);
	FILE *f = fopen(tu_testdata(rel), "r");
	if (!f)
		return 0;
	char line[1024], hex[64], path[900];
	while (ok && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %899s", hex, path) == 2 &&
		    path[0] == '/')
			ok = file_has_buildid(path, hex);
	fclose(f);
	return ok;
}

/* A frame of testdata's own binaries (what a hermetic run can unwind). */
static int in_testdata(const struct pframe *f)
{
	return strstr(f->mod, "/testdata/") != NULL;
}

/* ---- perfan__unwind_user on its own --------------------------------------- */

/* Just enough of the resolver's context to keep address spaces (from the
 * recording's COMM, FORK, MMAP2) and find DSOs. */
struct direct {
	struct perfan__symctx ctx;
	char symfs[4096];
};

static void direct_init(struct direct *d, const char *symfs_case)
{
	memset(d, 0, sizeof(*d));
	d->ctx.o.sz = sizeof(d->ctx.o);
	if (symfs_case)
		snprintf(d->symfs, sizeof(d->symfs), "%s",
			 tu_testdata(symfs_case));
	d->ctx.symfs = d->symfs; /* "" : the recorded paths */
	d->ctx.kmaps = perfan__maps_new();
	ck_assert_ptr_nonnull(d->ctx.kmaps);
}

static void direct_free(struct direct *d)
{
	perfan__unwind_free(&d->ctx);
	perfan__jit_free(&d->ctx); /* the unwinder asks it for JIT code */
	perfan__threads_free(&d->ctx.threads);
	perfan__maps_put(d->ctx.kmaps);
	perfan__dsos_free(&d->ctx);
	perfan__htab_free(&d->ctx.bid_by_path);
	perfan__arena_free(&d->ctx.arena);
}

/* Keep the address spaces current; returns 1 for a sample to unwind. */
static int direct_record(struct direct *d, const struct perfan_record *rec)
{
	struct perfan__symctx *ctx = &d->ctx;
	switch (rec->type) {
	case PERFAN_REC_COMM:
		ck_assert_int_eq(
			perfan__threads_comm(
				&ctx->threads, (int32_t)rec->u.comm.pid,
				(int32_t)rec->u.comm.tid, rec->u.comm.comm,
				(rec->misc & PERFAN_MISC_COMM_EXEC) != 0),
			0);
		return 0;
	case PERFAN_REC_FORK:
		ck_assert_int_eq(
			perfan__threads_fork(&ctx->threads,
					     (int32_t)rec->u.fork_exit.pid,
					     (int32_t)rec->u.fork_exit.ppid,
					     (int32_t)rec->u.fork_exit.tid,
					     (int32_t)rec->u.fork_exit.ptid),
			0);
		return 0;
	case PERFAN_REC_MMAP2: {
		const struct perfan_rec_mmap *m = &rec->u.mmap;
		if ((rec->misc & PERFAN_MISC_CPUMODE_MASK) !=
			    PERFAN_MISC_USER ||
		    !(m->prot & PROT_EXEC))
			return 0;
		struct perfan__dso *dso =
			perfan__dso_get(ctx, m->filename, m->build_id,
					(rec->misc & PERFAN_MISC_MMAP_BUILD_ID)
						? m->build_id_size
						: 0,
					(int32_t)m->pid);
		struct perfan__thread *t = perfan__thread_findnew(
			&ctx->threads, (int32_t)m->pid, (int32_t)m->tid);
		ck_assert_ptr_nonnull(dso);
		ck_assert_ptr_nonnull(t);
		struct perfan__map map = {m->start, m->start + m->len,
					  m->pgoff, dso,
					  m->prot,  m->flags};
		ck_assert_int_eq(perfan__maps_insert(&t->proc->maps, &map), 0);
		return 0;
	}
	case PERFAN_REC_SAMPLE: return rec->event != NULL;
	default: return 0;
	}
}

/* The address perf script prints for IP: the offset in its DSO's file
 * (the address itself where no file is mapped); *DSO its DSO. */
static uint64_t shown_addr(struct perfan__thread *t, uint64_t ip,
			   struct perfan__dso **dso)
{
	const struct perfan__map *m = perfan__maps_find(t->proc->maps, ip);
	*dso = m ? m->dso : NULL;
	return m ? perfan__map_ip(m, ip) : ip;
}

struct direct_result {
	size_t samples, same, truncated, want_truncated;
};

/* Unwind every sample of testdata/CASE/DATA and compare with perf's
 * frames in SCRIPT. HERMETIC: binaries only from testdata/CASE. */
static void direct_compare(const char *kase, const char *data,
			   const char *script, int hermetic,
			   struct direct_result *res)
{
	char rel[256];
	struct pscript ps = {0};
	snprintf(rel, sizeof(rel), "%s/%s", kase, script);
	read_script(tu_testdata(rel), &ps);

	struct direct d;
	direct_init(&d, hermetic ? kase : NULL);
	snprintf(rel, sizeof(rel), "%s/%s", kase, data);
	perfan_perfdata *pd;
	ck_assert_msg(!perfan_perfdata_open(&pd, tu_testdata(rel), NULL), "%s",
		      perfan_error_last());
	d.ctx.pd = pd;
	memset(res, 0, sizeof(*res));
	const struct perfan_record *rec;
	uint64_t ips[MAX_FRAMES];
	int err;
	while (!(err = perfan_perfdata_next(pd, &rec))) {
		if (!direct_record(&d, rec))
			continue;
		const struct perfan_sample *s = &rec->u.sample;
		ck_assert_uint_lt(res->samples, ps.n);
		const struct psample *want = &ps.s[res->samples++];
		ck_assert_uint_eq(s->time / 1000, want->time_us);
		struct perfan__thread *t = perfan__thread_findnew(
			&d.ctx.threads, (int32_t)s->pid, (int32_t)s->tid);
		ck_assert_ptr_nonnull(t);
		int trunc = -1;
		size_t n = perfan__unwind_user(&d.ctx, t, rec->event, s, ips,
					       MAX_FRAMES, &trunc);
		ck_assert(trunc == 0 || trunc == 1);
		res->truncated += trunc;

		/* perf's user frames, and where a hermetic unwind stops */
		size_t k = 0, end;
		while (k < want->n && want->f[k].kernel)
			k++;
		size_t first = k;
		int want_trunc = 0;
		for (end = first; end < want->n; end++) {
			if (hermetic && !in_testdata(&want->f[end])) {
				end++;
				want_trunc = 1;
				break;
			}
		}
		if (end - first > MAX_FRAMES)
			end = first + MAX_FRAMES;
		res->want_truncated += want_trunc;
		int same = n == end - first &&
			   (!hermetic || trunc == want_trunc);
		for (size_t i = 0; same && i < n; i++) {
			struct perfan__dso *dso;
			uint64_t a = shown_addr(t, ips[i], &dso);
			same = a == want->f[first + i].addr;
		}
		if (same) {
			res->same++;
		} else if (res->samples - res->same <= 3) {
			printf("%s: sample at %llu us: perf has %zu user "
			       "frames, perfan %zu (truncated %d):\n",
			       rel, (unsigned long long)want->time_us,
			       end - first, n, trunc);
			for (size_t i = 0; i < n || first + i < end; i++) {
				struct perfan__dso *dso = NULL;
				uint64_t a = i < n ? shown_addr(t, ips[i], &dso)
						   : 0;
				const struct pframe *f =
					first + i < end ? &want->f[first + i]
							: NULL;
				printf("  perf %8llx %-30s  perfan %8llx %s\n",
				       f ? (unsigned long long)f->addr : 0,
				       f ? f->func : "-", (unsigned long long)a,
				       dso ? dso->short_name : "-");
			}
		}
	}
	ck_assert_int_eq(err, PERFAN_ITEROVER);
	ck_assert_uint_eq(res->samples, ps.n);
	printf("%s: %zu of %zu samples unwound to perf's frames (%s), %zu "
	       "truncated\n",
	       rel, res->same, res->samples,
	       hermetic ? "testdata's binaries only" : "all libraries",
	       res->truncated);
	perfan_perfdata_free(pd);
	direct_free(&d);
	pscript_free(&ps);
}

START_TEST(test_direct_hermetic)
{
	struct direct_result r;
	direct_compare("dwarf", "perf.data", "script.txt", 1, &r);
	ck_assert_uint_eq(r.samples, 104);
	ck_assert_msg(r.same * 100 >= r.samples * 99, "%zu of %zu", r.same,
		      r.samples);
	/* every stack runs through libc (main's caller), which testdata
	 * does not have: each ends there, marked */
	ck_assert_uint_eq(r.want_truncated, r.samples);
	ck_assert_uint_eq(r.truncated, r.samples);
}
END_TEST

START_TEST(test_direct_all_libraries)
{
	if (!on_recording_machine("dwarf", "buildids.txt"))
		TU_SKIP("not the recording machine (libc %s)",
			RECORDING_LIBC_BUILD_ID);
	struct direct_result r;
	direct_compare("dwarf", "perf.data", "script.txt", 0, &r);
	ck_assert_msg(r.same * 100 >= r.samples * 99, "%zu of %zu", r.same,
		      r.samples);
	ck_assert_uint_eq(r.truncated, 0); /* all reach _start */
}
END_TEST

/* Unwinding the samples of testdata/dwarf with their stack copy cut to
 * CUT bytes, or at most MAX frames: a prefix of the full unwind, marked
 * truncated unless it still reached the outermost frame. */
static void cut_compare(size_t cut, size_t max, int want_all_truncated)
{
	struct direct d;
	direct_init(&d, "dwarf");
	perfan_perfdata *pd;
	ck_assert(!perfan_perfdata_open(&pd, tu_testdata("dwarf/perf.data"),
					NULL));
	d.ctx.pd = pd;
	const struct perfan_record *rec;
	uint64_t full[MAX_FRAMES], part[MAX_FRAMES];
	size_t samples = 0, shorter = 0;
	while (!perfan_perfdata_next(pd, &rec)) {
		if (!direct_record(&d, rec))
			continue;
		struct perfan_sample s = rec->u.sample;
		struct perfan__thread *t = perfan__thread_findnew(
			&d.ctx.threads, (int32_t)s.pid, (int32_t)s.tid);
		int tf, tp;
		size_t nf = perfan__unwind_user(&d.ctx, t, rec->event, &s, full,
						MAX_FRAMES, &tf);
		if (s.user_stack_dyn_size > cut)
			s.user_stack_dyn_size = cut;
		size_t np = perfan__unwind_user(&d.ctx, t, rec->event, &s, part,
						max, &tp);
		ck_assert_uint_ge(np, 1); /* the sampled pc, at least */
		ck_assert_uint_le(np, max);
		/* perf's mark of a stack cut short: a last frame at -1 */
		size_t same = np;
		if (np > 1 && part[np - 1] == UINT64_MAX) {
			ck_assert_int_eq(tp, 1);
			same--;
		}
		ck_assert_uint_le(same, nf);
		ck_assert(!memcmp(part, full, same * sizeof(part[0])));
		if (same < nf)
			ck_assert_int_eq(tp, 1);
		if (want_all_truncated)
			ck_assert_int_eq(tp, 1);
		shorter += same < nf;
		samples++;
	}
	ck_assert_uint_eq(samples, 104);
	ck_assert_uint_gt(shorter, 0);
	perfan_perfdata_free(pd);
	direct_free(&d);
}

START_TEST(test_stack_copy_too_small)
{
	/* hot_x's frame holds work's return address: 16 bytes reach no
	 * caller's */
	cut_compare(16, MAX_FRAMES, 1);
	cut_compare(0, MAX_FRAMES, 1);
}
END_TEST

START_TEST(test_max_frames)
{
	cut_compare(1u << 20, 2, 1);
	cut_compare(1u << 20, 1, 1);
}
END_TEST

/* A sample without the stack pointer or pc, or with 32-bit registers,
 * gives nothing (the resolver then falls back to the sample's ip). */
START_TEST(test_unusable_registers)
{
	struct direct d;
	direct_init(&d, "dwarf");
	perfan_perfdata *pd;
	ck_assert(!perfan_perfdata_open(&pd, tu_testdata("dwarf/perf.data"),
					NULL));
	d.ctx.pd = pd;
	const struct perfan_record *rec;
	uint64_t ips[8], regs[64];
	int done = 0;
	while (!done && !perfan_perfdata_next(pd, &rec)) {
		if (!direct_record(&d, rec))
			continue;
		struct perfan_sample s = rec->u.sample;
		struct perfan__thread *t = perfan__thread_findnew(
			&d.ctx.threads, (int32_t)s.pid, (int32_t)s.tid);
		int tr;
		ck_assert_uint_gt(perfan__unwind_user(&d.ctx, t, rec->event, &s,
						      ips, 8, &tr),
				  1);
		/* without SP (bit 7 of x86's perf_regs) */
		uint64_t mask = s.user_regs.mask;
		size_t k = 0, j = 0;
		for (unsigned bit = 0; bit < 64; bit++) {
			if (!(mask & (1ull << bit)))
				continue;
			if (bit != 7)
				regs[j++] = s.user_regs.regs[k];
			k++;
		}
		s.user_regs.mask = mask & ~(1ull << 7);
		s.user_regs.nr = j;
		s.user_regs.regs = regs;
		ck_assert_uint_eq(perfan__unwind_user(&d.ctx, t, rec->event, &s,
						      ips, 8, &tr),
				  0);
		ck_assert_int_eq(tr, 1);
		/* 32-bit registers (PERF_SAMPLE_REGS_ABI_32) */
		s = rec->u.sample;
		s.user_regs.abi = 1;
		ck_assert_uint_eq(perfan__unwind_user(&d.ctx, t, rec->event, &s,
						      ips, 8, &tr),
				  0);
		ck_assert_int_eq(tr, 1);
		done = 1;
	}
	ck_assert(done);
	perfan_perfdata_free(pd);
	direct_free(&d);
}
END_TEST

/* ---- hand-made samples: CFI expressions, aarch64 ---------------------------- */

/* The index in a sample's register array of perf_regs bit BIT. */
static size_t reg_index(uint64_t mask, unsigned bit)
{
	ck_assert(mask & (1ull << bit));
	return (size_t)__builtin_popcountll(mask & ((1ull << bit) - 1));
}

/* The ELF address of symbol NAME in E. */
static uint64_t sym_addr(struct perfan__elf *e, const char *name)
{
	Elf *elf = e->elf;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize;
		     i++) {
			GElf_Sym sym;
			const char *n;
			if (gelf_getsym(data, (int)i, &sym) &&
			    (n = elf_strptr(elf, sh.sh_link, sym.st_name)) &&
			    !strcmp(n, name))
				return sym.st_value;
		}
	}
	ck_abort_msg("no symbol %s in %s", name, e->path);
	return 0;
}

/* An x86-64 PLT stub's CFA is a DWARF expression of rsp and rip (rsp + 8,
 * or + 16 once the stub has pushed its index). A real sample of
 * testdata/dwarf is moved into prog's first PLT stub, as if hot_x had
 * called it: unwinding must find hot_x and then the sample's own frames. */
START_TEST(test_x86_64_plt_expression)
{
	struct direct d;
	direct_init(&d, "dwarf");
	perfan_perfdata *pd;
	ck_assert(!perfan_perfdata_open(&pd, tu_testdata("dwarf/perf.data"),
					NULL));
	d.ctx.pd = pd;
	const struct perfan_record *rec;
	while (!perfan_perfdata_next(pd, &rec) && !direct_record(&d, rec))
		;
	ck_assert_int_eq(rec->type, PERFAN_REC_SAMPLE);
	const struct perfan_sample *s = &rec->u.sample;
	struct perfan__thread *t = perfan__thread_findnew(
		&d.ctx.threads, (int32_t)s->pid, (int32_t)s->tid);
	uint64_t orig[MAX_FRAMES], ips[MAX_FRAMES];
	int tr, tr0;
	size_t n0 = perfan__unwind_user(&d.ctx, t, rec->event, s, orig,
					MAX_FRAMES, &tr0);
	/* hot_x, work, main, libc (where this hermetic unwind stops) */
	ck_assert_uint_eq(n0, 4);

	/* prog's .plt is at 0x1020: PLT0, then 16-byte stubs from 0x1030,
	 * each "jmp *GOT(%rip); push $i; jmp PLT0" */
	const struct perfan__map *m = perfan__maps_find(t->proc->maps, orig[0]);
	ck_assert_ptr_nonnull(m);
	const struct perfan__symtab *st = &m->dso->symtab;
	uint64_t plt_off = 0;
	for (size_t i = 0; i < st->nsegs; i++)
		if (st->segs[i].vaddr <= 0x1030 &&
		    0x1030 - st->segs[i].vaddr < st->segs[i].filesz)
			plt_off =
				0x1030 - st->segs[i].vaddr + st->segs[i].offset;
	ck_assert_uint_ge(plt_off, m->pgoff);
	uint64_t plt = m->start + (plt_off - m->pgoff);

	uint64_t mask = s->user_regs.mask;
	uint64_t regs[64];
	memcpy(regs, s->user_regs.regs, s->user_regs.nr * sizeof(regs[0]));
	size_t isp = reg_index(mask, 7), iip = reg_index(mask, 8);
	uint64_t sp = regs[isp];
	for (int pushed = 0; pushed <= 1; pushed++) {
		/* the stack below the sample's: [the stub's push], then the
		 * return address into hot_x (just after its sampled pc) */
		size_t extra = 8 + 8 * (size_t)pushed;
		unsigned char *stack = malloc(s->user_stack_dyn_size + extra);
		ck_assert_ptr_nonnull(stack);
		uint64_t ret = orig[0] + 1, idx = 0;
		if (pushed)
			memcpy(stack, &idx, 8);
		memcpy(stack + extra - 8, &ret, 8);
		memcpy(stack + extra, s->user_stack, s->user_stack_dyn_size);
		struct perfan_sample ps = *s;
		ps.user_stack = stack;
		ps.user_stack_size = ps.user_stack_dyn_size =
			s->user_stack_dyn_size + extra;
		regs[isp] = sp - extra;
		regs[iip] = plt + (pushed ? 11 : 0);
		ps.user_regs.regs = regs;
		size_t n = perfan__unwind_user(&d.ctx, t, rec->event, &ps, ips,
					       MAX_FRAMES, &tr);
		ck_assert_uint_eq(n, n0 + 1);
		ck_assert_int_eq(tr, tr0);
		ck_assert_uint_eq(ips[0], regs[iip]);
		ck_assert(!memcmp(ips + 1, orig, n0 * sizeof(orig[0])));
		free(stack);
	}
	perfan_perfdata_free(pd);
	direct_free(&d);
}
END_TEST

/* aarch64: testdata/unwind-aarch64/frames (frames.S) has _start -> mid ->
 * leaf with known CFI. A sample at leaf_pc is made by hand: registers
 * X0..X30, SP, PC (perf_regs order) and the stack mid's prologue wrote;
 * no recording's arch feature, so the machine comes from the ELF. */
START_TEST(test_aarch64)
{
	struct direct d;
	direct_init(&d, NULL);
	char path[4096];
	snprintf(path, sizeof(path), "%s",
		 tu_testdata("unwind-aarch64/frames"));
	struct perfan__dso *dso = perfan__dso_get(&d.ctx, path, NULL, 0, 0);
	ck_assert_ptr_nonnull(dso);
	perfan__dso_load(&d.ctx, dso);
	ck_assert(dso->has_symtab && dso->runtime);
	struct perfan__thread *t = perfan__thread_findnew(&d.ctx.threads, 1, 1);
	ck_assert_ptr_nonnull(t);
	/* loaded where linked (a static executable) */
	for (size_t i = 0; i < dso->symtab.nsegs; i++) {
		const struct perfan__seg *sg = &dso->symtab.segs[i];
		struct perfan__map map = {sg->vaddr,  sg->vaddr + sg->filesz,
					  sg->offset, dso,
					  PROT_EXEC,  0};
		ck_assert_int_eq(perfan__maps_insert(&t->proc->maps, &map), 0);
	}
	uint64_t leaf_pc = sym_addr(dso->runtime, "leaf_pc");
	uint64_t mid_ret = sym_addr(dso->runtime, "mid_ret");
	uint64_t start_ret = sym_addr(dso->runtime, "start_ret");

	/* leaf's 16 bytes, then mid's 32: x29, x30 (with a pointer
	 * authentication code in bits 48-54), x19, padding */
	const uint64_t S = 0x7ffffff000;
	uint64_t stack[6] = {0xdead, 0xbeef, 0, start_ret | (0x5aull << 48),
			     0x1919, 0};
	uint64_t regs[33];
	for (int i = 0; i < 33; i++)
		regs[i] = 0x1000 + (uint64_t)i;
	regs[29] = S + 16; /* mid's frame record */
	regs[30] = mid_ret;
	regs[31] = S;
	regs[32] = leaf_pc;
	struct perfan_sample s;
	memset(&s, 0, sizeof(s));
	s.type = PERFAN_SAMPLE_REGS_USER | PERFAN_SAMPLE_STACK_USER;
	s.user_regs.abi = 2; /* PERF_SAMPLE_REGS_ABI_64 */
	s.user_regs.mask = (1ull << 33) - 1;
	s.user_regs.nr = 33;
	s.user_regs.regs = regs;
	s.user_stack = stack;
	s.user_stack_size = s.user_stack_dyn_size = sizeof(stack);
	struct perfan_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.attr.sample_regs_user = s.user_regs.mask;

	uint64_t ips[8];
	int tr = -1;
	size_t n = perfan__unwind_user(&d.ctx, t, &ev, &s, ips, 8, &tr);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(ips[0], leaf_pc);
	ck_assert_uint_eq(ips[1], mid_ret - 1);
	ck_assert_uint_eq(ips[2], start_ret - 1);
	ck_assert_int_eq(tr, 0); /* _start's return address is undefined */

	/* mid's saved x30 outside the copy: cut, with perf's -1 frame */
	s.user_stack_dyn_size = 24;
	n = perfan__unwind_user(&d.ctx, t, &ev, &s, ips, 8, &tr);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(ips[1], mid_ret - 1);
	ck_assert_uint_eq(ips[2], UINT64_MAX);
	ck_assert_int_eq(tr, 1);
	direct_free(&d);
}
END_TEST

/* ---- the resolver's stacks, by name ---------------------------------------- */

/* perf's frame as perfan names it without inline frames; NULL matches any
 * name: frames perf named after their DWARF function ("(inlined)" on a
 * frame of its own) and JIT frames named from perf-PID.map. */
static const char *want_name(const struct pframe *f, char *buf, size_t size,
			     int unresolved)
{
	if (!strcmp(f->mod, "[unknown]"))
		return "[unknown]"; /* perf's frame at -1 ends a cut stack */
	if (unresolved) {
		snprintf(buf, size, "[%s]", basename_of(f->mod));
		return !strcmp(f->mod, "inlined") ? NULL : buf;
	}
	if (!strcmp(f->mod, "inlined") || !strncmp(f->mod, "/tmp/perf-", 10))
		return NULL;
	return f->func;
}

struct names_result {
	size_t samples, same;
	struct perfan_resolve_stats st;
};

static void names_compare(const char *kase, const char *data,
			  const char *script, int hermetic,
			  struct names_result *res)
{
	char rel[256];
	struct pscript ps = {0};
	snprintf(rel, sizeof(rel), "%s/%s", kase, script);
	read_script(tu_testdata(rel), &ps);

	snprintf(rel, sizeof(rel), "%s/%s", kase, data);
	perfan_perfdata *pd;
	ck_assert(!perfan_perfdata_open(&pd, tu_testdata(rel), NULL));
	struct perfan_profile_opts po =
		PERFAN_OPTS_INIT(struct perfan_profile_opts);
	po.keep_samples = 1;
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, &po), 0);
	struct perfan_resolve_opts o =
		PERFAN_OPTS_INIT(struct perfan_resolve_opts);
	o.host = tu_host();
	o.filter = PERFAN_FILTER_INIT;
	o.root = PERFAN_ROOT_NONE;
	char symfs[4096], nocache[4096], kallsyms[4096];
	snprintf(kallsyms, sizeof(kallsyms), "%s", tu_testdata("kallsyms"));
	o.kallsyms = kallsyms;
	if (hermetic) {
		snprintf(symfs, sizeof(symfs), "%s", tu_testdata(kase));
		snprintf(nocache, sizeof(nocache), "%s",
			 tu_testdata("no-such-build-id-cache"));
		o.symfs = symfs;
		o.buildid_dir = nocache;
	}
	memset(res, 0, sizeof(*res));
	ck_assert_msg(!perfan_resolve_perfdata(p, pd, &o, &res->st), "%s",
		      perfan_error_last());
	perfan_perfdata_free(pd);
	ck_assert_uint_eq(perfan_profile_nr_samples(p), ps.n);

	for (size_t i = 0; i < ps.n; i++) {
		const struct perfan_profile_sample *s =
			perfan_profile_sample_get(p, i);
		const struct psample *want = &ps.s[i];
		ck_assert_uint_eq(s->meta.time / 1000, want->time_us);
		const char *got[MAX_FRAMES];
		size_t n = 0;
		for (perfan_node_id nd = s->leaf;
		     nd != PERFAN_ROOT_NODE && n < MAX_FRAMES;
		     nd = perfan_profile_node_parent(p, nd))
			got[n++] = perfan_profile_frame_get(
					   p, perfan_profile_node_frame(p, nd))
					   ->name;
		int same = 1;
		size_t k = 0, g = 0;
		for (; same && k < want->n && g < n; k++, g++) {
			const struct pframe *f = &want->f[k];
			char buf[512];
			int out = hermetic && !f->kernel && !in_testdata(f);
			const char *w = want_name(f, buf, sizeof(buf), out);
			same = !w || !strcmp(w, got[g]);
			if (out) {
				k++, g++;
				break; /* a hermetic unwind stops there */
			}
		}
		/* perf's unwinder stops at a CPython trampoline (JIT code
		 * without CFI); perfan's goes on through it to main: perf's
		 * stack is then the leaf part of perfan's */
		const struct pframe *outer = want->n ? &want->f[want->n - 1]
						     : NULL;
		int perf_cut = outer && outer->mod &&
			       (strstr(outer->mod, "perf-") ||
				strstr(outer->mod, "[JIT]") ||
				strstr(outer->mod, "jit-"));
		same = same && (g == n || (perf_cut && k == want->n)) &&
		       (k == want->n || hermetic);
		res->same += same;
		if (!same && i - res->same < 3) {
			printf("%s: sample %zu differs:\n  perf  ", rel, i);
			for (size_t j = 0; j < want->n; j++)
				printf(" %s", want->f[j].func);
			printf("\n  perfan");
			for (size_t j = 0; j < n; j++)
				printf(" %s", got[j]);
			printf("\n");
		}
	}
	res->samples = ps.n;
	printf("%s: %zu of %zu stacks name perf's frames (%s), %llu "
	       "truncated\n",
	       rel, res->same, res->samples,
	       hermetic ? "testdata's binaries only" : "all libraries",
	       (unsigned long long)res->st.stacks_truncated);
	perfan_profile_free(p);
	pscript_free(&ps);
}

START_TEST(test_names_hermetic)
{
	struct names_result r;
	names_compare("dwarf", "perf.data", "script.txt", 1, &r);
	ck_assert_msg(r.same * 100 >= r.samples * 99, "%zu of %zu", r.same,
		      r.samples);
	ck_assert_uint_eq(r.st.stacks_truncated, r.samples);
	ck_assert_uint_eq(r.st.buildid_mismatches, 0);
}
END_TEST

/* The recordings with all their libraries: testdata/dwarf down to _start,
 * and the Python ones as far as perf got (its unwinder stops at the first
 * CPython trampoline, JIT code without CFI, where perfan's goes on), or
 * through the trampolines where perf inject made ELF files of them. */
static const struct {
	const char *dir, *data, *script, *buildids;
} full_cases[] = {
	{"dwarf", "perf.data", "script.txt", "buildids.txt"},
	{"py312-perf", "perf.dwarf.data", "script.dwarf.txt",
	 "buildids.dwarf.txt"},
	{"py313-perfjit", "perf.data", "script.txt", "buildids.txt"},
	/* perf inject --jit: the trampolines are ELF files with CFI, and
	 * both unwinders go through them to main */
	{"py313-perfjit", "perf.jit.data", "script.jit.txt",
	 "buildids.jit.txt"},
};

START_TEST(test_names_all_libraries)
{
	const char *dir = full_cases[_i].dir;
	if (!on_recording_machine(dir, full_cases[_i].buildids))
		TU_SKIP("%s: not the recording machine (its libraries, by "
			"build-id)",
			dir);
	struct names_result r;
	names_compare(dir, full_cases[_i].data, full_cases[_i].script, 0, &r);
	ck_assert_uint_eq(r.st.buildid_mismatches, 0);
	ck_assert_msg(r.same * 100 >= r.samples * 99, "%s: %zu of %zu", dir,
		      r.same, r.samples);
	if (!strcmp(dir, "dwarf"))
		ck_assert_uint_eq(r.st.stacks_truncated, 0);
}
END_TEST

static Suite *unwind_suite(void)
{
	Suite *s = suite_create("unwind");
	TCase *tc = tcase_create("unwind");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_direct_hermetic);
	tcase_add_test(tc, test_direct_all_libraries);
	tcase_add_test(tc, test_stack_copy_too_small);
	tcase_add_test(tc, test_max_frames);
	tcase_add_test(tc, test_unusable_registers);
	tcase_add_test(tc, test_x86_64_plt_expression);
	tcase_add_test(tc, test_aarch64);
	tcase_add_test(tc, test_names_hermetic);
	tcase_add_loop_test(tc, test_names_all_libraries, 0,
			    sizeof(full_cases) / sizeof(full_cases[0]));
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(unwind_suite)
