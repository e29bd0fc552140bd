/* check_records.c: decoded records agree with perf's view of the same files:
 * samples (tid, cpu, time, period, event, callchain, comm) with `perf script`,
 * tracepoint RAW data with the fields perf script printed, DWARF samples'
 * registers and stack copies, thread records, zstd and jitdump records. */
#define _GNU_SOURCE /* memmem */
#include <perfan/perfan.h>

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static perfan_perfdata *open_case(const char *rel,
				  const struct perfan_perfdata_opts *o)
{
	perfan_perfdata *pd;

	ck_assert_msg(perfan_perfdata_open(&pd, tu_testdata(rel), o) == 0, "%s",
		      perfan_error_last());
	return pd;
}

/* ---- perf script's output ------------------------------------------------ */

#define MAX_FRAMES 256

struct sblock {
	char comm[64];
	uint32_t tid;
	int cpu;     /* -1: not printed */
	uint64_t us; /* time in microseconds */
	int has_period;
	uint64_t period;
	char event[128];  /* without the colon */
	char fields[512]; /* what follows the event (tracepoint fields) */
	size_t nframes;
	uint64_t frames[MAX_FRAMES];
};

/* "486.913945:" -> microseconds */
static int parse_time(const char *tok, uint64_t *us)
{
	uint64_t sec = 0, frac = 0;
	int nd = 0;

	if (!isdigit((unsigned char)*tok))
		return 0;
	while (isdigit((unsigned char)*tok))
		sec = sec * 10 + (uint64_t)(*tok++ - '0');
	if (*tok++ != '.')
		return 0;
	while (isdigit((unsigned char)*tok)) {
		frac = frac * 10 + (uint64_t)(*tok++ - '0');
		nd++;
	}
	if (nd != 6 || strcmp(tok, ":") != 0)
		return 0;
	*us = sec * 1000000 + frac;
	return 1;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* Parse a sample line:
 *   COMM TID [CPU]? TIME: PERIOD? EVENT: FIELDS
 * COMM may hold spaces, so it is found from the time backwards. */
static void parse_header(const char *path, const char *line, struct sblock *b)
{
	char copy[2048], *tok[64], *save = NULL, *t;
	size_t n = 0, ti, k;
	const char *ev_at;

	memset(b, 0, sizeof(*b));
	b->cpu = -1;
	snprintf(copy, sizeof(copy), "%.2000s", line);
	for (t = strtok_r(copy, " \n", &save); t && n < 64;
	     t = strtok_r(NULL, " \n", &save))
		tok[n++] = t;
	for (ti = 0; ti < n; ti++)
		if (parse_time(tok[ti], &b->us))
			break;
	ck_assert_msg(ti < n && ti >= 2, "%s: no time in: %s", path, line);
	k = ti - 1;
	if (tok[k][0] == '[') {
		b->cpu = atoi(tok[k] + 1);
		k--;
	}
	ck_assert_msg(all_digits(tok[k]), "%s: no tid in: %s", path, line);
	b->tid = (uint32_t)strtoul(tok[k], NULL, 10);
	for (size_t i = 0; i < k; i++) {
		size_t len = strlen(b->comm);

		snprintf(b->comm + len, sizeof(b->comm) - len, "%s%s",
			 i ? " " : "", tok[i]);
	}
	k = ti + 1;
	if (k < n && all_digits(tok[k])) {
		b->has_period = 1;
		b->period = strtoull(tok[k], NULL, 10);
		k++;
	}
	ck_assert_msg(k < n, "%s: no event in: %s", path, line);
	snprintf(b->event, sizeof(b->event), "%.*s", (int)(strlen(tok[k]) - 1),
		 tok[k]);
	/* the fields: the rest of the original line */
	ev_at = strstr(line, tok[k]);
	ck_assert_ptr_nonnull(ev_at);
	snprintf(b->fields, sizeof(b->fields), "%.500s",
		 ev_at + strlen(tok[k]));
}

/* The sample blocks of a perf script capture, at most MAX of them. */
static size_t parse_script(const char *path, struct sblock *blocks, size_t max)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, n = 0;

	ck_assert_msg(fp != NULL, "cannot open %s", path);
	while (getline(&line, &cap, fp) > 0) {
		if (line[0] == '\n')
			continue;
		if (line[0] == '\t') {
			struct sblock *b;
			char *end;

			ck_assert_msg(n > 0, "%s: frame before a sample", path);
			if (n > max)
				continue;
			b = &blocks[n - 1];
			ck_assert_uint_lt(b->nframes, MAX_FRAMES);
			b->frames[b->nframes++] = strtoull(line, &end, 16);
			ck_assert_msg(end != line, "%s: bad frame: %s", path,
				      line);
			continue;
		}
		if (n < max)
			parse_header(path, line, &blocks[n]);
		n++;
	}
	free(line);
	fclose(fp);
	return n < max ? n : max;
}

