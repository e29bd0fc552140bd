/* resolve/dso.c: one object per mapped file (path + build-id), and finding
 * its files the way perf does: perf's build-id cache, the path under
 * --symfs, separate debug files by build-id, .gnu_debuglink and the
 * Fedora and Ubuntu layouts, and MiniDebugInfo when nothing better. A file
 * whose build-id differs from the recorded one is never used for symbols:
 * the mismatch is logged and counted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include <elfutils/libdwelf.h>
#include <gelf.h>

#include "resolve/symbols.h"

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static int is_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static uint64_t dso_hash(const char *path, const uint8_t *bid, size_t bsize,
			 int32_t pid)
{
	uint64_t h = perfan__hash_bytes(path, strlen(path), 0);
	h = perfan__hash_bytes(bid, bsize, h);
	return perfan__hash_bytes(&pid, sizeof(pid), h);
}

static int classify(const char *path)
{
	if (!strcmp(path, "[vdso]"))
		return PERFAN__DSO_VDSO;
	if (!strcmp(path, "[kernel.kallsyms]") ||
	    is_prefix(path, "[kernel.kallsyms]"))
		return PERFAN__DSO_KERNEL;
	if (is_prefix(path, "/tmp/perf-") && strstr(path, ".map"))
		return PERFAN__DSO_ANON;
	if (path[0] == '[' || is_prefix(path, "//") ||
	    is_prefix(path, "/SYSV") || is_prefix(path, "/dev/zero") ||
	    is_prefix(path, "/anon_hugepage") || is_prefix(path, "/memfd:"))
		return PERFAN__DSO_NODSO;
	return PERFAN__DSO_FILE;
}

struct perfan__dso *perfan__dso_get(struct perfan__symctx *ctx,
				    const char *path, const uint8_t *build_id,
				    size_t build_id_size, int32_t pid)
{
	int kind = classify(path);
	if (kind != PERFAN__DSO_ANON)
		pid = 0;
	static const uint8_t none[20];
	if (!build_id)
		build_id_size = 0;
	if (build_id_size > 20)
		build_id_size = 20;
	if (!build_id_size)
		build_id = none;
	if (!build_id_size && kind != PERFAN__DSO_ANON &&
	    kind != PERFAN__DSO_NODSO) {
		const struct perfan__buildid *b = perfan__recorded_buildid(
			ctx, path,
			kind == PERFAN__DSO_KERNEL ||
				kind == PERFAN__DSO_KMODULE);
		if (b) {
			build_id = b->id;
			build_id_size = b->size;
		}
	}
	uint64_t h = dso_hash(path, build_id, build_id_size, pid);
	uint64_t *v = perfan__htab_get(&ctx->dso_by_hash, h);
	for (struct perfan__dso *d = v ? (struct perfan__dso *)(uintptr_t)*v
				       : NULL;
	     d; d = d->next_hash)
		if (d->pid == pid && d->build_id_size == build_id_size &&
		    !memcmp(d->build_id, build_id, build_id_size) &&
		    !strcmp(d->path, path))
			return d;

	struct perfan__dso *d = calloc(1, sizeof(*d));
	if (!d || !(d->path = strdup(path))) {
		free(d);
		return NULL;
	}
	d->hash = h;
	d->kind = (uint8_t)kind;
	d->pid = pid;
	d->short_name = basename_of(d->path);
	if (build_id_size)
		memcpy(d->build_id, build_id, build_id_size);
	d->build_id_size = (uint8_t)build_id_size;
	d->next_hash = v ? (struct perfan__dso *)(uintptr_t)*v : NULL;
	if (perfan__htab_put(&ctx->dso_by_hash, h, (uintptr_t)d)) {
		free(d->path);
		free(d);
		return NULL;
	}
	d->next = ctx->dsos;
	ctx->dsos = d;
	return d;
}

/* ---- finding files ------------------------------------------------- */

static char *cat3(const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *r = malloc(la + lb + lc + 1);
	if (r) {
		memcpy(r, a, la);
		memcpy(r + la, b, lb);
		memcpy(r + la + lb, c, lc + 1);
	}
	return r;
}

/* "<dir>/.build-id/xx/rest<suffix>" */
static char *buildid_path(const char *dir, const uint8_t *id, size_t size,
			  const char *suffix)
{
	char hex[41];
	perfan__buildid_hex(id, size, hex);
	size_t len = strlen(dir) + strlen(suffix) + 64;
	char *p = malloc(len);
	if (p)
		snprintf(p, len, "%s/.build-id/%.2s/%s%s", dir, hex, hex + 2,
			 suffix);
	return p;
}

