/* stream/stream.c: the resolved-sample stream (perfan/stream.h): reads the
 * records in time order, keeps the address spaces current, and turns each
 * sample into a leaf-first stack of interned frames with their addresses.
 * Each (DSO, address) and kernel address is symbolized once. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <perfan/stream.h>
#include <traceevent/event-parse.h>

#include "profile/model.h"
#include "resolve/jit.h"
#include "resolve/symbols.h"
#include "resolve/unwind.h"
#include "sources/perfdata/tracing.h"
#include "stream/stream_memo.h"
#include "stream/unwind_ahead.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"

/* perf's default for kernel.perf_event_max_stack: a chain this long was
 * probably cut by the kernel. */
#define DEFAULT_MAX_STACK 127
/* Inline depth kept per address. */
#define MAX_INLINE 32

/* Cached frames of one address: a run in r->fids. */
#define CACHE_UNRESOLVED 1u
static uint64_t cache_val(size_t first, size_t n, unsigned flags)
{
	return ((uint64_t)first << 24) | ((uint64_t)(n & 0xffff) << 8) | flags;
}

struct perfan_stream {
	struct perfan__symctx ctx;
	/* The frame table: a profile without columns, used to intern frames
	 * (its ids are the stream's frame ids), or the profile the fold
	 * fills (fold_only: no public frames are made, the fold reads the
	 * ids). */
	perfan_profile *p;
	int fold_only;
	struct perfan_resolve_stats st;
	perfan_perfdata *pd;
	uint64_t nrec;
	int err; /* sticky: the stream stays at an error */

	uint32_t *fids; /* cached frame ids, runs referenced by caches */
	size_t nfids, capfids;
	struct perfan__htab kcache; /* kernel ip -> cache_val */

	perfan_frame_id *stack;         /* the sample's frames, leaf first */
	uint64_t *stack_addr;           /* and their addresses */
	uint64_t *stack_off;            /* and the addresses in their maps */
	struct perfan__dso **stack_dso; /* and their files (NULL: none) */
	size_t nstack, capstack;
	uint64_t cur_ip, cur_off;    /* the address being added, in its map */
	struct perfan__dso *cur_dso; /* and its file, when it has one */
	struct perfan_stream_frame *out; /* the event's frames */
	size_t capout;
	struct perfan_stream_event ev;
	struct perfan__thread *thread; /* of the last sample */
	/* each executable's weight in samples' periods, and the heaviest:
	 * the main binary (perfan_stream_main_module) */
	struct perfan__htab exe_weight; /* dso pointer -> weight */
	/* the last sample's executable and its weight's slot in exe_weight
	 * (valid until the next put there): most samples' is the one before */
	const struct perfan__dso *last_exe;
	uint64_t *last_exe_w;
	const struct perfan__dso *main_exe;
	uint64_t main_weight;
	char *exit_comm;        /* an EXIT event's comm (its thread is gone) */
	struct tep_event **tev; /* per event index: format, once looked up */
	uint8_t *tev_tried;
	unsigned tev_gen; /* perfan__perfdata_tep_gen the cache is of */
	size_t ntev;
	/* user stack addresses unwound: with the memo, after its key (the
	 * callchain's length, the callchain, whether unwinding stopped short)
	 * at ips + unw_at; unwound: done before resolve_stack */
	uint64_t *ips;
	size_t capips, unw_at, unw_n;
	int unwound, unw_trunc;
	/* the samples read ahead, unwound on a worker (NULL: none yet) */
	struct perfan__ahead *ahead;
	/* The frame added last: user space, an address nothing maps. */
	int last_user, last_nomap;
	uint64_t time; /* of the sample (UINT64_MAX: none), for JIT code */

	perfan_frame_id unknown_frame;
	int have_unknown_frame;
	/* callchains resolved before (fold only), and the generation of the
	 * kernel's state they were resolved in (may_change_kernel); a
	 * process's maps have their own */
	struct perfan__memo memo;
	uint64_t memo_gen;
	int memo_ok; /* the stack being resolved may be kept */
	/* the last sample's memo entry (0: none) and, when it was found
	 * there, its frame ids (else r->stack) */
	uint64_t memo_serial;
	uint64_t *memo_keep;
	const perfan_frame_id *memo_ids;
	struct perfan__map_cache maps; /* of user addresses */
	char buf[512];
};

static int add_buildid(struct perfan__symctx *ctx, const char *path,
		       const uint8_t *id, size_t size, int kernel)
{
	if (!path || !*path || !size)
		return 0;
	if (size > 20)
		size = 20;
	if (perfan__recorded_buildid(ctx, path, kernel))
		return 0; /* the first one recorded stays */
	if (perfan__grow((void **)&ctx->bids, &ctx->capbids, ctx->nbids + 1,
			 sizeof(*ctx->bids)))
		return PERFAN_ENOMEM;
	char *copy = perfan__arena_strndup(&ctx->arena, path, strlen(path));
	if (!copy)
		return PERFAN_ENOMEM;
	struct perfan__buildid *b = &ctx->bids[ctx->nbids];
	b->path = copy;
	memcpy(b->id, id, size);
	b->size = (uint8_t)size;
	b->kernel = kernel;
	uint64_t h = perfan__hash_bytes(path, strlen(path), 0);
	if (!perfan__htab_get(&ctx->bid_by_path, h) &&
	    perfan__htab_put(&ctx->bid_by_path, h, ctx->nbids))
		return PERFAN_ENOMEM;
	ctx->nbids++;
	return 0;
}

static int cpumode_kernel(unsigned m)
{
	return m == PERFAN_MISC_KERNEL || m == PERFAN_MISC_GUEST_KERNEL;
}

/* ---- frames -------------------------------------------------------------- */

static int push(struct perfan_stream *r, perfan_frame_id id)
{
	if (r->nstack == r->capstack) {
		void **const v[] = {(void **)&r->stack, (void **)&r->stack_addr,
				    (void **)&r->stack_off,
				    (void **)&r->stack_dso};
		const size_t size[] = {sizeof(*r->stack),
				       sizeof(*r->stack_addr),
				       sizeof(*r->stack_off),
				       sizeof(*r->stack_dso)};
		if (perfan__grow_each(v, size, 4, &r->capstack, r->nstack + 1))
			return PERFAN_ENOMEM;
	}
	r->stack_addr[r->nstack] = r->cur_ip;
	r->stack_off[r->nstack] = r->cur_off;
	r->stack_dso[r->nstack] = r->cur_dso;
	r->stack[r->nstack++] = id;
	return 0;
}

static int push_cached(struct perfan_stream *r, uint64_t v)
{
	size_t first = (size_t)(v >> 24), n = (size_t)((v >> 8) & 0xffff);
	for (size_t i = 0; i < n; i++) {
		int err = push(r, r->fids[first + i]);
		if (err)
			return err;
	}
	r->st.frames += n;
	if (v & CACHE_UNRESOLVED)
		r->st.frames_unresolved += n;
	return 0;
}

