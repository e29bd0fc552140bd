/* check_robust.c: bad input never crashes, hangs or over-allocates: every
 * prefix of real recordings, the peer fuzz corpus, and real files with one
 * field made wrong each end in ITEROVER or an error naming the input and the
 * offset. Records and features are touched byte by byte (see fuzz_perfdata.c)
 * so that ASan sees any pointer past the input. */
#include "../fuzz/fuzz_perfdata.c"

#include <dirent.h>
#include <limits.h>
#include <sys/resource.h>

#include "testutil.h"

#ifndef __has_feature
#define __has_feature(x) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || __has_feature(address_sanitizer)
#define TU_ASAN 1
/* A single allocation above 80 MiB aborts the test: the inputs here are at
 * most 64 KiB, the reader may use 64 MiB plus 16 times that, and its memory
 * must not follow sizes read from the input. (Without ASan, an address-space
 * limit does the same; see below.) Visible: the build hides symbols, and
 * ASan looks this one up in the executable. */
__attribute__((visibility("default"), used)) const char *
__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "max_allocation_size_mb=80:allocator_may_return_null=0";
}
#else
#define TU_ASAN 0
#endif

/* Without ASan: the address space may grow by this much in a test (64 MiB,
 * 16 times the largest input, and some slack for the maps of the input). */
#define AS_HEADROOM ((rlim_t)96 << 20)

static void limit_memory(void)
{
	struct rlimit rl;
	unsigned long long vm_kb = 0;
	char line[256];
	FILE *fp;

	if (TU_ASAN)
		return;
	fp = fopen("/proc/self/status", "r");
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "VmSize: %llu kB", &vm_kb) == 1)
			break;
	fclose(fp);
	if (!vm_kb || getrlimit(RLIMIT_AS, &rl) != 0)
		return;
	rl.rlim_cur = (rlim_t)vm_kb * 1024 + AS_HEADROOM;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_cur > rl.rlim_max)
		rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_AS, &rl);
}

/* ---- input ---------------------------------------------------------------- */

struct input {
	char path[PATH_MAX];
	uint8_t *buf;
	size_t len;
};

static void load(struct input *in, const char *path)
{
	FILE *fp = fopen(path, "rb");
	long n;

	ck_assert_msg(fp != NULL, "cannot open %s", path);
	ck_assert_int_lt(snprintf(in->path, sizeof(in->path), "%s", path),
			 (int)sizeof(in->path));
	ck_assert_int_eq(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	ck_assert_int_gt(n, 0);
	rewind(fp);
	in->len = (size_t)n;
	in->buf = malloc(in->len);
	ck_assert_ptr_nonnull(in->buf);
	ck_assert_uint_eq(fread(in->buf, 1, in->len, fp), in->len);
	fclose(fp);
}

static void put_u16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, 2);
}
static void put_u32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}
static void put_u64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}
static uint64_t get_u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* ---- reading ---------------------------------------------------------------- */

struct outcome {
	int open_rc; /* 0 or the open error */
	int rc;      /* ITEROVER, or the error that ended the read */
	char msg[1024];
	uint64_t nrec, nraw; /* records; those read from the input itself */
	int warnings;
	char warning[1024]; /* the last one */
	int pipe_mode;
	int header_failed; /* perfan_perfdata_read_header gave the error */
};

static void on_log(enum perfan_log_level level, const char *msg, void *payload)
{
	struct outcome *o = payload;

	if (level != PERFAN_LOG_WARN)
		return;
	o->warnings++;
	snprintf(o->warning, sizeof(o->warning), "%.1000s", msg);
}

/* Read everything from FD, named NAME, touching every byte handed out. */
static void run_fd(int fd, const char *name, int unordered, size_t size,
		   struct outcome *o)
{
	struct perfan_perfdata_opts opts =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	const struct perfan_record *r;
	perfan_perfdata *pd;
	uint64_t limit = 16 + size / 8;

