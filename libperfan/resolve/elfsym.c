/* resolve/elfsym.c: ELF files (libelf) and their symbol tables: which
 * symbols count, their sizes and which of several at one address wins, all
 * as perf decides (util/symbol-elf.c, util/symbol.c), so that names match
 * perf report; and file offset -> virtual address through PT_LOAD. */
#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <lzma.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "resolve/regular.h"
#include "resolve/symbols.h"
#include "util/cmp.h"
#include "util/keysort.h"
#include "util/search.h"

/* Fill E from ELF (taking it over). Returns 0 or a negative error, with
 * ELF released on failure. */
static int describe(struct perfan__elf **out, Elf *elf, const char *path)
{
	GElf_Ehdr eh;
	struct perfan__elf *e = calloc(1, sizeof(*e));
	if (!e || !gelf_getehdr(elf, &eh) || !(e->path = strdup(path))) {
		int err = e ? PERFAN_EFORMAT : PERFAN_ENOMEM;
		free(e);
		elf_end(elf);
		return err;
	}
	e->elf = elf;
	e->e_type = eh.e_type;
	e->e_machine = eh.e_machine;
	uint64_t shnum = eh.e_shnum ? eh.e_shnum : eh.e_shoff != 0;
	e->needed = eh.e_shoff + shnum * eh.e_shentsize;
	if (eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize > e->needed)
		e->needed = eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize;

	const void *bid;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &bid);
	if (n > 0) {
		e->build_id_size = n > 20 ? 20 : (uint8_t)n;
		memcpy(e->build_id, bid, e->build_id_size);
	}
	GElf_Word crc;
	const char *link = dwelf_elf_gnu_debuglink(elf, &crc);
	if (link && *link)
		e->debuglink = strdup(link);

	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx))
		shstrndx = 0;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB && sh.sh_size)
			e->has_symtab = 1;
		else if (sh.sh_type == SHT_DYNSYM && sh.sh_size)
			e->has_dynsym = 1;
		const char *name =
			shstrndx ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
		if (sh.sh_type != SHT_NOBITS &&
		    sh.sh_offset + sh.sh_size > e->needed)
			e->needed = sh.sh_offset + sh.sh_size;
		if (!name || sh.sh_type == SHT_NOBITS || !sh.sh_size)
			continue;
		if (!strcmp(name, ".debug_info") ||
		    !strcmp(name, ".zdebug_info"))
			e->has_debug_info = 1;
		else if (!strcmp(name, ".gnu_debugdata"))
			e->has_gnu_debugdata = 1;
	}
	*out = e;
	return 0;
}

int perfan__elf_open(struct perfan__elf **out, const char *path)
{
	*out = NULL;
	uint64_t size;
	int fd = perfan__open_regular(path, &size);
	if (fd >= 0 && size < 64) {
		close(fd);
		fd = PERFAN_EFORMAT;
	}
	if (fd < 0)
		return fd;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(fd);
		return PERFAN_EFORMAT;
	}
	/* Read it all (it is mapped unless mmap failed) and let the
	 * descriptor go, so that hundreds of DSOs do not hold hundreds of
	 * descriptors. */
	elf_cntl(elf, ELF_C_FDREAD);
	elf_cntl(elf, ELF_C_FDDONE);
	close(fd);
	int rc = describe(out, elf, path);
	if (!rc)
		(*out)->file_size = size;
	return rc;
}

struct perfan__elf *perfan__elf_open_mem(const void *image, size_t size,
					 const char *name)
{
	elf_version(EV_CURRENT);
	Elf *elf = elf_memory((char *)image, size);
	if (!elf)
		return NULL;
	if (elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		return NULL;
	}
	struct perfan__elf *e;
	return describe(&e, elf, name) ? NULL : e;
}

void perfan__elf_close(struct perfan__elf *e)
{
	if (!e)
		return;
	elf_end(e->elf);
	free(e->image);
	free(e->debuglink);
	free(e->path);
	free(e);
}

static Elf_Scn *find_section(Elf *elf, const char *want, GElf_Shdr *out);

/* The decompressed size we accept: a MiniDebugInfo holds symbols only (a
 * few MB for the largest libraries); more is a damaged or hostile file. */
#define MINIDEBUG_MAX ((size_t)256 << 20)