/* Store frame ids IDS[0..N) for a cache; returns the cache value. */
static int store(struct perfan_stream *r, const perfan_frame_id *ids, size_t n,
		 unsigned flags, uint64_t *val)
{
	if (perfan__grow((void **)&r->fids, &r->capfids, r->nfids + n,
			 sizeof(*r->fids)))
		return PERFAN_ENOMEM;
	memcpy(r->fids + r->nfids, ids, n * sizeof(*ids));
	*val = cache_val(r->nfids, n, flags);
	r->nfids += n;
	return 0;
}

static int intern(struct perfan_stream *r, perfan_frame_id *out,
		  const char *name, const char *module, const char *file,
		  uint32_t line, uint32_t kind)
{
	return perfan_profile_frame(r->p, out, name, module, file, line, kind);
}

/* A symbol name as shown: demangled unless asked not to. */
static int intern_sym(struct perfan_stream *r, perfan_frame_id *out,
		      const char *raw, const char *module, const char *file,
		      uint32_t line, uint32_t kind)
{
	char *d = r->ctx.o.no_demangle ? NULL : perfan__demangle(raw);
	int err = intern(r, out, d ? d : raw, module, file, line, kind);
	free(d);
	return err;
}

/* An address no symbol covers, as stackcollapse-perf.pl names it from perf
 * script's output: "[module]" (or "[unknown]" without a map), and with
 * addrs "[module <addr>]" where addr is what perf script prints (the
 * offset in the file for user DSOs, the address otherwise). */
static int intern_unresolved(struct perfan_stream *r, perfan_frame_id *out,
			     const char *module, uint64_t shown, uint32_t kind)
{
	if (r->ctx.o.addrs)
		snprintf(r->buf, sizeof(r->buf), "[%s <%llx>]",
			 module ? module : "unknown",
			 (unsigned long long)shown);
	else
		snprintf(r->buf, sizeof(r->buf), "[%s]",
			 module ? module : "unknown");
	return intern(r, out, r->buf, module, NULL, 0, kind);
}

static int add_nomap(struct perfan_stream *r, uint64_t ip)
{
	perfan_frame_id id;
	int err;
	if (r->ctx.o.addrs) {
		err = intern_unresolved(r, &id, NULL, ip, PERFAN_FRAME_UNKNOWN);
	} else if (r->have_unknown_frame) {
		id = r->unknown_frame;
		err = 0;
	} else {
		err = intern_unresolved(r, &id, NULL, ip, PERFAN_FRAME_UNKNOWN);
		r->unknown_frame = id;
		r->have_unknown_frame = !err;
	}
	if (err)
		return err;
	r->st.frames++;
	r->st.frames_unresolved++;
	r->last_nomap = 1;
	return push(r, id);
}

static uint32_t dso_kind(const struct perfan__dso *d, int resolved)
{
	if (d->kind == PERFAN__DSO_ANON)
		return PERFAN_FRAME_JIT;
	if (d->kind == PERFAN__DSO_KERNEL || d->kind == PERFAN__DSO_KMODULE)
		return PERFAN_FRAME_KERNEL;
	return resolved ? PERFAN_FRAME_NATIVE : PERFAN_FRAME_UNKNOWN;
}

/* An ELF file perf inject --jit made from a jitdump: jitted-PID-N.so. */
static int is_jitted(const char *name)
{
	if (strncmp(name, "jitted-", 7))
		return 0;
	const char *p = name + 7;
	size_t a = strspn(p, "0123456789");
	if (!a || p[a] != '-')
		return 0;
	p += a + 1;
	size_t b = strspn(p, "0123456789");
	return b && !strcmp(p + b, ".so");
}

/* Symbolize OFF in DSO: frame ids into IDS (innermost first). */
static int symbolize_dso(struct perfan_stream *r, struct perfan__dso *d,
			 uint64_t off, perfan_frame_id *ids, size_t *n,
			 int *resolved)
{
	struct perfan__symctx *ctx = &r->ctx;
	*n = 0;
	*resolved = 0;
	perfan__dso_load(ctx, d);
	const struct perfan__sym *sym = NULL;
	uint64_t addr = 0;
	if (d->has_symtab) {
		addr = perfan__symtab_off2addr(&d->symtab, off);
		sym = perfan__symtab_find(&d->symtab, addr);
	}
	if (!sym) {
		int err = intern_unresolved(r, &ids[0], d->short_name, off,
					    dso_kind(d, 0));
		*n = !err;
		return err;
	}
	struct perfan__srcframe sf[MAX_INLINE];
	size_t nsf = 0;
	if (ctx->o.inline_frames || ctx->o.source_lines)
		nsf = perfan__dwarf_frames(perfan__dso_dwarf(d), addr,
					   ctx->o.inline_frames,
					   ctx->o.source_lines, sf,
					   MAX_INLINE - 1);
	size_t k = 0;
	for (size_t i = 0; i < nsf && sf[i].inlined; i++) {
		if (!sf[i].name)
			continue;
		int err = intern_sym(r, &ids[k], sf[i].name, d->short_name,
				     sf[i].file, sf[i].line,
				     PERFAN_FRAME_INLINED);
		if (err)
			return err;
		k++;
	}
	/* The function itself keeps its ELF name (the one perf shows); DWARF
	 * gives only its line. */
	const char *file = NULL;
	uint32_t line = 0;
	if (nsf && !sf[nsf - 1].inlined) {
		file = sf[nsf - 1].file;
		line = sf[nsf - 1].line;
	} else if (nsf && !ctx->o.inline_frames) {
		file = sf[0].file;
		line = sf[0].line;
	}
	uint32_t kind = dso_kind(d, 1);
	if (is_jitted(d->short_name))
		kind = !strncmp(sym->name, "py::", 4) ? PERFAN_FRAME_PYTHON
						      : PERFAN_FRAME_JIT;
	int err = intern_sym(r, &ids[k], sym->name, d->short_name, file, line,
			     kind);
	if (err)
		return err;
	*n = k + 1;
	*resolved = 1;
	return 0;
}

/* JIT code named by a jitdump or perf map: 1 when it was. The frame of
 * each entry is cached with it (an address may hold other code later, or
 * in another process). */
static int add_jit(struct perfan_stream *r, struct perfan__thread *t,
		   const struct perfan__dso *d, uint64_t ip)
{
	struct perfan__jitmap *jm = NULL;
	const struct perfan__jitsym *s =
		perfan__jit_find(&r->ctx, t->proc, d->pid, ip, r->time, &jm);
	if (!s)
		return 0;
	uint32_t *cached = &jm->frame[s - jm->v];
	perfan_frame_id id = *cached - 1;
	if (!*cached) {
		/* CPython's trampolines: py::QUALNAME:FILE */
		uint32_t kind = !strncmp(s->name, "py::", 4)
					? PERFAN_FRAME_PYTHON
					: PERFAN_FRAME_JIT;
		int err = intern(r, &id, s->name, jm->module, NULL, 0, kind);
		if (err)
			return err;
		*cached = id + 1;
	}
	r->st.frames++;
	int err = push(r, id);
	return err ? err : 1;
}

