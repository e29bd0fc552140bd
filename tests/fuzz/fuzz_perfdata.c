/* fuzz_perfdata.c: libFuzzer target for the perf.data reader. The input is
 * read as a file (memfd, mapped) in both delivery modes and, when small, as a
 * stream through a pipe; every byte the reader hands out is touched so that
 * ASan sees any pointer past the input, and the API's promises are checked.
 * tests/unit/check_fuzz_corpus.c and check_robust.c include this file. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <perfan/perfan.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The name the reader is given; its messages must carry it. */
static const char *fuzz_input_name = "fuzz-input";

static volatile uint64_t fuzz_sink;

/* Every input read every way (tests/unit/check_fuzz_corpus.c sets it);
 * else the fuzzer's inputs pick some of the ways (fuzz_one). */
static int fuzz_every_way;

__attribute__((noreturn, format(printf, 1, 2))) static void
fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz_perfdata: %s: ", fuzz_input_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* Read every byte (ASan checks each load). */
static uint64_t fuzz_bytes(const void *p, uint64_t n)
{
	const volatile uint8_t *b = p;
	uint64_t s = 0;

	if (n && !p)
		fuzz_fail("NULL pointer for %llu bytes", (unsigned long long)n);
	for (uint64_t i = 0; i < n; i++)
		s += b[i];
	return s;
}

static uint64_t fuzz_str(const char *s)
{
	return s ? fuzz_bytes(s, strlen(s) + 1) : 0;
}

static uint64_t fuzz_regs(const struct perfan_regs *r)
{
	if (!r->abi)
		return 0;
	if (r->nr != (uint64_t)__builtin_popcountll(r->mask))
		fuzz_fail("regs: nr %llu, mask %#llx",
			  (unsigned long long)r->nr,
			  (unsigned long long)r->mask);
	return fuzz_bytes(r->regs, r->nr * 8);
}

static uint64_t fuzz_read_values(const struct perfan_read_values *v)
{
	return fuzz_bytes(v->entries, v->nr * sizeof(*v->entries));
}

static uint64_t fuzz_event(const struct perfan_event *ev)
{
	if (!ev)
		return 0;
	if (!ev->name)
		fuzz_fail("event %zu has no name", ev->index);
	return fuzz_str(ev->name) + fuzz_bytes(ev->ids, ev->nr_ids * 8);
}

static uint64_t fuzz_sample(const struct perfan_sample *s)
{
	uint64_t t = s->type, sum = 0;

	if (t & PERFAN_SAMPLE_READ)
		sum += fuzz_read_values(&s->read);
	if (t & PERFAN_SAMPLE_CALLCHAIN)
		sum += fuzz_bytes(s->callchain, s->callchain_nr * 8);
	if (t & PERFAN_SAMPLE_RAW)
		sum += fuzz_bytes(s->raw, s->raw_size);
	if (t & PERFAN_SAMPLE_BRANCH_STACK)
		sum += fuzz_bytes(s->branches,
				  s->branch_nr * sizeof(*s->branches));
	if (t & PERFAN_SAMPLE_REGS_USER)
		sum += fuzz_regs(&s->user_regs);
	if (t & PERFAN_SAMPLE_STACK_USER) {
		if (s->user_stack_dyn_size > s->user_stack_size)
			fuzz_fail("user stack: dyn_size %llu > size %llu",
				  (unsigned long long)s->user_stack_dyn_size,
				  (unsigned long long)s->user_stack_size);
		sum += fuzz_bytes(s->user_stack, s->user_stack_size);
	}
	if (t & PERFAN_SAMPLE_REGS_INTR)
		sum += fuzz_regs(&s->intr_regs);
	if (t & PERFAN_SAMPLE_AUX)
		sum += fuzz_bytes(s->aux, s->aux_size);
	return sum;
}

