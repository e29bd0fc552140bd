/* check_record_counts.c: record counts per type and samples per event, read through
 * the library in both delivery modes, equal perf's own `perf report --stats`
 * for every testdata recording and every peer perf.data file. */
#include <perfan/perfan.h>

#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define MAX_EVENTS 64
#define MAX_TYPES 64
#define NTYPES 256

/* What the library delivered. */
struct tally {
	int rc;         /* PERFAN_ITEROVER, or the error that ended it */
	char msg[1024]; /* perfan_error_last() at that error */
	uint64_t total;
	uint64_t by_type[NTYPES];
	uint64_t other_types;
	uint64_t last_end; /* offset + size of the last record read from file */
	size_t nev;
	char names[MAX_EVENTS][1024];
	uint64_t samples[MAX_EVENTS], lost[MAX_EVENTS];
};

/* What perf printed. */
struct oracle {
	int ok; /* an "Aggregated stats:" block was found */
	uint64_t total;
	size_t ntypes;
	struct {
		char name[64];
		uint64_t n;
	} types[MAX_TYPES];
	size_t nev;
	struct {
		char name[1024];
		uint64_t samples, lost;
	} ev[MAX_EVENTS];
};

/* Copy a message or name, cut to fit. */
static void copy_str(char *out, size_t n, const char *s)
{
	size_t len = strlen(s);

	if (len >= n)
		len = n - 1;
	memcpy(out, s, len);
	out[len] = '\0';
}

/* ---- reading ------------------------------------------------------------ */

static void tally_file(const char *path, int unordered, struct tally *t)
{
	struct perfan_perfdata_opts o =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	const struct perfan_record *r;
	perfan_perfdata *pd;

	memset(t, 0, sizeof(*t));
	o.unordered = unordered;
	t->rc = perfan_perfdata_open(&pd, path, &o);
	if (t->rc) {
		copy_str(t->msg, sizeof(t->msg), perfan_error_last());
		return;
	}
	while ((t->rc = perfan_perfdata_next(pd, &r)) == 0) {
		t->total++;
		if (r->type < NTYPES)
			t->by_type[r->type]++;
		else
			t->other_types++;
		if (!r->from_compressed)
			t->last_end = r->offset + r->size;
		if (!r->event)
			continue;
		ck_assert_msg(r->event->index < MAX_EVENTS,
			      "%s: event index %zu", path, r->event->index);
		if (r->type == PERFAN_REC_SAMPLE)
			t->samples[r->event->index]++;
		else if (r->type == PERFAN_REC_LOST_SAMPLES)
			/* perf 6.1 adds up `lost` per event */
			t->lost[r->event->index] += r->u.lost_samples.lost;
	}
	if (t->rc != PERFAN_ITEROVER) {
		copy_str(t->msg, sizeof(t->msg), perfan_error_last());
		/* the error is sticky */
		ck_assert_int_eq(perfan_perfdata_next(pd, &r), t->rc);
	}
	t->nev = perfan_perfdata_nr_events(pd);
	ck_assert_msg(t->nev <= MAX_EVENTS, "%s: %zu events", path, t->nev);
	for (size_t i = 0; i < t->nev; i++) {
		const struct perfan_event *ev = perfan_perfdata_event(pd, i);
		ck_assert_ptr_nonnull(ev);
		ck_assert_ptr_nonnull(ev->name);
		ck_assert_uint_eq(ev->index, i);
		copy_str(t->names[i], sizeof(t->names[i]), ev->name);
	}
	perfan_perfdata_free(pd);
}