static int add_user(struct perfan_stream *r, struct perfan__thread *t,
		    uint64_t ip)
{
	const struct perfan__map *m = perfan__proc_map(&r->maps, t->proc, ip);
	if (!m)
		return add_nomap(r, ip);
	struct perfan__dso *d = m->dso;
	uint64_t off = perfan__map_ip(m, ip);
	r->cur_off = off;
	if (d->kind == PERFAN__DSO_ANON) {
		r->memo_ok = 0; /* JIT code: named by time */
		int rc = add_jit(r, t, d, ip);
		if (rc)
			return rc < 0 ? rc : 0;
	}
	if (d->kind == PERFAN__DSO_FILE || d->kind == PERFAN__DSO_VDSO)
		r->cur_dso = d;
	uint64_t *v = perfan__htab_get(&d->cache, off);
	if (v)
		return push_cached(r, *v);

	perfan_frame_id ids[MAX_INLINE];
	size_t n;
	int resolved;
	int err = symbolize_dso(r, d, off, ids, &n, &resolved);
	uint64_t val;
	if (err ||
	    (err = store(r, ids, n, resolved ? 0 : CACHE_UNRESOLVED, &val)) ||
	    (err = perfan__htab_put(&d->cache, off, val)))
		return err;
	return push_cached(r, val);
}

/* The module of an unresolved kernel address: a module map holding it, or
 * the kernel. */
static const char *kernel_module_of(struct perfan_stream *r, uint64_t ip)
{
	const struct perfan__map *m = perfan__maps_find(r->ctx.kmaps, ip);
	if (m)
		return m->dso->short_name;
	return "[kernel.kallsyms]";
}

static int add_kernel(struct perfan_stream *r, uint64_t ip)
{
	struct perfan__symctx *ctx = &r->ctx;
	uint64_t *v = perfan__htab_get(&r->kcache, ip);
	if (v)
		return push_cached(r, *v);

	perfan_frame_id id;
	int err, resolved = 1;
	const struct perfan__ksymbol *ks =
		perfan__ksymbols_find(&ctx->ksymbols, ip);
	if (ks) {
		err = intern(r, &id, ks->name, ks->name, NULL, 0,
			     PERFAN_FRAME_KERNEL);
	} else {
		perfan__kernel_symbols(ctx);
		struct perfan__ksym k;
		if (ctx->kallsyms_state == 1 &&
		    perfan__kallsyms_find(&ctx->kallsyms, ip, &k)) {
			const char *m = k.module ? k.module
						 : "[kernel.kallsyms]";
			err = perfan__profile_frame_n(r->p, &id, k.name,
						      k.name_len, m, strlen(m),
						      PERFAN_FRAME_KERNEL);
		} else {
			resolved = 0;
			err = intern_unresolved(r, &id, kernel_module_of(r, ip),
						ip, PERFAN_FRAME_KERNEL);
		}
	}
	uint64_t val;
	if (err ||
	    (err = store(r, &id, 1, resolved ? 0 : CACHE_UNRESOLVED, &val)) ||
	    (err = perfan__htab_put(&r->kcache, ip, val)))
		return err;
	return push_cached(r, val);
}

enum mode { M_USER, M_KERNEL, M_OTHER };

static int add_ip(struct perfan_stream *r, struct perfan__thread *t,
		  uint64_t ip, enum mode mode)
{
	r->last_user = mode == M_USER;
	r->last_nomap = 0;
	r->cur_ip = r->cur_off = ip;
	r->cur_dso = NULL;
	switch (mode) {
	case M_USER: return add_user(r, t, ip);
	case M_KERNEL: return add_kernel(r, ip);
	default: return add_nomap(r, ip);
	}
}

static enum mode mode_of_misc(unsigned cpumode, uint64_t ip)
{
	switch (cpumode) {
	case PERFAN_MISC_KERNEL: return M_KERNEL;
	case PERFAN_MISC_USER: return M_USER;
	case 0: return (int64_t)ip < 0 ? M_KERNEL : M_USER;
	default: return M_OTHER;
	}
}

/* ---- records ---------------------------------------------------------- */

/* "[name]" for a kernel module path, as perf's short names
 * ("/lib/modules/.../kvm-intel.ko.xz" -> "[kvm_intel]"). */
static const char *module_short_name(struct perfan__symctx *ctx,
				     const char *path)
{
	if (path[0] == '[')
		return path;
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strcspn(b, ".");
	char *s = perfan__arena_alloc(&ctx->arena, n + 3);
	if (!s)
		return path;
	s[0] = '[';
	for (size_t i = 0; i < n; i++)
		s[i + 1] = b[i] == '-' ? '_' : b[i];
	s[n + 1] = ']';
	return s;
}

static int on_kernel_mmap(struct perfan_stream *r,
			  const struct perfan_record *rec)
{
	struct perfan__symctx *ctx = &r->ctx;
	const struct perfan_rec_mmap *m = &rec->u.mmap;
	const char *name = m->filename ? m->filename : "";
	struct perfan__dso *d;
	static const char kk[] = "[kernel.kallsyms]";
	if (!strncmp(name, kk, sizeof(kk) - 1) ||
	    !strncmp(name, "[guest.kernel.kallsyms", 22)) {
		const char *rel = strchr(name, ']') + 1;
		if (*rel && strlen(rel) < sizeof(ctx->kreloc_name)) {
			strcpy(ctx->kreloc_name, rel);
			ctx->kreloc_addr = m->pgoff;
			ctx->have_kreloc = 1;
		}
		d = ctx->kernel_dso;
		if (!d)
			d = ctx->kernel_dso =
				perfan__dso_get(ctx, kk, NULL, 0, 0);
	} else {
		int bid = rec->type == PERFAN_REC_MMAP2 &&
			  (rec->misc & PERFAN_MISC_MMAP_BUILD_ID);
		d = perfan__dso_get(ctx, name, bid ? m->build_id : NULL,
				    bid ? m->build_id_size : 0, 0);
		if (d && d->kind != PERFAN__DSO_KMODULE) {
			d->kind = PERFAN__DSO_KMODULE;
			d->short_name = module_short_name(ctx, d->path);
		}
	}
	if (!d)
		return PERFAN_ENOMEM;
	uint64_t end = m->start + m->len;
	if (end < m->start || !m->len)
		end = UINT64_MAX;
	struct perfan__map map = {m->start, end, m->pgoff, d, PROT_EXEC, 0};
	return perfan__maps_insert(&ctx->kmaps, &map);
}

static int is_anon_name(const char *f)
{
	return !strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) ||
	       !strncmp(f, "/anon_hugepage", 14) || !strncmp(f, "[anon:", 6) ||
	       !strncmp(f, "/memfd:", 7) || !strncmp(f, "[stack", 6) ||
	       !strncmp(f, "/SYSV", 5) || !strcmp(f, "[heap]");
}

