/* render/header_text.c: a perf.data's header and features as the lines
 * `perf report --header-only` prints (-I: all of them). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "render/header.h"
#include "sources/perfdata/header_result.h"
#include "util/error.h"
#include "util/opts.h"

static void print_bits(FILE *fp, uint64_t v, const struct perfan__bitname *b)
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
	B("sample_type", a->sample_type, perfan__sample_bits);
	B("read_format", a->read_format, perfan__read_bits);
	for (size_t i = 0; i < PERFAN__NFLAGS; i++)
		U(perfan__flag_fields[i].name, perfan__flag_value(a->flags, i));
	U("{ wakeup_events, wakeup_watermark }", a->wakeup_events_or_watermark);
	U("bp_type", a->bp_type);
	X("{ bp_addr, config1 }", a->config1);
	X("{ bp_len, config2 }", a->config2);
	B("branch_sample_type", a->branch_sample_type, perfan__branch_bits);
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
		const char *cn = perfan__clockid_name(f->clock_data_clockid);
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
		perfan__build_id_hex(hex, &b[last]);
		fprintf(fp, "%s %s\n", hex, b[i].filename);
	}
}

void perfan__header_text(FILE *fp, const perfan_perfdata *pd, const char *path,
			 int full)
{
	const struct perfan_file_info *info = perfan_perfdata_info(pd);
	const struct perfan_features *f = perfan_perfdata_features(pd);
	struct stat st;
	int have_st = !strcmp(path, "-") ? fstat(0, &st) == 0
					 : stat(path, &st) == 0;
	char when[64] = "unknown\n";
	if (have_st && !S_ISREG(st.st_mode)) {
		/* a pipe's or a socket's time is when it was read (perf
		 * prints that): a stream does not say when it was recorded */
		snprintf(when, sizeof(when), "unknown (a stream)\n");
	} else if (have_st) {
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

int perfan_header_write(const perfan_header *h, FILE *fp,
			const struct perfan_header_write_opts *opts)
{
	struct perfan_header_write_opts o;
	int rc = PERFAN__OPTS_COPY(o, opts);
	if (rc)
		return rc;
	if (!h || !fp)
		return perfan__err_null(__func__, h ? "fp" : "header");
	const perfan_perfdata *pd = h->pd;
	if (o.json)
		perfan__header_json(fp, pd);
	else
		perfan__header_text(fp, pd,
				    o.name ? o.name : perfan_perfdata_name(pd),
				    o.full);
	return ferror(fp) ? perfan__err(PERFAN_EIO,
					"writing the header of %s failed",
					perfan_perfdata_name(pd))
			  : 0;
}