/* Ordered and unordered delivery see the same records. */
static void tally_both(const char *path, struct tally *ord, struct tally *unord)
{
	tally_file(path, 0, ord);
	tally_file(path, 1, unord);
	ck_assert_msg(ord->rc == unord->rc, "%s: ordered rc %d, unordered %d",
		      path, ord->rc, unord->rc);
	ck_assert_msg(ord->total == unord->total,
		      "%s: ordered %llu records, unordered %llu", path,
		      (unsigned long long)ord->total,
		      (unsigned long long)unord->total);
	for (int i = 0; i < NTYPES; i++)
		ck_assert_msg(ord->by_type[i] == unord->by_type[i],
			      "%s: type %d: ordered %llu, unordered %llu", path,
			      i, (unsigned long long)ord->by_type[i],
			      (unsigned long long)unord->by_type[i]);
	ck_assert_uint_eq(ord->nev, unord->nev);
	for (size_t i = 0; i < ord->nev; i++) {
		ck_assert_uint_eq(ord->samples[i], unord->samples[i]);
		ck_assert_uint_eq(ord->lost[i], unord->lost[i]);
		ck_assert_str_eq(ord->names[i], unord->names[i]);
	}
}

/* ---- perf's output ------------------------------------------------------ */

/* Parse `perf report --stats` output. STRUCTURE: the file is a plain list
 * of "NAME events: N" lines (perf could not read the recording) that uses
 * the kernel's HEADER_ names. */
static void parse_oracle(const char *path, int structure, struct oracle *o)
{
	char line[1024];
	FILE *fp = fopen(path, "r");
	int in_event = 0;

	memset(o, 0, sizeof(*o));
	ck_assert_msg(fp != NULL, "cannot open %s", path);
	o->ok = structure;
	while (fgets(line, sizeof(line), fp)) {
		char name[64];
		unsigned long long n;
		size_t len = strcspn(line, "\n");

		line[len] = '\0';
		if (line[0] == '#' || !strncmp(line, "rc=", 3))
			continue;
		if (!strncmp(line, "Aggregated stats:", 17)) {
			o->ok = 1;
			continue;
		}
		if (!o->ok)
			continue;
		if (len > 7 && !strcmp(line + len - 7, " stats:")) {
			ck_assert_msg(o->nev < MAX_EVENTS, "%s: events", path);
			tu_fmt(o->ev[o->nev].name, sizeof(o->ev[0].name),
			       "%.*s", (int)(len - 7), line);
			o->nev++;
			in_event = 1;
			continue;
		}
		if (sscanf(line, " %63s events: %llu", name, &n) != 2)
			continue;
		if (in_event) {
			if (!strcmp(name, "SAMPLE"))
				o->ev[o->nev - 1].samples = n;
			else if (!strcmp(name, "LOST_SAMPLES"))
				o->ev[o->nev - 1].lost = n;
			else
				ck_abort_msg("%s: unexpected event line: %s",
					     path, line);
			continue;
		}
		if (!strcmp(name, "TOTAL")) {
			o->total = n;
			continue;
		}
		if (structure && !strcmp(name, "HEADER_FEATURE"))
			strcpy(name, "FEATURE");
		if (structure && !strcmp(name, "HEADER_ATTR"))
			strcpy(name, "ATTR");
		ck_assert_msg(o->ntypes < MAX_TYPES, "%s: types", path);
		tu_fmt(o->types[o->ntypes].name, sizeof(o->types[0].name), "%s",
		       name);
		o->types[o->ntypes].n = n;
		o->ntypes++;
		if (structure)
			o->total += n;
	}
	fclose(fp);
}

