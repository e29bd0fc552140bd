/* sources/perfdata/perfdata.c: the reader's public API: open, pull records (from the
 * prefetch queue, the decompressor or the input), apply the records that
 * describe the stream (attrs, features, names), and deliver in time order. */
#include "sources/perfdata/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Largest payload we accept after an AUXTRACE or TRACING_DATA record. */
#define MAX_PAYLOAD ((uint64_t)1 << 34)
/* Pages of a mapped file behind the reading position are dropped every so
 * often, so memory does not grow with the file. */
#define DROP_STEP ((uint64_t)64 << 20)

uint64_t perfan_perfdata_offset(const perfan_perfdata *pd)
{
	if (pd->pipe)
		return perfan__pipe_offset(pd);
	return pd->pos;
}

const char *perfan_perfdata_name(const perfan_perfdata *pd)
{
	return pd->name;
}

const struct perfan_file_info *perfan_perfdata_info(const perfan_perfdata *pd)
{
	return &pd->info;
}

size_t perfan_perfdata_nr_events(const perfan_perfdata *pd)
{
	return pd->nr_events;
}

const struct perfan_event *perfan_perfdata_event(const perfan_perfdata *pd,
						 size_t idx)
{
	return idx < pd->nr_events ? &pd->events[idx] : NULL;
}

const struct perfan_features *
perfan_perfdata_features(const perfan_perfdata *pd)
{
	return &pd->feat;
}

void perfan_perfdata_free(perfan_perfdata *pd)
{
	if (!pd)
		return;
	perfan__pipe_free(pd);
	perfan__source_close(&pd->src);
	perfan__events_free(pd);
	perfan__tracing_free(pd);
	perfan__order_free(&pd->order);
	perfan__order_free(&pd->prefetch);
	perfan__decomp_free(pd->dc);
	perfan__scratch_reset(pd);
	free(pd->scratch);
	free(pd->pending_msg);
	perfan__arena_free(&pd->arena);
	free(pd->name);
	free(pd);
}

int perfan_perfdata_open_fd(perfan_perfdata **out, int fd, const char *name,
			    const struct perfan_perfdata_opts *opts)
{
	*out = NULL;
	perfan__err_clear();
	struct perfan_perfdata *pd = calloc(1, sizeof(*pd));
	if (!pd)
		return perfan__nomem(NULL);
	pd->name = strdup(name ? name : "(stream)");
	if (!pd->name) {
		free(pd);
		return perfan__nomem(NULL);
	}
	if (opts) {
		size_t n = opts->sz < sizeof(pd->opts) ? opts->sz
						       : sizeof(pd->opts);
		memcpy(&pd->opts, opts, n);
	}
	pd->opts.sz = sizeof(pd->opts);
	int rc = perfan__source_open_fd(&pd->src, fd, pd->name);
	if (!rc)
		rc = perfan__header_read(pd);
	if (rc) {
		perfan_perfdata_free(pd);
		return rc;
	}
	*out = pd;
	return 0;
}

int perfan_perfdata_open(perfan_perfdata **out, const char *path,
			 const struct perfan_perfdata_opts *opts)
{
	*out = NULL;
	if (!path)
		return perfan__err(PERFAN_EINVAL, "no path given");
	if (!strcmp(path, "-"))
		return perfan_perfdata_open_fd(out, 0, "<stdin>", opts);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return perfan__err(errno == ENOENT ? PERFAN_ENOTFOUND
						   : PERFAN_EIO,
				   "%s: %s", path, strerror(errno));
	int rc = perfan_perfdata_open_fd(out, fd, path, opts);
	if (rc) {
		close(fd);
		return rc;
	}
	(*out)->src.own_fd = 1;
	return 0;
}

static int fail(struct perfan_perfdata *pd, int rc)
{
	pd->err = rc;
	return rc;
}

/* Bytes that follow a record outside its header.size. */
static int payload_size(struct perfan_perfdata *pd, const uint8_t *h,
			uint32_t type, uint32_t size, uint64_t off,
			uint64_t *out)
{
	*out = 0;
	if (type == PERFAN_REC_AUXTRACE && size >= 16)
		*out = perfan__u64(h + 8, pd->swap);
	else if (type == PERFAN_REC_HEADER_TRACING_DATA && size >= 12)
		*out = (perfan__u32(h + 8, pd->swap) + 7ull) & ~7ull;
	if (*out > MAX_PAYLOAD)
		return PD_ERR(pd, PERFAN_EFORMAT, off,
			      "%s record announces %llu bytes of payload",
			      perfan_record_type_name(type),
			      (unsigned long long)*out);
	return 0;
}

