/* sources/pyspy.c: py-spy's raw output (`py-spy record --format raw`):
 * folded stacks whose frames are "name (file:line)" ("name (file)" with
 * --nolineno), under "thread (ID)[: NAME]" with --threads and
 * "process PID:\"cmdline\"" with --subprocesses. Told apart from plain
 * folded stacks by those frames; line numbers are folded away unless
 * opts.lineno asks to keep them, so that a function is one frame. */
#include "sources/internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/lines.h"
#include "util/log.h"

/* ---- one frame's text -------------------------------------------------- */

enum ftype {
	F_BAD,     /* empty */
	F_PLAIN,   /* no "(file)": a native frame without a file */
	F_FILE,    /* "name (file)" */
	F_LINE,    /* "name (file:line)" */
	F_PROCESS, /* "process PID:\"cmdline\"" (roots only) */
	F_THREAD,  /* "thread (ID)" or "thread (ID): NAME" (roots only) */
	F_BADROOT, /* "process N" without the rest: damaged, or cut */
};

/* What the text S[0..N) of one frame holds. */
struct frame {
	enum ftype type;
	size_t name_len;           /* F_FILE, F_LINE: the function's */
	size_t file_off, file_len; /* F_FILE, F_LINE; F_PROCESS: cmdline */
	uint32_t line;             /* F_LINE */
	int64_t id;                /* F_PROCESS: pid; F_THREAD: tid or -1 */
	size_t tname_off;          /* F_THREAD: the name after ": ", or 0 */
};

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_xdigit(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Digits S[0..N) as a number no larger than MAX, or -1. */
static int64_t number(const char *s, size_t n, int64_t max)
{
	int64_t v = 0;
	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit(s[i]) || v > (max - (s[i] - '0')) / 10)
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static int starts(const char *s, size_t n, const char *pfx)
{
	size_t k = strlen(pfx);
	return n >= k && !memcmp(s, pfx, k);
}

/* "process PID:\"cmdline\"", as py-spy's ProcessInfo names a process. */
static int parse_process(const char *s, size_t n, struct frame *f)
{
	if (!starts(s, n, "process "))
		return 0;
	size_t i = 8, d = i;
	while (i < n && is_digit(s[i]))
		i++;
	if (i + 2 > n || s[i] != ':' || s[i + 1] != '"' || s[n - 1] != '"' ||
	    i + 2 > n - 1)
		return 0;
	int64_t pid = number(s + d, i - d, INT32_MAX);
	if (pid < 0)
		return 0;
	f->type = F_PROCESS;
	f->id = pid;
	f->file_off = i + 2;
	f->file_len = n - 1 - f->file_off;
	return 1;
}

/* "thread (0x7F12...)" (a pthread id) or "thread (12345)" (the OS thread
 * id, which py-spy prints on Linux when it knows it), then ": NAME" when
 * the thread has a name in Python's threading module. */
static int parse_thread(const char *s, size_t n, struct frame *f)
{
	if (!starts(s, n, "thread ("))
		return 0;
	size_t i = 8, d = i;
	int hex = starts(s + i, n - i, "0x") || starts(s + i, n - i, "0X");
	if (hex) {
		i += 2;
		d = i;
		while (i < n && is_xdigit(s[i]))
			i++;
	} else {
		while (i < n && is_digit(s[i]))
			i++;
	}
	if (i == d || i >= n || s[i] != ')')
		return 0;
	i++;
	if (i < n && !starts(s + i, n - i, ": "))
		return 0;
	f->type = F_THREAD;
	f->id = hex ? -1 : number(s + d, i - 1 - d, INT32_MAX);
	f->tname_off = i < n ? i + 2 : 0;
	return 1;
}

/* The text of a stack's frame at position K (roots come first: processes,
 * then at most one thread). */
static void classify(const char *s, size_t n, int root, struct frame *f)
{
	memset(f, 0, sizeof(*f));
	f->id = -1;
	if (!n)
		return; /* F_BAD */
	if (root && (parse_process(s, n, f) || parse_thread(s, n, f)))
		return;
	if (root && n > 8 && starts(s, n, "process ") && is_digit(s[8])) {
		f->type = F_BADROOT;
		return;
	}
	f->type = F_PLAIN;
	if (s[n - 1] != ')')
		return;
	/* the last " (": C++ names may hold one, a file seldom does */
	size_t b = n - 1;
	while (b > 0 && !(s[b - 1] == ' ' && s[b] == '('))
		b--;
	if (b < 2 || b + 1 >= n - 1)
		return; /* no name, or "()" */
	f->type = F_FILE;
	f->name_len = b - 1;
	f->file_off = b + 1;
	f->file_len = n - 1 - f->file_off;
	/* ":LINE" at the end of the file part */
	size_t e = n - 1, d = e;
	while (d > f->file_off && is_digit(s[d - 1]))
		d--;
	if (d < e && d > f->file_off + 1 && s[d - 1] == ':') {
		int64_t line = number(s + d, e - d, UINT32_MAX);
		if (line >= 0) {
			f->type = F_LINE;
			f->line = (uint32_t)line;
			f->file_len = d - 1 - f->file_off;
		}
	}
}

/* Where the frame at S[0..N) ends (at a ';' or N): a process frame's
 * command line may hold ';' (py-spy does not escape it), so it runs to
 * the first '";' or the end. */
static size_t frame_end(const char *s, size_t n, size_t pos, int root)
{
	const char *semi = memchr(s + pos, ';', n - pos);
	size_t e = semi ? (size_t)(semi - s) : n;
	if (!root || !starts(s + pos, e - pos, "process ") ||
	    (e - pos >= 2 && s[e - 1] == '"' &&
	     memchr(s + pos, '"', e - pos) != s + e - 1))
		return e;
	for (size_t i = e; i + 1 < n; i++)
		if (s[i] == '"' && s[i + 1] == ';')
			return i + 1;
	return s[n - 1] == '"' ? n : e;
}

/* ---- one line -------------------------------------------------------- */

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The stack S[0..*STACK_LEN) and COUNT of a line: "STACK COUNT". Returns
 * 1, 0 for a blank line, or -1 with *WHY set. */
static int split_line(const char *s, size_t len, size_t *stack_len,
		      uint64_t *count, const char **why)
{
	while (len && is_blank(s[len - 1]))
		len--;
	if (!len)
		return 0;
	if (memchr(s, '\0', len)) {
		*why = "a NUL byte: this is not text";
		return -1;
	}
	size_t d = len;
	while (d && is_digit(s[d - 1]))
		d--;
	if (d == len || (d && s[d - 1] != ' ' && s[d - 1] != '\t') ||
	    (!d && len)) {
		*why = "expected a stack, a space and a count";
		return -1;
	}
	uint64_t c = 0;
	for (size_t i = d; i < len; i++) {
		unsigned v = (unsigned)(s[i] - '0');
		if (c > (UINT64_MAX - v) / 10) {
			*why = "count larger than 2^64-1";
			return -1;
		}
		c = c * 10 + v;
	}
	*stack_len = d - 1;
	*count = c;
	return 1;
}

/* ---- detection --------------------------------------------------------- */

/* Whether the line S[0..LEN) is one py-spy writes (1), is none (0), or
 * is no line of folded stacks at all (-1: damage, for the reader to name):
 * every frame "name (file[:line])" after the roots. *STRONG is set when
 * it shows what plain folded stacks (perfan's own among them, whose
 * Python frames are "qualname (file)") never do: a root or a line
 * number. */
static int detect_line(const char *s, size_t len, int *strong)
{
	size_t n;
	uint64_t count;
	const char *why;
	int k = split_line(s, len, &n, &count, &why);
	if (k <= 0 || !n)
		return k < 0 ? -1 : 1; /* blank, or a thread without frames */
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 && s[i] != '\t')
			return -1;
	int root = 1;
	for (size_t pos = 0; pos <= n;) {
		size_t e = frame_end(s, n, pos, root);
		struct frame f;
		classify(s + pos, e - pos, root, &f);
		if (f.type == F_BAD || f.type == F_BADROOT)
			return -1; /* ";;", a root cut short: damage */
		if (f.type == F_PLAIN)
			return 0;
		if (f.type == F_THREAD || f.type == F_PROCESS ||
		    f.type == F_LINE)
			*strong = 1;
		root = f.type == F_PROCESS;
		pos = e + 1;
	}
	return 1;
}

