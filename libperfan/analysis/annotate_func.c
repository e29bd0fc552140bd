/* analysis/annotate_func.c: one function annotated: its instructions with
 * their counts, jump targets and loops, its source lines with their sums
 * and inline call sites, and its hottest lines and instructions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/annotate_internal.h"
#include "resolve/funcinfo.h"
#include "util/cmp.h"
#include "util/demangle.h"
#include "util/error.h"
#include "util/log.h"

#define HOT_MAX 5

static char *keep(perfan_annotate *a, const char *s)
{
	return s ? perfan__arena_strndup(&a->arena, s, SIZE_MAX) : NULL;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* The instruction holding ADDR: the last one at or below it. */
static size_t insn_at(const struct perfan_annotate_insn *v, size_t n,
		      uint64_t addr)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : 0;
}

static uint32_t flags_of(const struct perfan__insn *in)
{
	switch (in->flow) {
	case PERFAN__FLOW_JUMP:
	case PERFAN__FLOW_CJUMP:
	case PERFAN__FLOW_INDIRECT: return PERFAN_INSN_BRANCH;
	case PERFAN__FLOW_CALL: return PERFAN_INSN_CALL;
	case PERFAN__FLOW_RET: return PERFAN_INSN_RET;
	case PERFAN__FLOW_BAD: return PERFAN_INSN_BAD;
	default: return 0;
	}
}

static int insns_of(perfan_annotate *a, struct perfan_annotate_func *f,
		    const struct perfan__func *fi,
		    struct perfan_annotate_insn **out)
{
	struct perfan_annotate_insn *v = perfan__arena_alloc(
		&a->arena, (fi->n ? fi->n : 1) * sizeof(*v));
	if (!v)
		return PERFAN_ENOMEM;
	for (size_t i = 0; i < fi->n; i++) {
		const struct perfan__insn *in = &fi->insns[i].in;
		v[i].addr = in->addr;
		v[i].size = in->size;
		v[i].flags = flags_of(in);
		v[i].target = in->has_target ? in->target : 0;
		v[i].line = -1;
		if (!(v[i].text = keep(a, in->text)))
			return PERFAN_ENOMEM;
	}
	*out = v;
	f->insns = v;
	f->nr_insns = fi->n;
	return 0;
}

/* Branches inside the function: targets, and backward ones as loops. */
static int loops_of(perfan_annotate *a, struct perfan_annotate_func *f,
		    struct perfan_annotate_insn *v, size_t n)
{
	size_t nl = 0;
	for (size_t i = 0; i < n; i++)
		if ((v[i].flags & PERFAN_INSN_BRANCH) && v[i].target &&
		    v[i].target <= v[i].addr && v[i].target >= f->start)
			nl++;
	struct perfan_annotate_loop *lp =
		perfan__arena_alloc(&a->arena, (nl ? nl : 1) * sizeof(*lp));
	if (!lp)
		return PERFAN_ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t t = v[i].target;
		if (!(v[i].flags & PERFAN_INSN_BRANCH) || !t || t < f->start ||
		    t - f->start >= f->size)
			continue;
		size_t j = insn_at(v, n, t);
		if (v[j].addr != t)
			continue; /* into the middle of an instruction */
		v[j].flags |= PERFAN_INSN_JUMP_TARGET;
		if (t > v[i].addr)
			continue;
		v[j].flags |= PERFAN_INSN_LOOP_HEAD;
		v[i].flags |= PERFAN_INSN_BACK_JUMP;
		struct perfan_annotate_loop *l = &lp[k++];
		l->head = t;
		l->back_jump = v[i].addr;
		for (size_t m = j; m <= i; m++) {
			l->samples += v[m].samples;
			l->period += v[m].period;
		}
		l->local_percent = pct(l->period, f->period);
	}
	f->loops = lp;
	f->nr_loops = k;
	return 0;
}

/* (file, line, first instruction) for grouping instructions by line. */
struct lkey {
	const char *file;
	uint32_t line;
	size_t insn;
};

static int by_file_line(const void *x, const void *y)
{
	const struct lkey *a = x, *b = y;
	int c = strcmp(a->file, b->file);
	if (!c)
		c = perfan__cmp_u64(a->line, b->line);
	return c ? c : perfan__cmp_u64(a->insn, b->insn);
}