/* The type counts and TOTAL of T equal O's, both ways. */
static void compare_types(const char *path, const struct tally *t,
			  const struct oracle *o)
{
	size_t seen = 0;

	ck_assert_msg(o->ok, "%s: oracle has no stats", path);
	ck_assert_msg(t->total == o->total, "%s: TOTAL %llu, perf says %llu",
		      path, (unsigned long long)t->total,
		      (unsigned long long)o->total);
	ck_assert_msg(t->other_types == 0, "%s: %llu records of type >= %d",
		      path, (unsigned long long)t->other_types, NTYPES);
	for (int ty = 0; ty < NTYPES; ty++) {
		const char *name;
		size_t k;

		if (!t->by_type[ty])
			continue;
		name = perfan_record_type_name((uint32_t)ty);
		ck_assert_msg(name != NULL, "%s: type %d has no name", path,
			      ty);
		for (k = 0; k < o->ntypes; k++)
			if (!strcmp(o->types[k].name, name))
				break;
		ck_assert_msg(k < o->ntypes,
			      "%s: %llu %s records, perf has none", path,
			      (unsigned long long)t->by_type[ty], name);
		ck_assert_msg(t->by_type[ty] == o->types[k].n,
			      "%s: %llu %s records, perf says %llu", path,
			      (unsigned long long)t->by_type[ty], name,
			      (unsigned long long)o->types[k].n);
		seen++;
	}
	/* perf prints no zero lines: every line it printed was matched */
	ck_assert_msg(seen == o->ntypes,
		      "%s: perf lists %zu record types, perfan %zu", path,
		      o->ntypes, seen);
}

/* The events with samples or lost samples, in order, equal O's blocks.
 * RENAME, if set, maps perf's name of event i to the one we expect. */
static void compare_events(const char *path, const struct tally *t,
			   const struct oracle *o, const char *const *rename)
{
	size_t k = 0;

	for (size_t i = 0; i < t->nev; i++) {
		const char *want;

		if (!t->samples[i] && !t->lost[i])
			continue;
		ck_assert_msg(
			k < o->nev,
			"%s: event %s has samples, perf lists no more events",
			path, t->names[i]);
		want = rename && rename[k] ? rename[k] : o->ev[k].name;
		ck_assert_msg(!strcmp(t->names[i], want),
			      "%s: event %zu is \"%s\", expected \"%s\"", path,
			      i, t->names[i], want);
		ck_assert_msg(t->samples[i] == o->ev[k].samples,
			      "%s: %s: %llu samples, perf says %llu", path,
			      want, (unsigned long long)t->samples[i],
			      (unsigned long long)o->ev[k].samples);
		ck_assert_msg(t->lost[i] == o->ev[k].lost,
			      "%s: %s: %llu lost samples, perf says %llu", path,
			      want, (unsigned long long)t->lost[i],
			      (unsigned long long)o->ev[k].lost);
		k++;
	}
	ck_assert_msg(k == o->nev, "%s: perf lists %zu events, perfan %zu",
		      path, o->nev, k);
}

/* ---- the cases ---------------------------------------------------------- */

enum kind {
	KIND_NORMAL,
	/* perf.data.piped.corrupted.zero_size_sample-3.2: a SAMPLE at offset
	 * 49104 has header.size 0; perf stops with "bad event header size".
	 * perfan must stop there too, with a format error naming the offset,
	 * after delivering every record before it. */
	KIND_ZERO_SIZE,
	/* perf.data.piped.intel_pt-4.14: perf 6.1 cannot read it ("bad event
	 * header size"); the counts come from an independent walk of the
	 * file's structure (NAME.structure.txt). */
	KIND_STRUCTURE,
	/* perf.data.piped.header_feautres_group_desc-6.8: perf 6.1 ignores
	 * the event names this pipe file carries in EVENT_UPDATE and the
	 * EVENT_DESC feature ("cycles:u") and prints names derived from the
	 * attrs ("cycles:uH"); perfan uses the recorded names. Counts are
	 * compared exactly. */
	KIND_RECORDED_NAMES,
};

struct scase {
	char data[PATH_MAX];
	char oracle[PATH_MAX];
	enum kind kind;
};

static struct scase *testdata_cases, *peer_cases;
static size_t n_testdata_cases, n_peer_cases;

static void add_case(struct scase **v, size_t *n, const char *data,
		     const char *oracle, enum kind kind)
{
	struct scase *c;

	*v = realloc(*v, (*n + 1) * sizeof(**v));
	if (!*v)
		abort();
	c = &(*v)[(*n)++];
	tu_fmt(c->data, sizeof(c->data), "%s", data);
	tu_fmt(c->oracle, sizeof(c->oracle), "%s", oracle);
	c->kind = kind;
}