/* py-spy's when every line up to the first damaged one (or the end of
 * the peek) is py-spy's and one of them has a root or a line number. A
 * damaged line after good ones leaves the choice to those, so that the
 * reader names the damage. */
static int detect(const void *vbuf, size_t len)
{
	const char *buf = vbuf;
	int strong = 0, lines = 0;
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		/* a line cut by the end of the peek is left out, unless it is
		 * all there is */
		if (!nl && lines)
			break;
		size_t e = nl ? (size_t)(nl - buf) : len;
		if (e > pos && buf[pos] == '#')
			return 0; /* py-spy writes no comments */
		int k = detect_line(buf + pos, e - pos, &strong);
		if (k == 0 || (k < 0 && !lines))
			return 0;
		if (k < 0)
			break;
		lines++;
		pos = e + 1;
	}
	return strong;
}

/* ---- reading ----------------------------------------------------------- */

struct reader {
	perfan_profile *p;
	const struct perfan_source_opts *o;
	const char *name;
	int col;
	uint64_t lineno, off, sum, empty;
	perfan_frame_id *frames;
	size_t nframes, cap;
	char *buf; /* a frame's name, then its file, NUL-terminated */
	size_t buf_cap;
};

/* "NAME: offset N (line L): what", at the reader's line. */
#define line_error(r, code, ...)                                               \
	perfan__err_at((code), (r)->name, (r)->off, (r)->lineno, __VA_ARGS__)

