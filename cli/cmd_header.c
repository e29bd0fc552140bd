/* cli/cmd_header.c: perfan header: the file header and features of a
 * perf.data, in the lines `perf report --header-only` prints, or as JSON. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <perfan/perfan.h>

#include "cli.h"

#define CMD "header"

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: perfan header [--json] [-I] [-o FILE] PERF.DATA\n"
		"\n"
		"Show the header and the features of a perf.data (file or pipe "
		"mode;\n"
		"'-' reads standard input), as 'perf report --header-only' "
		"does,\n"
		"followed by the build-id table.\n"
		"\n"
		"Options:\n"
		"  --json          print the same facts as a JSON object\n"
		"  -I, --full      show the topology features in full\n"
		"  -o, --output FILE\n"
		"                  write to FILE (replaced only on success)\n"
		"  -h, --help      show this help\n");
}

static int bad_usage(void)
{
	fprintf(stderr, "usage: perfan header [--json] [-I] [-o FILE] "
			"PERF.DATA\n(perfan header --help tells more)\n");
	return 2;
}

static void on_log(enum perfan_log_level level, const char *msg, void *payload)
{
	(void)payload;
	if (level <= PERFAN_LOG_WARN)
		cli_warn(CMD, "%s", msg);
}

/* ---- perf's names for attr bits (perf 6.1's perf_event_attr__fprintf) ---- */

struct bitname {
	uint64_t bit;
	const char *name;
};

static const struct bitname sample_bits[] = {
	{1u << 0, "IP"},
	{1u << 1, "TID"},
	{1u << 2, "TIME"},
	{1u << 3, "ADDR"},
	{1u << 4, "READ"},
	{1u << 5, "CALLCHAIN"},
	{1u << 6, "ID"},
	{1u << 7, "CPU"},
	{1u << 8, "PERIOD"},
	{1u << 9, "STREAM_ID"},
	{1u << 10, "RAW"},
	{1u << 11, "BRANCH_STACK"},
	{1u << 12, "REGS_USER"},
	{1u << 13, "STACK_USER"},
	{1u << 16, "IDENTIFIER"},
	{1u << 18, "REGS_INTR"},
	{1u << 15, "DATA_SRC"},
	{1u << 14, "WEIGHT"},
	{1u << 19, "PHYS_ADDR"},
	{1u << 20, "AUX"},
	{1u << 21, "CGROUP"},
	{1u << 22, "DATA_PAGE_SIZE"},
	{1u << 23, "CODE_PAGE_SIZE"},
	{1u << 24, "WEIGHT_STRUCT"},
	{0, NULL},
};

static const struct bitname branch_bits[] = {
	{1u << 0, "USER"},       {1u << 1, "KERNEL"},
	{1u << 2, "HV"},         {1u << 3, "ANY"},
	{1u << 4, "ANY_CALL"},   {1u << 5, "ANY_RETURN"},
	{1u << 6, "IND_CALL"},   {1u << 7, "ABORT_TX"},
	{1u << 8, "IN_TX"},      {1u << 9, "NO_TX"},
	{1u << 10, "COND"},      {1u << 11, "CALL_STACK"},
	{1u << 12, "IND_JUMP"},  {1u << 13, "CALL"},
	{1u << 14, "NO_FLAGS"},  {1u << 15, "NO_CYCLES"},
	{1u << 16, "TYPE_SAVE"}, {1u << 17, "HW_INDEX"},
	{1u << 18, "PRIV_SAVE"}, {0, NULL},
};

static const struct bitname read_bits[] = {
	{1u << 0, "TOTAL_TIME_ENABLED"},
	{1u << 1, "TOTAL_TIME_RUNNING"},
	{1u << 2, "ID"},
	{1u << 3, "GROUP"},
	{1u << 4, "LOST"},
	{0, NULL},
};

/* The one-bit (and precise_ip's two-bit) fields of the flags word. */
static const struct {
	const char *name;
	unsigned shift, width;
} flag_fields[] = {
	{"disabled", 0, 1},
	{"inherit", 1, 1},
	{"pinned", 2, 1},
	{"exclusive", 3, 1},
	{"exclude_user", 4, 1},
	{"exclude_kernel", 5, 1},
	{"exclude_hv", 6, 1},
	{"exclude_idle", 7, 1},
	{"mmap", 8, 1},
	{"comm", 9, 1},
	{"freq", 10, 1},
	{"inherit_stat", 11, 1},
	{"enable_on_exec", 12, 1},
	{"task", 13, 1},
	{"watermark", 14, 1},
	{"precise_ip", 15, 2},
	{"mmap_data", 17, 1},
	{"sample_id_all", 18, 1},
	{"exclude_host", 19, 1},
	{"exclude_guest", 20, 1},
	{"exclude_callchain_kernel", 21, 1},
	{"exclude_callchain_user", 22, 1},
	{"mmap2", 23, 1},
	{"comm_exec", 24, 1},
	{"use_clockid", 25, 1},
	{"context_switch", 26, 1},
	{"write_backward", 27, 1},
	{"namespaces", 28, 1},
	{"ksymbol", 29, 1},
	{"bpf_event", 30, 1},
	{"aux_output", 31, 1},
	{"cgroup", 32, 1},
	{"text_poke", 33, 1},
	{"build_id", 34, 1},
	{"inherit_thread", 35, 1},
	{"remove_on_exec", 36, 1},
	{"sigtrap", 37, 1},
};

