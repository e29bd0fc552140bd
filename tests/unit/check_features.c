/* check_features.c: header features decoded by libperfan against perf's own
 * view: testdata/<case>/header.txt and buildids.txt (perf 6.1's output),
 * values perf printed for the peer-data recordings, and crafted feature
 * bytes of both byte orders, malformed ones and every truncation of real
 * ones fed straight to the decoder. */
#include <perfan/perfan.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sources/perfdata/internal.h"
#include "testutil.h"

/* ---- helpers --------------------------------------------------------------- */

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);
	size_t r;
	while (buf && (r = fread(buf + n, 1, cap - n, fp)) > 0) {
		n += r;
		if (n == cap) {
			char *nb = realloc(buf, 2 * cap + 1);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(fp);
	if (buf)
		buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* The value of the first "# KEY : value" line of perf's header output, or
 * NULL. Points into TEXT, up to the end of the line (*len bytes). */
static const char *oracle(const char *text, const char *key, size_t *len)
{
	char pat[128];
	snprintf(pat, sizeof(pat), "# %s : ", key);
	size_t pl = strlen(pat);
	for (const char *l = text; l && *l;) {
		const char *e = strchr(l, '\n');
		if (!strncmp(l, pat, pl)) {
			*len = (size_t)((e ? e : l + strlen(l)) - l) - pl;
			return l + pl;
		}
		l = e ? e + 1 : NULL;
	}
	return NULL;
}

static void check_line(const char *text, const char *key, const char *want)
{
	size_t n;
	const char *v = oracle(text, key, &n);
	ck_assert_msg(v, "perf printed no '# %s' line", key);
	ck_assert_msg(strlen(want) == n && !memcmp(v, want, n),
		      "'# %s': perf says '%.*s', libperfan '%s'", key, (int)n,
		      v, want);
}

/* perf's "# cmdline : " value: each argument and a space, quotes escaped. */
static char *cmdline_str(const struct perfan_features *f)
{
	size_t n = 1;
	for (size_t i = 0; i < f->cmdline_argc; i++)
		n += 2 * strlen(f->cmdline_argv[i]) + 1;
	char *s = malloc(n), *p = s;
	for (size_t i = 0; i < f->cmdline_argc; i++) {
		for (const char *a = f->cmdline_argv[i]; *a; a++) {
			if (*a == '\'')
				*p++ = '\\';
			*p++ = *a;
		}
		*p++ = ' ';
	}
	*p = '\0';
	return s;
}

static char *ids_str(const uint64_t *ids, size_t n)
{
	char *s = malloc(n * 24 + 1), *p = s;
	*p = '\0';
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s%" PRIu64, i ? ", " : "", ids[i]);
	return s;
}

/* Distinct (pid, filename) build ids, as perf buildid-list counts DSOs. */
static size_t nr_distinct_build_ids(const struct perfan_features *f)
{
	size_t n = 0;
	for (size_t i = 0; i < f->nr_build_ids; i++) {
		size_t k;
		for (k = 0; k < i; k++)
			if (f->build_ids[k].pid == f->build_ids[i].pid &&
			    !strcmp(f->build_ids[k].filename,
				    f->build_ids[i].filename))
				break;
		n += k == i;
	}
	return n;
}

static int has_build_id(const struct perfan_features *f, const char *hex,
			const char *file)
{
	for (size_t i = 0; i < f->nr_build_ids; i++) {
		const struct perfan_build_id_entry *b = &f->build_ids[i];
		char h[41];
		for (size_t k = 0; k < b->size && k < 20; k++)
			sprintf(h + 2 * k, "%02x", b->build_id[k]);
		h[2 * (b->size < 20 ? b->size : 20)] = '\0';
		if (!strcmp(h, hex) && !strcmp(b->filename, file))
			return 1;
	}
	return 0;
}

static perfan_perfdata *open_header(const char *path)
{
	perfan_perfdata *pd = NULL;
	int rc = perfan_perfdata_open(&pd, path, NULL);
	ck_assert_msg(rc == 0, "open %s: %s", path, perfan_error_last());
	rc = perfan_perfdata_read_header(pd);
	ck_assert_msg(rc == 0, "read_header %s: %s", path, perfan_error_last());
	return pd;
}

/* ---- names -------------------------------------------------------------------- */

START_TEST(test_feature_names)
{
	static const char *const names[] = {
		NULL,
		"tracing_data",
		"build_id",
		"hostname",
		"osrelease",
		"version",
		"arch",
		"nrcpus",
		"cpudesc",
		"cpuid",
		"total_mem",
		"cmdline",
		"event_desc",
		"cpu_topology",
		"numa_topology",
		"branch_stack",
		"pmu_mappings",
		"group_desc",
		"auxtrace",
		"stat",
		"cache",
		"sample_time",
		"mem_topology",
		"clockid",
		"dir_format",
		"bpf_prog_info",
		"bpf_btf",
		"compressed",
		"cpu_pmu_caps",
		"clock_data",
		"hybrid_topology",
		"pmu_caps",
	};
	for (int i = 0; i < 32; i++) {
		const char *n = perfan_feature_name(i);
		if (!names[i])
			ck_assert_ptr_null(n);
		else
			ck_assert_str_eq(n, names[i]);
	}
	ck_assert_ptr_null(perfan_feature_name(-1));
	ck_assert_ptr_null(perfan_feature_name(32));
	ck_assert_ptr_null(perfan_feature_name(1000));

	struct perfan_features f;
	memset(&f, 0, sizeof(f));
	f.present[0] = 1ull << 3;
	f.present[3] = 1ull << 63;
	ck_assert_int_eq(perfan_features_has(&f, 3), 1);
	ck_assert_int_eq(perfan_features_has(&f, 4), 0);
	ck_assert_int_eq(perfan_features_has(&f, 255), 1);
	ck_assert_int_eq(perfan_features_has(&f, 256), 0);
	ck_assert_int_eq(perfan_features_has(&f, -1), 0);
	ck_assert_int_eq(perfan_features_has(NULL, 3), 0);
}
END_TEST

/* ---- testdata: perf's header.txt and buildids.txt --------------------------- */

static const struct {
	const char *dir, *data, *header, *buildids;
} cases[] = {
	{"fp", "perf.data", "header.txt", "buildids.txt"},
	{"dwarf", "perf.data", "header.txt", "buildids.txt"},
	{"pipe", "perf.data", "header.txt", NULL},
	{"zstd", "perf.data", "header.txt", "buildids.txt"},
	{"two-events", "perf.data", "header.txt", "buildids.txt"},
	{"sched", "perf.data", "header.txt", "buildids.txt"},
	{"cpu-pagefaults", "perf.data", "header.txt", "buildids.txt"},
	{"multi-thread-fork", "perf.data", "header.txt", "buildids.txt"},
	{"py312-perf", "perf.data", "header.txt", "buildids.txt"},
	{"py312-perf", "perf.dwarf.data", "header.dwarf.txt",
	 "buildids.dwarf.txt"},
	{"py313-perfjit", "perf.data", "header.txt", "buildids.txt"},
	{"py313-perfjit", "perf.jit.data", "header.jit.txt",
	 "buildids.jit.txt"},
};
#define NCASES ((int)(sizeof(cases) / sizeof(cases[0])))

static void check_string_feat(const char *text, const struct perfan_features *f,
			      int feat, const char *key, const char *val)
{
	size_t n;
	const char *v = oracle(text, key, &n);
	ck_assert_msg(!!v == perfan_features_has(f, feat),
		      "'# %s': perf %s it, libperfan %s the feature", key,
		      v ? "printed" : "did not print",
		      perfan_features_has(f, feat) ? "has" : "lacks");
	if (v)
		check_line(text, key, val);
}

START_TEST(test_testdata_header)
{
	char rel[256], *data, *header;
	snprintf(rel, sizeof(rel), "%s/%s", cases[_i].dir, cases[_i].data);
	data = strdup(tu_testdata(rel));
	snprintf(rel, sizeof(rel), "%s/%s", cases[_i].dir, cases[_i].header);
	header = strdup(tu_testdata(rel));
	if (access(data, R_OK) || access(header, R_OK)) {
		char why[600];
		snprintf(why, sizeof(why), "no %s or %s", data, header);
		free(data);
		free(header);
		TU_SKIP("%s", why);
	}
	char *text = slurp(header, NULL);
	ck_assert_ptr_nonnull(text);
	perfan_perfdata *pd = open_header(data);
	const struct perfan_features *f = perfan_perfdata_features(pd);
	char buf[256];

	check_string_feat(text, f, PERFAN_FEAT_HOSTNAME, "hostname",
			  f->hostname);
	check_string_feat(text, f, PERFAN_FEAT_OSRELEASE, "os release",
			  f->osrelease);
	check_string_feat(text, f, PERFAN_FEAT_VERSION, "perf version",
			  f->version);
	check_string_feat(text, f, PERFAN_FEAT_ARCH, "arch", f->arch);
	check_string_feat(text, f, PERFAN_FEAT_CPUDESC, "cpudesc", f->cpudesc);
	check_string_feat(text, f, PERFAN_FEAT_CPUID, "cpuid", f->cpuid);
	snprintf(buf, sizeof(buf), "%u", f->nr_cpus_online);
	check_string_feat(text, f, PERFAN_FEAT_NRCPUS, "nrcpus online", buf);
	snprintf(buf, sizeof(buf), "%u", f->nr_cpus_avail);
	check_string_feat(text, f, PERFAN_FEAT_NRCPUS, "nrcpus avail", buf);
	snprintf(buf, sizeof(buf), "%" PRIu64 " kB", f->total_mem_kb);
	check_string_feat(text, f, PERFAN_FEAT_TOTAL_MEM, "total memory", buf);
	char *cl = cmdline_str(f);
	check_string_feat(text, f, PERFAN_FEAT_CMDLINE, "cmdline", cl);
	free(cl);
	if (perfan_features_has(f, PERFAN_FEAT_SAMPLE_TIME)) {
		uint64_t t = f->first_sample_time;
		snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64,
			 t / 1000000000, t % 1000000000 / 1000);
		check_line(text, "time of first sample", buf);
		t = f->last_sample_time;
		snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64,
			 t / 1000000000, t % 1000000000 / 1000);
		check_line(text, "time of last sample", buf);
	}
	if (perfan_features_has(f, PERFAN_FEAT_COMPRESSED)) {
		snprintf(buf, sizeof(buf), "%s, level = %u, ratio = %u",
			 f->comp_type == 1 ? "Zstd" : "Unknown", f->comp_level,
			 f->comp_ratio);
		check_line(text, "compressed", buf);
	} else {
		size_t n;
		ck_assert_ptr_null(oracle(text, "compressed", &n));
	}
	if (perfan_features_has(f, PERFAN_FEAT_PMU_MAPPINGS)) {
		/* "# pmu mappings: a = 1, b = 2" (no space before the colon) */
		char *want = malloc(64 + 80 * f->nr_pmu_mappings), *p = want;
		p += sprintf(p, "# pmu mappings: ");
		for (size_t i = 0; i < f->nr_pmu_mappings; i++)
			p += sprintf(p, "%s%s = %u", i ? ", " : "",
				     f->pmu_mappings[i].name,
				     f->pmu_mappings[i].type);
		strcpy(p, "\n");
		ck_assert_msg(strstr(text, want), "no '%s' in perf's output",
			      want);
		free(want);
	}
	if (perfan_features_has(f, PERFAN_FEAT_CLOCK_DATA)) {
		snprintf(buf, sizeof(buf), "# clockid: %s (%u)\n",
			 f->clock_data_clockid == 1 ? "monotonic" : "?",
			 f->clock_data_clockid);
		ck_assert_msg(strstr(text, buf), "no '%s' in perf's output",
			      buf);
	}

	/* "# event : name = NAME, , id = { 1, 2 }, type = ..." per desc */
	size_t k = 0;
	for (const char *l = strstr(text, "# event : name = "); l;
	     l = strstr(l + 1, "\n# event : name = ")) {
		if (*l == '\n')
			l++;
		ck_assert_msg(perfan_features_has(f, PERFAN_FEAT_EVENT_DESC),
			      "perf printed events, libperfan has no "
			      "event_desc");
		ck_assert_uint_lt(k, f->nr_event_descs);
		const struct perfan_event_desc *d = &f->event_descs[k];
		char *ids = ids_str(d->ids, d->nr_ids);
		char *want = malloc(strlen(d->name) + strlen(ids) + 64);
		if (d->nr_ids)
			sprintf(want, "# event : name = %s, , id = { %s }, ",
				d->name, ids);
		else
			sprintf(want, "# event : name = %s, , ", d->name);
		ck_assert_msg(!strncmp(l, want, strlen(want)),
			      "event %zu: perf '%.*s', libperfan '%s'", k,
			      (int)strcspn(l, "\n"), l, want);
		/* the reader names its events from event_desc */
		ck_assert_uint_gt(perfan_perfdata_nr_events(pd), k);
		ck_assert_str_eq(perfan_perfdata_event(pd, k)->name, d->name);
		free(want);
		free(ids);
		k++;
	}
	if (perfan_features_has(f, PERFAN_FEAT_EVENT_DESC))
		ck_assert_uint_eq(k, f->nr_event_descs);

	/* build ids, as perf buildid-list printed them (file mode) */
	if (cases[_i].buildids &&
	    perfan_features_has(f, PERFAN_FEAT_BUILD_ID)) {
		snprintf(rel, sizeof(rel), "%s/%s", cases[_i].dir,
			 cases[_i].buildids);
		char *bt = slurp(tu_testdata(rel), NULL);
		ck_assert_ptr_nonnull(bt);
		size_t lines = 0;
		for (char *l = strtok(bt, "\n"); l; l = strtok(NULL, "\n")) {
			char *sp = strchr(l, ' ');
			ck_assert_ptr_nonnull(sp);
			*sp = '\0';
			ck_assert_msg(has_build_id(f, l, sp + 1),
				      "build id %s %s not decoded", l, sp + 1);
			lines++;
		}
		ck_assert_uint_eq(lines, nr_distinct_build_ids(f));
		free(bt);
	}

	perfan_perfdata_free(pd);
	free(text);
	free(data);
	free(header);
}
END_TEST

