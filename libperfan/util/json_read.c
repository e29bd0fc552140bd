/* util/json_read.c: the strict JSON pull reader (util/json_read.h). */
#include "util/json_read.h"

#include <math.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/decimal.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/hex.h"
#include "util/log.h"

void perfan__jread_init(struct perfan__jread *j, const void *p, size_t len,
			const char *name, int max_depth)
{
	memset(j, 0, sizeof(*j));
	j->p = p;
	j->len = p ? len : 0;
	j->name = name ? name : "<json>";
	j->max_depth = max_depth > 0 && max_depth <= PERFAN__JREAD_MAX_DEPTH
			       ? max_depth
			       : PERFAN__JREAD_MAX_DEPTH;
	if (j->len >= 3 && !memcmp(j->p, "\xef\xbb\xbf", 3))
		j->pos = 3;
}

void perfan__jread_init_stream(struct perfan__jread *j, perfan__jread_fill fill,
			       void *ctx, const char *name, int max_depth)
{
	perfan__jread_init(j, NULL, 0, name, max_depth);
	j->fill = fill;
	j->fill_ctx = ctx;
	j->bom = 1;
}

void perfan__jread_fini(struct perfan__jread *j)
{
	free(j->buf);
	j->buf = NULL;
	j->cap = 0;
	free(j->win);
	j->win = NULL;
	j->p = NULL;
	j->wcap = j->len = j->pos = 0;
}

/* The stream's window, at first */
#define WINDOW (256 * 1024)

/* Read the stream on until the byte at AT is in the window: 1, or 0 at its
 * end or when reading failed (fill_rc). The window grows only while one
 * value outgrows it (skip_ws moves the window on between values). */
static __attribute__((noinline)) int fill_to(struct perfan__jread *j, size_t at)
{
	while (at >= j->len || j->bom) {
		if (!j->fill || j->eof || j->fill_rc)
			return at < j->len;
		if (j->len == j->wcap) {
			size_t cap = j->wcap     ? 2 * j->wcap
				     : j->window ? j->window
						 : WINDOW;
			char *w = cap > j->wcap ? realloc(j->win, cap) : NULL;
			if (!w) {
				j->fill_rc = perfan__nomem(j->name);
				return 0;
			}
			j->p = j->win = w;
			j->wcap = cap;
		}
		size_t want = j->wcap - j->len, got = 0;
		int rc = j->fill(j->fill_ctx, j->win + j->len, want, &got);
		if (rc) {
			j->fill_rc = rc;
			return 0;
		}
		j->len += got;
		j->eof = got < want;
		if (j->bom && (j->len >= 3 || j->eof)) {
			j->bom = 0; /* a UTF-8 byte order mark first: skipped */
			if (j->len >= 3 && !memcmp(j->p, "\xef\xbb\xbf", 3))
				j->pos = 3;
		}
	}
	return 1;
}

/* Whether the byte at AT is there (reading a stream on for it). */
static inline int has(struct perfan__jread *j, size_t at)
{
	return at < j->len || fill_to(j, at);
}

/* Between values: drop a stream's bytes before pos once they fill half
 * the window. */
static void move_on(struct perfan__jread *j)
{
	if (!j->fill || !j->pos || j->pos < j->wcap / 2)
		return;
	memmove(j->win, j->win + j->pos, j->len - j->pos);
	j->shift += j->pos;
	j->len -= j->pos;
	j->pos = 0;
}

/* How many newlines the window holds from A to B. */
static uint64_t newlines(const struct perfan__jread *j, size_t a, size_t b)
{
	uint64_t n = 0;
	if (a >= b)
		return 0;
	for (const char *q = j->p + a, *e = j->p + b;
	     q < e && (q = memchr(q, '\n', (size_t)(e - q))); q++)
		n++;
	return n;
}

/* The line of the offset OFF (from the input's start), 0 when unknown (a
 * stream's place no longer in the window). */