/* ---- what perf knows of the processes: maps and comms -------------------- */

struct map {
	uint32_t pid;
	uint64_t start, end, pgoff;
};

struct thread_comm {
	uint32_t tid;
	char comm[64];
};

struct world {
	struct map *maps;
	size_t nmaps;
	struct thread_comm *comms;
	size_t ncomms;
};

static void add_map(struct world *w, uint32_t pid, uint64_t start, uint64_t len,
		    uint64_t pgoff)
{
	w->maps = realloc(w->maps, (w->nmaps + 1) * sizeof(*w->maps));
	ck_assert_ptr_nonnull(w->maps);
	w->maps[w->nmaps++] = (struct map){pid, start, start + len, pgoff};
}

static void set_comm(struct world *w, uint32_t tid, const char *comm)
{
	size_t i;

	for (i = 0; i < w->ncomms; i++)
		if (w->comms[i].tid == tid)
			break;
	if (i == w->ncomms) {
		w->comms = realloc(w->comms, (i + 1) * sizeof(*w->comms));
		ck_assert_ptr_nonnull(w->comms);
		w->ncomms++;
		w->comms[i].tid = tid;
	}
	snprintf(w->comms[i].comm, sizeof(w->comms[i].comm), "%.63s", comm);
}

static const char *get_comm(const struct world *w, uint32_t tid)
{
	for (size_t i = 0; i < w->ncomms; i++)
		if (w->comms[i].tid == tid)
			return w->comms[i].comm;
	return NULL;
}

/* Follow MMAP, MMAP2, COMM and FORK as perf does: a forked process starts
 * with its parent's maps and a new thread with its parent's comm. An exec
 * keeps the old maps until new ones cover them (a sample in execve after
 * the COMM still resolves in the old libc). */
static void world_update(struct world *w, const struct perfan_record *r)
{
	size_t n;

	switch (r->type) {
	case PERFAN_REC_MMAP:
	case PERFAN_REC_MMAP2:
		add_map(w, r->u.mmap.pid, r->u.mmap.start, r->u.mmap.len,
			r->u.mmap.pgoff);
		break;
	case PERFAN_REC_COMM: set_comm(w, r->u.comm.tid, r->u.comm.comm); break;
	case PERFAN_REC_FORK: {
		const char *parent = get_comm(w, r->u.fork_exit.ptid);
		char copy[64];

		if (parent) {
			snprintf(copy, sizeof(copy), "%s", parent);
			set_comm(w, r->u.fork_exit.tid, copy);
		}
		if (r->u.fork_exit.pid == r->u.fork_exit.ppid)
			break;
		n = w->nmaps;
		for (size_t i = 0; i < n; i++)
			if (w->maps[i].pid == r->u.fork_exit.ppid)
				add_map(w, r->u.fork_exit.pid, w->maps[i].start,
					w->maps[i].end - w->maps[i].start,
					w->maps[i].pgoff);
		break;
	}
	default: break;
	}
}

