/* resolve/kallsyms.c: kernel and module symbols from a kallsyms file, and
 * choosing that file: --kallsyms, perf's build-id cache, or /proc/kallsyms
 * when the running kernel is the recorded one. Sizes and duplicates are
 * fixed up as perf does for kallsyms, so names match perf report. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "resolve/symbols.h"
#include "util/cmp.h"
#include "util/error.h"
#include "util/maparr.h"
#include "util/search.h"

struct kcand {
	uint64_t start;
	const char *name, *module;
	uint32_t idx;
};

static int kcand_cmp(const void *a, const void *b)
{
	const struct kcand *x = a, *y = b;
	int c = perfan__cmp_u64(x->start, y->start);
	return c ? c : perfan__cmp_u64(x->idx, y->idx);
}

/* Sort V by address, keeping the file's order among equal addresses
 * (qsort is not stable: sort copies carrying their index). An input in
 * order is left as it is. */
static int sort_by_address(struct perfan__ksym *v, size_t n)
{
	/* /proc/kallsyms is in address order already (checked: 121 828
	 * kept symbols, no descent), and a stable sort of that is itself */
	size_t i0 = 1;
	while (i0 < n && v[i0 - 1].start <= v[i0].start)
		i0++;
	if (i0 >= n)
		return 0;
	struct kcand *c = malloc(n * sizeof(*c));
	if (!c)
		return PERFAN_ENOMEM;
	for (size_t i = 0; i < n; i++)
		c[i] = (struct kcand){v[i].start, v[i].name, v[i].module,
				      (uint32_t)i};
	qsort(c, n, sizeof(*c), kcand_cmp);
	for (size_t i = 0; i < n; i++)
		v[i] = (struct perfan__ksym){c[i].start, 0, c[i].name,
					     c[i].module};
	free(c);
	return 0;
}

/* A hexadecimal address of 1 to 16 digits at P (strtoull's job, without
 * its locale and sign handling: this runs on every line of a file of
 * 100 000 and more). */
static int hex_addr(char *p, uint64_t *out, char **end)
{
	uint64_t v = 0;
	int n = 0;
	for (;; p++, n++) {
		unsigned c = (unsigned char)*p, d;
		if (c - '0' < 10)
			d = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		if (n == 16)
			return 0;
		v = v << 4 | d;
	}
	*out = v;
	*end = p;
	return n > 0;
}

