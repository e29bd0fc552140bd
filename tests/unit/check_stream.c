/* check_stream.c: the resolved-sample stream against perf script on the
 * same files: every sample's time, pid, tid, cpu, comm, event, tracepoint
 * fields and frames (symbols and addresses) on testdata/sched; COMM, FORK
 * and EXIT beside the samples, in perf's order, on multi-thread-fork; SWITCH
 * records on testdata/switch. Resolved hermetically, as check_resolve.c. */
#define _GNU_SOURCE
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ---- perf script text ------------------------------------------------- */

#define MAX_FRAMES 256

struct oframe {
	uint64_t addr;
	char sym[256]; /* without +0xOFF; "" when not printed */
	char dso[512]; /* "" when not printed */
};

/* One record as perf script prints it:
 * "COMM  [PID/]TID  [[CPU]]  SEC.FRAC: EVENT: REST" and frame lines. */
struct orec {
	char comm[64];
	int pid, tid, cpu; /* -1 when not printed */
	uint64_t time;     /* ns (FRAC has 9 digits) or us (6) */
	char event[64];
	char rest[512]; /* after "EVENT:" or the PERF_RECORD_ name */
	size_t nframes;
	struct oframe frames[MAX_FRAMES];
};

static void parse_frame(struct oframe *f, char *line)
{
	char *p = line;
	f->addr = strtoull(p, &p, 16);
	f->sym[0] = f->dso[0] = '\0';
	while (*p == ' ')
		p++;
	if (!*p)
		return;
	char *open = strrchr(p, '(');
	ck_assert_ptr_nonnull(open);
	char *close = strrchr(open, ')');
	ck_assert_ptr_nonnull(close);
	snprintf(f->dso, sizeof(f->dso), "%.*s", (int)(close - open - 1),
		 open + 1);
	char *e = open;
	while (e > p && e[-1] == ' ')
		e--;
	char *plus = strstr(p, "+0x");
	if (plus && plus < e)
		e = plus;
	snprintf(f->sym, sizeof(f->sym), "%.*s", (int)(e - p), p);
}

/* The header line of a record into R. */
static void parse_head(struct orec *r, char *line)
{
	memset(r, 0, offsetof(struct orec, frames));
	r->pid = r->tid = r->cpu = -1;
	/* the time: the first word of digits.digits followed by ':' */
	char *t = NULL, *frac = NULL, *p = line;
	for (; *p; p++) {
		if (p[0] != ' ' || p[1] < '0' || p[1] > '9')
			continue;
		char *q = p + 1;
		q += strspn(q, "0123456789");
		if (*q != '.')
			continue;
		char *f = q + 1;
		size_t nf = strspn(f, "0123456789");
		if (nf && f[nf] == ':') {
			t = p + 1;
			frac = f;
			break;
		}
	}
	ck_assert_msg(t != NULL, "no time in: %s", line);
	size_t nfrac = strspn(frac, "0123456789");
	r->time = strtoull(t, NULL, 10) *
			  (nfrac == 9 ? 1000000000ull : 1000000ull) +
		  strtoull(frac, NULL, 10);
	/* before it, backwards: [CPU], PID/TID or TID, COMM */
	char *e = t;
	while (e > line && e[-1] == ' ')
		e--;
	if (e[-1] == ']') {
		char *b = e - 1;
		while (b > line && *b != '[')
			b--;
		r->cpu = atoi(b + 1);
		e = b;
		while (e > line && e[-1] == ' ')
			e--;
	}
	char *w = e;
	while (w > line && w[-1] != ' ')
		w--;
	char *slash = memchr(w, '/', (size_t)(e - w));
	if (slash) {
		r->pid = atoi(w);
		r->tid = atoi(slash + 1);
	} else {
		r->tid = atoi(w);
	}
	while (w > line && w[-1] == ' ')
		w--;
	char *c = line;
	while (*c == ' ')
		c++;
	snprintf(r->comm, sizeof(r->comm), "%.*s", (int)(w - c), c);
	/* after it: "EVENT: REST", with tracepoints as "sys:name:" */
	char *ev = frac + nfrac + 1;
	while (*ev == ' ')
		ev++;
	size_t n;
	if (!strncmp(ev, "PERF_RECORD_", 12)) {
		n = strcspn(ev, " :(");
	} else {
		char *colon = strstr(ev, ": ");
		if (!colon)
			colon = ev + strlen(ev) - 1;
		n = (size_t)(colon - ev);
	}
	snprintf(r->event, sizeof(r->event), "%.*s", (int)n, ev);
	char *rest = ev + n;
	if (*rest == ':')
		rest++;
	while (*rest == ' ')
		rest++;
	snprintf(r->rest, sizeof(r->rest), "%s", rest);
	n = strlen(r->rest);
	while (n && r->rest[n - 1] == ' ')
		r->rest[--n] = '\0';
}