static int on_mmap(struct perfan_stream *r, const struct perfan_record *rec)
{
	struct perfan__symctx *ctx = &r->ctx;
	const struct perfan_rec_mmap *m = &rec->u.mmap;
	if (cpumode_kernel(rec->misc & PERFAN_MISC_CPUMODE_MASK))
		return on_kernel_mmap(r, rec);

	uint32_t prot = m->prot;
	if (rec->type == PERFAN_REC_MMAP)
		/* MMAP has no prot: MISC_MMAP_DATA (bit 13) marks data. */
		prot = rec->misc & (1u << 13) ? PROT_READ : PROT_EXEC;
	const char *name = m->filename ? m->filename : "";
	char anon[64];
	int32_t pid = (int32_t)m->pid;
	if (is_anon_name(name) && (prot & PROT_EXEC)) {
		/* Executable memory without a file: JIT code, for which
		 * perf reads /tmp/perf-PID.map. */
		snprintf(anon, sizeof(anon), "/tmp/perf-%d.map", pid);
		name = anon;
	} else if (perfan__jit_mmap(ctx, pid, name)) {
		return PERFAN_ENOMEM; /* a jitdump, for that JIT code */
	}
	int bid = rec->type == PERFAN_REC_MMAP2 &&
		  (rec->misc & PERFAN_MISC_MMAP_BUILD_ID);
	struct perfan__dso *d =
		perfan__dso_get(ctx, name, bid ? m->build_id : NULL,
				bid ? m->build_id_size : 0, pid);
	struct perfan__thread *t =
		perfan__thread_findnew(&ctx->threads, pid, (int32_t)m->tid);
	if (!d || !t)
		return PERFAN_ENOMEM;
	uint64_t end = m->start + m->len;
	if (end < m->start)
		end = UINT64_MAX;
	if (!t->proc->exe && (prot & PROT_EXEC) && d->kind == PERFAN__DSO_FILE)
		t->proc->exe = d;
	struct perfan__map map = {m->start, end, m->pgoff, d, prot, m->flags};
	return perfan__maps_insert(&t->proc->maps, &map);
}

static int filtered(struct perfan_stream *r, const struct perfan_record *rec,
		    struct perfan__thread **tp)
{
	const struct perfan_filter *f = &r->ctx.o.filter;
	const struct perfan_sample *s = &rec->u.sample;
	int have_tid = (s->type & PERFAN_SAMPLE_TID) != 0;
	int32_t pid = have_tid ? (int32_t)s->pid : -1;
	int32_t tid = have_tid ? (int32_t)s->tid : -1;
	int32_t cpu = s->type & PERFAN_SAMPLE_CPU ? (int32_t)s->cpu : -1;
	uint64_t time = s->type & PERFAN_SAMPLE_TIME ? s->time : 0;
	/* all but the thread's name before the thread is made, then it */
	struct perfan_filter nocomm = *f;
	nocomm.comm = NULL;
	if (!perfan_filter_sample(&nocomm, pid, tid, cpu, NULL, time,
				  rec->event->name))
		return 1;
	struct perfan__thread *t =
		perfan__thread_findnew(&r->ctx.threads, pid, tid);
	if (!t)
		return -1;
	if (f->comm && !perfan_filter_thread(f, pid, tid, t->comm))
		return 1;
	*tp = t;
	return 0;
}

/* The mode a callchain context entry IP (>= PERFAN_CONTEXT_MAX) starts
 * into *MODE; -1 when IP is no context (the chain is corrupt there). */
static int context_mode(uint64_t ip, enum mode *mode)
{
	if (ip == PERFAN_CONTEXT_USER)
		*mode = M_USER;
	else if (ip == PERFAN_CONTEXT_KERNEL)
		*mode = M_KERNEL;
	else if (ip == PERFAN_CONTEXT_HV || ip == PERFAN_CONTEXT_GUEST ||
		 ip == PERFAN_CONTEXT_GUEST_KERNEL ||
		 ip == PERFAN_CONTEXT_GUEST_USER)
		*mode = M_OTHER;
	else
		return -1;
	return 0;
}

/* Whether resolve_stack unwinds S's user stack: registers and a stack
 * were copied, and its callchain has no user frames. */
static int unwinds(const struct perfan_sample *s)
{
	if (!(s->type & PERFAN_SAMPLE_REGS_USER) ||
	    !(s->type & PERFAN_SAMPLE_STACK_USER) || !s->user_regs.abi ||
	    !s->user_stack_size)
		return 0;
	if (!(s->type & PERFAN_SAMPLE_CALLCHAIN))
		return 1;
	enum mode mode = M_USER;
	for (uint64_t i = 0; i < s->callchain_nr; i++) {
		uint64_t ip = s->callchain[i];
		if (ip < PERFAN_CONTEXT_MAX) {
			if (mode == M_USER)
				return 0;
		} else if (context_mode(ip, &mode)) {
			break; /* corrupt from here: read no further */
		}
	}
	return 1;
}

/* Unwind the sample's user stack into r->ips from AT on. */
static int unwind(struct perfan_stream *r, struct perfan__thread *t,
		  const struct perfan_record *rec, size_t at)
{
	size_t max = 512;
	if (r->capips < at + max) {
		uint64_t *ips = realloc(r->ips, (at + max) * sizeof(*ips));
		if (!ips)
			return PERFAN_ENOMEM;
		r->ips = ips;
		r->capips = at + max;
	}
	r->unw_trunc = 0;
	r->unw_at = at;
	if (perfan__ahead_take(r->ahead, t, rec, r->ips + at, max, &r->unw_n,
			       &r->unw_trunc))
		return 0;
	r->unw_n = perfan__unwind_user(&r->ctx, t, rec->event, &rec->u.sample,
				       r->ips + at, max, &r->unw_trunc);
	perfan__ahead_publish(r->ahead, &r->ctx);
	return 0;
}

/* The sample's stack into r->stack (leaf first) and whether it was cut
 * short into *TRUNCATED. */
static int resolve_stack(struct perfan_stream *r,
			 const struct perfan_record *rec,
			 struct perfan__thread *t, int *truncated_out)
{
	const struct perfan_sample *s = &rec->u.sample;
	const struct perfan_event *ev = rec->event;
	int err = 0, truncated = 0, user_in_chain = 0;
	size_t entries = 0;
	r->nstack = 0;
	r->last_nomap = 0;
	r->last_user = 0;
	r->time = (s->type & PERFAN_SAMPLE_TIME) ? s->time : UINT64_MAX;
	if ((s->type & PERFAN_SAMPLE_CALLCHAIN) && s->callchain_nr) {
		enum mode mode = M_USER;
		for (uint64_t i = 0; i < s->callchain_nr && !err; i++) {
			uint64_t ip = s->callchain[i];
			if (ip >= PERFAN_CONTEXT_MAX) {
				if (context_mode(ip, &mode)) {
					/* Not a context: the chain is
					 * corrupt from here (perf drops it
					 * all; the frames before are kept). */
					truncated = 1;
					break;
				}
				continue;
			}
			user_in_chain |= mode == M_USER;
			err = add_ip(r, t, ip, mode);
			entries++;
		}
		unsigned max = ev->attr.sample_max_stack
				       ? ev->attr.sample_max_stack
				       : DEFAULT_MAX_STACK;
		if (entries >= max)
			truncated = 1;
	}
	if (!err && !user_in_chain && (s->type & PERFAN_SAMPLE_REGS_USER) &&
	    (s->type & PERFAN_SAMPLE_STACK_USER) && s->user_regs.abi &&
	    s->user_stack_size) {
		if (!r->unwound)
			err = unwind(r, t, rec, 0);
		for (size_t i = 0; i < r->unw_n && !err; i++)
			err = add_ip(r, t, r->ips[r->unw_at + i], M_USER);
		if (r->unw_trunc)
			truncated = 1;
	}
	if (!err && !r->nstack && (s->type & PERFAN_SAMPLE_IP)) {
		r->memo_ok = 0; /* the ip is not in the memo's key */
		err = add_ip(r, t, s->ip,
			     mode_of_misc(rec->misc & PERFAN_MISC_CPUMODE_MASK,
					  s->ip));
	}
	if (err)
		return err;
	/* A user stack that ends in an address nothing maps was cut short
	 * (a frame without frame pointer, a garbage return address). */
	if (r->nstack && r->last_user && r->last_nomap)
		truncated = 1;
	*truncated_out = truncated;
	return 0;
}

