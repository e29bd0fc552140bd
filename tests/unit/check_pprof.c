/* check_pprof.c: the pprof sink, read back with protobuf-c and zlib: what
 * tests/cli/pprof.sh cannot see through pprof's reports (inline frames as
 * Line entries, innermost first; labels; build-ids; the recording's facts)
 * and bad options. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include <perfan/perfan.h>

#include "render/profile.pb-c.h"
#include "testutil.h"

typedef Perftools__Profiles__Profile pb_profile;

/* Write P with O, gunzip and unpack it. */
static pb_profile *roundtrip(const perfan_profile *p,
			     const struct perfan_pprof_write_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(perfan_pprof_write(p, fp, o), 0);
	fclose(fp);
	ck_assert(len > 18 && (uint8_t)buf[0] == 0x1f &&
		  (uint8_t)buf[1] == 0x8b);

	z_stream z;
	memset(&z, 0, sizeof(z));
	ck_assert_int_eq(inflateInit2(&z, 16 + 15), Z_OK);
	size_t cap = 1 << 20;
	uint8_t *out = malloc(cap);
	z.next_in = (Bytef *)buf;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	ck_assert_int_eq(inflate(&z, Z_FINISH), Z_STREAM_END);
	size_t n = cap - z.avail_out;
	inflateEnd(&z);
	pb_profile *pr = perftools__profiles__profile__unpack(NULL, n, out);
	ck_assert_ptr_nonnull(pr);
	free(out);
	free(buf);
	return pr;
}

static const char *s(const pb_profile *pr, int64_t ix)
{
	ck_assert(ix >= 0 && (size_t)ix < pr->n_string_table);
	return pr->string_table[ix];
}

static const Perftools__Profiles__Location *loc(const pb_profile *pr,
						uint64_t id)
{
	ck_assert(id >= 1 && id <= pr->n_location);
	ck_assert_uint_eq(pr->location[id - 1]->id, id);
	return pr->location[id - 1];
}

static const char *fn_name(const pb_profile *pr, uint64_t id)
{
	ck_assert(id >= 1 && id <= pr->n_function);
	return s(pr, pr->function[id - 1]->name);
}