/* The address perf script prints for a user-space ADDR of PID: relative to
 * the newest map holding it (as map__map_ip does), or ADDR if none does. */
static uint64_t user_addr(const struct world *w, uint32_t pid, uint64_t addr)
{
	for (size_t i = w->nmaps; i-- > 0;)
		if (w->maps[i].pid == pid && addr >= w->maps[i].start &&
		    addr < w->maps[i].end)
			return addr - w->maps[i].start + w->maps[i].pgoff;
	return addr;
}

static void world_free(struct world *w)
{
	free(w->maps);
	free(w->comms);
}

/* ---- samples against perf script ----------------------------------------- */

/* The frames perf script prints for sample S: the callchain without its
 * context markers, kernel addresses as they are, user ones map-relative. */
static size_t expected_frames(const struct world *w,
			      const struct perfan_sample *s, uint64_t *out)
{
	uint64_t ctx = PERFAN_CONTEXT_USER;
	size_t n = 0;

	for (uint64_t i = 0; i < s->callchain_nr; i++) {
		uint64_t a = s->callchain[i];

		if (a >= PERFAN_CONTEXT_MAX) {
			ctx = a;
			continue;
		}
		ck_assert_uint_lt(n, MAX_FRAMES);
		out[n++] = ctx == PERFAN_CONTEXT_USER ? user_addr(w, s->pid, a)
						      : a;
	}
	return n;
}

/* The first MAX samples of testdata/CASE/perf.data equal script.txt's. */
static void compare_with_script(const char *dir, size_t max)
{
	char data[PATH_MAX], script[PATH_MAX];
	struct sblock *blocks = calloc(max, sizeof(*blocks));
	const struct perfan_record *r;
	struct world w = {0};
	perfan_perfdata *pd;
	size_t nb, i = 0;
	int rc;

	ck_assert_ptr_nonnull(blocks);
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	snprintf(script, sizeof(script), "%s/script.txt", tu_testdata(dir));
	nb = parse_script(script, blocks, max);
	ck_assert_uint_gt(nb, 0);
	pd = open_case(data, NULL);
	while (i < nb && (rc = perfan_perfdata_next(pd, &r)) == 0) {
		const struct perfan_sample *s = &r->u.sample;
		const struct sblock *b = &blocks[i];
		uint64_t frames[MAX_FRAMES];
		const char *comm;
		size_t nf;

		world_update(&w, r);
		if (r->type != PERFAN_REC_SAMPLE)
			continue;
		ck_assert_msg(r->event != NULL, "%s: sample %zu has no event",
			      data, i);
		ck_assert_msg(s->tid == b->tid,
			      "%s: sample %zu: tid %u, perf script %u", data, i,
			      s->tid, b->tid);
		ck_assert_uint_eq(s->time / 1000, b->us);
		if (b->cpu >= 0) {
			ck_assert(s->type & PERFAN_SAMPLE_CPU);
			ck_assert_uint_eq(s->cpu, (uint32_t)b->cpu);
		} else {
			ck_assert(!(s->type & PERFAN_SAMPLE_CPU));
		}
		if (b->has_period)
			ck_assert_uint_eq(s->period, b->period);
		ck_assert_str_eq(r->event->name, b->event);
		comm = get_comm(&w, s->tid);
		ck_assert_msg(comm && !strcmp(comm, b->comm),
			      "%s: sample %zu: comm %s, perf script %s", data,
			      i, comm ? comm : "(none)", b->comm);
		nf = expected_frames(&w, s, frames);
		ck_assert_msg(nf == b->nframes,
			      "%s: sample %zu: %zu frames, perf script %zu",
			      data, i, nf, b->nframes);
		for (size_t k = 0; k < nf; k++)
			ck_assert_msg(
				frames[k] == b->frames[k],
				"%s: sample %zu frame %zu: %llx, perf script %llx",
				data, i, k, (unsigned long long)frames[k],
				(unsigned long long)b->frames[k]);
		/* the first frame is the sample's ip */
		if (nf)
			ck_assert_uint_eq(frames[0],
					  s->ip >= 0xffff800000000000ull
						  ? s->ip
						  : user_addr(&w, s->pid,
							      s->ip));
		i++;
	}
	ck_assert_uint_eq(i, nb);
	perfan_perfdata_free(pd);
	world_free(&w);
	free(blocks);
}