/* ---- peer data: what perf 6.1 printed for each recording ------------------ */

struct peer_case {
	const char *file;
	/* NULL where perf printed no such line (feature absent) */
	const char *hostname, *osrelease, *version, *arch;
	const char *cpudesc, *cpuid;
	unsigned online, avail;
	uint64_t total_mem_kb;
	const char *cmdline; /* as perf prints it: trailing space */
	const char *events;  /* event_desc names joined by '|' */
	size_t first_nr_ids;
	uint64_t first_id;
	const char *groups; /* "{a,b}" lines joined by '|' */
	int nr_build_ids;   /* perf buildid-list lines; -1: not checked */
};

static const struct peer_case peers[] = {
	{"perf.data.armv7-3.4", "localhost", "3.4.0", "3.4.2842.g784f12",
	 "armv7l", "ARMv7 Processor rev 4 (v7l)", NULL, 2, 2, 2067704,
	 "/usr/sbin/perf record -a -e cycles,instructions,cache-references,cache-misses,branches,branch-misses -o perf.data.arm -- sleep 2 ",
	 "cycles|instructions|cache-references|cache-misses|branches|branch-misses",
	 2, 1, NULL, 14},
	{"perf.data.branch-4.14", "localhost", "4.14.18", "", "x86_64",
	 "Intel(R) Core(TM) m7-6Y75 CPU @ 1.20GHz", "GenuineIntel,6,78,3", 4, 4,
	 16299868,
	 "/usr/bin/perf record -b -o /tmp/perf.data.branch-4.14 -- echo Hello, World! ",
	 "cycles:ppp", 0, 0, NULL, 3},
	{"perf.data.branch_stack_spec", "mvca28.prod.google.com",
	 "4.15.0-smp-9xx", "5.19.0-4-GOOGLE-gbb83c99d3d0a", "x86_64",
	 "AMD Eng Sample: 100-000000894-04", "AuthenticAMD,25,17,0", 384, 384,
	 1585149188,
	 "/usr/bin/perf5 record --event=rc4 -c 50 -b -o perf.data -- /usr/bin/lsattr ",
	 "rc4", 384, 531962, NULL, 2},
	{"perf.data.busy.0-3.4", "localhost", "3.4.0", "3.4.3075.g7c8725",
	 "x86_64", "Intel(R) Core(TM) i5-2467M CPU @ 1.60GHz", NULL, 4, 4,
	 3990140,
	 "/usr/local/perf record -a -e cycles,instructions,cache-references,cache-misses,branches,branch-misses -o perf.data.busy.0 -- sleep 0 ",
	 "cycles|instructions|cache-references|cache-misses|branches|branch-misses",
	 4, 5, NULL, 8},
	{"perf.data.busy.0-3.8", "localhost", "3.8.11", "3.8.11.gec358",
	 "x86_64", "Intel(R) Core(TM) i5-2467M CPU @ 1.60GHz",
	 "GenuineIntel,6,42,7", 4, 4, 3989152,
	 "/usr/sbin/perf record -a -e cycles,instructions,cache-references,cache-misses,branches,branch-misses -c 1000000 -o perf.data.busy.0.next -- sleep 0 ",
	 "cycles|instructions|cache-references|cache-misses|branches|branch-misses",
	 4, 894, NULL, 2},
	{"perf.data.busy.1-3.4", "localhost", "3.4.0", "3.4.3075.g7c8725",
	 "x86_64", "Intel(R) Core(TM) i5-2467M CPU @ 1.60GHz", NULL, 4, 4,
	 3990140,
	 "/usr/local/perf record -a -e cycles,instructions,cache-references,cache-misses,branches,branch-misses -o perf.data.busy.1 -- sleep 1 ",
	 "cycles|instructions|cache-references|cache-misses|branches|branch-misses",
	 4, 77, NULL, 15},
	{"perf.data.callgraph-3.4", "localhost", "3.4.0", "3.4.2642.g0aa604",
	 "x86_64", "Intel(R) Celeron(R) CPU 867 @ 1.30GHz", NULL, 2, 2, 3990204,
	 "/usr/sbin/perf record -g -a -o perf.data.callgraph -- sleep 2 ",
	 "cycles", 2, 207, NULL, 16},
	{"perf.data.callgraph-3.8", "localhost", "3.8.11", "3.8.11.g047ea3",
	 "x86_64", "Intel(R) Core(TM) i5-2467M CPU @ 1.60GHz",
	 "GenuineIntel,6,42,7", 4, 4, 3989076,
	 "/usr/sbin/perf record -o perf.data.callgraph.next -a -g -- sleep 2 ",
	 "cycles", 4, 81, NULL, 16},
	{"perf.data.callgraph_and_branch-3.4", "localhost", "3.4.0",
	 "3.4.2642.g0aa604", "x86_64", "Intel(R) Celeron(R) CPU 867 @ 1.30GHz",
	 NULL, 2, 2, 3990204,
	 "/usr/sbin/perf record -g -b -a -o perf.data.callchain_and_branch -- sleep 2 ",
	 "cycles", 2, 19, NULL, 12},
	{"perf.data.ctx_switch_namespaces-4.14", "localhost", "4.14.18", "",
	 "x86_64", "Intel(R) Core(TM) m7-6Y75 CPU @ 1.20GHz",
	 "GenuineIntel,6,78,3", 4, 4, 16299868,
	 "/usr/bin/perf record --switch-events --namespace -e cycles -o /tmp/perf.data.ctx_switch_namespace-4.14 -- sleep 0.001 ",
	 "cycles", 0, 0, NULL, 2},
	{"perf.data.forkexit-3.4", "localhost", "3.4.0", "3.4.2642.g0aa604",
	 "x86_64", "Intel(R) Celeron(R) CPU 867 @ 1.30GHz", NULL, 2, 2, 3990204,
	 "/usr/sbin/perf record -e cycles,instructions,cache-references,cache-misses,branches,branch-misses -o perf.data.forkexit -a -- sleep 2 ",
	 "cycles|instructions|cache-references|cache-misses|branches|branch-misses",
	 2, 191, NULL, 53},
	{"perf.data.group_desc-4.14", "localhost", "4.14.18", "", "x86_64",
	 "Intel(R) Core(TM) m7-6Y75 CPU @ 1.20GHz", "GenuineIntel,6,78,3", 4, 4,
	 16299868,
	 "/usr/bin/perf record -e {cache-references,branch-misses} -o /tmp/perf.data.group_desc-4.14 -- echo Hello, World! ",
	 "cache-references|branch-misses", 4, 150,
	 "{cache-references,branch-misses}", 3},
	{"perf.data.hw_and_sw-3.4", "localhost", "3.4.0", "", "x86_64",
	 "Intel(R) Core(TM) i5-2467M CPU @ 1.60GHz", "GenuineIntel,6,42,7", 4,
	 4, 3989564,
	 "/usr/bin/perf record -a -c 1000000 -e cycles,branch-misses,cpu-clock -o perf.data.hw_and_sw -- sleep 2 ",
	 "cycles|branch-misses|cpu-clock", 4, 206, NULL, 9},
	{"perf.data.i686-3.4", "localhost", "3.4.0", "3.4.2818.ga9d300", "i686",
	 "Intel(R) Atom(TM) CPU N570 @ 1.66GHz", "GenuineIntel,6,28,10", 4, 4,
	 1934964,
	 "/usr/sbin/perf record -a -e cycles,instructions,cache-references,cache-misses,branches,branch-misses -o perf.data.i686 -- sleep 2 ",
	 "cycles|instructions|cache-references|cache-misses|branches|branch-misses",
	 4, 49, NULL, 6},
	{"perf.data.intel_pt-4.14", "localhost", "4.14.18", "", "x86_64",
	 "Intel(R) Core(TM) m7-6Y75 CPU @ 1.20GHz", "GenuineIntel,6,78,3", 4, 4,
	 16299868,
	 "/usr/bin/perf record -e cycles -e intel_pt// -o /tmp/perf.data.intel_pt-4.14 -- echo Hello, World! ",
	 "intel_pt//|cycles|dummy:u|dummy:u", 4, 124, NULL, 66},
	{"perf.data.lost_samples-4.4", "localhost", "4.14.18", "4.4", "x86_64",
	 "Intel(R) Celeron(R) 2955U @ 1.40GHz", "GenuineIntel,6,69,1", 2, 2,
	 1915144,
	 "/usr/bin/perf record -e {cycles:pp,instructions:pp,branch-instructions:pp} -P -c 20003 -o /tmp/perf.data -- echo Hello, World! ",
	 "cycles:pp|instructions:pp|branch-instructions:pp", 2, 289,
	 "{cycles:pp,instructions:pp,branch-instructions:pp}", 5},
	{"perf.data.numatopology-3.2", "sq.mtv.corp.google.com", "3.2.5-gg1236",
	 "3.3.0-7-GOOGLE", "x86_64", "Intel(R) Xeon(R) CPU E5-2690 0 @ 2.90GHz",
	 "GenuineIntel,6,45,7", 32, 32, 65904780,
	 "/google/data/ro/projects/goprofiled/perf.3.3.0-7 record -a -- sleep 0 ",
	 "cycles", 32, 98, NULL, 4},
	{"perf.data.piped.corrupted.zero_size_sample-3.2", NULL, NULL, NULL,
	 NULL, NULL, NULL, 0, 0, 0, NULL, NULL, 0, 0, NULL, -1},
	{"perf.data.piped.ctx_switch_namespaces-4.14", "localhost", "4.14.27",
	 "", "x86_64", "Intel(R) Core(TM) m7-6Y75 CPU @ 1.20GHz",
	 "GenuineIntel,6,78,3", 4, 4, 16299856,
	 "/usr/bin/perf record --switch-events --namespace -e cycles -o - -- sleep 0.001 ",
	 "cycles", 0, 0, NULL, -1},
	{"perf.data.piped.header_features-4.16", "instance-1",
	 "4.4.0-116-generic", "4.16.rc5.g3032f8", "x86_64",
	 "Intel(R) Xeon(R) CPU @ 2.20GHz", "GenuineIntel,6,79,0", 2, 2, 7659268,
	 "/tmp/perf record -e cycles -o - -- echo Hello, World! ", "cpu-clock",
	 2, 767, NULL, -1},
	{"perf.data.piped.header_feautres_group_desc-6.8",
	 "skanev.svl.corp.google.com", "6.6.15-2rodete2-amd64",
	 "6.8.0-12-GOOGLE", "x86_64", "Intel(R) Xeon(R) W-2135 CPU @ 3.70GHz",
	 "GenuineIntel,6,85,4", 12, 12, 65434092,
	 "/google/bin/images/image-661e485a-0000-27c1-9c01-2405888070fc/usr/bin/perf5 record -e {cycles,instructions} -o - -- echo Hello, World! ",
	 "cycles:u|instructions:u", 12, 76, "{cycles:u,instructions:u}", -1},
	{"perf.data.piped.hw_and_sw-3.4", NULL, NULL, NULL, NULL, NULL, NULL, 0,
	 0, 0, NULL, NULL, 0, 0, NULL, -1},
	{"perf.data.piped.intel_pt-4.14", "localhost", "4.14.18", "", "x86_64",
	 "Intel(R) Core(TM) m7-6Y75 CPU @ 1.20GHz", "GenuineIntel,6,78,3", 4, 4,
	 16299868,
	 "/usr/bin/perf record -e intel_pt// -e cycles -o - -- echo Hello, World! ",
	 "intel_pt//|cycles|dummy:u|dummy:u", 4, 148, NULL, -1},
	{"perf.data.piped.no_attr_ids-4.14", "localhost", "4.14.18", "",
	 "x86_64", "Intel(R) Core(TM) m7-6Y75 CPU @ 1.20GHz",
	 "GenuineIntel,6,78,3", 4, 4, 16299868,
	 "/usr/bin/perf record -e cycles -o - -- sleep 0.001 ", "cycles", 0, 0,
	 NULL, -1},
	{"perf.data.piped.target-3.4", NULL, NULL, NULL, NULL, NULL, NULL, 0, 0,
	 0, NULL, NULL, 0, 0, NULL, -1},
	{"perf.data.piped.target-3.8", NULL, NULL, NULL, NULL, NULL, NULL, 0, 0,
	 0, NULL, NULL, 0, 0, NULL, -1},
	{"perf.data.raw-3.4", "localhost", "3.4.0", "3.4.0", "x86_64",
	 "Intel(R) Core(TM) i5-2467M CPU @ 1.60GHz", NULL, 4, 4, 3990112,
	 "/usr/sbin/perf record -a -R -o perf.data.raw -- sleep 2 ", "cycles",
	 4, 9, NULL, 11},
	{"perf.data.remmap-3.2", "asharif-z620.nyc.corp.google.com",
	 "3.2.5-gg1236", "3.4.3015.g70f994", "x86_64",
	 "Intel(R) Xeon(R) CPU E5-2690 0 @ 2.90GHz", "GenuineIntel,6,45,7", 32,
	 32, 65904780, "/usr/sbin/perf record ./mmap_perf_test ", "cycles", 32,
	 4166, NULL, 3},
	{"perf.data.singleprocess-3.4", "localhost", "3.4.0",
	 "3.4.2642.g0aa604", "x86_64", "Intel(R) Celeron(R) CPU 867 @ 1.30GHz",
	 NULL, 2, 2, 3990204,
	 "/usr/sbin/perf record -e cycles,instructions,cache-references,cache-misses,branches,branch-misses -o perf.data.singleprocess -- echo ",
	 "cycles|instructions|cache-references|cache-misses|branches|branch-misses",
	 2, 11, NULL, 3},
	{"perf.data.singleprocess-3.8", "localhost", "3.8.11", "3.8.11.g047ea3",
	 "x86_64", "Intel(R) Core(TM) i5-2467M CPU @ 1.60GHz",
	 "GenuineIntel,6,42,7", 4, 4, 3989076,
	 "/usr/sbin/perf record -o perf.data.singleprocess.next -- echo ",
	 "cycles", 4, 37, NULL, 1},
	{"perf.data.systemwide.0-3.4", "localhost", "3.4.0", "3.4.2642.g0aa604",
	 "x86_64", "Intel(R) Celeron(R) CPU 867 @ 1.30GHz", NULL, 2, 2, 3990204,
	 "/usr/sbin/perf record -e cycles,instructions,cache-references,cache-misses,branches,branch-misses -o perf.data.systemwide.0 -a -- sleep 0 ",
	 "cycles|instructions|cache-references|cache-misses|branches|branch-misses",
	 2, 23, NULL, 6},
	{"perf.data.systemwide.0-3.8", "localhost", "3.8.11", "3.8.11.g047ea3",
	 "x86_64", "Intel(R) Core(TM) i5-2467M CPU @ 1.60GHz",
	 "GenuineIntel,6,42,7", 4, 4, 3989076,
	 "/usr/sbin/perf record -a -o perf.data.systemwide.0.next -- sleep 0 ",
	 "cycles", 4, 65, NULL, 1},
	{"perf.data.systemwide.1-3.4", "localhost", "3.4.0", "3.4.2642.g0aa604",
	 "x86_64", "Intel(R) Celeron(R) CPU 867 @ 1.30GHz", NULL, 2, 2, 3990204,
	 "/usr/sbin/perf record -e cycles,instructions,cache-references,cache-misses,branches,branch-misses -o perf.data.systemwide.1 -a -- sleep 1 ",
	 "cycles|instructions|cache-references|cache-misses|branches|branch-misses",
	 2, 35, NULL, 15},
	{"perf.data.systemwide.1-3.8", "localhost", "3.8.11", "3.8.11.g047ea3",
	 "x86_64", "Intel(R) Core(TM) i5-2467M CPU @ 1.60GHz",
	 "GenuineIntel,6,42,7", 4, 4, 3989076,
	 "/usr/sbin/perf record -a -o perf.data.systemwide.1.next -- sleep 1 ",
	 "cycles", 4, 69, NULL, 10},
	{"perf.data.systemwide.5-3.4", "localhost", "3.4.0", "3.4.2642.g0aa604",
	 "x86_64", "Intel(R) Celeron(R) CPU 867 @ 1.30GHz", NULL, 2, 2, 3990204,
	 "/usr/sbin/perf record -e cycles,instructions,cache-references,cache-misses,branches,branch-misses -o perf.data.systemwide.5 -a -- sleep 5 ",
	 "cycles|instructions|cache-references|cache-misses|branches|branch-misses",
	 2, 47, NULL, 31},
	{"perf.data.throttle-3.8", "localhost", "3.8.11", "3.8.11.gec358",
	 "x86_64", "Intel(R) Core(TM) i5-2467M CPU @ 1.60GHz",
	 "GenuineIntel,6,42,7", 4, 4, 3989152,
	 "/usr/sbin/perf record -a -e cycles,instructions -c 10000 -- sleep 2 ",
	 "cycles|instructions", 4, 141, NULL, 23},
};
#define NPEERS ((int)(sizeof(peers) / sizeof(peers[0])))

