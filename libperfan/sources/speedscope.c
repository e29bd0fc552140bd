/* sources/speedscope.c: speedscope's JSON file format (its
 * file-format-schema.json, as speedscope 0.0.1 to 1.25 and py-spy write
 * it): shared.frames, and profiles[] of type "sampled" (stacks of frame
 * indices, root first, with weights) or "evented" (open and close events in
 * time order, each stack's self time the time between events). Each
 * profile becomes a thread under a process frame named after it; each unit
 * one column: time (any of its units) in ns, bytes in bytes, none as a
 * count. */
#define _GNU_SOURCE /* memmem */
#include "sources/internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/input_all.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/json_read.h"
#include "util/log.h"

#define SCHEMA "https://www.speedscope.app/file-format-schema.json"
/* file > profiles > profile > samples > stack: deeper is not speedscope
 * (and a frame's unknown members are skipped within the same bound). */
#define SS_DEPTH 32
/* Frames in one stack, the profile's cap (perfan/profile.h): each event of
 * an evented profile costs the depth of its stack in the trie, so that a
 * deeper one is an error here rather than cut, for an input's cost to stay
 * linear in its size. */
#define SS_MAX_STACK PERFAN_MAX_STACK_DEPTH

/* The columns: what each unit becomes. */
enum ss_col { COL_TIME, COL_BYTES, COL_COUNT, NR_COLS };

static const struct {
	const char *unit;
	enum ss_col col;
	double scale; /* to the column's unit */
} units[] = {
	{"nanoseconds", COL_TIME, 1},    {"microseconds", COL_TIME, 1e3},
	{"milliseconds", COL_TIME, 1e6}, {"seconds", COL_TIME, 1e9},
	{"bytes", COL_BYTES, 1},         {"none", COL_COUNT, 1},
};

static const char *const col_name[NR_COLS] = {"time", "bytes", "samples"};
static const char *const col_unit[NR_COLS] = {"ns", "bytes", "samples"};

#define NO_FRAME ((perfan_frame_id)-1)

struct ss_frame {
	char *name, *file;
	uint32_t line;
	perfan_frame_id id; /* NO_FRAME until a stack uses it */
};

struct ss {
	struct perfan__jread j;
	perfan_profile *p;
	const struct perfan_source_opts *o;
	struct ss_frame *frames;
	size_t nframes, capframes;
	int have_frames;
	int col[NR_COLS]; /* -1 until a profile needs it */
	/* the stack being built: the root (if any), then frames */
	perfan_frame_id *stack;
	size_t nstack, capstack;
	struct ss_open {
		uint32_t idx; /* evented: an open frame's index */
		size_t off;   /* and its event's offset */
	} * open;
	size_t capopen;
	size_t nprofiles, nused;
	char *title, *exporter;
	double active;
	int have_active;
};

static char *copy(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* A string member's value, copied; a NUL inside is damage (it would cut
 * the name short). */
static int get_string(struct ss *x, const char *what, char **out)
{
	const char *s;
	size_t n, off;
	int rc;
	perfan__jread_peek(&x->j, &off);
	if ((rc = perfan__jread_string(&x->j, what, &s, &n)))
		return rc;
	if (memchr(s, '\0', n))
		return perfan__jread_err(&x->j, PERFAN_EFORMAT, off,
					 "%s holds a NUL character", what);
	free(*out);
	if (!(*out = copy(s, n)))
		return perfan__nomem(NULL);
	return 0;
}

/* ---- shared.frames ------------------------------------------------------- */

static int read_frame(struct ss *x)
{
	struct ss_frame f = {.id = NO_FRAME};
	const char *key;
	size_t off;
	double v;
	int rc, have_name = 0;
	perfan__jread_peek(&x->j, &off);
	if ((rc = perfan__jread_object(&x->j, "a frame")))
		return rc;
	while ((rc = perfan__jread_member(&x->j, &key, NULL)) == 1) {
		if (!strcmp(key, "name")) {
			rc = get_string(x, "a frame's name", &f.name);
			have_name = 1;
		} else if (!strcmp(key, "file"))
			rc = get_string(x, "a frame's file", &f.file);
		else if (!strcmp(key, "line")) {
			rc = perfan__jread_number(&x->j, "a frame's line", &v);
			f.line = !rc && v >= 1 && v <= UINT32_MAX ? (uint32_t)v
								  : 0;
		} else
			rc = perfan__jread_skip(&x->j); /* col, and others */
		if (rc)
			break;
	}
	if (!rc && !have_name)
		rc = perfan__jread_err(&x->j, PERFAN_EFORMAT, off,
				       "frame %zu has no name", x->nframes);
	if (!rc && perfan__grow((void **)&x->frames, &x->capframes,
				x->nframes + 1, sizeof(*x->frames)))
		rc = perfan__nomem(NULL);
	if (rc) {
		free(f.name);
		free(f.file);
		return rc;
	}
	x->frames[x->nframes++] = f;
	return 0;
}