static int by_first_insn(const void *x, const void *y)
{
	const struct lkey *a = x, *b = y;
	return (a->insn > b->insn) - (a->insn < b->insn);
}

static int inlined_of(perfan_annotate *a, struct perfan_annotate_line *l,
		      const struct perfan__func *fi,
		      const struct perfan__func_insn *in)
{
	if (!in->inl_n)
		return 0;
	struct perfan_annotate_inline *v =
		perfan__arena_alloc(&a->arena, in->inl_n * sizeof(*v));
	if (!v)
		return PERFAN_ENOMEM;
	for (uint32_t k = 0; k < in->inl_n; k++) {
		const struct perfan__inlined *e = fi->chain[in->inl_first + k];
		char *dm = e->name && !perfan__stream_ctx(a->s)->o.no_demangle
				   ? perfan__demangle(e->name)
				   : NULL;
		v[k].function = keep(a, dm ? dm : e->name);
		free(dm);
		v[k].file = keep(a, e->call_file);
		v[k].line = e->call_line;
		if ((e->name && !v[k].function) || (e->call_file && !v[k].file))
			return PERFAN_ENOMEM;
	}
	l->inlined = v;
	l->nr_inlined = in->inl_n;
	return 0;
}

static int lines_of(perfan_annotate *a, struct perfan_annotate_func *f,
		    const struct perfan__func *fi,
		    struct perfan_annotate_insn *v)
{
	size_t n = 0;
	struct lkey *k = malloc((fi->n ? fi->n : 1) * sizeof(*k));
	if (!k)
		return PERFAN_ENOMEM;
	for (size_t i = 0; i < fi->n; i++)
		if (fi->insns[i].file)
			k[n++] = (struct lkey){fi->insns[i].file,
					       fi->insns[i].line, i};
	qsort(k, n, sizeof(*k), by_file_line);
	/* One key per line, at its first instruction; then in code order. */
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (!u || strcmp(k[u - 1].file, k[i].file) ||
		    k[u - 1].line != k[i].line)
			k[u++] = k[i];
	qsort(k, u, sizeof(*k), by_first_insn);
	struct perfan_annotate_line *lines =
		perfan__arena_alloc(&a->arena, (u ? u : 1) * sizeof(*lines));
	int err = lines ? 0 : PERFAN_ENOMEM;
	for (size_t i = 0; i < u && !err; i++) {
		struct perfan_annotate_line *l = &lines[i];
		l->file = keep(a, k[i].file);
		l->line = k[i].line;
		l->text = keep(a, perfan__source_line(&a->src, k[i].file,
						      k[i].line));
		if (!l->file)
			err = PERFAN_ENOMEM;
		else
			err = inlined_of(a, l, fi, &fi->insns[k[i].insn]);
	}
	/* Each instruction's line index: a binary search over the lines
	 * sorted by (file, line) again, carrying their index. */
	if (!err) {
		struct lkey *s = malloc((u ? u : 1) * sizeof(*s));
		if (!s) {
			err = PERFAN_ENOMEM;
		} else {
			for (size_t i = 0; i < u; i++)
				s[i] = (struct lkey){k[i].file, k[i].line, i};
			qsort(s, u, sizeof(*s), by_file_line);
			for (size_t i = 0; i < fi->n; i++) {
				if (!fi->insns[i].file)
					continue;
				struct lkey want = {fi->insns[i].file,
						    fi->insns[i].line, 0};
				size_t lo = 0, hi = u;
				while (lo < hi) {
					size_t mid = lo + (hi - lo) / 2;
					int c = strcmp(s[mid].file, want.file);
					if (c < 0 ||
					    (!c && s[mid].line < want.line))
						lo = mid + 1;
					else
						hi = mid;
				}
				size_t li = s[lo].insn;
				v[i].line = (int64_t)li;
				lines[li].samples += v[i].samples;
				lines[li].period += v[i].period;
			}
			free(s);
		}
	}
	free(k);
	if (err)
		return err;
	for (size_t i = 0; i < u; i++) {
		lines[i].local_percent = pct(lines[i].period, f->period);
		lines[i].global_percent =
			pct(lines[i].period, a->r.total_period);
	}
	f->lines = lines;
	f->nr_lines = u;
	return 0;
}