static void expect_str(const char *what, const char *file, int has,
		       const char *got, const char *want)
{
	ck_assert_msg(has == (want != NULL), "%s: %s: feature %s, perf %s",
		      file, what, has ? "present" : "absent",
		      want ? "printed it" : "did not");
	if (want)
		ck_assert_msg(!strcmp(got, want),
			      "%s: %s: libperfan '%s', perf '%s'", file, what,
			      got, want);
}

START_TEST(test_peer_data)
{
	const struct peer_case *c = &peers[_i];
	char rel[256];
	snprintf(rel, sizeof(rel), "perf.data/%s", c->file);
	TU_REQUIRE_PEERDATA(rel);
	char *path = strdup(tu_peerdata(rel));
	perfan_perfdata *pd = open_header(path);
	const struct perfan_features *f = perfan_perfdata_features(pd);
#define HAS(x) perfan_features_has(f, PERFAN_FEAT_##x)
	expect_str("hostname", c->file, HAS(HOSTNAME), f->hostname,
		   c->hostname);
	expect_str("os release", c->file, HAS(OSRELEASE), f->osrelease,
		   c->osrelease);
	expect_str("perf version", c->file, HAS(VERSION), f->version,
		   c->version);
	expect_str("arch", c->file, HAS(ARCH), f->arch, c->arch);
	expect_str("cpudesc", c->file, HAS(CPUDESC), f->cpudesc, c->cpudesc);
	expect_str("cpuid", c->file, HAS(CPUID), f->cpuid, c->cpuid);
	if (c->online) {
		ck_assert(HAS(NRCPUS));
		ck_assert_uint_eq(f->nr_cpus_online, c->online);
		ck_assert_uint_eq(f->nr_cpus_avail, c->avail);
	}
	if (c->total_mem_kb) {
		ck_assert(HAS(TOTAL_MEM));
		ck_assert_uint_eq(f->total_mem_kb, c->total_mem_kb);
	}
	char *cl = cmdline_str(f);
	expect_str("cmdline", c->file, HAS(CMDLINE), cl, c->cmdline);
	free(cl);

	if (c->events) {
		ck_assert(HAS(EVENT_DESC));
		size_t n = 1;
		for (const char *p = c->events; *p; p++)
			n += *p == '|';
		ck_assert_uint_eq(f->nr_event_descs, n);
		const char *p = c->events;
		for (size_t i = 0; i < n; i++) {
			size_t len = strcspn(p, "|");
			ck_assert_msg(strlen(f->event_descs[i].name) == len &&
					      !memcmp(f->event_descs[i].name, p,
						      len),
				      "%s: event %zu: libperfan '%s', perf "
				      "'%.*s'",
				      c->file, i, f->event_descs[i].name,
				      (int)len, p);
			p += len + 1;
		}
		ck_assert_uint_eq(f->event_descs[0].nr_ids, c->first_nr_ids);
		if (c->first_nr_ids)
			ck_assert_uint_eq(f->event_descs[0].ids[0],
					  c->first_id);
	} else {
		ck_assert(!HAS(EVENT_DESC));
	}

	if (c->groups) {
		/* "{leader,member,...}" from group_desc and the event names */
		char want[1024], *w = want;
		ck_assert(HAS(GROUP_DESC));
		for (size_t g = 0; g < f->nr_groups; g++) {
			const struct perfan_group_desc *gd = &f->groups[g];
			w += sprintf(w, "%s%s{", g ? "|" : "",
				     gd->name ? gd->name : "");
			for (uint32_t m = 0; m < gd->nr_members; m++)
				w += sprintf(w, "%s%s", m ? "," : "",
					     perfan_perfdata_event(
						     pd, gd->leader_idx + m)
						     ->name);
			w += sprintf(w, "}");
		}
		ck_assert_str_eq(want, c->groups);
	}

	if (c->nr_build_ids >= 0) {
		if (c->nr_build_ids > 0)
			ck_assert(HAS(BUILD_ID));
		ck_assert_uint_eq(nr_distinct_build_ids(f),
				  (size_t)c->nr_build_ids);
	}
#undef HAS
	perfan_perfdata_free(pd);
	free(path);
}
END_TEST