static uint64_t line_of(const struct perfan__jread *j, uint64_t off)
{
	uint64_t line = j->base_line ? j->base_line : 1;
	if (!j->fill)
		return line + newlines(j, 0, (size_t)off);
	if (off < j->shift)
		return 0;
	size_t at = (size_t)(off - j->shift);
	if (at <= j->pos)
		return line + j->nl - newlines(j, at, j->pos);
	return line + j->nl + newlines(j, j->pos, at);
}

int perfan__jread_err(const struct perfan__jread *j, int code, size_t off,
		      const char *fmt, ...)
{
	if (j->fill_rc)
		return j->fill_rc; /* the stream's own error, said */
	if (off > j->shift + j->len)
		off = j->shift + j->len;
	uint64_t line = line_of(j, off);
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return perfan__err_at(code, j->name, j->base_off + off, line, "%s%s",
			      j->prefix ? j->prefix : "", msg);
}

/* A byte as a message shows it. */
static const char *shown(int c, char out[8])
{
	if (c >= 0x21 && c < 0x7f)
		snprintf(out, 8, "'%c'", c);
	else
		snprintf(out, 8, "0x%02x", (unsigned)(c & 0xff));
	return out;
}

/* An error at the window's place AT. */
#define ERR(j, code, at, ...)                                                  \
	perfan__jread_err((j), (code), (j)->shift + (at), __VA_ARGS__)

/* Bytes by class: white space (1, a newline 2), those a string's plain
 * run stops at (4: '"', '\\', control characters, and UTF-8 past
 * ASCII). */
#define WS 1
#define NL 2
#define STOP 4
static const unsigned char byte_class[256] = {
	[0x00 ... 0x08] = STOP,
	['\t'] = WS | STOP,
	['\n'] = WS | NL | STOP,
	[0x0b ... 0x0c] = STOP,
	['\r'] = WS | STOP,
	[0x0e ... 0x1f] = STOP,
	[' '] = WS,
	['"'] = STOP,
	['\\'] = STOP,
	[0x80 ... 0xff] = STOP,
};

/* The end of the white space at P from POS (before LEN), the newlines in
 * it added to *NL: 16 bytes a step where SSE2 is. */
static size_t ws_run(const unsigned char *p, size_t pos, size_t len,
		     uint64_t *nl)
{
	/* most runs are a byte or two (after ':' and ','): those bytewise */
	for (int k = 0; k < 2 && pos < len; k++, pos++) {
		unsigned char c = byte_class[p[pos]];
		if (!(c & WS))
			return pos;
		*nl += c >> 1 & 1;
	}
#ifdef __SSE2__
	const __m128i sp = _mm_set1_epi8(' '), lf = _mm_set1_epi8('\n'),
		      tab = _mm_set1_epi8('\t'), cr = _mm_set1_epi8('\r');
	while (len - pos >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(p + pos));
		__m128i n = _mm_cmpeq_epi8(v, lf);
		__m128i w = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, sp), n),
					 _mm_or_si128(_mm_cmpeq_epi8(v, tab),
						      _mm_cmpeq_epi8(v, cr)));
		unsigned other = ~(unsigned)_mm_movemask_epi8(w) & 0xffff;
		unsigned lines = (unsigned)_mm_movemask_epi8(n);
		if (other)
			lines &= (other & -other) - 1; /* before the first */
		for (; lines; lines &= lines - 1)      /* a newline or two */
			(*nl)++;
		if (other)
			return pos + (unsigned)__builtin_ctz(other);
		pos += 16;
	}
#endif
	for (; pos < len; pos++) {
		unsigned char c = byte_class[p[pos]];
		if (!(c & WS))
			break;
		*nl += c >> 1 & 1;
	}
	return pos;
}

/* The end of the bytes of a string at P from POS (before LEN) that need
 * no decoding: up to a '"', a backslash, a control character or UTF-8
 * past ASCII. */
static size_t plain_run(const unsigned char *p, size_t pos, size_t len)
{
#ifdef __SSE2__
	const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'),
		      ctl = _mm_set1_epi8(0x20);
	while (len - pos >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(p + pos));
		/* signed: bytes past 0x7f are below 0x20 too */
		__m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, q),
							 _mm_cmpeq_epi8(v, bs)),
					    _mm_cmplt_epi8(v, ctl));
		unsigned m = (unsigned)_mm_movemask_epi8(stop);
		if (m)
			return pos + (unsigned)__builtin_ctz(m);
		pos += 16;
	}
