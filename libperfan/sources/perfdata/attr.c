/* sources/perfdata/attr.c: perf_event_attr of any size, and the names perf derives
 * from an attr when the file carries none. */
#include "sources/perfdata/internal.h"

#include <stdio.h>
#include <string.h>

static uint8_t revbits(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	b = (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
	return b;
}

void perfan__attr_decode(struct perfan_attr *o, const uint8_t *p, size_t len,
			 int swap)
{
	uint8_t buf[136];
	memset(buf, 0, sizeof(buf));
	memcpy(buf, p, len < sizeof(buf) ? len : sizeof(buf));
	memset(o, 0, sizeof(*o));
	o->type = perfan__u32(buf + 0, swap);
	o->size = perfan__u32(buf + 4, swap);
	o->config = perfan__u64(buf + 8, swap);
	o->sample_period_or_freq = perfan__u64(buf + 16, swap);
	o->sample_type = perfan__u64(buf + 24, swap);
	o->read_format = perfan__u64(buf + 32, swap);
	if (swap) {
		/* a big-endian compiler allocates bitfields from the most
		 * significant bit of each byte: reverse bits, keep bytes */
		uint8_t f[8];
		for (int i = 0; i < 8; i++)
			f[i] = revbits(buf[40 + i]);
		o->flags = perfan__u64(f, 0);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		o->flags = __builtin_bswap64(o->flags);
#endif
	} else {
		o->flags = perfan__u64(buf + 40, 0);
	}
	o->wakeup_events_or_watermark = perfan__u32(buf + 48, swap);
	o->bp_type = perfan__u32(buf + 52, swap);
	o->config1 = perfan__u64(buf + 56, swap);
	o->config2 = perfan__u64(buf + 64, swap);
	o->branch_sample_type = perfan__u64(buf + 72, swap);
	o->sample_regs_user = perfan__u64(buf + 80, swap);
	o->sample_stack_user = perfan__u32(buf + 88, swap);
	o->clockid = (int32_t)perfan__u32(buf + 92, swap);
	o->sample_regs_intr = perfan__u64(buf + 96, swap);
	o->aux_watermark = perfan__u32(buf + 104, swap);
	o->sample_max_stack = perfan__u16(buf + 108, swap);
	o->aux_sample_size = perfan__u32(buf + 112, swap);
	o->sig_data = perfan__u64(buf + 120, swap);
	o->config3 = perfan__u64(buf + 128, swap);
}

static const char *const hw_names[] = {
	"cycles",
	"instructions",
	"cache-references",
	"cache-misses",
	"branches",
	"branch-misses",
	"bus-cycles",
	"stalled-cycles-frontend",
	"stalled-cycles-backend",
	"ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock",        "task-clock",   "page-faults",  "context-switches",
	"cpu-migrations",   "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy",        "bpf-output",   "cgroup-switches",
};

static const char *const cache_names[] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node"};
static const char *const cache_ops[] = {"load", "store", "prefetch"};
static const char *const cache_ops_pl[] = {"loads", "stores", "prefetches"};
static const char *const cache_res[] = {"refs", "misses"};

/* Which ops each cache supports, as perf's evsel__hw_cache_stat. */
static int cache_op_valid(unsigned type, unsigned op)
{
	static const uint8_t ok[] = {
		7, /* L1D: load store prefetch */
		5, /* L1I: load prefetch */
		7, /* LL */
		3, /* dTLB: load store */
		1, /* iTLB: load */
		1, /* BPU: load */
		7, /* NODE */
	};
	return type < 7 && (ok[type] >> op & 1);
}

/* perf's evsel__add_modifiers */
static void modifiers(char *bf, size_t size, const struct perfan_attr *at)
{
	size_t r = 0;
	int colon = 0;
	int exclude_guest_default = 0;
	uint64_t f = at->flags;
#define MOD(bit, ch)                                                           \
	do {                                                                   \
		if (!(f & (bit)) && r + 2 < size) {                            \
			if (!colon)                                            \
				colon = (int)++r;                              \
			bf[r++] = (ch);                                        \
		}                                                              \
	} while (0)
	if (f & (PERFAN_ATTR_EXCLUDE_KERNEL | PERFAN_ATTR_EXCLUDE_USER |
		 PERFAN_ATTR_EXCLUDE_HV)) {
		MOD(PERFAN_ATTR_EXCLUDE_KERNEL, 'k');
		MOD(PERFAN_ATTR_EXCLUDE_USER, 'u');
		MOD(PERFAN_ATTR_EXCLUDE_HV, 'h');
		exclude_guest_default = 1;
	}
	unsigned precise = (unsigned)(f >> PERFAN_ATTR_PRECISE_IP_SHIFT) & 3;
	if (precise) {
		if (!colon)
			colon = (int)++r;
		for (unsigned i = 0; i < precise && r + 2 < size; i++)
			bf[r++] = 'p';
		exclude_guest_default = 1;
	}
	if ((f & PERFAN_ATTR_EXCLUDE_HOST) ||
	    !!(f & PERFAN_ATTR_EXCLUDE_GUEST) == exclude_guest_default) {
		MOD(PERFAN_ATTR_EXCLUDE_HOST, 'H');
		MOD(PERFAN_ATTR_EXCLUDE_GUEST, 'G');
	}
#undef MOD
	if (colon)
		bf[colon - 1] = ':';
	bf[r] = '\0';
}

char *perfan__attr_name(struct perfan__arena *a, const struct perfan_attr *at)
{
	char base[128], mod[32];
	uint64_t c = at->config;
	int with_mod = 1;
	memset(mod, 0, sizeof(mod));
	switch (at->type) {
	case 0: /* HARDWARE */
		if ((c & 0xffffffff) < sizeof(hw_names) / sizeof(hw_names[0]))
			snprintf(base, sizeof(base), "%s",
				 hw_names[c & 0xffffffff]);
		else
			snprintf(base, sizeof(base), "unknown-hardware");
		break;
	case 1: /* SOFTWARE: perf adds no modifiers */
		if (c < sizeof(sw_names) / sizeof(sw_names[0]))
			snprintf(base, sizeof(base), "%s", sw_names[c]);
		else
			snprintf(base, sizeof(base), "unknown-software");
		with_mod = 0;
		break;
	case 2: /* TRACEPOINT: named from the tracing data when there is one */
		snprintf(base, sizeof(base), "unknown tracepoint");
		with_mod = 0;
		break;
	case 3: { /* HW_CACHE */
		unsigned t = c & 0xff, op = (c >> 8) & 0xff,
			 res = (c >> 16) & 0xff;
		if (t < 7 && op < 3 && res < 2 && cache_op_valid(t, op))
			snprintf(base, sizeof(base), "%s-%s%s%s",
				 cache_names[t],
				 res ? cache_ops[op] : cache_ops_pl[op],
				 res ? "-" : "", res ? cache_res[res] : "");
		else
			snprintf(base, sizeof(base), "invalid-cache");
		break;
	}
	case 4: /* RAW */
		snprintf(base, sizeof(base), "r%llx", (unsigned long long)c);
		break;
	case 5: /* BREAKPOINT */
		snprintf(base, sizeof(base), "mem:0x%llx:%s%s%s",
			 (unsigned long long)at->config1,
			 (at->bp_type & 1) ? "r" : "",
			 (at->bp_type & 2) ? "w" : "",
			 (at->bp_type & 4) ? "x" : "");
		break;
	default:
		snprintf(base, sizeof(base), "unknown attr type: %u", at->type);
		with_mod = 0;
		break;
	}
	if (with_mod)
		modifiers(mod, sizeof(mod), at);
	char full[192];
	snprintf(full, sizeof(full), "%s%s", base, mod);
	return perfan__arena_strndup(a, full, sizeof(full));
}