/* Every record of testdata/REL, in file order. */
static struct orec *read_script(const char *rel, size_t *nout)
{
	FILE *f = fopen(tu_testdata(rel), "r");
	ck_assert_msg(f != NULL, "cannot open %s", tu_testdata(rel));
	struct orec *v = NULL;
	size_t n = 0, cap = 0;
	char *line = NULL;
	size_t lcap = 0;
	ssize_t len;
	while ((len = getline(&line, &lcap, f)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		if (line[0] == '\t') {
			ck_assert_uint_gt(n, 0);
			struct orec *r = &v[n - 1];
			ck_assert_uint_lt(r->nframes, MAX_FRAMES);
			parse_frame(&r->frames[r->nframes++], line + 1);
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			v = realloc(v, cap * sizeof(*v));
			ck_assert_ptr_nonnull(v);
		}
		parse_head(&v[n++], line);
	}
	free(line);
	fclose(f);
	*nout = n;
	return v;
}

/* ---- the stream ------------------------------------------------------- */

struct fixture {
	perfan_perfdata *pd;
	perfan_stream *s;
	char symfs[4096], nocache[4096], kallsyms[4096];
};

static void open_stream(struct fixture *fx, const char *kase)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "%s/perf.data", kase);
	ck_assert_msg(!perfan_perfdata_open(&fx->pd, tu_testdata(rel), NULL),
		      "%s", perfan_error_last());
	struct perfan_resolve_opts o = PERFAN_RESOLVE_OPTS_INIT;
	o.host = tu_host();
	snprintf(fx->kallsyms, sizeof(fx->kallsyms), "%s",
		 tu_testdata("kallsyms"));
	snprintf(fx->symfs, sizeof(fx->symfs), "%s", tu_testdata(kase));
	snprintf(fx->nocache, sizeof(fx->nocache), "%s",
		 tu_testdata("no-such-build-id-cache"));
	o.kallsyms = fx->kallsyms;
	o.symfs = fx->symfs;
	o.buildid_dir = fx->nocache;
	ck_assert_msg(!perfan_stream_open(&fx->s, fx->pd, &o), "%s",
		      perfan_error_last());
}

static void close_stream(struct fixture *fx)
{
	perfan_stream_free(fx->s);
	perfan_perfdata_free(fx->pd);
}

/* The next event of a type in TYPES (a mask of 1 << type), or NULL at the
 * end. */
