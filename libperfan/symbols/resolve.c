/* symbols/resolve.c: perfan_resolve_perfdata: reads the records in time
 * order, keeps the address spaces current, and turns each sample into a
 * root-first stack of interned frames added to the profile. Each (DSO,
 * address) and kernel address is symbolized once. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "symbols/jit.h"
#include "symbols/symbols.h"
#include "symbols/unwind.h"
#include "util/error.h"

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

struct resolver {
	struct perfan__symctx ctx;
	perfan_profile *p;
	struct perfan_resolve_stats st;

	uint32_t *fids; /* cached frame ids, runs referenced by caches */
	size_t nfids, capfids;
	struct perfan__htab kcache; /* kernel ip -> cache_val */

	perfan_frame_id *stack; /* the sample's frames, leaf first */
	size_t nstack, capstack;
	uint64_t *ips;
	size_t capips;
	/* The frame added last: user space, an address nothing maps. */
	int last_user, last_nomap;
	uint64_t time; /* of the sample (UINT64_MAX: none), for JIT code */

	int *cols; /* per event index: column + 1 (0: not yet added) */
	size_t ncols;

	perfan_frame_id unknown_frame;
	int have_unknown_frame;
	char buf[512];
};

/* ---- context helpers shared with the other files --------------------- */

void perfan__symlog(struct perfan__symctx *ctx, enum perfan_log_level level,
		    const char *fmt, ...)
{
	if (!ctx->o.log)
		return;
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ctx->o.log(level, msg, ctx->o.log_payload);
}

const char *perfan__buildid_hex(const uint8_t *id, size_t size, char *buf)
{
	static const char hex[] = "0123456789abcdef";
	if (size > 20)
		size = 20;
	for (size_t i = 0; i < size; i++) {
		buf[2 * i] = hex[id[i] >> 4];
		buf[2 * i + 1] = hex[id[i] & 15];
	}
	buf[2 * size] = '\0';
	return buf;
}

const struct perfan__buildid *
perfan__recorded_buildid(struct perfan__symctx *ctx, const char *path,
			 int kernel)
{
	uint64_t h = perfan__hash_bytes(path, strlen(path), 0);
	uint64_t *v = perfan__htab_get(&ctx->bid_by_path, h);
	if (!v)
		return NULL;
	const struct perfan__buildid *b = &ctx->bids[*v];
	if (!strcmp(b->path, path) && b->kernel == kernel)
		return b;
	/* A hash collision or the same name in the other space: look at
	 * them all (rare). */
	for (size_t i = 0; i < ctx->nbids; i++)
		if (ctx->bids[i].kernel == kernel &&
		    !strcmp(ctx->bids[i].path, path))
			return &ctx->bids[i];
	return NULL;
}