static int read_shared(struct ss *x)
{
	const char *key;
	int rc;
	if ((rc = perfan__jread_object(&x->j, "\"shared\"")))
		return rc;
	while ((rc = perfan__jread_member(&x->j, &key, NULL)) == 1) {
		if (strcmp(key, "frames")) {
			if ((rc = perfan__jread_skip(&x->j)))
				return rc;
			continue;
		}
		if (x->have_frames)
			return perfan__jread_err(&x->j, PERFAN_EFORMAT,
						 x->j.pos,
						 "a second \"frames\"");
		x->have_frames = 1;
		if ((rc = perfan__jread_array(&x->j, "\"frames\"")))
			return rc;
		while ((rc = perfan__jread_element(&x->j)) == 1)
			if ((rc = read_frame(x)))
				return rc;
		if (rc)
			return rc;
	}
	return rc;
}

/* ---- frames into the profile -------------------------------------------- */

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && !strcmp(s + n - t, tail);
}

static int pyspy_root(struct ss *x, const char *name, perfan_frame_id *out);

/* Frame I of the file as a profile frame, made the first time a stack
 * uses it. A Python file (py-spy) gives a Python frame named
 * "function (file)" (a file "<frozen ...>" or "<string>" too), its line
 * left out as py-spy --nolineno and perfan's py-spy reader do, so that
 * each function is one frame ("function (file:line)" with opts.lineno, as
 * that reader keeps them). A file that is a module (speedscope's import of
 * perf script text: a path or "[kernel.kallsyms]", no line) names the
 * frame's module; speedscope's "??? (dso)" for perf's [unknown] is "[dso]"
 * again, as perfan and stackcollapse-perf.pl name it from the text. */
static int frame_id(struct ss *x, uint32_t i, perfan_frame_id *out)
{
	struct ss_frame *f = &x->frames[i];
	if (f->id != NO_FRAME) {
		*out = f->id;
		return 0;
	}
	const char *name = f->name,
		   *file = f->file && *f->file ? f->file : NULL;
	const char *module = NULL;
	uint32_t kind = PERFAN_FRAME_NATIVE, line = f->line;
	char *made = NULL;
	int rc;
	if (!file && !strncmp(name, "thread (", 8) && strstr(name, "): ")) {
		/* py-spy's thread under its process, as perfan wrote it */
		rc = pyspy_root(x, name, out);
		if (!rc)
			f->id = *out;
		return rc;
	}
	/* CPython names code without a source file "<frozen MODULE>",
	 * "<string>", "<stdin>": Python too (no module is named so) */
	if (file && (ends_with(file, ".py") ||
		     (file[0] == '<' && ends_with(file, ">")))) {
		/* the function's name without a " (file)" or " (file:line)"
		 * perfan's own output gives it */
		size_t nl = strlen(name), fl = strlen(file), base = nl;
		char tail[32];
		snprintf(tail, sizeof(tail), ":%u)", line);
		if (nl > fl + 3 && ends_with(name, ")") &&
		    !strncmp(name + nl - fl - 3, " (", 2) &&
		    !strncmp(name + nl - fl - 1, file, fl))
			base = nl - fl - 3;
		else if (line && ends_with(name, tail) &&
			 nl > fl + 2 + strlen(tail) &&
			 !strncmp(name + nl - strlen(tail) - fl - 2, " (", 2) &&
			 !strncmp(name + nl - strlen(tail) - fl, file, fl))
			base = nl - strlen(tail) - fl - 2;
		size_t n = base + fl + 16;
		if (!(made = malloc(n)))
			return perfan__nomem(NULL);
		/* a frame per function, or per line with opts.lineno, as
		 * py-spy's raw output is read */
		if (x->o->pyspy.lineno && line)
			snprintf(made, n, "%.*s (%s:%u)", (int)base, name, file,
				 line);
		else
			snprintf(made, n, "%.*s (%s)", (int)base, name, file);
		name = made;
		module = file;
		kind = PERFAN_FRAME_PYTHON;
		if (!x->o->pyspy.lineno)
			line = 0;
	} else if (file && !line && (file[0] == '/' || file[0] == '[')) {
		const char *slash = strrchr(file, '/');
		module = slash ? slash + 1 : file;
		if (!strncmp(file, "[kernel.kallsyms]", 17))
			kind = PERFAN_FRAME_KERNEL;
		size_t n = strlen(file);
		if (!strncmp(name, "??? (", 5) && strlen(name) == n + 6 &&
		    !strncmp(name + 5, file, n) && name[n + 5] == ')') {
			/* as perf script text reads: "[dso]", or [unknown] */
			n = strlen(module) + 3;
			if (!(made = malloc(n)))
				return perfan__nomem(NULL);
			snprintf(made, n, module[0] == '[' ? "%s" : "[%s]",
				 module);
			name = made;
		}
		if (!strcmp(module, "[unknown]"))
			module = NULL;
		file = NULL;
	}
	if (!*name)
		name = "[unknown]";
	rc = perfan_profile_frame(x->p, out, name, module, file, line, kind);
	free(made);
	if (!rc)
		f->id = *out;
	return rc;
}

