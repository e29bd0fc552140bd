/* sources/script_text.c: `perf script` text into a profile, stack for stack what
 * FlameGraph's stackcollapse-perf.pl makes of it. That script is a few Perl
 * regular expressions; each is matched here by a scan that picks the same
 * match Perl's backtracking would (the comments give the pattern), so the
 * odd inputs come out the same too. Names are its bytes under
 * PERFAN_SCRIPT_COMPAT_FLAMEGRAPH, and by default read by inferno's rules
 * (argument lists, JIT and kernel modules) and demangled as in perf.data. */
#define _GNU_SOURCE /* memrchr */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/script.h>

#include "profile/model.h"
#include "sources/internal.h"
#include "util/demangle.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/lines.h"
#include "util/log.h"

/* Perl's classes on bytes (no locale, no Unicode rules). */
static inline int pl_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline int pl_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline int pl_word(unsigned char c)
{
	return pl_digit(c) || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '_';
}

static inline int is_hex_lower(unsigned char c)
{
	return pl_digit(c) || (c >= 'a' && c <= 'f');
}

/* The first NN bytes of N in the HN bytes at H, or NULL: short needles in
 * short names, where memchr for the first byte beats a general search. */
static const char *find(const char *h, size_t hn, const char *n, size_t nn)
{
	if (!nn)
		return h;
	const char *end = h + hn;
	while ((size_t)(end - h) >= nn) {
		const char *c = memchr(h, n[0], (size_t)(end - h) - nn + 1);
		if (!c)
			return NULL;
		if (!memcmp(c + 1, n + 1, nn - 1))
			return c;
		h = c + 1;
	}
	return NULL;
}

static const char *find_s(const char *h, size_t hn, const char *n)
{
	return find(h, hn, n, strlen(n));
}

struct span {
	const char *s;
	size_t n;
};

/* ---- the patterns -------------------------------------------------------- */

/* Perl: ^(\S.+?)\s+(\d+)[/]*(\d+)*\s+ -- the command (at least two bytes, the
 * shortest that works), the pid or tid, and the tid after a '/'. */
struct header {
	size_t comm_len;
	struct span d1, d2; /* d2.s NULL when absent */
	size_t end;         /* just past the match */
};

static int match_header(const char *s, size_t n, struct header *h)
{
	if (n < 2 || pl_space((unsigned char)s[0]))
		return 0;
	size_t i = 1;
	while (i < n) {
		if (!pl_space((unsigned char)s[i])) {
			i++;
			continue;
		}
		size_t rs = i, re = i;
		while (re < n && pl_space((unsigned char)s[re]))
			re++;
		/* every end of the command inside one run of white space
		 * leads to the same digits: only the first needs trying */
		size_t L = rs < 2 ? 2 : rs;
		if (L < re) {
			size_t q = re;
			while (q < n && pl_digit((unsigned char)s[q]))
				q++;
			if (q > re) {
				size_t d1e = q, d2 = 0, d2e = 0;
				if (q < n && s[q] == '/') {
					while (q < n && s[q] == '/')
						q++;
					d2 = q;
					while (q < n &&
					       pl_digit((unsigned char)s[q]))
						q++;
					d2e = q;
				}
				if (q < n && pl_space((unsigned char)s[q])) {
					h->comm_len = L;
					h->d1 = (struct span){s + re, d1e - re};
					h->d2 = d2e > d2
							? (struct span){s + d2,
									d2e - d2}
							: (struct span){NULL,
									0};
					h->end = q + 1;
					return 1;
				}
			}
		}
		i = re;
	}
	return 0;
}

/* Perl: :\s*(\d+)*\s+(\S+):\s*$ -- the line ends in "EVENT:" and, between the
 * last ':' before it and it, there is only white space and perhaps a
 * number (the period). */
static int match_event(const char *s, size_t n, struct span *period,
		       struct span *event)
{
	size_t e = n;
	while (e && pl_space((unsigned char)s[e - 1]))
		e--;
	if (e < 2 || s[e - 1] != ':')
		return 0;
	size_t zs = e;
	while (zs && !pl_space((unsigned char)s[zs - 1]))
		zs--;
	if (e - zs < 2)
		return 0;
	size_t p = zs; /* just past the last ':' before the event */
	while (p && s[p - 1] != ':')
		p--;
	if (!p)
		return 0;
	size_t q = p;
	while (q < zs && pl_space((unsigned char)s[q]))
		q++;
	size_t ds = q;
	while (q < zs && pl_digit((unsigned char)s[q]))
		q++;
	size_t de = q;
	while (q < zs && pl_space((unsigned char)s[q]))
		q++;
	if (q != zs)
		return 0;
	if (ds == de) {
		if (zs == p) /* \s+ needs one */
			return 0;
		*period = (struct span){NULL, 0};
	} else {
		if (zs == de)
			return 0;
		*period = (struct span){s + ds, de - ds};
	}
	*event = (struct span){s + zs, e - 1 - zs};
	return 1;
}

/* Perl: ^\s*(\w+)\s*(.+) \((.*)\) -- address, symbol, module. Perl's greedy
 * choices: the module runs to the last ')', the symbol to the last " ("
 * before it; when the symbol would be empty the address gives way. */
struct frameline {
	struct span pc, func, mod;
};