struct perfan__elf *perfan__elf_minidebug(const struct perfan__elf *e)
{
	if (!e || !e->has_gnu_debugdata)
		return NULL;
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(e->elf, ".gnu_debugdata", &sh);
	Elf_Data *in = scn ? elf_rawdata(scn, NULL) : NULL;
	if (!in || !in->d_buf || !in->d_size)
		return NULL;

	lzma_stream z = LZMA_STREAM_INIT;
	if (lzma_stream_decoder(&z, (uint64_t)128 << 20, 0) != LZMA_OK)
		return NULL;
	size_t cap = in->d_size * 4 < 65536 ? 65536 : in->d_size * 4;
	uint8_t *out = NULL;
	lzma_ret ret = LZMA_OK;
	z.next_in = in->d_buf;
	z.avail_in = in->d_size;
	while (ret == LZMA_OK) {
		if (!out || !z.avail_out) {
			size_t have = out ? (size_t)(z.next_out - out) : 0;
			if (out)
				cap *= 2;
			if (cap > MINIDEBUG_MAX)
				break;
			uint8_t *n = realloc(out, cap);
			if (!n)
				break;
			out = n;
			z.next_out = out + have;
			z.avail_out = cap - have;
		}
		ret = lzma_code(&z, LZMA_FINISH);
	}
	size_t size = (size_t)(z.next_out - out);
	lzma_end(&z);
	if (ret != LZMA_STREAM_END || size < 64) {
		free(out);
		return NULL;
	}
	char *name = malloc(strlen(e->path) + sizeof("[.gnu_debugdata]"));
	struct perfan__elf *m = NULL;
	if (name) {
		strcpy(name, e->path);
		strcat(name, "[.gnu_debugdata]");
		m = perfan__elf_open_mem(out, size, name);
		free(name);
	}
	if (!m) {
		free(out);
		return NULL;
	}
	m->image = out;
	return m;
}

/* ---- symbol tables -------------------------------------------------- */

struct cand {
	uint64_t start, end;
	const char *name;
	uint32_t idx;
	uint8_t bind, zero; /* zero: size 0 before the fix-up */
};

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int c = perfan__cmp_u64(x->start, y->start);
	return c ? c : perfan__cmp_u64(x->idx, y->idx);
}

static size_t underscores(const char *s)
{
	size_t n = 0;
	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol: 1 when A (the earlier) stays. */
static int choose_a(const struct cand *a, const struct cand *b)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	if (!lb && la)
		return 1;
	if (!la && lb)
		return 0;
	int wa = a->bind == STB_WEAK, wb = b->bind == STB_WEAK;
	if (wb && !wa)
		return 1;
	if (wa && !wb)
		return 0;
	int ga = a->bind == STB_GLOBAL, gb = b->bind == STB_GLOBAL;
	if (ga && !gb)
		return 1;
	if (gb && !ga)
		return 0;
	size_t ua = underscores(a->name), ub = underscores(b->name);
	if (ub > ua)
		return 1;
	if (ua > ub)
		return 0;
	size_t na = strlen(a->name), nb = strlen(b->name);
	if (na > nb)
		return 1;
	if (na < nb)
		return 0;
	return 1;
}

