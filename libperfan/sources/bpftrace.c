/* sources/bpftrace.c: bpftrace's printed maps with stack keys
 * (`@[kstack, ustack, comm, pid] = count()` and any subset or order, the
 * stack modes bpftrace, perf and raw, text or -f json) as stacks with
 * counts: one column per map.
 *
 * What bpftrace prints (src/output.cpp, BPFtrace::get_stack): an entry is
 * "@name[" KEYS "]: " VALUE "\n", the keys joined by ", " (by "," in JSON,
 * where the keys are one string). A stack key is "\n" then one line per
 * frame, leaf first, each ending in "\n": "    sym+off" or "    0xaddr"
 * (mode bpftrace), "\taddr sym+off (module)" (perf; kernel frames have no
 * module), "addr" (raw). A stack bpftrace could not read is "". The text
 * does not say which stack is the kernel's: the addresses, the modules
 * and the entry points at a stack's root tell, voted over every entry of
 * the map. A map's entries are read whole before they are added.
 * Later bpftrace versions (read in their source, not recorded here) print
 * "Attached N probes" on stderr, may name inlined frames ("[inlined] f",
 * perf mode "f+3 (inlined)") and source lines ("f+3@dir/file.c:12"), end a
 * stack at "<unwind failure>", and strip spaces from JSON keys: all read. */
#define _GNU_SOURCE /* memrchr */
#include "sources/bpftrace_internal.h"
#include "sources/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "profile/model.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/hex.h"
#include "util/json_read.h"
#include "util/log.h"

#define MAX_ARGS 32         /* keys of one map */
#define MAX_NAME 256        /* a map's name */
#define MAX_LINE (64 << 20) /* a JSON map is one line */

/* ---- detection --------------------------------------------------------- */

static int starts(const char *s, size_t n, const char *pfx)
{
	size_t k = strlen(pfx);
	return n >= k && !memcmp(s, pfx, k);
}

