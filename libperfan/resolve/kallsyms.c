/* resolve/kallsyms.c: kernel and module symbols from a kallsyms file, and
 * choosing that file: --kallsyms, perf's build-id cache, or /proc/kallsyms
 * when the running kernel is the recorded one. Sizes and duplicates are
 * fixed up as perf does for kallsyms, so names match perf report. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "resolve/symbols.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/hex.h"
#include "util/keysort.h"
#include "util/maparr.h"
#include "util/search.h"

/* A symbol as kept, 16 bytes: its name as an offset into the text (where
 * it is not NUL-terminated, as in the file) and its module as
 * an index into k->mods plus one (0: the kernel's own). */
struct perfan__kent {
	uint64_t start;
	uint32_t name;
	uint16_t len, mod;
};

/* kallsyms files are tens of MB; names are offsets of 32 bits */
#define MAX_TEXT ((size_t)1 << 30)

/* Sort V by address, keeping the file's order among equal addresses (a
 * stable radix sort). An input in order is left as it is. */
static int sort_by_address(struct perfan__kent *v, size_t n)
{
	/* /proc/kallsyms is in address order already (checked: 121 828
	 * kept symbols, no descent), and a stable sort of that is itself */
	size_t i0 = 1;
	while (i0 < n && v[i0 - 1].start <= v[i0].start)
		i0++;
	if (i0 >= n)
		return 0;
	struct perfan__keyed *c = malloc(n * sizeof(*c));
	if (!c)
		return PERFAN_ENOMEM;
	/* unsigned addresses as signed keys, in the same order */
	for (size_t i = 0; i < n; i++)
		c[i] = (struct perfan__keyed){(int64_t)(v[i].start ^
							((uint64_t)1 << 63)),
					      (uint32_t)i};
	int err = perfan__keysort(c, n);
	if (!err)
		perfan__keysort_apply(v, sizeof(*v), c, n);
	free(c);
	return err;
}

#define ONES 0x0101010101010101ULL
#define HIGH (ONES * 0x80)

/* The 8 hex digits at P as a number, first digit highest, into *OUT; 0 if
 * a byte is not a hex digit. Eight bytes at once (SWAR): each byte's
 * range is tested by adding to it what carries it into its high bit, no
 * carry crossing into the next as no byte is 0x80 or more. */
static inline int hex8(const char *p, uint32_t *out)
{
	uint64_t x;
	memcpy(&x, p, 8);
	if (x & HIGH)
		return 0;
	uint64_t y = x | ONES * 0x20; /* letters in lower case */
	uint64_t digit = (x + ONES * (0x80 - '0')) & ~(x + ONES * (0x7f - '9'));
	uint64_t letter = (y + ONES * (0x80 - 'a')) &
			  ~(y + ONES * (0x7f - 'f'));
	if (((digit | letter) & HIGH) != HIGH)
		return 0;
	/* each byte's value: its low nibble, plus 9 for a letter (bit 6) */
	uint64_t v = (x & ONES * 0x0f) + 9 * ((x >> 6) & ONES);
	/* the first digit highest (on a little-endian machine it is the
	 * lowest byte), then the nibbles packed pairwise */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	v = (v | v >> 4) & 0x00ff00ff00ff00ffULL;
	v = (v | v >> 8) & 0x0000ffff0000ffffULL;
	v = (v | v >> 16) & 0xffffffffULL;
	*out = (uint32_t)v;
	return 1;
}

/* A hexadecimal address of 1 to 16 digits at P, ending before END
 * (strtoull's job, without its locale and sign handling: this runs on
 * every line of a file of 100 000 and more), *AFTER past it. The usual 16
 * digits and a space are read eight at a time. */
