/* sources/perfdata/sample.c: PERF_RECORD_SAMPLE with every sample_type bit, and the
 * sample_id_all trailer of other records. */
#include "sources/perfdata/internal.h"

#include <string.h>

static int bad(struct perfan_perfdata *pd, uint64_t off, const char *what,
	       size_t len)
{
	return PD_ERR(pd, PERFAN_EFORMAT, off,
		      "SAMPLE record of %zu bytes is too short for its %s", len,
		      what);
}

/* Counter values (PERF_SAMPLE_READ and PERF_RECORD_READ) in READ_FORMAT. */
int perfan__read_values(struct perfan_perfdata *pd, struct perfan__cur *c,
			uint64_t fmt, struct perfan_read_values *rv)
{
	int group = !!(fmt & PERFAN_FORMAT_GROUP);
	uint64_t nr = 1, v0 = 0;
	rv->format = fmt;
	if (group)
		nr = perfan__cur_u64(c);
	else
		v0 = perfan__cur_u64(c);
	if (fmt & PERFAN_FORMAT_TOTAL_TIME_ENABLED)
		rv->time_enabled = perfan__cur_u64(c);
	if (fmt & PERFAN_FORMAT_TOTAL_TIME_RUNNING)
		rv->time_running = perfan__cur_u64(c);
	size_t per = group + !!(fmt & PERFAN_FORMAT_ID) +
		     !!(fmt & PERFAN_FORMAT_LOST);
	if (per && nr > perfan__cur_left(c) / (per * 8)) {
		c->bad = 1;
		return 0;
	}
	struct perfan_read_entry *e =
		perfan__scratch_alloc(pd, (size_t)nr * sizeof(*e));
	if (!e)
		return PERFAN_ENOMEM;
	for (uint64_t i = 0; i < nr; i++) {
		e[i].value = group ? perfan__cur_u64(c) : v0;
		e[i].id = (fmt & PERFAN_FORMAT_ID) ? perfan__cur_u64(c) : 0;
		e[i].lost = (fmt & PERFAN_FORMAT_LOST) ? perfan__cur_u64(c) : 0;
	}
	rv->nr = nr;
	rv->entries = e;
	return 0;
}

static int read_regs(struct perfan_perfdata *pd, struct perfan__cur *c,
		     uint64_t mask, struct perfan_regs *r)
{
	r->abi = perfan__cur_u64(c);
	r->mask = mask;
	if (!r->abi)
		return 0;
	r->nr = (uint64_t)__builtin_popcountll(mask);
	const uint8_t *p = perfan__cur_take(c, r->nr * 8);
	if (!p)
		return -1;
	r->regs = perfan__scratch_u64s(pd, p, r->nr);
	return r->regs || !r->nr ? 0 : PERFAN_ENOMEM;
}

