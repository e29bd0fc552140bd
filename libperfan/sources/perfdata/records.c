/* sources/perfdata/records.c: every record type other than SAMPLE, decoded into the
 * structs of records.h; arrays are copied to aligned host-order scratch. */
#include "sources/perfdata/internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_names[PERFAN_REC_MAX] = {
	[PERFAN_REC_MMAP] = "MMAP",
	[PERFAN_REC_LOST] = "LOST",
	[PERFAN_REC_COMM] = "COMM",
	[PERFAN_REC_EXIT] = "EXIT",
	[PERFAN_REC_THROTTLE] = "THROTTLE",
	[PERFAN_REC_UNTHROTTLE] = "UNTHROTTLE",
	[PERFAN_REC_FORK] = "FORK",
	[PERFAN_REC_READ] = "READ",
	[PERFAN_REC_SAMPLE] = "SAMPLE",
	[PERFAN_REC_MMAP2] = "MMAP2",
	[PERFAN_REC_AUX] = "AUX",
	[PERFAN_REC_ITRACE_START] = "ITRACE_START",
	[PERFAN_REC_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERFAN_REC_SWITCH] = "SWITCH",
	[PERFAN_REC_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERFAN_REC_NAMESPACES] = "NAMESPACES",
	[PERFAN_REC_KSYMBOL] = "KSYMBOL",
	[PERFAN_REC_BPF_EVENT] = "BPF_EVENT",
	[PERFAN_REC_CGROUP] = "CGROUP",
	[PERFAN_REC_TEXT_POKE] = "TEXT_POKE",
	[PERFAN_REC_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[PERFAN_REC_CALLCHAIN_DEFERRED] = "CALLCHAIN_DEFERRED",
	[PERFAN_REC_HEADER_ATTR] = "ATTR",
	[PERFAN_REC_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[PERFAN_REC_HEADER_TRACING_DATA] = "TRACING_DATA",
	[PERFAN_REC_HEADER_BUILD_ID] = "BUILD_ID",
	[PERFAN_REC_FINISHED_ROUND] = "FINISHED_ROUND",
	[PERFAN_REC_ID_INDEX] = "ID_INDEX",
	[PERFAN_REC_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[PERFAN_REC_AUXTRACE] = "AUXTRACE",
	[PERFAN_REC_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[PERFAN_REC_THREAD_MAP] = "THREAD_MAP",
	[PERFAN_REC_CPU_MAP] = "CPU_MAP",
	[PERFAN_REC_STAT_CONFIG] = "STAT_CONFIG",
	[PERFAN_REC_STAT] = "STAT",
	[PERFAN_REC_STAT_ROUND] = "STAT_ROUND",
	[PERFAN_REC_EVENT_UPDATE] = "EVENT_UPDATE",
	[PERFAN_REC_TIME_CONV] = "TIME_CONV",
	[PERFAN_REC_HEADER_FEATURE] = "FEATURE",
	[PERFAN_REC_COMPRESSED] = "COMPRESSED",
	[PERFAN_REC_FINISHED_INIT] = "FINISHED_INIT",
	[PERFAN_REC_COMPRESSED2] = "COMPRESSED2",
	[PERFAN_REC_BPF_METADATA] = "BPF_METADATA",
};

const char *perfan_record_type_name(uint32_t type)
{
	return type < PERFAN_REC_MAX ? type_names[type] : NULL;
}

/* The rest of the record from the cursor up to the sample_id trailer. */
static size_t body_left(const struct perfan__cur *c, size_t trailer)
{
	size_t left = perfan__cur_left(c);
	return left > trailer ? left - trailer : 0;
}

static const char *take_str(struct perfan_perfdata *pd, struct perfan__cur *c,
			    size_t trailer)
{
	size_t n = body_left(c, trailer);
	const uint8_t *p = perfan__cur_take(c, n);
	return perfan__scratch_str(pd, p, n);
}

static const uint64_t *take_u64s(struct perfan_perfdata *pd,
				 struct perfan__cur *c, uint64_t nr)
{
	if (nr > perfan__cur_left(c) / 8) {
		c->bad = 1;
		return NULL;
	}
	const uint8_t *p = perfan__cur_take(c, nr * 8);
	return perfan__scratch_u64s(pd, p, nr);
}

static void cpu_list(struct perfan_perfdata *pd, struct perfan__cur *c,
		     struct perfan_cpu_list *out)
{
	/* perf_record_cpu_map_data: u16 type, then a cpus list (u16 nr,
	 * u16 cpu[nr]), a mask (u16 nr, u16 long_size, masks) or a range
	 * (u8 any_cpu, u8 pad, u16 start, u16 end; perf 6.2+). */
	uint16_t type = perfan__cur_u16(c);
	memset(out, 0, sizeof(*out));
	if (type == 0) {
		uint16_t nr = perfan__cur_u16(c);
		if ((size_t)nr * 2 > perfan__cur_left(c)) {
			c->bad = 1;
			return;
		}
		uint32_t *v = perfan__scratch_alloc(pd, (size_t)nr * 4 + 4);
		if (!v)
			return;
		for (uint16_t i = 0; i < nr; i++)
			v[i] = perfan__cur_u16(c);
		out->nr = nr;
		out->cpus = v;
	} else if (type == 1) {
		uint16_t nr = perfan__cur_u16(c);
		uint16_t long_size = perfan__cur_u16(c);
		if (long_size != 4 && long_size != 8) {
			c->bad = 1;
			return;
		}
		if (long_size == 8 && c->pos % 8)
			perfan__cur_take(c, 8 - c->pos % 8);
		if ((size_t)nr * long_size > perfan__cur_left(c)) {
			c->bad = 1;
			return;
		}
		uint32_t *v = perfan__scratch_alloc(
			pd, (size_t)nr * long_size * 8 * 4 + 4);
		if (!v)
			return;
		size_t k = 0;
		for (uint16_t i = 0; i < nr; i++) {
			uint64_t m = long_size == 8 ? perfan__cur_u64(c)
						    : perfan__cur_u32(c);
			for (unsigned b = 0; b < long_size * 8u; b++)
				if (m >> b & 1)
					v[k++] = i * long_size * 8u + b;
		}
		out->nr = k;
		out->cpus = v;
	} else if (type == 2) {
		uint8_t any = perfan__cur_u8(c);
		perfan__cur_u8(c);
		uint16_t start = perfan__cur_u16(c), end = perfan__cur_u16(c);
		size_t n = end >= start ? (size_t)(end - start) + 1 : 0;
		uint32_t *v = perfan__scratch_alloc(pd, (n + 1) * 4);
		if (!v)
			return;
		size_t k = 0;
		if (any)
			v[k++] = (uint32_t)-1;
		for (size_t i = 0; i < n; i++)
			v[k++] = start + (uint32_t)i;
		out->nr = k;
		out->cpus = v;
	}
}

static int decode_kernel(struct perfan_perfdata *pd, struct perfan_record *rec,
			 struct perfan__cur *c, size_t tr)
{
	const uint8_t *p;
	switch (rec->type) {
	case PERFAN_REC_MMAP:
	case PERFAN_REC_MMAP2: {
		struct perfan_rec_mmap *m = &rec->u.mmap;
		m->pid = perfan__cur_u32(c);
		m->tid = perfan__cur_u32(c);
		m->start = perfan__cur_u64(c);
		m->len = perfan__cur_u64(c);
		m->pgoff = perfan__cur_u64(c);
		if (rec->type == PERFAN_REC_MMAP2) {
			if (rec->misc & PERFAN_MISC_MMAP_BUILD_ID) {
				m->build_id_size = perfan__cur_u8(c);
				perfan__cur_take(c, 3);
				p = perfan__cur_take(c, 20);
				if (p)
					memcpy(m->build_id, p, 20);
				if (m->build_id_size > 20)
					m->build_id_size = 20;
			} else {
				m->maj = perfan__cur_u32(c);
				m->min = perfan__cur_u32(c);
				m->ino = perfan__cur_u64(c);
				m->ino_generation = perfan__cur_u64(c);
			}
			m->prot = perfan__cur_u32(c);
			m->flags = perfan__cur_u32(c);
		}
		m->filename = take_str(pd, c, tr);
		break;
	}
	case PERFAN_REC_COMM:
		rec->u.comm.pid = perfan__cur_u32(c);
		rec->u.comm.tid = perfan__cur_u32(c);
		rec->u.comm.comm = take_str(pd, c, tr);
		break;
	case PERFAN_REC_EXIT:
	case PERFAN_REC_FORK:
		rec->u.fork_exit.pid = perfan__cur_u32(c);
		rec->u.fork_exit.ppid = perfan__cur_u32(c);
		rec->u.fork_exit.tid = perfan__cur_u32(c);
		rec->u.fork_exit.ptid = perfan__cur_u32(c);
		rec->u.fork_exit.time = perfan__cur_u64(c);
		break;
	case PERFAN_REC_LOST:
		rec->u.lost.id = perfan__cur_u64(c);
		rec->u.lost.lost = perfan__cur_u64(c);
		break;
	case PERFAN_REC_THROTTLE:
	case PERFAN_REC_UNTHROTTLE:
		rec->u.throttle.time = perfan__cur_u64(c);
		rec->u.throttle.id = perfan__cur_u64(c);
		rec->u.throttle.stream_id = perfan__cur_u64(c);
		break;
	case PERFAN_REC_READ:
		rec->u.read.pid = perfan__cur_u32(c);
		rec->u.read.tid = perfan__cur_u32(c);
		if (rec->event) {
			int rc = perfan__read_values(
				pd, c, rec->event->attr.read_format,
				&rec->u.read.values);
			if (rc)
				return rc;
		}
		break;
	case PERFAN_REC_AUX:
		rec->u.aux.aux_offset = perfan__cur_u64(c);
		rec->u.aux.aux_size = perfan__cur_u64(c);
		rec->u.aux.flags = perfan__cur_u64(c);
		break;
	case PERFAN_REC_ITRACE_START:
		rec->u.itrace_start.pid = perfan__cur_u32(c);
		rec->u.itrace_start.tid = perfan__cur_u32(c);
		break;
	case PERFAN_REC_LOST_SAMPLES:
		rec->u.lost_samples.lost = perfan__cur_u64(c);
		break;
	case PERFAN_REC_SWITCH: break;
	case PERFAN_REC_SWITCH_CPU_WIDE:
		rec->u.sw.next_prev_pid = perfan__cur_u32(c);
		rec->u.sw.next_prev_tid = perfan__cur_u32(c);
		break;
	case PERFAN_REC_NAMESPACES: {
		struct perfan_rec_namespaces *n = &rec->u.namespaces;
		n->pid = perfan__cur_u32(c);
		n->tid = perfan__cur_u32(c);
		n->nr = perfan__cur_u64(c);
		if (n->nr > perfan__cur_left(c) / 16) {
			c->bad = 1;
			break;
		}
		n->links = (const struct perfan_ns_link *)take_u64s(pd, c,
								    n->nr * 2);
		break;
	}
	case PERFAN_REC_KSYMBOL:
		rec->u.ksymbol.addr = perfan__cur_u64(c);
		rec->u.ksymbol.len = perfan__cur_u32(c);
		rec->u.ksymbol.ksym_type = perfan__cur_u16(c);
		rec->u.ksymbol.flags = perfan__cur_u16(c);
		rec->u.ksymbol.name = take_str(pd, c, tr);
		break;
	case PERFAN_REC_BPF_EVENT:
		rec->u.bpf_event.type = perfan__cur_u16(c);
		rec->u.bpf_event.flags = perfan__cur_u16(c);
		rec->u.bpf_event.id = perfan__cur_u32(c);
		p = perfan__cur_take(c, 8);
		if (p)
			memcpy(rec->u.bpf_event.tag, p, 8);
		break;
	case PERFAN_REC_CGROUP:
		rec->u.cgroup.id = perfan__cur_u64(c);
		rec->u.cgroup.path = take_str(pd, c, tr);
		break;
	case PERFAN_REC_TEXT_POKE:
		rec->u.text_poke.addr = perfan__cur_u64(c);
		rec->u.text_poke.old_len = perfan__cur_u16(c);
		rec->u.text_poke.new_len = perfan__cur_u16(c);
		rec->u.text_poke.bytes =
			perfan__cur_take(c, (size_t)rec->u.text_poke.old_len +
						    rec->u.text_poke.new_len);
		break;
	case PERFAN_REC_AUX_OUTPUT_HW_ID:
		rec->u.aux_output_hw_id.hw_id = perfan__cur_u64(c);
		break;
	case PERFAN_REC_CALLCHAIN_DEFERRED:
		rec->u.callchain_deferred.cookie = perfan__cur_u64(c);
		rec->u.callchain_deferred.nr = perfan__cur_u64(c);
		rec->u.callchain_deferred.ips =
			take_u64s(pd, c, rec->u.callchain_deferred.nr);
		break;
	default: break;
	}
	return 0;
}

static int decode_tool(struct perfan_perfdata *pd, struct perfan_record *rec,
		       struct perfan__cur *c, const struct perfan__raw *r)
{
	const uint8_t *p;
	switch (rec->type) {
	case PERFAN_REC_HEADER_ATTR: {
		/* the attr's own size field says where the ids start */
		p = c->p + c->pos;
		size_t left = perfan__cur_left(c);
		uint32_t asz = left >= 8 ? perfan__u32(p + 4, pd->swap) : 0;
		if (asz == 0)
			asz = 64;
		if (asz < 64 || asz > left) {
			c->bad = 1;
			break;
		}
		perfan__attr_decode(&rec->u.header_attr.attr, p, asz, pd->swap);
		perfan__cur_take(c, asz);
		rec->u.header_attr.nr_ids = perfan__cur_left(c) / 8;
		rec->u.header_attr.ids =
			take_u64s(pd, c, rec->u.header_attr.nr_ids);
		break;
	}
	case PERFAN_REC_HEADER_EVENT_TYPE:
		rec->u.event_type.event_id = perfan__cur_u64(c);
		rec->u.event_type.name = take_str(pd, c, 0);
		break;
	case PERFAN_REC_HEADER_TRACING_DATA:
		rec->u.tracing_data.size = perfan__cur_u32(c);
		rec->u.tracing_data.data = r->payload;
		break;
	case PERFAN_REC_HEADER_BUILD_ID: {
		struct perfan_rec_build_id *b = &rec->u.build_id;
		b->pid = (int32_t)perfan__cur_u32(c);
		p = perfan__cur_take(c, 24);
		if (p)
			memcpy(b->build_id, p, 20);
		b->size = (rec->misc & (1u << 15)) && p ? p[20] : 20;
		if (b->size > 20)
			b->size = 20;
		b->filename = take_str(pd, c, 0);
		break;
	}
	case PERFAN_REC_ID_INDEX: {
		uint64_t nr = perfan__cur_u64(c);
		if (nr > perfan__cur_left(c) / 32) {
			c->bad = 1;
			break;
		}
		rec->u.id_index.nr = nr;
		rec->u.id_index.entries =
			(const struct perfan_id_index_entry *)take_u64s(pd, c,
									nr * 4);
		break;
	}
	case PERFAN_REC_AUXTRACE_INFO:
		rec->u.auxtrace_info.type = perfan__cur_u32(c);
		perfan__cur_u32(c);
		rec->u.auxtrace_info.nr_priv = perfan__cur_left(c) / 8;
		rec->u.auxtrace_info.priv =
			take_u64s(pd, c, rec->u.auxtrace_info.nr_priv);
		break;
	case PERFAN_REC_AUXTRACE:
		rec->u.auxtrace.size = perfan__cur_u64(c);
		rec->u.auxtrace.offset = perfan__cur_u64(c);
		rec->u.auxtrace.reference = perfan__cur_u64(c);
		rec->u.auxtrace.idx = perfan__cur_u32(c);
		rec->u.auxtrace.tid = perfan__cur_u32(c);
		rec->u.auxtrace.cpu = perfan__cur_u32(c);
		rec->u.auxtrace.data = r->payload;
		break;
	case PERFAN_REC_AUXTRACE_ERROR: {
		struct perfan_rec_auxtrace_error *e = &rec->u.auxtrace_error;
		e->type = perfan__cur_u32(c);
		e->code = perfan__cur_u32(c);
		e->cpu = perfan__cur_u32(c);
		e->pid = perfan__cur_u32(c);
		e->tid = perfan__cur_u32(c);
		e->fmt = perfan__cur_u32(c);
		e->ip = perfan__cur_u64(c);
		p = perfan__cur_take(c, 64);
		e->msg = perfan__scratch_str(pd, p, 64);
		if (e->fmt >= 1) {
			e->time = perfan__cur_u64(c);
		}
		if (e->fmt >= 2) {
			e->machine_pid = perfan__cur_u32(c);
			e->vcpu = perfan__cur_u32(c);
		}
		c->bad = 0; /* older formats are shorter */
		break;
	}
	case PERFAN_REC_THREAD_MAP: {
		uint64_t nr = perfan__cur_u64(c);
		if (nr > perfan__cur_left(c) / 24) {
			c->bad = 1;
			break;
		}
		struct perfan_thread_map_entry *e =
			perfan__scratch_alloc(pd, (size_t)nr * sizeof(*e) + 1);
		if (!e)
			return PERFAN_ENOMEM;
		for (uint64_t i = 0; i < nr; i++) {
			e[i].pid = perfan__cur_u64(c);
			p = perfan__cur_take(c, 16);
			if (p) {
				memcpy(e[i].comm, p, 16);
				e[i].comm[15] = '\0';
			}
		}
		rec->u.thread_map.nr = nr;
		rec->u.thread_map.entries = e;
		break;
	}
	case PERFAN_REC_CPU_MAP: cpu_list(pd, c, &rec->u.cpu_map); break;
	case PERFAN_REC_STAT_CONFIG: {
		uint64_t nr = perfan__cur_u64(c);
		if (nr > perfan__cur_left(c) / 16) {
			c->bad = 1;
			break;
		}
		rec->u.stat_config.nr = nr;
		rec->u.stat_config.entries =
			(const struct perfan_stat_config_entry *)take_u64s(
				pd, c, nr * 2);
		break;
	}
	case PERFAN_REC_STAT:
		rec->u.stat.id = perfan__cur_u64(c);
		rec->u.stat.cpu = perfan__cur_u32(c);
		rec->u.stat.thread = perfan__cur_u32(c);
		rec->u.stat.val = perfan__cur_u64(c);
		rec->u.stat.ena = perfan__cur_u64(c);
		rec->u.stat.run = perfan__cur_u64(c);
		break;
	case PERFAN_REC_STAT_ROUND:
		rec->u.stat_round.type = perfan__cur_u64(c);
		rec->u.stat_round.time = perfan__cur_u64(c);
		break;
	case PERFAN_REC_EVENT_UPDATE: {
		struct perfan_rec_event_update *u = &rec->u.event_update;
		u->type = perfan__cur_u64(c);
		u->id = perfan__cur_u64(c);
		if (u->type == PERFAN_EVENT_UPDATE_UNIT ||
		    u->type == PERFAN_EVENT_UPDATE_NAME) {
			u->str = take_str(pd, c, 0);
		} else if (u->type == PERFAN_EVENT_UPDATE_SCALE) {
			uint64_t v = perfan__cur_u64(c);
			memcpy(&u->scale, &v, sizeof(v));
		} else if (u->type == PERFAN_EVENT_UPDATE_CPUS) {
			cpu_list(pd, c, &u->cpus);
		}
		break;
	}
	case PERFAN_REC_TIME_CONV: {
		struct perfan_rec_time_conv *t = &rec->u.time_conv;
		t->time_shift = perfan__cur_u64(c);
		t->time_mult = perfan__cur_u64(c);
		t->time_zero = perfan__cur_u64(c);
		if (perfan__cur_left(c) >= 17) {
			t->has_cycles = 1;
			t->time_cycles = perfan__cur_u64(c);
			t->time_mask = perfan__cur_u64(c);
			t->cap_user_time_zero = perfan__cur_u8(c);
			t->cap_user_time_short = perfan__cur_u8(c);
		}
		break;
	}
	case PERFAN_REC_HEADER_FEATURE:
		rec->u.feature.feat_id = perfan__cur_u64(c);
		rec->u.feature.size = perfan__cur_left(c);
		rec->u.feature.data = perfan__cur_take(c, perfan__cur_left(c));
		break;
	case PERFAN_REC_COMPRESSED:
		rec->u.compressed.size = perfan__cur_left(c);
		rec->u.compressed.data =
			perfan__cur_take(c, perfan__cur_left(c));
		break;
	case PERFAN_REC_COMPRESSED2: {
		uint64_t n = perfan__cur_u64(c);
		if (n > perfan__cur_left(c)) {
			c->bad = 1;
			break;
		}
		rec->u.compressed.size = n;
		rec->u.compressed.data = perfan__cur_take(c, n);
		break;
	}
	case PERFAN_REC_BPF_METADATA:
		rec->u.bpf_metadata.nr_entries = perfan__cur_u64(c);
		p = perfan__cur_take(c, 256);
		rec->u.bpf_metadata.prog_name = perfan__scratch_str(pd, p, 256);
		if (rec->u.bpf_metadata.nr_entries >
		    perfan__cur_left(c) / (64 + 256)) {
			c->bad = 1;
			break;
		}
		rec->u.bpf_metadata.entries = c->p + c->pos;
		break;
	default: break;
	}
	return 0;
}

/* The id cache of this thread: the reader's on the reader thread. */
static int ids(void)
{
	return perfan__pipe_reading() ? PERFAN__IDS_READ : PERFAN__IDS_DECODE;
}

int perfan__record_decode(struct perfan_perfdata *pd,
			  const struct perfan__raw *r,
			  struct perfan_record *rec)
{
	perfan__scratch_reset(pd);
	/* the union is set by the decoder of each type */
	memset(rec, 0, offsetof(struct perfan_record, u));
	rec->type = r->type;
	rec->misc = r->misc;
	rec->size = r->size;
	rec->offset = r->offset;
	rec->from_compressed = r->from_compressed;
	rec->raw = r->bytes;

	if (r->type == PERFAN_REC_SAMPLE) {
		rec->event = perfan__event_for_sample(pd, ids(), r->bytes + 8,
						      r->size - 8);
		if (!rec->event)
			return 0; /* the reader said so (perfdata.c) */
		if (pd->opts.skip_sample_fields)
			return 0;
		int rc = perfan__sample_decode(pd, r->bytes, r->size,
					       rec->event, &rec->u.sample,
					       r->offset);
		if (rc)
			return rc;
		struct perfan_sample *s = &rec->u.sample;
		rec->sid.present =
			s->type &
			(PERFAN_SAMPLE_TID | PERFAN_SAMPLE_TIME |
			 PERFAN_SAMPLE_ID | PERFAN_SAMPLE_STREAM_ID |
			 PERFAN_SAMPLE_CPU | PERFAN_SAMPLE_IDENTIFIER);
		rec->sid.pid = s->pid;
		rec->sid.tid = s->tid;
		rec->sid.time = s->time;
		rec->sid.id = (s->type & PERFAN_SAMPLE_IDENTIFIER)
				      ? s->identifier
				      : s->id;
		rec->sid.stream_id = s->stream_id;
		rec->sid.cpu = s->cpu;
		rec->sid.res = s->res;
		return 0;
	}

	size_t tr = 0;
	if (r->type < PERFAN_REC_HEADER_ATTR) {
		rec->event =
			perfan__event_for_other(pd, ids(), r->bytes, r->size);
		if (rec->event &&
		    (rec->event->attr.flags & PERFAN_ATTR_SAMPLE_ID_ALL)) {
			uint64_t st = rec->event->attr.sample_type;
			tr = perfan__sample_id_size(st);
			if (tr + 8 <= r->size)
				perfan__sample_id_decode(r->bytes, r->size, st,
							 pd->swap, &rec->sid);
			else
				tr = 0;
		}
	}
	memset(&rec->u, 0, sizeof(rec->u));
	struct perfan__cur c =
		perfan__cur_make(r->bytes + 8, r->size - 8, pd->swap);
	int rc = r->type < PERFAN_REC_HEADER_ATTR
			 ? decode_kernel(pd, rec, &c, tr)
			 : decode_tool(pd, rec, &c, r);
	if (rc)
		return rc;
	if (c.bad)
		return PD_ERR(pd, PERFAN_EFORMAT, r->offset,
			      "%s record of %u bytes is too short for its "
			      "fields",
			      perfan_record_type_name(r->type)
				      ? perfan_record_type_name(r->type)
				      : "unknown",
			      r->size);
	return 0;
}