static const struct perfan_stream_event *next_of(struct fixture *fx,
						 unsigned types)
{
	const struct perfan_stream_event *ev;
	int err;
	while (!(err = perfan_stream_next(fx->s, &ev)))
		if (types & (1u << ev->type))
			return ev;
	ck_assert_msg(err == PERFAN_ITEROVER, "%s", perfan_error_last());
	/* it stays at the end */
	ck_assert_int_eq(perfan_stream_next(fx->s, &ev), PERFAN_ITEROVER);
	return NULL;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/* Frame F as perf script printed O: the address, the module, and for
 * testdata's binaries and the kernel the symbol (system libraries are not
 * in testdata: perfan names those "[module]"). */
static void check_frame(const struct perfan_stream_frame *f,
			const struct oframe *o, size_t i, uint64_t time)
{
	ck_assert_msg(f->map_addr == o->addr,
		      "sample at %llu frame %zu: map_addr %llx, perf %llx",
		      (unsigned long long)time, i,
		      (unsigned long long)f->map_addr,
		      (unsigned long long)o->addr);
	/* the kernel's are absolute addresses, as perf prints them */
	if (f->kind == PERFAN_FRAME_KERNEL)
		ck_assert_uint_eq(f->addr, f->map_addr);
	else
		ck_assert_uint_ne(f->addr, f->map_addr); /* PIE and libc */
	if (!o->dso[0])
		return;
	const char *mod = base_name(o->dso);
	ck_assert_ptr_nonnull(f->module);
	ck_assert_str_eq(f->module, mod);
	int ours = strstr(o->dso, "/testdata/") ||
		   !strcmp(o->dso, "[kernel.kallsyms]");
	char want[300];
	if (ours && strcmp(o->sym, "[unknown]"))
		snprintf(want, sizeof(want), "%s", o->sym);
	else
		snprintf(want, sizeof(want), "[%s]", mod);
	ck_assert_msg(!strcmp(f->name, want),
		      "sample at %llu frame %zu: %s, perf %s (%s)",
		      (unsigned long long)time, i, f->name, want, o->dso);
	ck_assert_int_eq(f->inlined, 0);
}

/* perf's letters for prev_state (the format's __print_flags). */
static uint64_t state_value(const char *letters)
{
	switch (letters[0]) {
	case 'R': return 0;
	case 'S': return 1;
	case 'D': return 2;
	default: ck_abort_msg("unexpected prev_state %s", letters);
	}
	return 0;
}

/* VALUE of "NAME=VALUE" in perf's trace text. */
static void trace_field(const char *rest, const char *name, char *out, size_t n)
{
	char key[64];
	snprintf(key, sizeof(key), " %s=", name);
	const char *p = strstr(rest, key + 1) == rest ? rest
						      : strstr(rest, key);
	ck_assert_msg(p != NULL, "%s not in %s", name, rest);
	p = strchr(p, '=') + 1;
	snprintf(out, n, "%.*s", (int)strcspn(p, " "), p);
}

static void check_str_field(struct fixture *fx,
			    const struct perfan_stream_event *ev,
			    const char *name, const char *want)
{
	const char *s;
	size_t len;
	ck_assert_msg(!perfan_stream_field_str(fx->s, ev, name, &s, &len), "%s",
		      perfan_error_last());
	ck_assert_uint_eq(len, strlen(want));
	ck_assert_int_eq(memcmp(s, want, len), 0);
}

static void check_u64_field(struct fixture *fx,
			    const struct perfan_stream_event *ev,
			    const char *name, uint64_t want)
{
	uint64_t v = 12345;
	ck_assert_msg(!perfan_stream_field_u64(fx->s, ev, name, &v), "%s",
		      perfan_error_last());
	ck_assert_uint_eq(v, want);
}

START_TEST(test_sched_samples)
{
	size_t n, nns;
	struct orec *o = read_script("sched/script.txt", &n);
	struct orec *ns = read_script("sched/script-ns.txt", &nns);
	ck_assert_uint_eq(n, nns);
	ck_assert_uint_eq(n, 124); /* the samples stats.txt counts */
	struct fixture fx;
	open_stream(&fx, "sched");
	const struct perfan_stream_event *ev;
	size_t i = 0, states[3] = {0};
	uint64_t last = 0;
	while ((ev = next_of(&fx, 1u << PERFAN_STREAM_SAMPLE))) {
		ck_assert_uint_lt(i, n);
		const struct orec *r = &o[i], *rn = &ns[i];
		ck_assert_uint_eq(ev->time, rn->time);
		ck_assert_uint_eq(ev->time / 1000, r->time);
		ck_assert_uint_ge(ev->time, last);
		last = ev->time;
		ck_assert_int_eq(ev->pid, rn->pid);
		ck_assert_int_eq(ev->tid, rn->tid);
		ck_assert_int_eq(ev->tid, r->tid);
		ck_assert_int_eq(ev->cpu, r->cpu);
		ck_assert_ptr_nonnull(ev->comm);
		ck_assert_str_eq(ev->comm, r->comm);
		ck_assert_ptr_nonnull(ev->event);
		ck_assert_str_eq(ev->event->name, r->event);
		ck_assert_str_eq(ev->event->name, "sched:sched_switch");
		ck_assert_uint_eq(ev->event->index, 0);
		ck_assert_uint_eq(ev->u.sample.period, 1);

		char v[128];
		trace_field(r->rest, "prev_state", v, sizeof(v));
		check_u64_field(&fx, ev, "prev_state", state_value(v));
		states[state_value(v)]++;
		trace_field(r->rest, "prev_pid", v, sizeof(v));
		check_u64_field(&fx, ev, "prev_pid", strtoull(v, NULL, 10));
		trace_field(r->rest, "next_pid", v, sizeof(v));
		check_u64_field(&fx, ev, "next_pid", strtoull(v, NULL, 10));
		trace_field(r->rest, "next_prio", v, sizeof(v));
		check_u64_field(&fx, ev, "next_prio", strtoull(v, NULL, 10));
		trace_field(r->rest, "prev_comm", v, sizeof(v));
		check_str_field(&fx, ev, "prev_comm", v);
		trace_field(r->rest, "next_comm", v, sizeof(v));
		check_str_field(&fx, ev, "next_comm", v);
		/* the common fields too */
		check_u64_field(&fx, ev, "common_pid", (uint64_t)ev->tid);

		ck_assert_uint_eq(ev->u.sample.nr_frames, r->nframes);
		ck_assert_uint_eq(r->nframes, rn->nframes);
		for (size_t k = 0; k < r->nframes; k++) {
			ck_assert_uint_eq(r->frames[k].addr,
					  rn->frames[k].addr);
			check_frame(&ev->u.sample.frames[k], &r->frames[k], k,
				    ev->time);
		}
		i++;
	}
	ck_assert_uint_eq(i, n);
	/* the file has each state, so each decoding was checked */
	ck_assert_uint_gt(states[0], 0);
	ck_assert_uint_gt(states[1], 0);
	ck_assert_uint_gt(states[2], 0);
	const struct perfan_resolve_stats *st = perfan_stream_stats(fx.s);
	ck_assert_uint_eq(st->samples, n);
	ck_assert_uint_eq(st->samples_filtered, 0);
	close_stream(&fx);
	free(o);
	free(ns);
}
END_TEST

/* Pipe mode: the formats come as a TRACING_DATA record, and attrs one
 * by one after it; the fields still read as perf script shows them. */
START_TEST(test_pipe_fields)
{
	size_t n;
	struct orec *o = read_script("sched-pipe/script.txt", &n);
	ck_assert_uint_eq(n, 121);
	struct fixture fx;
	open_stream(&fx, "sched-pipe");
	const struct perfan_stream_event *ev;
	size_t i = 0;
	while ((ev = next_of(&fx, 1u << PERFAN_STREAM_SAMPLE))) {
		ck_assert_uint_lt(i, n);
		const struct orec *r = &o[i++];
		ck_assert_uint_eq(ev->time / 1000, r->time);
		ck_assert_int_eq(ev->tid, r->tid);
		char v[128];
		trace_field(r->rest, "prev_state", v, sizeof(v));
		check_u64_field(&fx, ev, "prev_state", state_value(v));
		trace_field(r->rest, "next_pid", v, sizeof(v));
		check_u64_field(&fx, ev, "next_pid", strtoull(v, NULL, 10));
		trace_field(r->rest, "next_comm", v, sizeof(v));
		check_str_field(&fx, ev, "next_comm", v);
	}
	ck_assert_uint_eq(i, n);
	close_stream(&fx);
	free(o);
}
END_TEST

/* A record larger than the block a mapped file's records are read in (the
 * 395 KB TRACING_DATA of 720 syscall tracepoints, tracing-big) is read
 * whole, and the records after it from where it ends: every sample's
 * event, thread and time as perf script shows them. */
START_TEST(test_big_record)
{
	size_t n;
	struct orec *o = read_script("tracing-big/script.txt", &n);
	ck_assert_uint_eq(n, 576); /* structure.txt's SAMPLE count */
	struct fixture fx;
	open_stream(&fx, "tracing-big");
	const struct perfan_stream_event *ev;
	size_t i = 0;
	while ((ev = next_of(&fx, 1u << PERFAN_STREAM_SAMPLE))) {
		ck_assert_uint_lt(i, n);
		const struct orec *r = &o[i++];
		ck_assert_uint_eq(ev->time / 1000, r->time);
		ck_assert_int_eq(ev->tid, r->tid);
		ck_assert_ptr_nonnull(ev->comm);
		ck_assert_str_eq(ev->comm, r->comm);
		ck_assert_ptr_nonnull(ev->event);
		ck_assert_str_eq(ev->event->name, r->event);
	}
	ck_assert_uint_eq(i, n);
	close_stream(&fx);
	free(o);
}
END_TEST

START_TEST(test_field_errors)
{
	struct fixture fx;
	open_stream(&fx, "sched");
	const struct perfan_stream_event *ev =
		next_of(&fx, 1u << PERFAN_STREAM_SAMPLE);
	ck_assert_ptr_nonnull(ev);
	uint64_t v;
	const char *s;
	size_t len;
	ck_assert_int_eq(perfan_stream_field_u64(fx.s, ev, "no_such", &v),
			 PERFAN_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "no_such"));
	ck_assert_int_eq(perfan_stream_field_u64(fx.s, ev, "prev_comm", &v),
			 PERFAN_EINVAL);
	ck_assert_int_eq(perfan_stream_field_str(fx.s, ev, "prev_pid", &s,
						 &len),
			 PERFAN_EINVAL);
	/* a sample whose raw data is cut short */
	struct perfan_stream_event cut = *ev;
	cut.u.sample.raw_size = 20;
	ck_assert_int_eq(perfan_stream_field_u64(fx.s, &cut, "next_pid", &v),
			 PERFAN_ETRUNCATED);
	/* COMM and the like have no fields */
	const struct perfan_stream_event *c =
		next_of(&fx, 1u << PERFAN_STREAM_COMM);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(perfan_stream_field_u64(fx.s, c, "prev_pid", &v),
			 PERFAN_ENOTFOUND);
	close_stream(&fx);

	/* a cpu-clock sample is no tracepoint */
	open_stream(&fx, "fp");
	ev = next_of(&fx, 1u << PERFAN_STREAM_SAMPLE);
	ck_assert_ptr_nonnull(ev);
	ck_assert_int_eq(perfan_stream_field_u64(fx.s, ev, "prev_pid", &v),
			 PERFAN_ENOTFOUND);
	close_stream(&fx);
}
END_TEST