#endif
	while (pos < len && !(byte_class[p[pos]] & STOP))
		pos++;
	return pos;
}

static void skip_ws_on(struct perfan__jread *j)
{
	move_on(j);
	do {
		const unsigned char *p = (const unsigned char *)j->p;
		size_t pos = j->pos, len = j->len;
		pos = ws_run(p, pos, len, &j->nl);
		j->pos = pos;
		if (pos < len)
			return;
	} while (fill_to(j, j->pos));
}

/* Past white space; most often there is none, and a stream's window need
 * not move on: that said at once. */
static inline void skip_ws(struct perfan__jread *j)
{
	size_t pos = j->pos;
	if (pos < j->len && !(byte_class[(unsigned char)j->p[pos]] & WS) &&
	    (!j->fill || pos < j->wcap / 2))
		return;
	skip_ws_on(j);
}

static int at_end(const struct perfan__jread *j, const char *what)
{
	return ERR(j, PERFAN_ETRUNCATED, j->len, "the input ends %s", what);
}

static const char *kind_name(int k)
{
	switch (k) {
	case PERFAN__JREAD_OBJECT: return "an object";
	case PERFAN__JREAD_ARRAY: return "an array";
	case PERFAN__JREAD_STRING: return "a string";
	case PERFAN__JREAD_NUMBER: return "a number";
	case PERFAN__JREAD_BOOL: return "a boolean";
	default: return "null";
	}
}

int perfan__jread_peek(struct perfan__jread *j, size_t *off)
{
	char b[8];
	skip_ws(j);
	if (off)
		*off = j->shift + j->pos;
	if (j->pos >= j->len)
		return at_end(j, "where a value should be");
	int c = (unsigned char)j->p[j->pos];
	switch (c) {
	case '{': return PERFAN__JREAD_OBJECT;
	case '[': return PERFAN__JREAD_ARRAY;
	case '"': return PERFAN__JREAD_STRING;
	case 't':
	case 'f': return PERFAN__JREAD_BOOL;
	case 'n': return PERFAN__JREAD_NULL;
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return PERFAN__JREAD_NUMBER;
		return ERR(j, PERFAN_EFORMAT, j->pos, "%s cannot start a value",
			   shown(c, b));
	}
}

/* The next value must be of KIND: its offset, or an error naming WHAT. */
static int expect(struct perfan__jread *j, int kind, const char *what)
{
	size_t off;
	int k = perfan__jread_peek(j, &off);
	if (k < 0)
		return k;
	if (k != kind)
		return perfan__jread_err(j, PERFAN_EFORMAT, off,
					 "%s should be %s, not %s",
					 what ? what : "the value",
					 kind_name(kind), kind_name(k));
	return 0;
}

static int open_container(struct perfan__jread *j, int kind, const char *what)
{
	int rc = expect(j, kind, what);
	if (rc)
		return rc;
	if (j->depth >= j->max_depth)
		return ERR(j, PERFAN_EFORMAT, j->pos,
			   "nested deeper than %d levels", j->max_depth);
	j->pos++;
	j->first[++j->depth] = 1;
	return 0;
}

int perfan__jread_object(struct perfan__jread *j, const char *what)
{
	return open_container(j, PERFAN__JREAD_OBJECT, what);
}

int perfan__jread_array(struct perfan__jread *j, const char *what)
{
	return open_container(j, PERFAN__JREAD_ARRAY, what);
}

/* Room for N more bytes (and a NUL) after USED in the string buffer. */
static int room(struct perfan__jread *j, size_t used, size_t n)
{
	if (n + 1 <= j->cap - used)
		return 0;
	if (perfan__grow((void **)&j->buf, &j->cap, used + n + 1, 1))
		return perfan__nomem(NULL);
	return 0;
}