START_TEST(test_fp_script)
{
	/* the first 20 as asked; the rest of the file is as cheap */
	compare_with_script("fp", 20);
	compare_with_script("fp", 100000);
}
END_TEST

START_TEST(test_more_scripts)
{
	/* kernel frames and CPUs (sched), threads, forks and exec
	 * (multi-thread-fork), pipe mode, zstd, two events */
	compare_with_script("sched", 100000);
	compare_with_script("multi-thread-fork", 100000);
	compare_with_script("pipe", 100000);
	compare_with_script("zstd", 100000);
	compare_with_script("two-events", 100000);
}
END_TEST

/* ---- tracepoints ----------------------------------------------------------- */

/* The offset of FIELD in the format of EVENT within the tracing data, e.g.
 * "prev_comm[16]" in "field:char prev_comm[16];\toffset:8;". */
static int field_offset(const char *td, size_t len, const char *event,
			const char *field)
{
	char pat[128];
	const char *ev, *f, *o;

	snprintf(pat, sizeof(pat), "name: %s\n", event);
	ev = memmem(td, len, pat, strlen(pat));
	ck_assert_msg(ev != NULL, "no format for %s", event);
	snprintf(pat, sizeof(pat), " %s;", field);
	f = memmem(ev, len - (size_t)(ev - td), pat, strlen(pat));
	ck_assert_msg(f != NULL, "no field %s in %s", field, event);
	o = memmem(f, len - (size_t)(f - td), "offset:", 7);
	ck_assert_ptr_nonnull(o);
	return atoi(o + 7);
}

/* The value of NAME= in perf script's tracepoint fields. */
static void script_field(const char *fields, const char *name, char *out,
			 size_t n)
{
	char pat[64];
	const char *p;
	size_t len;

	snprintf(pat, sizeof(pat), " %s=", name);
	p = strstr(fields, pat);
	ck_assert_msg(p != NULL, "no %s in %s", name, fields);
	p += strlen(pat);
	len = strcspn(p, " \n");
	ck_assert_uint_lt(len, n);
	memcpy(out, p, len);
	out[len] = '\0';
}

/* sched_switch samples carry RAW data, and the comm and pid fields in it
 * (at the offsets the file's own tracing data gives) are what perf script
 * printed for each sample. */