/* COMM, FORK, EXIT and samples in perf's order, as perf script
 * --show-task-events prints them. */
START_TEST(test_task_events)
{
	size_t n;
	struct orec *o = read_script("multi-thread-fork/script-tasks.txt", &n);
	struct fixture fx;
	open_stream(&fx, "multi-thread-fork");
	unsigned types = 1u << PERFAN_STREAM_SAMPLE | 1u << PERFAN_STREAM_COMM |
			 1u << PERFAN_STREAM_FORK | 1u << PERFAN_STREAM_EXIT;
	const struct perfan_stream_event *ev;
	size_t i = 0, ncomm = 0, nfork = 0, nexit = 0, nexec = 0;
	while ((ev = next_of(&fx, types))) {
		ck_assert_uint_lt(i, n);
		const struct orec *r = &o[i++];
		ck_assert_uint_eq(ev->time, r->time);
		char want[256];
		switch (ev->type) {
		case PERFAN_STREAM_SAMPLE:
			ck_assert_str_eq(r->event, "cpu-clock");
			ck_assert_int_eq(ev->pid, r->pid);
			ck_assert_int_eq(ev->tid, r->tid);
			ck_assert_str_eq(ev->comm, r->comm);
			ck_assert_int_eq(ev->cpu, -1); /* not recorded */
			break;
		case PERFAN_STREAM_COMM:
			/* "PERF_RECORD_COMM[ exec]: NAME:PID/TID" */
			ck_assert_str_eq(r->event, "PERF_RECORD_COMM");
			snprintf(want, sizeof(want), "%s%s:%d/%d",
				 ev->u.comm.exec ? "exec: " : "",
				 ev->u.comm.comm, ev->pid, ev->tid);
			ck_assert_str_eq(r->rest, want);
			ck_assert_str_eq(ev->comm, r->comm);
			ncomm++;
			nexec += ev->u.comm.exec;
			break;
		case PERFAN_STREAM_FORK:
		case PERFAN_STREAM_EXIT:
			/* "PERF_RECORD_FORK(PID:TID):(PPID:PTID)" */
			ck_assert_str_eq(r->event,
					 ev->type == PERFAN_STREAM_FORK
						 ? "PERF_RECORD_FORK"
						 : "PERF_RECORD_EXIT");
			snprintf(want, sizeof(want), "(%d:%d):(%d:%d)", ev->pid,
				 ev->tid, ev->u.task.ppid, ev->u.task.ptid);
			ck_assert_str_eq(r->rest, want);
			ck_assert_str_eq(ev->comm, r->comm);
			if (ev->type == PERFAN_STREAM_FORK)
				nfork++;
			else
				nexit++;
			break;
		}
	}
	ck_assert_uint_eq(i, n);
	/* what mtfork.c does: perf-exec, exec, two renames, one exec; a
	 * thread and a process forked; three exits */
	ck_assert_uint_eq(ncomm, 5);
	ck_assert_uint_eq(nexec, 2);
	ck_assert_uint_eq(nfork, 2);
	ck_assert_uint_eq(nexit, 3);
	close_stream(&fx);
	free(o);
}
END_TEST