static int match_frame(const char *s, size_t n, struct frameline *f)
{
	size_t a = 0;
	while (a < n && pl_space((unsigned char)s[a]))
		a++;
	size_t we = a;
	while (we < n && pl_word((unsigned char)s[we]))
		we++;
	if (we == a)
		return 0;
	const char *rp = memrchr(s, ')', n); /* the last ')' */
	if (!rp || rp - s < 2)
		return 0;
	size_t last = (size_t)(rp - s);
	/* the last " (" that leaves room for the ')' */
	size_t lim = last, g;
	for (;;) {
		const char *lp = memrchr(s, '(', lim);
		if (!lp || lp == s)
			return 0;
		g = (size_t)(lp - s) - 1;
		if (s[g] == ' ')
			break;
		lim = g + 1;
	}
	if (g < 1)
		return 0;
	size_t ws2 = we;
	while (ws2 < n && pl_space((unsigned char)s[ws2]))
		ws2++;
	size_t e, fs;
	if (g - 1 >= we) {
		e = we;
		fs = ws2 < g - 1 ? ws2 : g - 1;
	} else if (g >= a + 2) {
		e = fs = g - 1;
	} else {
		return 0;
	}
	f->pc = (struct span){s + a, e - a};
	f->func = (struct span){s + fs, g - fs};
	f->mod = (struct span){s + g + 2, last - (g + 2)};
	return 1;
}

/* ---- the reader ------------------------------------------------------------ */

#define MAX_WARN 10

/* A frame line's frames by its text after the address. */
#define LCACHE 4096
#define LC_FRAMES 4
struct lc_entry {
	uint64_t hash;
	char *key; /* symbol (offset cut), then the module */
	size_t flen, mlen;
	int java;
	uint32_t nfr;
	perfan_frame_id fr[LC_FRAMES];
};

struct sc {
	perfan_profile *p;
	struct perfan_script_opts o;
	struct perfan_script_stats st;
	const char *name;
	uint64_t lineno;

	char *filter; /* the event kept, once known */
	int defaulted, warned;

	/* the sample being read */
	int have_pname, java;
	char *pname;
	size_t pname_len, pname_cap;
	/* the thread pname names, as data (known: pname is the name
	 * perfan_profile_process_frame gives it) */
	int pname_known;
	char *pcomm;
	size_t pcomm_cap;
	int32_t ppid, ptid;
	enum perfan_process_root proot;
	uint64_t period;
	int period_shown;
	struct perfan_sample_meta meta;
	/* its frames, in groups of one line each, leaf line first */
	perfan_frame_id *fr;
	size_t nfr, fr_cap;
	size_t *grp;
	size_t ngrp, grp_cap;

	/* a one-line sample (no call chain) waiting to see whether frame
	 * lines follow after all */
	int pending;
	char *pend_event;
	uint64_t pend_period;
	int pend_period_shown;
	size_t pend_nfr, pend_ngrp;

	char *buf; /* a frame name being built */
	size_t buf_len, buf_cap;
	perfan_frame_id *stack;
	size_t stack_cap;
	int col;

	/* the frames of frame lines seen before (the same symbol and module
	 * come back in every sample) */
	struct lc_entry *lcache;
	/* the root frame of the last stack, and its text */
	perfan_frame_id last_root;
	const char *last_pname;
	size_t last_pname_len;
	int32_t last_ppid, last_ptid;
};

/* A warning through the reader's log. */
#define warn(c, ...)                                                           \
	perfan__logf((c)->o.log, (c)->o.log_payload, PERFAN_LOG_WARN,          \
		     __VA_ARGS__)

static int buf_put(struct sc *c, const char *s, size_t n)
{
	if (perfan__grow((void **)&c->buf, &c->buf_cap, c->buf_len + n + 1, 1))
		return -1;
	memcpy(c->buf + c->buf_len, s, n);
	c->buf_len += n;
	return 0;
}

static uint64_t parse_u64(struct span d)
{
	uint64_t v = 0;
	for (size_t i = 0; i < d.n; i++) {
		unsigned x = (unsigned)(d.s[i] - '0');
		if (v > (UINT64_MAX - x) / 10)
			return UINT64_MAX;
		v = v * 10 + x;
	}
	return v;
}

static int32_t parse_i32(struct span d)
{
	uint64_t v = parse_u64(d);
	return v > INT32_MAX ? INT32_MAX : (int32_t)v;
}

/* Is the event EV kept? Sets the filter from the first event met. */
static int event_kept(struct sc *c, struct span ev)
{
	if (!c->filter) {
		c->filter = strndup(ev.s, ev.n);
		if (!c->filter)
			return -1;
		c->defaulted = 1;
		return 1;
	}
	if (strlen(c->filter) == ev.n && !memcmp(c->filter, ev.s, ev.n))
		return 1;
	if (c->defaulted && !c->warned) {
		warn(c,
		     "%s: keeping only the samples of the first event, %s; there are samples of %.*s too",
		     c->name, c->filter, (int)ev.n, ev.s);
		c->warned = 1;
	}
	return 0;
}

static int start_group(struct sc *c)
{
	if (perfan__grow((void **)&c->grp, &c->grp_cap, c->ngrp + 1,
			 sizeof(*c->grp)))
		return -1;
	c->grp[c->ngrp++] = c->nfr;
	return 0;
}

/* ---- names and modules --------------------------------------------------- */

static int ends_with(const char *s, size_t n, const char *sfx)
{
	size_t k = strlen(sfx);
	return n >= k && !memcmp(s + n - k, sfx, k);
}

/* A kernel module or image. stackcollapse-perf.pl: "[...]" or "...vmlinux"
 * and not "unknown" anywhere. perfan (inferno's is_kernel): "[...]", a
 * module file "*.ko", or a file "vmlinux" with perhaps a version after it
 * ("/usr/lib/debug/boot/vmlinux-6.1.0-18-amd64"), but not "[unknown]". */