	memset(o, 0, sizeof(*o));
	opts.unordered = unordered;
	opts.log = on_log;
	opts.log_payload = o;
	fuzz_input_name = name;
	o->open_rc = perfan_perfdata_open_fd(&pd, fd, name, &opts);
	if (o->open_rc) {
		ck_assert_ptr_null(pd);
		o->rc = o->open_rc;
		snprintf(o->msg, sizeof(o->msg), "%.1000s",
			 perfan_error_last());
		ck_assert_msg(o->rc != PERFAN_ENOMEM, "%s: %s", name, o->msg);
		ck_assert_msg(strstr(o->msg, name),
			      "open error does not name %s: %s", name, o->msg);
		return;
	}
	o->pipe_mode = perfan_perfdata_info(pd)->pipe_mode;
	o->rc = perfan_perfdata_read_header(pd);
	o->header_failed = o->rc != 0;
	if (o->rc == 0) {
		while ((o->rc = perfan_perfdata_next(pd, &r)) == 0) {
			fuzz_sink += fuzz_touch_record(r);
			o->nrec++;
			if (!r->from_compressed)
				o->nraw++;
			ck_assert_msg(o->nraw <= limit,
				      "%s: more records than it can hold",
				      name);
		}
	}
	if (o->rc != PERFAN_ITEROVER) {
		snprintf(o->msg, sizeof(o->msg), "%.1000s",
			 perfan_error_last());
		ck_assert_msg(fuzz_known_error(o->rc), "%s: rc %d", name,
			      o->rc);
		ck_assert_msg(o->rc != PERFAN_ENOMEM, "%s: %s", name, o->msg);
		ck_assert_msg(strstr(o->msg, name) && strstr(o->msg, "offset"),
			      "error does not name %s and an offset: %s", name,
			      o->msg);
		ck_assert_int_eq(perfan_perfdata_next(pd, &r), o->rc);
	}
	for (size_t i = 0; i < perfan_perfdata_nr_events(pd); i++)
		fuzz_sink += fuzz_event(perfan_perfdata_event(pd, i));
	fuzz_sink += fuzz_touch_features(perfan_perfdata_features(pd));
	perfan_perfdata_free(pd);
}

static void run_mem(const uint8_t *buf, size_t len, const char *name,
		    int unordered, struct outcome *o)
{
	int fd = fuzz_memfd(buf, len);

	ck_assert_msg(fd >= 0, "memfd_create: %s", strerror(errno));
	run_fd(fd, name, unordered, len, o);
	close(fd);
}

/* Where each record read from the input ends (offset + size + payload),
 * in file order, from a clean unordered read. */
struct layout {
	uint64_t *end;
	uint64_t *off;
	uint32_t *type;
	size_t n;
	int pipe_mode;
	uint64_t data_end; /* file mode: end of the data section */
};

static void get_layout(const struct input *in, struct layout *l)
{
	struct perfan_perfdata_opts opts =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	const struct perfan_record *r;
	perfan_perfdata *pd;
	size_t cap = 0;
	int rc, fd = fuzz_memfd(in->buf, in->len);

	memset(l, 0, sizeof(*l));
	opts.unordered = 1;
	ck_assert_int_ge(fd, 0);
	ck_assert_msg(perfan_perfdata_open_fd(&pd, fd, in->path, &opts) == 0,
		      "%s", perfan_error_last());
	l->pipe_mode = perfan_perfdata_info(pd)->pipe_mode;
	l->data_end = perfan_perfdata_info(pd)->data_offset +
		      perfan_perfdata_info(pd)->data_size;
	while ((rc = perfan_perfdata_next(pd, &r)) == 0) {
		uint64_t extra = 0;

		if (r->from_compressed)
			continue;
		if (r->type == PERFAN_REC_HEADER_TRACING_DATA)
			extra = (r->u.tracing_data.size + 7ull) & ~7ull;
		if (r->type == PERFAN_REC_AUXTRACE)
			extra = r->u.auxtrace.size;
		if (l->n == cap) {
			cap = cap ? 2 * cap : 1024;
			l->end = realloc(l->end, cap * sizeof(*l->end));
			l->off = realloc(l->off, cap * sizeof(*l->off));
			l->type = realloc(l->type, cap * sizeof(*l->type));
			ck_assert(l->end && l->off && l->type);
		}
		l->off[l->n] = r->offset;
		l->type[l->n] = r->type;
		l->end[l->n++] = r->offset + r->size + extra;
	}
	ck_assert_msg(rc == PERFAN_ITEROVER, "%s", perfan_error_last());
	perfan_perfdata_free(pd);
	close(fd);
	if (l->pipe_mode)
		l->data_end = in->len;
}