START_TEST(test_inline_labels_facts)
{
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	ck_assert_int_eq(perfan_profile_add_column(p, "cycles", "period"), 0);
	ck_assert_int_eq(perfan_profile_add_column(p, "cpu-clock", "period"),
			 1);
	perfan_frame_id a = 0;
	ck_assert_int_eq(perfan_profile_process_frame(
				 p, &a, PERFAN_ROOT_PID_TID, "prog", 7, 8),
			 0);
	perfan_frame_id m =
		tu_frame(p, "main", "prog", "prog.c", 30, PERFAN_FRAME_NATIVE);
	perfan_frame_id f =
		tu_frame(p, "f", "prog", "prog.c", 12, PERFAN_FRAME_NATIVE);
	perfan_frame_id in =
		tu_frame(p, "inl", "prog", "inl.h", 3, PERFAN_FRAME_INLINED);
	perfan_frame_id s1[] = {a, m, f, in};
	perfan_frame_id s2[] = {a, m, f};
	ck_assert_int_eq(perfan_profile_add(p, s1, 4, 0, 400, NULL, NULL), 0);
	ck_assert_int_eq(perfan_profile_add(p, s2, 3, 1, 100, NULL, NULL), 0);

	struct perfan_build_id_entry b = {.size = 3,
					  .build_id = {0xab, 0x01, 0xff},
					  .filename = "/usr/bin/prog"};
	const char *argv[] = {"perf", "record", "-g", "./prog"};
	struct perfan_pprof_write_opts o =
		PERFAN_OPTS_INIT(struct perfan_pprof_write_opts);
	o.default_column = 2;
	o.cmdline_argc = 4;
	o.cmdline_argv = argv;
	o.nr_build_ids = 1;
	o.build_ids = &b;
	o.duration_nanos = 5000;
	o.time_nanos = 123;
	o.period_type = "cpu-clock";
	o.period_unit = "nanoseconds";
	o.period = 1001001;
	pb_profile *pr = roundtrip(p, &o);

	ck_assert_uint_eq(pr->n_sample_type, 2);
	ck_assert_str_eq(s(pr, pr->sample_type[0]->type), "cycles");
	ck_assert_str_eq(s(pr, pr->sample_type[0]->unit), "count");
	ck_assert_str_eq(s(pr, pr->sample_type[1]->unit), "nanoseconds");
	ck_assert_str_eq(s(pr, pr->default_sample_type), "cpu-clock");
	ck_assert_str_eq(pr->string_table[0], "");
	ck_assert_int_eq(pr->duration_nanos, 5000);
	ck_assert_int_eq(pr->time_nanos, 123);
	ck_assert_int_eq(pr->period, 1001001);
	ck_assert_str_eq(s(pr, pr->period_type->type), "cpu-clock");
	ck_assert_uint_eq(pr->n_comment, 1);
	ck_assert_str_eq(s(pr, pr->comment[0]), "perf record -g ./prog");

	/* the stack through inl: [inl, f] is one location, then main */
	ck_assert_uint_eq(pr->n_sample, 2);
	const Perftools__Profiles__Sample *deep = NULL, *flat = NULL;
	for (size_t i = 0; i < pr->n_sample; i++) {
		const Perftools__Profiles__Sample *sm = pr->sample[i];
		if (sm->n_location_id == 2 &&
		    loc(pr, sm->location_id[0])->n_line == 2)
			deep = sm;
		else
			flat = sm;
	}
	ck_assert_ptr_nonnull(deep);
	ck_assert_ptr_nonnull(flat);
	ck_assert_uint_eq(deep->n_value, 2);
	ck_assert_int_eq(deep->value[0], 400);
	ck_assert_int_eq(deep->value[1], 0);
	ck_assert_int_eq(flat->value[1], 100);
	const Perftools__Profiles__Location *l = loc(pr, deep->location_id[0]);
	ck_assert_str_eq(fn_name(pr, l->line[0]->function_id), "inl");
	ck_assert_int_eq(l->line[0]->line, 3);
	ck_assert_str_eq(fn_name(pr, l->line[1]->function_id), "f");
	ck_assert_int_eq(l->line[1]->line, 12);
	ck_assert_str_eq(s(pr,
			   pr->function[l->line[0]->function_id - 1]->filename),
			 "inl.h");
	ck_assert_str_eq(
		fn_name(pr,
			loc(pr, deep->location_id[1])->line[0]->function_id),
		"main");
	/* f alone is another location than f with inl in it */
	ck_assert_uint_eq(flat->n_location_id, 2);
	ck_assert_uint_ne(flat->location_id[0], deep->location_id[0]);
	ck_assert_uint_eq(flat->location_id[1], deep->location_id[1]);
	ck_assert_uint_eq(loc(pr, flat->location_id[0])->n_line, 1);

	/* the mapping: the build-id entry's path and id */
	ck_assert_uint_eq(pr->n_mapping, 1);
	ck_assert_uint_eq(l->mapping_id, 1);
	ck_assert_str_eq(s(pr, pr->mapping[0]->filename), "/usr/bin/prog");
	ck_assert_str_eq(s(pr, pr->mapping[0]->build_id), "ab01ff");
	ck_assert(pr->mapping[0]->has_inline_frames);

	/* the thread as labels, not a location */
	ck_assert_uint_eq(deep->n_label, 4);
	int seen = 0;
	for (size_t i = 0; i < deep->n_label; i++) {
		const char *k = s(pr, deep->label[i]->key);
		if (!strcmp(k, "comm"))
			seen |= !strcmp(s(pr, deep->label[i]->str), "prog");
		else if (!strcmp(k, "thread"))
			seen |= !strcmp(s(pr, deep->label[i]->str), "prog-7/8")
				<< 1;
		else if (!strcmp(k, "pid"))
			seen |= (deep->label[i]->num == 7) << 2;
		else if (!strcmp(k, "tid"))
			seen |= (deep->label[i]->num == 8) << 3;
	}
	ck_assert_int_eq(seen, 15);

	perftools__profiles__profile__free_unpacked(pr, NULL);
	perfan_profile_free(p);
}
END_TEST

