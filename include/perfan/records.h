/* perfan/records.h: perf.data records and events as libperfan decodes them.
 * Every multi-byte field is in host byte order; every array pointer is
 * suitably aligned (copied when the file's bytes were not). All pointers are
 * borrowed and live until the next perfan_perfdata_next call. */
#ifndef PERFAN_RECORDS_H
#define PERFAN_RECORDS_H

#include <perfan/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Record types: kernel (1-22) and perf tool (64-84). */
enum perfan_record_type {
	PERFAN_REC_MMAP = 1,
	PERFAN_REC_LOST = 2,
	PERFAN_REC_COMM = 3,
	PERFAN_REC_EXIT = 4,
	PERFAN_REC_THROTTLE = 5,
	PERFAN_REC_UNTHROTTLE = 6,
	PERFAN_REC_FORK = 7,
	PERFAN_REC_READ = 8,
	PERFAN_REC_SAMPLE = 9,
	PERFAN_REC_MMAP2 = 10,
	PERFAN_REC_AUX = 11,
	PERFAN_REC_ITRACE_START = 12,
	PERFAN_REC_LOST_SAMPLES = 13,
	PERFAN_REC_SWITCH = 14,
	PERFAN_REC_SWITCH_CPU_WIDE = 15,
	PERFAN_REC_NAMESPACES = 16,
	PERFAN_REC_KSYMBOL = 17,
	PERFAN_REC_BPF_EVENT = 18,
	PERFAN_REC_CGROUP = 19,
	PERFAN_REC_TEXT_POKE = 20,
	PERFAN_REC_AUX_OUTPUT_HW_ID = 21,
	PERFAN_REC_CALLCHAIN_DEFERRED = 22,
	PERFAN_REC_KERNEL_MAX = 23,

	PERFAN_REC_HEADER_ATTR = 64,
	PERFAN_REC_HEADER_EVENT_TYPE = 65,
	PERFAN_REC_HEADER_TRACING_DATA = 66,
	PERFAN_REC_HEADER_BUILD_ID = 67,
	PERFAN_REC_FINISHED_ROUND = 68,
	PERFAN_REC_ID_INDEX = 69,
	PERFAN_REC_AUXTRACE_INFO = 70,
	PERFAN_REC_AUXTRACE = 71,
	PERFAN_REC_AUXTRACE_ERROR = 72,
	PERFAN_REC_THREAD_MAP = 73,
	PERFAN_REC_CPU_MAP = 74,
	PERFAN_REC_STAT_CONFIG = 75,
	PERFAN_REC_STAT = 76,
	PERFAN_REC_STAT_ROUND = 77,
	PERFAN_REC_EVENT_UPDATE = 78,
	PERFAN_REC_TIME_CONV = 79,
	PERFAN_REC_HEADER_FEATURE = 80,
	PERFAN_REC_COMPRESSED = 81,
	PERFAN_REC_FINISHED_INIT = 82,
	PERFAN_REC_COMPRESSED2 = 83,
	PERFAN_REC_BPF_METADATA = 84,
	PERFAN_REC_MAX = 85,
};