static int hex_addr(const char *p, const char *end, uint64_t *out,
		    const char **after)
{
	uint32_t hi, lo;
	if (end - p > 16 && p[16] == ' ' && hex8(p, &hi) && hex8(p + 8, &lo)) {
		*out = (uint64_t)hi << 32 | lo;
		*after = p + 16;
		return 1;
	}
	uint64_t v = 0;
	int n = 0, d;
	for (; p < end && (d = perfan__hexval((unsigned char)*p)) >= 0;
	     p++, n++) {
		if (n == 16)
			return 0;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	*after = p;
	return n > 0;
}

/* perf keeps text, weak, data and bss symbols (symbol_type__filter). */
static int wanted_type(char t)
{
	t = (char)(t & ~0x20); /* upper case */
	return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

/* Whether the module column MOD[0..ML) is in brackets already ("[mod]",
 * as /proc/kallsyms writes it), not to be bracketed again. */
static int bracketed(const char *mod, size_t ml)
{
	return ml >= 2 && mod[0] == '[' && mod[ml - 1] == ']';
}

/* Whether the module column MOD[0..ML) ("[mod]" or "mod") names B ("[mod]",
 * NUL-terminated). */
static int same_module(const char *mod, size_t ml, const char *b)
{
	size_t bl = strlen(b);
	if (bracketed(mod, ml))
		return ml == bl && !memcmp(mod, b, ml);
	return bl == ml + 2 && !memcmp(b + 1, mod, ml);
}

static int too_large(const char *path)
{
	return perfan__err(PERFAN_EFORMAT,
			   "%s: larger than 1 GiB: not a kallsyms file", path);
}

/* The whole of FD (PATH), which tells no size (a /proc file), read into
 * K->buf; its length in *LEN. */
static int slurp(struct perfan__kallsyms *k, int fd, const char *path,
		 size_t *len)
{
	size_t n = 0;
	for (;;) {
		/* the first pass always grows: buf.bytes starts at 0 */
		if (n >= k->buf.bytes) {
			if (n >= MAX_TEXT)
				return too_large(path);
			if (perfan__maparr_grow(&k->buf,
						n ? 2 * n : (size_t)8 << 20))
				return perfan__err(PERFAN_ENOMEM,
						   "%s: out of memory", path);
		}
		ssize_t r = read(fd, (char *)k->buf.p + n, k->buf.bytes - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return perfan__err(PERFAN_EIO,
					   "%s: read error at %zu: %s", path, n,
					   strerror(errno));
		if (!r)
			break;
		n += (size_t)r;
	}
	*len = n;
	k->text = k->buf.p;
	return 0;
}

/* PATH's text in k->text: a file of known size mapped, its pages mapped
 * at once (MAP_POPULATE: the page cache's own, no copy, no page zeroed, and
 * no fault when a name is looked up later), else read to its end into
 * k->buf. */
static int open_text(struct perfan__kallsyms *k, const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return perfan__err(PERFAN_ENOTFOUND, "%s: %s", path,
				   strerror(errno));
	struct stat st;
	int err = 0;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		if ((uint64_t)st.st_size >= MAX_TEXT) {
			err = too_large(path);
		} else {
			void *m = mmap(NULL, (size_t)st.st_size, PROT_READ,
				       MAP_PRIVATE | MAP_POPULATE, fd, 0);
			if (m == MAP_FAILED) {
				err = perfan__err(PERFAN_EIO, "%s: mmap: %s",
						  path, strerror(errno));
			} else {
				k->mapped = m;
				k->mapped_len = *len = (size_t)st.st_size;
				k->text = m;
			}
		}
	} else {
		err = slurp(k, fd, path, len);
	}
	close(fd);
	return err;
}

/* Room for the symbols of a text of LEN bytes: a symbol's line takes five
 * bytes at least ("0 t x"), and a newline unless it is the last. The
 * mapping is virtual memory: only the pages filled are touched. */
static int room(struct perfan__kallsyms *k, size_t len)
{
	return perfan__maparr_grow(&k->syms, (len / 5 + 1) * sizeof(*k->v));
}

/* Whether a byte of X is 0: its high bit set (exactly for the lowest such
 * byte; a borrow may mark bytes above it). */
static inline uint64_t zero_byte(uint64_t x)
{
	return (x - ONES) & ~x & HIGH;
}

/* The first newline, tab or NUL in P[0..END), or END: eight bytes at a
 * time, as a name is some twenty. */
static const char *name_stop(const char *p, const char *end)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ /* the first byte lowest */
	for (; end - p >= 8; p += 8) {
		uint64_t x;
		memcpy(&x, p, 8);
		uint64_t m = zero_byte(x ^ ONES * '\n') |
			     zero_byte(x ^ ONES * '\t') | zero_byte(x);
		if (m)
			return p + (__builtin_ctzll(m) >> 3);
	}
#endif
	while (p < end && *p != '\n' && *p != '\t' && *p)
		p++;
	return p;
}

/* The end of the line P is in: its newline, or END. */
static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	return nl ? nl : end;
}