/* perf keeps text, weak, data and bss symbols (symbol_type__filter). */
static int wanted_type(char t)
{
	t = (char)toupper((unsigned char)t);
	return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

/* Whether the module column MOD ("[mod]" or "mod") names BRACKETED
 * ("[mod]"). */
static int same_module(const char *mod, const char *bracketed)
{
	if (mod[0] == '[')
		return !strcmp(mod, bracketed);
	size_t ml = strlen(mod);
	return !strncmp(bracketed + 1, mod, ml) && bracketed[ml + 1] == ']' &&
	       !bracketed[ml + 2];
}

/* The whole of PATH in K->text, NUL-terminated (a /proc file tells no
 * size: read to the end), its length in *LEN. At most 1 GiB: kallsyms files
 * are tens of MB. */
static int slurp(struct perfan__kallsyms *k, const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return perfan__err(PERFAN_ENOTFOUND, "%s: %s", path,
				   strerror(errno));
	struct stat st;
	size_t want = !fstat(fd, &st) && st.st_size > 0 ? (size_t)st.st_size + 1
							: (size_t)1 << 20;
	size_t n = 0;
	int err = 0;
	for (;;) {
		/* the first pass always grows: text.bytes starts at 0 */
		if (n + 1 >= k->text.bytes) {
			if (n >= (size_t)1 << 30) {
				err = perfan__err(PERFAN_EFORMAT,
						  "%s: larger than 1 GiB: not "
						  "a kallsyms file",
						  path);
				break;
			}
			if (perfan__maparr_grow(&k->text,
						n + 1 < want ? want
							     : 2 * (n + 1))) {
				err = perfan__err(PERFAN_ENOMEM,
						  "%s: out of memory", path);
				break;
			}
		}
		ssize_t r =
			read(fd, (char *)k->text.p + n, k->text.bytes - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = perfan__err(PERFAN_EIO,
					  "%s: read error at %zu: %s", path, n,
					  strerror(errno));
			break;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (!err)
		((char *)k->text.p)[n] = '\0';
	*len = n;
	return err;
}

/* Room for the symbols of TEXT[0..LEN): one per line at most. */
static int room(struct perfan__kallsyms *k, const char *text, size_t len)
{
	size_t lines = 1;
	for (const char *p = text, *e = text + len;
	     (p = memchr(p, '\n', (size_t)(e - p))); p++)
		lines++;
	return perfan__maparr_grow(&k->syms, lines * sizeof(*k->v));
}

int perfan__kallsyms_load(struct perfan__kallsyms *k, const char *path,
			  const char *reloc_name, uint64_t reloc_addr)
{
	memset(k, 0, sizeof(*k));
	k->text.huge_from = k->syms.huge_from = PERFAN__MAPARR_EAGER;
	size_t len = 0;
	int err = slurp(k, path, &len);
	if (!err && room(k, k->text.p, len))
		err = perfan__err(PERFAN_ENOMEM, "%s: out of memory", path);
	if (err) {
		perfan__kallsyms_free(k);
		return err;
	}
	/* Names and modules point into the text, each line cut where its
	 * name or module ends. */
	struct perfan__ksym *v = k->syms.p;
	size_t n = 0, nonzero = 0;
	uint64_t reloc_file = 0;
	int have_reloc = 0;
	const char *last_mod = NULL; /* the module of the symbol before */
	char *line = k->text.p, *stop = line + len;
	for (char *next; line < stop; line = next) {
		char *nl = memchr(line, '\n', (size_t)(stop - line));
		next = nl ? nl + 1 : stop;
		if (nl)
			*nl = '\0';
		char *p = line, *end;
		uint64_t a;
		if (!hex_addr(p, &a, &end) || *end != ' ')
			continue; /* not a symbol line: skip quietly */
		p = end + 1;
		char type = *p;
		if (!type || p[1] != ' ')
			continue;
		p += 2;
		char *name = p;
		char *mod = NULL;
		char *tab = strchr(p, '\t');
		if (tab) {
			*tab = '\0';
			mod = tab + 1;
			while (*mod == ' ' || *mod == '\t')
				mod++;
			if (!*mod)
				mod = NULL;
		}
		if (!*name)
			continue;
		if (reloc_name && !mod && !have_reloc &&
		    !strcmp(name, reloc_name)) {
			reloc_file = a;
			have_reloc = 1;
		}
		if (!wanted_type(type))
			continue;
		if (mod && name[0] == '$')
			continue; /* ARM module mapping symbols */
		if (a)
			nonzero++;
		const char *m = NULL;
		if (mod && last_mod && same_module(mod, last_mod)) {
			m = last_mod; /* a module's symbols come together */
		} else if (mod && mod[0] == '[') {
			m = mod; /* "[mod]" as perf names module DSOs */
		} else if (mod) {
			size_t ml = strlen(mod);
			char *b = perfan__arena_alloc(&k->arena, ml + 3);
			if (!b) {
				err = PERFAN_ENOMEM;
				break;
			}
			b[0] = '[';
			memcpy(b + 1, mod, ml);
			memcpy(b + ml + 1, "]", 2);
			m = b;
		}
		if (m)
			last_mod = m;
		v[n++] = (struct perfan__ksym){a, 0, name, m};
	}
	if (err)
		perfan__err(err, "%s: out of memory", path);
	if (!err && n && !nonzero)
		err = perfan__err(PERFAN_EUNSUPPORTED,
				  "%s: every address is 0 (kptr_restrict)",
				  path);
	if (!err && !n)
		err = perfan__err(PERFAN_EFORMAT, "%s: no symbols", path);
	if (err) {
		perfan__kallsyms_free(k);
		return err;
	}

	/* Another boot's kallsyms: move the kernel's own symbols by the
	 * difference the recording's kernel map gives (KASLR). Module
	 * addresses cannot be corrected that way. */
	if (have_reloc && reloc_addr != reloc_file) {
		uint64_t delta = reloc_addr - reloc_file;
		for (size_t i = 0; i < n; i++)
			if (!v[i].module)
				v[i].start += delta;
	}
	/* /proc/kallsyms lists addresses in order: sort only if not. */
	int sorted = 1;
	for (size_t i = 1; sorted && i < n; i++)
		sorted = v[i - 1].start <= v[i].start;
	if (!sorted && (err = sort_by_address(v, n))) {
		perfan__kallsyms_free(k);
		return perfan__err(err, "%s: out of memory", path);
	}

	/* Each symbol ends where the next begins, except at a change between
	 * kernel and module (a page at most, as perf's symbols__fixup_end).
	 * Of several at one address, perf's fix-up leaves the last listed:
	 * the others end up with size 0 and lose to it. In place: OUT never
	 * passes I. */
	size_t out = 0;
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && v[i + 1].start == v[i].start)
			continue;
		uint64_t end;
		if (i + 1 < n && !v[i].module == !v[i + 1].module)
			end = v[i + 1].start;
		else if (i + 1 < n)
			end = ((v[i].start + 4096) + 4095) & ~(uint64_t)4095;
		else
			end = ((v[i].start + 4095) & ~(uint64_t)4095) + 4096;
		if (end < v[i].start)
			end = UINT64_MAX;
		v[out] = v[i];
		v[out++].end = end;
	}
	k->v = v;
	k->n = out;
	return 0;
}

const struct perfan__ksym *
perfan__kallsyms_find(const struct perfan__kallsyms *k, uint64_t addr)
{
	size_t lo = perfan__count_le(k->v, k->n, sizeof(*k->v),
				     offsetof(struct perfan__ksym, start),
				     addr);
	if (lo && addr < k->v[lo - 1].end)
		return &k->v[lo - 1];
	return NULL;
}

void perfan__kallsyms_free(struct perfan__kallsyms *k)
{
	perfan__maparr_free(&k->syms);
	perfan__maparr_free(&k->text);
	perfan__arena_free(&k->arena);
	memset(k, 0, sizeof(*k));
}

/* The running kernel's build-id from /sys/kernel/notes, 0 if unknown. */
static size_t running_kernel_build_id(const char *notes, uint8_t *id)
{
	FILE *f = notes ? fopen(notes, "re") : NULL;
	if (!f)
		return 0;
	uint8_t buf[4096];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	size_t off = 0;
	while (off + 12 <= n) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		size_t name_off = off + 12;
		size_t desc_off = name_off + ((namesz + 3) & ~3u);
		size_t next = desc_off + ((descsz + 3) & ~3u);
		if (next > n || next <= off)
			break;
		if (type == 3 && namesz == 4 &&
		    !memcmp(buf + name_off, "GNU", 4) && descsz) {
			size_t sz = descsz > 20 ? 20 : descsz;
			memcpy(id, buf + desc_off, sz);
			return sz;
		}
		off = next;
	}
	return 0;
}