/* perf_event_attr.sample_type bits. */
enum perfan_sample_bits {
	PERFAN_SAMPLE_IP = 1u << 0,
	PERFAN_SAMPLE_TID = 1u << 1,
	PERFAN_SAMPLE_TIME = 1u << 2,
	PERFAN_SAMPLE_ADDR = 1u << 3,
	PERFAN_SAMPLE_READ = 1u << 4,
	PERFAN_SAMPLE_CALLCHAIN = 1u << 5,
	PERFAN_SAMPLE_ID = 1u << 6,
	PERFAN_SAMPLE_CPU = 1u << 7,
	PERFAN_SAMPLE_PERIOD = 1u << 8,
	PERFAN_SAMPLE_STREAM_ID = 1u << 9,
	PERFAN_SAMPLE_RAW = 1u << 10,
	PERFAN_SAMPLE_BRANCH_STACK = 1u << 11,
	PERFAN_SAMPLE_REGS_USER = 1u << 12,
	PERFAN_SAMPLE_STACK_USER = 1u << 13,
	PERFAN_SAMPLE_WEIGHT = 1u << 14,
	PERFAN_SAMPLE_DATA_SRC = 1u << 15,
	PERFAN_SAMPLE_IDENTIFIER = 1u << 16,
	PERFAN_SAMPLE_TRANSACTION = 1u << 17,
	PERFAN_SAMPLE_REGS_INTR = 1u << 18,
	PERFAN_SAMPLE_PHYS_ADDR = 1u << 19,
	PERFAN_SAMPLE_AUX = 1u << 20,
	PERFAN_SAMPLE_CGROUP = 1u << 21,
	PERFAN_SAMPLE_DATA_PAGE_SIZE = 1u << 22,
	PERFAN_SAMPLE_CODE_PAGE_SIZE = 1u << 23,
	PERFAN_SAMPLE_WEIGHT_STRUCT = 1u << 24,
};

/* perf_event_attr.read_format bits. */
enum perfan_read_format_bits {
	PERFAN_FORMAT_TOTAL_TIME_ENABLED = 1u << 0,
	PERFAN_FORMAT_TOTAL_TIME_RUNNING = 1u << 1,
	PERFAN_FORMAT_ID = 1u << 2,
	PERFAN_FORMAT_GROUP = 1u << 3,
	PERFAN_FORMAT_LOST = 1u << 4,
};

/* header.misc bits that readers use. */
#define PERFAN_MISC_CPUMODE_MASK 7u
#define PERFAN_MISC_KERNEL 1u
#define PERFAN_MISC_USER 2u
#define PERFAN_MISC_HYPERVISOR 3u
#define PERFAN_MISC_GUEST_KERNEL 4u
#define PERFAN_MISC_GUEST_USER 5u
#define PERFAN_MISC_MMAP_BUILD_ID (1u << 14)
#define PERFAN_MISC_COMM_EXEC (1u << 13)
#define PERFAN_MISC_SWITCH_OUT (1u << 13)
#define PERFAN_MISC_SWITCH_OUT_PREEMPT (1u << 14)
#define PERFAN_MISC_EXACT_IP (1u << 14)

/* Callchain context markers (values in a callchain, not addresses). */
#define PERFAN_CONTEXT_HV ((uint64_t)-32)
#define PERFAN_CONTEXT_KERNEL ((uint64_t)-128)
#define PERFAN_CONTEXT_USER ((uint64_t)-512)
#define PERFAN_CONTEXT_GUEST ((uint64_t)-2048)
#define PERFAN_CONTEXT_GUEST_KERNEL ((uint64_t)-2176)
#define PERFAN_CONTEXT_GUEST_USER ((uint64_t)-2560)
#define PERFAN_CONTEXT_MAX ((uint64_t)-4095)

/* The perf_event_attr fields a reader needs; the file's attr may be larger
 * or smaller (64 to 136+ bytes): unknown trailing fields are skipped and
 * missing ones are 0. */
struct perfan_attr {
	uint32_t type;
	uint32_t size; /* as written in the file */
	uint64_t config;
	uint64_t sample_period_or_freq;
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags; /* the bitfield word: disabled, inherit, ... */
	uint32_t wakeup_events_or_watermark;
	uint32_t bp_type;
	uint64_t config1; /* bp_addr, kprobe_func, ... */
	uint64_t config2; /* bp_len, ... */
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint32_t aux_sample_size;
	uint64_t sig_data;
	uint64_t config3;
};

