/* sources/perfdata/tracing.c: perf's tracing data (the tracepoint formats stored in
 * perf.data) handed to libtraceevent, to name tracepoint events "sys:name"
 * and, kept with the file, to decode their RAW fields (the stream). */
#define _GNU_SOURCE
#include "sources/perfdata/tracing.h"
#include "sources/perfdata/internal.h"

#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

/* One event's format, without its "print fmt:" line. perfan reads the
 * name, the ID and the fields, never the print format; libtraceevent's
 * parser of that expression crashes on some malformed ones (a SEGV in its
 * recursive argument parser, found by fuzz_perfdata), so it gets an empty
 * one in its place. */
static void parse_format(struct tep_handle *tep, const char *fmt, size_t sz,
			 const char *sys)
{
	static const char key[] = "\nprint fmt:";
	static const char empty[] = "\nprint fmt: \"\"\n";
	const char *at = memmem(fmt, sz, key, sizeof(key) - 1);
	size_t keep = at ? (size_t)(at - fmt) : sz;
	char *buf = malloc(keep + sizeof(empty));
	if (!buf)
		return;
	memcpy(buf, fmt, keep);
	memcpy(buf + keep, empty, sizeof(empty));
	tep_parse_event(tep, buf, keep + sizeof(empty) - 1, sys);
	free(buf);
}

/* Past a u64 size and that many bytes; -1 when fewer are left. */
static int skip_sized(struct perfan__cur *c)
{
	uint64_t sz = perfan__cur_u64(c);
	if (sz > perfan__cur_left(c))
		return -1;
	perfan__cur_take(c, (size_t)sz);
	return 0;
}

/* perf's layout: "\027\010\104tracing", version string, endian byte,
 * long size byte, u32 page size, header_page, header_event, ftrace
 * formats, then per system its event formats; the rest is not needed. */
static int parse(struct tep_handle *tep, const uint8_t *p, size_t len)
{
	static const char magic[] = "\027\010\104tracing";
	struct perfan__cur c = perfan__cur_make(p, len, 0);
	const uint8_t *m = perfan__cur_take(&c, 10);
	if (!m || memcmp(m, magic, 10))
		return -1;
	size_t vlen = strnlen((const char *)c.p + c.pos, perfan__cur_left(&c));
	if (!perfan__cur_take(&c, vlen + 1))
		return -1;
	c.swap = perfan__cur_u8(&c) != 0; /* we only run little-endian */
	tep_set_file_bigendian(tep,
			       c.swap ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, perfan__cur_u8(&c));
	tep_set_page_size(tep, (int)perfan__cur_u32(&c));
	for (int i = 0; i < 2; i++) { /* header_page, header_event */
		size_t n = strnlen((const char *)c.p + c.pos,
				   perfan__cur_left(&c));
		perfan__cur_take(&c, n + 1);
		if (skip_sized(&c))
			return -1;
	}
	uint32_t nftrace = perfan__cur_u32(&c);
	for (uint32_t i = 0; i < nftrace && !c.bad; i++)
		if (skip_sized(&c))
			return -1;
	uint32_t nsys = perfan__cur_u32(&c);
	for (uint32_t s = 0; s < nsys && !c.bad; s++) {
		size_t n = strnlen((const char *)c.p + c.pos,
				   perfan__cur_left(&c));
		if (n == perfan__cur_left(&c))
			return -1;
		const char *sys = (const char *)perfan__cur_take(&c, n + 1);
		uint32_t nev = perfan__cur_u32(&c);
		for (uint32_t e = 0; e < nev && !c.bad; e++) {
			uint64_t sz = perfan__cur_u64(&c);
			if (sz > perfan__cur_left(&c))
				return -1;
			const char *fmt =
				(const char *)perfan__cur_take(&c, (size_t)sz);
			/* a format libtraceevent cannot parse only loses
			 * that event's name */
			if (fmt)
				parse_format(tep, fmt, (size_t)sz, sys);
		}
	}
	return c.bad ? -1 : 0;
}

void perfan__tracing_name_events(struct perfan_perfdata *pd)
{
	const struct perfan_features *f = &pd->feat;
	if (!f->tracing_data || !f->tracing_data_size)
		return;
	int any = 0, derived = 0;
	for (size_t i = 0; i < pd->nr_events; i++) {
		any |= pd->events[i].attr.type == 2;
		derived |= pd->events[i].attr.type == 2 &&
			   pd->events[i].name_derived;
	}
	if (!any)
		return;
	/* Parsed once per tracing data (pipe mode calls this again for
	 * each ATTR), so that what the stream found in it stays valid. */
	if (!pd->tep || pd->tep_data != f->tracing_data) {
		perfan__tracing_free(pd);
		struct tep_handle *tep = tep_alloc();
		if (!tep)
			return;
		pd->tep = tep;
		pd->tep_data = f->tracing_data;
		pd->tep_gen++;
		pd->tep_bad = parse(tep, f->tracing_data,
				    (size_t)f->tracing_data_size) != 0;
	}
	struct tep_handle *tep = pd->tep;
	if (pd->tep_bad && derived)
		perfan__log(pd, PERFAN_LOG_WARN,
			    "%s: tracing data is malformed; some tracepoint "
			    "names are unknown",
			    pd->name);
	for (size_t i = 0; i < pd->nr_events; i++) {
		struct perfan_event *ev = &pd->events[i];
		if (ev->attr.type != 2 || !ev->name_derived)
			continue;
		struct tep_event *te =
			tep_find_event(tep, (int)ev->attr.config);
		if (!te || !te->system || !te->name)
			continue;
		size_t n = strlen(te->system) + strlen(te->name) + 2;
		char *name = perfan__arena_alloc(&pd->arena, n);
		if (name) {
			snprintf(name, n, "%s:%s", te->system, te->name);
			ev->name = name;
			ev->name_derived = 0; /* the file's tracing data's */
		}
	}
}

struct tep_handle *perfan__perfdata_tep(struct perfan_perfdata *pd)
{
	return pd->tep;
}

unsigned perfan__perfdata_tep_gen(const struct perfan_perfdata *pd)
{
	return pd->tep_gen;
}

void perfan__tracing_free(struct perfan_perfdata *pd)
{
	if (pd->tep)
		tep_free(pd->tep);
	pd->tep = NULL;
	pd->tep_data = NULL;
}