static int try_load(struct perfan__symctx *ctx, const char *path,
		    const char *why)
{
	const char *rn = ctx->have_kreloc ? ctx->kreloc_name : NULL;
	int err = perfan__kallsyms_load(&ctx->kallsyms, path, rn,
					ctx->kreloc_addr);
	if (err) {
		perfan__symlog(ctx, PERFAN_LOG_WARN,
			       "kernel symbols: %s (%s): %s", path, why,
			       perfan_error_last());
		return err;
	}
	perfan__symlog(ctx, PERFAN_LOG_INFO, "kernel symbols: %s (%s), %zu",
		       path, why, ctx->kallsyms.n);
	return 0;
}

void perfan__kernel_symbols(struct perfan__symctx *ctx)
{
	if (ctx->kallsyms_state)
		return;
	ctx->kallsyms_state = -1;

	if (ctx->o.kallsyms) {
		if (!try_load(ctx, ctx->o.kallsyms, "--kallsyms"))
			ctx->kallsyms_state = 1;
		return;
	}

	const struct perfan__buildid *kb =
		perfan__recorded_buildid(ctx, "[kernel.kallsyms]", 1);
	char hex[41];
	if (kb && ctx->buildid_dir) {
		/* perf record saves the kallsyms it used under the kernel's
		 * build-id. */
		perfan__buildid_hex(kb->id, kb->size, hex);
		size_t len = strlen(ctx->buildid_dir) + 64;
		char *p = malloc(len);
		if (p) {
			snprintf(p, len, "%s/.build-id/%.2s/%s/kallsyms",
				 ctx->buildid_dir, hex, hex + 2);
			FILE *f = fopen(p, "re");
			if (f) {
				fclose(f);
				if (!try_load(ctx, p, "build-id cache"))
					ctx->kallsyms_state = 1;
			}
			free(p);
			if (ctx->kallsyms_state == 1)
				return;
		}
	}

	const struct perfan_features *feat = perfan_perfdata_features(ctx->pd);
	const char *rec =
		feat && perfan_features_has(feat, PERFAN_FEAT_OSRELEASE)
			? feat->osrelease
			: NULL;
	const char *run = ctx->host.osrelease;
	if (!rec) {
		perfan__symlog(
			ctx, PERFAN_LOG_WARN,
			"kernel symbols: the recording does not name its "
			"kernel: use --kallsyms for kernel names");
		return;
	}
	if (strcmp(rec, run)) {
		perfan__symlog(
			ctx, PERFAN_LOG_WARN,
			"kernel symbols: recorded on kernel %s, running %s: "
			"use --kallsyms for kernel names",
			rec, *run ? run : "(unknown)");
		return;
	}
	if (!ctx->host.kallsyms) {
		perfan__symlog(ctx, PERFAN_LOG_WARN,
			       "kernel symbols: the running kernel's are not "
			       "known: use --kallsyms for kernel names");
		return;
	}
	if (kb) {
		uint8_t id[20];
		size_t sz = running_kernel_build_id(ctx->host.kernel_notes, id);
		if (sz && (sz != kb->size || memcmp(id, kb->id, sz))) {
			char h2[41];
			perfan__symlog(
				ctx, PERFAN_LOG_WARN,
				"kernel symbols: running kernel's build-id "
				"%s differs from the recorded %s",
				perfan__buildid_hex(id, sz, h2),
				perfan__buildid_hex(kb->id, kb->size, hex));
			if (ctx->stats)
				ctx->stats->buildid_mismatches++;
			return;
		}
	}
	if (!try_load(ctx, ctx->host.kallsyms, "running kernel"))
		ctx->kallsyms_state = 1;
}