START_TEST(test_sched_raw)
{
	static struct sblock blocks[1024];
	const struct perfan_features *f;
	const struct perfan_record *r;
	perfan_perfdata *pd = open_case("sched/perf.data", NULL);
	int off_prev_comm, off_prev_pid, off_next_comm, off_next_pid;
	size_t nb, i = 0;

	nb = parse_script(tu_testdata("sched/script.txt"), blocks, 1024);
	ck_assert_uint_gt(nb, 100);
	f = perfan_perfdata_features(pd);
	ck_assert(perfan_features_has(f, PERFAN_FEAT_TRACING_DATA));
	ck_assert_uint_gt(f->tracing_data_size, 0);
	off_prev_comm = field_offset(f->tracing_data, f->tracing_data_size,
				     "sched_switch", "prev_comm[16]");
	off_prev_pid = field_offset(f->tracing_data, f->tracing_data_size,
				    "sched_switch", "prev_pid");
	off_next_comm = field_offset(f->tracing_data, f->tracing_data_size,
				     "sched_switch", "next_comm[16]");
	off_next_pid = field_offset(f->tracing_data, f->tracing_data_size,
				    "sched_switch", "next_pid");
	while (perfan_perfdata_next(pd, &r) == 0) {
		const struct perfan_sample *s = &r->u.sample;
		const uint8_t *raw;
		char want[64], got[17];
		int32_t pid;

		if (r->type != PERFAN_REC_SAMPLE)
			continue;
		ck_assert_ptr_nonnull(r->event);
		ck_assert_uint_eq(r->event->attr.type, 2); /* tracepoint */
		ck_assert(s->type & PERFAN_SAMPLE_RAW);
		ck_assert_uint_ge(s->raw_size, (uint32_t)off_next_pid + 4);
		ck_assert_ptr_nonnull(s->raw);
		raw = s->raw;
		/* common_type is the tracepoint's id, the attr's config */
		ck_assert_uint_eq(raw[0] | raw[1] << 8, r->event->attr.config);
		ck_assert_uint_lt(i, nb);
		memcpy(got, raw + off_prev_comm, 16);
		got[16] = '\0';
		script_field(blocks[i].fields, "prev_comm", want, sizeof(want));
		ck_assert_str_eq(got, want);
		memcpy(&pid, raw + off_prev_pid, 4);
		script_field(blocks[i].fields, "prev_pid", want, sizeof(want));
		ck_assert_int_eq(pid, atoi(want));
		memcpy(got, raw + off_next_comm, 16);
		script_field(blocks[i].fields, "next_comm", want, sizeof(want));
		ck_assert_str_eq(got, want);
		memcpy(&pid, raw + off_next_pid, 4);
		script_field(blocks[i].fields, "next_pid", want, sizeof(want));
		ck_assert_int_eq(pid, atoi(want));
		i++;
	}
	ck_assert_uint_eq(i, nb);
	perfan_perfdata_free(pd);
}
END_TEST

/* ---- DWARF samples ------------------------------------------------------------ */

START_TEST(test_dwarf_regs_stack)
{
	const struct perfan_record *r;
	perfan_perfdata *pd = open_case("dwarf/perf.data", NULL);
	size_t n = 0;

	while (perfan_perfdata_next(pd, &r) == 0) {
		const struct perfan_sample *s = &r->u.sample;
		const struct perfan_attr *a;

		if (r->type != PERFAN_REC_SAMPLE)
			continue;
		ck_assert_ptr_nonnull(r->event);
		a = &r->event->attr;
		ck_assert(s->type & PERFAN_SAMPLE_REGS_USER);
		ck_assert(s->type & PERFAN_SAMPLE_STACK_USER);
		ck_assert_uint_eq(a->sample_stack_user, 8192);
		ck_assert_uint_ne(s->user_regs.abi, 0);
		ck_assert_uint_eq(s->user_regs.mask, a->sample_regs_user);
		ck_assert_uint_eq(
			s->user_regs.nr,
			(uint64_t)__builtin_popcountll(s->user_regs.mask));
		ck_assert_ptr_nonnull(s->user_regs.regs);
		ck_assert_uint_eq(s->user_stack_size, 8192);
		ck_assert_ptr_nonnull(s->user_stack);
		ck_assert_uint_le(s->user_stack_dyn_size, 8192);
		ck_assert_uint_gt(s->user_stack_dyn_size, 0);
		n++;
	}
	ck_assert_uint_eq(n, 104); /* SAMPLE events in dwarf/stats.txt */
	perfan_perfdata_free(pd);
}
END_TEST

/* ---- threads and processes ------------------------------------------------- */

struct name_want {
	char name[64];
	int exec;
	int seen;
};

/* The names the mtfork run gives its tasks: the program perf record ran
 * (COMMAND), and in mtfork.c the thread's and child's names and the
 * program the child execs. */