static int kernel_module(const struct sc *c, const char *mod, size_t mlen)
{
	if (!mlen)
		return 0;
	if (c->o.compat == PERFAN_SCRIPT_COMPAT_FLAMEGRAPH)
		return (mod[0] == '[' || ends_with(mod, mlen, "vmlinux")) &&
		       !find_s(mod, mlen, "unknown");
	if (mlen == 9 && !memcmp(mod, "[unknown]", 9))
		return 0;
	if (mod[0] == '[' || ends_with(mod, mlen, ".ko"))
		return 1;
	const char *v = NULL;
	for (const char *t = mod, *end = mod + mlen;;) {
		const char *m = find(t, (size_t)(end - t), "vmlinux", 7);
		if (!m)
			break;
		v = m;
		t = m + 1;
	}
	if (!v)
		return 0;
	for (const char *q = v + 7; q < mod + mlen; q++)
		if (!pl_word((unsigned char)*q) && *q != '-' && *q != '.')
			return 0;
	return 1;
}

/* JIT code: a perf map "/tmp/perf-PID.map" (both), and for perfan also the
 * "jitted-PID-N.so" files that `perf inject --jit` writes. */
static int jit_module(const struct sc *c, const char *mod, size_t mlen)
{
	for (const char *t = mod;;) {
		const char *m =
			find(t, mlen - (size_t)(t - mod), "/tmp/perf-", 10);
		if (!m)
			break;
		const char *q = m + 10, *end = mod + mlen;
		const char *d = q;
		while (q < end && pl_digit((unsigned char)*q))
			q++;
		if (q > d && end - q >= 4 && !memcmp(q, ".map", 4))
			return 1;
		t = m + 1;
	}
	return c->o.compat != PERFAN_SCRIPT_COMPAT_FLAMEGRAPH &&
	       find(mod, mlen, "/jitted-", 8) && ends_with(mod, mlen, ".so");
}

static const char anon_ns[] = "(anonymous namespace)";
#define ANON_NS_LEN (sizeof(anon_ns) - 1)

static int at_anon_ns(const char *b, size_t n, size_t i)
{
	return n - i >= ANON_NS_LEN && !memcmp(b + i, anon_ns, ANON_NS_LEN);
}

/* stackcollapse-perf.pl: unless the name looks like a Go method
 * ("net/http.(*Client).Do": ".(" and later ")."), cut at the first '(' that
 * does not open "(anonymous namespace)"; then quotes go. The new length. */
static size_t tidy_flamegraph(char *b, size_t n)
{
	int go = 0;
	const char *dp = find(b, n, ".(", 2);
	if (dp) {
		size_t from = (size_t)(dp - b) + 2;
		go = from < n && find(b + from, n - from, ").", 2);
	}
	if (!go) {
		for (size_t i = 0; i < n; i++) {
			if (b[i] == '(' && !at_anon_ns(b, n, i)) {
				n = i;
				break;
			}
		}
	}
	size_t w = 0;
	for (size_t i = 0; i < n; i++)
		if (b[i] != '"' && b[i] != '\'')
			b[w++] = b[i];
	return w;
}

/* inferno's tidy_generic: cut at the first '(' outside any <>, {}, [] or
 * (), so that templates and lambdas ("{lambda(int, int)#1}") stay whole,
 * but not at "(anonymous namespace)" nor at a Go method's ".(". Shared
 * with the other readers of demangled names (sources/bpftrace.c). */
size_t perfan__tidy_generic(const char *b, size_t n)
{
	long depth = 0;
	for (size_t i = 0; i < n; i++) {
		switch (b[i]) {
		case '<':
		case '{':
		case '[': depth++; break;
		case '>':
		case '}':
		case ']':
		case ')': depth--; break;
		case '(':
			if (!depth && !(i && b[i - 1] == '.') &&
			    !at_anon_ns(b, n, i))
				return i;
			depth++;
			break;
		}
	}
	return n;
}

/* A name that perf script printed mangled (--no-demangle) or that a C++
 * demangler left half done (Rust's "$LT$" and "::h<hash>"): demangled as
 * the same symbol in perf.data is. A malloc'd string or NULL. */
static char *finish_name(const char *s, size_t n)
{
	if (n > 2 && s[0] == '_' && (s[1] == 'Z' || s[1] == 'R')) {
		char *z = strndup(s, n);
		if (!z)
			return NULL;
		char *d = perfan__demangle(z);
		free(z);
		return d;
	}
	return perfan__demangle_rust_partial(s, n);
}

/* The frames of one frame line, FUNC being its symbol, as
 * stackcollapse-perf.pl or inferno name them. */