static int is_ident(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* "@name[" at S: the length of "@name" (0: not an entry's start). */
static size_t entry_start(const char *s, size_t n)
{
	if (!n || s[0] != '@')
		return 0;
	size_t i = 1;
	while (i < n && i <= MAX_NAME && is_ident((unsigned char)s[i]))
		i++;
	return i < n && s[i] == '[' ? i : 0;
}

/* "Attaching 3 probes..." (bpftrace up to 0.20, on stdout) or "Attached
 * 3 probes" (later ones, on stderr, in a 2>&1 capture). */
static int attaching(const char *s, size_t n)
{
	size_t i;
	if (starts(s, n, "Attaching "))
		i = 10;
	else if (starts(s, n, "Attached "))
		i = 9;
	else
		return 0;
	size_t d = i;
	while (i < n && is_digit((unsigned char)s[i]))
		i++;
	return i > d && starts(s + i, n - i, " probe");
}

static const char *const json_types[] = {
	"attached_probes", "map",   "hist",         "stats",
	"printf",          "time",  "join",         "lost_events",
	"syscall",         "value", "helper_error", "cat",
	"tseries",
};

/* `{"type": "map", "data": ...`: a JSON message of bpftrace's. */
static int json_message(const char *s, size_t n)
{
	if (!starts(s, n, "{\"type\": \""))
		return 0;
	s += 10;
	n -= 10;
	for (size_t i = 0; i < sizeof(json_types) / sizeof(json_types[0]);
	     i++) {
		size_t k = strlen(json_types[i]);
		if (n > k && !memcmp(s, json_types[i], k) && s[k] == '"')
			return 1;
	}
	return 0;
}

int perfan__bpftrace_detect(const void *buf, size_t len)
{
	const char *s = buf;
	size_t i = 0;
	/* the first line that is not blank */
	while (i < len && (s[i] == '\n' || s[i] == '\r'))
		i++;
	const char *l = s + i;
	const char *nl = memchr(l, '\n', len - i);
	size_t n = nl ? (size_t)(nl - l) : len - i;
	return attaching(l, n) || json_message(l, n) || entry_start(l, n);
}

/* ---- a map's entries, kept until the map ends -------------------------- */

enum tok_type {
	T_ENTRY,  /* an entry: count in val */
	T_STACK,  /* a stack key; its T_FRAMEs follow */
	T_FRAME,  /* a frame line: text at off, len */
	T_SCALAR, /* any other key: text at off, len ("": an empty stack) */
};

struct tok {
	uint32_t type, len;
	uint64_t val; /* T_ENTRY: the count; else the text's offset */
};

struct rd {
	perfan_profile *p;
	const char *name;
	const struct perfan_source_opts *o;
	FILE *fp;
	char *line; /* the current line, without its '\n' */
	size_t nline, capline;
	uint64_t off, lineno; /* of the current line */

	/* the map being read */
	char map[MAX_NAME + 2];
	int skip;         /* not opts.event's map */
	int warned_value; /* its values were not counts once */
	char *text;
	size_t ntext, captext;
	struct tok *tok;
	size_t ntok, captok;
	size_t nentries;

	/* the entry being read (text) */
	enum { OUT, ARGS, STACK } st;
	size_t entry_tok, entry_text, nargs;
	int in_entry;
	uint64_t entry_off, entry_line;

	int matched; /* opts.event's map was met */
	char *buf;   /* a frame's name */
	size_t capbuf;
	perfan_frame_id *fr;
	size_t capfr;
};

/* "NAME: offset N (line L): bpftrace output: what". */
#define bad(r, code, off, line, ...)                                           \
	perfan__err_at((code), (r)->name, (off), (line),                       \
		       "bpftrace output: " __VA_ARGS__)

/* A warning through the reader's log. */
#define warn(r, ...)                                                           \
	perfan__logf((r)->o->log, (r)->o->log_payload, PERFAN_LOG_WARN,        \
		     __VA_ARGS__)

static int add_tok(struct rd *r, uint32_t type, const char *s, size_t n,
		   uint64_t val)
{
	if (n > UINT32_MAX)
		return bad(r, PERFAN_EFORMAT, r->off, r->lineno,
			   "a key of more than 4 GiB");
	if (perfan__grow((void **)&r->tok, &r->captok, r->ntok + 1,
			 sizeof(*r->tok)))
		return perfan__nomem(NULL);
	struct tok *t = &r->tok[r->ntok++];
	t->type = type;
	t->len = (uint32_t)n;
	t->val = val;
	if (type == T_FRAME || type == T_SCALAR) {
		if (perfan__grow((void **)&r->text, &r->captext,
				 r->ntext + n + 1, 1))
			return perfan__nomem(NULL);
		memcpy(r->text + r->ntext, s, n);
		t->val = r->ntext;
		r->ntext += n;
	}
	return 0;
}

/* A key starts: at most MAX_ARGS of them. */
static int add_arg(struct rd *r, uint32_t type, const char *s, size_t n)
{
	if (++r->nargs > MAX_ARGS)
		return bad(r, PERFAN_EFORMAT, r->entry_off, r->entry_line,
			   "an entry of %s with more than %d keys", r->map,
			   MAX_ARGS);
	return add_tok(r, type, s, n, 0);
}

/* ---- frames ------------------------------------------------------------ */

struct frame {
	const char *name; /* symbol without its offset; NULL: unresolved */
	size_t nlen;
	const char *mod; /* perf mode's "(module)", or NULL */
	size_t mlen;
	uint64_t addr;
	int have_addr, inlined;
};

/* All of S[0..N) is hex digits (1 to 16) of a value: *V. */
static int parse_hex(const char *s, size_t n, uint64_t *v)
{
	if (!n || n > 16)
		return 0;
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		int h = perfan__hexval((unsigned char)s[i]);
		if (h < 0)
			return 0;
		x = x << 4 | (uint64_t)h;
	}
	*v = x;
	return 1;
}

static void parse_frame(const char *s, size_t n, struct frame *f)
{
	memset(f, 0, sizeof(*f));
	int perf = n && s[0] == '\t';
	int indented = n && (s[0] == ' ' || s[0] == '\t');
	while (n && (s[0] == ' ' || s[0] == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == '\r' || s[n - 1] == ' '))
		n--;
	if (perf) {
		/* "\tADDR SYM" */
		const char *sp = memchr(s, ' ', n);
		if (sp && parse_hex(s, (size_t)(sp - s), &f->addr)) {
			f->have_addr = 1;
			n -= (size_t)(sp + 1 - s);
			s = sp + 1;
		}
		/* " (module)" at the end */
		if (n && s[n - 1] == ')') {
			for (size_t i = n - 1; i-- > 0;) {
				if (s[i] == '(' && i && s[i - 1] == ' ') {
					f->mod = s + i + 1;
					f->mlen = n - i - 2;
					n = i - 1;
					break;
				}
			}
		}
		if (f->mod && f->mlen == 7 && !memcmp(f->mod, "inlined", 7)) {
			f->inlined = 1;
			f->mod = NULL;
			f->mlen = 0;
		}
	} else if (!indented && parse_hex(s, n, &f->addr)) {
		f->have_addr = 1; /* raw mode: the address alone */
		return;
	}
	if (starts(s, n, "[inlined] ")) {
		f->inlined = 1;
		s += 10;
		n -= 10;
	}
	uint64_t a;
	if (n > 2 && s[0] == '0' && s[1] == 'x' &&
	    parse_hex(s + 2, n - 2, &a)) {
		if (!f->have_addr)
			f->addr = a;
		f->have_addr = 1;
		return;
	}
	if (!n || (n == 16 && !memcmp(s, "<unwind failure>", 16)))
		return;
	/* "sym+off" or "sym+off@file:line": the offset goes, so that a
	 * function is one frame */
	const char *at = memrchr(s, '@', n);
	size_t cut = n;
	for (size_t k = 0; k < 2; k++) {
		size_t e = k && at ? (size_t)(at - s) : n;
		size_t i = e;
		while (i && is_digit((unsigned char)s[i - 1]))
			i--;
		if (i < e && i && s[i - 1] == '+') {
			cut = i - 1;
			break;
		}
	}
	f->name = s;
	f->nlen = cut;
}

/* Kernel entry points and the threads' start in user space: which stack
 * is which when the addresses do not say. */
static const char *const kernel_names[] = {
	"entry_SYSCALL",
	"asm_",
	"ret_from_fork",
	"do_syscall_64",
	"__x64_sys_",
	"__arm64_sys_",
	"x64_sys_call",
	"secondary_startup",
	"common_startup",
	"start_kernel",
	"cpu_startup_entry",
	"do_idle",
	"el0t_",
	"el1h_",
	"el0_svc",
	"invoke_syscall",
	"handle_softirqs",
	"__do_softirq",
	"irq_exit",
	"sysvec_",
	"__sysvec_",
	"irqentry_",
	"exit_to_user_mode",
	"syscall_exit",
};
static const char *const user_names[] = {
	"_start",
	"__libc_start_main",
	"__libc_start_call_main",
	"start_thread",
	"clone3",
	"__clone",
	"__clone3",
	"thread_start",
	"main",
};

/* > 0: a kernel frame, < 0: a user one, 0: cannot tell. */
static int frame_vote(const struct frame *f)
{
	if (f->have_addr)
		return f->addr >> 63 ? 8 : f->addr ? -8 : 0;
	if (f->mod)
		return -8; /* perf mode names modules of user frames only */
	if (!f->name)
		return 0;
	for (size_t i = 0; i < sizeof(kernel_names) / sizeof(kernel_names[0]);
	     i++)
		if (starts(f->name, f->nlen, kernel_names[i]))
			return 1;
	for (size_t i = 0; i < sizeof(user_names) / sizeof(user_names[0]); i++)
		if (f->nlen == strlen(user_names[i]) &&
		    !memcmp(f->name, user_names[i], f->nlen))
			return -1;
	return 0;
}

static int buf_put(struct rd *r, size_t *at, const char *s, size_t n)
{
	if (perfan__grow((void **)&r->buf, &r->capbuf, *at + n + 1, 1))
		return perfan__nomem(NULL);
	memcpy(r->buf + *at, s, n);
	*at += n;
	return 0;
}

/* The profile's frame for the frame line S[0..N) of a kernel or user
 * stack, named as perf script's and perf.data's frames are. */
static int intern_frame(struct rd *r, const char *s, size_t n, int kernel,
			perfan_frame_id *out)
{
	static const char kmod[] = "[kernel.kallsyms]";
	struct frame f;
	parse_frame(s, n, &f);
	size_t len = 0;
	char hex[24];
	const char *mod = NULL;
	size_t mlen = 0;
	uint32_t kind;
	if (f.mod) { /* its short name */
		mod = f.mod;
		mlen = f.mlen;
		for (size_t i = 0; i < f.mlen; i++)
			if (f.mod[i] == '/') {
				mod = f.mod + i + 1;
				mlen = f.mlen - i - 1;
			}
		if (mlen == 9 && !memcmp(mod, "[unknown]", 9))
			mod = NULL;
	}
	if (kernel) {
		mod = kmod;
		mlen = sizeof(kmod) - 1;
	}
	if (!f.name) {
		/* "[module]", "[unknown]", with --addrs "[module <addr>]" */
		int e = buf_put(r, &len, "[", 1);
		if (!e && kernel)
			e = buf_put(r, &len, kmod + 1, mlen - 2);
		else if (!e)
			e = mod ? buf_put(r, &len, mod, mlen)
				: buf_put(r, &len, "unknown", 7);
		if (!e && r->o->script.addrs && f.have_addr) {
			snprintf(hex, sizeof(hex), " <%" PRIx64 ">", f.addr);
			e = buf_put(r, &len, hex, strlen(hex));
		}
		if (!e)
			e = buf_put(r, &len, "]", 1);
		if (e)
			return e;
		kind = kernel ? PERFAN_FRAME_KERNEL : PERFAN_FRAME_UNKNOWN;
	} else {
		size_t k = perfan__tidy_generic(f.name, f.nlen);
		if (!k)
			k = f.nlen;
		if (buf_put(r, &len, f.name, k))
			return perfan__nomem(NULL);
		for (size_t i = 0; i < len; i++)
			if (r->buf[i] == ';')
				r->buf[i] = ':';
		kind = f.inlined ? PERFAN_FRAME_INLINED
		       : kernel  ? PERFAN_FRAME_KERNEL
				 : PERFAN_FRAME_NATIVE;
		if (kernel && r->o->script.kernel &&
		    buf_put(r, &len, "_[k]", 4))
			return perfan__nomem(NULL);
	}
	return perfan__profile_frame_n(r->p, out, r->buf, len, mod, mlen, kind);
}

/* ---- adding a map ------------------------------------------------------ */

static int is_number(const char *s, size_t n, int64_t *v)
{
	if (!n || n > 10)
		return 0;
	int64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit((unsigned char)s[i]))
			return 0;
		x = x * 10 + (s[i] - '0');
	}
	if (x > INT32_MAX)
		return 0;
	*v = x;
	return 1;
}