static size_t mtfork_names(struct name_want *w)
{
	static const struct {
		const char *file, *pat;
		int exec;
	} pats[] = {
		{"multi-thread-fork/COMMAND", "perf record ", 1},
		{"multi-thread-fork/mtfork.c", "pthread_setname_np(th, \"", 0},
		{"multi-thread-fork/mtfork.c", "PR_SET_NAME, \"", 0},
		{"multi-thread-fork/mtfork.c", "execl(\"/bin/true\", \"", 1},
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
		FILE *fp = fopen(tu_testdata(pats[i].file), "r");
		char line[1024], *p;

		ck_assert_ptr_nonnull(fp);
		while (fgets(line, sizeof(line), fp)) {
			p = strstr(line, pats[i].pat);
			if (!p || (i > 0 && strstr(line, " * ")))
				continue;
			p += strlen(pats[i].pat);
			if (i == 0) {
				/* the program: "./mtfork" */
				p = strstr(p, " ./");
				ck_assert_ptr_nonnull(p);
				p += 3;
			}
			p[strcspn(p, "\" \n")] = '\0';
			snprintf(w[n].name, sizeof(w[n].name), "%s", p);
			w[n].exec = pats[i].exec;
			w[n].seen = 0;
			n++;
			break;
		}
		fclose(fp);
	}
	ck_assert_uint_eq(n, 4);
	return n;
}

START_TEST(test_fork_comm_exit)
{
	struct name_want names[8];
	const struct perfan_record *r;
	perfan_perfdata *pd = open_case("multi-thread-fork/perf.data", NULL);
	size_t nn = mtfork_names(names);
	int thread_fork = 0, process_fork = 0, exits = 0, execs = 0;

	while (perfan_perfdata_next(pd, &r) == 0) {
		switch (r->type) {
		case PERFAN_REC_FORK:
			if (r->u.fork_exit.pid == r->u.fork_exit.ppid &&
			    r->u.fork_exit.tid != r->u.fork_exit.pid)
				thread_fork++;
			if (r->u.fork_exit.pid != r->u.fork_exit.ppid &&
			    r->u.fork_exit.tid == r->u.fork_exit.pid)
				process_fork++;
			break;
		case PERFAN_REC_EXIT: exits++; break;
		case PERFAN_REC_COMM:
			ck_assert_ptr_nonnull(r->u.comm.comm);
			if (r->misc & PERFAN_MISC_COMM_EXEC) {
				execs++;
				/* an exec renames the whole process */
				ck_assert_uint_eq(r->u.comm.pid, r->u.comm.tid);
			}
			for (size_t i = 0; i < nn; i++)
				if (!strcmp(r->u.comm.comm, names[i].name) &&
				    !!(r->misc & PERFAN_MISC_COMM_EXEC) ==
					    names[i].exec)
					names[i].seen++;
			break;
		}
	}
	ck_assert_int_ge(thread_fork, 1);
	ck_assert_int_ge(process_fork, 1);
	ck_assert_int_ge(exits, 3); /* worker, child, main */
	ck_assert_int_ge(execs, 2); /* mtfork, then true */
	for (size_t i = 0; i < nn; i++)
		ck_assert_msg(names[i].seen, "no COMM \"%s\"%s", names[i].name,
			      names[i].exec ? " with COMM_EXEC" : "");
	perfan_perfdata_free(pd);
}
END_TEST

/* ---- zstd --------------------------------------------------------------------- */