static void free_layout(struct layout *l)
{
	free(l->end);
	free(l->off);
	free(l->type);
}

/* Records that end at or before LEN. */
static size_t records_within(const struct layout *l, uint64_t len)
{
	size_t k = 0;

	while (k < l->n && l->end[k] <= len)
		k++;
	return k;
}

static int is_boundary(const struct layout *l, uint64_t len)
{
	if (len == 16)
		return 1;
	for (size_t k = 0; k < l->n; k++)
		if (l->end[k] == len)
			return 1;
	return 0;
}

/* ---- (a) every prefix ------------------------------------------------------- */

/* The first LEN bytes of IN: ITEROVER only for the whole file (or, in pipe
 * mode, at a record boundary), else an error with the offset; unordered,
 * every whole record before the cut is delivered. */
static void check_prefix(const struct input *in, const struct layout *l,
			 size_t len, int unordered)
{
	char name[PATH_MAX + 64];
	struct outcome o;

	snprintf(name, sizeof(name), "%s[0:%zu]", in->path, len);
	run_mem(in->buf, len, name, unordered, &o);
	if (len == in->len) {
		ck_assert_msg(o.rc == PERFAN_ITEROVER, "%s: %s", name, o.msg);
		ck_assert_msg(o.warnings == 0, "%s: warning: %s", name,
			      o.warning);
		return;
	}
	if (l->pipe_mode && len >= 16 && is_boundary(l, len)) {
		ck_assert_msg(o.rc == PERFAN_ITEROVER,
			      "%s ends at a record boundary: %s", name, o.msg);
	} else if (!l->pipe_mode && len >= l->data_end &&
		   o.rc == PERFAN_ITEROVER) {
		/* Only the feature sections are cut. Like perf, the reader
		 * goes on without them, but it must say so. */
		ck_assert_msg(o.warnings > 0 &&
				      strstr(o.warning, "past the end"),
			      "%s: features cut off without a warning", name);
	} else {
		ck_assert_msg(o.rc != PERFAN_ITEROVER,
			      "%s: a cut input reads without error", name);
	}
	/* (an error while reading ahead for the header ends the read before
	 * any record is delivered) */
	if (unordered && o.open_rc == 0 && !o.header_failed)
		ck_assert_msg(o.nraw == records_within(l, len),
			      "%s: %llu records delivered, %zu before the cut",
			      name, (unsigned long long)o.nraw,
			      records_within(l, len));
}

static void check_prefixes(const char *rel)
{
	struct input in;
	struct layout l;
	size_t head;

	load(&in, tu_testdata(rel));
	get_layout(&in, &l);
	head = in.len < 4097 ? in.len : 4097;
	for (size_t len = 0; len < head; len++)
		check_prefix(&in, &l, len, len % 7 == 0);
	/* 500 more spread over the rest, ending with the whole file */
	if (in.len >= 4097)
		for (size_t k = 0; k < 500; k++) {
			size_t len = 4097 + (in.len - 4097) * k / 499;

			check_prefix(&in, &l, len, 0);
			check_prefix(&in, &l, len, 1);
		}
	free_layout(&l);
	free(in.buf);
}

START_TEST(test_prefixes_fp)
{
	check_prefixes("fp/perf.data");
}
END_TEST