/* The end of a recording that perf record never finished (header.c): a
 * record that the cut split is not data, just the last bytes perf wrote.
 * (A file shorter than its header says lost bytes that perf did write:
 * that stays an error, after the records before it.) */
static int cut_end(struct perfan_perfdata *pd, uint64_t off, uint64_t have,
		   uint64_t need)
{
	perfan__log(pd, PERFAN_LOG_WARN,
		    "%s: offset %llu (0x%llx): the recording was cut inside "
		    "this record (%llu of its %llu bytes): ignored",
		    pd->name, (unsigned long long)off, (unsigned long long)off,
		    (unsigned long long)have, (unsigned long long)need);
	pd->pos = pd->end;
	return PERFAN_ITEROVER;
}

/* The next record from the input (not the queues). */
static int read_source(struct perfan_perfdata *pd, struct perfan__raw *r)
{
	int err;
	uint64_t off = pd->pos;
	if (off >= pd->end) {
		if (pd->truncated_end)
			return PD_ERR(pd, PERFAN_ETRUNCATED, off,
				      "file ends inside the data section "
				      "(which should end at offset %llu): "
				      "truncated",
				      (unsigned long long)pd->truncated_end);
		return PERFAN_ITEROVER;
	}
	if (pd->end - off < 8) {
		if (pd->truncated_end)
			return PD_ERR(pd, PERFAN_ETRUNCATED, off,
				      "file ends inside a record header "
				      "(truncated)");
		if (pd->info.cut)
			return cut_end(pd, off, pd->end - off, 8);
		return PD_ERR(pd, PERFAN_EFORMAT, off,
			      "%llu stray bytes at the end of the data section",
			      (unsigned long long)(pd->end - off));
	}
	const uint8_t *h = perfan__source_data(pd, off, 8, &err);
	if (!h) {
		if (err)
			return err;
		if (pd->src.map ? off >= pd->src.map_len
				: pd->src.end == pd->src.start)
			return PERFAN_ITEROVER; /* stream ended cleanly */
		return PD_ERR(pd, PERFAN_ETRUNCATED, off,
			      "stream ends inside a record header");
	}
	uint32_t type = perfan__u32(h, pd->swap);
	uint16_t misc = perfan__u16(h + 4, pd->swap);
	uint16_t size = perfan__u16(h + 6, pd->swap);
	const char *tn = perfan_record_type_name(type);
	if (size < 8)
		return PD_ERR(pd, PERFAN_EFORMAT, off,
			      "record of type %u (%s) has size %u, smaller "
			      "than its 8-byte header",
			      type, tn ? tn : "unknown", size);
	uint64_t pay;
	int rc = payload_size(pd, h, type, size, off, &pay);
	if (rc)
		return rc;
	uint64_t total = size + pay;
	if (total > pd->end - off) {
		if (pd->truncated_end)
			return PD_ERR(pd, PERFAN_ETRUNCATED, off,
				      "%s record of %llu bytes extends past "
				      "the end of the data: truncated",
				      tn ? tn : "unknown",
				      (unsigned long long)total);
		if (pd->info.cut)
			return cut_end(pd, off, pd->end - off, total);
		return PD_ERR(pd, PERFAN_EFORMAT, off,
			      "%s record of %llu bytes extends past the end "
			      "of the data",
			      tn ? tn : "unknown", (unsigned long long)total);
	}
	const uint8_t *b = perfan__source_data(pd, off, (size_t)total, &err);
	if (!b) {
		if (err)
			return err;
		return PD_ERR(pd, PERFAN_ETRUNCATED, off,
			      "%s record of %llu bytes: input ends inside it",
			      tn ? tn : "unknown", (unsigned long long)total);
	}
	if (pd->src.map && off - pd->src.dropped > DROP_STEP)
		perfan__source_drop(&pd->src, off);
	memset(r, 0, sizeof(*r));
	r->bytes = b;
	r->type = type;
	r->misc = misc;
	r->size = size;
	r->offset = off;
	r->payload = pay ? b + size : NULL;
	r->payload_size = pay;
	pd->pos = off + total;
	return 0;
}

static void set_name_by_id(struct perfan_perfdata *pd, uint64_t id,
			   const char *name)
{
	const struct perfan_event *ev = perfan_perfdata_event_by_id(pd, id);
	if (!ev || !name)
		return;
	char *n = perfan__arena_strndup(&pd->arena, name, 4096);
	if (n) {
		pd->events[ev->index].name = n;
		pd->events[ev->index].name_derived = 0;
	}
}