static int make_frames(struct sc *c, const struct frameline *fl,
		       const char *func, size_t flen)
{
	const char *mod = fl->mod.s;
	size_t mlen = fl->mod.n;
	int flamegraph = c->o.compat == PERFAN_SCRIPT_COMPAT_FLAMEGRAPH;
	int kernel_mod = kernel_module(c, mod, mlen);
	int jit_mod = jit_module(c, mod, mlen);
	int inlined_mod = mlen == 7 && !memcmp(mod, "inlined", 7);
	/* the short module name for the frame */
	const char *mbase = mod;
	for (size_t i = 0; i < mlen; i++)
		if (mod[i] == '/')
			mbase = mod + i + 1;
	size_t mblen = mlen - (size_t)(mbase - mod);
	int has_module = mblen && !inlined_mod;

	if (start_group(c))
		return perfan__nomem(c->name);
	/* "a->b": b was inlined into a; split on "->" the way Perl's
	 * split does, dropping empty fields at the end */
	size_t nparts = 0;
	size_t last_nonempty_end = 0;
	{
		size_t pos = 0;
		for (;;) {
			const char *ar =
				flen - pos >= 2
					? find(func + pos, flen - pos, "->", 2)
					: NULL;
			size_t e = ar ? (size_t)(ar - func) : flen;
			nparts++;
			if (e > pos)
				last_nonempty_end = nparts;
			if (!ar)
				break;
			pos = e + 2;
		}
	}
	size_t pos = 0;
	for (size_t part = 0; part < last_nonempty_end; part++) {
		const char *ar = flen - pos >= 2
					 ? find(func + pos, flen - pos, "->", 2)
					 : NULL;
		size_t e = ar ? (size_t)(ar - func) : flen;
		const char *fs = func + pos;
		size_t fn = e - pos;
		pos = e + 2;

		int unknown = 0;
		c->buf_len = 0;
		if (fn == 9 && !memcmp(fs, "[unknown]", 9)) {
			const char *u;
			size_t un;
			if (!(mlen == 9 && !memcmp(mod, "[unknown]", 9))) {
				u = mbase; /* after the last '/' */
				un = mblen;
			} else {
				u = "unknown";
				un = 7;
			}
			unknown = 1;
			if (buf_put(c, "[", 1) || buf_put(c, u, un))
				return perfan__nomem(c->name);
			if (c->o.addrs && (buf_put(c, " <", 2) ||
					   buf_put(c, fl->pc.s, fl->pc.n) ||
					   buf_put(c, ">", 1)))
				return perfan__nomem(c->name);
			if (buf_put(c, "]", 1))
				return perfan__nomem(c->name);
		} else if (buf_put(c, fs, fn)) {
			return perfan__nomem(c->name);
		}
		char *b = c->buf;
		size_t n = c->buf_len;
		/* ';' would split the frame: ':' instead */
		for (size_t i = 0; i < n; i++)
			if (b[i] == ';')
				b[i] = ':';
		n = flamegraph ? tidy_flamegraph(b, n)
			       : perfan__tidy_generic(b, n);
		/* Java ("Lorg/foo/Bar;::baz"): a leading 'L' goes where the
		 * name has a '/' and the command starts with "java" */
		if (c->java && n && b[0] == 'L' && memchr(b, '/', n)) {
			memmove(b, b + 1, n - 1);
			n--;
		}
		uint32_t kind;
		const char *sfx = NULL;
		if (part > 0) {
			kind = PERFAN_FRAME_INLINED;
			if (!find_s(b, n, "_[i]"))
				sfx = "_[i]";
		} else if (c->o.kernel && kernel_mod) {
			kind = PERFAN_FRAME_KERNEL;
			sfx = "_[k]";
		} else if (c->o.jit && jit_mod) {
			kind = PERFAN_FRAME_JIT;
			if (!find_s(b, n, "_[j]"))
				sfx = "_[j]";
		} else if (inlined_mod) {
			kind = PERFAN_FRAME_INLINED;
		} else if (kernel_mod) {
			kind = PERFAN_FRAME_KERNEL;
		} else if (jit_mod) {
			kind = PERFAN_FRAME_JIT;
		} else if (unknown) {
			kind = PERFAN_FRAME_UNKNOWN;
		} else {
			kind = PERFAN_FRAME_NATIVE;
		}
		c->buf_len = n;
		if (sfx && buf_put(c, sfx, 4))
			return perfan__nomem(c->name);
		if (perfan__grow((void **)&c->fr, &c->fr_cap, c->nfr + 1,
				 sizeof(*c->fr)))
			return perfan__nomem(c->name);
		int rc = perfan__profile_frame_n(c->p, &c->fr[c->nfr], c->buf,
						 c->buf_len,
						 has_module ? mbase : NULL,
						 mblen, kind);
		if (rc)
			return rc;
		c->nfr++;
	}
	return 0;
}

/* The frames of one frame line. */
static int add_frames(struct sc *c, const struct frameline *fl)
{
	const char *func = fl->func.s, *mod = fl->mod.s;
	size_t flen = fl->func.n, mlen = fl->mod.n;
	int flamegraph = c->o.compat == PERFAN_SCRIPT_COMPAT_FLAMEGRAPH;

	/* a "+0x1f" offset at the end goes (lower-case hex only) */
	size_t k = flen;
	while (k && is_hex_lower((unsigned char)func[k - 1]))
		k--;
	if (k < flen && k >= 3 && func[k - 1] == 'x' && func[k - 2] == '0' &&
	    func[k - 3] == '+')
		flen = k - 3;
	/* a process name; for perfan not a C++ name in an anonymous
	 * namespace */
	if (flen && func[0] == '(' &&
	    (flamegraph || !at_anon_ns(func, flen, 0)))
		return 0;

	/* the same text gives the same frames, but for an unknown symbol
	 * named by its address */
	struct lc_entry *lc = NULL;
	if (!(c->o.addrs && find(func, flen, "[unknown]", 9))) {
		uint64_t h = perfan__hash_mem(func, flen) ^
			     perfan__hash_u64(perfan__hash_mem(mod, mlen)) ^
			     (uint64_t)c->java;
		lc = &c->lcache[(h >> 16) & (LCACHE - 1)];
		if (lc->hash == h && lc->key && lc->flen == flen &&
		    lc->mlen == mlen && lc->java == c->java &&
		    !memcmp(lc->key, func, flen) &&
		    !memcmp(lc->key + flen, mod, mlen)) {
			if (start_group(c) ||
			    perfan__grow((void **)&c->fr, &c->fr_cap,
					 c->nfr + lc->nfr, sizeof(*c->fr)))
				return perfan__nomem(c->name);
			if (lc->nfr)
				memcpy(c->fr + c->nfr, lc->fr,
				       lc->nfr * sizeof(*lc->fr));
			c->nfr += lc->nfr;
			return 0;
		}
		free(lc->key);
		lc->key = NULL;
		lc->hash = h;
	}
	size_t first_fr = c->nfr;
	char *named = flamegraph ? NULL : finish_name(func, flen);
	int rc = named ? make_frames(c, fl, named, strlen(named))
		       : make_frames(c, fl, func, flen);
	free(named);
	if (rc)
		return rc;
	size_t made = c->nfr - first_fr;
	if (lc && made <= LC_FRAMES && (lc->key = malloc(flen + mlen + 1))) {
		memcpy(lc->key, func, flen);
		memcpy(lc->key + flen, mod, mlen);
		lc->flen = flen;
		lc->mlen = mlen;
		lc->java = c->java;
		lc->nfr = (uint32_t)made;
		if (made)
			memcpy(lc->fr, c->fr + first_fr,
			       made * sizeof(*lc->fr));
	}
	return 0;
}