static int push_frame(struct rd *r, size_t *nfr, perfan_frame_id id)
{
	if (perfan__grow((void **)&r->fr, &r->capfr, *nfr + 1, sizeof(*r->fr)))
		return perfan__nomem(NULL);
	r->fr[(*nfr)++] = id;
	return 0;
}

/* The stack of the entry at tok[E..END): its root, the user stack's
 * frames root first, then the kernel's. */
static int add_entry(struct rd *r, size_t e, size_t end, const int *kernel,
		     int col)
{
	const char *comm = NULL;
	size_t commlen = 0;
	int64_t ids[2];
	int nids = 0;
	size_t nfr = 0;
	size_t first_arg[MAX_ARGS], nargs = 0;
	int rc;
	for (size_t i = e + 1; i < end; i++) {
		const struct tok *t = &r->tok[i];
		if (t->type == T_FRAME)
			continue;
		first_arg[nargs++] = i;
		if (t->type != T_SCALAR || !t->len)
			continue;
		const char *s = r->text + t->val;
		int64_t v;
		if (is_number(s, t->len, &v)) {
			if (nids < 2)
				ids[nids++] = v;
		} else if (!comm) {
			comm = s;
			commlen = t->len;
		}
	}
	enum perfan_process_root root = (enum perfan_process_root)r->o->root;
	if (root != PERFAN_ROOT_NONE && (comm || nids)) {
		char c[64];
		snprintf(c, sizeof(c), "%.*s", (int)commlen, comm ? comm : "");
		int32_t pid = nids ? (int32_t)ids[0] : -1;
		int32_t tid = nids > 1 ? (int32_t)ids[1] : -1;
		if (!comm || !nids)
			root = PERFAN_ROOT_COMM;
		else if (root == PERFAN_ROOT_PID_TID && nids < 2)
			root = PERFAN_ROOT_PID;
		perfan_frame_id id;
		rc = perfan_profile_process_frame(r->p, &id, root,
						  comm ? c : NULL, pid,
						  comm ? tid : pid);
		if (!rc)
			rc = push_frame(r, &nfr, id);
		if (rc)
			return rc;
	}
	/* user frames, then kernel frames, each root first */
	for (int k = 0; k < 2; k++) {
		for (size_t a = 0; a < nargs; a++) {
			size_t i = first_arg[a];
			if (r->tok[i].type != T_STACK || kernel[a] != k)
				continue;
			size_t j = i + 1;
			while (j < end && r->tok[j].type == T_FRAME)
				j++;
			for (size_t f = j; f-- > i + 1;) {
				perfan_frame_id id;
				rc = intern_frame(r, r->text + r->tok[f].val,
						  r->tok[f].len, k, &id);
				if (!rc)
					rc = push_frame(r, &nfr, id);
				if (rc)
					return rc;
			}
		}
	}
	uint64_t w = r->tok[e].val;
	if (perfan_profile_total(r->p, (size_t)col) > UINT64_MAX - w)
		return perfan__err(PERFAN_EFORMAT,
				   "%s: bpftrace output: the counts of %s pass "
				   "2^64-1",
				   r->name, r->map);
	return perfan_profile_add(r->p, r->fr, nfr, (size_t)col, w, NULL, NULL);
}