START_TEST(test_empty_and_bad)
{
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	pb_profile *pr = roundtrip(p, NULL);
	ck_assert_uint_eq(pr->n_sample, 0);
	ck_assert_uint_eq(pr->n_sample_type, 0);
	perftools__profiles__profile__free_unpacked(pr, NULL);

	struct perfan_pprof_write_opts o =
		PERFAN_OPTS_INIT(struct perfan_pprof_write_opts);
	o.default_column = 1; /* there is no column */
	ck_assert_int_eq(perfan_pprof_write(p, stdout, &o), PERFAN_EINVAL);
	ck_assert(strstr(perfan_error_last(), "pprof"));
	ck_assert_int_eq(perfan_pprof_write(NULL, stdout, NULL), PERFAN_EINVAL);

	/* a folded count past INT64_MAX has no pprof value */
	ck_assert_int_eq(perfan_profile_add_column(p, "samples", "samples"), 0);
	perfan_frame_id f =
		tu_frame(p, "f", NULL, NULL, 0, PERFAN_FRAME_NATIVE);
	ck_assert_int_eq(perfan_profile_add(p, &f, 1, 0,
					    (uint64_t)INT64_MAX + 1, NULL,
					    NULL),
			 0);
	ck_assert_int_eq(perfan_pprof_write(p, stdout, NULL),
			 PERFAN_EUNSUPPORTED);
	ck_assert(strstr(perfan_error_last(), "int64"));

	ck_assert_str_eq(perfan_pprof_unit("cpu-clock", "period"),
			 "nanoseconds");
	ck_assert_str_eq(perfan_pprof_unit("page-faults", "period"), "count");
	ck_assert_str_eq(perfan_pprof_unit("wall", "ns"), "nanoseconds");
	ck_assert_str_eq(perfan_pprof_unit("x", "samples"), "count");
	perfan_profile_free(p);
}
END_TEST

/* The facts of testdata/fp's header: perf's command line, build-ids,
 * duration, the first event's period. */
START_TEST(test_opts_from_perfdata)
{
	perfan_perfdata *pd;
	ck_assert_int_eq(perfan_perfdata_open(&pd, tu_testdata("fp/perf.data"),
					      NULL),
			 0);
	struct perfan_pprof_write_opts o =
		PERFAN_OPTS_INIT(struct perfan_pprof_write_opts);
	ck_assert_int_eq(perfan_pprof_opts_from_perfdata(&o, pd), 0);
	ck_assert_uint_eq(o.cmdline_argc, 10);
	ck_assert_str_eq(o.cmdline_argv[1], "record");
	ck_assert_uint_eq(o.nr_build_ids, 4);
	ck_assert_str_eq(o.period_type, "cpu-clock");
	ck_assert_str_eq(o.period_unit, "nanoseconds");
	ck_assert_int_eq(o.period, 1000000000 / 999);
	/* 515 samples at 999 Hz */
	ck_assert(o.duration_nanos > 500000000 && o.duration_nanos < 530000000);
	ck_assert_int_eq(o.time_nanos, 0); /* recorded without -k */
	perfan_perfdata_free(pd);
}
END_TEST

static Suite *pprof_suite(void)
{
	Suite *s = suite_create("pprof");
	TCase *tc = tcase_create("sink");
	tcase_add_test(tc, test_inline_labels_facts);
	tcase_add_test(tc, test_empty_and_bad);
	tcase_add_test(tc, test_opts_from_perfdata);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(pprof_suite)