static int push(struct reader *r, perfan_frame_id id)
{
	if (r->nframes == r->cap &&
	    perfan__grow((void **)&r->frames, &r->cap, r->nframes + 1,
			 sizeof(*r->frames)))
		return perfan__nomem(r->name);
	r->frames[r->nframes++] = id;
	return 0;
}

/* Room for N bytes in r->buf. */
static char *scratch(struct reader *r, size_t n)
{
	if (n > r->buf_cap &&
	    perfan__grow((void **)&r->buf, &r->buf_cap, n, 1)) {
		perfan__nomem(r->name);
		return NULL;
	}
	return r->buf;
}

/* Native code, as py-spy --native names it: an address ("0x7f3a..."),
 * "?" for no file, or a C, C++ or Rust source or a shared object. */
static int native_frame(const char *name, size_t nl, const char *file,
			size_t fl)
{
	static const char *const sfx[] = {".c",   ".h",   ".cc", ".cpp",
					  ".cxx", ".hpp", ".hh", ".rs",
					  ".S",   ".s",   ".so"};
	if (nl > 2 && name[0] == '0' && name[1] == 'x')
		return 1;
	if (fl == 1 && file[0] == '?')
		return 1;
	for (size_t i = 0; i < sizeof(sfx) / sizeof(*sfx); i++) {
		size_t k = strlen(sfx[i]);
		if (fl > k && !memcmp(file + fl - k, sfx[i], k))
			return 1;
	}
	for (size_t i = 0; i + 4 <= fl; i++) /* libfoo.so.1 */
		if (!memcmp(file + i, ".so.", 4))
			return 1;
	return 0;
}

/* A function's frame: "name (file)", or with opts.lineno "name
 * (file:line)"; its module and file are the file. */
static int code_frame(struct reader *r, const char *s, size_t n,
		      const struct frame *f, perfan_frame_id *out)
{
	int keep = f->type == F_LINE && r->o->pyspy.lineno;
	size_t nl = keep ? n : f->file_off + f->file_len + 1;
	if (f->type == F_PLAIN)
		nl = n;
	char *b = scratch(r, nl + 1 + f->file_len + 1);
	if (!b)
		return PERFAN_ENOMEM;
	memcpy(b, s, nl);
	if (f->type == F_LINE && !keep)
		b[nl - 1] = ')';
	b[nl] = '\0';
	if (f->type == F_PLAIN)
		return perfan_profile_frame(r->p, out, b, NULL, NULL, 0,
					    PERFAN_FRAME_NATIVE);
	char *file = b + nl + 1;
	memcpy(file, s + f->file_off, f->file_len);
	file[f->file_len] = '\0';
	uint32_t kind = native_frame(s, f->name_len, file, f->file_len)
				? PERFAN_FRAME_NATIVE
				: PERFAN_FRAME_PYTHON;
	return perfan_profile_frame(r->p, out, b, file, file,
				    keep ? f->line : 0, kind);
}

