/* perfan/features.h: perf.data header features (the sections after the data
 * in file mode, HEADER_FEATURE records in pipe mode), decoded. */
#ifndef PERFAN_FEATURES_H
#define PERFAN_FEATURES_H

#include <perfan/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Feature bits, as perf numbers them. */
enum perfan_feature {
	PERFAN_FEAT_TRACING_DATA = 1,
	PERFAN_FEAT_BUILD_ID = 2,
	PERFAN_FEAT_HOSTNAME = 3,
	PERFAN_FEAT_OSRELEASE = 4,
	PERFAN_FEAT_VERSION = 5,
	PERFAN_FEAT_ARCH = 6,
	PERFAN_FEAT_NRCPUS = 7,
	PERFAN_FEAT_CPUDESC = 8,
	PERFAN_FEAT_CPUID = 9,
	PERFAN_FEAT_TOTAL_MEM = 10,
	PERFAN_FEAT_CMDLINE = 11,
	PERFAN_FEAT_EVENT_DESC = 12,
	PERFAN_FEAT_CPU_TOPOLOGY = 13,
	PERFAN_FEAT_NUMA_TOPOLOGY = 14,
	PERFAN_FEAT_BRANCH_STACK = 15,
	PERFAN_FEAT_PMU_MAPPINGS = 16,
	PERFAN_FEAT_GROUP_DESC = 17,
	PERFAN_FEAT_AUXTRACE = 18,
	PERFAN_FEAT_STAT = 19,
	PERFAN_FEAT_CACHE = 20,
	PERFAN_FEAT_SAMPLE_TIME = 21,
	PERFAN_FEAT_MEM_TOPOLOGY = 22,
	PERFAN_FEAT_CLOCKID = 23,
	PERFAN_FEAT_DIR_FORMAT = 24,
	PERFAN_FEAT_BPF_PROG_INFO = 25,
	PERFAN_FEAT_BPF_BTF = 26,
	PERFAN_FEAT_COMPRESSED = 27,
	PERFAN_FEAT_CPU_PMU_CAPS = 28,
	PERFAN_FEAT_CLOCK_DATA = 29,
	PERFAN_FEAT_HYBRID_TOPOLOGY = 30,
	PERFAN_FEAT_PMU_CAPS = 31,
	PERFAN_FEAT_MAX = 256,
};

/* Name of a feature bit ("hostname", "build_id", ...) or NULL. */
PERFAN_API const char *perfan_feature_name(int feat);

struct perfan_build_id_entry {
	int32_t pid;
	uint16_t misc; /* cpumode: kernel, user, guest... */
	uint8_t size;  /* bytes of build_id in use */
	uint8_t build_id[20];
	const char *filename;
};

struct perfan_event_desc {
	const char *name;
	uint32_t attr_type;
	uint64_t attr_config;
	uint64_t nr_ids;
	const uint64_t *ids;
};

struct perfan_cpu_topo_entry {
	int32_t core_id, socket_id, die_id; /* -1 where not recorded */
};

struct perfan_numa_node {
	uint32_t node;
	uint64_t mem_total, mem_free;
	const char *cpus;
};

struct perfan_pmu_mapping {
	uint32_t type;
	const char *name;
};

struct perfan_group_desc {
	const char *name; /* may be NULL ("{anon_group}") */
	uint32_t leader_idx, nr_members;
};

struct perfan_hybrid_node {
	const char *pmu_name;
	const char *cpus;
};

struct perfan_pmu_caps {
	const char *pmu_name; /* NULL for CPU_PMU_CAPS */
	size_t nr;
	const char *const *caps; /* "name=value" strings */
};

/* One jited function of a BPF program (BPF_PROG_INFO). */
struct perfan_bpf_subprog {
	const char *name; /* as perf names it: bpf_prog_TAG_FUNCTION */
	uint64_t addr;    /* jited address */
	uint32_t size;    /* jited bytes */
	uint8_t tag[8];
};

/* A BPF program loaded while perf recorded (perf's own, --off-cpu's). */
struct perfan_bpf_prog {
	uint32_t id, btf_id; /* btf_id 0: none */
	const char *name;    /* the kernel's (truncated) program name */
	size_t nr_subprogs;
	const struct perfan_bpf_subprog *subprogs;
};

/* The BTF of a BPF program (BPF_BTF). */
struct perfan_bpf_btf {
	uint32_t id;
	uint32_t size;
	const void *data;
};

/* Everything decoded from the features present. A feature's fields are only
 * meaningful when perfan_features_has() says it is present. */
struct perfan_features {
	uint64_t present[4]; /* bit per feature, as in the file header */

	const char *hostname, *osrelease, *version, *arch;
	const char *cpudesc, *cpuid;
	uint32_t nr_cpus_online, nr_cpus_avail;
	uint64_t total_mem_kb;
	size_t cmdline_argc;
	const char *const *cmdline_argv;

	size_t nr_build_ids;
	const struct perfan_build_id_entry *build_ids;

	size_t nr_event_descs;
	const struct perfan_event_desc *event_descs;

	/* CPU_TOPOLOGY */
	size_t nr_sibling_cores, nr_sibling_threads, nr_sibling_dies;
	const char *const *sibling_cores;
	const char *const *sibling_threads;
	const char *const *sibling_dies;
	size_t nr_cpu_topo;
	const struct perfan_cpu_topo_entry *cpu_topo;

	size_t nr_numa_nodes;
	const struct perfan_numa_node *numa_nodes;

	size_t nr_pmu_mappings;
	const struct perfan_pmu_mapping *pmu_mappings;

	size_t nr_groups;
	const struct perfan_group_desc *groups;

	/* SAMPLE_TIME */
	uint64_t first_sample_time, last_sample_time;

	/* CLOCKID and CLOCK_DATA */
	uint64_t clockid_res_ns;
	uint32_t clock_data_version;
	uint32_t clock_data_clockid;
	uint64_t clock_data_tod_ns, clock_data_clockid_ns;

	/* COMPRESSED */
	uint32_t comp_version, comp_type, comp_level, comp_ratio;
	uint64_t comp_mmap_len;

	size_t nr_hybrid_nodes;
	const struct perfan_hybrid_node *hybrid_nodes;

	/* CPU_PMU_CAPS (one entry, pmu_name NULL) and PMU_CAPS */
	size_t nr_pmu_caps;
	const struct perfan_pmu_caps *pmu_caps;

	/* TRACING_DATA: the raw tracing data (for libtraceevent) */
	uint64_t tracing_data_size;
	const void *tracing_data;

	/* Offsets and sizes of each feature's bytes in the file (file mode),
	 * 0 where absent; feature payloads not decoded above are there. */
	uint64_t section_offset[32], section_size[32];

	/* BPF_PROG_INFO, by program id as perf lists them (programs whose
	 * counts of functions, tags and lengths disagree left out, as perf
	 * prints nothing for them); BPF_BTF, by id. */
	size_t nr_bpf_progs;
	const struct perfan_bpf_prog *bpf_progs;
	size_t nr_bpf_btfs;
	const struct perfan_bpf_btf *bpf_btfs;
};

/* 1 if feature FEAT is present. */
PERFAN_API int perfan_features_has(const struct perfan_features *f, int feat);

#ifdef __cplusplus
}
#endif
#endif