/* Records that describe the stream change the reader's state once, when
 * they are read. */
static int apply(struct perfan_perfdata *pd, const struct perfan__raw *r)
{
	struct perfan_record rec;
	int rc;
	switch (r->type) {
	case PERFAN_REC_HEADER_ATTR:
	case PERFAN_REC_HEADER_FEATURE:
	case PERFAN_REC_EVENT_UPDATE:
	case PERFAN_REC_ID_INDEX:
	case PERFAN_REC_HEADER_TRACING_DATA: break;
	default: return 0;
	}
	perfan__pipe_quiesce(pd);
	rc = perfan__record_decode(pd, r, &rec);
	if (rc)
		return rc;
	switch (r->type) {
	case PERFAN_REC_HEADER_ATTR:
		rc = perfan__event_add(pd, &rec.u.header_attr.attr,
				       rec.u.header_attr.ids,
				       rec.u.header_attr.nr_ids);
		if (rc)
			return rc;
		perfan__events_finish(pd);
		return 0;
	case PERFAN_REC_HEADER_FEATURE:
		if (rec.u.feature.feat_id >= PERFAN_FEAT_MAX)
			return 0;
		rc = perfan__feature_decode(pd, (int)rec.u.feature.feat_id,
					    rec.u.feature.data,
					    rec.u.feature.size, r->offset + 16);
		if (rc == PERFAN_ENOMEM)
			return rc;
		if (rc)
			perfan__log(pd, PERFAN_LOG_WARN, "%s",
				    perfan_error_last());
		if (rec.u.feature.feat_id == PERFAN_FEAT_EVENT_DESC)
			perfan__events_apply_desc(pd);
		return 0;
	case PERFAN_REC_EVENT_UPDATE:
		if (rec.u.event_update.type == PERFAN_EVENT_UPDATE_NAME)
			set_name_by_id(pd, rec.u.event_update.id,
				       rec.u.event_update.str);
		return 0;
	case PERFAN_REC_ID_INDEX:
		for (uint64_t i = 0; i < rec.u.id_index.nr; i++) {
			const struct perfan_id_index_entry *e =
				&rec.u.id_index.entries[i];
			if (e->idx < pd->nr_events &&
			    !perfan_perfdata_event_by_id(pd, e->id)) {
				rc = perfan__event_add_ids(pd, (size_t)e->idx,
							   &e->id, 1);
				if (rc)
					return rc;
			}
		}
		return 0;
	case PERFAN_REC_HEADER_TRACING_DATA: {
		uint32_t n = rec.u.tracing_data.size;
		void *copy = perfan__arena_alloc(&pd->arena, n ? n : 1);
		if (!copy)
			return PD_ERR(pd, PERFAN_ENOMEM, r->offset,
				      "out of memory");
		if (n && r->payload)
			memcpy(copy, r->payload, n);
		pd->feat.tracing_data = copy;
		pd->feat.tracing_data_size = n;
		pd->feat.present[0] |= 1ull << PERFAN_FEAT_TRACING_DATA;
		perfan__tracing_name_events(pd);
		return 0;
	}
	}
	return 0;
}

/* The next record from the decompressor or the input. */
static int read_new(struct perfan_perfdata *pd, struct perfan__raw *r)
{
	int rc = perfan__decomp_next(pd, r);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		rc = read_source(pd, r);
		if (rc == PERFAN_ITEROVER)
			perfan__decomp_end(pd);
		if (rc)
			return rc;
		if ((r->type == PERFAN_REC_COMPRESSED ||
		     r->type == PERFAN_REC_COMPRESSED2) &&
		    !pd->opts.keep_compressed) {
			rc = perfan__decomp_feed(pd, r);
			if (rc)
				return rc;
		}
	}
	return apply(pd, r);
}

/* The next record: one read ahead by perfan_perfdata_read_header, or new. */
static int read_input(struct perfan_perfdata *pd, struct perfan__raw *r)
{
	if (perfan__order_pop_from(pd, &pd->prefetch, r))
		return 0;
	return read_new(pd, r);
}

int perfan_perfdata_read_header(perfan_perfdata *pd)
{
	if (pd->err)
		return pd->err;
	if (pd->header_done)
		return 0;
	for (;;) {
		struct perfan__raw r;
		int rc = read_new(pd, &r);
		if (rc == PERFAN_ITEROVER)
			break;
		if (rc)
			return fail(pd, rc);
		rc = perfan__order_push_ready_to(pd, &pd->prefetch, &r);
		if (rc)
			return fail(pd, rc);
		if (r.type < PERFAN_REC_HEADER_ATTR ||
		    r.type == PERFAN_REC_FINISHED_ROUND ||
		    r.type == PERFAN_REC_COMPRESSED ||
		    r.type == PERFAN_REC_COMPRESSED2)
			break;
	}
	pd->header_done = 1;
	return 0;
}