static int hex4(struct perfan__jread *j, size_t at, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		if (!has(j, at + (size_t)i))
			return at_end(j, "inside a \\u escape");
		int d = perfan__hexval((unsigned char)j->p[at + (size_t)i]);
		if (d < 0)
			return ERR(j, PERFAN_EFORMAT, at - 2,
				   "a \\u escape needs four hex "
				   "digits");
		*v = *v << 4 | (unsigned)d;
	}
	return 0;
}

/* \uXXXX at j->pos (after the backslash and 'u' were seen at ESC), a
 * surrogate pair taken whole, appended to the buffer as UTF-8. */
static int unicode_escape(struct perfan__jread *j, size_t esc, size_t *n)
{
	unsigned cp, lo;
	int rc = hex4(j, esc + 2, &cp);
	if (rc)
		return rc;
	j->pos = esc + 6;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return ERR(j, PERFAN_EFORMAT, esc,
			   "a low surrogate \\u%04X without a "
			   "high one before it",
			   cp);
	if (cp >= 0xd800 && cp <= 0xdbff) {
		has(j, j->pos + 1);
		size_t left = j->len - j->pos;
		if (!left || (left == 1 && j->p[j->pos] == '\\'))
			return at_end(j, "after a high surrogate");
		if (j->p[j->pos] != '\\' || j->p[j->pos + 1] != 'u')
			return ERR(j, PERFAN_EFORMAT, esc,
				   "a high surrogate \\u%04X "
				   "without a low one after it",
				   cp);
		if ((rc = hex4(j, j->pos + 2, &lo)))
			return rc;
		if (lo < 0xdc00 || lo > 0xdfff)
			return ERR(j, PERFAN_EFORMAT, esc,
				   "a high surrogate \\u%04X "
				   "followed by \\u%04X, not a "
				   "low one",
				   cp, lo);
		j->pos += 6;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if ((rc = room(j, *n, 4)))
		return rc;
	char *o = j->buf + *n;
	if (cp < 0x80) {
		o[0] = (char)cp;
		*n += 1;
	} else if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		*n += 2;
	} else if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		*n += 3;
	} else {
		o[0] = (char)(0xf0 | cp >> 18);
		o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		o[3] = (char)(0x80 | (cp & 0x3f));
		*n += 4;
	}
	return 0;
}

/* The length of the well-formed UTF-8 sequence at AT (RFC 3629: no
 * overlong forms, no surrogates, nothing past U+10FFFF), or 0. */