/* py-spy names its profiles 'Thread ID "NAME"' ('Process PID Thread ID
 * "NAME"' with --subprocesses), perfan those it wrote of py-spy's raw
 * output "thread (ID): NAME": the thread frame perfan's reader of
 * py-spy's raw output makes of its "thread (ID): NAME" root, the Python
 * name alone by default, py-spy's text when roots name ids. 1 when NAME is
 * not of that form. */
static int pyspy_root(struct ss *x, const char *name, perfan_frame_id *out)
{
	long pid = -1, tid = -1;
	const char *p = name;
	char *end;
	/* perfan's own output of py-spy's raw input: its "thread (ID): NAME"
	 * root as it is, NAME alone by default */
	const char *colon = strstr(name, "): ");
	if (!strncmp(name, "thread (", 8) && colon && colon[3])
		return perfan_profile_frame(
			x->p, out,
			x->o->root == PERFAN_ROOT_COMM ? colon + 3 : name, NULL,
			NULL, 0, PERFAN_FRAME_PROCESS);
	if (!strncmp(p, "Process ", 8)) {
		errno = 0;
		pid = strtol(p + 8, &end, 10);
		if (errno || end == p + 8 || pid < 0 || pid > INT32_MAX ||
		    *end != ' ')
			return 1;
		p = end + 1;
	}
	if (strncmp(p, "Thread ", 7))
		return 1;
	const char *id = p + 7, *q = strchr(id, ' ');
	size_t n = strlen(name);
	if (!q || q == id || q[1] != '"' || n < 2 || name[n - 1] != '"' ||
	    q + 1 >= name + n - 1)
		return 1;
	errno = 0;
	tid = strtol(id, &end, 10);
	if (errno || end != q || tid < 0 || tid > INT32_MAX)
		tid = -1; /* "0x7F...": no OS thread id */
	const char *tname = q + 2;
	size_t tl = (size_t)(name + n - 1 - tname), il = (size_t)(q - id);
	char *b = malloc(il + tl + 16);
	if (!b)
		return perfan__nomem(NULL);
	if (tl && x->o->root == PERFAN_ROOT_COMM)
		snprintf(b, il + tl + 16, "%.*s", (int)tl, tname);
	else if (tl)
		snprintf(b, il + tl + 16, "thread (%.*s): %.*s", (int)il, id,
			 (int)tl, tname);
	else
		snprintf(b, il + tl + 16, "thread (%.*s)", (int)il, id);
	int rc = perfan_profile_frame(x->p, out, b, NULL, NULL, 0,
				      PERFAN_FRAME_PROCESS);
	free(b);
	if (!rc && (pid >= 0 || tid >= 0))
		rc = perfan_profile_frame_thread(x->p, *out, (int32_t)pid,
						 (int32_t)tid);
	return rc;
}

/* The process frame of thread TID of process PID whose comm is the first N
 * bytes of COMM (at most 255 of them). */
static int thread_root(struct ss *x, const char *comm, size_t n, long pid,
		       long tid, perfan_frame_id *out)
{
	char c[256];
	snprintf(c, sizeof(c), "%.*s", (int)(n < sizeof(c) ? n : sizeof(c) - 1),
		 comm);
	return perfan_profile_process_frame(
		x->p, out, (enum perfan_process_root)x->o->root, c,
		(int32_t)pid, (int32_t)tid);
}

/* The process frame for a profile named NAME. speedscope names the threads
 * of perf script text "COMM pid: P tid: T" or "COMM tid: T", perfan names
 * them "COMM-PID/TID": those become the comm[-pid[/tid]] root perf script
 * text gives under the same options; any other name is the root as it
 * is. */
