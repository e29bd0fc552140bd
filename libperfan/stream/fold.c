/* stream/fold.c: perfan_resolve_perfdata, one fold over the stream:
 * each sample's frames, root first under its process frame, added to the
 * profile in its event's column. The stream interns its frames straight
 * into the profile (perfan__stream_open_into), as they are met, so that
 * the fold costs no lookup per frame and frame ids are what they were
 * before the stream existed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/stream.h>

#include "profile/model.h"
#include "resolve/symbols.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/prefault.h"

/* Leaves by (memo serial, root frame), beyond the PERFAN__STREAM_KEEP
 * kept in each memo entry (known_leaf): direct-mapped, a miss costs one
 * walk down the trie. A slot for every LEAF_BYTES of records (a sample
 * with a callchain takes more), from 1 << LEAF_MIN_BITS to 1 << LEAF_BITS
 * of them: the 1 MiB of the largest costs a short recording more to zero
 * than the rest of its reading. */
#define LEAF_BITS 16
#define LEAF_MIN_BITS 10
#define LEAF_BYTES 128

struct leaf_slot {
	uint64_t serial; /* 0: empty */
	uint32_t root, node;
};

struct fold {
	perfan_profile *p;
	const struct perfan_resolve_opts *o;
	int *cols; /* per event index: column + 1 (0: not yet added) */
	size_t ncols;
	perfan_frame_id *stack; /* root first */
	size_t capstack;
	struct leaf_slot *leaves; /* 1 << leaf_bits, or NULL */
	unsigned leaf_bits;
	int no_leaves; /* no memory for them */
};

/* The process frame at the root of T's stacks, cached in T until its comm
 * changes. */
static int root_frame(struct fold *f, struct perfan__thread *t,
		      perfan_frame_id *out)
{
	if (t->root_valid) {
		*out = t->root_frame;
		return 0;
	}
	int err = perfan_profile_process_frame(f->p, out, f->o->root, t->comm,
					       t->pid, t->tid);
	if (!err) {
		t->root_frame = *out;
		t->root_valid = 1;
	}
	return err;
}

/* What an event's samples weigh, from its attribute: CPU time for the
 * CPU clocks (software cpu-clock and task-clock, hardware cycles, whose
 * high bits name the PMU of a hybrid CPU), a count for every other. */
static enum perfan_column_kind event_kind(const struct perfan_attr *a)
{
	enum {
		HARDWARE = 0,
		SOFTWARE = 1,
		CYCLES = 0,
		CPU_CLOCK = 0,
		TASK_CLOCK = 1
	};
	uint64_t config = a->config & 0xffffffffu;
	if (a->type == SOFTWARE &&
	    (config == CPU_CLOCK || config == TASK_CLOCK))
		return PERFAN_COLUMN_CPU;
	if (a->type == HARDWARE && config == CYCLES)
		return PERFAN_COLUMN_CPU;
	return PERFAN_COLUMN_COUNT;
}

static int column(struct fold *f, const struct perfan_event *ev)
{
	size_t i = ev->index;
	if (i >= f->ncols) {
		size_t n = i + 8;
		int *c = realloc(f->cols, n * sizeof(*c));
		if (!c)
			return PERFAN_ENOMEM;
		memset(c + f->ncols, 0, (n - f->ncols) * sizeof(*c));
		f->cols = c;
		f->ncols = n;
	}
	if (!f->cols[i]) {
		const char *unit = f->o->weight == PERFAN_WEIGHT_PERIOD
					   ? "period"
					   : "samples";
		int c = perfan_profile_add_column(
			f->p, ev->name ? ev->name : "unknown", unit);
		if (c < 0)
			return c;
		perfan_profile_set_column_kind(f->p, (size_t)c,
					       event_kind(&ev->attr));
		f->cols[i] = c + 1;
	}
	return f->cols[i] - 1;
}

/* The table, made when a first leaf falls out of a memo entry's words:
 * 0, or without memory for it (each such leaf is then walked to again). */
static int have_leaves(struct fold *f)
{
	if (f->leaves || f->no_leaves)
		return f->leaves != NULL;
	size_t n = (size_t)1 << f->leaf_bits;
	f->leaves = calloc(n, sizeof(*f->leaves));
	f->no_leaves = !f->leaves;
	perfan__prefault(f->leaves, n * sizeof(*f->leaves));
	return f->leaves != NULL;
}

/* The slot of SERIAL's ids under ROOT in the table. */
static struct leaf_slot *leaf_slot(struct fold *f, uint64_t serial,
				   uint32_t root)
{
	uint64_t h = perfan__hash_u64(serial ^ ((uint64_t)root << 40));
	return &f->leaves[h >> (64 - f->leaf_bits)];
}

/* The leaf the last sample's ids reached under ROOT before, or
 * UINT32_MAX. First the memo entry's words (perfan__stream_memo_keep, in
 * cache: the stream has just read it), a leaf + 1 under a root each, the
 * last one kept first, 0 for none; then, only when they are all taken,
 * the table, which holds the ones they gave up. */
static uint32_t known_leaf(struct fold *f, perfan_stream *s,
			   const uint64_t *keep, uint32_t root)
{
	if (!keep)
		return UINT32_MAX;
	for (size_t i = 0; i < PERFAN__STREAM_KEEP && keep[i]; i++)
		if ((uint32_t)(keep[i] >> 32) == root)
			return (uint32_t)keep[i] - 1;
	if (!keep[PERFAN__STREAM_KEEP - 1] || !f->leaves)
		return UINT32_MAX;
	/* the memo's serial names the ids and the column; the root frame
	 * the thread */
	uint64_t serial = perfan__stream_memo_serial(s);
	const struct leaf_slot *sl = leaf_slot(f, serial, root);
	return sl->serial == serial && sl->root == root ? sl->node : UINT32_MAX;
}