/* resolve_stack, or what it gave for the same callchain in the same
 * address space before. The memo is for the fold's callchains only: the
 * public frames carry addresses it does not keep, and JIT code is named by
 * time. A user stack to unwind is unwound first: its addresses join the
 * key. */
static int resolved_stack(struct perfan_stream *r,
			  const struct perfan_record *rec,
			  struct perfan__thread *t, int *truncated)
{
	const struct perfan_sample *s = &rec->u.sample;
	int memo = r->fold_only && (s->type & PERFAN_SAMPLE_CALLCHAIN) &&
		   s->callchain_nr &&
		   !((s->type & PERFAN_SAMPLE_REGS_USER) &&
		     (s->type & PERFAN_SAMPLE_STACK_USER));
	const struct perfan__proc *pr = t->proc;
	struct perfan__memo_key key = {
		.ev = rec->event,
		.gen = r->memo_gen,
		.maps_gen = pr->maps ? pr->maps->gen : 0,
		.old_gen = pr->old_maps ? pr->old_maps->gen : 0,
		.chain = s->callchain,
		.n = (size_t)s->callchain_nr,
	};
	r->unwound = 0;
	if (r->fold_only && unwinds(s)) {
		size_t nr = (s->type & PERFAN_SAMPLE_CALLCHAIN)
				    ? (size_t)s->callchain_nr
				    : 0;
		int err = unwind(r, t, rec, nr + 2);
		if (err)
			return err;
		r->ips[0] = nr;
		if (nr)
			memcpy(r->ips + 1, s->callchain, nr * sizeof(*r->ips));
		r->ips[nr + 1] = (uint64_t)r->unw_trunc;
		r->unwound = 1;
		key.chain = r->ips;
		key.n = nr + 2 + r->unw_n;
		memo = 1;
	}
	struct perfan__memo_hit hit;
	r->memo_serial = 0;
	r->memo_keep = NULL;
	r->memo_ids = NULL;
	if (memo && perfan__memo_find(&r->memo, &key, &hit)) {
		r->nstack = hit.nids; /* the ids stay in the memo */
		r->memo_ids = hit.ids;
		r->memo_serial = key.serial;
		r->memo_keep = key.keep;
		r->st.frames += hit.frames;
		r->st.frames_unresolved += hit.unresolved;
		*truncated = hit.truncated;
		return 0;
	}
	uint64_t frames = r->st.frames, unresolved = r->st.frames_unresolved;
	r->memo_ok = 1;
	int err = resolve_stack(r, rec, t, truncated);
	if (err || !memo || !r->memo_ok || !r->nstack)
		return err;
	hit = (struct perfan__memo_hit){
		r->stack, r->nstack, (uint32_t)(r->st.frames - frames),
		(uint32_t)(r->st.frames_unresolved - unresolved), *truncated};
	err = perfan__memo_put(&r->memo, &key, &hit);
	r->memo_serial = key.serial;
	r->memo_keep = key.keep;
	return err;
}

/* PERIOD for the executable of T's process: the first to weigh the most
 * is the main binary (its ties go to the first). */
static int count_exe(struct perfan_stream *r, const struct perfan__thread *t,
		     uint64_t period)
{
	const struct perfan__dso *exe = t->proc ? t->proc->exe : NULL;
	if (!exe)
		return 0;
	uint64_t key = (uint64_t)(uintptr_t)exe;
	uint64_t *w = exe == r->last_exe
			      ? r->last_exe_w
			      : perfan__htab_get(&r->exe_weight, key);
	uint64_t sum = (w ? *w : 0) + period;
	if (w)
		*w = sum;
	else if (perfan__htab_put(&r->exe_weight, key, sum) ||
		 !(w = perfan__htab_get(&r->exe_weight, key)))
		return PERFAN_ENOMEM;
	r->last_exe = exe;
	r->last_exe_w = w;
	if (sum > r->main_weight) {
		r->main_weight = sum;
		r->main_exe = exe;
	}
	return 0;
}

const char *perfan_stream_main_module(const perfan_stream *s)
{
	return s && s->main_exe ? s->main_exe->short_name : NULL;
}

static int on_sample(struct perfan_stream *r, const struct perfan_record *rec)
{
	const struct perfan_sample *s = &rec->u.sample;
	const struct perfan_event *ev = rec->event;
	r->st.samples++;
	if (!ev) { /* an id no attr claims: its fields cannot be read */
		r->st.samples_filtered++;
		return 0;
	}
	struct perfan__thread *t = NULL;
	int f = filtered(r, rec, &t);
	if (f < 0)
		return PERFAN_ENOMEM;
	if (f) {
		r->st.samples_filtered++;
		return 0;
	}

	int truncated = 0;
	int err = resolved_stack(r, rec, t, &truncated);
	if (err)
		return err;
	if (truncated)
		r->st.stacks_truncated++;

	/* The frames as the public struct, leaf first. */
	if (r->fold_only) {
		/* perfan__stream_frame_ids */
	} else if (perfan__grow((void **)&r->out, &r->capout, r->nstack,
				sizeof(*r->out))) {
		return PERFAN_ENOMEM;
	}
	for (size_t i = 0; !r->fold_only && i < r->nstack; i++) {
		const struct perfan_frame *f =
			perfan_profile_frame_get(r->p, r->stack[i]);
		struct perfan_stream_frame *o = &r->out[i];
		o->name = f->name;
		o->module = f->module;
		o->file = f->file;
		o->line = f->line;
		o->kind = f->kind;
		o->id = r->stack[i];
		o->inlined = f->kind == PERFAN_FRAME_INLINED;
		o->addr = r->stack_addr[i];
		o->map_addr = r->stack_off[i];
		struct perfan__dso *d = r->stack_dso[i];
		o->dso = (const perfan_dso *)d;
		o->dso_addr = !d ? 0
			      : d->has_symtab
				      ? perfan__symtab_off2addr(&d->symtab,
								o->map_addr)
				      : o->map_addr;
	}

	uint64_t period = 1;
	if (s->type & PERFAN_SAMPLE_PERIOD)
		period = s->period;
	else if (!(ev->attr.flags & PERFAN_ATTR_FREQ))
		period = ev->attr.sample_period_or_freq;
	struct perfan_stream_event *e = &r->ev;
	e->type = PERFAN_STREAM_SAMPLE;
	e->time = (s->type & PERFAN_SAMPLE_TIME) ? s->time : 0;
	e->pid = t->pid;
	e->tid = t->tid;
	e->cpu = (s->type & PERFAN_SAMPLE_CPU) ? (int32_t)s->cpu : -1;
	e->comm = t->comm;
	e->u.sample.period = period;
	e->u.sample.nr_frames = r->nstack;
	e->u.sample.frames = r->out;
	e->u.sample.truncated = truncated;
	e->u.sample.raw_size = (s->type & PERFAN_SAMPLE_RAW) ? s->raw_size : 0;
	e->u.sample.raw = (s->type & PERFAN_SAMPLE_RAW) ? s->raw : NULL;
	r->thread = t;
	err = count_exe(r, t, period);
	return err ? err : 1;
}