static Elf_Scn *find_section(Elf *elf, const char *want, GElf_Shdr *out)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		if (!gelf_getshdr(scn, out))
			continue;
		const char *name = elf_strptr(elf, shstrndx, out->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

/* The symbols perf loads from one table (dso__load_sym_internal). */
static int read_table(Elf *elf, Elf_Scn *symscn, const GElf_Shdr *symsh,
		      uint16_t machine, struct cand **out, size_t *nout)
{
	Elf_Data *data = elf_getdata(symscn, NULL);
	if (!data || !symsh->sh_entsize)
		return 0;
	size_t nsyms = symsh->sh_size / symsh->sh_entsize;
	Elf_Data *xdata = NULL;
	for (Elf_Scn *s = NULL; (s = elf_nextscn(elf, s));) {
		GElf_Shdr sh;
		if (gelf_getshdr(s, &sh) && sh.sh_type == SHT_SYMTAB_SHNDX &&
		    elf_getscn(elf, sh.sh_link) == symscn)
			xdata = elf_getdata(s, NULL);
	}
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx))
		shstrndx = 0;

	struct cand *v = malloc((nsyms ? nsyms : 1) * sizeof(*v));
	if (!v)
		return PERFAN_ENOMEM;
	size_t n = 0;
	for (size_t i = 1; i < nsyms; i++) {
		GElf_Sym sym;
		Elf32_Word xndx;
		if (!gelf_getsymshndx(data, xdata, (int)i, &sym, &xndx))
			continue;
		size_t shndx = sym.st_shndx == SHN_XINDEX ? xndx : sym.st_shndx;
		int type = GELF_ST_TYPE(sym.st_info);
		int vis = GELF_ST_VISIBILITY(sym.st_other);
		if (!sym.st_name || shndx == SHN_UNDEF)
			continue;
		int is_func = type == STT_FUNC || type == STT_GNU_IFUNC;
		int is_obj = type == STT_OBJECT;
		int is_label = type == STT_NOTYPE && shndx != SHN_ABS &&
			       vis != STV_HIDDEN && vis != STV_INTERNAL;
		if (!is_func && !is_obj && !is_label)
			continue;
		const char *name = elf_strptr(elf, symsh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		if ((machine == EM_ARM || machine == EM_AARCH64) &&
		    name[0] == '$' && name[1] && strchr("adtx", name[1]) &&
		    (name[2] == '\0' || name[2] == '.'))
			continue; /* ARM mapping symbols */
		if (shndx >= SHN_LORESERVE && shndx != SHN_XINDEX)
			continue;
		Elf_Scn *sec = elf_getscn(elf, shndx);
		GElf_Shdr sh;
		if (!sec || !gelf_getshdr(sec, &sh) ||
		    !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (is_label) {
			const char *sn =
				shstrndx ? elf_strptr(elf, shstrndx, sh.sh_name)
					 : NULL;
			if (!sn || !strstr(sn, "text"))
				continue;
		}
		uint64_t start = sym.st_value;
		if (machine == EM_ARM && is_func)
			start &= ~(uint64_t)1; /* thumb bit */
		v[n].start = start;
		v[n].end = start + sym.st_size;
		if (v[n].end < start)
			v[n].end = UINT64_MAX;
		v[n].name = name;
		v[n].idx = (uint32_t)i;
		v[n].bind = GELF_ST_BIND(sym.st_info);
		v[n].zero = sym.st_size == 0;
		n++;
	}
	*out = v;
	*nout = n;
	return 0;
}

/* Sort V[0..N), where equal starts are in idx order, by (start, idx): a
 * stable radix sort by start (util/keysort), as glibc's merge sort through
 * cand_cmp was an eighth of a small recording's report; qsort if memory is
 * short. */
static void sort_by_start(struct cand *v, size_t n)
{
	if (n < 2)
		return;
	struct perfan__keyed *k = malloc(n * sizeof(*k));
	if (k) {
		for (size_t i = 0; i < n; i++) /* unsigned order as signed */
			k[i] = (struct perfan__keyed){
				(int64_t)(v[i].start ^ (UINT64_C(1) << 63)),
				(uint32_t)i};
		if (!perfan__keysort(k, n)) {
			perfan__keysort_apply(v, sizeof(*v), k, n);
			free(k);
			return;
		}
		free(k);
	}
	qsort(v, n, sizeof(*v), cand_cmp);
}

/* perf's symbols__fixup_end (not kallsyms) and symbols__fixup_duplicate. */
static size_t fixup(struct cand *v, size_t n)
{
	if (!n)
		return 0;
	sort_by_start(v, n);
	for (size_t i = 0; i + 1 < n; i++)
		if (v[i].end == v[i].start)
			v[i].end = v[i + 1].start;
	if (v[n - 1].end == v[n - 1].start)
		v[n - 1].end =
			((v[n - 1].start + 4095) & ~(uint64_t)4095) + 4096;
	size_t k = 0;
	for (size_t i = 1; i < n; i++) {
		if (v[i].start == v[k].start) {
			if (!choose_a(&v[k], &v[i]))
				v[k] = v[i];
		} else {
			v[++k] = v[i];
		}
	}
	return k + 1;
}

/* "name@plt" for each PLT slot, as perf 6.1's dso__synthesize_plt_symbols:
 * slots of .rela.plt (or .rel.plt) in order, laid out in .plt after its
 * header with the sizes perf assumes per machine; a relocation without a
 * symbol (IRELATIVE) gives "@plt". perf 6.1 names neither the header nor
 * .plt.sec (x86 IBT), whose stubs stay unnamed or go to a symbol whose
 * size perf extended over them. */
static int plt_symbols(struct perfan__symtab *st, Elf *elf, uint16_t machine,
		       struct cand **v, size_t *n, size_t *cap)
{
	GElf_Shdr relsh, pltsh;
	Elf_Scn *rel = find_section(elf, ".rela.plt", &relsh);
	if (!rel)
		rel = find_section(elf, ".rel.plt", &relsh);
	Elf_Scn *plt = find_section(elf, ".plt", &pltsh);
	if (!rel || !plt || relsh.sh_type == SHT_NOBITS ||
	    pltsh.sh_type == SHT_NOBITS || !relsh.sh_entsize ||
	    (relsh.sh_type != SHT_RELA && relsh.sh_type != SHT_REL))
		return 0;
	uint64_t hdr, ent;
	switch (machine) {
	case EM_ARM: hdr = 20, ent = 12; break;
	case EM_AARCH64: hdr = 32, ent = 16; break;
	case EM_SPARC: hdr = 48, ent = 12; break;
	case EM_SPARCV9: hdr = 128, ent = 32; break;
	default: hdr = ent = pltsh.sh_entsize; break;
	}
	if (!ent)
		return 0;
	/* perf reads the table the relocations name, and only if it is the
	 * .dynsym. */
	Elf_Scn *dynsym = elf_getscn(elf, relsh.sh_link);
	GElf_Shdr dynsh;
	if (!dynsym || !gelf_getshdr(dynsym, &dynsh) ||
	    dynsh.sh_type != SHT_DYNSYM || !dynsh.sh_entsize)
		return 0;
	Elf_Data *reldata = elf_getdata(rel, NULL);
	Elf_Data *symdata = elf_getdata(dynsym, NULL);
	if (!reldata || !symdata)
		return 0;
	size_t nrel = relsh.sh_size / relsh.sh_entsize;
	/* Slots past the end of .plt are not PLT code. */
	if (pltsh.sh_size < hdr)
		return 0;
	if (nrel > (pltsh.sh_size - hdr) / ent)
		nrel = (pltsh.sh_size - hdr) / ent;
	if (*n + nrel > *cap) {
		size_t c = *n + nrel;
		struct cand *nv = realloc(*v, (c ? c : 1) * sizeof(*nv));
		if (!nv)
			return PERFAN_ENOMEM;
		*v = nv;
		*cap = c;
	}
	uint64_t off = pltsh.sh_addr + hdr;
	for (size_t i = 0; i < nrel; i++, off += ent) {
		uint64_t info;
		if (relsh.sh_type == SHT_RELA) {
			GElf_Rela r;
			if (!gelf_getrela(reldata, (int)i, &r))
				continue;
			info = r.r_info;
		} else {
			GElf_Rel r;
			if (!gelf_getrel(reldata, (int)i, &r))
				continue;
			info = r.r_info;
		}
		GElf_Sym sym;
		const char *name = NULL;
		if (gelf_getsym(symdata, (int)GELF_R_SYM(info), &sym))
			name = elf_strptr(elf, dynsh.sh_link, sym.st_name);
		if (!name)
			name = "";
		size_t len = strlen(name);
		char *pn = perfan__arena_alloc(&st->arena, len + 5);
		if (!pn)
			return PERFAN_ENOMEM;
		memcpy(pn, name, len);
		memcpy(pn + len, "@plt", 5);
		(*v)[(*n)++] =
			(struct cand){off, off + ent, pn, 0, STB_GLOBAL, 0};
	}
	return 0;
}

static int load_segments(struct perfan__symtab *st, Elf *elf)
{
	size_t nph;
	if (elf_getphdrnum(elf, &nph) || !nph)
		return 0;
	st->segs = calloc(nph, sizeof(*st->segs));
	if (!st->segs)
		return PERFAN_ENOMEM;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		st->segs[st->nsegs++] = (struct perfan__seg){
			ph.p_offset, ph.p_vaddr, ph.p_filesz};
	}
	return 0;
}