/* ---- crafted feature bytes straight to the decoder ----------------------- */

/* A reader with nothing but what the decoder uses. */
static struct perfan_perfdata *fake_pd(int swap)
{
	struct perfan_perfdata *pd = calloc(1, sizeof(*pd));
	ck_assert_ptr_nonnull(pd);
	pd->name = strdup("crafted.data");
	pd->swap = swap;
	return pd;
}

static void fake_free(struct perfan_perfdata *pd)
{
	perfan__arena_free(&pd->arena);
	free(pd->name);
	free(pd);
}

/* Bytes in the writer's order: big-endian when BE. */
struct wbuf {
	uint8_t b[4096];
	size_t n;
	int be;
};

static void w_u8(struct wbuf *w, uint8_t v)
{
	w->b[w->n++] = v;
}

static void w_uint(struct wbuf *w, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++) {
		int sh = w->be ? 8 * (bytes - 1 - i) : 8 * i;
		w_u8(w, (uint8_t)(v >> sh));
	}
}

static void w_u16(struct wbuf *w, uint16_t v)
{
	w_uint(w, v, 2);
}

static void w_u32(struct wbuf *w, uint32_t v)
{
	w_uint(w, v, 4);
}

static void w_u64(struct wbuf *w, uint64_t v)
{
	w_uint(w, v, 8);
}