/* PERF_RECORD_SWITCH beside the samples, as perf script
 * --show-switch-events prints them, and the samples' addresses. */
START_TEST(test_switch_events)
{
	size_t n;
	struct orec *o = read_script("switch/script-switch.txt", &n);
	struct fixture fx;
	open_stream(&fx, "switch");
	unsigned types = 1u << PERFAN_STREAM_SAMPLE |
			 1u << PERFAN_STREAM_SWITCH |
			 1u << PERFAN_STREAM_SWITCH_CPU_WIDE;
	const struct perfan_stream_event *ev;
	size_t i = 0, nout = 0, nin = 0, npreempt = 0, nsamples = 0;
	while ((ev = next_of(&fx, types))) {
		ck_assert_uint_lt(i, n);
		const struct orec *r = &o[i++];
		ck_assert_uint_eq(ev->time, r->time);
		ck_assert_int_eq(ev->pid, r->pid);
		ck_assert_int_eq(ev->tid, r->tid);
		ck_assert_int_eq(ev->cpu, r->cpu);
		ck_assert_ptr_nonnull(ev->comm);
		ck_assert_str_eq(ev->comm, r->comm);
		if (ev->type == PERFAN_STREAM_SAMPLE) {
			ck_assert_str_eq(r->event, ev->event->name);
			ck_assert_str_eq(r->event, "cpu-clock:u");
			ck_assert_uint_eq(ev->u.sample.nr_frames, r->nframes);
			for (size_t k = 0; k < r->nframes; k++)
				ck_assert_uint_eq(
					ev->u.sample.frames[k].map_addr,
					r->frames[k].addr);
			nsamples++;
			continue;
		}
		ck_assert_int_eq(ev->type, PERFAN_STREAM_SWITCH);
		ck_assert_str_eq(r->event, "PERF_RECORD_SWITCH");
		const struct perfan_stream_switch *sw = &ev->u.sw;
		ck_assert_str_eq(r->rest,
				 sw->out ? (sw->preempt ? "OUT preempt" : "OUT")
					 : "IN");
		ck_assert_int_eq(sw->next_prev_pid, -1);
		nout += sw->out;
		nin += !sw->out;
		npreempt += sw->preempt;
	}
	ck_assert_uint_eq(i, n);
	ck_assert_uint_eq(nsamples, 12); /* as stats.txt */
	ck_assert_uint_eq(nout + nin, 245);
	ck_assert_uint_gt(npreempt, 0);
	close_stream(&fx);
	free(o);
}
END_TEST