struct search {
	struct perfan__symctx *ctx;
	struct perfan__dso *dso;
	const uint8_t *want; /* build-id the file must have, or NULL */
	size_t want_size;
	char *mismatch_path; /* first file found with another build-id */
	uint8_t mismatch_id[20];
	uint8_t mismatch_size;
	/* the first file found that is not an ELF file, or a cut one:
	 * NEEDED the bytes its headers say it has (0: not ELF), SIZE its
	 * size */
	char *bad_path;
	uint64_t bad_needed, bad_size;
	/* the binary's places looked in (find_runtime), for "not found" */
	char tried[768];
	int runtime; /* 1 while find_runtime looks */
};

/* Note PATH, a place the binary was looked for. */
static void tried(struct search *s, const char *path)
{
	size_t n = strlen(s->tried);
	if (s->runtime && n + 8 < sizeof(s->tried))
		snprintf(s->tried + n, sizeof(s->tried) - n, "%s%s",
			 n ? ", " : "", path);
}

/* A file found but unusable: not ELF (NEEDED 0), or cut (SIZE bytes of
 * NEEDED): the first one found is the one said. */
static void bad_file(struct search *s, const char *path, uint64_t needed,
		     uint64_t size)
{
	if (s->bad_path)
		return;
	s->bad_path = strdup(path);
	s->bad_needed = needed;
	s->bad_size = size;
}

/* Open PATH if it exists and has the wanted build-id. */
static struct perfan__elf *try_file(struct search *s, const char *path,
				    int need_symbols)
{
	struct perfan__elf *e;
	if (!path)
		return NULL;
	tried(s, path);
	int rc = perfan__elf_open(&e, path);
	if (rc == PERFAN_EFORMAT)
		bad_file(s, path, 0, 0);
	if (rc)
		return NULL;
	if (e->file_size && e->needed > e->file_size) {
		bad_file(s, path, e->needed, e->file_size);
		perfan__elf_close(e);
		return NULL;
	}
	if (s->want && (e->build_id_size != s->want_size ||
			memcmp(e->build_id, s->want, s->want_size))) {
		if (!s->mismatch_path) {
			s->mismatch_path = strdup(path);
			s->mismatch_size = e->build_id_size;
			memcpy(s->mismatch_id, e->build_id, e->build_id_size);
		}
		perfan__elf_close(e);
		return NULL;
	}
	if (need_symbols && !e->has_symtab && !e->has_debug_info) {
		perfan__elf_close(e);
		return NULL;
	}
	return e;
}

static struct perfan__elf *try_owned(struct search *s, char *path,
				     int need_symbols)
{
	struct perfan__elf *e = try_file(s, path, need_symbols);
	free(path);
	return e;
}

/* The binary itself. */
static struct perfan__elf *find_runtime(struct search *s)
{
	struct perfan__symctx *ctx = s->ctx;
	struct perfan__dso *d = s->dso;
	struct perfan__elf *e = NULL;
	const char *cache_name = d->kind == PERFAN__DSO_VDSO ? "/vdso" : "/elf";
	s->runtime = 1;
	if (d->build_id_size && ctx->buildid_dir)
		e = try_owned(s,
			      buildid_path(ctx->buildid_dir, d->build_id,
					   d->build_id_size, cache_name),
			      0);
	if (!e && d->kind == PERFAN__DSO_FILE) {
		e = try_owned(s, cat3(ctx->symfs, d->path, ""), 0);
		if (!e && *ctx->symfs)
			e = try_owned(
				s, cat3(ctx->symfs, "/", basename_of(d->path)),
				0);
	}
	s->runtime = 0;
	return e;
}

static char *dirname_of(const char *path)
{
	const char *s = strrchr(path, '/');
	size_t n = s ? (size_t)(s - path) : 0;
	char *r = malloc(n + 1);
	if (r) {
		memcpy(r, path, n);
		r[n] = '\0';
	}
	return r;
}

/* A separate debug file, as perf's dso__load tries them: by build-id in
 * perf's cache and under the debug roots (the build-id recorded, else the
 * binary's own: libc6-dbg's /usr/lib/debug/.build-id/xx/yyyy.debug), then
 * by .gnu_debuglink next to the binary and under the debug roots, then
 * Fedora's <root><path>.debug and Ubuntu's <root><path>. Every one must
 * have the build-id wanted, when one is known. */
static struct perfan__elf *find_debug(struct search *s,
				      struct perfan__elf *runtime)
{
	struct perfan__symctx *ctx = s->ctx;
	struct perfan__dso *d = s->dso;
	struct perfan__elf *e = NULL;
	const char *roots[2] = {ctx->debug_dir, "/usr/lib/debug"};

	if (s->want_size) {
		if (ctx->buildid_dir)
			e = try_owned(s,
				      buildid_path(ctx->buildid_dir, s->want,
						   s->want_size, "/debug"),
				      1);
		for (int i = 0; i < 2 && !e; i++) {
			if (!roots[i])
				continue;
			char *root = cat3(ctx->symfs, roots[i], "");
			if (root)
				e = try_owned(s,
					      buildid_path(root, s->want,
							   s->want_size,
							   ".debug"),
					      1);
			free(root);
		}
	}
	if (e)
		return e;

