/* check_bpftrace.c: bpftrace 0.17's printed maps (testdata/bpftrace/) read
 * through the registry: detection against perf script, folded, py-spy and
 * perf.data inputs; every key layout with its total equal to the sum of
 * the map's values (counted here from the raw text), kernel frames under
 * user frames, the roots and options; several maps; the reader on every
 * prefix (complete entries kept, the cut said with its offset) and on
 * damaged copies (through the fuzz target). */
#define _GNU_SOURCE
#include "../fuzz/fuzz_bpftrace.c"

#include "testutil.h"

static const char *const files[] = {
	"kstack-ustack-comm-pid.txt",
	"kstack-ustack.txt",
	"ustack.txt",
	"kstack.txt",
	"comm-kstack.txt",
	"ustack-comm.txt",
	"ustack-perf.txt",
	"kstack-perf-ustack-perf-pid.txt",
	"two-maps.txt",
	"json.txt",
	"ustack-json.txt",
	"python-ustack.txt",
};
#define NFILES (sizeof(files) / sizeof(files[0]))

static const char *path_of(const char *file)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "bpftrace/%s", file);
	return tu_testdata(rel);
}

/* The sum of the values of the entries of MAP (NULL: all) complete in
 * TEXT[0..N): text entries end in "]: COUNT\n" (the count after the last
 * "]: " of a line that belongs to MAP's entry), a JSON map is one whole
 * line of `"KEY": COUNT` members. */
static uint64_t values_sum(const char *text, size_t n, const char *map)
{
	uint64_t sum = 0;
	int in_map = 0;
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(text + i, '\n', n - i);
		if (!nl)
			break; /* a cut line counts nothing */
		size_t len = (size_t)(nl - text - i);
		const char *l = text + i;
		if (len && l[0] == '@') {
			size_t k = strcspn(l, "[");
			in_map = !map ||
				 (strlen(map) == k && !memcmp(l, map, k));
		}
		if (len > 15 && !memcmp(l, "{\"type\": \"map\"", 14)) {
			/* "@name": { ... } members "...": N */
			char *line = strndup(l, len);
			char want[300];
			snprintf(want, sizeof(want), "\"%s\": {",
				 map ? map : "@");
			char *at = strstr(line, want);
			for (char *q = at ? at + strlen(want) : NULL; q;) {
				char *c = strstr(q, "\": ");
				if (!c)
					break;
				char *end;
				unsigned long long v =
					strtoull(c + 3, &end, 10);
				if (end > c + 3 && (*end == ',' || *end == '}'))
					sum += v;
				q = c + 3;
			}
			free(line);
		} else if (in_map) {
			/* "]: N" ending the line */
			size_t j = len;
			while (j && l[j - 1] >= '0' && l[j - 1] <= '9')
				j--;
			if (j < len && j >= 3 && !memcmp(l + j - 3, "]: ", 3))
				sum += strtoull(l + j, NULL, 10);
		}
		i += len + 1;
	}
	return sum;
}

static perfan_profile *load_file(const char *file,
				 const struct perfan_source_opts *o)
{
	perfan_source *s = NULL;
	ck_assert_int_eq(perfan_source_open(&s, path_of(file), o), 0);
	ck_assert_str_eq(perfan_source_format(s), "bpftrace");
	ck_assert_uint_eq(perfan_source_caps(s), PERFAN_SOURCE_COUNTED |
							 PERFAN_SOURCE_EVENTS |
							 PERFAN_SOURCE_FRAMES);
	perfan_profile *p = NULL;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	int rc = perfan_source_load(s, p, NULL);
	ck_assert_msg(rc == 0, "%s: %s", file, perfan_error_last());
	perfan_source_free(s);
	return p;
}

static const struct perfan_frame *frame_of(const perfan_profile *p,
					   perfan_node_id n)
{
	return perfan_profile_frame_get(p, perfan_profile_node_frame(p, n));
}

/* The frame named NAME, or NULL. */
static const struct perfan_frame *find_frame(const perfan_profile *p,
					     const char *name)
{
	for (size_t i = 0; i < perfan_profile_nr_frames(p); i++) {
		const struct perfan_frame *f =
			perfan_profile_frame_get(p, (perfan_frame_id)i);
		if (!strcmp(f->name, name))
			return f;
	}
	return NULL;
}