static void clear_sample(struct sc *c)
{
	c->have_pname = 0;
	c->nfr = 0;
	c->ngrp = 0;
	c->pending = 0;
}

/* The end of a sample: its stack, root first, into the profile. */
/* Is the root of the last stack the one of this sample? The same text
 * and, where the thread is known, the same thread (a comm root's thread
 * attribute learns of every thread under it). */
static int same_root(const struct sc *c)
{
	if (!c->last_pname || c->last_pname_len != c->pname_len ||
	    memcmp(c->last_pname, c->pname, c->pname_len))
		return 0;
	const struct perfan_frame *f =
		perfan_profile_frame_get(c->p, c->last_root);
	if (!c->pname_known)
		return !f->comm;
	return f->comm && c->last_ppid == c->ppid && c->last_ptid == c->ptid &&
	       !strcmp(f->comm, c->pcomm);
}

static int flush(struct sc *c, uint64_t period, int period_shown)
{
	size_t n = 0;
	if (perfan__grow((void **)&c->stack, &c->stack_cap, c->nfr + 1,
			 sizeof(*c->stack)))
		return perfan__nomem(c->name);
	if (!c->o.no_process) {
		if (!same_root(c)) {
			int rc = c->pname_known
					 ? perfan_profile_process_frame(
						   c->p, &c->last_root,
						   c->proot, c->pcomm, c->ppid,
						   c->ptid)
					 : perfan__profile_frame_n(
						   c->p, &c->last_root,
						   c->pname, c->pname_len, NULL,
						   0, PERFAN_FRAME_PROCESS);
			if (rc)
				return rc;
			const struct perfan_frame *f =
				perfan_profile_frame_get(c->p, c->last_root);
			c->last_pname = f->name; /* the profile's copy */
			c->last_pname_len = c->pname_len;
			c->last_ppid = c->ppid;
			c->last_ptid = c->ptid;
		}
		c->stack[n++] = c->last_root;
	}
	/* the last line read is the root: groups in reverse, each in its
	 * own order */
	for (size_t g = c->ngrp; g > 0; g--) {
		size_t b = c->grp[g - 1];
		size_t e = g < c->ngrp ? c->grp[g] : c->nfr;
		for (size_t i = b; i < e; i++)
			c->stack[n++] = c->fr[i];
	}
	if (c->col < 0) {
		const char *cname = c->o.column ? c->o.column
				    : c->filter ? c->filter
						: "samples";
		const char *unit = !c->o.count_samples && period_shown
					   ? "period"
					   : "samples";
		c->col = perfan_profile_add_column(c->p, cname, unit);
		if (c->col < 0)
			return c->col;
		c->st.column = c->col;
	}
	int rc = perfan_profile_add(c->p, c->stack, n, (size_t)c->col,
				    c->o.count_samples ? 1 : period, &c->meta,
				    NULL);
	if (rc)
		return rc;
	c->st.samples++;
	clear_sample(c);
	return 0;
}

/* A one-line sample waits for the next line: frame lines after it mean it
 * was a header after all, anything else completes it. */
static int settle_pending(struct sc *c)
{
	if (!c->pending)
		return 0;
	c->pending = 0;
	struct span ev = {c->pend_event,
			  c->pend_event ? strlen(c->pend_event) : 0};
	int keep = 1;
	if (c->pend_event) {
		keep = event_kept(c, ev);
		if (keep < 0)
			return perfan__nomem(c->name);
	}
	if (!keep) {
		c->st.samples_filtered++;
		clear_sample(c);
		return 0;
	}
	return flush(c, c->pend_period, c->pend_period_shown);
}

/* After the pid/tid of a header: "[cpu]", "time:", "period", "event:",
 * and for a sample without call chain "addr sym (dso)". */
struct tail {
	struct span cpu, time, period, event;
	size_t frame_at; /* offset of the one-line frame, 0 if none */
};

static size_t tok_end(const char *s, size_t n, size_t i)
{
	while (i < n && !pl_space((unsigned char)s[i]))
		i++;
	return i;
}

static size_t skip_ws(const char *s, size_t n, size_t i)
{
	while (i < n && pl_space((unsigned char)s[i]))
		i++;
	return i;
}