/* Add the map read so far, then forget it. */
static int flush(struct rd *r)
{
	int rc = 0;
	if (!r->nentries)
		goto out;
	int col = perfan_profile_add_column(r->p, r->map, "samples");
	if (col < 0) {
		rc = col;
		goto out;
	}
	/* which keys are kernel stacks: the votes of all entries */
	long votes[MAX_ARGS] = {0};
	int stack[MAX_ARGS] = {0}, kernel[MAX_ARGS] = {0};
	size_t a = 0;
	for (size_t i = 0; i < r->ntok; i++) {
		const struct tok *t = &r->tok[i];
		if (t->type == T_ENTRY) {
			a = 0;
		} else if (t->type == T_STACK || t->type == T_SCALAR) {
			a++;
			if (t->type == T_STACK)
				stack[a - 1] = 1;
		} else if (a) {
			struct frame f;
			parse_frame(r->text + t->val, t->len, &f);
			int v = frame_vote(&f);
			if (votes[a - 1] > -(1L << 40) &&
			    votes[a - 1] < 1L << 40)
				votes[a - 1] += v;
		}
	}
	int nstacks = 0, first = -1;
	for (int k = 0; k < MAX_ARGS; k++)
		if (stack[k] && !nstacks++)
			first = k;
	for (int k = 0; k < MAX_ARGS; k++)
		kernel[k] = votes[k] > 0 ||
			    (!votes[k] && nstacks > 1 && k == first);
	for (size_t i = 0; i < r->ntok && !rc;) {
		size_t end = i + 1;
		while (end < r->ntok && r->tok[end].type != T_ENTRY)
			end++;
		rc = add_entry(r, i, end, kernel, col);
		i = end;
	}
out:
	r->ntok = r->ntext = r->nentries = 0;
	return rc;
}