/* LEAF for the last sample's ids under ROOT, first in its memo entry's
 * words; one that falls out of them goes to the table. */
static void keep_leaf(struct fold *f, perfan_stream *s, uint64_t *keep,
		      uint32_t root, perfan_node_id leaf)
{
	if (!keep || leaf >= UINT32_MAX - 1)
		return;
	uint64_t word = (uint64_t)root << 32 | (leaf + 1);
	size_t j = 0;
	while (j < PERFAN__STREAM_KEEP - 1 && keep[j] && keep[j] != word)
		j++;
	if (keep[j] && keep[j] != word && have_leaves(f)) {
		uint64_t serial = perfan__stream_memo_serial(s);
		uint32_t r = (uint32_t)(keep[j] >> 32);
		*leaf_slot(f, serial, r) =
			(struct leaf_slot){serial, r, (uint32_t)keep[j] - 1};
	}
	memmove(keep + 1, keep, j * sizeof(*keep));
	keep[0] = word;
}

static int fold_sample(struct fold *f, perfan_stream *s,
		       const struct perfan_stream_event *ev)
{
	const struct perfan_stream_sample *sm = &ev->u.sample;
	int col = column(f, ev->event);
	if (col < 0)
		return col;
	int with_root = f->o->root != PERFAN_ROOT_NONE;
	uint32_t root = UINT32_MAX;
	if (with_root) {
		int err = root_frame(f, perfan__stream_thread(s), &root);
		if (err)
			return err;
	}
	uint64_t weight = f->o->weight == PERFAN_WEIGHT_PERIOD ? sm->period : 1;
	struct perfan_sample_meta meta = {ev->time, ev->pid, ev->tid, ev->cpu};
	uint64_t *keep = perfan__stream_memo_keep(s);
	uint32_t node = known_leaf(f, s, keep, root);
	if (node != UINT32_MAX) {
		keep_leaf(f, s, keep, root, node);
		return perfan__profile_add_at(f->p, node, (size_t)col, weight,
					      &meta);
	}

	size_t n = sm->nr_frames + 1;
	if (perfan__grow((void **)&f->stack, &f->capstack, n,
			 sizeof(*f->stack)))
		return PERFAN_ENOMEM;
	/* Leaf first in the stream, root first in the trie. */
	perfan_frame_id *frames = f->stack + 1;
	const perfan_frame_id *ids = perfan__stream_frame_ids(s);
	n = sm->nr_frames;
	for (size_t i = 0; i < n; i++)
		frames[n - 1 - i] = ids[i];
	if (with_root) {
		f->stack[0] = root;
		frames = f->stack;
		n++;
	}
	perfan_node_id leaf;
	int err = perfan_profile_add(f->p, frames, n, (size_t)col, weight,
				     &meta, &leaf);
	if (!err)
		keep_leaf(f, s, keep, root, leaf);
	return err;
}

/* The leaf slots for PD's records, by the bytes its header says they take
 * (a compressed recording's times 32, a stream's the most). */
static unsigned leaf_bits(const perfan_perfdata *pd)
{
	const struct perfan_file_info *fi = perfan_perfdata_info(pd);
	uint64_t bytes = fi->data_size ? fi->data_size : fi->file_size;
	uint64_t word = fi->feature_bits[PERFAN_FEAT_COMPRESSED / 64];
	if ((word >> (PERFAN_FEAT_COMPRESSED % 64)) & 1)
		bytes *= 32;
	if (fi->pipe_mode || !bytes)
		return LEAF_BITS;
	unsigned b = LEAF_MIN_BITS;
	while (b < LEAF_BITS && ((uint64_t)LEAF_BYTES << b) < bytes)
		b++;
	return b;
}

int perfan_resolve_perfdata(perfan_profile *p, perfan_perfdata *pd,
			    const struct perfan_resolve_opts *opts,
			    struct perfan_resolve_stats *stats)
{
	if (!p || !pd)
		return perfan__err_null(__func__, p ? "perfdata" : "profile");
	perfan_stream *s = NULL;
	int err = perfan__stream_open_into(&s, pd, opts, p);
	if (err) {
		if (stats)
			memset(stats, 0, sizeof(*stats));
		return err;
	}
	struct perfan_resolve_opts o = PERFAN_RESOLVE_OPTS_INIT;
	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	struct fold f = {.p = p, .o = &o, .leaf_bits = leaf_bits(pd)};
	const struct perfan_stream_event *ev;
	while (!(err = perfan_stream_next(s, &ev))) {
		if (ev->type != PERFAN_STREAM_SAMPLE)
			continue;
		err = fold_sample(&f, s, ev);
		if (err == PERFAN_ENOMEM) {
			perfan__err(err,
				    "%s: out of memory resolving the record at "
				    "offset %llu",
				    perfan_perfdata_name(pd),
				    (unsigned long long)ev->record->offset);
			break;
		}
		if (err)
			break;
	}
	if (err == PERFAN_ITEROVER)
		err = 0;
	/* kept after a damaged record too, with the stacks read before */
	if (s && perfan_stream_main_module(s)) {
		int merr = perfan_profile_set_main_module(
			p, perfan_stream_main_module(s));
		if (!err)
			err = merr;
	}
	if (stats)
		*stats = *perfan_stream_stats(s);
	perfan_stream_free(s);
	free(f.cols);
	free(f.stack);
	free(f.leaves);
	return err;
}