/* Filters select samples; the other records still come. */
START_TEST(test_filters_keep_task_events)
{
	perfan_perfdata *pd;
	ck_assert(!perfan_perfdata_open(
		&pd, tu_testdata("multi-thread-fork/perf.data"), NULL));
	struct perfan_resolve_opts o = PERFAN_RESOLVE_OPTS_INIT;
	o.host = tu_host();
	o.filter.tid = 1; /* no such thread */
	perfan_stream *s;
	ck_assert(!perfan_stream_open(&s, pd, &o));
	const struct perfan_stream_event *ev;
	size_t samples = 0, others = 0;
	int err;
	while (!(err = perfan_stream_next(s, &ev))) {
		samples += ev->type == PERFAN_STREAM_SAMPLE;
		others += ev->type != PERFAN_STREAM_SAMPLE;
	}
	ck_assert_int_eq(err, PERFAN_ITEROVER);
	ck_assert_uint_eq(samples, 0);
	ck_assert_uint_eq(others, 10); /* the task events of script-tasks */
	ck_assert_uint_eq(perfan_stream_stats(s)->samples,
			  perfan_stream_stats(s)->samples_filtered);
	ck_assert_uint_gt(perfan_stream_stats(s)->samples, 0);
	perfan_stream_free(s);
	perfan_perfdata_free(pd);
	perfan_stream_free(NULL);
	ck_assert_int_eq(perfan_stream_open(&s, NULL, NULL), PERFAN_EINVAL);
}
END_TEST