/* The table perf reads from ELF: .symtab, else .dynsym (or, with
 * SYMTAB_ONLY, none). */
static Elf_Scn *symbol_table(Elf *elf, int symtab_only, GElf_Shdr *out)
{
	Elf_Scn *dyn = NULL;
	GElf_Shdr dynsh;
	for (Elf_Scn *s = NULL; (s = elf_nextscn(elf, s));) {
		GElf_Shdr h;
		if (!gelf_getshdr(s, &h) || h.sh_type == SHT_NOBITS)
			continue;
		if (h.sh_type == SHT_SYMTAB) {
			*out = h;
			return s;
		}
		if (h.sh_type == SHT_DYNSYM && !dyn) {
			dyn = s;
			dynsh = h;
		}
	}
	if (!dyn || symtab_only)
		return NULL;
	*out = dynsh;
	return dyn;
}

/* Append the symbols of E's table to *V. */
static int add_table(struct perfan__elf *e, int symtab_only, struct cand **v,
		     size_t *n)
{
	GElf_Shdr sh;
	Elf_Scn *scn = symbol_table(e->elf, symtab_only, &sh);
	struct cand *t = NULL;
	size_t nt = 0;
	if (!scn)
		return 0;
	int err = read_table(e->elf, scn, &sh, e->e_machine, &t, &nt);
	if (err)
		return err;
	if (!*v) {
		*v = t;
		*n = nt;
		return 0;
	}
	struct cand *nv = realloc(*v, (*n + nt + 1) * sizeof(*nv));
	if (!nv) {
		free(t);
		return PERFAN_ENOMEM;
	}
	/* After the first table's, so that equal symbols keep its order. */
	for (size_t i = 0; i < nt; i++) {
		nv[*n + i] = t[i];
		nv[*n + i].idx += UINT32_MAX / 2;
	}
	free(t);
	*v = nv;
	*n += nt;
	return 0;
}