/* In *M the index plus one in k->mods of the module column MOD[0..ML),
 * added bracketed when new. LAST is the module of the symbol before: a
 * module's symbols come together. */
static int module_index(struct perfan__kallsyms *k, const char *path,
			const char *mod, size_t ml, uint16_t last, uint16_t *m)
{
	if (last && same_module(mod, ml, k->mods[last - 1])) {
		*m = last;
		return 0;
	}
	if (k->nmods >= UINT16_MAX)
		return perfan__err(PERFAN_EFORMAT,
				   "%s: more than %u modules: not a kallsyms "
				   "file",
				   path, UINT16_MAX - 1);
	int b = bracketed(mod, ml);
	char *s = perfan__arena_alloc(&k->arena, ml + (b ? 1 : 3));
	if (!s || perfan__grow((void **)&k->mods, &k->capmods, k->nmods + 1,
			       sizeof(*k->mods)))
		return perfan__err(PERFAN_ENOMEM, "%s: out of memory", path);
	if (b) {
		memcpy(s, mod, ml);
		s[ml] = '\0';
	} else {
		s[0] = '[';
		memcpy(s + 1, mod, ml);
		memcpy(s + ml + 1, "]", 2);
	}
	k->mods[k->nmods++] = s;
	*m = (uint16_t)k->nmods;
	return 0;
}

/* Where parsing is: what has been kept, and where RELOC_NAME is. */
struct parsing {
	const char *path, *reloc_name;
	size_t rl;
	size_t n, nonzero;
	uint16_t last_mod;
	uint64_t reloc_file;
	int have_reloc;
};

/* The lines of TEXT[0..LEN), the file, into k->v: the kept symbols, in the
 * file's order, their names as file offsets. A NUL ends a name or a
 * module, as it did when lines were C strings. */
static int parse(struct perfan__kallsyms *k, struct parsing *ps,
		 const char *text, size_t len)
{
	struct perfan__kent *v = k->syms.p;
	const char *stop = text + len;
	for (const char *line = text, *eol; line < stop; line = eol + 1) {
		const char *p;
		uint64_t a;
		if (!hex_addr(line, stop, &a, &p) || stop - p < 3 ||
		    p[0] != ' ' || p[1] == '\n' || !p[1] || p[2] != ' ') {
			eol = line_end(line, stop); /* not a symbol: skip */
			continue;
		}
		char type = p[1];
		const char *name = p + 3, *mod = NULL;
		const char *e = name_stop(name, stop);
		size_t nlen = (size_t)(e - name), ml = 0;
		if (e == stop || *e == '\n') {
			eol = e;
		} else if (*e == '\t') {
			eol = line_end(e, stop);
			mod = e + 1;
			while (mod < eol && (*mod == ' ' || *mod == '\t'))
				mod++;
			const char *z = memchr(mod, '\0', (size_t)(eol - mod));
			ml = (size_t)((z ? z : eol) - mod);
			if (!ml)
				mod = NULL;
		} else {
			eol = line_end(e, stop); /* a NUL: no module */
		}
		if (!nlen || nlen > UINT16_MAX)
			continue;
		if (ps->reloc_name && !mod && !ps->have_reloc &&
		    nlen == ps->rl && !memcmp(name, ps->reloc_name, ps->rl)) {
			ps->reloc_file = a;
			ps->have_reloc = 1;
		}
		if (!wanted_type(type))
			continue;
		if (mod && name[0] == '$')
			continue; /* ARM module mapping symbols */
		if (a)
			ps->nonzero++;
		uint16_t m = 0;
		int err = mod ? module_index(k, ps->path, mod, ml, ps->last_mod,
					     &m)
			      : 0;
		if (err)
			return err;
		if (m)
			ps->last_mod = m;
		v[ps->n++] = (struct perfan__kent){a, (uint32_t)(name - text),
						   (uint16_t)nlen, m};
	}
	return 0;
}