START_TEST(test_prefixes_pipe)
{
	check_prefixes("pipe/perf.data");
}
END_TEST

START_TEST(test_prefixes_zstd)
{
	check_prefixes("zstd/perf.data");
}
END_TEST

/* A pipe-mode prefix read through a real pipe (the stream path) ends as the
 * mapped one does. */
START_TEST(test_prefixes_stream)
{
	struct input in;
	struct layout l;
	size_t lens[16];
	size_t n = 0;

	load(&in, tu_testdata("pipe/perf.data"));
	get_layout(&in, &l);
	ck_assert(l.pipe_mode);
	ck_assert_uint_gt(l.n, 10);
	lens[n++] = 0;
	lens[n++] = 8;
	lens[n++] = 16;
	lens[n++] = 17;
	lens[n++] = l.end[0];
	lens[n++] = l.end[0] + 1;
	lens[n++] = l.end[l.n / 2] - 1;
	lens[n++] = l.end[l.n / 2];
	lens[n++] = in.len / 3;
	lens[n++] = in.len - 1;
	lens[n++] = in.len;
	for (size_t i = 0; i < n; i++) {
		char name[PATH_MAX + 64];
		struct outcome mapped, streamed;
		int fd = fuzz_pipe(in.buf, lens[i]);

		ck_assert_msg(fd >= 0, "pipe: %s", strerror(errno));
		snprintf(name, sizeof(name), "%s[0:%zu]", in.path, lens[i]);
		run_fd(fd, name, 1, lens[i], &streamed);
		close(fd);
		run_mem(in.buf, lens[i], name, 1, &mapped);
		ck_assert_msg(
			streamed.rc == mapped.rc &&
				streamed.nrec == mapped.nrec,
			"%s: streamed %d after %llu records (%s), mapped %d after %llu (%s)",
			name, streamed.rc, (unsigned long long)streamed.nrec,
			streamed.msg, mapped.rc,
			(unsigned long long)mapped.nrec, mapped.msg);
		if (lens[i] == in.len)
			ck_assert_int_eq(streamed.rc, PERFAN_ITEROVER);
	}
	free_layout(&l);
	free(in.buf);
}
END_TEST

/* A file-mode perf.data cannot be streamed (its header points backwards and
 * forwards); through a pipe it is a clean open error. */
START_TEST(test_file_mode_stream)
{
	struct input in;
	struct outcome o;
	int fd;

	load(&in, tu_testdata("zstd/perf.data"));
	fd = fuzz_pipe(in.buf, in.len);
	ck_assert_int_ge(fd, 0);
	run_fd(fd, "zstd-through-a-pipe", 1, in.len, &o);
	close(fd);
	ck_assert_int_eq(o.open_rc, PERFAN_EUNSUPPORTED);
	ck_assert_msg(strstr(o.msg, "pipe"), "%s", o.msg);
	free(in.buf);
}
END_TEST

/* ---- (b) the peer fuzz corpus --------------------------------------------- */

START_TEST(test_peer_fuzz)
{
	struct dirent **files;
	char dir[PATH_MAX];
	int n;

	TU_REQUIRE_PEERDATA("fuzz");
	snprintf(dir, sizeof(dir), "%s", tu_peerdata("fuzz"));
	n = scandir(dir, &files, NULL, alphasort);
	ck_assert_int_ge(n, 0);
	int tested = 0;
	for (int i = 0; i < n; i++) {
		struct input in;
		struct outcome o;

		if (files[i]->d_name[0] != '.') {
			char path[PATH_MAX];

			ck_assert_int_lt(snprintf(path, sizeof(path), "%s/%s",
						  dir, files[i]->d_name),
					 (int)sizeof(path));
			load(&in, path);
			/* run_mem checks that errors name the file */
			run_mem(in.buf, in.len, path, 0, &o);
			run_mem(in.buf, in.len, path, 1, &o);
			free(in.buf);
			tested++;
		}
		free(files[i]);
	}
	free(files);
	ck_assert_int_ge(tested, 28);
}
END_TEST