/* The thread of a non-sample record, from its sample_id trailer. */
static void other_event(struct perfan_stream *r,
			const struct perfan_record *rec, uint32_t type)
{
	struct perfan_stream_event *e = &r->ev;
	const struct perfan_sample_id *id = &rec->sid;
	e->type = type;
	e->time = (id->present & PERFAN_SAMPLE_TIME) ? id->time : 0;
	e->pid = (id->present & PERFAN_SAMPLE_TID) ? (int32_t)id->pid : -1;
	e->tid = (id->present & PERFAN_SAMPLE_TID) ? (int32_t)id->tid : -1;
	e->cpu = (id->present & PERFAN_SAMPLE_CPU) ? (int32_t)id->cpu : -1;
	e->comm = NULL;
}

static void set_comm_of(struct perfan_stream *r, int32_t pid, int32_t tid)
{
	struct perfan__thread *t =
		perfan__thread_findnew(&r->ctx.threads, pid, tid);
	r->ev.comm = t ? t->comm : NULL;
}

/* Whether REC may change what a kernel address resolves to (the memo's
 * generation). A process's own maps carry their own (perfan__maps gen):
 * its MMAPs, exec, fork and exit leave the kernel as it was, and so do
 * samples, switches, losses, throttling and rounds. */
static int may_change_kernel(const struct perfan_record *rec)
{
	switch (rec->type) {
	case PERFAN_REC_MMAP:
	case PERFAN_REC_MMAP2:
		return cpumode_kernel(rec->misc & PERFAN_MISC_CPUMODE_MASK);
	case PERFAN_REC_SAMPLE:
	case PERFAN_REC_SWITCH:
	case PERFAN_REC_SWITCH_CPU_WIDE:
	case PERFAN_REC_LOST:
	case PERFAN_REC_LOST_SAMPLES:
	case PERFAN_REC_FINISHED_ROUND:
	case PERFAN_REC_THROTTLE:
	case PERFAN_REC_UNTHROTTLE:
	case PERFAN_REC_COMM:
	case PERFAN_REC_FORK:
	case PERFAN_REC_EXIT: return 0;
	default: return 1;
	}
}

static int on_record(struct perfan_stream *r, const struct perfan_record *rec)
{
	struct perfan__symctx *ctx = &r->ctx;
	if (may_change_kernel(rec))
		r->memo_gen++;
	switch (rec->type) {
	case PERFAN_REC_SAMPLE: return on_sample(r, rec);
	case PERFAN_REC_MMAP:
	case PERFAN_REC_MMAP2: return on_mmap(r, rec);
	case PERFAN_REC_COMM: {
		const struct perfan_rec_comm *c = &rec->u.comm;
		int exec = (rec->misc & PERFAN_MISC_COMM_EXEC) != 0;
		int err = perfan__threads_comm(&ctx->threads, (int32_t)c->pid,
					       (int32_t)c->tid,
					       c->comm ? c->comm : "", exec);
		if (err)
			return err;
		other_event(r, rec, PERFAN_STREAM_COMM);
		r->ev.pid = (int32_t)c->pid;
		r->ev.tid = (int32_t)c->tid;
		set_comm_of(r, r->ev.pid, r->ev.tid);
		r->ev.u.comm.comm = c->comm ? c->comm : "";
		r->ev.u.comm.exec = exec;
		return 1;
	}
	case PERFAN_REC_FORK:
	case PERFAN_REC_EXIT: {
		const struct perfan_rec_fork_exit *fe = &rec->u.fork_exit;
		int fork = rec->type == PERFAN_REC_FORK;
		other_event(r, rec,
			    fork ? PERFAN_STREAM_FORK : PERFAN_STREAM_EXIT);
		if (!(rec->sid.present & PERFAN_SAMPLE_TIME))
			r->ev.time = fe->time;
		r->ev.pid = (int32_t)fe->pid;
		r->ev.tid = (int32_t)fe->tid;
		r->ev.u.task.ppid = (int32_t)fe->ppid;
		r->ev.u.task.ptid = (int32_t)fe->ptid;
		if (fork) {
			int err = perfan__threads_fork(&ctx->threads,
						       (int32_t)fe->pid,
						       (int32_t)fe->ppid,
						       (int32_t)fe->tid,
						       (int32_t)fe->ptid);
			if (err)
				return err;
			set_comm_of(r, r->ev.pid, r->ev.tid);
		} else {
			/* the name it had: EXIT forgets the thread */
			set_comm_of(r, r->ev.pid, r->ev.tid);
			if (r->ev.comm) {
				r->exit_comm = strdup(r->ev.comm);
				r->ev.comm = r->exit_comm;
			}
			perfan__threads_exit(&ctx->threads, (int32_t)fe->pid,
					     (int32_t)fe->tid);
		}
		return 1;
	}
	case PERFAN_REC_SWITCH:
	case PERFAN_REC_SWITCH_CPU_WIDE: {
		int wide = rec->type == PERFAN_REC_SWITCH_CPU_WIDE;
		other_event(r, rec,
			    wide ? PERFAN_STREAM_SWITCH_CPU_WIDE
				 : PERFAN_STREAM_SWITCH);
		if (r->ev.tid >= 0)
			set_comm_of(r, r->ev.pid, r->ev.tid);
		struct perfan_stream_switch *sw = &r->ev.u.sw;
		sw->out = (rec->misc & PERFAN_MISC_SWITCH_OUT) != 0;
		sw->preempt = (rec->misc & PERFAN_MISC_SWITCH_OUT_PREEMPT) != 0;
		sw->next_prev_pid = wide ? (int32_t)rec->u.sw.next_prev_pid
					 : -1;
		sw->next_prev_tid = wide ? (int32_t)rec->u.sw.next_prev_tid
					 : -1;
		return 1;
	}
	case PERFAN_REC_LOST:
	case PERFAN_REC_LOST_SAMPLES:
		other_event(r, rec, PERFAN_STREAM_LOST);
		if (rec->type == PERFAN_REC_LOST) {
			r->ev.u.lost.id = rec->u.lost.id;
			r->ev.u.lost.lost = rec->u.lost.lost;
		} else {
			r->ev.u.lost.id = 0;
			r->ev.u.lost.lost = rec->u.lost_samples.lost;
		}
		return 1;
	case PERFAN_REC_KSYMBOL: {
		const struct perfan_rec_ksymbol *k = &rec->u.ksymbol;
		/* Kernel code changed: what was cached may be stale. */
		perfan__htab_free(&r->kcache);
		if (k->flags & 1) { /* PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER */
			perfan__ksymbols_del(&ctx->ksymbols, k->addr);
			return 0;
		}
		return perfan__ksymbols_add(&ctx->ksymbols, k->addr, k->len,
					    k->name ? k->name : "[ksymbol]");
	}
	case PERFAN_REC_HEADER_BUILD_ID: {
		const struct perfan_rec_build_id *b = &rec->u.build_id;
		int kernel =
			cpumode_kernel(rec->misc & PERFAN_MISC_CPUMODE_MASK);
		if (!kernel && b->filename && b->size)
			perfan__dso_check_late_buildid(
				ctx, b->filename, b->build_id,
				b->size > 20 ? 20 : b->size);
		return add_buildid(ctx, b->filename, b->build_id, b->size,
				   kernel);
	}
	default: return 0;
	}
}

