/* resolve/jit.c: which files name the JIT code of a process (its jitdump,
 * found through the dump's MMAP as perf inject finds it or in
 * opts->jitdump_dir; its perf map in opts->perf_map_dir or /tmp), read
 * once each on first use, and the search through a forked child's
 * ancestors. A jitdump's records count from their timestamps when the
 * recording used the dump's clock (perf record -k mono); otherwise the
 * code loaded last at an address names it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resolve/jit.h"
#include "resolve/symbols.h"
#include "util/error.h"

/* Ancestors searched for a forked child's code. */
#define MAX_CHAIN 8
/* CLOCK_MONOTONIC, what JITs stamp their jitdump records with. */
#define CLOCK_MONO 1
#define ATTR_USE_CLOCKID (1ull << 25)

struct jitproc {
	int32_t pid;
	uint8_t map_tried, dump_tried;
	uint8_t dump_timed; /* the dump's times compare with samples' */
	char *dump_path;    /* from its MMAP record */
	struct perfan__jitmap *map;
	struct perfan__jitdump *dump;
};

struct jit_state {
	struct perfan__htab by_pid; /* pid -> struct jitproc * */
	int clock_checked, clock_mono;
};

static struct jit_state *state(struct perfan__symctx *ctx)
{
	if (!ctx->jit)
		ctx->jit = calloc(1, sizeof(struct jit_state));
	return ctx->jit;
}

static struct jitproc *jitproc(struct perfan__symctx *ctx, int32_t pid,
			       int create)
{
	struct jit_state *js = state(ctx);
	if (!js)
		return NULL;
	uint64_t *v = perfan__htab_get(&js->by_pid, (uint32_t)pid);
	if (v)
		return (struct jitproc *)(uintptr_t)*v;
	if (!create)
		return NULL;
	struct jitproc *jp = calloc(1, sizeof(*jp));
	if (!jp)
		return NULL;
	jp->pid = pid;
	if (perfan__htab_put(&js->by_pid, (uint32_t)pid, (uintptr_t)jp)) {
		free(jp);
		return NULL;
	}
	return jp;
}

/* "jit-PID.dump" as perf's jit_detect wants it: the PID in the name,
 * which must be the mapping process's (any, for pid 0 or -1: system-wide
 * synthesized maps). */
static int dump_pid(const char *filename, int32_t pid, int32_t *out)
{
	const char *b = strrchr(filename, '/');
	b = b ? b + 1 : filename;
	if (strncmp(b, "jit-", 4) || b[4] < '0' || b[4] > '9')
		return 0;
	char *end;
	long v = strtol(b + 4, &end, 10);
	if (strcmp(end, ".dump") || v <= 0 || v > INT32_MAX)
		return 0;
	if (pid > 0 && v != pid)
		return 0;
	*out = (int32_t)v;
	return 1;
}