int perfan__kallsyms_load(struct perfan__kallsyms *k, const char *path,
			  const char *reloc_name, uint64_t reloc_addr)
{
	memset(k, 0, sizeof(*k));
	k->buf.huge_from = k->syms.huge_from = PERFAN__MAPARR_EAGER;
	size_t len = 0;
	struct parsing ps = {.path = path, .reloc_name = reloc_name};
	ps.rl = reloc_name ? strlen(reloc_name) : 0;
	int err = open_text(k, path, &len);
	if (!err && room(k, len))
		err = perfan__err(PERFAN_ENOMEM, "%s: out of memory", path);
	if (!err)
		err = parse(k, &ps, k->text, len);
	if (!err && ps.n && !ps.nonzero)
		err = perfan__err(PERFAN_EUNSUPPORTED,
				  "%s: every address is 0 (kptr_restrict)",
				  path);
	if (!err && !ps.n)
		err = perfan__err(PERFAN_EFORMAT, "%s: no symbols", path);
	if (err) {
		perfan__kallsyms_free(k);
		return err;
	}
	k->v = k->syms.p;
	k->n = ps.n;
	uint64_t reloc_file = ps.reloc_file;
	int have_reloc = ps.have_reloc;
	struct perfan__kent *v = k->v;
	size_t n = k->n;

	/* Another boot's kallsyms: move the kernel's own symbols by the
	 * difference the recording's kernel map gives (KASLR). Module
	 * addresses cannot be corrected that way. */
	if (have_reloc && reloc_addr != reloc_file) {
		uint64_t delta = reloc_addr - reloc_file;
		for (size_t i = 0; i < n; i++)
			if (!v[i].mod)
				v[i].start += delta;
	}
	/* /proc/kallsyms lists addresses in order: sort only if not. */
	if ((err = sort_by_address(v, n))) {
		perfan__kallsyms_free(k);
		return perfan__err(err, "%s: out of memory", path);
	}
	/* Of several at one address, perf's fix-up leaves the last listed:
	 * the others end up with size 0 and lose to it. In place: OUT never
	 * passes I. */
	size_t out = 0;
	for (size_t i = 0; i < n; i++)
		if (i + 1 == n || v[i + 1].start != v[i].start)
			v[out++] = v[i];
	k->n = out;
	return 0;
}

size_t perfan__kallsyms_count(const struct perfan__kallsyms *k)
{
	return k->n;
}

void perfan__kallsyms_at(const struct perfan__kallsyms *k, size_t i,
			 struct perfan__ksym *out)
{
	const struct perfan__kent *v = k->v;
	/* Each symbol ends where the next begins, except at a change between
	 * kernel and module (a page at most, as perf's symbols__fixup_end). */
	uint64_t s = v[i].start, end;
	if (i + 1 < k->n && !v[i].mod == !v[i + 1].mod)
		end = v[i + 1].start;
	else if (i + 1 < k->n)
		end = ((s + 4096) + 4095) & ~(uint64_t)4095;
	else
		end = ((s + 4095) & ~(uint64_t)4095) + 4096;
	if (end < s)
		end = UINT64_MAX;
	*out = (struct perfan__ksym){s, end, k->text + v[i].name, v[i].len,
				     v[i].mod ? k->mods[v[i].mod - 1] : NULL};
}

int perfan__kallsyms_find(const struct perfan__kallsyms *k, uint64_t addr,
			  struct perfan__ksym *out)
{
	size_t lo = perfan__count_le(k->v, k->n, sizeof(*k->v),
				     offsetof(struct perfan__kent, start),
				     addr);
	if (!lo)
		return 0;
	perfan__kallsyms_at(k, lo - 1, out);
	return addr < out->end;
}

void perfan__kallsyms_free(struct perfan__kallsyms *k)
{
	perfan__maparr_free(&k->syms);
	perfan__maparr_free(&k->buf);
	if (k->mapped)
		munmap(k->mapped, k->mapped_len);
	perfan__arena_free(&k->arena);
	free(k->mods);
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
		       path, why, perfan__kallsyms_count(&ctx->kallsyms));
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