/* ---- detection --------------------------------------------------------- */

START_TEST(test_detect)
{
	for (size_t i = 0; i < NFILES; i++) {
		size_t len;
		char *b = tu_slurp(path_of(files[i]), &len);
		ck_assert_msg(perfan_source_detect(b, len) &&
				      !strcmp(perfan_source_detect(b, len),
					      "bpftrace"),
			      "%s: %s", files[i], perfan_source_detect(b, len));
		free(b);
	}
	static const struct {
		const char *file, *format;
	} others[] = {
		{"fp/script.txt", "perf script"},
		{"fp/perf.data", "perf.data"},
		{"script-wild/kernel.kernel.flamegraph.folded", "folded"},
	};
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		size_t len;
		char *b = tu_slurp(tu_testdata(others[i].file), &len);
		const char *f = perfan_source_detect(b, len);
		ck_assert_msg(f && !strcmp(f, others[i].format), "%s: %s",
			      others[i].file, f ? f : "none");
		free(b);
	}
	/* py-spy --format raw lines are py-spy's, not bpftrace's */
	static const char pyspy[] =
		"<module> (workload.py:40);main (workload.py:35);summarize_slow "
		"(workload.py:12) 63\n";
	ck_assert_str_eq(perfan_source_detect(pyspy, sizeof(pyspy) - 1),
			 "py-spy");
	/* nor is a folded line that begins with '@' */
	static const char at[] = "@x;main;f 3\n";
	ck_assert_str_eq(perfan_source_detect(at, sizeof(at) - 1), "folded");
	/* bpftrace's first line alone, as bpftrace prints it before any map
	 * (or with nothing after it), and newer bpftrace's stderr line */
	static const char *const starts[] = {
		"Attaching 2 probes...\n",
		"Attaching 1 probe...\n\n\n@[\n",
		"Attached 2 probes\n",
		"{\"type\": \"attached_probes\", \"data\": {\"probes\": 2}}\n",
		"\n@[spin, \n",
	};
	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		const char *f =
			perfan_source_detect(starts[i], strlen(starts[i]));
		ck_assert_msg(f && !strcmp(f, "bpftrace"), "'%s': %s",
			      starts[i], f ? f : "none");
	}
	const char *f = perfan_source_detect("Attaching probes\n", 17);
	ck_assert(!f || strcmp(f, "bpftrace"));
}
END_TEST

/* ---- every layout ------------------------------------------------------ */

/* What each file holds: its layout as COMMAND says. */
static int has(const char *file, const char *what)
{
	return strstr(file, what) != NULL;
}

