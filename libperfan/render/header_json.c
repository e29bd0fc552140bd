/* render/header_json.c: a perf.data's header and features as one JSON
 * object, through the sinks' JSON writer. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "render/header.h"
#include "render/json.h"

static void js_bits(struct perfan__json *j, const char *key, uint64_t v,
		    const struct perfan__bitname *b)
{
	perfan__json_open(j, key, '[');
	for (; b->name; b++)
		if (v & b->bit)
			perfan__json_str(j, NULL, b->name);
	perfan__json_close(j, ']');
}

static void js_attr(struct perfan__json *j, const struct perfan_attr *a)
{
	perfan__json_open(j, "attr", '{');
	perfan__json_u64(j, "type", a->type);
	perfan__json_u64(j, "size", a->size);
	perfan__json_u64(j, "config", a->config);
	perfan__json_u64(j, "sample_period_or_freq", a->sample_period_or_freq);
	perfan__json_u64(j, "sample_type", a->sample_type);
	js_bits(j, "sample_type_names", a->sample_type, perfan__sample_bits);
	perfan__json_u64(j, "read_format", a->read_format);
	js_bits(j, "read_format_names", a->read_format, perfan__read_bits);
	perfan__json_open(j, "flags", '{');
	for (size_t i = 0; i < PERFAN__NFLAGS; i++)
		if (perfan__flag_value(a->flags, i))
			perfan__json_u64(j, perfan__flag_fields[i].name,
					 perfan__flag_value(a->flags, i));
	perfan__json_close(j, '}');
	perfan__json_u64(j, "wakeup_events_or_watermark",
			 a->wakeup_events_or_watermark);
	perfan__json_u64(j, "bp_type", a->bp_type);
	perfan__json_u64(j, "config1", a->config1);
	perfan__json_u64(j, "config2", a->config2);
	perfan__json_u64(j, "branch_sample_type", a->branch_sample_type);
	perfan__json_u64(j, "sample_regs_user", a->sample_regs_user);
	perfan__json_u64(j, "sample_stack_user", a->sample_stack_user);
	perfan__json_i64(j, "clockid", a->clockid);
	perfan__json_u64(j, "sample_regs_intr", a->sample_regs_intr);
	perfan__json_u64(j, "aux_watermark", a->aux_watermark);
	perfan__json_u64(j, "sample_max_stack", a->sample_max_stack);
	perfan__json_u64(j, "aux_sample_size", a->aux_sample_size);
	perfan__json_u64(j, "sig_data", a->sig_data);
	perfan__json_u64(j, "config3", a->config3);
	perfan__json_close(j, '}');
}

void perfan__header_json(FILE *fp, const perfan_perfdata *pd)
{
	const struct perfan_file_info *info = perfan_perfdata_info(pd);
	const struct perfan_features *f = perfan_perfdata_features(pd);
	struct perfan__json j;
	perfan__json_init(&j, fp, 1);
	char name[32];
#define HAS(x) perfan_features_has(f, PERFAN_FEAT_##x)

	perfan__json_open(&j, NULL, '{');
	perfan__json_str(&j, "file", perfan_perfdata_name(pd));
	perfan__json_bool(&j, "pipe_mode", info->pipe_mode);
	perfan__json_bool(&j, "big_endian", info->big_endian);
	perfan__json_bool(&j, "needs_swap", info->needs_swap);
	if (!info->pipe_mode) {
		perfan__json_u64(&j, "file_size", info->file_size);
		perfan__json_u64(&j, "header_size", info->header_size);
		perfan__json_u64(&j, "attr_size", info->attr_size);
		perfan__json_u64(&j, "data_offset", info->data_offset);
		perfan__json_u64(&j, "data_size", info->data_size);
		perfan__json_u64(&j, "feat_offset",
				 info->data_offset + info->data_size);
	}
	perfan__json_open(&j, "features", '[');
	for (int i = 1; i < PERFAN_FEAT_MAX; i++)
		if (perfan_features_has(f, i)) {
			const char *n = perfan_feature_name(i);
			if (n) {
				perfan__json_str(&j, NULL, n);
			} else {
				snprintf(name, sizeof(name), "feature_%d", i);
				perfan__json_str(&j, NULL, name);
			}
		}
	perfan__json_close(&j, ']');
	if (!info->pipe_mode) {
		perfan__json_open(&j, "missing_features", '[');
		for (int i = 1; i < 32; i++)
			if (!(info->feature_bits[0] >> i & 1))
				perfan__json_str(&j, NULL,
						 perfan_feature_name(i));
		perfan__json_close(&j, ']');
	}
	if (HAS(HOSTNAME))
		perfan__json_str(&j, "hostname", f->hostname);
	if (HAS(OSRELEASE))
		perfan__json_str(&j, "os_release", f->osrelease);
	if (HAS(VERSION))
		perfan__json_str(&j, "perf_version", f->version);
	if (HAS(ARCH))
		perfan__json_str(&j, "arch", f->arch);
	if (HAS(NRCPUS)) {
		perfan__json_u64(&j, "nr_cpus_online", f->nr_cpus_online);
		perfan__json_u64(&j, "nr_cpus_avail", f->nr_cpus_avail);
	}
	if (HAS(CPUDESC))
		perfan__json_str(&j, "cpudesc", f->cpudesc);
	if (HAS(CPUID))
		perfan__json_str(&j, "cpuid", f->cpuid);
	if (HAS(TOTAL_MEM))
		perfan__json_u64(&j, "total_mem_kb", f->total_mem_kb);
	if (HAS(CMDLINE))
		perfan__json_strs(&j, "cmdline", f->cmdline_argv,
				  f->cmdline_argc);

	/* the events as the reader knows them (attrs with ids and names) */
	perfan__json_open(&j, "events", '[');
	for (size_t i = 0; i < perfan_perfdata_nr_events(pd); i++) {
		const struct perfan_event *ev = perfan_perfdata_event(pd, i);
		perfan__json_open(&j, NULL, '{');
		perfan__json_str(&j, "name", ev->name);
		perfan__json_open(&j, "ids", '[');
		for (size_t k = 0; k < ev->nr_ids; k++)
			perfan__json_u64(&j, NULL, ev->ids[k]);
		perfan__json_close(&j, ']');
		js_attr(&j, &ev->attr);
		perfan__json_close(&j, '}');
	}
	perfan__json_close(&j, ']');
	if (HAS(EVENT_DESC)) {
		perfan__json_open(&j, "event_desc", '[');
		for (size_t i = 0; i < f->nr_event_descs; i++) {
			const struct perfan_event_desc *d = &f->event_descs[i];
			perfan__json_open(&j, NULL, '{');
			perfan__json_str(&j, "name", d->name);
			perfan__json_u64(&j, "type", d->attr_type);
			perfan__json_u64(&j, "config", d->attr_config);
			perfan__json_open(&j, "ids", '[');
			for (uint64_t k = 0; k < d->nr_ids; k++)
				perfan__json_u64(&j, NULL, d->ids[k]);
			perfan__json_close(&j, ']');
			perfan__json_close(&j, '}');
		}
		perfan__json_close(&j, ']');
	}
	if (HAS(CPU_TOPOLOGY)) {
		perfan__json_open(&j, "cpu_topology", '{');
		perfan__json_strs(&j, "sibling_sockets", f->sibling_cores,
				  f->nr_sibling_cores);
		perfan__json_strs(&j, "sibling_dies", f->sibling_dies,
				  f->nr_sibling_dies);
		perfan__json_strs(&j, "sibling_threads", f->sibling_threads,
				  f->nr_sibling_threads);
		perfan__json_open(&j, "cpus", '[');
		for (size_t i = 0; i < f->nr_cpu_topo; i++) {
			perfan__json_open(&j, NULL, '{');
			perfan__json_u64(&j, "cpu", i);
			perfan__json_i64(&j, "core_id", f->cpu_topo[i].core_id);
			perfan__json_i64(&j, "die_id", f->cpu_topo[i].die_id);
			perfan__json_i64(&j, "socket_id",
					 f->cpu_topo[i].socket_id);
			perfan__json_close(&j, '}');
		}
		perfan__json_close(&j, ']');
		perfan__json_close(&j, '}');
	}
	if (HAS(NUMA_TOPOLOGY)) {
		perfan__json_open(&j, "numa_nodes", '[');
		for (size_t i = 0; i < f->nr_numa_nodes; i++) {
			perfan__json_open(&j, NULL, '{');
			perfan__json_u64(&j, "node", f->numa_nodes[i].node);
			perfan__json_u64(&j, "mem_total_kb",
					 f->numa_nodes[i].mem_total);
			perfan__json_u64(&j, "mem_free_kb",
					 f->numa_nodes[i].mem_free);
			perfan__json_str(&j, "cpus", f->numa_nodes[i].cpus);
			perfan__json_close(&j, '}');
		}
		perfan__json_close(&j, ']');
	}
	if (HAS(PMU_MAPPINGS)) {
		perfan__json_open(&j, "pmu_mappings", '[');
		for (size_t i = 0; i < f->nr_pmu_mappings; i++) {
			perfan__json_open(&j, NULL, '{');
			perfan__json_str(&j, "name", f->pmu_mappings[i].name);
			perfan__json_u64(&j, "type", f->pmu_mappings[i].type);
			perfan__json_close(&j, '}');
		}
		perfan__json_close(&j, ']');
	}
	if (HAS(GROUP_DESC)) {
		perfan__json_open(&j, "groups", '[');
		for (size_t i = 0; i < f->nr_groups; i++) {
			perfan__json_open(&j, NULL, '{');
			perfan__json_str(&j, "name", f->groups[i].name);
			perfan__json_u64(&j, "leader_idx",
					 f->groups[i].leader_idx);
			perfan__json_u64(&j, "nr_members",
					 f->groups[i].nr_members);
			perfan__json_close(&j, '}');
		}
		perfan__json_close(&j, ']');
	}
	if (HAS(SAMPLE_TIME)) {
		perfan__json_u64(&j, "first_sample_time_ns",
				 f->first_sample_time);
		perfan__json_u64(&j, "last_sample_time_ns",
				 f->last_sample_time);
	}
	if (HAS(CLOCKID))
		perfan__json_u64(&j, "clockid_res_ns", f->clockid_res_ns);
	if (HAS(CLOCK_DATA)) {
		perfan__json_open(&j, "clock_data", '{');
		perfan__json_u64(&j, "version", f->clock_data_version);
		perfan__json_u64(&j, "clockid", f->clock_data_clockid);
		perfan__json_str(&j, "perfan__clockid_name",
				 perfan__clockid_name(f->clock_data_clockid));
		perfan__json_u64(&j, "tod_ns", f->clock_data_tod_ns);
		perfan__json_u64(&j, "clockid_ns", f->clock_data_clockid_ns);
		perfan__json_close(&j, '}');
	}
	if (HAS(COMPRESSED)) {
		perfan__json_open(&j, "compressed", '{');
		perfan__json_u64(&j, "version", f->comp_version);
		perfan__json_str(&j, "type",
				 f->comp_type == 1 ? "zstd" : "unknown");
		perfan__json_u64(&j, "level", f->comp_level);
		perfan__json_u64(&j, "ratio", f->comp_ratio);
		perfan__json_u64(&j, "mmap_len", f->comp_mmap_len);
		perfan__json_close(&j, '}');
	}
	if (HAS(HYBRID_TOPOLOGY)) {
		perfan__json_open(&j, "hybrid_topology", '[');
		for (size_t i = 0; i < f->nr_hybrid_nodes; i++) {
			perfan__json_open(&j, NULL, '{');
			perfan__json_str(&j, "pmu",
					 f->hybrid_nodes[i].pmu_name);
			perfan__json_str(&j, "cpus", f->hybrid_nodes[i].cpus);
			perfan__json_close(&j, '}');
		}
		perfan__json_close(&j, ']');
	}
	if (HAS(CPU_PMU_CAPS) || HAS(PMU_CAPS)) {
		perfan__json_open(&j, "pmu_caps", '[');
		for (size_t i = 0; i < f->nr_pmu_caps; i++) {
			const struct perfan_pmu_caps *c = &f->pmu_caps[i];
			perfan__json_open(&j, NULL, '{');
			perfan__json_str(&j, "pmu",
					 c->pmu_name ? c->pmu_name : "cpu");
			perfan__json_strs(&j, "caps", c->caps, c->nr);
			perfan__json_close(&j, '}');
		}
		perfan__json_close(&j, ']');
	}
	if (HAS(BPF_PROG_INFO)) {
		perfan__json_open(&j, "bpf_progs", '[');
		for (size_t i = 0; i < f->nr_bpf_progs; i++) {
			const struct perfan_bpf_prog *b = &f->bpf_progs[i];
			perfan__json_open(&j, NULL, '{');
			perfan__json_u64(&j, "id", b->id);
			perfan__json_str(&j, "name", b->name);
			perfan__json_u64(&j, "btf_id", b->btf_id);
			perfan__json_open(&j, "functions", '[');
			for (size_t k = 0; k < b->nr_subprogs; k++) {
				perfan__json_open(&j, NULL, '{');
				perfan__json_str(&j, "name",
						 b->subprogs[k].name);
				perfan__json_u64(&j, "addr",
						 b->subprogs[k].addr);
				perfan__json_u64(&j, "size",
						 b->subprogs[k].size);
				perfan__json_close(&j, '}');
			}
			perfan__json_close(&j, ']');
			perfan__json_close(&j, '}');
		}
		perfan__json_close(&j, ']');
	}
	if (HAS(BPF_BTF)) {
		perfan__json_open(&j, "bpf_btfs", '[');
		for (size_t i = 0; i < f->nr_bpf_btfs; i++) {
			perfan__json_open(&j, NULL, '{');
			perfan__json_u64(&j, "id", f->bpf_btfs[i].id);
			perfan__json_u64(&j, "size", f->bpf_btfs[i].size);
			perfan__json_close(&j, '}');
		}
		perfan__json_close(&j, ']');
	}
	if (HAS(TRACING_DATA))
		perfan__json_u64(&j, "tracing_data_size", f->tracing_data_size);
	if (HAS(BUILD_ID)) {
		perfan__json_open(&j, "build_ids", '[');
		for (size_t i = 0; i < f->nr_build_ids; i++) {
			const struct perfan_build_id_entry *b =
				&f->build_ids[i];
			char hex[41];
			perfan__build_id_hex(hex, b);
			perfan__json_open(&j, NULL, '{');
			perfan__json_str(&j, "build_id", hex);
			perfan__json_str(&j, "filename", b->filename);
			perfan__json_i64(&j, "pid", b->pid);
			perfan__json_u64(&j, "cpumode",
					 b->misc & PERFAN_MISC_CPUMODE_MASK);
			perfan__json_close(&j, '}');
		}
		perfan__json_close(&j, ']');
	}
	perfan__json_end(&j);
#undef HAS
}