/* The entry of MAP (LEN bytes) starts: a new map first adds the last. */
static int begin_entry(struct rd *r, const char *map, size_t len)
{
	if (len > MAX_NAME)
		return bad(r, PERFAN_EFORMAT, r->off, r->lineno,
			   "a map name of more than %d bytes", MAX_NAME);
	if (strlen(r->map) != len || memcmp(r->map, map, len)) {
		int rc = flush(r);
		if (rc)
			return rc;
		memcpy(r->map, map, len);
		r->map[len] = 0;
		r->warned_value = 0;
		r->skip = r->o->event && strcmp(r->o->event, r->map);
		r->matched |= !r->skip;
	}
	r->entry_tok = r->ntok;
	r->entry_text = r->ntext;
	r->entry_off = r->off;
	r->entry_line = r->lineno;
	r->nargs = 0;
	r->in_entry = 1;
	return add_tok(r, T_ENTRY, NULL, 0, 0);
}

/* The entry's value S[0..N): a count adds the entry, anything else (a
 * histogram's buckets follow, stats, a negative sum) leaves it out. */
static int end_entry(struct rd *r, const char *s, size_t n)
{
	r->in_entry = 0;
	while (n && (s[0] == ' '))
		s++, n--;
	while (n && (s[n - 1] == '\r' || s[n - 1] == ' '))
		n--;
	uint64_t v = 0;
	int ok = n > 0 && n <= 20;
	for (size_t i = 0; ok && i < n; i++) {
		unsigned d = (unsigned char)s[i] - '0';
		if (d > 9 || v > (UINT64_MAX - d) / 10)
			ok = 0;
		else
			v = v * 10 + d;
	}
	if (!ok || r->skip) {
		if (!ok && !r->skip && !r->warned_value) {
			r->warned_value = 1;
			warn(r,
			     "%s: offset %" PRIu64 " (line %" PRIu64
			     "): bpftrace map %s holds values that are not "
			     "counts (\"%.*s\"): its entries are left out",
			     r->name, r->entry_off, r->entry_line, r->map,
			     (int)(n < 40 ? n : 40), s);
		}
		r->ntok = r->entry_tok;
		r->ntext = r->entry_text;
		return 0;
	}
	r->tok[r->entry_tok].val = v;
	r->nentries++;
	return 0;
}