static int is_tracepoint(struct span ev)
{
	const char *c = ev.s ? memrchr(ev.s, ':', ev.n) : NULL;
	if (!c)
		return 0;
	for (const char *q = c + 1; q < ev.s + ev.n; q++)
		if (!memchr("ukhIGHpPSDeW", *q, 12))
			return 1;
	return 0;
}

static void parse_tail(const char *s, size_t n, size_t i, struct tail *t)
{
	memset(t, 0, sizeof(*t));
	i = skip_ws(s, n, i);
	size_t e = tok_end(s, n, i);
	if (e - i >= 3 && s[i] == '[' && s[e - 1] == ']') {
		t->cpu = (struct span){s + i + 1, e - i - 2};
		for (size_t k = 0; k < t->cpu.n; k++)
			if (!pl_digit((unsigned char)t->cpu.s[k])) {
				t->cpu.s = NULL;
				break;
			}
		i = skip_ws(s, n, e);
		e = tok_end(s, n, i);
	}
	if (e > i + 1 && s[e - 1] == ':' && pl_digit((unsigned char)s[i])) {
		int ok = 1;
		for (size_t k = i; k < e - 1; k++)
			if (!pl_digit((unsigned char)s[k]) && s[k] != '.')
				ok = 0;
		if (ok) {
			t->time = (struct span){s + i, e - 1 - i};
			i = skip_ws(s, n, e);
			e = tok_end(s, n, i);
		}
	}
	if (e > i && pl_digit((unsigned char)s[i])) {
		size_t k = i;
		while (k < e && pl_digit((unsigned char)s[k]))
			k++;
		size_t i2 = skip_ws(s, n, e), e2 = tok_end(s, n, i2);
		if (k == e && e2 > i2 + 1 && s[e2 - 1] == ':') {
			t->period = (struct span){s + i, e - i};
			i = i2;
			e = e2;
		}
	}
	if (e > i + 1 && s[e - 1] == ':') {
		t->event = (struct span){s + i, e - 1 - i};
		i = skip_ws(s, n, e);
		e = tok_end(s, n, i);
	}
	/* a frame: a hex address, a symbol, "(dso)" at the end; not after a
	 * tracepoint ("sched:sched_switch", not "cycles:u"), whose payload
	 * it would be */
	if (e > i && t->event.s && !is_tracepoint(t->event)) {
		size_t k = i;
		while (k < e && is_hex_lower((unsigned char)s[k]))
			k++;
		size_t z = n;
		while (z > i && pl_space((unsigned char)s[z - 1]))
			z--;
		if (k == e && e < n && z > e && s[z - 1] == ')')
			t->frame_at = i;
	}
}

static uint64_t parse_time_ns(struct span t)
{
	uint64_t sec = 0, ns = 0;
	size_t i = 0;
	for (; i < t.n && t.s[i] != '.'; i++)
		sec = sec * 10 + (uint64_t)(t.s[i] - '0');
	if (i < t.n) {
		size_t digits = 0;
		for (i++; i < t.n && digits < 9; i++, digits++)
			ns = ns * 10 + (uint64_t)(t.s[i] - '0');
		for (; digits < 9; digits++)
			ns *= 10;
	}
	return sec * 1000000000ull + ns;
}

/* D as a number printed with "%d": digits, no leading zero, in range. */
static int canon_i32(struct span d, int32_t *out)
{
	if (!d.n || d.n > 10 || (d.n > 1 && d.s[0] == '0'))
		return 0;
	for (size_t i = 0; i < d.n; i++)
		if (!pl_digit((unsigned char)d.s[i]))
			return 0;
	uint64_t v = parse_u64(d);
	if (v > INT32_MAX)
		return 0;
	*out = (int32_t)v;
	return 1;
}

/* The thread of the header as data, when the root's name is the one
 * perfan_profile_process_frame makes of it (a comm of up to 63 bytes,
 * numbers as "%d" prints them); else the root is its text alone. */
static int set_pthread(struct sc *c, const char *comm, size_t cl, int has_pid,
		       struct span pid, struct span tid)
{
	c->pname_known = 0;
	c->proot = c->o.tid   ? PERFAN_ROOT_PID_TID
		   : c->o.pid ? PERFAN_ROOT_PID
			      : PERFAN_ROOT_COMM;
	c->ppid = -1;
	if (cl > 63 || memchr(comm, '\0', cl) ||
	    (has_pid && !canon_i32(pid, &c->ppid)) || !canon_i32(tid, &c->ptid))
		return 0;
	if (perfan__grow((void **)&c->pcomm, &c->pcomm_cap, cl + 1, 1))
		return perfan__nomem(c->name);
	memcpy(c->pcomm, comm, cl);
	c->pcomm[cl] = '\0';
	c->pname_known = 1;
	return 0;
}

static int set_pname(struct sc *c, const char *s, const struct header *h)
{
	const char *comm = s;
	size_t cl = h->comm_len;
	/* $3 is false when absent or "0": then the one number is the tid */
	int has_pid = h->d2.s && !(h->d2.n == 1 && h->d2.s[0] == '0');
	struct span pid = has_pid ? h->d1 : (struct span){"?", 1};
	struct span tid = has_pid ? h->d2 : h->d1;
	c->pname_len = 0;
	size_t need = cl + pid.n + tid.n + 3;
	if (perfan__grow((void **)&c->pname, &c->pname_cap, need, 1))
		return perfan__nomem(c->name);
	char *b = c->pname;
	memcpy(b, comm, cl);
	size_t n = cl;
	if (c->o.tid || c->o.pid) {
		b[n++] = '-';
		memcpy(b + n, pid.s, pid.n);
		n += pid.n;
		if (c->o.tid) {
			b[n++] = '/';
			memcpy(b + n, tid.s, tid.n);
			n += tid.n;
		}
	}
	for (size_t i = 0; i < n; i++) /* spaces to '_' */
		if (b[i] == ' ')
			b[i] = '_';
	c->pname_len = n;
	c->java = n >= 4 && !memcmp(b, "java", 4);
	c->have_pname = 1;
	if (set_pthread(c, comm, cl, has_pid, pid, tid))
		return PERFAN_ENOMEM;
	c->meta.pid = has_pid ? parse_i32(h->d1) : -1;
	c->meta.tid = parse_i32(tid);
	return 0;
}