START_TEST(test_layout)
{
	const char *file = files[_i];
	struct perfan_source_opts o =
		PERFAN_OPTS_INIT(struct perfan_source_opts);
	o.root = PERFAN_ROOT_COMM;
	perfan_profile *p = load_file(file, &o);
	size_t len;
	char *text = tu_slurp(path_of(file), &len);
	int two = has(file, "two-maps");
	ck_assert_uint_eq(perfan_profile_nr_columns(p), two ? 2 : 1);
	for (size_t c = 0; c < perfan_profile_nr_columns(p); c++) {
		const char *map = perfan_profile_column_name(p, c);
		ck_assert_str_eq(map, two ? (c ? "@u" : "@k") : "@");
		ck_assert_str_eq(perfan_profile_column_unit(p, c), "samples");
		uint64_t want = values_sum(text, len, map);
		ck_assert_msg(want > 100, "%s: %llu", file,
			      (unsigned long long)want);
		ck_assert_msg(perfan_profile_total(p, c) == want,
			      "%s %s: total %llu, the values sum to %llu", file,
			      map,
			      (unsigned long long)perfan_profile_total(p, c),
			      (unsigned long long)want);
	}
	/* kernel frames are the kernel's, below user frames only */
	int kernel = 0, process = 0;
	for (perfan_node_id n = 1; n < perfan_profile_nr_nodes(p); n++) {
		const struct perfan_frame *f = frame_of(p, n);
		perfan_node_id up = perfan_profile_node_parent(p, n);
		if (f->kind == PERFAN_FRAME_KERNEL) {
			kernel = 1;
			ck_assert_str_eq(f->module, "[kernel.kallsyms]");
		} else if (up != PERFAN_ROOT_NODE) {
			ck_assert_msg(
				frame_of(p, up)->kind != PERFAN_FRAME_KERNEL,
				"%s: %s under a kernel frame", file, f->name);
		}
		if (f->kind == PERFAN_FRAME_PROCESS) {
			process = 1;
			ck_assert_uint_eq(up, PERFAN_ROOT_NODE);
		}
	}
	ck_assert_int_eq(kernel, has(file, "kstack") ||
					 !strcmp(file, "json.txt") || two);
	ck_assert_int_eq(process, has(file, "comm") || has(file, "pid") ||
					  !strcmp(file, "json.txt"));
	if (!has(file, "python")) {
		/* the workload's functions, offsets gone, as native code */
		int user = has(file, "ustack") || two || has(file, "json");
		const struct perfan_frame *f = find_frame(p, "hot_a");
		ck_assert_int_eq(f != NULL, user);
		if (f) {
			ck_assert_uint_eq(f->kind, PERFAN_FRAME_NATIVE);
			if (has(file, "perf"))
				ck_assert_str_eq(f->module, "spin");
			else
				ck_assert_ptr_null(f->module);
		}
		if (has(file, "kstack") || two)
			ck_assert_ptr_nonnull(find_frame(
				p, "entry_SYSCALL_64_after_hwframe"));
	} else {
		/* unresolved addresses: [unknown] frames */
		const struct perfan_frame *f = find_frame(p, "[unknown]");
		ck_assert_ptr_nonnull(f);
		ck_assert_uint_eq(f->kind, PERFAN_FRAME_UNKNOWN);
		ck_assert_ptr_nonnull(
			find_frame(p, "_PyEval_EvalFrameDefault"));
	}
	free(text);
	perfan_profile_free(p);
}
END_TEST

/* ---- roots and options ------------------------------------------------- */

static int root_named(const perfan_profile *p, const char *name, int32_t *pid)
{
	size_t nk;
	const perfan_node_id *kids;
	nk = perfan_profile_node_children(p, PERFAN_ROOT_NODE, &kids);
	for (size_t i = 0; i < nk; i++) {
		const struct perfan_frame *f = frame_of(p, kids[i]);
		if (!strcmp(f->name, name)) {
			ck_assert_uint_eq(f->kind, PERFAN_FRAME_PROCESS);
			*pid = f->pid;
			return 1;
		}
	}
	return 0;
}

START_TEST(test_roots)
{
	size_t len;
	char *text = tu_slurp(path_of("kstack-ustack-comm-pid.txt"), &len);
	const char *at = strstr(text, ", spin, ");
	ck_assert_ptr_nonnull(at);
	int pid = atoi(at + 8);
	ck_assert_int_gt(pid, 0);
	char name[64];
	int32_t got;
	struct perfan_source_opts o =
		PERFAN_OPTS_INIT(struct perfan_source_opts);

	o.root = PERFAN_ROOT_COMM;
	perfan_profile *p = load_file("kstack-ustack-comm-pid.txt", &o);
	ck_assert(root_named(p, "spin", &got));
	ck_assert_int_eq(got, pid);
	perfan_profile_free(p);

	o.root = PERFAN_ROOT_PID;
	p = load_file("kstack-ustack-comm-pid.txt", &o);
	snprintf(name, sizeof(name), "spin-%d", pid);
	ck_assert(root_named(p, name, &got));
	perfan_profile_free(p);

	/* no tid key: comm-pid */
	o.root = PERFAN_ROOT_PID_TID;
	p = load_file("kstack-ustack-comm-pid.txt", &o);
	ck_assert(root_named(p, name, &got));
	perfan_profile_free(p);

	o.root = PERFAN_ROOT_NONE;
	p = load_file("kstack-ustack-comm-pid.txt", &o);
	for (size_t i = 0; i < perfan_profile_nr_frames(p); i++)
		ck_assert_uint_ne(
			perfan_profile_frame_get(p, (perfan_frame_id)i)->kind,
			PERFAN_FRAME_PROCESS);
	ck_assert_uint_eq(perfan_profile_total(p, 0),
			  values_sum(text, len, "@"));
	perfan_profile_free(p);
	free(text);

	/* a pid without a comm: ":PID", as perf names a thread it never
	 * saw named */
	text = tu_slurp(path_of("kstack-perf-ustack-perf-pid.txt"), &len);
	at = strstr(text, "]: ");
	ck_assert_ptr_nonnull(at);
	while (at > text && at[-1] != ' ')
		at--;
	pid = atoi(at);
	ck_assert_int_gt(pid, 0);
	o.root = PERFAN_ROOT_PID;
	p = load_file("kstack-perf-ustack-perf-pid.txt", &o);
	snprintf(name, sizeof(name), ":%d", pid);
	ck_assert_msg(root_named(p, name, &got), "no root %s", name);
	ck_assert_int_eq(got, pid);
	/* perf mode names the modules */
	ck_assert_str_eq(find_frame(p, "__libc_start_call_main")->module,
			 "libc.so.6");
	perfan_profile_free(p);
	free(text);
}
END_TEST

