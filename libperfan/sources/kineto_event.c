/* sources/kineto_event.c: one element of a Kineto trace's traceEvents as
 * written: phase, category, name, ids, exact times and the args the model
 * keeps. */
#include "sources/kineto_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/decimal.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"

/* The string that comes next into B. */
static int str(struct perfan__jread *j, const char *what,
	       struct perfan__kin_str *b)
{
	const char *s;
	size_t n;
	int rc = perfan__jread_string(j, what, &s, &n);
	if (rc)
		return rc;
	if (perfan__grow((void **)&b->s, &b->cap, n + 1, 1))
		return perfan__nomem(j->name);
	memcpy(b->s, s, n);
	b->s[n] = '\0';
	b->n = n;
	b->have = 1;
	return 0;
}

/* The integer that comes next (a number; a string of one, as 2021's tids;
 * "stream N"); anything else leaves *ID without a value. */
static int id(struct perfan__jread *j, const char *what,
	      struct perfan__kin_id *out)
{
	size_t n;
	const char *s;
	out->have = 0;
	int k = perfan__jread_peek(j, NULL);
	if (k == PERFAN__JREAD_NUMBER) {
		int rc = perfan__jread_scaled(j, what, 0, &out->v, NULL);
		out->have = !rc;
		return rc;
	}
	if (k != PERFAN__JREAD_STRING)
		return perfan__jread_skip(j);
	int rc = perfan__jread_string(j, what, &s, &n);
	if (rc)
		return rc;
	if (n > 7 && !memcmp(s, "stream ", 7))
		s += 7, n -= 7;
	if (n && n < 20 && strspn(s, "0123456789") == n &&
	    !perfan__decimal_scaled(s, n, 0, &out->v))
		out->have = 1;
	return 0;
}

int perfan__kin_us(struct perfan__jread *j, const char *what, int64_t *ns,
		   size_t *off)
{
	return perfan__jread_scaled(j, what, 3, ns, off);
}

/* Whether the key K of KLEN bytes is the literal L. */
#define KEY_IS(k, klen, l)                                                     \
	((klen) == sizeof(l) - 1 && !memcmp((k), (l), (klen)))

#define ARG(l)                                                                 \
	{                                                                      \
		l, sizeof(l) - 1                                               \
	}
static const struct {
	const char *s;
	size_t n;
} arg_keys[KIN_NARGS] = {
	[KIN_DEVICE] = ARG("device"),
	[KIN_STREAM] = ARG("stream"),
	[KIN_CORRELATION] = ARG("correlation"),
	[KIN_EXTERNAL] = ARG("External id"),
	[KIN_PYTHON_ID] = ARG("Python id"),
	[KIN_PYTHON_PARENT] = ARG("Python parent id"),
	[KIN_SEQ] = ARG("Sequence number"),
	[KIN_BYTES] = ARG("bytes"),
	[KIN_WAIT_STREAM] = ARG("wait_on_stream"),
	[KIN_EVENT_RECORD] = ARG("wait_on_cuda_event_record_corr_id"),
};

static int args(struct perfan__jread *j, struct perfan__kin_ev *e)
{
	const char *key;
	size_t klen;
	int rc = perfan__jread_object(j, "the event's args, an object");
	while (!rc && (rc = perfan__jread_member(j, &key, &klen)) == 1) {
		int a = 0;
		while (a < KIN_NARGS && (klen != arg_keys[a].n ||
					 memcmp(key, arg_keys[a].s, klen)))
			a++;
		if (a == KIN_NARGS && KEY_IS(key, klen, "external id"))
			a = KIN_EXTERNAL;
		if (a < KIN_NARGS) {
			struct perfan__kin_id v;
			if ((rc = id(j, arg_keys[a].s, &v)))
				return rc;
			e->arg[a] = v.have ? v.v : -1;
			e->have[a] = v.have;
		} else if (KEY_IS(key, klen, "Call stack")) {
			rc = str(j, "the Call stack, a string", &e->call_stack);
		} else if (KEY_IS(key, klen, "cuda_sync_kind")) {
			rc = str(j, "cuda_sync_kind, a string", &e->sync_kind);
		} else if (KEY_IS(key, klen, "name") && e->ph == 'M') {
			rc = str(j, "the metadata's name, a string", &e->mname);
		} else if (KEY_IS(key, klen, "name") &&
			   perfan__jread_peek(j, NULL) ==
				   PERFAN__JREAD_STRING) {
			rc = str(j, NULL, &e->mname); /* ph may come later */
		} else {
			rc = perfan__jread_skip(j);
		}
	}
	return rc < 0 ? rc : 0;
}

static void reset(struct perfan__kin_ev *e)
{
	e->ph = 0;
	e->pid.have = e->tid.have = e->id.have = 0;
	e->have_ts = e->have_dur = 0;
	e->ts = e->dur = 0;
	e->name.have = e->cat.have = e->call_stack.have = 0;
	e->sync_kind.have = e->mname.have = 0;
	for (int a = 0; a < KIN_NARGS; a++) {
		e->arg[a] = -1;
		e->have[a] = 0;
	}
}

int perfan__kin_event(struct perfan__jread *j, struct perfan__kin_ev *e)
{
	const char *key;
	size_t klen;
	reset(e);
	int rc = perfan__jread_peek(j, &e->off);
	if (rc < 0)
		return rc;
	rc = perfan__jread_object(j, "an event, an object");
	while (!rc && (rc = perfan__jread_member(j, &key, &klen)) == 1) {
		if (KEY_IS(key, klen, "ph")) {
			const char *s = NULL;
			size_t n = 0;
			rc = perfan__jread_string(j, "the phase, a string", &s,
						  &n);
			e->ph = !rc && n ? s[0] : 0;
		} else if (KEY_IS(key, klen, "name")) {
			if (perfan__jread_peek(j, NULL) == PERFAN__JREAD_STRING)
				rc = str(j, NULL, &e->name);
			else
				rc = perfan__jread_skip(j);
		} else if (KEY_IS(key, klen, "cat")) {
			rc = str(j, "the category, a string", &e->cat);
		} else if (KEY_IS(key, klen, "pid")) {
			rc = id(j, "pid", &e->pid);
		} else if (KEY_IS(key, klen, "tid")) {
			rc = id(j, "tid", &e->tid);
		} else if (KEY_IS(key, klen, "id")) {
			rc = id(j, "the flow's id", &e->id);
		} else if (KEY_IS(key, klen, "ts")) {
			rc = perfan__kin_us(j, "ts, a number,", &e->ts,
					    &e->ts_off);
			e->have_ts = 1;
		} else if (KEY_IS(key, klen, "dur")) {
			size_t off;
			rc = perfan__kin_us(j, "dur, a number,", &e->dur, &off);
			e->have_dur = 1;
			if (!rc && e->dur < 0)
				rc = perfan__jread_err(j, PERFAN_EFORMAT, off,
						       "a negative duration");
		} else if (KEY_IS(key, klen, "args")) {
			rc = args(j, e);
		} else {
			rc = perfan__jread_skip(j);
		}
	}
	return rc < 0 ? rc : 0;
}

void perfan__kin_ev_free(struct perfan__kin_ev *e)
{
	free(e->name.s);
	free(e->cat.s);
	free(e->call_stack.s);
	free(e->sync_kind.s);
	free(e->mname.s);
}