/* The indices of the HOT_MAX largest PERIODs above 0, largest first (the
 * lower index first among equals). */
static int hottest(perfan_annotate *a, const uint64_t *period, size_t n,
		   size_t **out, size_t *nout)
{
	size_t *h = perfan__arena_alloc(&a->arena, HOT_MAX * sizeof(*h));
	if (!h)
		return PERFAN_ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!period[i])
			continue;
		size_t at = k;
		while (at > 0 && period[h[at - 1]] < period[i])
			at--;
		if (at >= HOT_MAX)
			continue;
		if (k < HOT_MAX)
			k++;
		memmove(h + at + 1, h + at, (k - 1 - at) * sizeof(*h));
		h[at] = i;
	}
	*out = h;
	*nout = k;
	return 0;
}

static int hot_of(perfan_annotate *a, struct perfan_annotate_func *f)
{
	size_t m = f->nr_insns > f->nr_lines ? f->nr_insns : f->nr_lines;
	uint64_t *p = malloc((m ? m : 1) * sizeof(*p));
	if (!p)
		return PERFAN_ENOMEM;
	size_t *h;
	int err;
	for (size_t i = 0; i < f->nr_insns; i++)
		p[i] = f->insns[i].period;
	err = hottest(a, p, f->nr_insns, &h, &f->nr_hot_insns);
	f->hot_insns = h;
	for (size_t i = 0; !err && i < f->nr_lines; i++)
		p[i] = f->lines[i].period;
	if (!err)
		err = hottest(a, p, f->nr_lines, &h, &f->nr_hot_lines);
	f->hot_lines = h;
	free(p);
	return err;
}

static int describe_dso(perfan_annotate *a, struct perfan_annotate_func *f,
			const perfan_dso *dso)
{
	struct perfan_stream_dso d;
	perfan_stream_dso(a->s, dso, &d);
	f->dso = d.short_name;
	f->dso_path = d.path;
	f->binary = d.binary;
	f->debug_file = d.debug_file;
	if (d.build_id_size) {
		char *hex =
			perfan__arena_alloc(&a->arena, 2 * d.build_id_size + 1);
		if (!hex)
			return PERFAN_ENOMEM;
		for (size_t i = 0; i < d.build_id_size; i++)
			snprintf(hex + 2 * i, 3, "%02x", d.build_id[i]);
		f->build_id = hex;
	}
	return 0;
}

int perfan__annotate_func(perfan_annotate *a, struct perfan_annotate_func *f,
			  const perfan_dso *dso, const struct perfan__hcount *c,
			  size_t n)
{
	if (describe_dso(a, f, dso))
		return perfan__nomem(NULL);
	struct perfan__func fi;
	unsigned flags =
		(a->o.flags & PERFAN_ANNOTATE_INTEL) ? PERFAN__DISASM_INTEL : 0;
	int err = perfan__func_load(dso, f->start, f->size, NULL, flags, &fi);
	if (err == PERFAN_ENOMEM)
		return err;
	if (err) {
		f->status = err == PERFAN_EUNSUPPORTED
				    ? PERFAN_ANNOTATE_NO_DECODER
				    : PERFAN_ANNOTATE_NO_BINARY;
		f->status_text = keep(a, perfan_error_last());
		return f->status_text ? 0 : PERFAN_ENOMEM;
	}
	f->has_lines = fi.have_lines;
	struct perfan_annotate_insn *v;
	err = insns_of(a, f, &fi, &v);
	for (size_t j = 0; !err && j < n && fi.n; j++) {
		struct perfan_annotate_insn *in =
			&v[insn_at(v, fi.n, c[j].addr)];
		in->samples += c[j].samples;
		in->period += c[j].period;
	}
	for (size_t i = 0; !err && i < fi.n; i++) {
		v[i].local_percent = pct(v[i].period, f->period);
		v[i].global_percent = pct(v[i].period, a->r.total_period);
	}
	if (!err)
		err = loops_of(a, f, v, fi.n);
	if (!err)
		err = lines_of(a, f, &fi, v);
	if (!err)
		err = hot_of(a, f);
	perfan__func_free(&fi);
	return err ? perfan__nomem(NULL) : 0;
}