static void count_warnings(enum perfan_log_level level, const char *msg,
			   void *payload)
{
	(void)msg;
	if (level == PERFAN_LOG_WARN)
		++*(int *)payload;
}

START_TEST(test_event_picks_a_map)
{
	size_t len;
	char *text = tu_slurp(path_of("two-maps.txt"), &len);
	int warnings = 0;
	struct perfan_source_opts o =
		PERFAN_OPTS_INIT(struct perfan_source_opts);
	o.root = PERFAN_ROOT_COMM;
	o.log = count_warnings;
	o.log_payload = &warnings;
	o.event = "@u";
	perfan_profile *p = load_file("two-maps.txt", &o);
	ck_assert_uint_eq(perfan_profile_nr_columns(p), 1);
	ck_assert_str_eq(perfan_profile_column_name(p, 0), "@u");
	ck_assert_uint_eq(perfan_profile_total(p, 0),
			  values_sum(text, len, "@u"));
	ck_assert_ptr_null(find_frame(p, "vfs_write"));
	ck_assert_int_eq(warnings, 0);
	perfan_profile_free(p);
	o.event = "@nothing";
	p = load_file("two-maps.txt", &o);
	ck_assert_uint_eq(perfan_profile_nr_columns(p), 0);
	ck_assert_int_eq(warnings, 1);
	perfan_profile_free(p);
	free(text);
}
END_TEST

START_TEST(test_addrs_and_kernel)
{
	struct perfan_source_opts o =
		PERFAN_OPTS_INIT(struct perfan_source_opts);
	o.root = PERFAN_ROOT_COMM;
	o.script.addrs = 1;
	perfan_profile *p = load_file("python-ustack.txt", &o);
	ck_assert_ptr_null(find_frame(p, "[unknown]"));
	/* the first unresolved address, as perf script shows one */
	size_t len;
	char *text = tu_slurp(path_of("python-ustack.txt"), &len);
	char *at = strstr(text, "\n    0x");
	ck_assert_ptr_nonnull(at);
	char name[64];
	snprintf(name, sizeof(name), "[unknown <%.*s>]",
		 (int)strcspn(at + 7, "\n"), at + 7);
	ck_assert_msg(find_frame(p, name) != NULL, "no %s", name);
	free(text);
	perfan_profile_free(p);
	o.script.addrs = 0;
	o.script.kernel = 1;
	p = load_file("kstack.txt", &o);
	ck_assert_ptr_null(find_frame(p, "vfs_write"));
	const struct perfan_frame *f = find_frame(p, "vfs_write_[k]");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->kind, PERFAN_FRAME_KERNEL);
	perfan_profile_free(p);
}
END_TEST

/* Stack mode raw (bpftrace 0.18 and later: each frame its address alone,
 * in hex, not indented; 0.17 has no raw mode to record), made from the
 * real perf-mode output by keeping each frame line's address, as
 * BPFtrace::get_stack prints it: the same counts, kernel frames told by
 * their addresses, every frame [unknown] or, with addrs, its address. */