#define NFLAGS (sizeof(flag_fields) / sizeof(flag_fields[0]))

static uint64_t flag_value(uint64_t flags, size_t i)
{
	return flags >> flag_fields[i].shift &
	       ((1ull << flag_fields[i].width) - 1);
}

static void print_bits(FILE *fp, uint64_t v, const struct bitname *b)
{
	int first = 1;
	for (; b->name; b++)
		if (v & b->bit) {
			fprintf(fp, "%s%s", first ? "" : "|", b->name);
			first = 0;
		}
}

/* ", name = value" for every non-zero field, in perf's order. */
static void print_attr(FILE *fp, const struct perfan_attr *a)
{
#define U(n, v)                                                                \
	do {                                                                   \
		if (v)                                                         \
			fprintf(fp, ", %s = %" PRIu64, n, (uint64_t)(v));      \
	} while (0)
#define X(n, v)                                                                \
	do {                                                                   \
		if (v)                                                         \
			fprintf(fp, ", %s = %#" PRIx64, n, (uint64_t)(v));     \
	} while (0)
#define B(n, v, tbl)                                                           \
	do {                                                                   \
		if (v) {                                                       \
			fprintf(fp, ", %s = ", n);                             \
			print_bits(fp, v, tbl);                                \
		}                                                              \
	} while (0)
	U("type", a->type);
	U("size", a->size);
	X("config", a->config);
	U("{ sample_period, sample_freq }", a->sample_period_or_freq);
	B("sample_type", a->sample_type, sample_bits);
	B("read_format", a->read_format, read_bits);
	for (size_t i = 0; i < NFLAGS; i++)
		U(flag_fields[i].name, flag_value(a->flags, i));
	U("{ wakeup_events, wakeup_watermark }", a->wakeup_events_or_watermark);
	U("bp_type", a->bp_type);
	X("{ bp_addr, config1 }", a->config1);
	X("{ bp_len, config2 }", a->config2);
	B("branch_sample_type", a->branch_sample_type, branch_bits);
	X("sample_regs_user", a->sample_regs_user);
	U("sample_stack_user", a->sample_stack_user);
	if (a->clockid)
		fprintf(fp, ", clockid = %" PRId64, (int64_t)a->clockid);
	X("sample_regs_intr", a->sample_regs_intr);
	U("aux_watermark", a->aux_watermark);
	U("sample_max_stack", a->sample_max_stack);
	U("aux_sample_size", a->aux_sample_size);
	U("sig_data", a->sig_data);
#undef U
#undef X
#undef B
}

/* ---- shared helpers -------------------------------------------------------- */

/* The full attr of event description I: event_desc keeps only type and
 * config public, so take the reader's event at the same position when it
 * is the same event (perf writes both from one evsel). */
static struct perfan_attr desc_attr(const perfan_perfdata *pd, size_t i,
				    const struct perfan_event_desc *d)
{
	const struct perfan_event *ev = i < perfan_perfdata_nr_events(pd)
						? perfan_perfdata_event(pd, i)
						: NULL;
	if (ev && ev->attr.type == d->attr_type &&
	    ev->attr.config == d->attr_config)
		return ev->attr;
	struct perfan_attr a;
	memset(&a, 0, sizeof(a));
	a.type = d->attr_type;
	a.config = d->attr_config;
	return a;
}

static const char *clockid_name(uint32_t id)
{
	/* perf's clockid_name: the first name in its table */
	switch (id) {
	case 0: return "realtime";
	case 1: return "monotonic";
	case 4: return "monotonic_raw";
	case 7: return "boottime";
	case 11: return "tai";
	default: return "(not found)";
	}
}

static void upper(char *dst, size_t n, const char *s)
{
	size_t i = 0;
	for (; s[i] && i + 1 < n; i++)
		dst[i] = (s[i] >= 'a' && s[i] <= 'z') ? (char)(s[i] - 32)
						      : s[i];
	dst[i] = '\0';
}

static int full_only(int feat)
{
	return feat == PERFAN_FEAT_CPU_TOPOLOGY ||
	       feat == PERFAN_FEAT_NUMA_TOPOLOGY || feat == PERFAN_FEAT_CACHE ||
	       feat == PERFAN_FEAT_MEM_TOPOLOGY ||
	       feat == PERFAN_FEAT_HYBRID_TOPOLOGY;
}

static void build_id_hex(char *out, const struct perfan_build_id_entry *b)
{
	size_t n = b->size <= 20 ? b->size : 20;
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b->build_id[i]);
	out[2 * n] = '\0';
}

/* ---- text, perf's lines ------------------------------------------------------ */

static void print_caps(FILE *fp, const struct perfan_pmu_caps *c)
{
	const char *name = c->pmu_name ? c->pmu_name : "cpu";
	if (!c->nr) {
		fprintf(fp, "# %s pmu capabilities: not available\n", name);
		return;
	}
	fprintf(fp, "# %s pmu capabilities: ", name);
	for (size_t i = 0; i < c->nr; i++)
		fprintf(fp, "%s%s", i ? ", " : "", c->caps[i]);
	fputc('\n', fp);
}