/* Bits of perfan_attr.flags, in perf_event_attr order. */
#define PERFAN_ATTR_FREQ (1ull << 10)
#define PERFAN_ATTR_SAMPLE_ID_ALL (1ull << 18)
#define PERFAN_ATTR_EXCLUDE_USER (1ull << 4)
#define PERFAN_ATTR_EXCLUDE_KERNEL (1ull << 5)
#define PERFAN_ATTR_EXCLUDE_HV (1ull << 6)
#define PERFAN_ATTR_EXCLUDE_IDLE (1ull << 7)
#define PERFAN_ATTR_PRECISE_IP_SHIFT 15
#define PERFAN_ATTR_EXCLUDE_HOST (1ull << 19)
#define PERFAN_ATTR_EXCLUDE_GUEST (1ull << 20)
#define PERFAN_ATTR_EXCLUDE_CALLCHAIN_KERNEL (1ull << 21)
#define PERFAN_ATTR_EXCLUDE_CALLCHAIN_USER (1ull << 22)

/* attr.branch_sample_type bit that adds hw_idx to branch stacks. */
#define PERFAN_BRANCH_HW_INDEX (1ull << 17)

/* An event of the recording: its attr, the sample ids that belong to it and
 * its name (from event_desc, EVENT_UPDATE or HEADER_EVENT_TYPE where the file
 * has one, otherwise derived from the attr the way perf names it). */
struct perfan_event {
	struct perfan_attr attr;
	const char *name;
	size_t nr_ids;
	const uint64_t *ids;
	size_t index;     /* position in the file's attr list */
	int name_derived; /* 1: the file had no name (no event_desc, no
			     tracing data naming a tracepoint); derived
			     from attr */
};

/* The sample_id_all trailer of non-sample records (fields present per
 * `present`, a mask of PERFAN_SAMPLE_TID/TIME/ID/STREAM_ID/CPU/IDENTIFIER). */
struct perfan_sample_id {
	uint64_t present;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, res;
};

/* Counter values of PERF_SAMPLE_READ and PERF_RECORD_READ. */
struct perfan_read_entry {
	uint64_t value, id, lost;
};
struct perfan_read_values {
	uint64_t format; /* attr.read_format */
	uint64_t time_enabled, time_running;
	uint64_t nr; /* 1 unless PERF_FORMAT_GROUP */
	const struct perfan_read_entry *entries;
};

/* One branch of a branch stack; `flags` is the raw bitfield word. */
struct perfan_branch_entry {
	uint64_t from, to, flags;
};
#define PERFAN_BRANCH_MISPRED(f) ((f)&1u)
#define PERFAN_BRANCH_PREDICTED(f) (((f) >> 1) & 1u)
#define PERFAN_BRANCH_IN_TX(f) (((f) >> 2) & 1u)
#define PERFAN_BRANCH_ABORT(f) (((f) >> 3) & 1u)
#define PERFAN_BRANCH_CYCLES(f) (((f) >> 4) & 0xffffu)
#define PERFAN_BRANCH_TYPE(f) (((f) >> 20) & 0xfu)

struct perfan_regs {
	uint64_t abi; /* 0: none recorded */
	uint64_t mask;
	uint64_t nr; /* popcount(mask) when abi != 0 */
	const uint64_t *regs;
};

/* A PERF_RECORD_SAMPLE; `type` says which fields are present. */
struct perfan_sample {
	uint64_t type;
	uint64_t identifier;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, res;
	uint64_t period;
	struct perfan_read_values read;
	uint64_t callchain_nr;
	const uint64_t *callchain;
	uint32_t raw_size;
	const void *raw;
	uint64_t branch_nr;
	uint64_t branch_hw_idx; /* (uint64_t)-1 when not recorded */
	const struct perfan_branch_entry *branches;
	struct perfan_regs user_regs;
	uint64_t user_stack_size; /* bytes copied */
	const void *user_stack;
	uint64_t user_stack_dyn_size; /* bytes that were valid */
	uint64_t weight;              /* WEIGHT, or WEIGHT_STRUCT var1 */
	uint16_t weight_var2, weight_var3;
	uint64_t data_src;
	uint64_t transaction;
	struct perfan_regs intr_regs;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	uint64_t aux_size;
	const void *aux;
};