/* With source_lines the frames of testdata's prog.c carry its file and
 * lines; without, none. */
START_TEST(test_source_lines)
{
	for (int lines = 0; lines < 2; lines++) {
		perfan_perfdata *pd;
		ck_assert(!perfan_perfdata_open(
			&pd, tu_testdata("fp/perf.data"), NULL));
		struct perfan_resolve_opts o = PERFAN_RESOLVE_OPTS_INIT;
		char symfs[4096];
		snprintf(symfs, sizeof(symfs), "%s", tu_testdata("fp"));
		o.host = tu_host();
		o.symfs = symfs;
		o.source_lines = lines;
		perfan_stream *s;
		ck_assert(!perfan_stream_open(&s, pd, &o));
		const struct perfan_stream_event *ev;
		size_t ours = 0;
		while (!perfan_stream_next(s, &ev)) {
			if (ev->type != PERFAN_STREAM_SAMPLE)
				continue;
			for (size_t k = 0; k < ev->u.sample.nr_frames; k++) {
				const struct perfan_stream_frame *f =
					&ev->u.sample.frames[k];
				if (!f->module || strcmp(f->module, "prog"))
					continue;
				ours++;
				ck_assert_int_eq(f->kind, PERFAN_FRAME_NATIVE);
				if (!lines) {
					ck_assert_ptr_null(f->file);
					ck_assert_uint_eq(f->line, 0);
					continue;
				}
				ck_assert_ptr_nonnull(f->file);
				ck_assert_str_eq(base_name(f->file), "prog.c");
				ck_assert_uint_gt(f->line, 0);
			}
		}
		ck_assert_uint_gt(ours, 500);
		perfan_stream_free(s);
		perfan_perfdata_free(pd);
	}
}
END_TEST

/* The process frame at the root of kept sample I's stack. */
static perfan_frame_id root_of(perfan_profile *p, size_t i)
{
	perfan_node_id n = perfan_profile_sample_get(p, i)->leaf;
	while (perfan_profile_node_parent(p, n) != PERFAN_ROOT_NODE)
		n = perfan_profile_node_parent(p, n);
	return perfan_profile_node_frame(p, n);
}

/* Each process frame's pid and tid are those of every sample under it,
 * -1 where they differ; a merge and a Python view keep them. */
static void check_threads(perfan_profile *p, enum perfan_process_root root)
{
	size_t nf = perfan_profile_nr_frames(p);
	int32_t *pid = malloc(nf * sizeof(*pid)), *tid = malloc(nf * 4);
	uint8_t *seen = calloc(nf, 1);
	ck_assert(pid && tid && seen);
	for (size_t i = 0; i < perfan_profile_nr_samples(p); i++) {
		const struct perfan_sample_meta *m =
			&perfan_profile_sample_get(p, i)->meta;
		perfan_frame_id f = root_of(p, i);
		if (!seen[f]) {
			seen[f] = 1;
			pid[f] = m->pid;
			tid[f] = m->tid;
		}
		if (pid[f] != m->pid)
			pid[f] = -1;
		if (tid[f] != m->tid)
			tid[f] = -1;
	}
	size_t nproc = 0, shared = 0; /* frames of several threads */
	for (perfan_frame_id f = 0; f < nf; f++) {
		const struct perfan_frame *fr = perfan_profile_frame_get(p, f);
		if (fr->kind != PERFAN_FRAME_PROCESS) {
			ck_assert_int_eq(fr->pid, -1);
			ck_assert_int_eq(fr->tid, -1);
			continue;
		}
		ck_assert(seen[f]);
		ck_assert_int_eq(fr->pid, pid[f]);
		ck_assert_int_eq(fr->tid, tid[f]);
		if (root == PERFAN_ROOT_PID_TID) {
			char want[128];
			snprintf(want, sizeof(want), "-%d/%d", fr->pid,
				 fr->tid);
			ck_assert_ptr_nonnull(strstr(fr->name, want));
		}
		nproc++;
		shared += fr->tid < 0;
	}
	ck_assert_uint_gt(nproc, 1);
	if (root == PERFAN_ROOT_PID_TID)
		ck_assert_uint_eq(shared, 0);

	perfan_profile *m, *v;
	ck_assert(!perfan_profile_new(&m, NULL));
	ck_assert_int_eq(perfan_profile_add_column(m, "x", "samples"), 0);
	ck_assert(!perfan_profile_merge(m, 0, p, 0));
	ck_assert(!perfan_python_view(&v, p, PERFAN_PY_MIXED));
	perfan_profile *outs[] = {m, v};
	for (size_t k = 0; k < 2; k++) {
		size_t checked = 0;
		for (perfan_frame_id f = 0; f < nf; f++) {
			const struct perfan_frame *fr =
				perfan_profile_frame_get(p, f);
			if (fr->kind != PERFAN_FRAME_PROCESS)
				continue;
			for (perfan_frame_id g = 0;
			     g < perfan_profile_nr_frames(outs[k]); g++) {
				const struct perfan_frame *o =
					perfan_profile_frame_get(outs[k], g);
				if (o->kind != PERFAN_FRAME_PROCESS ||
				    strcmp(o->name, fr->name))
					continue;
				ck_assert_int_eq(o->pid, fr->pid);
				ck_assert_int_eq(o->tid, fr->tid);
				checked++;
			}
		}
		ck_assert_uint_eq(checked, nproc);
	}
	perfan_profile_free(m);
	perfan_profile_free(v);
	free(pid);
	free(tid);
	free(seen);
}