	const char *link = runtime ? runtime->debuglink : NULL;
	char *rdir = runtime ? dirname_of(runtime->path) : NULL;
	char *pdir = dirname_of(d->path);
	if (link && rdir && pdir) {
		char *c = cat3(rdir, "/", link);
		if (c && strcmp(c, runtime->path))
			e = try_file(s, c, 1);
		free(c);
		if (!e) {
			char *dd = cat3(rdir, "/.debug/", link);
			e = try_owned(s, dd, 1);
		}
		for (int i = 0; i < 2 && !e; i++) {
			if (!roots[i])
				continue;
			char *root = cat3(ctx->symfs, roots[i], pdir);
			if (root)
				e = try_owned(s, cat3(root, "/", link), 1);
			free(root);
		}
	}
	free(rdir);
	free(pdir);
	for (int i = 0; i < 2 && !e && d->path[0] == '/'; i++) {
		if (!roots[i])
			continue;
		char *root = cat3(ctx->symfs, roots[i], d->path);
		if (root) {
			e = try_owned(s, cat3(root, ".debug", ""), 1);
			if (!e)
				e = try_file(s, root, 1);
		}
		free(root);
	}
	return e;
}

/* Why the DSO of S has no file, in its WHY: the first file found cut or
 * not ELF, else a build-id mismatch, else where the binary was looked
 * for. */
static void why_not(struct search *s)
{
	struct perfan__dso *d = s->dso;
	char hex[41], hex2[41], why[1024];
	if (s->bad_path && s->bad_needed)
		snprintf(why, sizeof(why),
			 "%s is a truncated ELF file: %llu bytes, where its "
			 "headers need %llu",
			 s->bad_path, (unsigned long long)s->bad_size,
			 (unsigned long long)s->bad_needed);
	else if (s->bad_path)
		snprintf(why, sizeof(why), "%s is not an ELF file",
			 s->bad_path);
	else if (s->mismatch_path)
		snprintf(why, sizeof(why),
			 "build-id mismatch: recorded %s, %s has %s",
			 perfan__buildid_hex(d->build_id, d->build_id_size,
					     hex),
			 s->mismatch_path,
			 s->mismatch_size
				 ? perfan__buildid_hex(s->mismatch_id,
						       s->mismatch_size, hex2)
				 : "none");
	else if (*s->tried)
		snprintf(why, sizeof(why), "file not found: looked for %s",
			 s->tried);
	else
		snprintf(why, sizeof(why), "file not found");
	free(d->why);
	d->why = strdup(why);
}

/* Our own [vdso], when it is the one recorded (same build-id). */
static struct perfan__elf *own_vdso(struct search *s)
{
	if (!s->ctx->host.own_vdso)
		return NULL;
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	if (!base || !s->want_size)
		return NULL;
	/* Its size: the end of the last section header table or segment. */
	const unsigned char *img = (const unsigned char *)base;
	if (memcmp(img, ELFMAG, SELFMAG) || img[EI_CLASS] != ELFCLASS64)
		return NULL;
	Elf64_Ehdr eh;
	memcpy(&eh, img, sizeof(eh));
	uint64_t size = eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize;
	if (size < sizeof(eh) || size > (1u << 24))
		return NULL;
	Elf *elf = elf_memory((char *)img, size);
	if (!elf)
		return NULL;
	const void *bid;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &bid);
	elf_end(elf);
	if (n != (ssize_t)s->want_size || memcmp(bid, s->want, s->want_size))
		return NULL;
	return perfan__elf_open_mem(img, size, "[vdso]");
}