struct perfan_rec_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	/* MMAP2 only: */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint8_t build_id_size; /* MMAP2 with PERFAN_MISC_MMAP_BUILD_ID */
	uint8_t build_id[20];
	uint32_t prot, flags;
	const char *filename;
};

struct perfan_rec_comm {
	uint32_t pid, tid;
	const char *comm;
};

struct perfan_rec_fork_exit {
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct perfan_rec_lost {
	uint64_t id, lost;
};

struct perfan_rec_throttle {
	uint64_t time, id, stream_id;
};

struct perfan_rec_read {
	uint32_t pid, tid;
	struct perfan_read_values values;
};

struct perfan_rec_aux {
	uint64_t aux_offset, aux_size, flags;
};

struct perfan_rec_pid_tid {
	uint32_t pid, tid;
};

struct perfan_rec_switch {
	/* SWITCH_CPU_WIDE only; out/preempt are in the record's misc */
	uint32_t next_prev_pid, next_prev_tid;
};

struct perfan_ns_link {
	uint64_t dev, ino;
};
struct perfan_rec_namespaces {
	uint32_t pid, tid;
	uint64_t nr;
	const struct perfan_ns_link *links;
};

struct perfan_rec_ksymbol {
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	const char *name;
};

struct perfan_rec_bpf_event {
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[8];
};

struct perfan_rec_cgroup {
	uint64_t id;
	const char *path;
};

struct perfan_rec_text_poke {
	uint64_t addr;
	uint16_t old_len, new_len;
	const uint8_t *bytes; /* old_len + new_len bytes */
};

struct perfan_rec_aux_output_hw_id {
	uint64_t hw_id;
};

struct perfan_rec_callchain_deferred {
	uint64_t cookie;
	uint64_t nr;
	const uint64_t *ips;
};

/* Tool records (64+). */
struct perfan_rec_header_attr {
	struct perfan_attr attr;
	uint64_t nr_ids;
	const uint64_t *ids;
};

struct perfan_rec_event_type {
	uint64_t event_id;
	const char *name;
};

struct perfan_rec_tracing_data {
	uint32_t size;    /* payload bytes that follow the record */
	const void *data; /* the payload */
};

struct perfan_rec_build_id {
	int32_t pid;
	uint8_t size; /* build-id length (20 when the file does not say) */
	uint8_t build_id[20];
	const char *filename;
};

struct perfan_id_index_entry {
	uint64_t id, idx, cpu, tid;
};
struct perfan_rec_id_index {
	uint64_t nr;
	const struct perfan_id_index_entry *entries;
};

struct perfan_rec_auxtrace_info {
	uint32_t type;
	uint64_t nr_priv;
	const uint64_t *priv;
};

struct perfan_rec_auxtrace {
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu;
	const void *data; /* `size` bytes that followed the record */
};

struct perfan_rec_auxtrace_error {
	uint32_t type, code, cpu, pid, tid, fmt;
	uint64_t ip, time;
	uint32_t machine_pid, vcpu;
	const char *msg;
};

struct perfan_thread_map_entry {
	uint64_t pid;
	char comm[16];
};
struct perfan_rec_thread_map {
	uint64_t nr;
	const struct perfan_thread_map_entry *entries;
};

/* CPU_MAP and EVENT_UPDATE cpus: the CPUs listed. */
struct perfan_cpu_list {
	uint64_t nr;
	const uint32_t *cpus;
};

struct perfan_stat_config_entry {
	uint64_t tag, val;
};
struct perfan_rec_stat_config {
	uint64_t nr;
	const struct perfan_stat_config_entry *entries;
};

struct perfan_rec_stat {
	uint64_t id;
	uint32_t cpu, thread;
	uint64_t val, ena, run;
};

struct perfan_rec_stat_round {
	uint64_t type, time;
};

enum perfan_event_update_type {
	PERFAN_EVENT_UPDATE_UNIT = 0,
	PERFAN_EVENT_UPDATE_SCALE = 1,
	PERFAN_EVENT_UPDATE_NAME = 2,
	PERFAN_EVENT_UPDATE_CPUS = 3,
};
struct perfan_rec_event_update {
	uint64_t type, id;
	const char *str;             /* UNIT and NAME */
	double scale;                /* SCALE */
	struct perfan_cpu_list cpus; /* CPUS */
};

struct perfan_rec_time_conv {
	uint64_t time_shift, time_mult, time_zero;
	int has_cycles; /* the longer form, perf 5.10+ */
	uint64_t time_cycles, time_mask;
	uint8_t cap_user_time_zero, cap_user_time_short;
};

struct perfan_rec_header_feature {
	uint64_t feat_id;
	uint64_t size;
	const void *data;
};

struct perfan_rec_compressed {
	uint64_t size;
	const void *data;
};

struct perfan_rec_bpf_metadata {
	uint64_t nr_entries;
	const char *prog_name;
	const void *entries; /* nr_entries x {char key[64]; char value[256];} */
};

/* A decoded record. `type` selects the member of the union that is set;
 * records without fields (FINISHED_ROUND, FINISHED_INIT) and types unknown
 * to this version leave it unset: their bytes are in `raw`. */
struct perfan_record {
	uint32_t type;
	uint16_t misc;
	uint32_t size;       /* header.size */
	uint64_t offset;     /* in the file; for records decompressed from a
				   COMPRESSED record, that record's offset */
	int from_compressed; /* 1 if it came out of a COMPRESSED record */
	const void *raw;     /* the record's bytes, as in the file */
	/* The event of a SAMPLE, or of another record with a sample_id
	 * trailer. A SAMPLE whose id matches no event (perf counts those as
	 * "unknown id") has event NULL and an undecoded u.sample. */
	const struct perfan_event *event;
	struct perfan_sample_id sid; /* sample_id_all trailer, if any */
	union {
		struct perfan_sample sample;
		struct perfan_rec_mmap mmap; /* MMAP and MMAP2 */
		struct perfan_rec_comm comm;
		struct perfan_rec_fork_exit fork_exit; /* FORK and EXIT */
		struct perfan_rec_lost lost;
		struct perfan_rec_throttle throttle;
		struct perfan_rec_read read;
		struct perfan_rec_aux aux;
		struct perfan_rec_pid_tid itrace_start;
		struct perfan_rec_lost lost_samples; /* only .lost */
		struct perfan_rec_switch sw;
		struct perfan_rec_namespaces namespaces;
		struct perfan_rec_ksymbol ksymbol;
		struct perfan_rec_bpf_event bpf_event;
		struct perfan_rec_cgroup cgroup;
		struct perfan_rec_text_poke text_poke;
		struct perfan_rec_aux_output_hw_id aux_output_hw_id;
		struct perfan_rec_callchain_deferred callchain_deferred;
		struct perfan_rec_header_attr header_attr;
		struct perfan_rec_event_type event_type;
		struct perfan_rec_tracing_data tracing_data;
		struct perfan_rec_build_id build_id;
		struct perfan_rec_id_index id_index;
		struct perfan_rec_auxtrace_info auxtrace_info;
		struct perfan_rec_auxtrace auxtrace;
		struct perfan_rec_auxtrace_error auxtrace_error;
		struct perfan_rec_thread_map thread_map;
		struct perfan_cpu_list cpu_map;
		struct perfan_rec_stat_config stat_config;
		struct perfan_rec_stat stat;
		struct perfan_rec_stat_round stat_round;
		struct perfan_rec_event_update event_update;
		struct perfan_rec_time_conv time_conv;
		struct perfan_rec_header_feature feature;
		struct perfan_rec_compressed compressed;
		struct perfan_rec_bpf_metadata bpf_metadata;
	} u;
};

#ifdef __cplusplus
}
#endif
#endif