/* perf_header_string: length including the NUL, padded to PAD. */
static void w_str(struct wbuf *w, const char *s, size_t pad)
{
	size_t n = strlen(s) + 1;
	size_t len = (n + pad - 1) / pad * pad;
	w_u32(w, (uint32_t)len);
	memset(w->b + w->n, 0, len);
	memcpy(w->b + w->n, s, n - 1);
	w->n += len;
}

static int host_is_be(void)
{
	const uint16_t one = 1;
	return *(const uint8_t *)&one == 0;
}

/* Decode W as feature FEAT, read by a host of the other order if SWAP. */
static int decode(struct perfan_perfdata *pd, int feat, const struct wbuf *w)
{
	/* an exact-size heap copy, so that a sanitizer sees any overread */
	uint8_t *copy = malloc(w->n ? w->n : 1);
	memcpy(copy, w->b, w->n);
	int rc = perfan__feature_decode(pd, feat, copy, w->n, 0x1000);
	free(copy);
	return rc;
}

START_TEST(test_strings_both_orders)
{
	for (int swap = 0; swap < 2; swap++) {
		struct perfan_perfdata *pd = fake_pd(swap);
		struct wbuf w = {.be = host_is_be() ^ swap};
		w_str(&w, "myhost", 64);
		ck_assert_int_eq(decode(pd, PERFAN_FEAT_HOSTNAME, &w), 0);
		ck_assert_str_eq(pd->feat.hostname, "myhost");
		ck_assert(perfan_features_has(&pd->feat, PERFAN_FEAT_HOSTNAME));

		/* a string filling its length exactly, no NUL */
		w.n = 0;
		w_u32(&w, 4);
		memcpy(w.b + w.n, "x86_", 4);
		w.n += 4;
		ck_assert_int_eq(decode(pd, PERFAN_FEAT_ARCH, &w), 0);
		ck_assert_str_eq(pd->feat.arch, "x86_");

		/* nrcpus: available first, then online */
		w.n = 0;
		w_u32(&w, 8);
		w_u32(&w, 4);
		ck_assert_int_eq(decode(pd, PERFAN_FEAT_NRCPUS, &w), 0);
		ck_assert_uint_eq(pd->feat.nr_cpus_avail, 8);
		ck_assert_uint_eq(pd->feat.nr_cpus_online, 4);

		w.n = 0;
		w_u64(&w, 16 * 1024 * 1024);
		ck_assert_int_eq(decode(pd, PERFAN_FEAT_TOTAL_MEM, &w), 0);
		ck_assert_uint_eq(pd->feat.total_mem_kb, 16 * 1024 * 1024);

		w.n = 0;
		w_u32(&w, 3);
		w_str(&w, "/usr/bin/perf", 64);
		w_str(&w, "record", 8);
		w_str(&w, "it's", 4);
		ck_assert_int_eq(decode(pd, PERFAN_FEAT_CMDLINE, &w), 0);
		ck_assert_uint_eq(pd->feat.cmdline_argc, 3);
		ck_assert_str_eq(pd->feat.cmdline_argv[0], "/usr/bin/perf");
		ck_assert_str_eq(pd->feat.cmdline_argv[2], "it's");

		w.n = 0;
		w_u64(&w, 1000000123);
		w_u64(&w, 2000000456);
		ck_assert_int_eq(decode(pd, PERFAN_FEAT_SAMPLE_TIME, &w), 0);
		ck_assert_uint_eq(pd->feat.first_sample_time, 1000000123);
		ck_assert_uint_eq(pd->feat.last_sample_time, 2000000456);
		fake_free(pd);
	}
}
END_TEST

START_TEST(test_malformed_strings)
{
	struct perfan_perfdata *pd = fake_pd(0);
	struct wbuf w = {.be = host_is_be()};
	/* length past the end */
	w_u32(&w, 64);
	memcpy(w.b + w.n, "host", 5);
	w.n += 5;
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_HOSTNAME, &w), PERFAN_EFORMAT);
	ck_assert_ptr_null(pd->feat.hostname);
	ck_assert(!perfan_features_has(&pd->feat, PERFAN_FEAT_HOSTNAME));
	const char *msg = perfan_error_last();
	ck_assert_msg(strstr(msg, "crafted.data") && strstr(msg, "hostname") &&
			      strstr(msg, "offset 4096"),
		      "message '%s' names file, feature and offset", msg);

	/* too short for the length itself */
	w.n = 2;
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_OSRELEASE, &w), PERFAN_EFORMAT);
	w.n = 0;
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_NRCPUS, &w), PERFAN_EFORMAT);

	/* a count no input can hold: refused before any allocation */
	w.n = 0;
	w_u32(&w, 0xffffffffu);
	w_str(&w, "a", 8);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_CMDLINE, &w), PERFAN_EFORMAT);
	ck_assert(strstr(perfan_error_last(), "cmdline"));
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_NUMA_TOPOLOGY, &w),
			 PERFAN_EFORMAT);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_PMU_MAPPINGS, &w),
			 PERFAN_EFORMAT);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_GROUP_DESC, &w),
			 PERFAN_EFORMAT);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_HYBRID_TOPOLOGY, &w),
			 PERFAN_EFORMAT);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_PMU_CAPS, &w), PERFAN_EFORMAT);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_CPU_PMU_CAPS, &w),
			 PERFAN_EFORMAT);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_EVENT_DESC, &w),
			 PERFAN_EFORMAT);

	/* out-of-range feature numbers; unknown ones are only marked */
	ck_assert_int_eq(decode(pd, 0, &w), PERFAN_EFORMAT);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_MAX, &w), PERFAN_EFORMAT);
	ck_assert_int_eq(decode(pd, 40, &w), 0);
	ck_assert(perfan_features_has(&pd->feat, 40));
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_STAT, &w), 0);
	ck_assert(perfan_features_has(&pd->feat, PERFAN_FEAT_STAT));
	fake_free(pd);
}
END_TEST

static void w_attr(struct wbuf *w, uint32_t type, uint64_t config,
		   uint32_t size)
{
	size_t start = w->n;
	w_u32(w, type);
	w_u32(w, size);
	w_u64(w, config);
	memset(w->b + w->n, 0, size - (w->n - start));
	w->n = start + size;
}

START_TEST(test_event_desc)
{
	for (int swap = 0; swap < 2; swap++) {
		struct perfan_perfdata *pd = fake_pd(swap);
		struct wbuf w = {.be = host_is_be() ^ swap};
		w_u32(&w, 2);
		w_u32(&w, 136);
		w_attr(&w, 1, 0, 136);
		w_u32(&w, 2);
		w_str(&w, "cpu-clock", 64);
		w_u64(&w, 11);
		w_u64(&w, 12);
		w_attr(&w, 0, 1, 136);
		w_u32(&w, 0);
		w_str(&w, "instructions:u", 64);
		ck_assert_int_eq(decode(pd, PERFAN_FEAT_EVENT_DESC, &w), 0);
		const struct perfan_features *f = &pd->feat;
		ck_assert_uint_eq(f->nr_event_descs, 2);
		ck_assert_str_eq(f->event_descs[0].name, "cpu-clock");
		ck_assert_uint_eq(f->event_descs[0].attr_type, 1);
		ck_assert_uint_eq(f->event_descs[0].nr_ids, 2);
		ck_assert_uint_eq(f->event_descs[0].ids[1], 12);
		ck_assert_str_eq(f->event_descs[1].name, "instructions:u");
		ck_assert_uint_eq(f->event_descs[1].attr_type, 0);
		ck_assert_uint_eq(f->event_descs[1].attr_config, 1);
		ck_assert_uint_eq(f->event_descs[1].nr_ids, 0);

		/* ids running past the end */
		w.n -= 4 + 64;
		w_u32(&w, 1000);
		w_str(&w, "x", 8);
		ck_assert_int_eq(decode(pd, PERFAN_FEAT_EVENT_DESC, &w),
				 PERFAN_EFORMAT);
		ck_assert(!perfan_features_has(f, PERFAN_FEAT_EVENT_DESC));
		/* attr size below the first ABI's 64 bytes */
		w.n = 0;
		w_u32(&w, 1);
		w_u32(&w, 8);
		w_u64(&w, 0);
		w_u32(&w, 0);
		w_str(&w, "x", 8);
		ck_assert_int_eq(decode(pd, PERFAN_FEAT_EVENT_DESC, &w),
				 PERFAN_EFORMAT);
		fake_free(pd);
	}
}
END_TEST