int perfan__sample_decode(struct perfan_perfdata *pd, const uint8_t *rec,
			  size_t len, const struct perfan_event *ev,
			  struct perfan_sample *s, uint64_t off)
{
	const struct perfan_attr *at = &ev->attr;
	uint64_t t = at->sample_type;
	struct perfan__cur c = perfan__cur_make(rec + 8, len - 8, pd->swap);
	const uint8_t *p;
	memset(s, 0, sizeof(*s));
	s->type = t;
	s->branch_hw_idx = (uint64_t)-1;
	if (t & PERFAN_SAMPLE_IDENTIFIER)
		s->identifier = perfan__cur_u64(&c);
	if (t & PERFAN_SAMPLE_IP)
		s->ip = perfan__cur_u64(&c);
	if (t & PERFAN_SAMPLE_TID) {
		s->pid = perfan__cur_u32(&c);
		s->tid = perfan__cur_u32(&c);
	}
	if (t & PERFAN_SAMPLE_TIME)
		s->time = perfan__cur_u64(&c);
	if (t & PERFAN_SAMPLE_ADDR)
		s->addr = perfan__cur_u64(&c);
	if (t & PERFAN_SAMPLE_ID)
		s->id = perfan__cur_u64(&c);
	if (t & PERFAN_SAMPLE_STREAM_ID)
		s->stream_id = perfan__cur_u64(&c);
	if (t & PERFAN_SAMPLE_CPU) {
		s->cpu = perfan__cur_u32(&c);
		s->res = perfan__cur_u32(&c);
	}
	if (t & PERFAN_SAMPLE_PERIOD)
		s->period = perfan__cur_u64(&c);
	if (c.bad)
		return bad(pd, off, "fixed fields", len);
	if (t & PERFAN_SAMPLE_READ) {
		int rc = perfan__read_values(pd, &c, at->read_format, &s->read);
		if (rc == PERFAN_ENOMEM)
			return rc;
		if (c.bad)
			return bad(pd, off, "read values", len);
	}
	if (t & PERFAN_SAMPLE_CALLCHAIN) {
		s->callchain_nr = perfan__cur_u64(&c);
		if (s->callchain_nr > perfan__cur_left(&c) / 8)
			return bad(pd, off, "callchain", len);
		p = perfan__cur_take(&c, s->callchain_nr * 8);
		s->callchain = perfan__scratch_u64s(pd, p, s->callchain_nr);
		if (!s->callchain && s->callchain_nr)
			return PERFAN_ENOMEM;
	}
	if (t & PERFAN_SAMPLE_RAW) {
		s->raw_size = perfan__cur_u32(&c);
		s->raw = perfan__cur_take(&c, s->raw_size);
		if (c.bad)
			return bad(pd, off, "raw data", len);
	}
	if (t & PERFAN_SAMPLE_BRANCH_STACK) {
		s->branch_nr = perfan__cur_u64(&c);
		if (at->branch_sample_type & PERFAN_BRANCH_HW_INDEX)
			s->branch_hw_idx = perfan__cur_u64(&c);
		if (s->branch_nr > perfan__cur_left(&c) / 24)
			return bad(pd, off, "branch stack", len);
		p = perfan__cur_take(&c, s->branch_nr * 24);
		s->branches = (const struct perfan_branch_entry *)
			perfan__scratch_u64s(pd, p, s->branch_nr * 3);
		if (!s->branches && s->branch_nr)
			return PERFAN_ENOMEM;
	}
	if (t & PERFAN_SAMPLE_REGS_USER) {
		int rc = read_regs(pd, &c, at->sample_regs_user, &s->user_regs);
		if (rc == PERFAN_ENOMEM)
			return rc;
		if (c.bad)
			return bad(pd, off, "user registers", len);
	}
	if (t & PERFAN_SAMPLE_STACK_USER) {
		s->user_stack_size = perfan__cur_u64(&c);
		if (s->user_stack_size) {
			if (s->user_stack_size > perfan__cur_left(&c))
				return bad(pd, off, "user stack", len);
			s->user_stack =
				perfan__cur_take(&c, s->user_stack_size);
			s->user_stack_dyn_size = perfan__cur_u64(&c);
			if (s->user_stack_dyn_size > s->user_stack_size)
				s->user_stack_dyn_size = s->user_stack_size;
		}
		if (c.bad)
			return bad(pd, off, "user stack", len);
	}
	if (t & (PERFAN_SAMPLE_WEIGHT | PERFAN_SAMPLE_WEIGHT_STRUCT)) {
		uint64_t w = perfan__cur_u64(&c);
		if (t & PERFAN_SAMPLE_WEIGHT_STRUCT) {
			s->weight = w & 0xffffffffu;
			s->weight_var2 = (uint16_t)(w >> 32);
			s->weight_var3 = (uint16_t)(w >> 48);
		} else {
			s->weight = w;
		}
	}
	if (t & PERFAN_SAMPLE_DATA_SRC)
		s->data_src = perfan__cur_u64(&c);
	if (t & PERFAN_SAMPLE_TRANSACTION)
		s->transaction = perfan__cur_u64(&c);
	if (t & PERFAN_SAMPLE_REGS_INTR) {
		int rc = read_regs(pd, &c, at->sample_regs_intr, &s->intr_regs);
		if (rc == PERFAN_ENOMEM)
			return rc;
	}
	if (t & PERFAN_SAMPLE_PHYS_ADDR)
		s->phys_addr = perfan__cur_u64(&c);
	if (t & PERFAN_SAMPLE_CGROUP)
		s->cgroup = perfan__cur_u64(&c);
	if (t & PERFAN_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = perfan__cur_u64(&c);
	if (t & PERFAN_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = perfan__cur_u64(&c);
	if (t & PERFAN_SAMPLE_AUX) {
		s->aux_size = perfan__cur_u64(&c);
		if (s->aux_size > perfan__cur_left(&c))
			return bad(pd, off, "aux data", len);
		s->aux = perfan__cur_take(&c, s->aux_size);
	}
	if (c.bad)
		return bad(pd, off, "fields", len);
	return 0;
}

static const uint64_t id_bits = PERFAN_SAMPLE_TID | PERFAN_SAMPLE_TIME |
				PERFAN_SAMPLE_ID | PERFAN_SAMPLE_STREAM_ID |
				PERFAN_SAMPLE_CPU | PERFAN_SAMPLE_IDENTIFIER;

size_t perfan__sample_id_size(uint64_t st)
{
	return (size_t)__builtin_popcountll(st & id_bits) * 8;
}

void perfan__sample_id_decode(const uint8_t *rec, size_t len, uint64_t st,
			      int swap, struct perfan_sample_id *o)
{
	memset(o, 0, sizeof(*o));
	size_t n = perfan__sample_id_size(st);
	if (!n || n + 8 > len)
		return;
	struct perfan__cur c = perfan__cur_make(rec + len - n, n, swap);
	o->present = st & id_bits;
	if (st & PERFAN_SAMPLE_TID) {
		o->pid = perfan__cur_u32(&c);
		o->tid = perfan__cur_u32(&c);
	}
	if (st & PERFAN_SAMPLE_TIME)
		o->time = perfan__cur_u64(&c);
	if (st & PERFAN_SAMPLE_ID)
		o->id = perfan__cur_u64(&c);
	if (st & PERFAN_SAMPLE_STREAM_ID)
		o->stream_id = perfan__cur_u64(&c);
	if (st & PERFAN_SAMPLE_CPU) {
		o->cpu = perfan__cur_u32(&c);
		o->res = perfan__cur_u32(&c);
	}
	if (st & PERFAN_SAMPLE_IDENTIFIER)
		o->id = perfan__cur_u64(&c);
}

uint64_t perfan__record_time(struct perfan_perfdata *pd,
			     const struct perfan__raw *r)
{
	if (r->type >= PERFAN_REC_HEADER_ATTR)
		return 0;
	if (r->type == PERFAN_REC_SAMPLE) {
		const struct perfan_event *ev = perfan__event_for_sample(
			pd, PERFAN__IDS_READ, r->bytes + 8, r->size - 8);
		if (!ev)
			return 0;
		uint64_t st = ev->attr.sample_type;
		if (!(st & PERFAN_SAMPLE_TIME))
			return 0;
		size_t idx = !!(st & PERFAN_SAMPLE_IDENTIFIER) +
			     !!(st & PERFAN_SAMPLE_IP) +
			     !!(st & PERFAN_SAMPLE_TID);
		if (8 + idx * 8 + 8 > r->size)
			return 0;
		return perfan__u64(r->bytes + 8 + idx * 8, pd->swap);
	}
	const struct perfan_event *ev = perfan__event_for_other(
		pd, PERFAN__IDS_READ, r->bytes, r->size);
	if (!ev || !(ev->attr.flags & PERFAN_ATTR_SAMPLE_ID_ALL))
		return 0;
	uint64_t st = ev->attr.sample_type;
	if (!(st & PERFAN_SAMPLE_TIME))
		return 0;
	size_t n = perfan__sample_id_size(st);
	if (n + 8 > r->size)
		return 0;
	size_t at = r->size - n + (st & PERFAN_SAMPLE_TID ? 8 : 0);
	return perfan__u64(r->bytes + at, pd->swap);
}