static int deliver(struct perfan_perfdata *pd, struct perfan__raw *r,
		   struct perfan_record *rec)
{
	if (r->type == PERFAN_REC_SAMPLE && !pd->warned_unknown_id &&
	    !perfan__event_for_sample(pd, PERFAN__IDS_READ, r->bytes + 8,
				      r->size - 8)) {
		/* perf counts these as "unknown id" and goes on; the decoder
		 * skips them */
		perfan__log(pd, PERFAN_LOG_WARN,
			    "%s: offset %llu: SAMPLE with an id that matches "
			    "no event (skipped)",
			    pd->name, (unsigned long long)r->offset);
		pd->warned_unknown_id = 1;
	}
	int rc = perfan__pipe_stable(pd, r);
	if (!rc && !rec) {
		/* read ahead: decoded here or on the caller's thread */
		rc = perfan__pipe_put(pd, r);
		if (!rc && (rec = perfan__pipe_slot()))
			rc = perfan__record_decode(pd, r, rec);
	} else if (!rc) {
		rc = perfan__record_decode(pd, r, rec);
	}
	if (rc)
		return fail(pd, rc);
	return 0;
}

int perfan_perfdata_next(perfan_perfdata *pd, const struct perfan_record **out)
{
	*out = NULL;
	if (pd->pipe)
		return perfan__pipe_next(pd, out);
	/* a mapped file is read ahead on a second thread when asked; a
	 * stream on this one (its reads may block after the caller is done) */
	if (pd->opts.threads > 1 && pd->src.map && !pd->err &&
	    !perfan__pipe_start(pd, perfan__perfdata_next_into,
				perfan__record_decode))
		return perfan__pipe_next(pd, out);
	int rc = perfan__perfdata_next_into(pd, &pd->rec);
	if (!rc)
		*out = &pd->rec;
	return rc;
}

int perfan__perfdata_next_into(struct perfan_perfdata *pd,
			       struct perfan_record *rec)
{
	if (pd->err)
		return pd->err;
	perfan__order_release(pd, &pd->order);
	perfan__order_release(pd, &pd->prefetch);
	for (;;) {
		struct perfan__raw r;
		/* On the reader thread, a record leaves the time order in its
		 * place in the batch: copied there from a struct just written
		 * field by field, it waited for the stores before it, those
		 * to lines that the caller's core read last among them, and
		 * that was a third of the reader's time. */
		struct perfan__raw *slot = rec ? NULL : perfan__pipe_raw_slot();
		if (perfan__order_pop_from(pd, &pd->order, slot ? slot : &r))
			return deliver(pd, slot ? slot : &r, rec);
		if (pd->pending) {
			/* the records before the damage are out: now the
			 * error, with its message */
			int e = pd->pending;
			pd->pending = 0;
			perfan__err(e, "%s",
				    pd->pending_msg ? pd->pending_msg : "");
			return fail(pd, e);
		}
		int rc = read_input(pd, &r);
		if (rc == PERFAN_ITEROVER) {
			if (pd->order.npend) {
				perfan__order_flush(pd, UINT64_MAX);
				continue;
			}
			return PERFAN_ITEROVER;
		}
		if (rc && pd->order.npend) {
			/* deliver what was read before the damage first, as
			 * perf script prints the samples before it */
			free(pd->pending_msg);
			pd->pending_msg = strdup(perfan_error_last());
			pd->pending = rc;
			perfan__order_flush(pd, UINT64_MAX);
			continue;
		}
		if (rc)
			return fail(pd, rc);
		if (pd->opts.unordered)
			return deliver(pd, &r, rec);
		if (r.type == PERFAN_REC_FINISHED_ROUND) {
			perfan__order_round(pd);
			if (pd->err)
				return pd->err;
			if (pd->order.rhead != pd->order.rtail) {
				rc = perfan__order_push_ready(pd, &r);
				if (rc)
					return fail(pd, rc);
				continue;
			}
			return deliver(pd, &r, rec);
		}
		if (r.type < PERFAN_REC_HEADER_ATTR) {
			uint64_t t = perfan__record_time(pd, &r);
			if (t && t != UINT64_MAX) {
				rc = perfan__order_push(pd, &r, t);
				if (rc)
					return fail(pd, rc);
				continue;
			}
		}
		return deliver(pd, &r, rec);
	}
}