static void print_feature(FILE *fp, const perfan_perfdata *pd, int feat,
			  int full)
{
	const struct perfan_features *f = perfan_perfdata_features(pd);
	char uname[32];
	upper(uname, sizeof(uname), perfan_feature_name(feat));
	if (full_only(feat) && !full) {
		fprintf(fp, "# %s info available, use -I to display\n", uname);
		return;
	}
	switch (feat) {
	case PERFAN_FEAT_HOSTNAME:
		fprintf(fp, "# hostname : %s\n", f->hostname);
		break;
	case PERFAN_FEAT_OSRELEASE:
		fprintf(fp, "# os release : %s\n", f->osrelease);
		break;
	case PERFAN_FEAT_VERSION:
		fprintf(fp, "# perf version : %s\n", f->version);
		break;
	case PERFAN_FEAT_ARCH: fprintf(fp, "# arch : %s\n", f->arch); break;
	case PERFAN_FEAT_NRCPUS:
		fprintf(fp, "# nrcpus online : %u\n", f->nr_cpus_online);
		fprintf(fp, "# nrcpus avail : %u\n", f->nr_cpus_avail);
		break;
	case PERFAN_FEAT_CPUDESC:
		fprintf(fp, "# cpudesc : %s\n", f->cpudesc);
		break;
	case PERFAN_FEAT_CPUID: fprintf(fp, "# cpuid : %s\n", f->cpuid); break;
	case PERFAN_FEAT_TOTAL_MEM:
		fprintf(fp, "# total memory : %" PRIu64 " kB\n",
			f->total_mem_kb);
		break;
	case PERFAN_FEAT_CMDLINE:
		fprintf(fp, "# cmdline : ");
		for (size_t i = 0; i < f->cmdline_argc; i++) {
			/* perf escapes single quotes */
			for (const char *s = f->cmdline_argv[i]; *s; s++)
				if (*s == '\'')
					fputs("\\'", fp);
				else
					fputc(*s, fp);
			fputc(' ', fp);
		}
		fputc('\n', fp);
		break;
	case PERFAN_FEAT_EVENT_DESC:
		for (size_t i = 0; i < f->nr_event_descs; i++) {
			const struct perfan_event_desc *d = &f->event_descs[i];
			struct perfan_attr a = desc_attr(pd, i, d);
			fprintf(fp, "# event : name = %s, ", d->name);
			if (d->nr_ids) {
				fprintf(fp, ", id = {");
				for (uint64_t k = 0; k < d->nr_ids; k++)
					fprintf(fp, "%s %" PRIu64, k ? "," : "",
						d->ids[k]);
				fprintf(fp, " }");
			}
			print_attr(fp, &a);
			fputc('\n', fp);
		}
		break;
	case PERFAN_FEAT_CPU_TOPOLOGY:
		for (size_t i = 0; i < f->nr_sibling_cores; i++)
			fprintf(fp, "# sibling sockets : %s\n",
				f->sibling_cores[i]);
		for (size_t i = 0; i < f->nr_sibling_dies; i++)
			fprintf(fp, "# sibling dies    : %s\n",
				f->sibling_dies[i]);
		for (size_t i = 0; i < f->nr_sibling_threads; i++)
			fprintf(fp, "# sibling threads : %s\n",
				f->sibling_threads[i]);
		if (f->nr_sibling_dies) {
			if (!f->nr_cpu_topo)
				fprintf(fp, "# Core ID, Die ID and Socket ID "
					    "information is not available\n");
			for (size_t i = 0; i < f->nr_cpu_topo; i++)
				fprintf(fp,
					"# CPU %zu: Core ID %d, Die ID %d, "
					"Socket ID %d\n",
					i, f->cpu_topo[i].core_id,
					f->cpu_topo[i].die_id,
					f->cpu_topo[i].socket_id);
		} else {
			if (!f->nr_cpu_topo)
				fprintf(fp, "# Core ID and Socket ID "
					    "information is not available\n");
			for (size_t i = 0; i < f->nr_cpu_topo; i++)
				fprintf(fp,
					"# CPU %zu: Core ID %d, Socket ID %d\n",
					i, f->cpu_topo[i].core_id,
					f->cpu_topo[i].socket_id);
		}
		break;
	case PERFAN_FEAT_NUMA_TOPOLOGY:
		for (size_t i = 0; i < f->nr_numa_nodes; i++) {
			const struct perfan_numa_node *n = &f->numa_nodes[i];
			fprintf(fp,
				"# node%u meminfo  : total = %" PRIu64
				" kB, free = %" PRIu64 " kB\n",
				n->node, n->mem_total, n->mem_free);
			fprintf(fp, "# node%u cpu list : %s\n", n->node,
				n->cpus);
		}
		break;
	case PERFAN_FEAT_BRANCH_STACK:
		fprintf(fp, "# contains samples with branch stack\n");
		break;
	case PERFAN_FEAT_PMU_MAPPINGS:
		if (!f->nr_pmu_mappings) {
			fprintf(fp, "# pmu mappings: not available\n");
			break;
		}
		for (size_t i = 0; i < f->nr_pmu_mappings; i++)
			fprintf(fp, "%s%s = %u", i ? ", " : "# pmu mappings: ",
				f->pmu_mappings[i].name,
				f->pmu_mappings[i].type);
		fputc('\n', fp);
		break;
	case PERFAN_FEAT_GROUP_DESC: {
		size_t nev = perfan_perfdata_nr_events(pd);
		for (size_t g = 0; g < f->nr_groups; g++) {
			const struct perfan_group_desc *gd = &f->groups[g];
			if (gd->nr_members < 2 || gd->leader_idx >= nev)
				continue;
			fprintf(fp, "# group: %s{%s", gd->name ? gd->name : "",
				perfan_perfdata_event(pd, gd->leader_idx)->name);
			for (uint32_t m = 1; m < gd->nr_members; m++) {
				size_t k = (size_t)gd->leader_idx + m;
				if (k < nev)
					fprintf(fp, ",%s",
						perfan_perfdata_event(pd, k)
							->name);
			}
			fprintf(fp, "}\n");
		}
		break;
	}
	case PERFAN_FEAT_AUXTRACE:
		fprintf(fp,
			"# contains AUX area data (e.g. instruction trace)\n");
		break;
	case PERFAN_FEAT_STAT: fprintf(fp, "# contains stat data\n"); break;
	case PERFAN_FEAT_SAMPLE_TIME: {
		uint64_t a = f->first_sample_time, b = f->last_sample_time;
		fprintf(fp,
			"# time of first sample : %" PRIu64 ".%06" PRIu64 "\n",
			a / 1000000000, a % 1000000000 / 1000);
		fprintf(fp,
			"# time of last sample : %" PRIu64 ".%06" PRIu64 "\n",
			b / 1000000000, b % 1000000000 / 1000);
		fprintf(fp, "# sample duration : %10.3f ms\n",
			(double)(b - a) / 1000000.0);
		break;
	}
	case PERFAN_FEAT_CLOCKID:
		/* perf's arithmetic: resolution in ns times 1000 */
		fprintf(fp, "# clockid frequency: %" PRIu64 " MHz\n",
			f->clockid_res_ns * 1000);
		break;
	case PERFAN_FEAT_CLOCK_DATA: {
		uint64_t tod = f->clock_data_tod_ns,
			 clk = f->clock_data_clockid_ns;
		time_t sec = (time_t)(tod / 1000000000);
		int usec = (int)(tod % 1000000000 / 1000);
		char date[64], tstr[96];
		struct tm tm;
		if (!localtime_r(&sec, &tm)) {
			snprintf(tstr, sizeof(tstr), "<error>");
		} else {
			strftime(date, sizeof(date), "%F %T", &tm);
			snprintf(tstr, sizeof(tstr), "%s.%06d", date, usec);
		}
		const char *cn = clockid_name(f->clock_data_clockid);
		fprintf(fp, "# clockid: %s (%u)\n", cn, f->clock_data_clockid);
		fprintf(fp,
			"# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n",
			tstr, (long)sec, usec, (long)(clk / 1000000000),
			(long)(clk % 1000000000), cn);
		break;
	}
	case PERFAN_FEAT_COMPRESSED:
		fprintf(fp, "# compressed : %s, level = %d, ratio = %d\n",
			f->comp_type == 1 ? "Zstd" : "Unknown",
			(int)f->comp_level, (int)f->comp_ratio);
		break;
	case PERFAN_FEAT_CPU_PMU_CAPS:
		for (size_t i = 0; i < f->nr_pmu_caps; i++)
			if (!f->pmu_caps[i].pmu_name)
				print_caps(fp, &f->pmu_caps[i]);
		break;
	case PERFAN_FEAT_PMU_CAPS:
		for (size_t i = 0; i < f->nr_pmu_caps; i++)
			if (f->pmu_caps[i].pmu_name)
				print_caps(fp, &f->pmu_caps[i]);
		break;
	case PERFAN_FEAT_HYBRID_TOPOLOGY:
		fprintf(fp, "# hybrid cpu system:\n");
		for (size_t i = 0; i < f->nr_hybrid_nodes; i++)
			fprintf(fp, "# %s cpu list : %s\n",
				f->hybrid_nodes[i].pmu_name,
				f->hybrid_nodes[i].cpus);
		break;
	case PERFAN_FEAT_CACHE:
	case PERFAN_FEAT_MEM_TOPOLOGY:
		/* present, but not decoded by libperfan */
		fprintf(fp, "# %s info available (not decoded)\n", uname);
		break;
	case PERFAN_FEAT_BPF_PROG_INFO:
		/* perf's __bpf_event__print_bpf_prog_info() */
		for (size_t i = 0; i < f->nr_bpf_progs; i++) {
			const struct perfan_bpf_prog *b = &f->bpf_progs[i];
			const struct perfan_bpf_subprog *s = b->subprogs;
			if (b->nr_subprogs == 1) {
				fprintf(fp,
					"# bpf_prog_info %u: %s addr 0x%" PRIx64
					" size %u\n",
					b->id, s[0].name, s[0].addr, s[0].size);
				continue;
			}
			fprintf(fp, "# bpf_prog_info %u:\n", b->id);
			for (size_t k = 0; k < b->nr_subprogs; k++)
				fprintf(fp,
					"# \tsub_prog %zu: %s addr 0x%" PRIx64
					" size %u\n",
					k, s[k].name, s[k].addr, s[k].size);
		}
		break;
	case PERFAN_FEAT_BPF_BTF:
		for (size_t i = 0; i < f->nr_bpf_btfs; i++)
			fprintf(fp, "# btf info of id %u\n", f->bpf_btfs[i].id);
		break;
	default:
		/* perf prints nothing for tracing_data, build_id and
		 * dir_format */
		break;
	}
}