/* One perf_record_header_build_id; SIZE 0 leaves the size bit clear. */
static void w_build_id(struct wbuf *w, uint16_t misc, int32_t pid,
		       uint8_t first, uint8_t size, const char *file)
{
	size_t flen = (strlen(file) + 1 + 63) / 64 * 64;
	w_u32(w, 67);
	w_u16(w, (uint16_t)(misc | (size ? 1u << 15 : 0)));
	w_u16(w, (uint16_t)(36 + flen));
	w_u32(w, (uint32_t)pid);
	for (int i = 0; i < 20; i++)
		w_u8(w, (uint8_t)(first + i));
	w_u8(w, size);
	w_u8(w, 0);
	w_u16(w, 0);
	memset(w->b + w->n, 0, flen);
	memcpy(w->b + w->n, file, strlen(file));
	w->n += flen;
}

START_TEST(test_build_ids)
{
	for (int swap = 0; swap < 2; swap++) {
		struct perfan_perfdata *pd = fake_pd(swap);
		struct wbuf w = {.be = host_is_be() ^ swap};
		w_build_id(&w, 1, -1, 0x10, 0, "[kernel.kallsyms]");
		w_build_id(&w, 2, 1234, 0xa0, 16, "/usr/bin/prog");
		ck_assert_int_eq(decode(pd, PERFAN_FEAT_BUILD_ID, &w), 0);
		const struct perfan_features *f = &pd->feat;
		ck_assert_uint_eq(f->nr_build_ids, 2);
		ck_assert_int_eq(f->build_ids[0].pid, -1);
		ck_assert_uint_eq(f->build_ids[0].size, 20);
		ck_assert_uint_eq(f->build_ids[0].build_id[19], 0x10 + 19);
		ck_assert_uint_eq(f->build_ids[0].misc & 7, 1);
		ck_assert_str_eq(f->build_ids[0].filename, "[kernel.kallsyms]");
		ck_assert_int_eq(f->build_ids[1].pid, 1234);
		ck_assert_uint_eq(f->build_ids[1].size, 16);
		ck_assert_uint_eq(f->build_ids[1].build_id[0], 0xa0);
		ck_assert_str_eq(f->build_ids[1].filename, "/usr/bin/prog");

		/* a record size past the end, and one that would loop */
		size_t good = w.n;
		w_build_id(&w, 2, 1, 0, 0, "/x");
		w.b[good + (w.be ? 7 : 6)] = 0xff;
		w.b[good + (w.be ? 6 : 7)] = 0x7f;
		ck_assert_int_eq(decode(pd, PERFAN_FEAT_BUILD_ID, &w),
				 PERFAN_EFORMAT);
		w.b[good + 6] = w.b[good + 7] = 0;
		ck_assert_int_eq(decode(pd, PERFAN_FEAT_BUILD_ID, &w),
				 PERFAN_EFORMAT);
		ck_assert(strstr(perfan_error_last(), "build_id"));
		fake_free(pd);
	}
}
END_TEST

START_TEST(test_build_ids_without_pid)
{
	/* perf before 2.6.34: header, build_id[24], filename; no pid */
	struct perfan_perfdata *pd = fake_pd(0);
	struct wbuf w = {.be = host_is_be()};
	const char *names[] = {"[kernel.kallsyms]", "/lib/libc.so"};
	for (int k = 0; k < 2; k++) {
		w_u32(&w, 67);
		w_u16(&w, k ? 2 : 1);
		w_u16(&w, 32 + 64);
		for (int i = 0; i < 24; i++)
			w_u8(&w, (uint8_t)(k * 0x40 + i));
		memset(w.b + w.n, 0, 64);
		memcpy(w.b + w.n, names[k], strlen(names[k]));
		w.n += 64;
	}
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_BUILD_ID, &w), 0);
	ck_assert_uint_eq(pd->feat.nr_build_ids, 2);
	ck_assert_str_eq(pd->feat.build_ids[0].filename, "[kernel.kallsyms]");
	ck_assert_int_eq(pd->feat.build_ids[0].pid, -1);
	ck_assert_uint_eq(pd->feat.build_ids[0].build_id[0], 0);
	ck_assert_str_eq(pd->feat.build_ids[1].filename, "/lib/libc.so");
	ck_assert_uint_eq(pd->feat.build_ids[1].build_id[1], 0x41);
	fake_free(pd);
}
END_TEST

START_TEST(test_cpu_topology)
{
	struct perfan_perfdata *pd = fake_pd(0);
	struct wbuf w = {.be = host_is_be()};
	w_u32(&w, 2); /* nrcpus: 2 available, 2 online */
	w_u32(&w, 2);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_NRCPUS, &w), 0);

	w.n = 0;
	w_u32(&w, 1);
	w_str(&w, "0-1", 64);
	w_u32(&w, 2);
	w_str(&w, "0", 64);
	w_str(&w, "1", 64);
	size_t lists = w.n;
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_CPU_TOPOLOGY, &w), 0);
	const struct perfan_features *f = &pd->feat;
	ck_assert_uint_eq(f->nr_sibling_cores, 1);
	ck_assert_str_eq(f->sibling_cores[0], "0-1");
	ck_assert_uint_eq(f->nr_sibling_threads, 2);
	ck_assert_str_eq(f->sibling_threads[1], "1");
	ck_assert_uint_eq(f->nr_cpu_topo, 0);

	for (int cpu = 0; cpu < 2; cpu++) {
		w_u32(&w, (uint32_t)cpu); /* core */
		w_u32(&w, 0);             /* socket */
	}
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_CPU_TOPOLOGY, &w), 0);
	ck_assert_uint_eq(f->nr_cpu_topo, 2);
	ck_assert_int_eq(f->cpu_topo[1].core_id, 1);
	ck_assert_int_eq(f->cpu_topo[1].die_id, -1);
	ck_assert_uint_eq(f->nr_sibling_dies, 0);

	w_u32(&w, 1);
	w_str(&w, "0-1", 64);
	w_u32(&w, 0);
	w_u32(&w, 7);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_CPU_TOPOLOGY, &w), 0);
	ck_assert_uint_eq(f->nr_sibling_dies, 1);
	ck_assert_int_eq(f->cpu_topo[1].die_id, 7);

	/* the ids of one cpu only */
	w.n = lists + 8;
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_CPU_TOPOLOGY, &w),
			 PERFAN_EFORMAT);
	ck_assert(!perfan_features_has(f, PERFAN_FEAT_CPU_TOPOLOGY));
	fake_free(pd);
}
END_TEST

