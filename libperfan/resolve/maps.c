/* resolve/maps.c: address spaces as sorted lists of maps (MMAP/MMAP2), with
 * overlaps replaced the way the kernel replaces them, shared copy-on-write
 * across fork; and the kernel's KSYMBOL symbols (BPF, trampolines). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "resolve/symbols.h"
#include "util/grow.h"
#include "util/search.h"

/* A number no list of maps had before, in any stream of the process. */
static uint64_t new_gen(void)
{
	static uint64_t gens;
	return __atomic_add_fetch(&gens, 1, __ATOMIC_RELAXED);
}

struct perfan__maps *perfan__maps_new(void)
{
	struct perfan__maps *m = calloc(1, sizeof(*m));
	if (m) {
		m->refs = 1;
		m->gen = new_gen();
	}
	return m;
}

struct perfan__maps *perfan__maps_get(struct perfan__maps *m)
{
	if (m)
		m->refs++;
	return m;
}

void perfan__maps_put(struct perfan__maps *m)
{
	if (!m || --m->refs)
		return;
	free(m->v);
	free(m);
}

/* Make *MAPS private to its holder before a change. */
static struct perfan__maps *own(struct perfan__maps **maps)
{
	struct perfan__maps *m = *maps;
	if (m->refs == 1)
		return m;
	struct perfan__maps *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->refs = 1;
	c->gen = new_gen();
	if (m->n) {
		c->v = malloc(m->n * sizeof(*c->v));
		if (!c->v) {
			free(c);
			return NULL;
		}
		memcpy(c->v, m->v, m->n * sizeof(*c->v));
		c->n = c->cap = m->n;
	}
	m->refs--;
	*maps = c;
	return c;
}

/* Index of the first map whose end is above ADDR (n if none). */
static size_t first_ending_after(const struct perfan__maps *m, uint64_t addr)
{
	return perfan__count_le(m->v, m->n, sizeof(*m->v),
				offsetof(struct perfan__map, end), addr);
}

int perfan__maps_insert(struct perfan__maps **maps,
			const struct perfan__map *nm)
{
	if (nm->start >= nm->end)
		return 0;
	struct perfan__maps *m = own(maps);
	if (!m)
		return PERFAN_ENOMEM;

	/* Maps i..j-1 overlap the new one. */
	size_t i = first_ending_after(m, nm->start);
	size_t j = i;
	while (j < m->n && m->v[j].start < nm->end)
		j++;

	struct perfan__map repl[3];
	size_t nr = 0;
	if (i < j && m->v[i].start < nm->start) {
		repl[nr] = m->v[i];
		repl[nr].end = nm->start;
		nr++;
	}
	repl[nr++] = *nm;
	if (i < j && m->v[j - 1].end > nm->end) {
		struct perfan__map r = m->v[j - 1];
		if (r.dso->kind != PERFAN__DSO_ANON &&
		    r.dso->kind != PERFAN__DSO_NODSO)
			r.pgoff += nm->end - r.start;
		r.start = nm->end;
		repl[nr++] = r;
	}

	size_t n = m->n - (j - i) + nr;
	if (perfan__grow((void **)&m->v, &m->cap, n, sizeof(*m->v)))
		return PERFAN_ENOMEM;
	memmove(&m->v[i + nr], &m->v[j], (m->n - j) * sizeof(*m->v));
	memcpy(&m->v[i], repl, nr * sizeof(*repl));
	m->n = n;
	m->gen = new_gen();
	return 0;
}

const struct perfan__map *perfan__maps_find(const struct perfan__maps *m,
					    uint64_t addr)
{
	if (!m)
		return NULL;
	size_t i = first_ending_after(m, addr);
	if (i < m->n && m->v[i].start <= addr)
		return &m->v[i];
	return NULL;
}

const struct perfan__map *perfan__proc_map(struct perfan__map_cache *c,
					   const struct perfan__proc *p,
					   uint64_t addr)
{
	if (!p)
		return NULL;
	const struct perfan__maps *maps = p->maps;
	const struct perfan__map *m = c->map;
	/* the same generation: the same maps, unchanged, so M still
	 * points into them */
	if (m && maps && c->gen == maps->gen && addr >= m->start &&
	    addr < m->end)
		return m;
	m = perfan__maps_find(maps, addr);
	if (m) {
		c->map = m;
		c->gen = maps->gen;
		return m;
	}
	return perfan__maps_find(p->old_maps, addr);
}

/* ---- KSYMBOL ------------------------------------------------------------ */

static size_t ksym_first_ending_after(const struct perfan__ksymbols *k,
				      uint64_t addr)
{
	return perfan__count_le(k->v, k->n, sizeof(*k->v),
				offsetof(struct perfan__ksymbol, end), addr);
}

int perfan__ksymbols_add(struct perfan__ksymbols *k, uint64_t addr,
			 uint64_t len, const char *name)
{
	uint64_t end = addr + len;
	if (!len || end < addr)
		return 0;
	if (perfan__grow((void **)&k->v, &k->cap, k->n + 1, sizeof(*k->v)))
		return PERFAN_ENOMEM;
	char *copy = strdup(name);
	if (!copy)
		return PERFAN_ENOMEM;
	/* A new symbol replaces whatever it overlaps (a reused address). */
	size_t i = ksym_first_ending_after(k, addr);
	size_t j = i;
	while (j < k->n && k->v[j].start < end)
		free(k->v[j++].name);
	memmove(&k->v[i + 1], &k->v[j], (k->n - j) * sizeof(*k->v));
	k->v[i] = (struct perfan__ksymbol){addr, end, copy};
	k->n = k->n - (j - i) + 1;
	return 0;
}

void perfan__ksymbols_del(struct perfan__ksymbols *k, uint64_t addr)
{
	size_t i = ksym_first_ending_after(k, addr);
	if (i < k->n && k->v[i].start == addr) {
		free(k->v[i].name);
		memmove(&k->v[i], &k->v[i + 1], (k->n - i - 1) * sizeof(*k->v));
		k->n--;
	}
}

const struct perfan__ksymbol *
perfan__ksymbols_find(const struct perfan__ksymbols *k, uint64_t addr)
{
	size_t i = ksym_first_ending_after(k, addr);
	if (i < k->n && k->v[i].start <= addr)
		return &k->v[i];
	return NULL;
}

void perfan__ksymbols_free(struct perfan__ksymbols *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i].name);
	free(k->v);
	memset(k, 0, sizeof(*k));
}