/* As `perf buildid-list`: one line per DSO of a machine (pid), in the order
 * first seen, with the build id seen last (perf updates its DSO in place). */
static void print_build_ids(FILE *fp, const struct perfan_features *f)
{
	const struct perfan_build_id_entry *b = f->build_ids;
	for (size_t i = 0; i < f->nr_build_ids; i++) {
		size_t k, last = i;
		for (k = 0; k < i; k++)
			if (b[k].pid == b[i].pid &&
			    !strcmp(b[k].filename, b[i].filename))
				break;
		if (k < i)
			continue; /* printed with its first occurrence */
		for (k = i + 1; k < f->nr_build_ids; k++)
			if (b[k].pid == b[i].pid &&
			    !strcmp(b[k].filename, b[i].filename))
				last = k;
		char hex[41];
		build_id_hex(hex, &b[last]);
		fprintf(fp, "%s %s\n", hex, b[i].filename);
	}
}

static void print_text(FILE *fp, const perfan_perfdata *pd, const char *path,
		       int full)
{
	const struct perfan_file_info *info = perfan_perfdata_info(pd);
	const struct perfan_features *f = perfan_perfdata_features(pd);
	struct stat st;
	int have_st = !strcmp(path, "-") ? fstat(0, &st) == 0
					 : stat(path, &st) == 0;
	char when[64] = "unknown\n";
	if (have_st) {
		time_t t = st.st_mtime;
		struct tm tm;
		/* ctime's format, "Sun Nov 29 13:48:07 2026\n" */
		if (localtime_r(&t, &tm))
			strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y\n",
				 &tm);
	}
	fprintf(fp, "# ========\n");
	fprintf(fp, "# captured on    : %s", when);
	fprintf(fp, "# header version : 1\n");
	if (info->pipe_mode) {
		/* perf prints the header before it has seen the features,
		 * which arrive as records */
		fprintf(fp, "# data offset    : 0\n# data size      : 0\n"
			    "# feat offset    : 0\n# ========\n#\n");
	} else {
		fprintf(fp, "# data offset    : %" PRIu64 "\n",
			info->data_offset);
		fprintf(fp, "# data size      : %" PRIu64 "\n",
			info->data_size);
		fprintf(fp, "# feat offset    : %" PRIu64 "\n",
			info->data_offset + info->data_size);
	}
	for (int i = 1; i < 32; i++)
		if (perfan_features_has(f, i))
			print_feature(fp, pd, i, full);
	if (!info->pipe_mode) {
		char uname[32];
		fprintf(fp, "# missing features: ");
		for (int i = 1; i < 32; i++)
			if (!(info->feature_bits[0] >> i & 1)) {
				upper(uname, sizeof(uname),
				      perfan_feature_name(i));
				fprintf(fp, "%s ", uname);
			}
		fprintf(fp, "\n# ========\n#\n");
	}
	if (perfan_features_has(f, PERFAN_FEAT_BUILD_ID)) {
		/* not part of perf's header output: the table as
		 * `perf buildid-list` prints it */
		fprintf(fp, "# build ids:\n");
		print_build_ids(fp, f);
	}
}