/* ---- setup and the loop ------------------------------------------------ */

static int setup(struct perfan_stream *r, perfan_perfdata *pd,
		 const struct perfan_resolve_opts *opts)
{
	struct perfan__symctx *ctx = &r->ctx;
	r->pd = pd;
	ctx->pd = pd;
	ctx->stats = &r->st;
	/* Defaults, then whatever part of OPTS the caller's version has. */
	ctx->o.sz = sizeof(ctx->o);
	ctx->o.filter = PERFAN_FILTER_INIT;
	if (opts) {
		size_t sz = opts->sz < sizeof(ctx->o) ? opts->sz
						      : sizeof(ctx->o);
		memcpy(&ctx->o, opts, sz);
		ctx->o.sz = sizeof(ctx->o);
		if (!ctx->o.filter.sz)
			ctx->o.filter.sz = sizeof(ctx->o.filter);
	}
	/* --event's prefix becomes the event's name, once, here: every
	 * sample of the file passes this door */
	struct perfan_filter want = ctx->o.filter;
	int err = perfan_filter_resolve(&ctx->o.filter, &want, pd);
	if (err)
		return err;
	const char *symfs = ctx->o.symfs ? ctx->o.symfs : "";
	size_t sl = strlen(symfs);
	while (sl > 1 && symfs[sl - 1] == '/')
		sl--;
	ctx->symfs = perfan__arena_strndup(&ctx->arena, symfs, sl);
	perfan__host_init(&ctx->host, ctx->o.host);
	ctx->o.host = NULL; /* not to be read past this call */
	if (ctx->o.buildid_dir) {
		/* "": no cache */
		ctx->buildid_dir = *ctx->o.buildid_dir ? ctx->o.buildid_dir
						       : NULL;
	} else if (ctx->host.home) {
		size_t n = strlen(ctx->host.home) + 8;
		char *b = perfan__arena_alloc(&ctx->arena, n);
		if (b)
			snprintf(b, n, "%s/.debug", ctx->host.home);
		ctx->buildid_dir = b;
	}
	ctx->debug_dir = ctx->o.debug_dir;
	ctx->kmaps = perfan__maps_new();
	if (!ctx->symfs || !ctx->kmaps)
		return PERFAN_ENOMEM;

	const struct perfan_features *f = perfan_perfdata_features(pd);
	if (f)
		ctx->foreign = (perfan_features_has(f, PERFAN_FEAT_HOSTNAME) &&
				f->hostname &&
				strcmp(f->hostname, ctx->host.hostname)) ||
			       (perfan_features_has(f, PERFAN_FEAT_OSRELEASE) &&
				f->osrelease &&
				strcmp(f->osrelease, ctx->host.osrelease));
	if (f && perfan_features_has(f, PERFAN_FEAT_BUILD_ID)) {
		for (size_t i = 0; i < f->nr_build_ids; i++) {
			const struct perfan_build_id_entry *b =
				&f->build_ids[i];
			int err = add_buildid(
				ctx, b->filename, b->build_id, b->size,
				cpumode_kernel(b->misc &
					       PERFAN_MISC_CPUMODE_MASK));
			if (err)
				return err;
		}
	}
	return 0;
}

void perfan_stream_free(perfan_stream *r)
{
	if (!r)
		return;
	struct perfan__symctx *ctx = &r->ctx;
	perfan__ahead_free(r->ahead); /* first: it reads what follows */
	perfan__memo_free(&r->memo);
	perfan__unwind_free(ctx);
	perfan__jit_free(ctx);
	perfan__threads_free(&ctx->threads);
	perfan__maps_put(ctx->kmaps);
	perfan__dsos_free(ctx);
	perfan__kallsyms_free(&ctx->kallsyms);
	perfan__ksymbols_free(&ctx->ksymbols);
	perfan__htab_free(&ctx->bid_by_path);
	free(ctx->bids);
	perfan__arena_free(&ctx->arena);
	perfan__htab_free(&r->kcache);
	perfan__htab_free(&r->exe_weight);
	if (!r->fold_only)
		perfan_profile_free(r->p);
	free(r->fids);
	free(r->stack);
	free(r->stack_addr);
	free(r->stack_off);
	free(r->stack_dso);
	free(r->out);
	free(r->ips);
	free(r->tev);
	free(r->tev_tried);
	free(r->exit_comm);
	free(r);
}

int perfan_stream_open(perfan_stream **out, perfan_perfdata *pd,
		       const struct perfan_resolve_opts *opts)
{
	return perfan__stream_open_into(out, pd, opts, NULL);
}

int perfan__stream_open_into(perfan_stream **out, perfan_perfdata *pd,
			     const struct perfan_resolve_opts *opts,
			     perfan_profile *into)
{
	if (!out || !pd)
		return perfan__err_null("perfan_stream_open",
					out ? "perfdata" : "out");
	*out = NULL;
	struct perfan_stream *r = calloc(1, sizeof(*r));
	if (!r)
		return perfan__nomem(NULL);
	int err = perfan_perfdata_read_header(pd);
	r->p = into;
	r->fold_only = into != NULL;
	if (!err && !into)
		err = perfan_profile_new(&r->p, NULL);
	if (!err)
		err = setup(r, pd, opts);
	if (err == PERFAN_ENOMEM)
		perfan__err(err, "%s: out of memory", perfan_perfdata_name(pd));
	/* otherwise the reader's message stands */
	if (err) {
		perfan_stream_free(r);
		return err;
	}
	*out = r;
	return 0;
}