/* ---- (c) one field made wrong -------------------------------------------- */

/* fp/perf.data, to be changed in memory. */
static void fp_copy(struct input *in, struct layout *l)
{
	load(in, tu_testdata("fp/perf.data"));
	get_layout(in, l);
	ck_assert(!l->pipe_mode);
}

/* Read BUF both ways; return the unordered outcome. */
static void run_both(const uint8_t *buf, size_t len, const char *name,
		     struct outcome *unord)
{
	struct outcome ord;

	run_mem(buf, len, name, 0, &ord);
	run_mem(buf, len, name, 1, unord);
	ck_assert_int_eq(ord.open_rc, unord->open_rc);
	ck_assert_msg(
		(ord.rc == PERFAN_ITEROVER) == (unord->rc == PERFAN_ITEROVER),
		"%s: ordered %s, unordered %s", name, ord.msg, unord->msg);
}

static void expect_open_error(const struct outcome *o, int code,
			      const char *text)
{
	ck_assert_msg(o->open_rc == code, "open gave %d (%s), expected %d",
		      o->open_rc, o->msg, code);
	ck_assert_msg(strstr(o->msg, text), "message lacks \"%s\": %s", text,
		      o->msg);
}

START_TEST(test_bad_magic)
{
	struct input in;
	struct layout l;
	struct outcome o;

	fp_copy(&in, &l);
	memcpy(in.buf, "PERFILE3", 8);
	run_both(in.buf, in.len, "bad-magic", &o);
	expect_open_error(&o, PERFAN_EFORMAT, "not a perf.data file");
	ck_assert_msg(strstr(o.msg, "offset 0"), "%s", o.msg);

	memcpy(in.buf, "PERFFILE", 8);
	run_both(in.buf, in.len, "v1-magic", &o);
	expect_open_error(&o, PERFAN_EUNSUPPORTED, "unsupported v1 format");
	free_layout(&l);
	free(in.buf);
}
END_TEST

/* The data section claims to run past the end of the file: the records that
 * are there come out, then a truncation error. */
START_TEST(test_data_size_past_end)
{
	struct input in;
	struct layout l;
	struct outcome o;

	fp_copy(&in, &l);
	put_u64(in.buf + 48, (uint64_t)in.len * 4);
	run_both(in.buf, in.len, "data-past-end", &o);
	ck_assert_int_eq(o.open_rc, 0);
	ck_assert_msg(o.rc != PERFAN_ITEROVER, "no error");
	ck_assert_msg(o.warnings > 0, "no warning that the file is cut");
	/* the feature sections now read as records: garbage after the
	 * real ones, which all come first */
	ck_assert_uint_ge(o.nraw, l.n);

	put_u64(in.buf + 48, UINT64_MAX - 100); /* offset + size wraps */
	run_both(in.buf, in.len, "data-size-wraps", &o);
	ck_assert_msg(o.rc != PERFAN_ITEROVER, "no error");
	ck_assert_uint_ge(o.nraw, l.n);
	free_layout(&l);
	free(in.buf);
}
END_TEST

/* A record of size 0 or 4 cannot be stepped over: an error, not a loop. */
START_TEST(test_record_size_zero)
{
	static const uint16_t sizes[] = {0, 4, 7};
	struct input in;
	struct layout l;
	size_t picks[3];

	fp_copy(&in, &l);
	picks[0] = 0;
	picks[1] = l.n / 2;
	picks[2] = l.n - 1;
	for (size_t p = 0; p < 3; p++)
		for (size_t s = 0; s < 3; s++) {
			struct input copy = in;
			struct outcome o;
			char want[64];

			copy.buf = malloc(in.len);
			ck_assert_ptr_nonnull(copy.buf);
			memcpy(copy.buf, in.buf, in.len);
			put_u16(copy.buf + l.off[picks[p]] + 6, sizes[s]);
			run_both(copy.buf, copy.len, "size-zero", &o);
			ck_assert_int_eq(o.rc, PERFAN_EFORMAT);
			snprintf(want, sizeof(want), "offset %llu",
				 (unsigned long long)l.off[picks[p]]);
			ck_assert_msg(strstr(o.msg, want), "no \"%s\": %s",
				      want, o.msg);
			snprintf(want, sizeof(want), "size %u", sizes[s]);
			ck_assert_msg(strstr(o.msg, want), "no \"%s\": %s",
				      want, o.msg);
			/* every record before it was delivered */
			ck_assert_uint_eq(o.nraw, picks[p]);
			free(copy.buf);
		}
	free_layout(&l);
	free(in.buf);
}
END_TEST