/* ---- JSON --------------------------------------------------------------------- */

struct js {
	FILE *fp;
	int depth;
	int first[64];
};

static void js_item(struct js *j, const char *key)
{
	if (j->depth > 0) {
		fputs(j->first[j->depth] ? "\n" : ",\n", j->fp);
		j->first[j->depth] = 0;
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->fp);
	}
	if (key) {
		perfan_json_string(j->fp, key);
		fputs(": ", j->fp);
	}
}

static void js_open(struct js *j, const char *key, char c)
{
	js_item(j, key);
	fputc(c, j->fp);
	if (j->depth < 63)
		j->depth++;
	j->first[j->depth] = 1;
}

static void js_close(struct js *j, char c)
{
	int empty = j->first[j->depth];
	j->depth--;
	if (!empty) {
		fputc('\n', j->fp);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->fp);
	}
	fputc(c, j->fp);
}

static void js_str(struct js *j, const char *key, const char *v)
{
	js_item(j, key);
	if (v)
		perfan_json_string(j->fp, v);
	else
		fputs("null", j->fp);
}

static void js_u64(struct js *j, const char *key, uint64_t v)
{
	js_item(j, key);
	fprintf(j->fp, "%" PRIu64, v);
}

static void js_i64(struct js *j, const char *key, int64_t v)
{
	js_item(j, key);
	fprintf(j->fp, "%" PRId64, v);
}

static void js_bool(struct js *j, const char *key, int v)
{
	js_item(j, key);
	fputs(v ? "true" : "false", j->fp);
}