int perfan_stream_next(perfan_stream *r, const struct perfan_stream_event **ev)
{
	if (!r || !ev)
		return perfan__err_null(__func__, "argument");
	if (r->err)
		return r->err;
	free(r->exit_comm);
	r->exit_comm = NULL;
	perfan_perfdata *pd = r->pd;
	const struct perfan_resolve_opts *o = &r->ctx.o;
	for (;;) {
		if (o->progress && !(++r->nrec & 4095))
			o->progress(perfan_perfdata_offset(pd),
				    o->progress_payload);
		const struct perfan_record *rec = NULL;
		int err = perfan__ahead_step(&r->ahead, &r->ctx, pd);
		if (!err)
			err = perfan_perfdata_next(pd, &rec);
		if (err) {
			/* ITEROVER, or the reader named the file and offset */
			perfan__ahead_drain(r->ahead);
			return r->err = err;
		}
		/* on_record sets every field an event of its type has */
		err = on_record(r, rec);
		if (err == 1) {
			r->ev.event = rec->event;
			r->ev.record = rec;
			*ev = &r->ev;
			return 0;
		}
		if (err == PERFAN_ENOMEM)
			perfan__err(err,
				    "%s: out of memory resolving the record at "
				    "offset %llu",
				    perfan_perfdata_name(pd),
				    (unsigned long long)rec->offset);
		else if (err)
			perfan__err_append(" (record at offset %llu of %s)",
					   (unsigned long long)rec->offset,
					   perfan_perfdata_name(pd));
		if (err) {
			perfan__ahead_drain(r->ahead);
			return r->err = err;
		}
	}
}

const struct perfan_resolve_stats *perfan_stream_stats(const perfan_stream *s)
{
	return &s->st;
}

struct perfan__symctx *perfan__stream_ctx(perfan_stream *s)
{
	return &s->ctx;
}

struct perfan__thread *perfan__stream_thread(perfan_stream *s)
{
	return s->thread;
}

const perfan_frame_id *perfan__stream_frame_ids(perfan_stream *s)
{
	return s->memo_ids ? s->memo_ids : s->stack;
}

uint64_t perfan__stream_memo_serial(perfan_stream *s)
{
	return s->memo_serial;
}

_Static_assert(PERFAN__STREAM_KEEP == PERFAN__MEMO_KEEP,
	       "the stream's caller keeps the memo's words");

uint64_t *perfan__stream_memo_keep(perfan_stream *s)
{
	return s->memo_keep;
}

/* ---- tracepoint fields ------------------------------------------------- */

/* The format of EV's tracepoint event, looked up once per event. */
static struct tep_event *tp_format(struct perfan_stream *r,
				   const struct perfan_event *ev)
{
	if (!ev || ev->attr.type != 2 /* PERF_TYPE_TRACEPOINT */)
		return NULL;
	size_t i = ev->index;
	if (i >= r->ntev) {
		size_t n = i + 8;
		struct tep_event **t = realloc(r->tev, n * sizeof(*t));
		if (!t)
			return NULL;
		r->tev = t;
		uint8_t *tried = realloc(r->tev_tried, n);
		if (!tried)
			return NULL;
		r->tev_tried = tried;
		memset(r->tev + r->ntev, 0, (n - r->ntev) * sizeof(*t));
		memset(r->tev_tried + r->ntev, 0, n - r->ntev);
		r->ntev = n;
	}
	unsigned gen = perfan__perfdata_tep_gen(r->pd);
	if (gen != r->tev_gen) { /* formats parsed again: look up anew */
		memset(r->tev_tried, 0, r->ntev);
		r->tev_gen = gen;
	}
	if (!r->tev_tried[i]) {
		struct tep_handle *tep = perfan__perfdata_tep(r->pd);
		r->tev[i] = tep ? tep_find_event(tep, (int)ev->attr.config)
				: NULL;
		r->tev_tried[i] = 1;
	}
	return r->tev[i];
}

static int tp_field(struct perfan_stream *r,
		    const struct perfan_stream_event *ev, const char *name,
		    struct tep_format_field **out)
{
	if (!r || !ev || !name || ev->type != PERFAN_STREAM_SAMPLE)
		return perfan__err(PERFAN_ENOTFOUND, "field %s: not a sample",
				   name ? name : "");
	struct tep_event *te = tp_format(r, ev->event);
	if (!te)
		return perfan__err(PERFAN_ENOTFOUND,
				   "field %s: %s is not a tracepoint with a "
				   "known format",
				   name,
				   ev->event && ev->event->name
					   ? ev->event->name
					   : "the event");
	struct tep_format_field *f = tep_find_field(te, name);
	if (!f)
		f = tep_find_common_field(te, name);
	if (!f)
		return perfan__err(PERFAN_ENOTFOUND, "%s has no field %s",
				   ev->event->name, name);
	if (!ev->u.sample.raw ||
	    (uint64_t)f->offset + f->size > ev->u.sample.raw_size)
		return perfan__err(PERFAN_ETRUNCATED,
				   "%s: field %s lies past the sample's %u "
				   "bytes of raw data",
				   ev->event->name, name,
				   (unsigned)ev->u.sample.raw_size);
	*out = f;
	return 0;
}

int perfan_stream_field_u64(perfan_stream *r,
			    const struct perfan_stream_event *ev,
			    const char *name, uint64_t *out)
{
	struct tep_format_field *f;
	int err = tp_field(r, ev, name, &f);
	if (err)
		return err;
	if ((f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING |
			 TEP_FIELD_IS_DYNAMIC)) ||
	    (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
		return perfan__err(PERFAN_EINVAL,
				   "%s: field %s is not an integer",
				   ev->event->name, name);
	unsigned long long v;
	if (tep_read_number_field(f, ev->u.sample.raw, &v))
		return perfan__err(PERFAN_EINVAL, "%s: field %s cannot be read",
				   ev->event->name, name);
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		unsigned bits = (unsigned)f->size * 8;
		uint64_t sign = 1ull << (bits - 1);
		v &= (1ull << bits) - 1;
		v = (v ^ sign) - sign;
	}
	*out = v;
	return 0;
}

int perfan_stream_field_str(perfan_stream *r,
			    const struct perfan_stream_event *ev,
			    const char *name, const char **out, size_t *len)
{
	struct tep_format_field *f;
	int err = tp_field(r, ev, name, &f);
	if (err)
		return err;
	const uint8_t *raw = ev->u.sample.raw;
	uint64_t off = (uint64_t)f->offset, size = (uint64_t)f->size;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		/* __data_loc: a u32 of offset (low 16 bits) and length */
		if (f->size != 4)
			return perfan__err(PERFAN_EINVAL,
					   "%s: field %s: unknown dynamic "
					   "layout",
					   ev->event->name, name);
		uint32_t loc;
		memcpy(&loc, raw + f->offset, 4);
		off = loc & 0xffff;
		size = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (uint64_t)f->offset + 4;
		if (off + size > ev->u.sample.raw_size)
			return perfan__err(PERFAN_ETRUNCATED,
					   "%s: field %s lies past the "
					   "sample's raw data",
					   ev->event->name, name);
	} else if (!(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING))) {
		return perfan__err(PERFAN_EINVAL,
				   "%s: field %s is not a string",
				   ev->event->name, name);
	}
	*out = (const char *)raw + off;
	*len = strnlen(*out, (size_t)size);
	return 0;
}