static int root_frame(struct ss *x, const char *name, perfan_frame_id *out)
{
	const char *t = strstr(name, " tid: ");
	if (t) {
		const char *p = NULL;
		for (const char *q = name; (q = strstr(q, " pid: ")) && q < t;
		     q++)
			p = q;
		char *end;
		errno = 0;
		long tid = strtol(t + 6, &end, 10);
		long pid = -1;
		int ok = !errno && end != t + 6 && !*end && tid >= 0 &&
			 tid <= INT32_MAX;
		if (ok && p) {
			char *pend;
			pid = strtol(p + 6, &pend, 10);
			ok = pend != p + 6 && pend == t && pid >= 0 &&
			     pid <= INT32_MAX;
		}
		const char *comm_end = p ? p : t;
		if (ok && comm_end > name)
			return thread_root(x, name, (size_t)(comm_end - name),
					   pid >= 0 ? pid : tid, tid, out);
	}
	/* perfan's own speedscope output names a profile COMM-PID/TID */
	const char *dash = strrchr(name, '-');
	if (dash && dash > name) {
		char *slash, *end;
		errno = 0;
		/* COMM-PID/TID, COMM-?/TID (perf script text names no pid)
		 * or COMM-PID (bpftrace's maps name no tid) */
		long pid = -1, tid = -1;
		int ok = 1;
		if (dash[1] == '?') {
			slash = (char *)dash + 2;
		} else {
			ok = isdigit((unsigned char)dash[1]);
			pid = strtol(dash + 1, &slash, 10);
		}
		end = slash;
		if (ok && *slash == '/') {
			ok = isdigit((unsigned char)slash[1]);
			tid = strtol(slash + 1, &end, 10);
		} else if (pid < 0) {
			ok = 0; /* "-?" alone */
		}
		if (ok && !errno && !*end && pid <= INT32_MAX &&
		    tid <= INT32_MAX)
			return thread_root(x, name, (size_t)(dash - name), pid,
					   tid, out);
	}
	int rc = pyspy_root(x, name, out);
	if (rc <= 0)
		return rc;
	return perfan_profile_frame(x->p, out, *name ? name : "[unknown]", NULL,
				    NULL, 0, PERFAN_FRAME_PROCESS);
}

/* ---- one profile --------------------------------------------------------- */

struct prof {
	size_t off, index;
	char *type, *name, *unit;
	int have_events, have_samples, have_weights;
	int count; /* sampled, count_samples: each sample weighs 1 */
	struct perfan__jread_mark events, samples, weights;
	double scale;
	int col;
	size_t base; /* stack entries before the frames: the root */
};

static int push(struct ss *x, struct perfan__jread *j, size_t off,
		perfan_frame_id id)
{
	if (x->nstack >= SS_MAX_STACK)
		return perfan__jread_err(j, PERFAN_EUNSUPPORTED, off,
					 "a stack deeper than %d frames",
					 SS_MAX_STACK);
	if (perfan__grow((void **)&x->stack, &x->capstack, x->nstack + 1,
			 sizeof(*x->stack)))
		return perfan__nomem(NULL);
	x->stack[x->nstack++] = id;
	return 0;
}

/* An index into shared.frames from the number V at OFF. */
static int frame_index(struct ss *x, struct perfan__jread *j, double v,
		       size_t off, uint32_t *out)
{
	if (!(v >= 0 && v < (double)x->nframes && v == floor(v)))
		return perfan__jread_err(j, PERFAN_EFORMAT, off,
					 "frame %g is not one of the file's "
					 "%zu frames",
					 v, x->nframes);
	*out = (uint32_t)v;
	return 0;
}

/* V (a weight or a time, in the profile's unit) in the column's unit. */
static int scaled(struct perfan__jread *j, const struct prof *pr, double v,
		  size_t off, const char *what, uint64_t *out)
{
	double s = v * pr->scale;
	if (!(s >= 0) || s >= 0x1p63)
		return perfan__jread_err(j, PERFAN_EFORMAT, off, "%s %g is %s",
					 what, v,
					 s >= 0 ? "too large" : "negative");
	*out = (uint64_t)llround(s);
	return 0;
}

static int add(struct ss *x, const struct prof *pr, uint64_t w)
{
	if (!w || x->nstack == pr->base)
		return 0;
	return perfan_profile_add(x->p, x->stack, x->nstack, (size_t)pr->col, w,
				  NULL, NULL);
}