/* A record longer than what is left of the data section. */
START_TEST(test_record_size_past_end)
{
	struct input in;
	struct layout l;
	struct outcome o;
	size_t last;

	fp_copy(&in, &l);
	last = l.n - 1;
	put_u16(in.buf + l.off[last] + 6, 0xfff8);
	run_both(in.buf, in.len, "record-past-end", &o);
	ck_assert_int_eq(o.rc, PERFAN_EFORMAT);
	ck_assert_uint_eq(o.nraw, last);
	free_layout(&l);
	free(in.buf);
}
END_TEST

/* Absurd sizes in the header and the attrs: an error at open, and no
 * allocation of that size (ASan or the address-space limit would stop it). */
START_TEST(test_attr_sizes)
{
	static const struct {
		size_t field; /* offset in the file */
		uint64_t value;
		const char *text; /* in the message */
	} cases[] = {
		{16, (uint64_t)1 << 40, "attr size"},      /* attr_size */
		{16, 8, "attr size"},                      /* too small */
		{16, 144 + 8, "not a multiple"},           /* bigger than */
		{32, (uint64_t)144 << 30, "past the end"}, /* attrs size */
		{24, (uint64_t)1 << 50, "past the end"},   /* attrs offset */
		/* attr 0's ids section (size, then offset) */
		{120 + 144 - 8, (uint64_t)1 << 40, "past the end"},
		{120 + 144 - 16, (uint64_t)1 << 50, "past the end"},
	};
	struct input in;
	struct layout l;

	fp_copy(&in, &l);
	/* the layout these offsets assume */
	ck_assert_uint_eq(get_u64(in.buf + 16), 144);
	ck_assert_uint_eq(get_u64(in.buf + 24), 120);
	ck_assert_uint_eq(get_u64(in.buf + 32), 144);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t *copy = malloc(in.len);
		struct outcome o;

		ck_assert_ptr_nonnull(copy);
		memcpy(copy, in.buf, in.len);
		put_u64(copy + cases[i].field, cases[i].value);
		run_both(copy, in.len, "bad-attr-size", &o);
		ck_assert_msg(o.open_rc < 0, "case %zu: opens", i);
		ck_assert_msg(strstr(o.msg, cases[i].text),
			      "case %zu: message lacks \"%s\": %s", i,
			      cases[i].text, o.msg);
		ck_assert_msg(strstr(o.msg, "offset"), "case %zu: %s", i,
			      o.msg);
		free(copy);
	}
	free_layout(&l);
	free(in.buf);
}
END_TEST

/* A feature section of absurd size: the feature is dropped with a warning,
 * the records still read. */
START_TEST(test_feature_size)
{
	struct input in;
	struct layout l;
	struct outcome o;

	fp_copy(&in, &l);
	/* the section table follows the data; its first entry's size */
	put_u64(in.buf + l.data_end + 8, (uint64_t)1 << 60);
	run_both(in.buf, in.len, "bad-feature-size", &o);
	ck_assert_int_eq(o.rc, PERFAN_ITEROVER);
	ck_assert_uint_eq(o.nraw, l.n);
	ck_assert_msg(o.warnings > 0, "no warning");
	free_layout(&l);
	free(in.buf);
}
END_TEST