START_TEST(test_zstd)
{
	struct perfan_perfdata_opts o =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	const struct perfan_record *r;
	perfan_perfdata *pd;
	uint64_t last_compressed = UINT64_MAX;
	size_t ncomp = 0, nfrom = 0, samples = 0, samples_from = 0;

	/* file order: a COMPRESSED record, then what it held */
	o.unordered = 1;
	pd = open_case("zstd/perf.data", &o);
	ck_assert(perfan_features_has(perfan_perfdata_features(pd),
				      PERFAN_FEAT_COMPRESSED));
	while (perfan_perfdata_next(pd, &r) == 0) {
		if (r->type == PERFAN_REC_COMPRESSED) {
			ck_assert_int_eq(r->from_compressed, 0);
			ck_assert_uint_gt(r->u.compressed.size, 0);
			last_compressed = r->offset;
			ncomp++;
		}
		if (r->from_compressed) {
			nfrom++;
			ck_assert_uint_eq(r->offset, last_compressed);
		}
		if (r->type == PERFAN_REC_SAMPLE) {
			samples++;
			samples_from += r->from_compressed;
		}
	}
	perfan_perfdata_free(pd);
	ck_assert_uint_ge(ncomp, 2);
	ck_assert_uint_gt(nfrom, 0);
	ck_assert_uint_eq(samples, 518); /* zstd/stats.txt */
	ck_assert_uint_eq(samples_from, samples);

	/* kept compressed: the same COMPRESSED records, nothing from them */
	o.unordered = 0;
	o.keep_compressed = 1;
	pd = open_case("zstd/perf.data", &o);
	{
		size_t kept = 0;

		while (perfan_perfdata_next(pd, &r) == 0) {
			ck_assert_int_eq(r->from_compressed, 0);
			ck_assert_uint_ne(r->type, PERFAN_REC_SAMPLE);
			kept += r->type == PERFAN_REC_COMPRESSED;
		}
		ck_assert_uint_eq(kept, ncomp);
	}
	perfan_perfdata_free(pd);
}
END_TEST

/* zstd-tail/perf.data: perf record -z's last flush stopped when its
 * COMPRESSED record was full, so the data end inside a record. The
 * samples before it are read, the end is an end (not an error), and one
 * warning says how much of which record was missing: against the
 * uncompressed copy that unzstd-perf-data.py made (perf script's samples,
 * the partial record it dropped). */
struct tail_log {
	int warnings;
	char last[512];
};

static void on_tail_log(enum perfan_log_level lvl, const char *msg,
			void *payload)
{
	struct tail_log *l = payload;
	if (lvl == PERFAN_LOG_WARN) {
		l->warnings++;
		snprintf(l->last, sizeof(l->last), "%s", msg);
	}
}

START_TEST(test_zstd_tail)
{
	struct perfan_perfdata_opts o =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	struct tail_log l = {0};
	const struct perfan_record *r;
	uint64_t want_us[64];
	uint32_t want_tid[64];
	size_t nwant = 0, n = 0;
	unsigned held = 0, size = 0;
	char line[512], expect[128];
	perfan_perfdata *pd;
	FILE *fp;
	int rc;

	fp = fopen(tu_testdata("zstd-tail/script-plain.txt"), "r");
	ck_assert_ptr_nonnull(fp);
	while (fgets(line, sizeof(line), fp)) {
		unsigned tid;
		unsigned long sec, usec;
		if (sscanf(line, " %u %lu.%lu: cpu-clock:", &tid, &sec,
			   &usec) == 3) {
			ck_assert_uint_lt(nwant, 64);
			want_tid[nwant] = tid;
			want_us[nwant++] = (uint64_t)sec * 1000000 + usec;
		}
	}
	fclose(fp);
	ck_assert_uint_gt(nwant, 0);
	fp = fopen(tu_testdata("zstd-tail/unzstd.log"), "r");
	ck_assert_ptr_nonnull(fp);
	while (fgets(line, sizeof(line), fp))
		sscanf(line, "partial record at the end dropped: %u of its %u",
		       &held, &size);
	fclose(fp);
	ck_assert_uint_gt(held, 0);
	ck_assert_uint_lt(held, size);

	o.log = on_tail_log;
	o.log_payload = &l;
	pd = open_case("zstd-tail/perf.data", &o);
	while ((rc = perfan_perfdata_next(pd, &r)) == 0) {
		if (r->type != PERFAN_REC_SAMPLE)
			continue;
		ck_assert_uint_lt(n, nwant);
		ck_assert_uint_eq(r->u.sample.tid, want_tid[n]);
		ck_assert_uint_eq(r->u.sample.time / 1000, want_us[n]);
		n++;
	}
	ck_assert_msg(rc == PERFAN_ITEROVER, "%s", perfan_error_last());
	ck_assert_uint_eq(n, nwant);
	ck_assert_int_eq(l.warnings, 1);
	snprintf(expect, sizeof(expect),
		 "the compressed data end inside a record (%u of its %u bytes)",
		 held, size);
	ck_assert_msg(strstr(l.last, expect), "warning: %s", l.last);
	perfan_perfdata_free(pd);
}
END_TEST