static int read_sampled(struct ss *x, struct prof *pr)
{
	struct perfan__jread s, w;
	size_t n = 0, off;
	int rc, rs, rw;
	perfan__jread_fork(&s, &x->j, &pr->samples);
	perfan__jread_fork(&w, &x->j, &pr->weights);
	if ((rc = perfan__jread_array(&s, "\"samples\"")) ||
	    (rc = perfan__jread_array(&w, "\"weights\"")))
		goto out;
	for (;; n++) {
		rs = perfan__jread_element(&s);
		rw = perfan__jread_element(&w);
		if (rs < 0 || rw < 0) {
			rc = rs < 0 ? rs : rw;
			break;
		}
		if (rs != rw) {
			rc = perfan__jread_err(
				rs ? &w : &s, PERFAN_EFORMAT,
				rs ? w.pos : s.pos,
				"profile %zu has %s samples than weights "
				"(%s %zu)",
				pr->index, rs ? "more" : "fewer",
				rs ? "weights end after" : "samples end after",
				n);
			break;
		}
		if (!rs)
			break;
		double v;
		uint64_t weight = 0;
		perfan__jread_peek(&w, &off);
		if ((rc = perfan__jread_number(&w, "a weight", &v)) ||
		    (rc = scaled(&w, pr, v, off, "the weight", &weight)))
			break;
		if (pr->count)
			weight = 1;
		x->nstack = pr->base;
		if ((rc = perfan__jread_array(&s, "a sample (a stack)")))
			break;
		while ((rc = perfan__jread_element(&s)) == 1) {
			uint32_t fi = 0;
			perfan_frame_id id;
			perfan__jread_peek(&s, &off);
			if ((rc = perfan__jread_number(&s, "a frame index",
						       &v)) ||
			    (rc = frame_index(x, &s, v, off, &fi)) ||
			    (rc = frame_id(x, fi, &id)) ||
			    (rc = push(x, &s, off, id)))
				break;
		}
		if (rc || (rc = add(x, pr, weight)))
			break;
	}
out:
	perfan__jread_fini(&s);
	perfan__jread_fini(&w);
	return rc;
}

static const char *frame_name(const struct ss *x, uint32_t i)
{
	return x->frames[i].name;
}

/* One open or close event: its members in any order. */
static int read_event(struct ss *x, struct perfan__jread *e, int *open,
		      uint32_t *fi, double *at, size_t *off)
{
	const char *key, *s;
	size_t n, voff;
	double v;
	int rc, have = 0;
	perfan__jread_peek(e, off);
	if ((rc = perfan__jread_object(e, "an event")))
		return rc;
	while ((rc = perfan__jread_member(e, &key, NULL)) == 1) {
		perfan__jread_peek(e, &voff);
		if (!strcmp(key, "type")) {
			if ((rc = perfan__jread_string(e, "an event's type", &s,
						       &n)))
				return rc;
			if (n != 1 || (*s != 'O' && *s != 'C'))
				return perfan__jread_err(
					e, PERFAN_EFORMAT, voff,
					"an event's type is \"O\" or \"C\", "
					"not \"%.40s\"",
					s);
			*open = *s == 'O';
			have |= 1;
		} else if (!strcmp(key, "frame")) {
			if ((rc = perfan__jread_number(e, "an event's frame",
						       &v)) ||
			    (rc = frame_index(x, e, v, voff, fi)))
				return rc;
			have |= 2;
		} else if (!strcmp(key, "at")) {
			if ((rc = perfan__jread_number(e, "an event's \"at\"",
						       at)))
				return rc;
			have |= 4;
		} else if ((rc = perfan__jread_skip(e)))
			return rc;
	}
	if (rc)
		return rc;
	if (have != 7)
		return perfan__jread_err(e, PERFAN_EFORMAT, *off,
					 "an event without %s",
					 !(have & 1)   ? "\"type\""
					 : !(have & 2) ? "\"frame\""
						       : "\"at\"");
	return 0;
}