static int header_line(struct sc *c, const char *s, size_t n,
		       const struct header *h)
{
	struct span period = {NULL, 0}, ev;
	int has_event = match_event(s, n, &period, &ev);
	struct tail t;
	parse_tail(s, n, h->end, &t);
	if (has_event) {
		int keep = event_kept(c, ev);
		if (keep < 0)
			return perfan__nomem(c->name);
		if (!keep) {
			c->st.samples_filtered++;
			return 0; /* the sample before stays open, as in Perl */
		}
	}
	int rc = set_pname(c, s, h);
	if (rc)
		return rc;
	/* `$period = 1 if not $period`: absent or "0" */
	int shown = period.s && !(period.n == 1 && period.s[0] == '0');
	c->period = shown ? parse_u64(period) : 1;
	c->period_shown = period.s != NULL;
	c->meta.cpu = t.cpu.s && t.cpu.n ? parse_i32(t.cpu) : -1;
	c->meta.time = t.time.s ? parse_time_ns(t.time) : 0;
	if (!has_event && t.frame_at) {
		struct frameline fl;
		if (match_frame(s + t.frame_at, n - t.frame_at, &fl)) {
			size_t nfr0 = c->nfr, ngrp0 = c->ngrp;
			rc = add_frames(c, &fl);
			if (rc)
				return rc;
			c->pending = 1;
			c->pend_nfr = c->nfr - nfr0;
			c->pend_ngrp = c->ngrp - ngrp0;
			free(c->pend_event);
			c->pend_event = t.event.s
						? strndup(t.event.s, t.event.n)
						: NULL;
			if (t.event.s && !c->pend_event)
				return perfan__nomem(c->name);
			int pshown = t.period.s &&
				     !(t.period.n == 1 && t.period.s[0] == '0');
			c->pend_period = pshown ? parse_u64(t.period) : 1;
			c->pend_period_shown = t.period.s != NULL;
		}
	}
	return 0;
}

/* Is *S (N bytes, starting with white space) a one-line sample, the
 * command padded on the left? If so *S and *N drop the padding and H is
 * its header. */
static int indented_sample(const char **s, size_t *n, struct header *h)
{
	size_t k = skip_ws(*s, *n, 0);
	struct tail t;
	if (k == *n || !match_header(*s + k, *n - k, h))
		return 0;
	parse_tail(*s + k, *n - k, h->end, &t);
	if (!t.frame_at)
		return 0;
	*s += k;
	*n -= k;
	return 1;
}

static int script_line(struct sc *c, const char *s, size_t n)
{
	if (n && s[n - 1] == '\r') /* CRLF */
		n--;
	if (n && s[0] == '#')
		return 0;
	struct header h;
	struct frameline fl;
	int is_header = n && match_header(s, n, &h);
	int is_frame = !n || is_header ? 0 : match_frame(s, n, &fl);
	if (is_frame && pl_space((unsigned char)s[0]) &&
	    (!c->have_pname || c->pending) && indented_sample(&s, &n, &h)) {
		/* perf script without call chains pads the command on the
		 * left: to Perl a frame line with no sample open, skipped */
		is_header = 1;
		is_frame = 0;
	}
	if (c->pending) {
		if (is_frame) {
			/* call chain lines follow: a header after all, and
			 * the frame on it is not part of the stack */
			c->pending = 0;
			c->nfr -= c->pend_nfr;
			c->ngrp -= c->pend_ngrp;
		} else if (!n || is_header) {
			int rc = settle_pending(c);
			if (rc)
				return rc;
		} /* other lines are skipped, as Perl skips them */
	}
	if (!n) {
		if (!c->have_pname)
			return 0;
		return flush(c, c->period, c->period_shown);
	}
	if (is_header)
		return header_line(c, s, n, &h);
	if (is_frame) {
		if (!c->have_pname)
			return 0;
		return add_frames(c, &fl);
	}
	c->st.lines_unrecognized++;
	if (c->st.lines_unrecognized <= MAX_WARN)
		warn(c, "%s:%llu: unrecognized line: %.*s", c->name,
		     (unsigned long long)c->lineno, (int)(n < 80 ? n : 80), s);
	return 0;
}