static uint64_t fuzz_touch_record(const struct perfan_record *r)
{
	uint64_t sum;

	if (r->size < 8)
		fuzz_fail("record at %llu has size %u",
			  (unsigned long long)r->offset, r->size);
	sum = fuzz_bytes(r->raw, r->size) + fuzz_event(r->event);
	switch (r->type) {
	case PERFAN_REC_SAMPLE:
		if (r->event)
			sum += fuzz_sample(&r->u.sample);
		break;
	case PERFAN_REC_MMAP:
	case PERFAN_REC_MMAP2:
		if (r->u.mmap.build_id_size > 20)
			fuzz_fail("build-id size %u", r->u.mmap.build_id_size);
		sum += fuzz_str(r->u.mmap.filename);
		break;
	case PERFAN_REC_COMM: sum += fuzz_str(r->u.comm.comm); break;
	case PERFAN_REC_READ: sum += fuzz_read_values(&r->u.read.values); break;
	case PERFAN_REC_NAMESPACES:
		sum += fuzz_bytes(r->u.namespaces.links,
				  r->u.namespaces.nr *
					  sizeof(*r->u.namespaces.links));
		break;
	case PERFAN_REC_KSYMBOL: sum += fuzz_str(r->u.ksymbol.name); break;
	case PERFAN_REC_CGROUP: sum += fuzz_str(r->u.cgroup.path); break;
	case PERFAN_REC_TEXT_POKE:
		sum += fuzz_bytes(r->u.text_poke.bytes,
				  (uint64_t)r->u.text_poke.old_len +
					  r->u.text_poke.new_len);
		break;
	case PERFAN_REC_CALLCHAIN_DEFERRED:
		sum += fuzz_bytes(r->u.callchain_deferred.ips,
				  r->u.callchain_deferred.nr * 8);
		break;
	case PERFAN_REC_HEADER_ATTR:
		sum += fuzz_bytes(r->u.header_attr.ids,
				  r->u.header_attr.nr_ids * 8);
		break;
	case PERFAN_REC_HEADER_EVENT_TYPE:
		sum += fuzz_str(r->u.event_type.name);
		break;
	case PERFAN_REC_HEADER_TRACING_DATA:
		sum += fuzz_bytes(r->u.tracing_data.data,
				  r->u.tracing_data.size);
		break;
	case PERFAN_REC_HEADER_BUILD_ID:
		if (r->u.build_id.size > 20)
			fuzz_fail("build-id size %u", r->u.build_id.size);
		sum += fuzz_str(r->u.build_id.filename);
		break;
	case PERFAN_REC_ID_INDEX:
		sum += fuzz_bytes(r->u.id_index.entries,
				  r->u.id_index.nr *
					  sizeof(*r->u.id_index.entries));
		break;
	case PERFAN_REC_AUXTRACE_INFO:
		sum += fuzz_bytes(r->u.auxtrace_info.priv,
				  r->u.auxtrace_info.nr_priv * 8);
		break;
	case PERFAN_REC_AUXTRACE:
		sum += fuzz_bytes(r->u.auxtrace.data, r->u.auxtrace.size);
		break;
	case PERFAN_REC_AUXTRACE_ERROR:
		sum += fuzz_str(r->u.auxtrace_error.msg);
		break;
	case PERFAN_REC_THREAD_MAP:
		sum += fuzz_bytes(r->u.thread_map.entries,
				  r->u.thread_map.nr *
					  sizeof(*r->u.thread_map.entries));
		break;
	case PERFAN_REC_CPU_MAP:
		sum += fuzz_bytes(r->u.cpu_map.cpus, r->u.cpu_map.nr * 4);
		break;
	case PERFAN_REC_STAT_CONFIG:
		sum += fuzz_bytes(r->u.stat_config.entries,
				  r->u.stat_config.nr *
					  sizeof(*r->u.stat_config.entries));
		break;
	case PERFAN_REC_EVENT_UPDATE:
		if (r->u.event_update.type == PERFAN_EVENT_UPDATE_UNIT ||
		    r->u.event_update.type == PERFAN_EVENT_UPDATE_NAME)
			sum += fuzz_str(r->u.event_update.str);
		if (r->u.event_update.type == PERFAN_EVENT_UPDATE_CPUS)
			sum += fuzz_bytes(r->u.event_update.cpus.cpus,
					  r->u.event_update.cpus.nr * 4);
		break;
	case PERFAN_REC_HEADER_FEATURE:
		sum += fuzz_bytes(r->u.feature.data, r->u.feature.size);
		break;
	case PERFAN_REC_COMPRESSED:
	case PERFAN_REC_COMPRESSED2:
		sum += fuzz_bytes(r->u.compressed.data, r->u.compressed.size);
		break;
	case PERFAN_REC_BPF_METADATA:
		sum += fuzz_str(r->u.bpf_metadata.prog_name);
		sum += fuzz_bytes(r->u.bpf_metadata.entries,
				  r->u.bpf_metadata.nr_entries * 320);
		break;
	default: break;
	}
	return sum;
}