static int add_buildid(struct perfan__symctx *ctx, const char *path,
		       const uint8_t *id, size_t size, int kernel)
{
	if (!path || !*path || !size)
		return 0;
	if (size > 20)
		size = 20;
	if (perfan__recorded_buildid(ctx, path, kernel))
		return 0; /* the first one recorded stays */
	if (ctx->nbids == ctx->capbids) {
		size_t cap = ctx->capbids ? ctx->capbids * 2 : 32;
		struct perfan__buildid *nb =
			realloc(ctx->bids, cap * sizeof(*nb));
		if (!nb)
			return PERFAN_ENOMEM;
		ctx->bids = nb;
		ctx->capbids = cap;
	}
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

static int push(struct resolver *r, perfan_frame_id id)
{
	if (r->nstack == r->capstack) {
		size_t cap = r->capstack ? r->capstack * 2 : 256;
		perfan_frame_id *s = realloc(r->stack, cap * sizeof(*s));
		if (!s)
			return PERFAN_ENOMEM;
		r->stack = s;
		r->capstack = cap;
	}
	r->stack[r->nstack++] = id;
	return 0;
}

static int push_cached(struct resolver *r, uint64_t v)
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
static int store(struct resolver *r, const perfan_frame_id *ids, size_t n,
		 unsigned flags, uint64_t *val)
{
	if (r->nfids + n > r->capfids) {
		size_t cap = r->capfids ? r->capfids * 2 : 1024;
		while (cap < r->nfids + n)
			cap *= 2;
		uint32_t *f = realloc(r->fids, cap * sizeof(*f));
		if (!f)
			return PERFAN_ENOMEM;
		r->fids = f;
		r->capfids = cap;
	}
	memcpy(r->fids + r->nfids, ids, n * sizeof(*ids));
	*val = cache_val(r->nfids, n, flags);
	r->nfids += n;
	return 0;
}

static int intern(struct resolver *r, perfan_frame_id *out, const char *name,
		  const char *module, const char *file, uint32_t line,
		  uint32_t kind)
{
	return perfan_profile_frame(r->p, out, name, module, file, line, kind);
}

/* A symbol name as shown: demangled unless asked not to. */
static int intern_sym(struct resolver *r, perfan_frame_id *out, const char *raw,
		      const char *module, const char *file, uint32_t line,
		      uint32_t kind)
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
static int intern_unresolved(struct resolver *r, perfan_frame_id *out,
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

static int add_nomap(struct resolver *r, uint64_t ip)
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
static int symbolize_dso(struct resolver *r, struct perfan__dso *d,
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
static int add_jit(struct resolver *r, struct perfan__thread *t,
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

static int add_user(struct resolver *r, struct perfan__thread *t, uint64_t ip)
{
	const struct perfan__map *m = perfan__maps_find(t->proc->maps, ip);
	if (!m)
		m = perfan__maps_find(t->proc->old_maps, ip);
	if (!m)
		return add_nomap(r, ip);
	struct perfan__dso *d = m->dso;
	uint64_t off = perfan__map_ip(m, ip);
	if (d->kind == PERFAN__DSO_ANON) {
		int rc = add_jit(r, t, d, ip);
		if (rc)
			return rc < 0 ? rc : 0;
	}
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
static const char *kernel_module_of(struct resolver *r, uint64_t ip)
{
	const struct perfan__map *m = perfan__maps_find(r->ctx.kmaps, ip);
	if (m)
		return m->dso->short_name;
	return "[kernel.kallsyms]";
}

static int add_kernel(struct resolver *r, uint64_t ip)
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
		const struct perfan__ksym *k =
			ctx->kallsyms_state == 1
				? perfan__kallsyms_find(&ctx->kallsyms, ip)
				: NULL;
		if (k) {
			err = intern(r, &id, k->name,
				     k->module ? k->module
					       : "[kernel.kallsyms]",
				     NULL, 0, PERFAN_FRAME_KERNEL);
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

static int add_ip(struct resolver *r, struct perfan__thread *t, uint64_t ip,
		  enum mode mode)
{
	r->last_user = mode == M_USER;
	r->last_nomap = 0;
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

/* The process frame at the root of T's stacks. */
static int root_frame(struct resolver *r, struct perfan__thread *t,
		      perfan_frame_id *out)
{
	if (t->root_valid) {
		*out = t->root_frame;
		return 0;
	}
	char comm[64];
	if (t->comm)
		snprintf(comm, sizeof(comm), "%s", t->comm);
	else
		snprintf(comm, sizeof(comm), ":%d", t->tid);
	for (char *c = comm; *c; c++)
		if (*c == ' ')
			*c = '_'; /* as stackcollapse-perf.pl */
	switch (r->ctx.o.root) {
	case PERFAN_ROOT_PID:
		snprintf(r->buf, sizeof(r->buf), "%s-%d", comm, t->pid);
		break;
	case PERFAN_ROOT_PID_TID:
		snprintf(r->buf, sizeof(r->buf), "%s-%d/%d", comm, t->pid,
			 t->tid);
		break;
	default: snprintf(r->buf, sizeof(r->buf), "%s", comm); break;
	}
	int err = intern(r, out, r->buf, NULL, NULL, 0, PERFAN_FRAME_PROCESS);
	if (!err) {
		t->root_frame = *out;
		t->root_valid = 1;
	}
	return err;
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

static int on_kernel_mmap(struct resolver *r, const struct perfan_record *rec)
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

static int on_mmap(struct resolver *r, const struct perfan_record *rec)
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
	struct perfan__map map = {m->start, end, m->pgoff, d, prot, m->flags};
	return perfan__maps_insert(&t->proc->maps, &map);
}

static int column(struct resolver *r, const struct perfan_event *ev)
{
	size_t i = ev->index;
	if (i >= r->ncols) {
		size_t n = i + 8;
		int *c = realloc(r->cols, n * sizeof(*c));
		if (!c)
			return PERFAN_ENOMEM;
		memset(c + r->ncols, 0, (n - r->ncols) * sizeof(*c));
		r->cols = c;
		r->ncols = n;
	}
	if (!r->cols[i]) {
		const char *unit = r->ctx.o.weight == PERFAN_WEIGHT_PERIOD
					   ? "period"
					   : "samples";
		int c = perfan_profile_add_column(
			r->p, ev->name ? ev->name : "unknown", unit);
		if (c < 0)
			return c;
		r->cols[i] = c + 1;
	}
	return r->cols[i] - 1;
}

static int filtered(struct resolver *r, const struct perfan_record *rec,
		    struct perfan__thread **tp)
{
	const struct perfan_resolve_opts *o = &r->ctx.o;
	const struct perfan_sample *s = &rec->u.sample;
	const struct perfan_event *ev = rec->event;
	int have_tid = (s->type & PERFAN_SAMPLE_TID) != 0;
	int32_t pid = have_tid ? (int32_t)s->pid : -1;
	int32_t tid = have_tid ? (int32_t)s->tid : -1;
	if (o->pid >= 0 && (!have_tid || pid != o->pid))
		return 1;
	if (o->tid >= 0 && (!have_tid || tid != o->tid))
		return 1;
	if (o->cpu >= 0 &&
	    (!(s->type & PERFAN_SAMPLE_CPU) || (int64_t)s->cpu != o->cpu))
		return 1;
	if ((o->time_start || o->time_end) && (s->type & PERFAN_SAMPLE_TIME)) {
		if (s->time < o->time_start)
			return 1;
		if (o->time_end && s->time > o->time_end)
			return 1;
	}
	if (o->event && (!ev->name || strcmp(ev->name, o->event)))
		return 1;
	struct perfan__thread *t =
		perfan__thread_findnew(&r->ctx.threads, pid, tid);
	if (!t)
		return -1;
	if (o->comm) {
		char def[16];
		const char *c = t->comm;
		if (!c) {
			snprintf(def, sizeof(def), ":%d", tid);
			c = def;
		}
		if (strcmp(c, o->comm))
			return 1;
	}
	*tp = t;
	return 0;
}

static int on_sample(struct resolver *r, const struct perfan_record *rec)
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
				if (ip == PERFAN_CONTEXT_USER) {
					mode = M_USER;
				} else if (ip == PERFAN_CONTEXT_KERNEL) {
					mode = M_KERNEL;
				} else if (ip == PERFAN_CONTEXT_HV ||
					   ip == PERFAN_CONTEXT_GUEST ||
					   ip == PERFAN_CONTEXT_GUEST_KERNEL ||
					   ip == PERFAN_CONTEXT_GUEST_USER) {
					mode = M_OTHER;
				} else {
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
		size_t max = 512;
		if (r->capips < max) {
			uint64_t *ips = realloc(r->ips, max * sizeof(*ips));
			if (!ips)
				return PERFAN_ENOMEM;
			r->ips = ips;
			r->capips = max;
		}
		int unw_trunc = 0;
		size_t n = perfan__unwind_user(&r->ctx, t, ev, s, r->ips, max,
					       &unw_trunc);
		for (size_t i = 0; i < n && !err; i++)
			err = add_ip(r, t, r->ips[i], M_USER);
		if (unw_trunc)
			truncated = 1;
	}
	if (!err && !r->nstack && (s->type & PERFAN_SAMPLE_IP))
		err = add_ip(r, t, s->ip,
			     mode_of_misc(rec->misc & PERFAN_MISC_CPUMODE_MASK,
					  s->ip));
	if (err)
		return err;
	/* A user stack that ends in an address nothing maps was cut short
	 * (a frame without frame pointer, a garbage return address). */
	if (r->nstack && r->last_user && r->last_nomap)
		truncated = 1;
	if (truncated)
		r->st.stacks_truncated++;

	int col = column(r, ev);
	if (col < 0)
		return col;
	perfan_frame_id root;
	size_t n = r->nstack;
	int with_root = r->ctx.o.root != PERFAN_ROOT_NONE;
	if (with_root && (err = root_frame(r, t, &root)))
		return err;
	/* Leaf first -> root first, in place, with room for the root. */
	if ((err = push(r, 0)))
		return err;
	for (size_t i = 0; i < n / 2; i++) {
		perfan_frame_id x = r->stack[i];
		r->stack[i] = r->stack[n - 1 - i];
		r->stack[n - 1 - i] = x;
	}
	perfan_frame_id *frames = r->stack;
	if (with_root) {
		memmove(r->stack + 1, r->stack, n * sizeof(*r->stack));
		r->stack[0] = root;
		n++;
	}

	uint64_t weight = 1;
	if (r->ctx.o.weight == PERFAN_WEIGHT_PERIOD) {
		if (s->type & PERFAN_SAMPLE_PERIOD)
			weight = s->period;
		else if (!(ev->attr.flags & PERFAN_ATTR_FREQ))
			weight = ev->attr.sample_period_or_freq;
	}
	struct perfan_sample_meta meta = {
		(s->type & PERFAN_SAMPLE_TIME) ? s->time : 0,
		t->pid,
		t->tid,
		(s->type & PERFAN_SAMPLE_CPU) ? (int32_t)s->cpu : -1,
	};
	return perfan_profile_add(r->p, frames, n, (size_t)col, weight, &meta,
				  NULL);
}

static int on_record(struct resolver *r, const struct perfan_record *rec)
{
	struct perfan__symctx *ctx = &r->ctx;
	switch (rec->type) {
	case PERFAN_REC_SAMPLE: return on_sample(r, rec);
	case PERFAN_REC_MMAP:
	case PERFAN_REC_MMAP2: return on_mmap(r, rec);
	case PERFAN_REC_COMM:
		return perfan__threads_comm(
			&ctx->threads, (int32_t)rec->u.comm.pid,
			(int32_t)rec->u.comm.tid,
			rec->u.comm.comm ? rec->u.comm.comm : "",
			(rec->misc & PERFAN_MISC_COMM_EXEC) != 0);
	case PERFAN_REC_FORK:
		return perfan__threads_fork(&ctx->threads,
					    (int32_t)rec->u.fork_exit.pid,
					    (int32_t)rec->u.fork_exit.ppid,
					    (int32_t)rec->u.fork_exit.tid,
					    (int32_t)rec->u.fork_exit.ptid);
	case PERFAN_REC_EXIT:
		perfan__threads_exit(&ctx->threads,
				     (int32_t)rec->u.fork_exit.pid,
				     (int32_t)rec->u.fork_exit.tid);
		return 0;
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

static int setup(struct resolver *r, perfan_profile *p, perfan_perfdata *pd,
		 const struct perfan_resolve_opts *opts)
{
	struct perfan__symctx *ctx = &r->ctx;
	r->p = p;
	ctx->pd = pd;
	ctx->stats = &r->st;
	/* Defaults, then whatever part of OPTS the caller's version has. */
	ctx->o.sz = sizeof(ctx->o);
	ctx->o.pid = ctx->o.tid = ctx->o.cpu = -1;
	if (opts) {
		size_t sz = opts->sz < sizeof(ctx->o) ? opts->sz
						      : sizeof(ctx->o);
		memcpy(&ctx->o, opts, sz);
		ctx->o.sz = sizeof(ctx->o);
	}
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

static void teardown(struct resolver *r)
{
	struct perfan__symctx *ctx = &r->ctx;
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
	free(r->fids);
	free(r->stack);
	free(r->ips);
	free(r->cols);
}

int perfan_resolve_perfdata(perfan_profile *p, perfan_perfdata *pd,
			    const struct perfan_resolve_opts *opts,
			    struct perfan_resolve_stats *stats)
{
	if (!p || !pd)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_resolve_perfdata: %s is NULL",
				   p ? "perfdata" : "profile");
	struct resolver *r = calloc(1, sizeof(*r));
	if (!r)
		return perfan__err(PERFAN_ENOMEM, "out of memory");
	int err = perfan_perfdata_read_header(pd);
	if (!err)
		err = setup(r, p, pd, opts);
	if (err && err != PERFAN_ENOMEM) {
		/* the reader's message stands */
	} else if (err) {
		perfan__err(err, "%s: out of memory", perfan_perfdata_name(pd));
	}
	const struct perfan_record *rec = NULL;
	uint64_t nrec = 0;
	while (!err) {
		if (opts && opts->progress && !(++nrec & 4095))
			opts->progress(perfan_perfdata_offset(pd),
				       opts->progress_payload);
		err = perfan_perfdata_next(pd, &rec);
		if (err == PERFAN_ITEROVER) {
			err = 0;
			break;
		}
		if (err)
			break; /* the reader named the file and offset */
		err = on_record(r, rec);
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
	}
	if (stats)
		*stats = r->st;
	teardown(r);
	free(r);
	return err;
}