static void js_bits(struct js *j, const char *key, uint64_t v,
		    const struct bitname *b)
{
	js_open(j, key, '[');
	for (; b->name; b++)
		if (v & b->bit)
			js_str(j, NULL, b->name);
	js_close(j, ']');
}

static void js_strs(struct js *j, const char *key, const char *const *v,
		    size_t n)
{
	js_open(j, key, '[');
	for (size_t i = 0; i < n; i++)
		js_str(j, NULL, v[i]);
	js_close(j, ']');
}

static void js_attr(struct js *j, const struct perfan_attr *a)
{
	js_open(j, "attr", '{');
	js_u64(j, "type", a->type);
	js_u64(j, "size", a->size);
	js_u64(j, "config", a->config);
	js_u64(j, "sample_period_or_freq", a->sample_period_or_freq);
	js_u64(j, "sample_type", a->sample_type);
	js_bits(j, "sample_type_names", a->sample_type, sample_bits);
	js_u64(j, "read_format", a->read_format);
	js_bits(j, "read_format_names", a->read_format, read_bits);
	js_open(j, "flags", '{');
	for (size_t i = 0; i < NFLAGS; i++)
		if (flag_value(a->flags, i))
			js_u64(j, flag_fields[i].name, flag_value(a->flags, i));
	js_close(j, '}');
	js_u64(j, "wakeup_events_or_watermark", a->wakeup_events_or_watermark);
	js_u64(j, "bp_type", a->bp_type);
	js_u64(j, "config1", a->config1);
	js_u64(j, "config2", a->config2);
	js_u64(j, "branch_sample_type", a->branch_sample_type);
	js_u64(j, "sample_regs_user", a->sample_regs_user);
	js_u64(j, "sample_stack_user", a->sample_stack_user);
	js_i64(j, "clockid", a->clockid);
	js_u64(j, "sample_regs_intr", a->sample_regs_intr);
	js_u64(j, "aux_watermark", a->aux_watermark);
	js_u64(j, "sample_max_stack", a->sample_max_stack);
	js_u64(j, "aux_sample_size", a->aux_sample_size);
	js_u64(j, "sig_data", a->sig_data);
	js_u64(j, "config3", a->config3);
	js_close(j, '}');
}

