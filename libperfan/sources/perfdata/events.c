/* sources/perfdata/events.c: the recording's events (attrs), their sample ids, and
 * finding the event a record belongs to. */
#include "sources/perfdata/internal.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

#define MAX_EVENTS 65536

int perfan__event_map_id(struct perfan_perfdata *pd, uint64_t id, size_t idx)
{
	if (perfan__htab_put(&pd->ids, id, idx))
		return PD_ERR(pd, PERFAN_ENOMEM, pd->pos, "out of memory");
	/* the cached slot may have meant another event */
	pd->id_cache[PERFAN__IDS_READ][id % PERFAN__ID_CACHE].id = 0;
	pd->id_cache[PERFAN__IDS_DECODE][id % PERFAN__ID_CACHE].id = 0;
	return 0;
}

static const struct perfan_event *lookup(const struct perfan_perfdata *pd,
					 uint64_t id)
{
	const uint64_t *idx = perfan__htab_get(&pd->ids, id);
	return idx ? &pd->events[*idx] : NULL;
}

/* LOOKUP through the cache of the ids met lately (ID is not 0). */
static const struct perfan_event *lookup_cached(struct perfan_perfdata *pd,
						int ids, uint64_t id)
{
	struct perfan__id_slot *c = &pd->id_cache[ids][id % PERFAN__ID_CACHE];
	if (c->id == id)
		return &pd->events[c->idx];
	const uint64_t *idx = perfan__htab_get(&pd->ids, id);
	if (!idx)
		return NULL;
	c->id = id;
	c->idx = (size_t)*idx;
	return &pd->events[*idx];
}

const struct perfan_event *
perfan_perfdata_event_by_id(const perfan_perfdata *pd, uint64_t id)
{
	return lookup(pd, id);
}

int perfan__event_add_ids(struct perfan_perfdata *pd, size_t idx,
			  const uint64_t *ids, size_t nr)
{
	struct perfan_event *ev = &pd->events[idx];
	if (nr) {
		uint64_t *all =
			perfan__arena_alloc(&pd->arena, (ev->nr_ids + nr) * 8);
		if (!all)
			return PD_ERR(pd, PERFAN_ENOMEM, pd->pos,
				      "out of memory");
		if (ev->nr_ids)
			memcpy(all, ev->ids, ev->nr_ids * 8);
		memcpy(all + ev->nr_ids, ids, nr * 8);
		ev->ids = all;
		ev->nr_ids += nr;
	}
	for (size_t i = 0; i < nr; i++) {
		int rc = perfan__event_map_id(pd, ids[i], idx);
		if (rc)
			return rc;
	}
	return 0;
}

/* Where the id sits: perf's evsel__calc_id_pos. */
static int calc_id_pos(uint64_t st)
{
	int idx = 0;
	if (st & PERFAN_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & PERFAN_SAMPLE_ID))
		return -1;
	if (st & PERFAN_SAMPLE_IP)
		idx++;
	if (st & PERFAN_SAMPLE_TID)
		idx++;
	if (st & PERFAN_SAMPLE_TIME)
		idx++;
	if (st & PERFAN_SAMPLE_ADDR)
		idx++;
	return idx;
}

static int calc_is_pos(uint64_t st)
{
	int idx = 1;
	if (st & PERFAN_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & PERFAN_SAMPLE_ID))
		return -1;
	if (st & PERFAN_SAMPLE_CPU)
		idx++;
	if (st & PERFAN_SAMPLE_STREAM_ID)
		idx++;
	return idx;
}

int perfan__event_add(struct perfan_perfdata *pd, const struct perfan_attr *at,
		      const uint64_t *ids, size_t nr_ids)
{
	if (pd->nr_events >= MAX_EVENTS)
		return PD_ERR(pd, PERFAN_EFORMAT, pd->pos,
			      "more than %d events: not a plausible recording",
			      MAX_EVENTS);
	if (perfan__grow((void **)&pd->events, &pd->cap_events,
			 pd->nr_events + 1, sizeof(*pd->events)))
		return PD_ERR(pd, PERFAN_ENOMEM, pd->pos, "out of memory");
	struct perfan_event *ev = &pd->events[pd->nr_events];
	memset(ev, 0, sizeof(*ev));
	ev->attr = *at;
	ev->index = pd->nr_events;
	pd->nr_events++;
	if (pd->nr_events == 1) {
		pd->id_pos = calc_id_pos(at->sample_type);
		pd->is_pos = calc_is_pos(at->sample_type);
	}
	return perfan__event_add_ids(pd, ev->index, ids, nr_ids);
}

/* perf names events from EVENT_DESC by each entry's first id, or by
 * position when the file has no ids; the rest get the derived name. */
void perfan__events_apply_desc(struct perfan_perfdata *pd)
{
	const struct perfan_features *f = &pd->feat;
	if (!perfan_features_has(f, PERFAN_FEAT_EVENT_DESC))
		return;
	for (size_t i = 0; i < f->nr_event_descs; i++) {
		const struct perfan_event_desc *d = &f->event_descs[i];
		if (!d->name)
			continue;
		const struct perfan_event *ev = NULL;
		if (d->nr_ids)
			ev = lookup(pd, d->ids[0]);
		else if (i < pd->nr_events && !pd->events[i].nr_ids)
			ev = &pd->events[i];
		if (ev) {
			pd->events[ev->index].name = d->name;
			pd->events[ev->index].name_derived = 0;
		}
	}
}

void perfan__events_finish(struct perfan_perfdata *pd)
{
	for (size_t i = 0; i < pd->nr_events; i++) {
		struct perfan_event *ev = &pd->events[i];
		if (!ev->name) {
			ev->name = perfan__attr_name(&pd->arena, &ev->attr);
			ev->name_derived = 1;
		}
	}
	perfan__tracing_name_events(pd);
}

void perfan__events_free(struct perfan_perfdata *pd)
{
	free(pd->events);
	perfan__htab_free(&pd->ids);
	memset(pd->id_cache, 0, sizeof(pd->id_cache));
	pd->events = NULL;
}

const struct perfan_event *perfan__event_for_sample(struct perfan_perfdata *pd,
						    int ids,
						    const uint8_t *body,
						    size_t len)
{
	if (pd->nr_events == 0)
		return NULL;
	if (pd->nr_events == 1 || pd->id_pos < 0)
		return &pd->events[0];
	if ((size_t)(pd->id_pos + 1) * 8 > len)
		return NULL;
	uint64_t id = perfan__u64(body + pd->id_pos * 8, pd->swap);
	/* synthesized records carry id 0: perf gives them the first event */
	return id ? lookup_cached(pd, ids, id) : &pd->events[0];
}

const struct perfan_event *perfan__event_for_other(struct perfan_perfdata *pd,
						   int ids, const uint8_t *rec,
						   size_t len)
{
	if (pd->nr_events == 0)
		return NULL;
	if (pd->nr_events == 1 || pd->is_pos < 0)
		return &pd->events[0];
	if (!(pd->events[0].attr.flags & PERFAN_ATTR_SAMPLE_ID_ALL))
		return &pd->events[0];
	if ((size_t)pd->is_pos * 8 + 8 > len)
		return NULL;
	uint64_t id = perfan__u64(rec + len - (size_t)pd->is_pos * 8, pd->swap);
	return id ? lookup_cached(pd, ids, id) : &pd->events[0];
}