START_TEST(test_small_features)
{
	struct perfan_perfdata *pd = fake_pd(0);
	struct wbuf w = {.be = host_is_be()};
	const struct perfan_features *f = &pd->feat;

	/* compressed: perf writes the mmap length as u32 (20 bytes) */
	w_u32(&w, 1);
	w_u32(&w, 1);
	w_u32(&w, 3);
	w_u32(&w, 9);
	w_u32(&w, 528384);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_COMPRESSED, &w), 0);
	ck_assert_uint_eq(f->comp_type, 1);
	ck_assert_uint_eq(f->comp_level, 3);
	ck_assert_uint_eq(f->comp_ratio, 9);
	ck_assert_uint_eq(f->comp_mmap_len, 528384);

	w.n = 0;
	w_u32(&w, 1);
	w_u32(&w, 1);
	w_u64(&w, 1700000000123456789ull);
	w_u64(&w, 5000000001ull);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_CLOCK_DATA, &w), 0);
	ck_assert_uint_eq(f->clock_data_clockid, 1);
	ck_assert_uint_eq(f->clock_data_tod_ns, 1700000000123456789ull);
	ck_assert_uint_eq(f->clock_data_clockid_ns, 5000000001ull);
	w.b[w.be ? 3 : 0] = 2; /* version 2: a layout we do not know */
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_CLOCK_DATA, &w),
			 PERFAN_EUNSUPPORTED);

	w.n = 0;
	w_u64(&w, 1);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_CLOCKID, &w), 0);
	ck_assert_uint_eq(f->clockid_res_ns, 1);

	w.n = 0;
	w_u32(&w, 2);
	w_str(&w, "{anon_group}", 64);
	w_u32(&w, 0);
	w_u32(&w, 2);
	w_str(&w, "mine", 64);
	w_u32(&w, 2);
	w_u32(&w, 3);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_GROUP_DESC, &w), 0);
	ck_assert_uint_eq(f->nr_groups, 2);
	ck_assert_ptr_null(f->groups[0].name);
	ck_assert_str_eq(f->groups[1].name, "mine");
	ck_assert_uint_eq(f->groups[1].leader_idx, 2);
	ck_assert_uint_eq(f->groups[1].nr_members, 3);

	w.n = 0;
	w_u32(&w, 2);
	w_u32(&w, 4);
	w_str(&w, "cpu", 64);
	w_u32(&w, 1);
	w_str(&w, "software", 64);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_PMU_MAPPINGS, &w), 0);
	ck_assert_uint_eq(f->nr_pmu_mappings, 2);
	ck_assert_str_eq(f->pmu_mappings[1].name, "software");
	ck_assert_uint_eq(f->pmu_mappings[0].type, 4);

	w.n = 0;
	w_u32(&w, 1);
	w_u32(&w, 0);
	w_u64(&w, 1000);
	w_u64(&w, 500);
	w_str(&w, "0-3", 64);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_NUMA_TOPOLOGY, &w), 0);
	ck_assert_uint_eq(f->nr_numa_nodes, 1);
	ck_assert_uint_eq(f->numa_nodes[0].mem_free, 500);
	ck_assert_str_eq(f->numa_nodes[0].cpus, "0-3");

	w.n = 0;
	w_u32(&w, 2);
	w_str(&w, "cpu_core", 64);
	w_str(&w, "0-7", 64);
	w_str(&w, "cpu_atom", 64);
	w_str(&w, "8-15", 64);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_HYBRID_TOPOLOGY, &w), 0);
	ck_assert_uint_eq(f->nr_hybrid_nodes, 2);
	ck_assert_str_eq(f->hybrid_nodes[1].cpus, "8-15");

	/* tracing data outside a mapped file is copied */
	w.n = 0;
	w_u32(&w, 0x12345678);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_TRACING_DATA, &w), 0);
	ck_assert_uint_eq(f->tracing_data_size, 4);
	ck_assert_int_eq(memcmp(f->tracing_data, w.b, 4), 0);
	fake_free(pd);
}
END_TEST

START_TEST(test_pmu_caps_share)
{
	struct perfan_perfdata *pd = fake_pd(0);
	struct wbuf w = {.be = host_is_be()};
	const struct perfan_features *f = &pd->feat;

	w_u32(&w, 2);
	w_u32(&w, 1);
	w_str(&w, "max_precise", 64);
	w_str(&w, "3", 64);
	w_str(&w, "intel_pt", 64);
	w_u32(&w, 0);
	w_str(&w, "cpu_atom", 64);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_PMU_CAPS, &w), 0);
	ck_assert_uint_eq(f->nr_pmu_caps, 2);

	w.n = 0;
	w_u32(&w, 2);
	w_str(&w, "branches", 64);
	w_str(&w, "32", 64);
	w_str(&w, "pmu_name", 64);
	w_str(&w, "skylake", 64);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_CPU_PMU_CAPS, &w), 0);
	ck_assert_uint_eq(f->nr_pmu_caps, 3);
	/* the cpu's own first, then the others in file order */
	ck_assert_ptr_null(f->pmu_caps[0].pmu_name);
	ck_assert_uint_eq(f->pmu_caps[0].nr, 2);
	ck_assert_str_eq(f->pmu_caps[0].caps[0], "branches=32");
	ck_assert_str_eq(f->pmu_caps[0].caps[1], "pmu_name=skylake");
	ck_assert_str_eq(f->pmu_caps[1].pmu_name, "intel_pt");
	ck_assert_str_eq(f->pmu_caps[1].caps[0], "max_precise=3");
	ck_assert_str_eq(f->pmu_caps[2].pmu_name, "cpu_atom");
	ck_assert_uint_eq(f->pmu_caps[2].nr, 0);

	/* decoding one again replaces only its own entries */
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_CPU_PMU_CAPS, &w), 0);
	ck_assert_uint_eq(f->nr_pmu_caps, 3);
	fake_free(pd);
}
END_TEST

/* ---- BPF_PROG_INFO and BPF_BTF ------------------------------------------------ */

/* perf's lines for the BPF programs (# bpf_prog_info, # \tsub_prog and # btf
 * info lines of header.offcpu.txt), made from what libperfan decoded. */
static void bpf_lines(const struct perfan_features *f, char *out, size_t cap)
{
	size_t n = 0;
	out[0] = '\0';
	for (size_t i = 0; i < f->nr_bpf_progs; i++) {
		const struct perfan_bpf_prog *b = &f->bpf_progs[i];
		const struct perfan_bpf_subprog *s = b->subprogs;
		if (b->nr_subprogs == 1) {
			n += snprintf(out + n, cap - n,
				      "# bpf_prog_info %u: %s addr 0x%" PRIx64
				      " size %u\n",
				      b->id, s[0].name, s[0].addr, s[0].size);
			continue;
		}
		n += snprintf(out + n, cap - n, "# bpf_prog_info %u:\n", b->id);
		for (size_t k = 0; k < b->nr_subprogs; k++)
			n += snprintf(out + n, cap - n,
				      "# \tsub_prog %zu: %s addr 0x%" PRIx64
				      " size %u\n",
				      k, s[k].name, s[k].addr, s[k].size);
	}
	for (size_t i = 0; i < f->nr_bpf_btfs; i++)
		n += snprintf(out + n, cap - n, "# btf info of id %u\n",
			      f->bpf_btfs[i].id);
	ck_assert_uint_lt(n, cap);
}

/* perf --off-cpu loads its BPF programs while recording: the header names
 * them as perf does, function names from their BTF. */
START_TEST(test_bpf_testdata)
{
	char *data = strdup(tu_testdata("offcpu/perf.offcpu.data"));
	char *header = strdup(tu_testdata("offcpu/header.offcpu.txt"));
	if (access(data, R_OK) || access(header, R_OK)) {
		free(data);
		free(header);
		TU_SKIP("no offcpu/perf.offcpu.data");
	}
	char *text = slurp(header, NULL);
	ck_assert_ptr_nonnull(text);
	char want[4096] = "", got[4096];
	size_t n = 0;
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) + 1 : strlen(l);
		if (!strncmp(l, "# bpf_prog_info ", 16) ||
		    !strncmp(l, "# \tsub_prog ", 12) ||
		    !strncmp(l, "# btf info of id ", 17)) {
			ck_assert_uint_lt(n + len, sizeof(want));
			memcpy(want + n, l, len);
			want[n += len] = '\0';
		}
		l += len;
	}
	perfan_perfdata *pd = open_header(data);
	const struct perfan_features *f = perfan_perfdata_features(pd);
	ck_assert(perfan_features_has(f, PERFAN_FEAT_BPF_PROG_INFO));
	ck_assert(perfan_features_has(f, PERFAN_FEAT_BPF_BTF));
	ck_assert_uint_eq(f->nr_bpf_progs, 2);
	bpf_lines(f, got, sizeof(got));
	ck_assert_msg(!strcmp(got, want), "perf:\n%slibperfan:\n%s", want, got);
	/* the second function's name is only in the BTF */
	ck_assert_ptr_nonnull(strstr(got, "_get_cgroup_id addr"));
	ck_assert_str_eq(f->bpf_progs[1].name, "on_switch");
	ck_assert_uint_eq(f->bpf_progs[1].btf_id, f->bpf_btfs[0].id);
	perfan_perfdata_free(pd);
	free(text);
	free(data);
	free(header);
}
END_TEST

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* One struct perf_bpil in host order: program ID named NAME with NSUB
 * functions at 0xffffffffc0000000 + 0x100 k, size 16 + k, tag bytes k+1;
 * a func_info naming BTF type 2 when BTF_ID; INFO_LEN bytes of info
 * (232 normally); the tags' count TAGS (NSUB when consistent); the jited
 * addresses at offset KSYM_OFF of the data. */
static void w_bpil(struct wbuf *w, uint32_t id, const char *name, uint32_t nsub,
		   uint32_t btf_id, uint32_t info_len, uint32_t tags,
		   uint64_t ksym_off)
{
	uint8_t info[240] = {0}, data[256] = {0};
	uint32_t dl = 0;
	uint64_t ks = dl, ln, tg, fi;
	dl += 8 * nsub;
	ln = dl, dl += 4 * nsub;
	dl = (dl + 7) & ~7u;
	tg = dl, dl += 8 * nsub;
	fi = dl, dl += 8 * nsub;
	for (uint32_t k = 0; k < nsub; k++) {
		put64(data + ks + 8 * k, 0xffffffffc0000000ull + 0x100 * k);
		put32(data + ln + 4 * k, 16 + k);
		memset(data + tg + 8 * k, (int)k + 1, 8);
		put32(data + fi + 8 * k, 0);
		put32(data + fi + 8 * k + 4, 2);
	}
	put32(info + 4, id);
	memcpy(info + 64, name, strlen(name));
	put32(info + 104, nsub);
	put32(info + 108, nsub);
	put64(info + 112, ksym_off == UINT64_MAX ? ks : ksym_off);
	put64(info + 120, ln);
	put32(info + 128, btf_id);
	put32(info + 132, 8);
	put64(info + 136, fi);
	put32(info + 144, btf_id ? nsub : 0);
	put32(info + 180, tags);
	put64(info + 184, tg);
	w_u32(w, info_len);
	w_u32(w, dl);
	w_u64(w, 1u << 3 | 1u << 4 | 1u << 5 | 1u << 8);
	memcpy(w->b + w->n, info, info_len);
	w->n += info_len;
	memcpy(w->b + w->n, data, dl);
	w->n += dl;
}