static int read_evented(struct ss *x, struct prof *pr)
{
	struct perfan__jread e;
	size_t nopen = 0, off;
	double first = 0, prev = 0;
	uint64_t prev_pos = 0;
	int rc, any = 0;
	perfan__jread_fork(&e, &x->j, &pr->events);
	x->nstack = pr->base;
	if ((rc = perfan__jread_array(&e, "\"events\"")))
		goto out;
	while ((rc = perfan__jread_element(&e)) == 1) {
		int open = 0;
		uint32_t fi = 0;
		double at = 0;
		uint64_t pos = 0;
		if ((rc = read_event(x, &e, &open, &fi, &at, &off)))
			break;
		if (!any) {
			first = prev = at;
			any = 1;
		}
		if (at < prev) {
			rc = perfan__jread_err(&e, PERFAN_EFORMAT, off,
					       "an event at %.17g, before the "
					       "one before it (at %.17g): "
					       "events must be in time order",
					       at, prev);
			break;
		}
		/* positions from the first event, so that rounding never
		 * loses or adds time over the profile */
		if ((rc = scaled(&e, pr, at - first, off,
				 "the time from the first event", &pos)) ||
		    (rc = add(x, pr, pos - prev_pos)))
			break;
		prev = at;
		prev_pos = pos;
		if (open) {
			perfan_frame_id id;
			if (perfan__grow((void **)&x->open, &x->capopen,
					 nopen + 1, sizeof(*x->open))) {
				rc = perfan__nomem(NULL);
				break;
			}
			if ((rc = frame_id(x, fi, &id)) ||
			    (rc = push(x, &e, off, id)))
				break;
			x->open[nopen].idx = fi;
			x->open[nopen++].off = off;
		} else if (!nopen) {
			rc = perfan__jread_err(&e, PERFAN_EFORMAT, off,
					       "an event closes frame %u "
					       "(\"%.60s\") but no frame is "
					       "open",
					       fi, frame_name(x, fi));
			break;
		} else if (x->open[nopen - 1].idx != fi) {
			uint32_t top = x->open[nopen - 1].idx;
			rc = perfan__jread_err(
				&e, PERFAN_EFORMAT, off,
				"an event closes frame %u (\"%.60s\") but "
				"the innermost open frame is %u (\"%.60s\", "
				"opened at offset %zu)",
				fi, frame_name(x, fi), top, frame_name(x, top),
				x->open[nopen - 1].off);
			break;
		} else {
			nopen--;
			x->nstack--;
		}
	}
	if (!rc && nopen)
		rc = perfan__jread_err(&e, PERFAN_EFORMAT,
				       x->open[nopen - 1].off,
				       "frame %u (\"%.60s\") is opened here "
				       "and never closed (%zu frames open at "
				       "the end of profile %zu)",
				       x->open[nopen - 1].idx,
				       frame_name(x, x->open[nopen - 1].idx),
				       nopen, pr->index);
out:
	perfan__jread_fini(&e);
	return rc;
}

static void prof_free(struct prof *pr)
{
	free(pr->type);
	free(pr->name);
	free(pr->unit);
}

/* A member whose value is read later, from its mark. */
static int defer(struct ss *x, const char *key, int *have,
		 struct perfan__jread_mark *m)
{
	if (*have)
		return perfan__jread_err(&x->j, PERFAN_EFORMAT, x->j.pos,
					 "a second \"%s\" in one profile", key);
	*have = 1;
	perfan__jread_mark(&x->j, m);
	return perfan__jread_skip(&x->j);
}