int perfan__jit_mmap(struct perfan__symctx *ctx, int32_t pid,
		     const char *filename)
{
	int32_t dpid;
	if (!filename || !dump_pid(filename, pid, &dpid))
		return 0;
	struct jitproc *jp = jitproc(ctx, dpid, 1);
	if (!jp)
		return PERFAN_ENOMEM;
	if (jp->dump_path || jp->dump_tried)
		return 0; /* the first one stays, as it is already read */
	jp->dump_path = strdup(filename);
	return jp->dump_path ? 0 : PERFAN_ENOMEM;
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static int clock_mono(struct perfan__symctx *ctx)
{
	struct jit_state *js = ctx->jit;
	if (js->clock_checked)
		return js->clock_mono;
	js->clock_checked = 1;
	size_t n = ctx->pd ? perfan_perfdata_nr_events(ctx->pd) : 0;
	js->clock_mono = n > 0;
	for (size_t i = 0; i < n; i++) {
		const struct perfan_event *ev =
			perfan_perfdata_event(ctx->pd, i);
		if (!ev || !(ev->attr.flags & ATTR_USE_CLOCKID) ||
		    ev->attr.clockid != CLOCK_MONO)
			js->clock_mono = 0;
	}
	return js->clock_mono;
}

static void log_dump(struct perfan__symctx *ctx, struct jitproc *jp)
{
	struct perfan__jitdump *jd = jp->dump;
	perfan__symlog(ctx, PERFAN_LOG_DEBUG,
		       "%s: %llu records: %llu code loads, %llu moves, %llu "
		       "unwind tables",
		       jd->path, (unsigned long long)jd->records,
		       (unsigned long long)jd->loads,
		       (unsigned long long)jd->moves,
		       (unsigned long long)jd->unwinding_info);
	if (jd->corrupt)
		perfan__symlog(ctx, PERFAN_LOG_WARN,
			       "%s: %s at offset %llu: read up to it", jd->path,
			       jd->corrupt, (unsigned long long)jd->corrupt_at);
	else if (jd->truncated)
		perfan__symlog(ctx, PERFAN_LOG_WARN,
			       "%s: ends inside a record at offset %llu: read "
			       "up to it",
			       jd->path, (unsigned long long)jd->whole);
	if (jd->bad_unwind)
		perfan__symlog(ctx, PERFAN_LOG_WARN,
			       "%s: %llu malformed unwinding records skipped",
			       jd->path, (unsigned long long)jd->bad_unwind);
	if (!jp->dump_timed && jd->loads)
		perfan__symlog(ctx, PERFAN_LOG_INFO,
			       "%s: its timestamps cannot be compared with "
			       "the recording's (%s): each address is named "
			       "by the code loaded there last",
			       jd->path,
			       jd->flags & PERFAN__JITDUMP_FLAGS_ARCH_TIMESTAMP
				       ? "they count CPU cycles"
				       : "record with -k mono for that");
}

static void load_dump(struct perfan__symctx *ctx, struct jitproc *jp)
{
	jp->dump_tried = 1;
	const char *dir = ctx->o.jitdump_dir;
	char own[32];
	const char *name = jp->dump_path;
	if (!name) {
		if (!dir)
			return; /* perf's way: only a dump the process mapped */
		snprintf(own, sizeof(own), "jit-%d.dump", jp->pid);
		name = own;
	}
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	char *cand[2] = {dir ? join(dir, base) : NULL,
			 jp->dump_path ? strdup(jp->dump_path) : NULL};
	int err = PERFAN_ENOTFOUND;
	for (int i = 0; i < 2 && err == PERFAN_ENOTFOUND; i++)
		if (cand[i])
			err = perfan__jitdump_open(&jp->dump, cand[i]);
	if (err == PERFAN_ENOTFOUND && (cand[0] || cand[1]))
		perfan__symlog(ctx, PERFAN_LOG_INFO,
			       "%s%s%s: not found: the JIT code of process %d "
			       "it names stays unnamed",
			       cand[0] ? cand[0] : cand[1],
			       cand[0] && cand[1] ? " or " : "",
			       cand[0] && cand[1] ? cand[1] : "", jp->pid);
	else if (err)
		perfan__symlog(ctx, PERFAN_LOG_WARN, "%s", perfan_error_last());
	free(cand[0]);
	free(cand[1]);
	if (!jp->dump)
		return;
	jp->dump_timed =
		clock_mono(ctx) &&
		!(jp->dump->flags & PERFAN__JITDUMP_FLAGS_ARCH_TIMESTAMP);
	log_dump(ctx, jp);
}

static void load_map(struct perfan__symctx *ctx, struct jitproc *jp)
{
	jp->map_tried = 1;
	char name[32];
	snprintf(name, sizeof(name), "perf-%d.map", jp->pid);
	char *path =
		join(ctx->o.perf_map_dir ? ctx->o.perf_map_dir : "/tmp", name);
	struct perfan__jitmap *m = calloc(1, sizeof(*m));
	if (!path || !m) {
		free(path);
		free(m);
		return;
	}
	struct perfan__perfmap_stats st;
	int err = perfan__perfmap_load(m, path, &st);
	if (err) {
		if (err == PERFAN_ENOTFOUND)
			perfan__symlog(ctx, PERFAN_LOG_INFO,
				       "%s: not found: the JIT code of process "
				       "%d stays unnamed",
				       path, jp->pid);
		else
			perfan__symlog(ctx, PERFAN_LOG_WARN,
				       "%s: cannot be read: %s", path,
				       perfan_error_last());
		perfan__jitmap_free(m);
		free(m);
		free(path);
		return;
	}
	perfan__symlog(ctx, PERFAN_LOG_DEBUG, "%s: %llu symbols", path,
		       (unsigned long long)st.symbols);
	if (st.bad_lines)
		perfan__symlog(ctx, PERFAN_LOG_WARN,
			       "%s: %llu malformed line%s skipped (the first "
			       "is line %llu)",
			       path, (unsigned long long)st.bad_lines,
			       st.bad_lines == 1 ? "" : "s",
			       (unsigned long long)st.first_bad_line);
	jp->map = m;
	free(path);
}

/* The processes to search, the sample's first. */
static size_t chain(struct perfan__symctx *ctx, const struct perfan__proc *proc,
		    int32_t dso_pid, int32_t *pids)
{
	size_t n = 0;
	for (const struct perfan__proc *p = proc; p && n < MAX_CHAIN - 1;) {
		pids[n++] = p->pid;
		int32_t pp = p->ppid;
		if (pp <= 0)
			break;
		uint64_t *v =
			perfan__htab_get(&ctx->threads.procs, (uint32_t)pp);
		const struct perfan__proc *next =
			v ? (const struct perfan__proc *)(uintptr_t)*v : NULL;
		if (!next) {
			pids[n++] = pp; /* gone, but its files may not be */
			break;
		}
		p = next;
	}
	int seen = 0;
	for (size_t i = 0; i < n; i++)
		seen |= pids[i] == dso_pid;
	if (!seen && dso_pid > 0)
		pids[n++] = dso_pid;
	return n;
}

static const struct perfan__jitsym *
find(struct perfan__symctx *ctx, const struct perfan__proc *proc,
     int32_t dso_pid, uint64_t addr, uint64_t time, int need_unwind,
     struct perfan__jitmap **from, struct jitproc **which)
{
	int32_t pids[MAX_CHAIN + 1];
	size_t n = chain(ctx, proc, dso_pid, pids);
	for (size_t i = 0; i < n; i++) {
		if (pids[i] <= 0)
			continue;
		struct jitproc *jp = jitproc(ctx, pids[i], 1);
		if (!jp)
			return NULL;
		if (!jp->dump_tried)
			load_dump(ctx, jp);
		if (jp->dump) {
			const struct perfan__jitsym *s = perfan__jitdump_find(
				jp->dump, addr,
				jp->dump_timed ? time : UINT64_MAX);
			if (s && (!need_unwind || s->unwind)) {
				if (from)
					*from = &jp->dump->code;
				*which = jp;
				return s;
			}
		}
		if (need_unwind)
			continue;
		if (!jp->map_tried)
			load_map(ctx, jp);
		const struct perfan__jitsym *s =
			perfan__jitmap_find(jp->map, addr, 0);
		if (s) {
			if (from)
				*from = jp->map;
			*which = jp;
			return s;
		}
	}
	return NULL;
}

const struct perfan__jitsym *perfan__jit_find(struct perfan__symctx *ctx,
					      const struct perfan__proc *proc,
					      int32_t dso_pid, uint64_t addr,
					      uint64_t time,
					      struct perfan__jitmap **from)
{
	struct jitproc *jp;
	return find(ctx, proc, dso_pid, addr, time, 0, from, &jp);
}

int perfan__jit_unwind(struct perfan__symctx *ctx,
		       const struct perfan__proc *proc, int32_t dso_pid,
		       uint64_t addr, uint64_t time, const uint8_t **eh_frame,
		       size_t *len, uint64_t *eh_frame_base,
		       uint64_t *code_start, uint64_t *code_end)
{
	struct jitproc *jp;
	if (!find(ctx, proc, dso_pid, addr, time, 1, NULL, &jp))
		return PERFAN_ENOTFOUND;
	return perfan__jitdump_unwind(jp->dump, addr,
				      jp->dump_timed ? time : UINT64_MAX,
				      eh_frame, len, eh_frame_base, NULL, NULL,
				      code_start, code_end);
}

void perfan__jit_free(struct perfan__symctx *ctx)
{
	struct jit_state *js = ctx->jit;
	if (!js)
		return;
	size_t pos = 0;
	uint64_t v;
	while (perfan__htab_next(&js->by_pid, &pos, NULL, &v)) {
		struct jitproc *jp = (struct jitproc *)(uintptr_t)v;
		perfan__jitdump_free(jp->dump);
		perfan__jitmap_free(jp->map);
		free(jp->map);
		free(jp->dump_path);
		free(jp);
	}
	perfan__htab_free(&js->by_pid);
	free(js);
	ctx->jit = NULL;
}