static int is_file(const char *path)
{
	FILE *fp = fopen(path, "r");

	if (!fp)
		return 0;
	fclose(fp);
	return 1;
}

/* testdata/CASE/perf.data with stats.txt, and perf.X.data with stats.X.txt */
static void find_testdata_cases(void)
{
	struct dirent **dirs, **files;
	char root[PATH_MAX];
	int nd;

	tu_fmt(root, sizeof(root), "%s", tu_testdata(""));
	nd = scandir(root, &dirs, NULL, alphasort);
	for (int i = 0; i < nd; i++) {
		char dir[PATH_MAX];
		int nf;

		tu_fmt(dir, sizeof(dir), "%s/%s", root, dirs[i]->d_name);
		nf = dirs[i]->d_name[0] == '.'
			     ? -1
			     : scandir(dir, &files, NULL, alphasort);
		for (int j = 0; j < nf; j++) {
			const char *f = files[j]->d_name;
			size_t len = strlen(f);
			char data[PATH_MAX], oracle[PATH_MAX];

			if (!strcmp(f, "perf.data"))
				tu_fmt(oracle, sizeof(oracle), "%s/stats.txt",
				       dir);
			else if (len > 10 && !strncmp(f, "perf.", 5) &&
				 !strcmp(f + len - 5, ".data"))
				tu_fmt(oracle, sizeof(oracle),
				       "%s/stats.%.*s.txt", dir,
				       (int)(len - 10), f + 5);
			else
				oracle[0] = '\0';
			tu_fmt(data, sizeof(data), "%s/%s", dir, f);
			if (oracle[0] && is_file(oracle))
				add_case(&testdata_cases, &n_testdata_cases,
					 data, oracle, KIND_NORMAL);
			free(files[j]);
		}
		if (nf >= 0)
			free(files);
		free(dirs[i]);
	}
	if (nd >= 0)
		free(dirs);
}

static void find_peer_cases(void)
{
	struct dirent **files;
	char dir[PATH_MAX], sdir[PATH_MAX];
	int nf;

	tu_fmt(dir, sizeof(dir), "%s", tu_peerdata("perf.data"));
	tu_fmt(sdir, sizeof(sdir), "%s", tu_peerdata("perf.data-stats"));
	nf = scandir(dir, &files, NULL, alphasort);
	for (int j = 0; j < nf; j++) {
		const char *f = files[j]->d_name;
		char data[PATH_MAX], oracle[PATH_MAX];
		enum kind kind = KIND_NORMAL;

		tu_fmt(data, sizeof(data), "%s/%s", dir, f);
		tu_fmt(oracle, sizeof(oracle), "%s/%s.stats.txt", sdir, f);
		if (!strcmp(f,
			    "perf.data.piped.corrupted.zero_size_sample-3.2"))
			kind = KIND_ZERO_SIZE;
		else if (!strcmp(f, "perf.data.piped.intel_pt-4.14")) {
			kind = KIND_STRUCTURE;
			tu_fmt(oracle, sizeof(oracle), "%s/%s.structure.txt",
			       sdir, f);
		} else if (!strcmp(f,
				   "perf.data.piped.header_feautres_group_desc-6.8"))
			kind = KIND_RECORDED_NAMES;
		if (f[0] != '.')
			add_case(&peer_cases, &n_peer_cases, data, oracle,
				 kind);
		free(files[j]);
	}
	if (nf >= 0)
		free(files);
}

static void check_normal(const struct scase *c)
{
	struct tally ord, unord;
	struct oracle o;

	parse_oracle(c->oracle, 0, &o);
	ck_assert_msg(
		o.ok,
		"%s: perf printed no stats; name the reason as an exception in this test or fix the reader",
		c->oracle);
	tally_both(c->data, &ord, &unord);
	ck_assert_msg(ord.rc == PERFAN_ITEROVER, "%s: %s", c->data, ord.msg);
	compare_types(c->data, &ord, &o);
	compare_events(c->data, &ord, &o, NULL);
}