/* ---- text -------------------------------------------------------------- */

/* The keys on the line S[0..N) from POS on, in an entry's key list. */
static int scan_args(struct rd *r, const char *s, size_t n, size_t pos)
{
	for (;;) {
		if (pos == n) { /* "\n" starts a stack */
			r->st = STACK;
			return add_arg(r, T_STACK, NULL, 0);
		}
		/* a scalar key, up to ", " or "]:" */
		size_t q = pos;
		while (q < n &&
		       !(s[q] == ',' && q + 1 < n && s[q + 1] == ' ') &&
		       !(s[q] == ']' && q + 1 < n && s[q + 1] == ':'))
			q++;
		if (q == n)
			return bad(r, PERFAN_EFORMAT, r->off + pos, r->lineno,
				   "no ', ' nor ']:' after a key of %s",
				   r->map);
		int rc = add_arg(r, T_SCALAR, s + pos, q - pos);
		if (rc)
			return rc;
		if (s[q] == ']') {
			r->st = OUT;
			return end_entry(r, s + q + 2, n - q - 2);
		}
		pos = q + 2;
	}
}

static int text_line(struct rd *r, const char *s, size_t n)
{
	switch (r->st) {
	case OUT: {
		size_t k = entry_start(s, n);
		if (!k)
			return 0; /* "Attaching", printf output, buckets */
		int rc = begin_entry(r, s, k);
		if (rc)
			return rc;
		r->st = ARGS;
		return scan_args(r, s, n, k + 1);
	}
	case STACK:
		if (n >= 2 && s[0] == ',' && s[1] == ' ')
			return scan_args(r, s, n, 2);
		if (n >= 2 && s[0] == ']' && s[1] == ':') {
			r->st = OUT;
			return end_entry(r, s + 2, n - 2);
		}
		if (!n || s[0] == ',' || s[0] == ']')
			return bad(r, PERFAN_EFORMAT, r->off, r->lineno,
				   "%s in a stack of %s",
				   n ? "no ', ' nor ']:' after a stack"
				     : "an empty line",
				   r->map);
		return add_tok(r, T_FRAME, s, n, 0);
	case ARGS: break;
	}
	return bad(r, PERFAN_EFORMAT, r->off, r->lineno, "a line in no key");
}

/* ---- -f json ----------------------------------------------------------- */