int perfan_script_read(perfan_profile *p, FILE *fp, const char *name,
		       const struct perfan_script_opts *opts,
		       struct perfan_script_stats *stats)
{
	if (!p || !fp)
		return perfan__err_null(__func__, p ? "fp" : "profile");
	struct sc c;
	memset(&c, 0, sizeof(c));
	if (opts) {
		size_t n = opts->sz < sizeof(c.o) ? opts->sz : sizeof(c.o);
		memcpy(&c.o, opts, n);
	}
	c.o.sz = sizeof(c.o);
	if (c.o.compat != PERFAN_SCRIPT_COMPAT_NONE &&
	    c.o.compat != PERFAN_SCRIPT_COMPAT_FLAMEGRAPH)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_script_read: compat %d is none of "
				   "enum perfan_script_compat",
				   c.o.compat);
	c.p = p;
	c.name = name ? name : "perf script input";
	c.col = -1;
	c.st.column = -1;
	c.meta.pid = c.meta.tid = c.meta.cpu = -1;
	int rc = 0;
	c.lcache = calloc(LCACHE, sizeof(*c.lcache));
	if (!c.lcache)
		rc = perfan__nomem(c.name);
	if (!rc && c.o.event && *c.o.event) {
		c.filter = strdup(c.o.event);
		if (!c.filter)
			rc = perfan__nomem(c.name);
	}
	struct perfan__lines l;
	if (!rc)
		rc = perfan__lines_init(&l, fp, c.name, 0);
	if (!rc) {
		const char *s;
		size_t len;
		while ((rc = perfan__lines_next(&l, &s, &len)) == 1) {
			c.lineno = l.lineno;
			c.st.lines++;
			rc = script_line(&c, s, len);
			if (rc)
				break;
		}
		/* the last stack counts without a blank line after it */
		if (!rc)
			rc = settle_pending(&c);
		if (!rc && c.have_pname)
			rc = flush(&c, c.period, c.period_shown);
		perfan__lines_free(&l);
	}
	if (c.st.lines_unrecognized > MAX_WARN)
		warn(&c, "%s: %llu unrecognized lines in all", c.name,
		     (unsigned long long)c.st.lines_unrecognized);
	if (stats)
		*stats = c.st;
	free(c.filter);
	free(c.pname);
	free(c.pcomm);
	free(c.fr);
	free(c.grp);
	free(c.pend_event);
	free(c.buf);
	free(c.stack);
	for (size_t i = 0; c.lcache && i < LCACHE; i++)
		free(c.lcache[i].key);
	free(c.lcache);
	return rc;
}

int perfan_script_read_path(perfan_profile *p, const char *path,
			    const struct perfan_script_opts *opts,
			    struct perfan_script_stats *stats)
{
	if (!path)
		return perfan__err_null(__func__, "path");
	if (!strcmp(path, "-"))
		return perfan_script_read(p, stdin, "<stdin>", opts, stats);
	FILE *fp = fopen(path, "r");
	if (!fp)
		return perfan__err(errno == ENOENT ? PERFAN_ENOTFOUND
						   : PERFAN_EIO,
				   "%s: %s", path, strerror(errno));
	int rc = perfan_script_read(p, fp, path, opts, stats);
	fclose(fp);
	return rc;
}

/* ---- telling inputs apart ---------------------------------------------------- */

/* A token "SECONDS.FRACTION:" is the time of a perf script header. */
static int has_time_token(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t e = i;
		while (e < n && !pl_space((unsigned char)s[e]))
			e++;
		size_t k = i, dot = 0;
		while (k < e && (pl_digit((unsigned char)s[k]) || s[k] == '.'))
			dot += s[k++] == '.';
		if (e - i >= 4 && k == e - 1 && s[k] == ':' && dot == 1 &&
		    pl_digit((unsigned char)s[i]) &&
		    pl_digit((unsigned char)s[k - 1]))
			return 1;
		i = e;
		while (i < n && pl_space((unsigned char)s[i]))
			i++;
	}
	return 0;
}

static int folded_like(const char *s, size_t n)
{
	if (!n || pl_space((unsigned char)s[0]) || has_time_token(s, n))
		return 0;
	while (n && pl_space((unsigned char)s[n - 1]))
		n--;
	size_t d = n;
	while (d && pl_digit((unsigned char)s[d - 1]))
		d--;
	return d < n && d > 1 && (s[d - 1] == ' ' || s[d - 1] == '\t');
}

int perfan__input_detect(const void *vbuf, size_t len)
{
	const char *buf = vbuf;
	if (!buf || !len)
		return PERFAN__INPUT_UNKNOWN;
	if (len >= 8 &&
	    (!memcmp(buf, "PERFILE2", 8) || !memcmp(buf, "2ELIFREP", 8)))
		return PERFAN__INPUT_PERFDATA;
	if (memchr(buf, '\0', len))
		return PERFAN__INPUT_UNKNOWN;
	/* The first line with content decides, so that a folded file with a
	 * bad line is read as folded and the bad line reported; but frame
	 * lines (indented) further on make it perf script. */
	size_t pos = 0, content = 0, comments = 0;
	int folded = 0;
	while (pos < len && content < 50) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t e = nl ? (size_t)(nl - buf) : len;
		const char *s = buf + pos;
		size_t n = e - pos;
		pos = e + 1;
		if (n && s[n - 1] == '\r')
			n--;
		if (n && s[0] == '#') {
			comments++;
			continue;
		}
		size_t k = 0;
		while (k < n && pl_space((unsigned char)s[k]))
			k++;
		if (k == n)
			continue;
		if (!nl && content)
			break; /* a cut last line says nothing */
		/* a first line longer than the bytes given: a stack of
		 * frames, or a header */
		if (!nl && !k && !has_time_token(s, n) && memchr(s, ';', n))
			return PERFAN__INPUT_FOLDED;
		if (!content++) {
			folded = folded_like(s, n);
			if (!folded)
				return PERFAN__INPUT_SCRIPT;
		} else if (k) {
			return PERFAN__INPUT_SCRIPT;
		}
	}
	if (folded)
		return PERFAN__INPUT_FOLDED;
	return comments ? PERFAN__INPUT_SCRIPT : PERFAN__INPUT_UNKNOWN;
}