START_TEST(test_testdata)
{
	const struct scase *c = &testdata_cases[_i];

	check_normal(c);
}
END_TEST

START_TEST(test_testdata_found)
{
	/* the loop above runs over nothing if the scan finds no case */
	ck_assert_msg(n_testdata_cases >= 12,
		      "only %zu testdata cases under %s", n_testdata_cases,
		      tu_testdata(""));
}
END_TEST

START_TEST(test_peer)
{
	const struct scase *c = &peer_cases[_i];
	struct tally ord, unord;
	struct oracle o;

	switch (c->kind) {
	case KIND_NORMAL: check_normal(c); break;
	case KIND_ZERO_SIZE:
		parse_oracle(c->oracle, 0, &o);
		ck_assert_msg(!o.ok, "perf now reads %s", c->data);
		tally_both(c->data, &ord, &unord);
		ck_assert_msg(ord.rc == PERFAN_EFORMAT, "%s: rc %d (%s)",
			      c->data, ord.rc, ord.msg);
		ck_assert_msg(strstr(ord.msg, "offset 49104") &&
				      strstr(ord.msg, "size 0") &&
				      strstr(ord.msg, c->data),
			      "message: %s", ord.msg);
		ck_assert_str_eq(ord.msg, unord.msg);
		/* everything up to the bad record was delivered, in both
		 * modes (tally_both compared their counts) */
		ck_assert_uint_eq(unord.last_end, 49104);
		ck_assert_uint_gt(ord.total, 0);
		break;
	case KIND_STRUCTURE:
		parse_oracle(c->oracle, 1, &o);
		tally_both(c->data, &ord, &unord);
		ck_assert_msg(ord.rc == PERFAN_ITEROVER, "%s: %s", c->data,
			      ord.msg);
		compare_types(c->data, &ord, &o);
		{
			uint64_t sum = 0;

			for (size_t i = 0; i < ord.nev; i++)
				sum += ord.samples[i];
			ck_assert_uint_eq(sum, ord.by_type[PERFAN_REC_SAMPLE]);
		}
		break;
	case KIND_RECORDED_NAMES: {
		static const char *const names[] = {"cycles:u",
						    "instructions:u", NULL};

		parse_oracle(c->oracle, 0, &o);
		ck_assert(o.ok);
		ck_assert_uint_eq(o.nev, 2);
		ck_assert_str_eq(o.ev[0].name, "cycles:uH");
		ck_assert_str_eq(o.ev[1].name, "instructions:uH");
		tally_both(c->data, &ord, &unord);
		ck_assert_msg(ord.rc == PERFAN_ITEROVER, "%s: %s", c->data,
			      ord.msg);
		compare_types(c->data, &ord, &o);
		compare_events(c->data, &ord, &o, names);
		break;
	}
	}
}
END_TEST

START_TEST(test_peer_absent)
{
	TU_SKIP("no peer data at %s", tu_peerdata("perf.data"));
}
END_TEST

START_TEST(test_peer_found)
{
	ck_assert_msg(n_peer_cases >= 36, "only %zu peer perf.data files",
		      n_peer_cases);
}
END_TEST

static Suite *record_counts_suite(void)
{
	Suite *s = suite_create("record_counts");
	TCase *tc = tcase_create("testdata");
	TCase *tp = tcase_create("peer");

	find_testdata_cases();
	tcase_add_test(tc, test_testdata_found);
	tcase_add_loop_test(tc, test_testdata, 0, (int)n_testdata_cases);
	suite_add_tcase(s, tc);

	tcase_set_timeout(tp, 30);
	if (access(tu_peerdata("perf.data"), R_OK) == 0) {
		find_peer_cases();
		tcase_add_test(tp, test_peer_found);
		tcase_add_loop_test(tp, test_peer, 0, (int)n_peer_cases);
	} else {
		tcase_add_test(tp, test_peer_absent);
	}
	suite_add_tcase(s, tp);
	return s;
}

PERFAN_TEST_MAIN(record_counts_suite)