static uint64_t fuzz_strv(const char *const *v, size_t n)
{
	uint64_t sum = fuzz_bytes(v, n * sizeof(*v));

	for (size_t i = 0; i < n; i++)
		sum += fuzz_str(v[i]);
	return sum;
}

static uint64_t fuzz_touch_features(const struct perfan_features *f)
{
	uint64_t sum = 0;

	if (!f)
		fuzz_fail("no features");
	sum += fuzz_str(f->hostname) + fuzz_str(f->osrelease) +
	       fuzz_str(f->version) + fuzz_str(f->arch) + fuzz_str(f->cpudesc) +
	       fuzz_str(f->cpuid);
	sum += fuzz_strv(f->cmdline_argv, f->cmdline_argc);
	for (size_t i = 0; i < f->nr_build_ids; i++) {
		if (f->build_ids[i].size > 20)
			fuzz_fail("build-id size %u", f->build_ids[i].size);
		sum += fuzz_str(f->build_ids[i].filename);
	}
	for (size_t i = 0; i < f->nr_event_descs; i++)
		sum += fuzz_str(f->event_descs[i].name) +
		       fuzz_bytes(f->event_descs[i].ids,
				  f->event_descs[i].nr_ids * 8);
	sum += fuzz_strv(f->sibling_cores, f->nr_sibling_cores);
	sum += fuzz_strv(f->sibling_threads, f->nr_sibling_threads);
	sum += fuzz_strv(f->sibling_dies, f->nr_sibling_dies);
	sum += fuzz_bytes(f->cpu_topo, f->nr_cpu_topo * sizeof(*f->cpu_topo));
	for (size_t i = 0; i < f->nr_numa_nodes; i++)
		sum += fuzz_str(f->numa_nodes[i].cpus);
	for (size_t i = 0; i < f->nr_pmu_mappings; i++)
		sum += fuzz_str(f->pmu_mappings[i].name);
	for (size_t i = 0; i < f->nr_groups; i++)
		sum += fuzz_str(f->groups[i].name);
	for (size_t i = 0; i < f->nr_hybrid_nodes; i++)
		sum += fuzz_str(f->hybrid_nodes[i].pmu_name) +
		       fuzz_str(f->hybrid_nodes[i].cpus);
	for (size_t i = 0; i < f->nr_pmu_caps; i++)
		sum += fuzz_str(f->pmu_caps[i].pmu_name) +
		       fuzz_strv(f->pmu_caps[i].caps, f->pmu_caps[i].nr);
	sum += fuzz_bytes(f->tracing_data, f->tracing_data_size);
	for (int i = 0; i < PERFAN_FEAT_MAX; i++)
		sum += (uint64_t)perfan_features_has(f, i);
	return sum;
}

/* How one read of the input ended. */
struct fuzz_result {
	int open_rc;   /* 0, or the error perfan_perfdata_open_fd gave */
	int rc;        /* PERFAN_ITEROVER or the error that ended it */
	uint64_t nrec; /* records delivered */
	uint64_t sum;  /* of fuzz_touch_record over them */
	int pipe_mode;
	char msg[1024]; /* the error message, "" at ITEROVER */
};