/* ---- jitdump ---------------------------------------------------------------- */

/* The PID of testdata/py313-perfjit/jit-PID.dump. */
static long jit_pid(void)
{
	struct dirent **files;
	long pid = -1;
	int n = scandir(tu_testdata("py313-perfjit"), &files, NULL, alphasort);

	ck_assert_int_gt(n, 0);
	for (int i = 0; i < n; i++) {
		long p;

		if (sscanf(files[i]->d_name, "jit-%ld.dump", &p) == 1)
			pid = p;
		free(files[i]);
	}
	free(files);
	ck_assert_int_gt(pid, 0);
	return pid;
}

START_TEST(test_jitdump_mmap)
{
	const struct perfan_record *r;
	perfan_perfdata *pd;
	long pid = jit_pid();
	char want[64], prefix[64];
	int found = 0;
	size_t jitted = 0;

	snprintf(want, sizeof(want), "/jit-%ld.dump", pid);
	pd = open_case("py313-perfjit/perf.data", NULL);
	while (perfan_perfdata_next(pd, &r) == 0) {
		const char *f = r->u.mmap.filename;

		if (r->type != PERFAN_REC_MMAP2)
			continue;
		ck_assert_ptr_nonnull(f);
		if (strlen(f) >= strlen(want) &&
		    !strcmp(f + strlen(f) - strlen(want), want)) {
			ck_assert_uint_eq(r->u.mmap.pid, (uint32_t)pid);
			found++;
		}
	}
	perfan_perfdata_free(pd);
	ck_assert_msg(found >= 1, "no MMAP2 of %s", want);

	/* after perf inject --jit: one MMAP2 per ELF file inject wrote */
	snprintf(prefix, sizeof(prefix), "/tmp/jitted-%ld-", pid);
	pd = open_case("py313-perfjit/perf.jit.data", NULL);
	while (perfan_perfdata_next(pd, &r) == 0)
		if (r->type == PERFAN_REC_MMAP2 &&
		    !strncmp(r->u.mmap.filename, prefix, strlen(prefix)))
			jitted++;
	perfan_perfdata_free(pd);
	{
		struct dirent **files;
		int n = scandir(tu_testdata("py313-perfjit/jitted"), &files,
				NULL, NULL);
		size_t so = 0;

		ck_assert_int_gt(n, 0);
		for (int i = 0; i < n; i++) {
			so += strstr(files[i]->d_name, ".so") != NULL;
			free(files[i]);
		}
		free(files);
		ck_assert_uint_eq(jitted, so);
	}
}
END_TEST

static Suite *records_suite(void)
{
	Suite *s = suite_create("records");
	TCase *tc = tcase_create("records");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_fp_script);
	tcase_add_test(tc, test_more_scripts);
	tcase_add_test(tc, test_sched_raw);
	tcase_add_test(tc, test_dwarf_regs_stack);
	tcase_add_test(tc, test_fork_comm_exit);
	tcase_add_test(tc, test_zstd);
	tcase_add_test(tc, test_zstd_tail);
	tcase_add_test(tc, test_jitdump_mmap);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(records_suite)