static size_t utf8_len(struct perfan__jread *j, size_t at)
{
	has(j, at + 3);
	const unsigned char *s = (const unsigned char *)j->p + at;
	size_t left = j->len - at, n;
	unsigned lo = 0x80, hi = 0xbf;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;
		else if (s[0] == 0xed)
			hi = 0x9f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		if (s[0] == 0xf0)
			lo = 0x90;
		else if (s[0] == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (left < n)
		return (size_t)-1; /* cut by the input's end */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* The string at j->pos (its '"'), decoded into the buffer. */
static int read_string(struct perfan__jread *j, size_t *len)
{
	size_t start = j->pos, n = 0;
	char b[8];
	int rc;
	j->pos++;
	for (;;) {
		/* the run of bytes that need no decoding, copied at once */
		size_t run = j->pos;
		do {
			run = plain_run((const unsigned char *)j->p, run,
					j->len);
		} while (run == j->len && fill_to(j, run));
		if ((rc = room(j, n, run - j->pos)))
			return rc;
		memcpy(j->buf + n, j->p + j->pos, run - j->pos);
		n += run - j->pos;
		j->pos = run;
		if (j->pos >= j->len)
			return ERR(j, PERFAN_ETRUNCATED, start,
				   "the string starting here is "
				   "not closed (the input ends at "
				   "%llu)",
				   (unsigned long long)(j->shift + j->len));
		unsigned char c = (unsigned char)j->p[j->pos];
		if (c == '"') {
			j->pos++;
			break;
		}
		if (c < 0x20)
			return ERR(j, PERFAN_EFORMAT, j->pos,
				   "a control character (0x%02x) "
				   "in a string",
				   c);
		if (c >= 0x80) {
			size_t u = utf8_len(j, j->pos);
			if (u == (size_t)-1)
				return at_end(j, "inside a UTF-8 sequence");
			if (!u)
				return ERR(j, PERFAN_EFORMAT, j->pos,
					   "not UTF-8 (byte "
					   "0x%02x)",
					   c);
			if ((rc = room(j, n, u)))
				return rc;
			memcpy(j->buf + n, j->p + j->pos, u);
			n += u;
			j->pos += u;
			continue;
		}
		/* a backslash */
		size_t esc = j->pos;
		if (!has(j, esc + 1))
			return at_end(j, "inside an escape");
		char e = j->p[esc + 1], out;
		switch (e) {
		case '"': out = '"'; break;
		case '\\': out = '\\'; break;
		case '/': out = '/'; break;
		case 'b': out = '\b'; break;
		case 'f': out = '\f'; break;
		case 'n': out = '\n'; break;
		case 'r': out = '\r'; break;
		case 't': out = '\t'; break;
		case 'u':
			if ((rc = unicode_escape(j, esc, &n)))
				return rc;
			continue;
		default:
			return ERR(j, PERFAN_EFORMAT, esc,
				   "\\%s is not an escape", shown(e, b));
		}
		if ((rc = room(j, n, 1)))
			return rc;
		j->buf[n++] = out;
		j->pos = esc + 2;
	}
	if ((rc = room(j, n, 0)))
		return rc;
	j->buf[n] = '\0';
	*len = n;
	return 0;
}

/* Before the next item of the open container that CLOSE ends: 1 with
 * the reader at the item (past a ','), 0 at the end (closed then), or an
 * error. WHAT names the items in messages. */
static int next_item(struct perfan__jread *j, char close, const char *inside,
		     const char *what)
{
	char b[8];
	skip_ws(j);
	if (j->pos >= j->len)
		return at_end(j, inside);
	char c = j->p[j->pos];
	if (c == close) {
		j->pos++;
		j->depth--;
		return 0;
	}
	if (!j->first[j->depth]) {
		if (c != ',')
			return ERR(j, PERFAN_EFORMAT, j->pos,
				   "%s where ',' or '%c' should "
				   "follow %s",
				   shown(c, b), close, what);
		j->pos++;
		skip_ws(j);
		if (j->pos >= j->len)
			return at_end(j, "after a ','");
		if (j->p[j->pos] == close)
			return ERR(j, PERFAN_EFORMAT, j->pos,
				   "'%c' after a ','", close);
	}
	j->first[j->depth] = 0;
	return 1;
}

int perfan__jread_member(struct perfan__jread *j, const char **key,
			 size_t *klen)
{
	char b[8];
	size_t n;
	int rc = next_item(j, '}', "inside an object", "a member");
	if (rc <= 0)
		return rc;
	if (j->p[j->pos] != '"')
		return ERR(j, PERFAN_EFORMAT, j->pos,
			   "%s where a member's key (a string) "
			   "should be",
			   shown(j->p[j->pos], b));
	if ((rc = read_string(j, &n)))
		return rc;
	skip_ws(j);
	if (j->pos >= j->len)
		return at_end(j, "after a key");
	if (j->p[j->pos] != ':')
		return ERR(j, PERFAN_EFORMAT, j->pos,
			   "%s where ':' should follow the key",
			   shown(j->p[j->pos], b));
	j->pos++;
	*key = j->buf;
	if (klen)
		*klen = n;
	return 1;
}

int perfan__jread_element(struct perfan__jread *j)
{
	return next_item(j, ']', "inside an array", "an element");
}

int perfan__jread_string(struct perfan__jread *j, const char *what,
			 const char **s, size_t *len)
{
	size_t n;
	int rc = expect(j, PERFAN__JREAD_STRING, what);
	if (!rc)
		rc = read_string(j, &n);
	if (rc)
		return rc;
	*s = j->buf;
	if (len)
		*len = n;
	return 0;
}

static int digits(struct perfan__jread *j, size_t start)
{
	size_t from = j->pos;
	while (has(j, j->pos) && j->p[j->pos] >= '0' && j->p[j->pos] <= '9')
		j->pos++;
	if (j->pos > from)
		return 0;
	if (j->pos >= j->len)
		return ERR(j, PERFAN_ETRUNCATED, start,
			   "the number starting here is cut by "
			   "the input's end");
	return ERR(j, PERFAN_EFORMAT, j->pos,
		   "a digit should be here in the number "
		   "starting at %llu",
		   (unsigned long long)(j->shift + start));
}

/* Whether C may be part of a number's text. */
static int number_byte(char c)
{
	return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' ||
	       c == '+' || c == '-';
}

/* Check the number at j->pos and step over it: its text from *START. */
static int scan_number(struct perfan__jread *j, const char *what,
		       size_t *startp)
{
	int rc = expect(j, PERFAN__JREAD_NUMBER, what);
	if (rc)
		return rc;
	size_t start = *startp = j->pos;
	if (j->p[j->pos] == '-')
		j->pos++;
	if (has(j, j->pos) && j->p[j->pos] == '0')
		j->pos++;
	else if ((rc = digits(j, start)))
		return rc;
	if (has(j, j->pos) && j->p[j->pos] == '.') {
		j->pos++;
		if ((rc = digits(j, start)))
			return rc;
	}
	if (has(j, j->pos) && (j->p[j->pos] == 'e' || j->p[j->pos] == 'E')) {
		j->pos++;
		if (has(j, j->pos) &&
		    (j->p[j->pos] == '+' || j->p[j->pos] == '-'))
			j->pos++;
		if ((rc = digits(j, start)))
			return rc;
	}
	if (has(j, j->pos) && number_byte(j->p[j->pos]))
		return ERR(j, PERFAN_EFORMAT, start, "a malformed number");
	return 0;
}

int perfan__jread_number_text(struct perfan__jread *j, const char *what,
			      const char **s, size_t *len, size_t *off)
{
	size_t start;
	int rc = scan_number(j, what, &start);
	if (rc)
		return rc;
	*s = j->p + start;
	*len = j->pos - start;
	if (off)
		*off = j->shift + start;
	return 0;
}

/* A plain number at j->pos read at once when the window holds it whole:
 * digits (no leading zero), perhaps a fraction of at most SHIFT digits,
 * at most 19 digits once scaled, then a byte no number has. 1 with *V and
 * the reader past it, else 0 and the reader where it was. */
static int plain_scaled(struct perfan__jread *j, int shift, int64_t *v)
{
	const char *p = j->p + j->pos;
	if (j->len - j->pos < 32)
		return 0;
	size_t d = p[0] == '-', k = perfan__decimal_plain(p, 32, shift, v);
	if (!k || number_byte(p[k]) ||
	    (p[d] == '0' && p[d + 1] >= '0' && p[d + 1] <= '9'))
		return 0;
	j->pos += k;
	return 1;
}

int perfan__jread_scaled(struct perfan__jread *j, const char *what, int shift,
			 int64_t *v, size_t *off)
{
	const char *s;
	size_t n;
	int rc = expect(j, PERFAN__JREAD_NUMBER, what);
	if (rc)
		return rc;
	if (off)
		*off = j->shift + j->pos;
	if (shift >= 0 && plain_scaled(j, shift, v))
		return 0;
	if ((rc = perfan__jread_number_text(j, what, &s, &n, NULL)))
		return rc;
	if (perfan__decimal_scaled(s, n, shift, v))
		return perfan__jread_err(j, PERFAN_EFORMAT,
					 j->shift + j->pos - n,
					 "%s %.*s is out of range",
					 what ? what : "the number",
					 (int)(n < 40 ? n : 40), s);
	return 0;
}

int perfan__jread_number(struct perfan__jread *j, const char *what, double *v)
{
	size_t start;
	int rc = scan_number(j, what, &start);
	if (rc)
		return rc;
	size_t n = j->pos - start;
	if ((rc = room(j, 0, n)))
		return rc;
	memcpy(j->buf, j->p + start, n);
	j->buf[n] = '\0';
	*v = strtod(j->buf, NULL);
	if (!isfinite(*v))
		return ERR(j, PERFAN_EFORMAT, start,
			   "the number %s is out of range",
			   n < 40 ? j->buf : "here");
	return 0;
}

/* The literal WORD at j->pos. */
static int literal(struct perfan__jread *j, const char *word)
{
	size_t n = strlen(word);
	has(j, j->pos + n - 1);
	size_t left = j->len - j->pos;
	if (memcmp(j->p + j->pos, word, left < n ? left : n))
		return ERR(j, PERFAN_EFORMAT, j->pos,
			   "neither true, false nor null");
	if (left < n)
		return at_end(j, "inside true, false or null");
	j->pos += n;
	if (has(j, j->pos) && ((j->p[j->pos] >= 'a' && j->p[j->pos] <= 'z') ||
			       (j->p[j->pos] >= '0' && j->p[j->pos] <= '9')))
		return ERR(j, PERFAN_EFORMAT, j->pos - n,
			   "neither true, false nor null");
	return 0;
}

int perfan__jread_bool(struct perfan__jread *j, const char *what, int *v)
{
	int rc = expect(j, PERFAN__JREAD_BOOL, what);
	if (rc)
		return rc;
	*v = j->p[j->pos] == 't';
	return literal(j, *v ? "true" : "false");
}

/* A number checked as perfan__jread_number checks it, without converting
 * the plain ones: no exponent and fewer than 300 digits is in range. */
static int skip_number(struct perfan__jread *j)
{
	size_t start;
	double d;
	int rc = scan_number(j, NULL, &start);
	if (rc)
		return rc;
	size_t n = j->pos - start;
	if (n < 300 && !memchr(j->p + start, 'e', n) &&
	    !memchr(j->p + start, 'E', n))
		return 0;
	j->pos = start;
	return perfan__jread_number(j, NULL, &d);
}

int perfan__jread_skip(struct perfan__jread *j)
{
	const char *s;
	int rc, k = perfan__jread_peek(j, NULL);
	switch (k) {
	case PERFAN__JREAD_OBJECT:
		if ((rc = perfan__jread_object(j, NULL)))
			return rc;
		while ((rc = perfan__jread_member(j, &s, NULL)) == 1)
			if ((rc = perfan__jread_skip(j)))
				return rc;
		return rc;
	case PERFAN__JREAD_ARRAY:
		if ((rc = perfan__jread_array(j, NULL)))
			return rc;
		while ((rc = perfan__jread_element(j)) == 1)
			if ((rc = perfan__jread_skip(j)))
				return rc;
		return rc;
	case PERFAN__JREAD_STRING:
		return perfan__jread_string(j, NULL, &s, NULL);
	case PERFAN__JREAD_NUMBER: return skip_number(j);
	case PERFAN__JREAD_BOOL: return perfan__jread_bool(j, NULL, &rc);
	case PERFAN__JREAD_NULL: return literal(j, "null");
	default: return k;
	}
}

void perfan__jread_mark(struct perfan__jread *j, struct perfan__jread_mark *m)
{
	skip_ws(j);
	m->pos = j->pos;
	m->depth = j->depth;
}

void perfan__jread_seek(struct perfan__jread *j,
			const struct perfan__jread_mark *m)
{
	j->pos = m->pos;
	j->depth = m->depth;
}

void perfan__jread_fork(struct perfan__jread *dst,
			const struct perfan__jread *src,
			const struct perfan__jread_mark *m)
{
	perfan__jread_init(dst, src->p, src->len, src->name, src->max_depth);
	perfan__jread_seek(dst, m);
}

int perfan__jread_end(struct perfan__jread *j)
{
	char b[8];
	skip_ws(j);
	if (j->pos < j->len)
		return ERR(j, PERFAN_EFORMAT, j->pos,
			   "%s after the end of the JSON value",
			   shown(j->p[j->pos], b));
	return j->fill_rc;
}

int perfan__jread_check(const void *p, size_t len, const char *name,
			int max_depth)
{
	struct perfan__jread j;
	perfan__jread_init(&j, p, len, name, max_depth);
	int rc = perfan__jread_skip(&j);
	if (!rc)
		rc = perfan__jread_end(&j);
	perfan__jread_fini(&j);
	return rc;
}