static int fuzz_known_error(int rc)
{
	return rc == PERFAN_EFORMAT || rc == PERFAN_ETRUNCATED ||
	       rc == PERFAN_EUNSUPPORTED || rc == PERFAN_ENOTFOUND ||
	       rc == PERFAN_EIO || rc == PERFAN_ENOMEM || rc == PERFAN_EINVAL;
}

static void fuzz_copy_msg(struct fuzz_result *res)
{
	const char *m = perfan_error_last();
	size_t n = strlen(m);

	if (n >= sizeof(res->msg))
		n = sizeof(res->msg) - 1;
	memcpy(res->msg, m, n);
	res->msg[n] = '\0';
}

/* An error must say what happened, name the input, and not be ENOMEM: the
 * inputs are small, so running out of memory means the reader believed a
 * size it should have checked. */
static void fuzz_check_error(int rc, const char *what)
{
	const char *m = perfan_error_last();

	if (!fuzz_known_error(rc))
		fuzz_fail("%s returned %d", what, rc);
	if (!m || !*m)
		fuzz_fail("%s returned %d with no message", what, rc);
	if (!strstr(m, fuzz_input_name))
		fuzz_fail("%s: message does not name the input: %s", what, m);
	if (rc == PERFAN_ENOMEM)
		fuzz_fail("%s: out of memory on a small input: %s", what, m);
}

/* Open FD, read the header (pipe mode), every record and the features. */
static void fuzz_read_fd(int fd, size_t input_size,
			 const struct perfan_perfdata_opts *opts,
			 struct fuzz_result *res)
{
	const struct perfan_record *r;
	perfan_perfdata *pd = (perfan_perfdata *)1;
	/* records read from the input take 8 bytes or more each, so more
	 * than this means the reader is looping (decompressed records are
	 * bounded by the reader's own limit on expansion) */
	uint64_t limit = 16 + (uint64_t)input_size / 8, nraw = 0;

	memset(res, 0, sizeof(*res));
	res->open_rc = perfan_perfdata_open_fd(&pd, fd, fuzz_input_name, opts);
	if (res->open_rc) {
		if (pd)
			fuzz_fail("open failed but left a handle");
		fuzz_check_error(res->open_rc, "open");
		fuzz_copy_msg(res);
		res->rc = res->open_rc;
		return;
	}
	res->pipe_mode = perfan_perfdata_info(pd)->pipe_mode;
	res->rc = perfan_perfdata_read_header(pd);
	fuzz_sink += fuzz_touch_features(perfan_perfdata_features(pd));
	if (res->rc == 0) {
		while ((res->rc = perfan_perfdata_next(pd, &r)) == 0) {
			if (!r)
				fuzz_fail("record NULL");
			res->sum += fuzz_touch_record(r);
			res->nrec++;
			if (!r->from_compressed && ++nraw > limit)
				fuzz_fail("more than %llu records",
					  (unsigned long long)limit);
		}
	}
	if (res->rc != PERFAN_ITEROVER) {
		fuzz_check_error(res->rc, "read");
		fuzz_copy_msg(res);
		/* the reader stays at the error */
		if (perfan_perfdata_next(pd, &r) != res->rc)
			fuzz_fail("error %d is not sticky", res->rc);
	}
	for (size_t i = 0; i < perfan_perfdata_nr_events(pd); i++)
		fuzz_sink += fuzz_event(perfan_perfdata_event(pd, i));
	fuzz_sink += fuzz_touch_features(perfan_perfdata_features(pd));
	perfan_perfdata_free(pd);
}