START_TEST(test_raw_mode)
{
	size_t len;
	char *perf = tu_slurp(path_of("kstack-perf-ustack-perf-pid.txt"), &len);
	char *raw = malloc(len + 1);
	ck_assert_ptr_nonnull(raw);
	size_t w = 0;
	char first[32] = "";
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(perf + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - perf - i) + 1 : len - i;
		if (perf[i] == '\t') {
			size_t k = strcspn(perf + i + 1, " ");
			if (!first[0])
				snprintf(first, sizeof(first), "%.*s", (int)k,
					 perf + i + 1);
			memcpy(raw + w, perf + i + 1, k);
			w += k;
			raw[w++] = '\n';
		} else {
			memcpy(raw + w, perf + i, n);
			w += n;
		}
		i += n;
	}
	ck_assert_msg(!strncmp(first, "ffffffff8", 9), "%s", first);
	perfan_profile *p = NULL;
	int rc = fuzz_bpftrace_read((const uint8_t *)raw, w,
				    PERFAN_ROOT_PID_TID, &p);
	ck_assert_msg(rc == 0, "%s", perfan_error_last());
	ck_assert_uint_eq(perfan_profile_total(p, 0),
			  values_sum(perf, len, "@"));
	char name[64];
	snprintf(name, sizeof(name), "[kernel.kallsyms <%s>]", first);
	const struct perfan_frame *f = find_frame(p, name);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->kind, PERFAN_FRAME_KERNEL);
	size_t kernel = 0, unknown = 0;
	for (size_t i = 0; i < perfan_profile_nr_frames(p); i++) {
		f = perfan_profile_frame_get(p, (perfan_frame_id)i);
		kernel += f->kind == PERFAN_FRAME_KERNEL;
		unknown += f->kind == PERFAN_FRAME_UNKNOWN;
		if (f->kind == PERFAN_FRAME_UNKNOWN)
			ck_assert_msg(!strncmp(f->name, "[unknown <", 10), "%s",
				      f->name);
	}
	ck_assert_uint_gt(kernel, 10);
	ck_assert_uint_gt(unknown, 5);
	perfan_profile_free(p);
	free(raw);
	free(perf);
}
END_TEST

/* ---- cut and damaged --------------------------------------------------- */

/* Whether TEXT[0..N) ends inside an entry: a line starting with '@' after
 * the last line ending in "]: COUNT". */
static int inside_entry(const char *text, size_t n)
{
	int inside = 0;
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(text + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - text - i) : n - i;
		const char *l = text + i;
		if (len && l[0] == '@')
			inside = 1;
		size_t j = len;
		while (j && l[j - 1] >= '0' && l[j - 1] <= '9')
			j--;
		if (inside && j < len && j >= 3 && !memcmp(l + j - 3, "]: ", 3))
			inside = 0;
		i += len + 1;
	}
	return inside;
}

/* Cut anywhere: the complete entries before the cut are read, and the cut
 * is said (ETRUNCATED naming the offset) unless it falls between two
 * entries, where the output looks whole. */
START_TEST(test_every_prefix)
{
	static const char *const cut_files[] = {"kstack-ustack-comm-pid.txt",
						"json.txt", "two-maps.txt"};
	const char *file = cut_files[_i];
	size_t len;
	char *text = tu_slurp(path_of(file), &len);
	size_t ncut = 0;
	for (size_t n = 0; n < len; n++) {
		perfan_profile *p = NULL;
		int rc = fuzz_bpftrace_read((const uint8_t *)text, n,
					    PERFAN_ROOT_COMM, &p);
		int whole = !n ||
			    (text[n - 1] == '\n' && !inside_entry(text, n));
		ck_assert_msg(rc == (whole ? 0 : PERFAN_ETRUNCATED),
			      "%s cut at %zu: %d %s", file, n, rc,
			      rc ? perfan_error_last() : "");
		if (rc) {
			ck_assert_msg(strstr(perfan_error_last(),
					     "fuzz-input: offset "),
				      "message '%s'", perfan_error_last());
			ncut++;
		}
		uint64_t total = 0;
		for (size_t c = 0; c < perfan_profile_nr_columns(p); c++)
			total += perfan_profile_total(p, c);
		ck_assert_msg(total == values_sum(text, n, NULL),
			      "%s cut at %zu: %llu samples, %llu complete",
			      file, n, (unsigned long long)total,
			      (unsigned long long)values_sum(text, n, NULL));
		perfan_profile_free(p);
		if (n % 13 == 0)
			LLVMFuzzerTestOneInput((const uint8_t *)text, n);
	}
	ck_assert_uint_gt(ncut, len / 2);
	free(text);
}
END_TEST