static void print_json(FILE *fp, const perfan_perfdata *pd)
{
	const struct perfan_file_info *info = perfan_perfdata_info(pd);
	const struct perfan_features *f = perfan_perfdata_features(pd);
	struct js j = {fp, 0, {0}};
	char name[32];
#define HAS(x) perfan_features_has(f, PERFAN_FEAT_##x)

	js_open(&j, NULL, '{');
	js_str(&j, "file", perfan_perfdata_name(pd));
	js_bool(&j, "pipe_mode", info->pipe_mode);
	js_bool(&j, "big_endian", info->big_endian);
	js_bool(&j, "needs_swap", info->needs_swap);
	if (!info->pipe_mode) {
		js_u64(&j, "file_size", info->file_size);
		js_u64(&j, "header_size", info->header_size);
		js_u64(&j, "attr_size", info->attr_size);
		js_u64(&j, "data_offset", info->data_offset);
		js_u64(&j, "data_size", info->data_size);
		js_u64(&j, "feat_offset", info->data_offset + info->data_size);
	}
	js_open(&j, "features", '[');
	for (int i = 1; i < PERFAN_FEAT_MAX; i++)
		if (perfan_features_has(f, i)) {
			const char *n = perfan_feature_name(i);
			if (n) {
				js_str(&j, NULL, n);
			} else {
				snprintf(name, sizeof(name), "feature_%d", i);
				js_str(&j, NULL, name);
			}
		}
	js_close(&j, ']');
	if (!info->pipe_mode) {
		js_open(&j, "missing_features", '[');
		for (int i = 1; i < 32; i++)
			if (!(info->feature_bits[0] >> i & 1))
				js_str(&j, NULL, perfan_feature_name(i));
		js_close(&j, ']');
	}
	if (HAS(HOSTNAME))
		js_str(&j, "hostname", f->hostname);
	if (HAS(OSRELEASE))
		js_str(&j, "os_release", f->osrelease);
	if (HAS(VERSION))
		js_str(&j, "perf_version", f->version);
	if (HAS(ARCH))
		js_str(&j, "arch", f->arch);
	if (HAS(NRCPUS)) {
		js_u64(&j, "nr_cpus_online", f->nr_cpus_online);
		js_u64(&j, "nr_cpus_avail", f->nr_cpus_avail);
	}
	if (HAS(CPUDESC))
		js_str(&j, "cpudesc", f->cpudesc);
	if (HAS(CPUID))
		js_str(&j, "cpuid", f->cpuid);
	if (HAS(TOTAL_MEM))
		js_u64(&j, "total_mem_kb", f->total_mem_kb);
	if (HAS(CMDLINE))
		js_strs(&j, "cmdline", f->cmdline_argv, f->cmdline_argc);

	/* the events as the reader knows them (attrs with ids and names) */
	js_open(&j, "events", '[');
	for (size_t i = 0; i < perfan_perfdata_nr_events(pd); i++) {
		const struct perfan_event *ev = perfan_perfdata_event(pd, i);
		js_open(&j, NULL, '{');
		js_str(&j, "name", ev->name);
		js_open(&j, "ids", '[');
		for (size_t k = 0; k < ev->nr_ids; k++)
			js_u64(&j, NULL, ev->ids[k]);
		js_close(&j, ']');
		js_attr(&j, &ev->attr);
		js_close(&j, '}');
	}
	js_close(&j, ']');
	if (HAS(EVENT_DESC)) {
		js_open(&j, "event_desc", '[');
		for (size_t i = 0; i < f->nr_event_descs; i++) {
			const struct perfan_event_desc *d = &f->event_descs[i];
			js_open(&j, NULL, '{');
			js_str(&j, "name", d->name);
			js_u64(&j, "type", d->attr_type);
			js_u64(&j, "config", d->attr_config);
			js_open(&j, "ids", '[');
			for (uint64_t k = 0; k < d->nr_ids; k++)
				js_u64(&j, NULL, d->ids[k]);
			js_close(&j, ']');
			js_close(&j, '}');
		}
		js_close(&j, ']');
	}
	if (HAS(CPU_TOPOLOGY)) {
		js_open(&j, "cpu_topology", '{');
		js_strs(&j, "sibling_sockets", f->sibling_cores,
			f->nr_sibling_cores);
		js_strs(&j, "sibling_dies", f->sibling_dies,
			f->nr_sibling_dies);
		js_strs(&j, "sibling_threads", f->sibling_threads,
			f->nr_sibling_threads);
		js_open(&j, "cpus", '[');
		for (size_t i = 0; i < f->nr_cpu_topo; i++) {
			js_open(&j, NULL, '{');
			js_u64(&j, "cpu", i);
			js_i64(&j, "core_id", f->cpu_topo[i].core_id);
			js_i64(&j, "die_id", f->cpu_topo[i].die_id);
			js_i64(&j, "socket_id", f->cpu_topo[i].socket_id);
			js_close(&j, '}');
		}
		js_close(&j, ']');
		js_close(&j, '}');
	}
	if (HAS(NUMA_TOPOLOGY)) {
		js_open(&j, "numa_nodes", '[');
		for (size_t i = 0; i < f->nr_numa_nodes; i++) {
			js_open(&j, NULL, '{');
			js_u64(&j, "node", f->numa_nodes[i].node);
			js_u64(&j, "mem_total_kb", f->numa_nodes[i].mem_total);
			js_u64(&j, "mem_free_kb", f->numa_nodes[i].mem_free);
			js_str(&j, "cpus", f->numa_nodes[i].cpus);
			js_close(&j, '}');
		}
		js_close(&j, ']');
	}
	if (HAS(PMU_MAPPINGS)) {
		js_open(&j, "pmu_mappings", '[');
		for (size_t i = 0; i < f->nr_pmu_mappings; i++) {
			js_open(&j, NULL, '{');
			js_str(&j, "name", f->pmu_mappings[i].name);
			js_u64(&j, "type", f->pmu_mappings[i].type);
			js_close(&j, '}');
		}
		js_close(&j, ']');
	}
	if (HAS(GROUP_DESC)) {
		js_open(&j, "groups", '[');
		for (size_t i = 0; i < f->nr_groups; i++) {
			js_open(&j, NULL, '{');
			js_str(&j, "name", f->groups[i].name);
			js_u64(&j, "leader_idx", f->groups[i].leader_idx);
			js_u64(&j, "nr_members", f->groups[i].nr_members);
			js_close(&j, '}');
		}
		js_close(&j, ']');
	}
	if (HAS(SAMPLE_TIME)) {
		js_u64(&j, "first_sample_time_ns", f->first_sample_time);
		js_u64(&j, "last_sample_time_ns", f->last_sample_time);
	}
	if (HAS(CLOCKID))
		js_u64(&j, "clockid_res_ns", f->clockid_res_ns);
	if (HAS(CLOCK_DATA)) {
		js_open(&j, "clock_data", '{');
		js_u64(&j, "version", f->clock_data_version);
		js_u64(&j, "clockid", f->clock_data_clockid);
		js_str(&j, "clockid_name", clockid_name(f->clock_data_clockid));
		js_u64(&j, "tod_ns", f->clock_data_tod_ns);
		js_u64(&j, "clockid_ns", f->clock_data_clockid_ns);
		js_close(&j, '}');
	}
	if (HAS(COMPRESSED)) {
		js_open(&j, "compressed", '{');
		js_u64(&j, "version", f->comp_version);
		js_str(&j, "type", f->comp_type == 1 ? "zstd" : "unknown");
		js_u64(&j, "level", f->comp_level);
		js_u64(&j, "ratio", f->comp_ratio);
		js_u64(&j, "mmap_len", f->comp_mmap_len);
		js_close(&j, '}');
	}
	if (HAS(HYBRID_TOPOLOGY)) {
		js_open(&j, "hybrid_topology", '[');
		for (size_t i = 0; i < f->nr_hybrid_nodes; i++) {
			js_open(&j, NULL, '{');
			js_str(&j, "pmu", f->hybrid_nodes[i].pmu_name);
			js_str(&j, "cpus", f->hybrid_nodes[i].cpus);
			js_close(&j, '}');
		}
		js_close(&j, ']');
	}
	if (HAS(CPU_PMU_CAPS) || HAS(PMU_CAPS)) {
		js_open(&j, "pmu_caps", '[');
		for (size_t i = 0; i < f->nr_pmu_caps; i++) {
			const struct perfan_pmu_caps *c = &f->pmu_caps[i];
			js_open(&j, NULL, '{');
			js_str(&j, "pmu", c->pmu_name ? c->pmu_name : "cpu");
			js_strs(&j, "caps", c->caps, c->nr);
			js_close(&j, '}');
		}
		js_close(&j, ']');
	}
	if (HAS(BPF_PROG_INFO)) {
		js_open(&j, "bpf_progs", '[');
		for (size_t i = 0; i < f->nr_bpf_progs; i++) {
			const struct perfan_bpf_prog *b = &f->bpf_progs[i];
			js_open(&j, NULL, '{');
			js_u64(&j, "id", b->id);
			js_str(&j, "name", b->name);
			js_u64(&j, "btf_id", b->btf_id);
			js_open(&j, "functions", '[');
			for (size_t k = 0; k < b->nr_subprogs; k++) {
				js_open(&j, NULL, '{');
				js_str(&j, "name", b->subprogs[k].name);
				js_u64(&j, "addr", b->subprogs[k].addr);
				js_u64(&j, "size", b->subprogs[k].size);
				js_close(&j, '}');
			}
			js_close(&j, ']');
			js_close(&j, '}');
		}
		js_close(&j, ']');
	}
	if (HAS(BPF_BTF)) {
		js_open(&j, "bpf_btfs", '[');
		for (size_t i = 0; i < f->nr_bpf_btfs; i++) {
			js_open(&j, NULL, '{');
			js_u64(&j, "id", f->bpf_btfs[i].id);
			js_u64(&j, "size", f->bpf_btfs[i].size);
			js_close(&j, '}');
		}
		js_close(&j, ']');
	}
	if (HAS(TRACING_DATA))
		js_u64(&j, "tracing_data_size", f->tracing_data_size);
	if (HAS(BUILD_ID)) {
		js_open(&j, "build_ids", '[');
		for (size_t i = 0; i < f->nr_build_ids; i++) {
			const struct perfan_build_id_entry *b =
				&f->build_ids[i];
			char hex[41];
			build_id_hex(hex, b);
			js_open(&j, NULL, '{');
			js_str(&j, "build_id", hex);
			js_str(&j, "filename", b->filename);
			js_i64(&j, "pid", b->pid);
			js_u64(&j, "cpumode",
			       b->misc & PERFAN_MISC_CPUMODE_MASK);
			js_close(&j, '}');
		}
		js_close(&j, ']');
	}
	js_close(&j, '}');
	fputc('\n', fp);
#undef HAS
}