/* A memfd holding DATA, or -1. */
static int fuzz_memfd(const uint8_t *data, size_t size)
{
	int fd = memfd_create("perfan-fuzz", MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		return -1;
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	return fd;
}

/* The read end of a pipe holding DATA (whole, writer closed), or -1. */
static int fuzz_pipe(const uint8_t *data, size_t size)
{
	int p[2];
	size_t done = 0;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	if (size > 65536 && fcntl(p[1], F_SETPIPE_SZ, (int)size) < (int)size)
		goto fail;
	while (done < size) {
		ssize_t n = write(p[1], data + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		done += (size_t)n;
	}
	close(p[1]);
	return p[0];
fail:
	close(p[0]);
	close(p[1]);
	return -1;
}

/* Read DATA every way: mapped in time order (on one thread, and for a
 * quarter of the inputs with a second reading ahead), mapped in file
 * order, and (up to 1 MiB; pipe mode, or a quarter of the others) as a
 * stream. The two threaded reads give the same records, end and message;
 * a pipe-mode input gives the same result mapped and streamed. */
static void fuzz_one(const uint8_t *data, size_t size)
{
	struct perfan_perfdata_opts o =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	struct fuzz_result ordered, threaded, unordered, stream;
	int fd = fuzz_memfd(data, size);

	if (fd < 0)
		fuzz_fail("memfd: %s", strerror(errno));
	/* the last byte picks the inputs read on two threads too, and
	 * streamed when not in pipe mode: a quarter (all of them would run a
	 * third as many inputs) */
	int more = fuzz_every_way || (size && data[size - 1] % 4 == 0);
	fuzz_read_fd(fd, size, &o, &ordered);
	o.threads = 2;
	if (more)
		fuzz_read_fd(fd, size, &o, &threaded);
	else
		threaded = ordered;
	o.threads = 1;
	if (threaded.open_rc != ordered.open_rc || threaded.rc != ordered.rc ||
	    threaded.nrec != ordered.nrec || threaded.sum != ordered.sum ||
	    strcmp(threaded.msg, ordered.msg))
		fuzz_fail("two threads: %d after %llu records (%s), one: %d "
			  "after %llu (%s)",
			  threaded.rc, (unsigned long long)threaded.nrec,
			  threaded.msg, ordered.rc,
			  (unsigned long long)ordered.nrec, ordered.msg);
	fuzz_sink += ordered.sum;
	o.unordered = 1;
	fuzz_read_fd(fd, size, &o, &unordered);
	close(fd);
	if (ordered.open_rc != unordered.open_rc)
		fuzz_fail("open: %d ordered, %d unordered", ordered.open_rc,
			  unordered.open_rc);
	/* Both read the same records; they may end at different errors
	 * (ordered delivery decodes a queued sample only when it is due, so
	 * it may first read on to a later bad record) but succeed together. */
	if ((ordered.rc == PERFAN_ITEROVER) !=
	    (unordered.rc == PERFAN_ITEROVER))
		fuzz_fail(
			"ordered read ends with %d (%s), unordered with %d (%s)",
			ordered.rc, ordered.msg, unordered.rc, unordered.msg);
	if (ordered.rc == PERFAN_ITEROVER && ordered.nrec != unordered.nrec)
		fuzz_fail("%llu records ordered, %llu unordered",
			  (unsigned long long)ordered.nrec,
			  (unsigned long long)unordered.nrec);

	if (size > (1u << 20) || (!more && !unordered.pipe_mode))
		return;
	fd = fuzz_pipe(data, size);
	if (fd < 0)
		return; /* pipe too small on this system: skip the stream */
	o.unordered = 1;
	fuzz_read_fd(fd, size, &o, &stream);
	close(fd);
	if (unordered.open_rc == 0 && unordered.pipe_mode &&
	    (stream.rc != unordered.rc || stream.nrec != unordered.nrec))
		fuzz_fail(
			"pipe mode: mapped %d after %llu records (%s), streamed %d after %llu (%s)",
			unordered.rc, (unsigned long long)unordered.nrec,
			unordered.msg, stream.rc,
			(unsigned long long)stream.nrec, stream.msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_one(data, size);
	return 0;
}