/* Each byte changed three ways, through the fuzz target's checks. */
START_TEST(test_every_byte_damaged)
{
	static const char *const dmg_files[] = {
		"ustack.txt", "ustack-json.txt",
		"kstack-perf-ustack-perf-pid.txt"};
	size_t len;
	char *data = tu_slurp(path_of(dmg_files[_i]), &len);
	static const uint8_t how[] = {0xff, 0x80, 0x01};
	/* the first entries are enough: each byte costs two reads */
	if (len > 1536)
		len = 1536;
	for (size_t i = 0; i < len; i++)
		for (size_t k = 0; k < sizeof(how); k++) {
			data[i] ^= (char)how[k];
			LLVMFuzzerTestOneInput((const uint8_t *)data, len);
			data[i] ^= (char)how[k];
		}
	free(data);
}
END_TEST

static const struct {
	const char *what, *text;
	int rc;
	const char *msg;
} damaged[] = {
	{"an empty line in a stack", "@[\n    f+1\n\n]: 3\n", PERFAN_EFORMAT,
	 "offset 11 (line 3): bpftrace output: an empty line in a stack of @"},
	{"no ']:' after a stack", "@[\n    f+1\n]; 3\n", PERFAN_EFORMAT,
	 "offset 11 (line 3): bpftrace output: no ', ' nor ']:' after a stack"},
	{"no ']:' after a key", "Attaching 1 probe...\n@x[spin 3\n",
	 PERFAN_EFORMAT,
	 "offset 24 (line 2): bpftrace output: no ', ' nor ']:' after a key "
	 "of @x"},
	{"an entry cut", "@[\n    f+1\n]: 3\n@[\n    g+1\n", PERFAN_ETRUNCATED,
	 "offset 16 (line 4): bpftrace output: the entry of @ that starts "
	 "here is cut short"},
	{"no newline at the end", "@[\n    f+1\n]: 3", PERFAN_ETRUNCATED,
	 "offset 11 (line 3): bpftrace output: the last line has no newline"},
	{"more than 32 keys",
	 "@[a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, "
	 "a, a, a, a, a, a, a, a, a, a, a]: 1\n",
	 PERFAN_EFORMAT,
	 "offset 0 (line 1): bpftrace output: an entry of @ "
	 "with more than 32 keys"},
	{"counts past 2^64-1",
	 "@[\n    f+1\n]: 18446744073709551615\n@[\n    g+1\n]: 1\n",
	 PERFAN_EFORMAT, "bpftrace output: the counts of @ pass 2^64-1"},
	{"JSON: a string not closed",
	 "{\"type\": \"map\", \"data\": {\"@\": {\"\\n    f+1\\n: 3}}}\n",
	 PERFAN_ETRUNCATED,
	 "offset 31 (line 1): bpftrace output: JSON: the string starting "
	 "here is not closed"},
	{"JSON: a bad escape",
	 "{\"type\": \"map\", \"data\": {\"@\": {\"\\q\": 3}}}\n",
	 PERFAN_EFORMAT,
	 "offset 32 (line 1): bpftrace output: JSON: \\'q' is not an escape"},
	{"JSON: a stack without its newline",
	 "{\"type\": \"map\", \"data\": {\"@\": {\"\\n    f+1\": 3}}}\n",
	 PERFAN_EFORMAT,
	 "offset 31 (line 1): bpftrace output: JSON: a stack key of @ not "
	 "ended by a newline"},
	{"JSON: no ':'",
	 "{\"type\": \"map\", \"data\": {\"@\": {\"\\n    f+1\\n\" 3}}}\n",
	 PERFAN_EFORMAT,
	 "offset 45 (line 1): bpftrace output: JSON: '3' where ':' should "
	 "follow the key"},
	{"JSON: text after it",
	 "{\"type\": \"map\", \"data\": {\"@\": {\"\\n    f+1\\n\": 3}}} x\n",
	 PERFAN_EFORMAT,
	 "offset 51 (line 1): bpftrace output: JSON: 'x' after the end of the "
	 "JSON value"},
};