int perfan__symtab_load(struct perfan__symtab *st, struct perfan__elf *runtime,
			struct perfan__elf *symsrc, struct perfan__elf *extra)
{
	memset(st, 0, sizeof(*st));
	if (!symsrc)
		symsrc = runtime;
	if (!symsrc)
		return PERFAN_ENOTFOUND;
	int err = load_segments(st, runtime ? runtime->elf : symsrc->elf);
	struct cand *v = NULL;
	size_t n = 0;
	if (!err)
		err = add_table(symsrc, 0, &v, &n);
	if (!err && extra)
		err = add_table(extra, 1, &v, &n);
	if (err) {
		free(v);
		return err;
	}
	n = fixup(v, n);
	size_t cap = n;
	size_t before = n;
	if (runtime)
		err = plt_symbols(st, runtime->elf, runtime->e_machine, &v, &n,
				  &cap);
	if (!err && n > before) {
		/* PLT slots come after the table, as in perf: a slot does
		 * not displace a symbol already at its address. */
		for (size_t i = before; i < n; i++)
			v[i].idx = UINT32_MAX;
		sort_by_start(v, n);
		size_t k = 0;
		for (size_t i = 1; i < n; i++)
			if (v[i].start != v[k].start)
				v[++k] = v[i];
		n = k + 1;
	}
	if (err) {
		free(v);
		return err;
	}
	st->syms = malloc((n ? n : 1) * sizeof(*st->syms));
	if (!st->syms) {
		free(v);
		return PERFAN_ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		st->syms[i] =
			(struct perfan__sym){v[i].start, v[i].end, v[i].name};
	st->n = n;
	free(v);
	return 0;
}

void perfan__symtab_free(struct perfan__symtab *st)
{
	free(st->syms);
	free(st->segs);
	perfan__arena_free(&st->arena);
	memset(st, 0, sizeof(*st));
}

uint64_t perfan__symtab_off2addr(const struct perfan__symtab *st, uint64_t off)
{
	const struct perfan__seg *best = NULL;
	for (size_t i = 0; i < st->nsegs; i++) {
		const struct perfan__seg *s = &st->segs[i];
		if (off >= s->offset && off - s->offset < s->filesz)
			return off - s->offset + s->vaddr;
		if (off >= s->offset && (!best || s->offset > best->offset))
			best = s;
	}
	return best ? off - best->offset + best->vaddr : off;
}

const struct perfan__sym *perfan__symtab_find(const struct perfan__symtab *st,
					      uint64_t addr)
{
	/* The last symbol starting at or below ADDR. */
	size_t lo = perfan__count_le(st->syms, st->n, sizeof(*st->syms),
				     offsetof(struct perfan__sym, start), addr);
	/* Symbols can nest (a label inside a function): look back a few. */
	for (size_t i = lo, k = 0; i > 0 && k < 8; i--, k++)
		if (addr < st->syms[i - 1].end)
			return &st->syms[i - 1];
	return NULL;
}