/* The process frame of PROC (S is its text) for the thread THR (or none),
 * made as perf.data roots are (perfan_profile_process_frame) from its
 * command: the command line with the program's directory left out. */
static int process_frame(struct reader *r, const char *s,
			 const struct frame *proc, const struct frame *thr,
			 perfan_frame_id *out)
{
	const char *cmd = s + proc->file_off;
	size_t cl = proc->file_len, sp = 0;
	while (sp < cl && cmd[sp] != ' ')
		sp++;
	for (size_t i = sp; i > 0; i--)
		if (cmd[i - 1] == '/') {
			cmd += i;
			cl -= i;
			break;
		}
	char *b = scratch(r, cl + 1);
	if (!b)
		return PERFAN_ENOMEM;
	memcpy(b, cmd, cl);
	b[cl] = '\0';
	int32_t tid = thr && thr->id >= 0 ? (int32_t)thr->id : -1;
	int root = r->o->root;
	if (root == PERFAN_ROOT_PID_TID && tid < 0)
		root = PERFAN_ROOT_PID;
	return perfan_profile_process_frame(r->p, out, root, cl ? b : "?",
					    (int32_t)proc->id, tid);
}

/* The thread's frame below the process: its Python name, or py-spy's text
 * for a thread without one and when roots name ids (--pid, --tid). */
static int thread_frame(struct reader *r, const char *s, size_t n,
			const struct frame *thr, const struct frame *proc,
			perfan_frame_id *out)
{
	const char *t = s;
	size_t tl = n;
	if (thr->tname_off && thr->tname_off < n &&
	    r->o->root == PERFAN_ROOT_COMM) {
		t = s + thr->tname_off;
		tl = n - thr->tname_off;
	}
	char *b = scratch(r, tl + 1);
	if (!b)
		return PERFAN_ENOMEM;
	memcpy(b, t, tl);
	b[tl] = '\0';
	int rc = perfan_profile_frame(r->p, out, b, NULL, NULL, 0,
				      PERFAN_FRAME_PROCESS);
	if (!rc && (proc || thr->id >= 0))
		rc = perfan_profile_frame_thread(r->p, *out,
						 proc ? (int32_t)proc->id : -1,
						 (int32_t)thr->id);
	return rc;
}

/* The line's stack S[0..N) with COUNT into the profile. */
static int add_line(struct reader *r, const char *s, size_t n, uint64_t count)
{
	r->nframes = 0;
	/* the roots: processes (the one sampled last; py-spy puts its
	 * ancestors above it, which perf.data's roots do not show), then a
	 * thread */
	struct frame proc = {0}, thr = {0}, f;
	const char *proc_s = NULL, *thr_s = NULL;
	size_t pos = 0, thr_n = 0;
	int root = 1;
	while (root && pos <= n) {
		size_t e = frame_end(s, n, pos, 1);
		classify(s + pos, e - pos, 1, &f);
		if (f.type == F_BADROOT)
			return line_error(r, PERFAN_EFORMAT,
					  "a process root frame without its "
					  "\"command line\"");
		if (f.type == F_PROCESS) {
			proc = f;
			proc_s = s + pos;
		} else if (f.type == F_THREAD) {
			thr = f;
			thr_s = s + pos;
			thr_n = e - pos;
			root = 0;
		} else {
			break;
		}
		pos = e + 1;
	}
	if (r->o->root != PERFAN_ROOT_NONE) {
		perfan_frame_id id;
		int rc = 0;
		if (proc_s)
			rc = process_frame(r, proc_s, &proc,
					   thr_s ? &thr : NULL, &id);
		if (!rc && proc_s)
			rc = push(r, id);
		if (!rc && thr_s)
			rc = thread_frame(r, thr_s, thr_n, &thr,
					  proc_s ? &proc : NULL, &id);
		if (!rc && thr_s)
			rc = push(r, id);
		if (rc)
			return rc;
	}
	for (; pos <= n;) {
		size_t e = frame_end(s, n, pos, 0);
		classify(s + pos, e - pos, 0, &f);
		if (f.type == F_BAD)
			return line_error(r, PERFAN_EFORMAT,
					  "an empty frame at byte %zu of the "
					  "line",
					  pos);
		perfan_frame_id id;
		int rc = code_frame(r, s + pos, e - pos, &f, &id);
		if (!rc)
			rc = push(r, id);
		if (rc)
			return rc;
		pos = e + 1;
	}
	if (!r->nframes) { /* roots only, and --root none */
		r->empty += count;
		return 0;
	}
	if (count > UINT64_MAX - r->sum)
		return line_error(r, PERFAN_EFORMAT,
				  "the counts add up to more than 2^64-1");
	r->sum += count;
	return perfan_profile_add(r->p, r->frames, r->nframes, (size_t)r->col,
				  count, NULL, NULL);
}