START_TEST(test_damaged)
{
	perfan_profile *p = NULL;
	const char *t = damaged[_i].text;
	int rc = fuzz_bpftrace_read((const uint8_t *)t, strlen(t),
				    PERFAN_ROOT_COMM, &p);
	ck_assert_msg(rc == damaged[_i].rc, "%s: %d (%s)", damaged[_i].what, rc,
		      perfan_error_last());
	ck_assert_msg(strstr(perfan_error_last(), "fuzz-input") &&
			      strstr(perfan_error_last(), damaged[_i].msg),
		      "%s: message '%s'", damaged[_i].what,
		      perfan_error_last());
	perfan_profile_free(p);
	LLVMFuzzerTestOneInput((const uint8_t *)t, strlen(t));
}
END_TEST

/* A map of histograms or stats is no stack profile: left out, said. */
START_TEST(test_not_counts)
{
	static const char text[] =
		"Attaching 2 probes...\n\n\n"
		"@h[spin]: \n[1]                    3 |@@@@@@@@@@@@@@@@@@@@|\n\n"
		"@s[\n    f+1\n]: count 3, average 5, total 15\n"
		"@[\n    f+1\n    main+4\n, spin]: 7\n"
		"@x: 12\n";
	int warnings = 0;
	struct perfan_source_opts o =
		PERFAN_OPTS_INIT(struct perfan_source_opts);
	o.root = PERFAN_ROOT_COMM;
	o.log = count_warnings;
	o.log_payload = &warnings;
	perfan_profile *p = NULL;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	FILE *fp = fmemopen((void *)text, sizeof(text) - 1, "r");
	ck_assert_int_eq(perfan__bpftrace_read(p, fp, "t", &o), 0);
	fclose(fp);
	ck_assert_int_eq(warnings, 2);
	ck_assert_uint_eq(perfan_profile_nr_columns(p), 1);
	ck_assert_str_eq(perfan_profile_column_name(p, 0), "@");
	ck_assert_uint_eq(perfan_profile_total(p, 0), 7);
	/* spin -> main -> f: root first */
	const perfan_node_id *k;
	ck_assert_uint_eq(perfan_profile_node_children(p, PERFAN_ROOT_NODE, &k),
			  1);
	ck_assert_str_eq(frame_of(p, k[0])->name, "spin");
	ck_assert_uint_eq(perfan_profile_node_children(p, k[0], &k), 1);
	ck_assert_str_eq(frame_of(p, k[0])->name, "main");
	ck_assert_uint_eq(perfan_profile_node_children(p, k[0], &k), 1);
	ck_assert_str_eq(frame_of(p, k[0])->name, "f");
	perfan_profile_free(p);
}
END_TEST

static Suite *bpftrace_suite(void)
{
	Suite *s = suite_create("bpftrace");
	TCase *tc = tcase_create("layouts");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_detect);
	tcase_add_loop_test(tc, test_layout, 0, (int)NFILES);
	tcase_add_test(tc, test_roots);
	tcase_add_test(tc, test_event_picks_a_map);
	tcase_add_test(tc, test_addrs_and_kernel);
	tcase_add_test(tc, test_raw_mode);
	suite_add_tcase(s, tc);
	tc = tcase_create("robust");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_every_prefix, 0, 3);
	tcase_add_loop_test(tc, test_every_byte_damaged, 0, 3);
	tcase_add_loop_test(tc, test_damaged, 0,
			    (int)(sizeof(damaged) / sizeof(damaged[0])));
	tcase_add_test(tc, test_not_counts);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(bpftrace_suite)