START_TEST(test_profile_threads)
{
	static const enum perfan_process_root roots[] = {PERFAN_ROOT_COMM,
							 PERFAN_ROOT_PID_TID};
	for (size_t k = 0; k < 2; k++) {
		perfan_perfdata *pd;
		ck_assert(!perfan_perfdata_open(
			&pd, tu_testdata("multi-thread-fork/perf.data"), NULL));
		struct perfan_profile_opts po =
			PERFAN_OPTS_INIT(struct perfan_profile_opts);
		po.keep_samples = 1;
		perfan_profile *p;
		ck_assert(!perfan_profile_new(&p, &po));
		struct perfan_resolve_opts o = PERFAN_RESOLVE_OPTS_INIT;
		o.host = tu_host();
		o.root = roots[k];
		ck_assert_msg(!perfan_resolve_perfdata(p, pd, &o, NULL), "%s",
			      perfan_error_last());
		check_threads(p, roots[k]);
		perfan_profile_free(p);
		perfan_perfdata_free(pd);
	}
	/* two threads of one process under one frame, then another
	 * process */
	perfan_profile *p;
	perfan_frame_id f;
	ck_assert(!perfan_profile_new(&p, NULL));
	ck_assert(!perfan_profile_frame(p, &f, "w", NULL, NULL, 0,
					PERFAN_FRAME_PROCESS));
	ck_assert(!perfan_profile_frame_thread(p, f, 10, 11));
	ck_assert(!perfan_profile_frame_thread(p, f, 10, 11));
	ck_assert_int_eq(perfan_profile_frame_get(p, f)->tid, 11);
	ck_assert(!perfan_profile_frame_thread(p, f, 10, 12));
	ck_assert_int_eq(perfan_profile_frame_get(p, f)->pid, 10);
	ck_assert_int_eq(perfan_profile_frame_get(p, f)->tid, -1);
	ck_assert(!perfan_profile_frame_thread(p, f, 20, 11));
	ck_assert_int_eq(perfan_profile_frame_get(p, f)->pid, -1);
	ck_assert_int_eq(perfan_profile_frame_get(p, f)->tid, -1);
	ck_assert_int_eq(perfan_profile_frame_thread(p, f + 1, 1, 1),
			 PERFAN_EINVAL);
	ck_assert_int_eq(perfan_profile_frame_thread(NULL, 0, 1, 1),
			 PERFAN_EINVAL);
	perfan_profile_free(p);
}
END_TEST

static Suite *stream_suite(void)
{
	Suite *s = suite_create("stream");
	TCase *tc = tcase_create("stream");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_sched_samples);
	tcase_add_test(tc, test_field_errors);
	tcase_add_test(tc, test_pipe_fields);
	tcase_add_test(tc, test_big_record);
	tcase_add_test(tc, test_task_events);
	tcase_add_test(tc, test_switch_events);
	tcase_add_test(tc, test_filters_keep_task_events);
	tcase_add_test(tc, test_profile_threads);
	tcase_add_test(tc, test_source_lines);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(stream_suite)