static int read_profile(struct ss *x)
{
	struct prof pr = {.index = x->nprofiles++};
	const char *key;
	double v;
	int rc;
	perfan__jread_peek(&x->j, &pr.off);
	if ((rc = perfan__jread_object(&x->j, "a profile")))
		return rc;
	while ((rc = perfan__jread_member(&x->j, &key, NULL)) == 1) {
		if (!strcmp(key, "type"))
			rc = get_string(x, "a profile's type", &pr.type);
		else if (!strcmp(key, "name"))
			rc = get_string(x, "a profile's name", &pr.name);
		else if (!strcmp(key, "unit"))
			rc = get_string(x, "a profile's unit", &pr.unit);
		else if (!strcmp(key, "startValue") || !strcmp(key, "endValue"))
			rc = perfan__jread_number(&x->j,
						  "a profile's start or "
						  "end value",
						  &v);
		else if (!strcmp(key, "events"))
			rc = defer(x, "events", &pr.have_events, &pr.events);
		else if (!strcmp(key, "samples"))
			rc = defer(x, "samples", &pr.have_samples, &pr.samples);
		else if (!strcmp(key, "weights"))
			rc = defer(x, "weights", &pr.have_weights, &pr.weights);
		else
			rc = perfan__jread_skip(&x->j);
		if (rc)
			break;
	}
	if (rc)
		goto out;
	int evented = pr.type && !strcmp(pr.type, "evented");
	if (!pr.type || (!evented && strcmp(pr.type, "sampled"))) {
		rc = perfan__jread_err(
			&x->j, pr.type ? PERFAN_EUNSUPPORTED : PERFAN_EFORMAT,
			pr.off,
			"profile %zu %s%.40s%s (speedscope "
			"knows \"evented\" and \"sampled\")",
			pr.index, pr.type ? "is of type \"" : "",
			pr.type ? pr.type : "has no type", pr.type ? "\"" : "");
		goto out;
	}
	size_t u = 0;
	while (pr.unit && u < sizeof(units) / sizeof(units[0]) &&
	       strcmp(pr.unit, units[u].unit))
		u++;
	if (!pr.unit || u == sizeof(units) / sizeof(units[0])) {
		rc = perfan__jread_err(&x->j, PERFAN_EFORMAT, pr.off,
				       "profile %zu %s%.40s%s (speedscope "
				       "knows none, nanoseconds, microseconds, "
				       "milliseconds, seconds and bytes)",
				       pr.index,
				       pr.unit ? "has the unit \"" : "",
				       pr.unit ? pr.unit : "has no unit",
				       pr.unit ? "\"" : "");
		goto out;
	}
	const char *missing = evented && !pr.have_events     ? "events"
			      : !evented && !pr.have_samples ? "samples"
			      : !evented && !pr.have_weights ? "weights"
							     : NULL;
	if (missing) {
		rc = perfan__jread_err(&x->j, PERFAN_EFORMAT, pr.off,
				       "profile %zu (%s) has no \"%s\"",
				       pr.index, pr.type, missing);
		goto out;
	}
	enum ss_col c = units[u].col;
	pr.scale = units[u].scale;
	/* --samples: a sampled profile's samples counted (an evented one has
	 * none: its times stay) */
	if (x->o->count_samples && !evented) {
		c = COL_COUNT;
		pr.count = 1;
	}
	/* --event NAME: the profiles of that column only */
	if (x->o->event && strcmp(x->o->event, col_name[c]))
		goto out;
	if (x->col[c] < 0 && (x->col[c] = perfan_profile_add_column(
				      x->p, col_name[c], col_unit[c])) < 0) {
		rc = x->col[c];
		x->col[c] = -1;
		goto out;
	}
	pr.col = x->col[c];
	x->nstack = 0;
	if (x->o->root != PERFAN_ROOT_NONE) {
		char dflt[32];
		perfan_frame_id id;
		snprintf(dflt, sizeof(dflt), "profile %zu", pr.index);
		if ((rc = root_frame(x, pr.name ? pr.name : dflt, &id)) ||
		    (rc = push(x, &x->j, pr.off, id)))
			goto out;
	}
	pr.base = x->nstack;
	x->nused++;
	rc = evented ? read_evented(x, &pr) : read_sampled(x, &pr);
out:
	prof_free(&pr);
	return rc;
}

static int read_profiles(struct ss *x)
{
	int rc = perfan__jread_array(&x->j, "\"profiles\"");
	if (rc)
		return rc;
	while ((rc = perfan__jread_element(&x->j)) == 1)
		if ((rc = read_profile(x)))
			return rc;
	return rc;
}

/* ---- the file ------------------------------------------------------------ */

static int read_file(struct ss *x)
{
	struct perfan__jread_mark profiles;
	const char *key, *s;
	size_t n, off;
	int rc, schema = 0, shared = 0, have_profiles = 0, deferred = 0;
	if ((rc = perfan__jread_object(&x->j, "a speedscope file")))
		return rc;
	while ((rc = perfan__jread_member(&x->j, &key, NULL)) == 1) {
		int dup = 0;
		rc = 0; /* not member()'s 1 */
		perfan__jread_peek(&x->j, &off);
		if (!strcmp(key, "$schema")) {
			dup = schema++;
			if (!dup &&
			    !(rc = perfan__jread_string(&x->j, "\"$schema\"",
							&s, &n)) &&
			    strcmp(s, SCHEMA))
				rc = perfan__jread_err(
					&x->j, PERFAN_EFORMAT, off,
					"\"$schema\" is \"%.80s\", not "
					"speedscope's " SCHEMA,
					s);
		} else if (!strcmp(key, "shared")) {
			if (!(dup = shared++))
				rc = read_shared(x);
		} else if (!strcmp(key, "profiles")) {
			if ((dup = have_profiles++))
				;
			else if (x->have_frames)
				rc = read_profiles(x);
			else {
				/* read after "shared", which may follow */
				perfan__jread_mark(&x->j, &profiles);
				deferred = 1;
				rc = perfan__jread_skip(&x->j);
			}
		} else if (!strcmp(key, "name"))
			rc = get_string(x, "the file's name", &x->title);
		else if (!strcmp(key, "exporter"))
			rc = get_string(x, "\"exporter\"", &x->exporter);
		else if (!strcmp(key, "activeProfileIndex")) {
			rc = perfan__jread_number(
				&x->j, "\"activeProfileIndex\"", &x->active);
			x->have_active = !rc;
		} else
			rc = perfan__jread_skip(&x->j); /* "version" (0.x) */
		if (!rc && dup)
			rc = perfan__jread_err(&x->j, PERFAN_EFORMAT, off,
					       "a second \"%s\"",
					       schema > 1   ? "$schema"
					       : shared > 1 ? "shared"
							    : "profiles");
		if (rc)
			return rc;
	}
	if (rc || (rc = perfan__jread_end(&x->j)))
		return rc;
	const char *missing = !schema           ? "$schema"
			      : !shared         ? "shared"
			      : !x->have_frames ? "shared.frames"
			      : !have_profiles  ? "profiles"
						: NULL;
	if (missing)
		return perfan__jread_err(&x->j, PERFAN_EFORMAT, 0,
					 "the file has no \"%s\"", missing);
	if (deferred) {
		perfan__jread_seek(&x->j, &profiles);
		rc = read_profiles(x);
	}
	return rc;
}