/* Counts inside records that would make the reader allocate or read far
 * beyond the record: ID_INDEX, THREAD_MAP, CPU_MAP nr, a sample's callchain
 * nr. Each must be an error at that record's offset. */
START_TEST(test_record_counts)
{
	struct input in;
	struct layout l;
	int done = 0;

	fp_copy(&in, &l);
	for (size_t k = 0; k < l.n; k++) {
		uint32_t t = l.type[k];
		size_t at;
		uint8_t *copy;
		struct outcome o;
		char want[64];

		if (t == PERFAN_REC_ID_INDEX || t == PERFAN_REC_THREAD_MAP)
			at = 8; /* u64 nr */
		else if (t == PERFAN_REC_SAMPLE && done == 0) {
			/* fp samples: ip, pid/tid, time, period, then the
			 * callchain: nr and the entries, nothing after */
			at = 8 + 32;
			ck_assert_uint_eq(
				8 + 32 + 8 +
					8 * get_u64(in.buf + l.off[k] + at),
				l.end[k] - l.off[k]);
		} else
			continue;
		copy = malloc(in.len);
		ck_assert_ptr_nonnull(copy);
		memcpy(copy, in.buf, in.len);
		put_u64(copy + l.off[k] + at, (uint64_t)1 << 59);
		run_both(copy, in.len, "bad-count", &o);
		ck_assert_msg(o.rc == PERFAN_EFORMAT, "%s record: rc %d",
			      perfan_record_type_name(t), o.rc);
		snprintf(want, sizeof(want), "offset %llu",
			 (unsigned long long)l.off[k]);
		ck_assert_msg(strstr(o.msg, want), "no \"%s\": %s", want,
			      o.msg);
		ck_assert_uint_eq(o.nraw, k);
		free(copy);
		if (t == PERFAN_REC_SAMPLE)
			done = 1;
	}
	ck_assert_msg(done, "no sample found");
	free_layout(&l);
	free(in.buf);
}
END_TEST

/* The pipe file's first ATTR record announces an attr bigger than itself. */
START_TEST(test_pipe_attr_size)
{
	struct input in;
	struct layout l;
	struct outcome o;

	load(&in, tu_testdata("pipe/perf.data"));
	get_layout(&in, &l);
	ck_assert_uint_eq(l.type[0], PERFAN_REC_HEADER_ATTR);
	/* attr.size: after the 8-byte header and attr.type */
	put_u32(in.buf + l.off[0] + 8 + 4, 0xfffffff0u);
	run_both(in.buf, in.len, "pipe-attr-size", &o);
	ck_assert_msg(o.rc < 0 && o.rc != PERFAN_ITEROVER, "rc %d", o.rc);
	ck_assert_msg(strstr(o.msg, "offset 16"), "%s", o.msg);
	free_layout(&l);
	free(in.buf);
}
END_TEST

/* NBLOCKS zstd blocks of the "RLE" type, each 128 KiB of the byte 0x08
 * (records of unknown type 0x08080808 and size 0x0808 once decompressed):
 * four bytes per 128 KiB, the best ratio zstd has. perf -z writes one zstd
 * frame across all COMPRESSED records and never ends it, so these blocks
 * continue that frame. */
static size_t rle_blocks(uint8_t *out, size_t nblocks)
{
	size_t n = 0;

	for (size_t b = 0; b < nblocks; b++) {
		uint32_t h = (131072u << 3) | (1u << 1); /* not the last */

		out[n++] = (uint8_t)h;
		out[n++] = (uint8_t)(h >> 8);
		out[n++] = (uint8_t)(h >> 16);
		out[n++] = 0x08;
	}
	return n;
}

/* zstd/perf.data with one more COMPRESSED record at the end of its data,
 * 4.8 KB that expand to 150 MiB. perf bounds each record's output by the
 * COMPRESSED feature's mmap_len (20 KiB here, `-m 4`); the reader must not
 * follow the input into a buffer of that size either: an error at the
 * record, or records delivered from a bounded buffer. */