void perfan__dso_load(struct perfan__symctx *ctx, struct perfan__dso *d)
{
	if (d->loaded)
		return;
	d->loaded = 1;
	if (d->kind != PERFAN__DSO_FILE && d->kind != PERFAN__DSO_VDSO)
		return;

	struct search s = {.ctx = ctx, .dso = d};
	char hex[41], hex2[41];
	if (d->build_id_size) {
		s.want = d->build_id;
		s.want_size = d->build_id_size;
	}
	d->runtime = find_runtime(&s);
	if (!d->runtime && d->kind == PERFAN__DSO_VDSO)
		d->runtime = own_vdso(&s);

	if (!s.want && d->runtime && d->runtime->build_id_size) {
		/* Nothing recorded: the binary found names its debug file. */
		s.want = d->runtime->build_id;
		s.want_size = d->runtime->build_id_size;
		perfan__symlog(
			ctx, ctx->foreign ? PERFAN_LOG_WARN : PERFAN_LOG_DEBUG,
			"%s: no build-id recorded%s; using %s unverified",
			d->path,
			ctx->foreign ? " and recorded on another machine" : "",
			d->runtime->path);
	}
	if (d->kind == PERFAN__DSO_FILE && (s.want || d->runtime) &&
	    !(d->runtime && d->runtime->has_symtab &&
	      d->runtime->has_debug_info))
		d->debug = find_debug(&s, d->runtime);

	if (!d->runtime && !d->debug) {
		why_not(&s);
		if (s.bad_path) {
			perfan__symlog(ctx, PERFAN_LOG_WARN,
				       "%s: %s: not symbolized from it",
				       d->path, d->why ? d->why : "");
		} else if (s.mismatch_path) {
			d->mismatch = 1;
			if (ctx->stats)
				ctx->stats->buildid_mismatches++;
			perfan__symlog(
				ctx, PERFAN_LOG_WARN,
				"%s: recorded with build-id %s, but %s has "
				"%s: not symbolized from it",
				d->path,
				perfan__buildid_hex(d->build_id,
						    d->build_id_size, hex),
				s.mismatch_path,
				s.mismatch_size
					? perfan__buildid_hex(s.mismatch_id,
							      s.mismatch_size,
							      hex2)
					: "none");
		} else {
			perfan__symlog(
				ctx, PERFAN_LOG_INFO, "%s: not found%s%s",
				d->path,
				d->build_id_size ? " with build-id " : "",
				d->build_id_size
					? perfan__buildid_hex(d->build_id,
							      d->build_id_size,
							      hex)
					: "");
		}
		free(s.mismatch_path);
		free(s.bad_path);
		return;
	}
	free(s.mismatch_path);
	free(s.bad_path);

	struct perfan__elf *symsrc =
		d->debug && d->debug->has_symtab ? d->debug : d->runtime;
	if (!symsrc)
		symsrc = d->debug;
	if (!symsrc->has_symtab && d->runtime) {
		/* Nothing better than .dynsym: the binary's MiniDebugInfo,
		 * if it has one, adds its local functions. */
		d->mini = perfan__elf_minidebug(d->runtime);
		if (d->mini)
			perfan__symlog(ctx, PERFAN_LOG_DEBUG,
				       "%s: symbols from %s", d->path,
				       d->mini->path);
	}
	int err = perfan__symtab_load(&d->symtab, d->runtime, symsrc, d->mini);
	if (err) {
		perfan__symlog(ctx, PERFAN_LOG_WARN,
			       "%s: cannot read symbols of %s", d->path,
			       symsrc->path);
		perfan__symtab_free(&d->symtab);
		return;
	}
	d->has_symtab = 1;
}

void perfan__dso_check_late_buildid(struct perfan__symctx *ctx,
				    const char *path, const uint8_t *id,
				    size_t size)
{
	char hex[41], hex2[41];
	for (struct perfan__dso *d = ctx->dsos; d; d = d->next) {
		if (!d->has_symtab || d->build_id_size || strcmp(d->path, path))
			continue;
		const struct perfan__elf *e = d->runtime ? d->runtime
							 : d->debug;
		if (e->build_id_size == size && !memcmp(e->build_id, id, size))
			continue;
		d->mismatch = 1;
		if (ctx->stats)
			ctx->stats->buildid_mismatches++;
		perfan__symlog(ctx, PERFAN_LOG_WARN,
			       "%s: build-id %s recorded at the end of the "
			       "stream, but its frames so far came from %s, "
			       "which has %s: they may be wrong",
			       path, perfan__buildid_hex(id, size, hex),
			       e->path,
			       perfan__buildid_hex(e->build_id,
						   e->build_id_size, hex2));
	}
}

struct perfan__dwarf *perfan__dso_dwarf(struct perfan__dso *d)
{
	if (!d->dwarf_tried) {
		d->dwarf_tried = 1;
		if (d->debug && d->debug->has_debug_info)
			d->dwarf = perfan__dwarf_open(d->debug);
		else if (d->runtime && d->runtime->has_debug_info)
			d->dwarf = perfan__dwarf_open(d->runtime);
	}
	return d->dwarf;
}

void perfan__dsos_free(struct perfan__symctx *ctx)
{
	struct perfan__dso *d = ctx->dsos;
	while (d) {
		struct perfan__dso *n = d->next;
		perfan__dwarf_close(d->dwarf);
		perfan__symtab_free(&d->symtab);
		perfan__elf_close(d->runtime);
		perfan__elf_close(d->debug);
		perfan__elf_close(d->mini);
		perfan__htab_free(&d->cache);
		free(d->why);
		free(d->path);
		free(d);
		d = n;
	}
	ctx->dsos = NULL;
	perfan__htab_free(&ctx->dso_by_hash);
}