/* S into column COLUMN of P. */
static int read_into(perfan_source *s, perfan_profile *p, const char *column)
{
	FILE *fp = perfan__input_text(s);
	if (!fp)
		return PERFAN_EIO; /* named by perfan__input_text */
	struct reader r;
	memset(&r, 0, sizeof(r));
	r.p = p;
	r.o = &s->o;
	r.name = s->name;
	r.col = perfan_profile_add_column(p, column, "samples");
	if (r.col < 0)
		return r.col;
	r.sum = perfan_profile_total(p, (size_t)r.col);
	struct perfan__lines l;
	int rc = perfan__lines_init(&l, fp, s->name, 0);
	if (rc)
		return rc;
	const char *line;
	size_t len;
	while ((rc = perfan__lines_next(&l, &line, &len)) == 1) {
		r.lineno = l.lineno;
		size_t n;
		uint64_t count;
		const char *why;
		/* py-spy ends every line with '\n': a last line without one
		 * was cut, its count or its last frame perhaps in the middle,
		 * and is no stack to keep */
		if (l.eof && line + len == l.buf + l.end) {
			for (n = 0; n < len && is_blank(line[n]); n++)
				;
			if (n < len)
				perfan__logf(
					s->o.log, s->o.log_payload,
					PERFAN_LOG_WARN,
					"%s: offset %llu (line %llu): the last "
					"line has no newline: cut short, left out",
					s->name, (unsigned long long)r.off,
					(unsigned long long)r.lineno);
			break;
		}
		int k = split_line(line, len, &n, &count, &why);
		if (k < 0)
			rc = line_error(&r, PERFAN_EFORMAT, "%s", why);
		else if (k > 0 && !n)
			r.empty += count; /* a thread without a Python frame */
		else if (k > 0)
			rc = add_line(&r, line, n, count);
		if (rc)
			break;
		r.off += len + 1;
	}
	perfan__lines_free(&l);
	if (r.empty && rc >= 0)
		perfan__logf(
			s->o.log, s->o.log_payload, PERFAN_LOG_WARN,
			"%s: %llu samples have no frame (threads outside Python "
			"code): left out",
			s->name, (unsigned long long)r.empty);
	free(r.frames);
	free(r.buf);
	return rc < 0 ? rc : 0;
}

static int load(perfan_source *s, perfan_profile *p,
		struct perfan_source_stats *st)
{
	(void)st;
	return read_into(s, p, "samples");
}

/* Two runs, each into its own column: frames are interned once, so the
 * same function in both is one frame, which is what a diff pairs. */
static int load_pair(perfan_profile *p, perfan_source *before,
		     perfan_source *after, const char *before_column,
		     const char *after_column)
{
	int rc = read_into(before, p, before_column ? before_column : "before");
	if (!rc) {
		after->o.pyspy.lineno = before->o.pyspy.lineno;
		after->o.root = before->o.root;
		rc = read_into(after, p, after_column ? after_column : "after");
	}
	return rc;
}

const struct perfan__format perfan__format_pyspy = {
	.name = "py-spy",
	.caps = PERFAN_SOURCE_COUNTED | PERFAN_SOURCE_PAIRED |
		PERFAN_SOURCE_ROOTS,
	.detect = detect,
	.load = load,
	.load_pair = load_pair,
};