START_TEST(test_zstd_bomb)
{
	struct input in;
	struct layout l;
	struct outcome o;
	uint8_t *buf, *rec, *tab;
	size_t nsec = 0, flen, reclen;
	uint64_t end;
	char want[64];

	load(&in, tu_testdata("zstd/perf.data"));
	get_layout(&in, &l);
	ck_assert(!l.pipe_mode);
	end = l.data_end;
	for (int i = 0; i < 4; i++)
		nsec += (size_t)__builtin_popcountll(
			get_u64(in.buf + 72 + 8 * i));
	buf = malloc(in.len + 65536);
	ck_assert_ptr_nonnull(buf);
	rec = buf + end;
	flen = rle_blocks(rec + 8, 1200);
	reclen = 8 + flen;
	ck_assert_uint_le(reclen, 65535);
	memcpy(buf, in.buf, end);
	put_u32(rec, PERFAN_REC_COMPRESSED);
	put_u16(rec + 4, 0);
	put_u16(rec + 6, (uint16_t)reclen);
	memcpy(rec + reclen, in.buf + end, in.len - end);
	/* the data grew: the feature sections moved */
	put_u64(buf + 48, get_u64(buf + 48) + reclen);
	tab = buf + end + reclen;
	for (size_t k = 0; k < nsec; k++)
		put_u64(tab + 16 * k, get_u64(tab + 16 * k) + reclen);

	run_both(buf, in.len + reclen, "zstd-bomb", &o);
	ck_assert_int_eq(o.open_rc, 0);
	ck_assert_uint_ge(o.nraw, l.n);
	snprintf(want, sizeof(want), "offset %llu", (unsigned long long)end);
	/* its output ends inside a record (the RLE bytes are no records):
	 * one warning at the record, as perf record -z's unwritten tail */
	ck_assert_msg(o.warnings == 0 ||
			      (o.warnings == 1 && strstr(o.warning, want) &&
			       strstr(o.warning, "end inside a record")),
		      "%d warnings: %s", o.warnings, o.warning);
	if (o.rc != PERFAN_ITEROVER)
		ck_assert_msg(strstr(o.msg, want), "no \"%s\": %s", want,
			      o.msg);
	free(buf);
	free_layout(&l);
	free(in.buf);
}
END_TEST

static Suite *robust_suite(void)
{
	Suite *s = suite_create("robust");
	TCase *tp = tcase_create("prefixes");
	TCase *tf = tcase_create("fuzz");
	TCase *tc = tcase_create("corrupt");

	tcase_add_checked_fixture(tp, limit_memory, NULL);
	tcase_add_checked_fixture(tf, limit_memory, NULL);
	tcase_add_checked_fixture(tc, limit_memory, NULL);
	tcase_set_timeout(tp, 60);
	tcase_add_test(tp, test_prefixes_fp);
	tcase_add_test(tp, test_prefixes_pipe);
	tcase_add_test(tp, test_prefixes_zstd);
	tcase_add_test(tp, test_prefixes_stream);
	tcase_add_test(tp, test_file_mode_stream);
	suite_add_tcase(s, tp);

	tcase_set_timeout(tf, 30);
	tcase_add_test(tf, test_peer_fuzz);
	suite_add_tcase(s, tf);

	/* the zstd bomb inflates 1200 blocks: seconds under ASan, more on a
	 * busy machine */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_bad_magic);
	tcase_add_test(tc, test_data_size_past_end);
	tcase_add_test(tc, test_record_size_zero);
	tcase_add_test(tc, test_record_size_past_end);
	tcase_add_test(tc, test_attr_sizes);
	tcase_add_test(tc, test_feature_size);
	tcase_add_test(tc, test_record_counts);
	tcase_add_test(tc, test_pipe_attr_size);
	tcase_add_test(tc, test_zstd_bomb);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(robust_suite)