/* ---- the command ----------------------------------------------------------- */

int cmd_header(int argc, char **argv)
{
	int json = 0, full = 0;
	const char *out_path = NULL, *path = NULL;
	int opts_done = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (opts_done || a[0] != '-' || !strcmp(a, "-")) {
			if (path) {
				cli_error(CMD,
					  "more than one file given: '%s' "
					  "and '%s'",
					  path, a);
				return bad_usage();
			}
			path = a;
		} else if (!strcmp(a, "--")) {
			opts_done = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--json")) {
			json = 1;
		} else if (!strcmp(a, "-I") || !strcmp(a, "--full")) {
			full = 1;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (i + 1 >= argc) {
				cli_error(CMD, "%s needs a file name", a);
				return bad_usage();
			}
			out_path = argv[++i];
		} else if (!strncmp(a, "--output=", 9)) {
			out_path = a + 9;
		} else if (!strncmp(a, "-o", 2)) {
			out_path = a + 2;
		} else {
			cli_error(CMD, "unknown option '%s'", a);
			return bad_usage();
		}
	}
	if (!path) {
		cli_error(CMD, "no perf.data file given");
		return bad_usage();
	}

	if (cli_output_guard(CMD, out_path, &path, 1))
		return 1;
	struct perfan_perfdata_opts opts =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	opts.log = on_log;
	opts.unordered = 1; /* only the header is read */
	perfan_perfdata *pd = NULL;
	if (perfan_perfdata_open(&pd, path, &opts) < 0 ||
	    perfan_perfdata_read_header(pd) < 0) {
		cli_error(CMD, "%s", perfan_error_last());
		perfan_perfdata_free(pd);
		return 1;
	}

	struct cli_output out;
	if (cli_output_open(&out, out_path) < 0) {
		cli_error(CMD, "cannot write %s: %s", out_path,
			  strerror(errno));
		cli_output_close(&out, 0);
		perfan_perfdata_free(pd);
		return 1;
	}
	if (json)
		print_json(out.fp, pd);
	else
		print_text(out.fp, pd, path, full);
	int ok = !ferror(out.fp);
	if (cli_output_close(&out, ok) < 0 || !ok) {
		cli_error(CMD, "writing %s failed",
			  out_path ? out_path : "standard output");
		perfan_perfdata_free(pd);
		return 1;
	}
	perfan_perfdata_free(pd);
	return 0;
}