/* The keys of one entry, decoded: joined by ",", a stack "\n"-led. */
static int json_keys(struct rd *r, const char *k, size_t n)
{
	size_t i = 0;
	int rc;
	for (;;) {
		if (i < n && k[i] == '\n') {
			if ((rc = add_arg(r, T_STACK, NULL, 0)))
				return rc;
			i++;
			while (i < n && k[i] != ',') {
				const char *nl = memchr(k + i, '\n', n - i);
				if (!nl || nl == k + i)
					return bad(r, PERFAN_EFORMAT,
						   r->entry_off, r->lineno,
						   "JSON: a stack key of %s "
						   "not ended by a newline",
						   r->map);
				if ((rc = add_tok(r, T_FRAME, k + i,
						  (size_t)(nl - k - i), 0)))
					return rc;
				i = (size_t)(nl - k) + 1;
			}
		} else {
			size_t q = i;
			while (q < n && k[q] != ',')
				q++;
			if ((rc = add_arg(r, T_SCALAR, k + i, q - i)))
				return rc;
			i = q;
		}
		if (i == n)
			return 0;
		i++; /* ',' */
	}
}

/* The place of the next key of the open object: past the white space and
 * the ',' before it (an entry starts at its key's quote). */
static size_t key_at(const struct perfan__jread *j)
{
	size_t at = j->pos;
	while (at < j->len && (j->p[at] == ' ' || j->p[at] == '\t' ||
			       j->p[at] == '\r' || j->p[at] == ','))
		at++;
	return at;
}

/* One map of a "map" message, MAP[0..MLEN) its name, the reader before
 * its object: each member an entry, its key the entry's keys, its value
 * the count. */
static int json_map(struct rd *r, struct perfan__jread *j, const char *map,
		    size_t mlen)
{
	const char *key;
	size_t klen, v;
	int rc = perfan__jread_object(j, "a map's entries");
	while (!rc) {
		size_t at = key_at(j);
		int more = perfan__jread_member(j, &key, &klen);
		if (more <= 0)
			return more;
		if ((rc = begin_entry(r, map, mlen)))
			break;
		r->entry_off = r->off + at;
		if ((rc = json_keys(r, key, klen)))
			break;
		if ((rc = perfan__jread_peek(j, &v)) < 0 ||
		    (rc = perfan__jread_skip(j)))
			break;
		rc = end_entry(r, j->p + v, j->pos - v);
	}
	return rc;
}

/* A JSON message (bpftrace -f json), one a line, read by util/json_read:
 * of a "map" message, the maps whose value is an object of entries (a map
 * without keys is one value, no stacks); the other types (printf, time,
 * hist, stats, ...) are left out. */
static int json_line(struct rd *r, const char *s, size_t n)
{
	if (!json_message(s, n))
		return 0;
	if (!starts(s + 10, n - 10, "map\""))
		return 0; /* printf, time, hist, stats, ... */
	struct perfan__jread j;
	perfan__jread_init(&j, s, n, r->name, 0);
	j.base_off = r->off;
	j.base_line = r->lineno;
	j.prefix = "bpftrace output: JSON: ";
	const char *key;
	size_t klen, off;
	int data = 0, more = 0;
	int rc = perfan__jread_object(&j, "a message");
	while (!rc && (more = perfan__jread_member(&j, &key, &klen)) > 0) {
		if (strcmp(key, "data") || data) {
			rc = perfan__jread_skip(&j);
			continue;
		}
		data = 1;
		rc = perfan__jread_object(&j, "\"data\": { after the type");
		while (!rc &&
		       (more = perfan__jread_member(&j, &key, &klen)) > 0) {
			int kind = perfan__jread_peek(&j, &off);
			if (kind < 0) {
				rc = kind;
			} else if (klen < 1 || key[0] != '@' ||
				   kind != PERFAN__JREAD_OBJECT) {
				rc = perfan__jread_skip(&j);
			} else if (klen > MAX_NAME) {
				rc = perfan__jread_err(&j, PERFAN_EFORMAT, off,
						       "a map name too long");
			} else {
				char map[MAX_NAME + 1];
				memcpy(map, key, klen);
				rc = json_map(r, &j, map, klen);
			}
		}
		if (!rc && more < 0)
			rc = more;
	}
	if (!rc && more < 0)
		rc = more;
	if (!rc && !data)
		rc = perfan__jread_err(&j, PERFAN_EFORMAT, 0,
				       "no \"data\": { after the type");
	if (!rc)
		rc = perfan__jread_end(&j);
	perfan__jread_fini(&j);
	return rc;
}