static void note(const struct ss *x, const char *name)
{
	if (!x->o->log)
		return;
	char msg[512];
	snprintf(msg, sizeof(msg),
		 "%s: speedscope file%s%.100s%s%s%.60s: %zu profiles (%zu "
		 "read), %zu frames%s",
		 name, x->title ? " \"" : "", x->title ? x->title : "",
		 x->title ? "\"" : "", x->exporter ? " from " : "",
		 x->exporter ? x->exporter : "", x->nprofiles, x->nused,
		 x->nframes, "");
	size_t l = strlen(msg);
	if (x->have_active && l < sizeof(msg))
		snprintf(msg + l, sizeof(msg) - l,
			 "; speedscope opens profile %.0f first", x->active);
	x->o->log(PERFAN_LOG_INFO, msg, x->o->log_payload);
}

int perfan__speedscope_parse(perfan_profile *p, const void *buf, size_t len,
			     const char *name,
			     const struct perfan_source_opts *o)
{
	static const struct perfan_source_opts none = {.sz = sizeof(none)};
	struct ss x = {.p = p, .o = o ? o : &none};
	for (int c = 0; c < NR_COLS; c++)
		x.col[c] = -1;
	perfan__jread_init(&x.j, buf, len, name, SS_DEPTH);
	int rc = read_file(&x);
	if (!rc)
		note(&x, x.j.name);
	perfan__jread_fini(&x.j);
	for (size_t i = 0; i < x.nframes; i++) {
		free(x.frames[i].name);
		free(x.frames[i].file);
	}
	free(x.frames);
	free(x.stack);
	free(x.open);
	free(x.title);
	free(x.exporter);
	return rc;
}

/* ---- the registry's entry ------------------------------------------------ */

/* A JSON object whose "$schema" is speedscope's, anywhere in the first
 * bytes: speedscope writes it fourth, py-spy first, 0.x files second. */
static int detect(const void *buf, size_t len)
{
	const char *p = buf, *end = p + len;
	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	if (p >= end || *p != '{')
		return 0;
	static const char key[] = "\"$schema\"", url[] = "\"" SCHEMA "\"";
	for (const char *q = p;
	     (q = memmem(q, (size_t)(end - q), key, sizeof(key) - 1)); q++) {
		const char *v = q + sizeof(key) - 1;
		while (v < end &&
		       (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r'))
			v++;
		if (v >= end || *v++ != ':')
			continue;
		while (v < end &&
		       (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r'))
			v++;
		if ((size_t)(end - v) >= sizeof(url) - 1 &&
		    !memcmp(v, url, sizeof(url) - 1))
			return 1;
	}
	return 0;
}

static int load(perfan_source *s, perfan_profile *p,
		struct perfan_source_stats *st)
{
	(void)st;
	char *buf = NULL;
	size_t len = 0;
	int rc = perfan__input_all(s, UINT64_MAX, &buf, &len);
	if (rc)
		return rc;
	rc = perfan__speedscope_parse(p, buf, len, s->name, &s->o);
	free(buf);
	return rc;
}

const struct perfan__format perfan__format_speedscope = {
	.name = "speedscope",
	.caps = PERFAN_SOURCE_EVENTS | PERFAN_SOURCE_FRAMES,
	.detect = detect,
	.load = load,
};
