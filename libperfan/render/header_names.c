/* render/header_names.c: perf's names for the bits and fields of an
 * event's attr (perf 6.1's perf_event_attr__fprintf), clock ids and
 * build-ids, which the text and JSON header sinks share. */
#include "render/header.h"

#include <stdio.h>

const struct perfan__bitname perfan__sample_bits[] = {
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

const struct perfan__bitname perfan__branch_bits[] = {
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

const struct perfan__bitname perfan__read_bits[] = {
	{1u << 0, "TOTAL_TIME_ENABLED"},
	{1u << 1, "TOTAL_TIME_RUNNING"},
	{1u << 2, "ID"},
	{1u << 3, "GROUP"},
	{1u << 4, "LOST"},
	{0, NULL},
};

/* The one-bit (and precise_ip's two-bit) fields of the flags word. */
const struct perfan__flag_field perfan__flag_fields[] = {
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

const size_t PERFAN__NFLAGS =
	sizeof(perfan__flag_fields) / sizeof(perfan__flag_fields[0]);

uint64_t perfan__flag_value(uint64_t flags, size_t i)
{
	return flags >> perfan__flag_fields[i].shift &
	       ((1ull << perfan__flag_fields[i].width) - 1);
}

const char *perfan__clockid_name(uint32_t id)
{
	/* perf's perfan__clockid_name: the first name in its table */
	switch (id) {
	case 0: return "realtime";
	case 1: return "monotonic";
	case 4: return "monotonic_raw";
	case 7: return "boottime";
	case 11: return "tai";
	default: return "(not found)";
	}
}

void perfan__build_id_hex(char *out, const struct perfan_build_id_entry *b)
{
	size_t n = b->size <= 20 ? b->size : 20;
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b->build_id[i]);
	out[2 * n] = '\0';
}