/* ---- reading ----------------------------------------------------------- */

/* The next line into r->line (1; *NL: it ended in '\n'), 0 at the end,
 * or an error. Read by hand rather than in util/lines.c's 1 MiB blocks:
 * bpftrace's outputs are small, and the fuzz target reads many. */
static int next_line(struct rd *r, int *nl)
{
	r->nline = 0;
	*nl = 0;
	for (;;) {
		int c = getc_unlocked(r->fp);
		if (c == EOF) {
			if (ferror(r->fp))
				return perfan__err(PERFAN_EIO,
						   "%s: read error: %s",
						   r->name, strerror(errno));
			return r->nline > 0;
		}
		if (c == '\n') {
			*nl = 1;
			return 1;
		}
		if (r->nline >= MAX_LINE)
			return bad(r, PERFAN_EFORMAT, r->off, r->lineno + 1,
				   "a line longer than %d bytes", MAX_LINE);
		if (!c) /* no text has one; C strings would stop at it */
			return bad(r, PERFAN_EFORMAT, r->off + r->nline,
				   r->lineno + 1,
				   "a NUL byte: not a text line");
		if (r->nline + 1 >= r->capline &&
		    perfan__grow((void **)&r->line, &r->capline, r->nline + 2,
				 1))
			return perfan__nomem(NULL);
		r->line[r->nline++] = (char)c;
	}
}

int perfan__bpftrace_read(perfan_profile *p, FILE *fp, const char *name,
			  const struct perfan_source_opts *o)
{
	struct perfan_source_opts none =
		PERFAN_OPTS_INIT(struct perfan_source_opts);
	struct rd r = {.p = p, .name = name ? name : "input", .o = o};
	if (!r.o) {
		none.root = PERFAN_ROOT_COMM;
		r.o = &none;
	}
	r.fp = fp;
	int rc, nl;
	uint64_t next = 0;
	for (;;) {
		r.off = next;
		if ((rc = next_line(&r, &nl)) <= 0)
			break;
		const char *s = r.line;
		size_t n = r.nline;
		r.lineno++;
		next += n + 1;
		if (!nl) {
			rc = bad(&r, PERFAN_ETRUNCATED, r.off, r.lineno,
				 "the last line has no newline: the output "
				 "was cut short");
			break;
		}
		if (r.st == OUT && n && s[0] == '{')
			rc = json_line(&r, s, n);
		else
			rc = text_line(&r, s, n);
		if (rc)
			break;
	}
	if (!rc && r.st != OUT)
		rc = bad(&r, PERFAN_ETRUNCATED, r.entry_off, r.entry_line,
			 "the entry of %s that starts here is cut short",
			 r.map);
	/* the complete entries before an error are kept */
	if (r.in_entry) {
		r.ntok = r.entry_tok;
		r.ntext = r.entry_text;
	}
	int frc = flush(&r);
	if (!rc)
		rc = frc;
	if (!rc && o && o->event && !r.matched)
		warn(&r, "%s: no bpftrace map named %s", r.name, o->event);
	free(r.line);
	free(r.text);
	free(r.tok);
	free(r.buf);
	free(r.fr);
	return rc < 0 ? rc : 0;
}

/* ---- the registry's entry ---------------------------------------------- */

static int load(perfan_source *s, perfan_profile *p,
		struct perfan_source_stats *st)
{
	(void)st;
	FILE *fp = perfan__input_text(s);
	if (!fp)
		return PERFAN_EIO; /* named by perfan__input_text */
	return perfan__bpftrace_read(p, fp, s->name, &s->o);
}

const struct perfan__format perfan__format_bpftrace = {
	.name = "bpftrace",
	.caps = PERFAN_SOURCE_COUNTED | PERFAN_SOURCE_EVENTS |
		PERFAN_SOURCE_FRAMES,
	.detect = perfan__bpftrace_detect,
	.load = load,
};