START_TEST(test_bpf_crafted)
{
	struct perfan_perfdata *pd = fake_pd(0);
	struct wbuf w = {.be = host_is_be()};
	const struct perfan_features *f = &pd->feat;
	char got[2048];

	/* two programs, out of id order, one id twice (perf keeps the
	 * first); one counting its tags wrong (perf prints nothing) */
	w_u32(&w, 4);
	w_bpil(&w, 7, "one", 1, 5, 232, 1, UINT64_MAX);
	w_bpil(&w, 3, "two", 2, 0, 232, 2, UINT64_MAX);
	w_bpil(&w, 7, "again", 1, 0, 232, 1, UINT64_MAX);
	w_bpil(&w, 9, "bad", 2, 0, 232, 1, UINT64_MAX);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_BPF_PROG_INFO, &w), 0);
	bpf_lines(f, got, sizeof(got));
	/* no BTF yet: one function takes the program's name, more are F */
	ck_assert_str_eq(
		got, "# bpf_prog_info 3:\n"
		     "# \tsub_prog 0: bpf_prog_0101010101010101_F addr "
		     "0xffffffffc0000000 size 16\n"
		     "# \tsub_prog 1: bpf_prog_0202020202020202_F addr "
		     "0xffffffffc0000100 size 17\n"
		     "# bpf_prog_info 7: bpf_prog_0101010101010101_one addr "
		     "0xffffffffc0000000 size 16\n");

	/* the BTF names program 7's function: type 2, a FUNC, after an INT */
	w.n = 0;
	static const char str[] = "\0int\0my_func";
	uint8_t btf[24 + 16 + 12 + sizeof(str)] = {0};
	put32(btf, 0xeb9f | 1u << 16); /* magic, version 1, flags 0 */
	put32(btf + 4, 24);
	put32(btf + 8, 0);
	put32(btf + 12, 28);
	put32(btf + 16, 28);
	put32(btf + 20, sizeof(str));
	put32(btf + 24, 1);         /* "int" */
	put32(btf + 28, 1u << 24);  /* INT */
	put32(btf + 32, 4);         /* size */
	put32(btf + 36, 32);        /* encoding, bits */
	put32(btf + 40, 5);         /* "my_func" */
	put32(btf + 44, 12u << 24); /* FUNC */
	put32(btf + 48, 0);
	memcpy(btf + 52, str, sizeof(str));
	w_u32(&w, 2);
	w_u32(&w, 5);
	w_u32(&w, sizeof(btf));
	memcpy(w.b + w.n, btf, sizeof(btf));
	w.n += sizeof(btf);
	w_u32(&w, 4);
	w_u32(&w, 3);
	memcpy(w.b + w.n, "bad", 3);
	w.n += 3;
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_BPF_BTF, &w), 0);
	ck_assert_uint_eq(f->nr_bpf_btfs, 2);
	ck_assert_uint_eq(f->bpf_btfs[0].id, 4);
	bpf_lines(f, got, sizeof(got));
	ck_assert_ptr_nonnull(strstr(
		got, "# bpf_prog_info 7: bpf_prog_0101010101010101_my_func "));
	ck_assert_ptr_nonnull(strstr(got, "# btf info of id 4\n"
					  "# btf info of id 5\n"));

	/* a longer info than perf's, addresses outside the data, and a
	 * truncated program: errors, the feature absent */
	w.n = 0;
	w_u32(&w, 1);
	w_bpil(&w, 1, "long", 1, 0, 240, 1, UINT64_MAX);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_BPF_PROG_INFO, &w),
			 PERFAN_EFORMAT);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "more than perf's"));
	w.n = 0;
	w_u32(&w, 1);
	w_bpil(&w, 1, "far", 1, 0, 232, 1, 4096);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_BPF_PROG_INFO, &w),
			 PERFAN_EFORMAT);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "jited addresses"));
	w.n -= 3;
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_BPF_PROG_INFO, &w),
			 PERFAN_EFORMAT);
	fake_free(pd);

	/* perf does not read them from a file of the other byte order */
	pd = fake_pd(1);
	w.n = 0;
	w.be = !host_is_be();
	w_u32(&w, 0);
	w_u32(&w, 0);
	ck_assert_int_eq(decode(pd, PERFAN_FEAT_BPF_BTF, &w), 0);
	ck_assert_uint_eq(pd->feat.nr_bpf_btfs, 0);
	fake_free(pd);
}
END_TEST

/* Every prefix of every feature section of real recordings: a decoder
 * either succeeds or fails cleanly, never reads past the prefix. */
static void truncations_of(const char *path)
{
	size_t flen;
	char *file = slurp(path, &flen);
	ck_assert_ptr_nonnull(file);
	perfan_perfdata *real = open_header(path);
	const struct perfan_features *rf = perfan_perfdata_features(real);
	struct perfan_perfdata *pd =
		fake_pd(perfan_perfdata_info(real)->needs_swap);
	/* topology needs the cpu count */
	pd->feat.present[0] |= 1ull << PERFAN_FEAT_NRCPUS;
	pd->feat.nr_cpus_avail = rf->nr_cpus_avail;
	for (int feat = 1; feat < 32; feat++) {
		uint64_t off = rf->section_offset[feat];
		uint64_t size = rf->section_size[feat];
		if (!size || off > flen || size > flen - off || size > 16384)
			continue;
		for (uint64_t n = 0; n <= size; n++) {
			uint8_t *copy = malloc(n ? n : 1);
			memcpy(copy, file + off, n);
			int rc = perfan__feature_decode(pd, feat, copy, n, off);
			free(copy);
			ck_assert_msg(rc == 0 || rc == PERFAN_EFORMAT ||
					      rc == PERFAN_EUNSUPPORTED,
				      "%s: feature %d, %llu of %llu bytes: %d",
				      path, feat, (unsigned long long)n,
				      (unsigned long long)size, rc);
			if (n == size)
				ck_assert_msg(rc == 0,
					      "%s: feature %d whole: %s", path,
					      feat, perfan_error_last());
		}
	}
	perfan_perfdata_free(real);
	fake_free(pd);
	free(file);
}

START_TEST(test_truncations)
{
	const char *path = tu_testdata("fp/perf.data");
	if (access(path, R_OK))
		TU_SKIP("no %s", path);
	char *p = strdup(path);
	truncations_of(p);
	free(p);
}
END_TEST

/* BPF_PROG_INFO and the BPF_BTF that names its functions */
START_TEST(test_truncations_offcpu)
{
	const char *path = tu_testdata("offcpu/perf.offcpu.data");
	if (access(path, R_OK))
		TU_SKIP("no %s", path);
	char *p = strdup(path);
	truncations_of(p);
	free(p);
}
END_TEST

START_TEST(test_truncations_peer)
{
	static const char *const files[] = {
		"perf.data/perf.data.group_desc-4.14",
		"perf.data/perf.data.numatopology-3.2",
		"perf.data/perf.data.armv7-3.4",
		"perf.data/perf.data.intel_pt-4.14",
	};
	TU_REQUIRE_PEERDATA(files[_i]);
	char *p = strdup(tu_peerdata(files[_i]));
	truncations_of(p);
	free(p);
}
END_TEST

static Suite *features_suite(void)
{
	Suite *s = suite_create("features");
	TCase *tc = tcase_create("decode");
	tcase_add_test(tc, test_feature_names);
	tcase_add_test(tc, test_strings_both_orders);
	tcase_add_test(tc, test_malformed_strings);
	tcase_add_test(tc, test_event_desc);
	tcase_add_test(tc, test_build_ids);
	tcase_add_test(tc, test_build_ids_without_pid);
	tcase_add_test(tc, test_cpu_topology);
	tcase_add_test(tc, test_small_features);
	tcase_add_test(tc, test_pmu_caps_share);
	tcase_add_test(tc, test_bpf_crafted);
	suite_add_tcase(s, tc);

	tc = tcase_create("testdata");
	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, test_testdata_header, 0, NCASES);
	tcase_add_test(tc, test_truncations);
	tcase_add_test(tc, test_bpf_testdata);
	tcase_add_test(tc, test_truncations_offcpu);
	suite_add_tcase(s, tc);

	tc = tcase_create("peerdata");
	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, test_peer_data, 0, NPEERS);
	tcase_add_loop_test(tc, test_truncations_peer, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(features_suite)
