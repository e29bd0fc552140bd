/* sources/perfdata/features.c: decoding the header features (file-mode sections and
 * pipe-mode HEADER_FEATURE payloads, which carry the same bytes) into
 * pd->feat, as perf's tools/perf/util/header.c process_* functions read them. */
#include "sources/perfdata/internal.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *const feat_names[] = {
	[PERFAN_FEAT_TRACING_DATA] = "tracing_data",
	[PERFAN_FEAT_BUILD_ID] = "build_id",
	[PERFAN_FEAT_HOSTNAME] = "hostname",
	[PERFAN_FEAT_OSRELEASE] = "osrelease",
	[PERFAN_FEAT_VERSION] = "version",
	[PERFAN_FEAT_ARCH] = "arch",
	[PERFAN_FEAT_NRCPUS] = "nrcpus",
	[PERFAN_FEAT_CPUDESC] = "cpudesc",
	[PERFAN_FEAT_CPUID] = "cpuid",
	[PERFAN_FEAT_TOTAL_MEM] = "total_mem",
	[PERFAN_FEAT_CMDLINE] = "cmdline",
	[PERFAN_FEAT_EVENT_DESC] = "event_desc",
	[PERFAN_FEAT_CPU_TOPOLOGY] = "cpu_topology",
	[PERFAN_FEAT_NUMA_TOPOLOGY] = "numa_topology",
	[PERFAN_FEAT_BRANCH_STACK] = "branch_stack",
	[PERFAN_FEAT_PMU_MAPPINGS] = "pmu_mappings",
	[PERFAN_FEAT_GROUP_DESC] = "group_desc",
	[PERFAN_FEAT_AUXTRACE] = "auxtrace",
	[PERFAN_FEAT_STAT] = "stat",
	[PERFAN_FEAT_CACHE] = "cache",
	[PERFAN_FEAT_SAMPLE_TIME] = "sample_time",
	[PERFAN_FEAT_MEM_TOPOLOGY] = "mem_topology",
	[PERFAN_FEAT_CLOCKID] = "clockid",
	[PERFAN_FEAT_DIR_FORMAT] = "dir_format",
	[PERFAN_FEAT_BPF_PROG_INFO] = "bpf_prog_info",
	[PERFAN_FEAT_BPF_BTF] = "bpf_btf",
	[PERFAN_FEAT_COMPRESSED] = "compressed",
	[PERFAN_FEAT_CPU_PMU_CAPS] = "cpu_pmu_caps",
	[PERFAN_FEAT_CLOCK_DATA] = "clock_data",
	[PERFAN_FEAT_HYBRID_TOPOLOGY] = "hybrid_topology",
	[PERFAN_FEAT_PMU_CAPS] = "pmu_caps",
};

#define NFEAT_NAMES (sizeof(feat_names) / sizeof(feat_names[0]))

const char *perfan_feature_name(int feat)
{
	if (feat <= 0 || (size_t)feat >= NFEAT_NAMES)
		return NULL;
	return feat_names[feat];
}

int perfan_features_has(const struct perfan_features *f, int feat)
{
	if (!f || feat < 0 || feat >= PERFAN_FEAT_MAX)
		return 0;
	return (int)(f->present[feat / 64] >> (feat % 64) & 1);
}

static void set_present(struct perfan_features *f, int feat, int on)
{
	uint64_t bit = 1ull << (feat % 64);
	if (on)
		f->present[feat / 64] |= bit;
	else
		f->present[feat / 64] &= ~bit;
}

/* One feature being decoded: a bounded cursor plus what error messages
 * need. Every reader below fails with a message naming the file offset. */
struct dec {
	struct perfan_perfdata *pd;
	struct perfan__cur c;
	uint64_t off; /* file offset of the feature's first byte */
	const char *feat;
};

static int bad(struct dec *d, const char *what, size_t need)
{
	return PD_ERR(d->pd, PERFAN_EFORMAT, d->off + d->c.pos,
		      "feature %s: %s needs %zu bytes but only %zu remain in "
		      "the feature",
		      d->feat, what, need, perfan__cur_left(&d->c));
}

static int nomem(struct dec *d)
{
	return PD_ERR(d->pd, PERFAN_ENOMEM, d->off + d->c.pos,
		      "feature %s: out of memory", d->feat);
}

static void *alloc(struct dec *d, size_t n, size_t size)
{
	if (n && size > SIZE_MAX / n)
		return NULL;
	/* the arena hands out 8-byte aligned, zeroed memory */
	return perfan__arena_alloc(&d->pd->arena, n && size ? n * size : 1);
}

static int rd_u32(struct dec *d, uint32_t *v, const char *what)
{
	if (perfan__cur_left(&d->c) < 4)
		return bad(d, what, 4);
	*v = perfan__cur_u32(&d->c);
	return 0;
}

static int rd_u64(struct dec *d, uint64_t *v, const char *what)
{
	if (perfan__cur_left(&d->c) < 8)
		return bad(d, what, 8);
	*v = perfan__cur_u64(&d->c);
	return 0;
}

/* perf_header_string: u32 len, then len bytes holding a NUL-terminated
 * string padded with zeroes (to 64 bytes by current perf). */
static int rd_str(struct dec *d, const char **out, const char *what)
{
	uint32_t len;
	int rc = rd_u32(d, &len, what);
	if (rc)
		return rc;
	if (len > perfan__cur_left(&d->c))
		return PD_ERR(d->pd, PERFAN_EFORMAT, d->off + d->c.pos - 4,
			      "feature %s: %s is %u bytes long but only %zu "
			      "remain in the feature",
			      d->feat, what, len, perfan__cur_left(&d->c));
	const uint8_t *p = perfan__cur_take(&d->c, len);
	char *s = perfan__arena_strndup(&d->pd->arena, (const char *)p, len);
	if (!s)
		return nomem(d);
	*out = s;
	return 0;
}

/* A u32 count of items each at least MIN_EACH bytes long: bounded by the
 * bytes that remain, so nothing is allocated for counts the input cannot
 * hold. */
static int rd_count(struct dec *d, uint32_t *n, size_t min_each,
		    const char *what)
{
	int rc = rd_u32(d, n, what);
	if (rc)
		return rc;
	if ((uint64_t)*n * min_each > perfan__cur_left(&d->c))
		return PD_ERR(d->pd, PERFAN_EFORMAT, d->off + d->c.pos - 4,
			      "feature %s: %s %u cannot fit in the %zu bytes "
			      "that remain in the feature",
			      d->feat, what, *n, perfan__cur_left(&d->c));
	return 0;
}

/* perf_header_string_list: u32 nr, then nr strings. */
static int rd_strlist(struct dec *d, size_t *nout, const char *const **out,
		      const char *what)
{
	uint32_t n;
	int rc = rd_count(d, &n, 4, what);
	if (rc)
		return rc;
	const char **v = alloc(d, n, sizeof(*v));
	if (!v)
		return nomem(d);
	for (uint32_t i = 0; i < n; i++) {
		rc = rd_str(d, &v[i], what);
		if (rc)
			return rc;
	}
	*nout = n;
	*out = v;
	return 0;
}

static int dec_string(struct dec *d, const char **field)
{
	const char *s;
	int rc = rd_str(d, &s, "string");
	if (rc)
		return rc;
	*field = s;
	return 0;
}

/* struct perf_record_header_build_id: header {u32 type, u16 misc, u16 size},
 * s32 pid, u8 build_id[20], u8 size, 3 reserved, char filename[] up to
 * header.size. Perf before 2.6.34 wrote no pid ("the a1645ce1 quirk"); perf
 * detects it by the kernel's name losing its first four characters. */
#define BUILD_ID_SIZE_MISC (1u << 15)
#define BEV_SIZE 36
#define OLD_BEV_SIZE 32

static int build_ids_pass(struct dec *d, int old_abi,
			  struct perfan_build_id_entry *out, size_t *count,
			  int *quirk)
{
	struct perfan__cur c = d->c;
	size_t hdr = old_abi ? OLD_BEV_SIZE : BEV_SIZE;
	size_t n = 0;
	while (perfan__cur_left(&c)) {
		size_t at = c.pos;
		if (perfan__cur_left(&c) < hdr) {
			d->c.pos = at;
			return bad(d, "build-id record", hdr);
		}
		const uint8_t *r = c.p + c.pos;
		uint16_t misc = perfan__u16(r + 4, c.swap);
		uint16_t size = perfan__u16(r + 6, c.swap);
		if (size < hdr || size > perfan__cur_left(&c)) {
			d->c.pos = at;
			return PD_ERR(
				d->pd, PERFAN_EFORMAT, d->off + at,
				"feature %s: build-id record %zu has size "
				"%u (must be %zu to %zu)",
				d->feat, n, size, hdr, perfan__cur_left(&c));
		}
		const char *fname = (const char *)r + hdr;
		size_t flen = size - hdr;
		if (!old_abi && quirk && flen >= 13 &&
		    memcmp(fname, "nel.kallsyms]", 13) == 0) {
			*quirk = 1;
			return 0;
		}
		if (out) {
			struct perfan_build_id_entry *e = &out[n];
			const uint8_t *bid = r + (old_abi ? 8 : 12);
			e->misc = misc;
			if (old_abi) {
				/* as perf: the host kernel (-1) or the guest's (0) */
				e->pid = (misc == PERFAN_MISC_GUEST_USER ||
					  misc == PERFAN_MISC_GUEST_KERNEL)
						 ? 0
						 : -1;
			} else {
				e->pid = (int32_t)perfan__u32(r + 8, c.swap);
			}
			memcpy(e->build_id, bid, 20);
			e->size = 20;
			if (!old_abi && (misc & BUILD_ID_SIZE_MISC)) {
				uint8_t sz = r[32];
				e->size = sz < 20 ? sz : 20;
			}
			e->filename = perfan__arena_strndup(&d->pd->arena,
							    fname, flen);
			if (!e->filename)
				return nomem(d);
		}
		perfan__cur_take(&c, size);
		n++;
	}
	*count = n;
	return 0;
}

static int dec_build_id(struct dec *d)
{
	size_t n = 0;
	int quirk = 0;
	int old_abi = 0;
	int rc = build_ids_pass(d, 0, NULL, &n, &quirk);
	if (rc)
		return rc;
	if (quirk) {
		old_abi = 1;
		rc = build_ids_pass(d, 1, NULL, &n, NULL);
		if (rc)
			return rc;
	}
	struct perfan_build_id_entry *v = alloc(d, n, sizeof(*v));
	if (!v)
		return nomem(d);
	rc = build_ids_pass(d, old_abi, v, &n, NULL);
	if (rc)
		return rc;
	d->pd->feat.nr_build_ids = n;
	d->pd->feat.build_ids = v;
	return 0;
}

static int dec_nrcpus(struct dec *d)
{
	uint32_t avail, online;
	int rc;
	/* perf writes the available (max present) count first, whatever the
	 * format document says; process_nrcpus reads it in this order */
	if ((rc = rd_u32(d, &avail, "nr_cpus_avail")) ||
	    (rc = rd_u32(d, &online, "nr_cpus_online")))
		return rc;
	d->pd->feat.nr_cpus_avail = avail;
	d->pd->feat.nr_cpus_online = online;
	return 0;
}

static int dec_total_mem(struct dec *d)
{
	uint64_t kb;
	int rc = rd_u64(d, &kb, "total memory");
	if (rc)
		return rc;
	d->pd->feat.total_mem_kb = kb;
	return 0;
}

static int dec_cmdline(struct dec *d)
{
	size_t n;
	const char *const *v;
	int rc = rd_strlist(d, &n, &v, "cmdline argument");
	if (rc)
		return rc;
	d->pd->feat.cmdline_argc = n;
	d->pd->feat.cmdline_argv = v;
	return 0;
}

static int dec_event_desc(struct dec *d)
{
	uint32_t nr, attr_size;
	int rc;
	if ((rc = rd_u32(d, &nr, "event count")) ||
	    (rc = rd_u32(d, &attr_size, "attr size")))
		return rc;
	if (attr_size < 64 || attr_size > perfan__cur_left(&d->c))
		return PD_ERR(d->pd, PERFAN_EFORMAT, d->off + d->c.pos - 4,
			      "feature %s: attr size %u is not plausible "
			      "(64 to %zu bytes)",
			      d->feat, attr_size, perfan__cur_left(&d->c));
	/* each event: attr, u32 nr_ids, u32 name length at least */
	if ((uint64_t)nr * ((uint64_t)attr_size + 8) > perfan__cur_left(&d->c))
		return PD_ERR(d->pd, PERFAN_EFORMAT, d->off,
			      "feature %s: %u events of at least %llu bytes "
			      "cannot fit in the %zu bytes that remain",
			      d->feat, nr, (unsigned long long)attr_size + 8,
			      perfan__cur_left(&d->c));
	struct perfan_event_desc *v = alloc(d, nr, sizeof(*v));
	if (!v)
		return nomem(d);
	for (uint32_t i = 0; i < nr; i++) {
		struct perfan_attr at;
		const uint8_t *a = perfan__cur_take(&d->c, attr_size);
		if (!a)
			return bad(d, "event attr", attr_size);
		perfan__attr_decode(&at, a, attr_size, d->c.swap);
		v[i].attr_type = at.type;
		v[i].attr_config = at.config;
		uint32_t nids;
		if ((rc = rd_u32(d, &nids, "event id count")) ||
		    (rc = rd_str(d, &v[i].name, "event name")))
			return rc;
		if ((uint64_t)nids * 8 > perfan__cur_left(&d->c))
			return PD_ERR(d->pd, PERFAN_EFORMAT, d->off + d->c.pos,
				      "feature %s: event %u (%s) has %u ids "
				      "but only %zu bytes remain",
				      d->feat, i, v[i].name, nids,
				      perfan__cur_left(&d->c));
		uint64_t *ids = alloc(d, nids, 8);
		if (!ids)
			return nomem(d);
		for (uint32_t k = 0; k < nids; k++)
			ids[k] = perfan__cur_u64(&d->c);
		v[i].nr_ids = nids;
		v[i].ids = ids;
	}
	d->pd->feat.nr_event_descs = nr;
	d->pd->feat.event_descs = v;
	return 0;
}

/* Two string lists (package and core siblings: perf 6 prints the first as
 * "sibling sockets", older perf called it "sibling cores"), then optionally
 * core and socket ids of nr_cpus_avail cpus, then optionally a die list and
 * the die ids: each part exists only if the writer's perf knew it. */
static int dec_cpu_topology(struct dec *d)
{
	struct perfan_features *f = &d->pd->feat;
	size_t ncores = 0, nthreads = 0, ndies = 0, ncpu = 0;
	const char *const *cores = NULL, *const *threads = NULL,
			  *const *dies = NULL;
	struct perfan_cpu_topo_entry *topo = NULL;
	int rc;
	if ((rc = rd_strlist(d, &ncores, &cores, "sibling cores")) ||
	    (rc = rd_strlist(d, &nthreads, &threads, "sibling threads")))
		return rc;
	if (perfan__cur_left(&d->c)) {
		/* without NRCPUS the count is unknown: assume the ids fill
		 * the rest (no die section) */
		uint64_t want = perfan_features_has(f, PERFAN_FEAT_NRCPUS)
					? f->nr_cpus_avail
					: perfan__cur_left(&d->c) / 8;
		if (want * 8 > perfan__cur_left(&d->c))
			return PD_ERR(
				d->pd, PERFAN_EFORMAT, d->off + d->c.pos,
				"feature %s: core and socket ids of %llu "
				"cpus need %llu bytes but only %zu remain",
				d->feat, (unsigned long long)want,
				(unsigned long long)want * 8,
				perfan__cur_left(&d->c));
		ncpu = (size_t)want;
		topo = alloc(d, ncpu, sizeof(*topo));
		if (!topo)
			return nomem(d);
		for (size_t i = 0; i < ncpu; i++) {
			topo[i].core_id = (int32_t)perfan__cur_u32(&d->c);
			topo[i].socket_id = (int32_t)perfan__cur_u32(&d->c);
			topo[i].die_id = -1;
		}
	}
	if (perfan__cur_left(&d->c)) {
		if ((rc = rd_strlist(d, &ndies, &dies, "sibling dies")))
			return rc;
		if ((uint64_t)ncpu * 4 > perfan__cur_left(&d->c))
			return PD_ERR(d->pd, PERFAN_EFORMAT, d->off + d->c.pos,
				      "feature %s: die ids of %zu cpus need "
				      "%zu bytes but only %zu remain",
				      d->feat, ncpu, ncpu * 4,
				      perfan__cur_left(&d->c));
		for (size_t i = 0; i < ncpu; i++)
			topo[i].die_id = (int32_t)perfan__cur_u32(&d->c);
	}
	f->nr_sibling_cores = ncores;
	f->sibling_cores = cores;
	f->nr_sibling_threads = nthreads;
	f->sibling_threads = threads;
	f->nr_sibling_dies = ndies;
	f->sibling_dies = dies;
	f->nr_cpu_topo = ncpu;
	f->cpu_topo = topo;
	return 0;
}

static int dec_numa_topology(struct dec *d)
{
	uint32_t nr;
	int rc = rd_count(d, &nr, 4 + 8 + 8 + 4, "node count");
	if (rc)
		return rc;
	struct perfan_numa_node *v = alloc(d, nr, sizeof(*v));
	if (!v)
		return nomem(d);
	for (uint32_t i = 0; i < nr; i++) {
		if ((rc = rd_u32(d, &v[i].node, "node number")) ||
		    (rc = rd_u64(d, &v[i].mem_total, "node memory total")) ||
		    (rc = rd_u64(d, &v[i].mem_free, "node memory free")) ||
		    (rc = rd_str(d, &v[i].cpus, "node cpu list")))
			return rc;
	}
	d->pd->feat.nr_numa_nodes = nr;
	d->pd->feat.numa_nodes = v;
	return 0;
}

static int dec_pmu_mappings(struct dec *d)
{
	uint32_t nr;
	int rc = rd_count(d, &nr, 8, "pmu count");
	if (rc)
		return rc;
	struct perfan_pmu_mapping *v = alloc(d, nr, sizeof(*v));
	if (!v)
		return nomem(d);
	for (uint32_t i = 0; i < nr; i++) {
		if ((rc = rd_u32(d, &v[i].type, "pmu type")) ||
		    (rc = rd_str(d, &v[i].name, "pmu name")))
			return rc;
	}
	d->pd->feat.nr_pmu_mappings = nr;
	d->pd->feat.pmu_mappings = v;
	return 0;
}

static int dec_group_desc(struct dec *d)
{
	uint32_t nr;
	int rc = rd_count(d, &nr, 12, "group count");
	if (rc)
		return rc;
	struct perfan_group_desc *v = alloc(d, nr, sizeof(*v));
	if (!v)
		return nomem(d);
	for (uint32_t i = 0; i < nr; i++) {
		if ((rc = rd_str(d, &v[i].name, "group name")) ||
		    (rc = rd_u32(d, &v[i].leader_idx, "group leader")) ||
		    (rc = rd_u32(d, &v[i].nr_members, "group size")))
			return rc;
		/* perf writes this dummy for groups without a name */
		if (!strcmp(v[i].name, "{anon_group}"))
			v[i].name = NULL;
	}
	d->pd->feat.nr_groups = nr;
	d->pd->feat.groups = v;
	return 0;
}

static int dec_sample_time(struct dec *d)
{
	uint64_t first, last;
	int rc;
	if ((rc = rd_u64(d, &first, "first sample time")) ||
	    (rc = rd_u64(d, &last, "last sample time")))
		return rc;
	d->pd->feat.first_sample_time = first;
	d->pd->feat.last_sample_time = last;
	return 0;
}

static int dec_clockid(struct dec *d)
{
	uint64_t res;
	int rc = rd_u64(d, &res, "clock resolution");
	if (rc)
		return rc;
	d->pd->feat.clockid_res_ns = res;
	return 0;
}

static int dec_clock_data(struct dec *d)
{
	uint32_t ver, clockid;
	uint64_t tod, clk;
	int rc = rd_u32(d, &ver, "version");
	if (rc)
		return rc;
	if (ver != 1)
		return PD_ERR(d->pd, PERFAN_EUNSUPPORTED, d->off,
			      "feature %s: version %u (only 1 is known)",
			      d->feat, ver);
	if ((rc = rd_u32(d, &clockid, "clockid")) ||
	    (rc = rd_u64(d, &tod, "time-of-day reference")) ||
	    (rc = rd_u64(d, &clk, "clock reference")))
		return rc;
	struct perfan_features *f = &d->pd->feat;
	f->clock_data_version = ver;
	f->clock_data_clockid = clockid;
	f->clock_data_tod_ns = tod;
	f->clock_data_clockid_ns = clk;
	return 0;
}

static int dec_compressed(struct dec *d)
{
	uint32_t ver, type, level, ratio;
	uint64_t mmap_len;
	int rc;
	if ((rc = rd_u32(d, &ver, "version")) ||
	    (rc = rd_u32(d, &type, "type")) ||
	    (rc = rd_u32(d, &level, "level")) ||
	    (rc = rd_u32(d, &ratio, "ratio")))
		return rc;
	/* perf's env.comp_mmap_len is u32 (20-byte section); take a u64 if a
	 * writer stored one */
	if (perfan__cur_left(&d->c) >= 8) {
		rc = rd_u64(d, &mmap_len, "mmap length");
	} else {
		uint32_t v32 = 0;
		rc = rd_u32(d, &v32, "mmap length");
		mmap_len = v32;
	}
	if (rc)
		return rc;
	struct perfan_features *f = &d->pd->feat;
	f->comp_version = ver;
	f->comp_type = type;
	f->comp_level = level;
	f->comp_ratio = ratio;
	f->comp_mmap_len = mmap_len;
	return 0;
}

static int dec_hybrid_topology(struct dec *d)
{
	uint32_t nr;
	int rc = rd_count(d, &nr, 8, "node count");
	if (rc)
		return rc;
	struct perfan_hybrid_node *v = alloc(d, nr, sizeof(*v));
	if (!v)
		return nomem(d);
	for (uint32_t i = 0; i < nr; i++) {
		if ((rc = rd_str(d, &v[i].pmu_name, "pmu name")) ||
		    (rc = rd_str(d, &v[i].cpus, "cpu list")))
			return rc;
	}
	d->pd->feat.nr_hybrid_nodes = nr;
	d->pd->feat.hybrid_nodes = v;
	return 0;
}

/* u32 nr, then nr (name, value) string pairs, joined as "name=value". */
static int rd_caps(struct dec *d, struct perfan_pmu_caps *out)
{
	uint32_t nr;
	int rc = rd_count(d, &nr, 8, "capability count");
	if (rc)
		return rc;
	const char **v = alloc(d, nr, sizeof(*v));
	if (!v)
		return nomem(d);
	for (uint32_t i = 0; i < nr; i++) {
		const char *name, *value;
		if ((rc = rd_str(d, &name, "capability name")) ||
		    (rc = rd_str(d, &value, "capability value")))
			return rc;
		size_t ln = strlen(name), lv = strlen(value);
		char *s = alloc(d, ln + lv + 2, 1);
		if (!s)
			return nomem(d);
		memcpy(s, name, ln);
		s[ln] = '=';
		memcpy(s + ln + 1, value, lv);
		v[i] = s;
	}
	out->nr = nr;
	out->caps = v;
	return 0;
}

/* CPU_PMU_CAPS and PMU_CAPS share pmu_caps: the cpu entry (pmu_name NULL)
 * first, then the other PMUs. Replace only this feature's entries. */
static int set_pmu_caps(struct dec *d, const struct perfan_pmu_caps *add,
			size_t nadd, int cpu)
{
	struct perfan_features *f = &d->pd->feat;
	size_t keep = 0;
	for (size_t i = 0; i < f->nr_pmu_caps; i++)
		if (!f->pmu_caps[i].pmu_name == !cpu)
			keep++;
	struct perfan_pmu_caps *v = alloc(d, keep + nadd, sizeof(*v));
	if (!v)
		return nomem(d);
	size_t n = 0;
	if (cpu)
		for (size_t i = 0; i < nadd; i++)
			v[n++] = add[i];
	for (size_t i = 0; i < f->nr_pmu_caps; i++)
		if (!f->pmu_caps[i].pmu_name == !cpu)
			v[n++] = f->pmu_caps[i];
	if (!cpu)
		for (size_t i = 0; i < nadd; i++)
			v[n++] = add[i];
	f->nr_pmu_caps = n;
	f->pmu_caps = v;
	return 0;
}

static int dec_cpu_pmu_caps(struct dec *d)
{
	struct perfan_pmu_caps c = {0};
	int rc = rd_caps(d, &c);
	if (rc)
		return rc;
	return set_pmu_caps(d, &c, 1, 1);
}

static int dec_pmu_caps(struct dec *d)
{
	uint32_t nr;
	int rc = rd_count(d, &nr, 8, "pmu count");
	if (rc)
		return rc;
	struct perfan_pmu_caps *v = alloc(d, nr, sizeof(*v));
	if (!v)
		return nomem(d);
	for (uint32_t i = 0; i < nr; i++) {
		if ((rc = rd_caps(d, &v[i])) ||
		    (rc = rd_str(d, &v[i].pmu_name, "pmu name")))
			return rc;
	}
	return set_pmu_caps(d, v, nr, 0);
}

/* The raw tracing data (libtraceevent parses it). In file mode the bytes are
 * in the mapped file, which lives as long as the reader; otherwise copy. */
static int dec_tracing_data(struct dec *d)
{
	struct perfan_perfdata *pd = d->pd;
	const uint8_t *p = d->c.p;
	size_t len = d->c.len;
	uintptr_t m = (uintptr_t)pd->src.map, q = (uintptr_t)p;
	if (!(m && q >= m && len <= pd->src.map_len &&
	      q - m <= pd->src.map_len - len)) {
		uint8_t *copy = alloc(d, len, 1);
		if (!copy)
			return nomem(d);
		if (len)
			memcpy(copy, p, len);
		p = copy;
	}
	pd->feat.tracing_data = p;
	pd->feat.tracing_data_size = len;
	return 0;
}

/* ---- BPF_PROG_INFO and BPF_BTF ---------------------------------------------- */

/* perf's struct perf_bpil bits: which arrays of the info are in its data
 * (the info's field then holds an offset into the data). */
enum {
	BPIL_JITED_KSYMS = 3,
	BPIL_JITED_FUNC_LENS = 4,
	BPIL_FUNC_INFO = 5,
	BPIL_PROG_TAGS = 8,
};

/* Offsets in the kernel's struct bpf_prog_info (uapi/linux/bpf.h) and its
 * size as perf 6.1 knows it: perf rejects a longer info. */
enum {
	BPI_ID = 4,
	BPI_NAME = 64,
	BPI_NR_JITED_KSYMS = 104,
	BPI_NR_JITED_FUNC_LENS = 108,
	BPI_JITED_KSYMS = 112,
	BPI_JITED_FUNC_LENS = 120,
	BPI_BTF_ID = 128,
	BPI_FUNC_INFO_REC_SIZE = 132,
	BPI_FUNC_INFO = 136,
	BPI_NR_FUNC_INFO = 144,
	BPI_NR_PROG_TAGS = 180,
	BPI_PROG_TAGS = 184,
	BPI_SIZE = 232,
};

/* A program as read, before its functions are named (the names need the
 * BTF of BPF_BTF, which may come later). */
struct bpf_raw {
	/* the BTF type of each function (func_info's type_id), copied: the
	 * feature's bytes may not outlive its decoding (pipe mode) */
	const uint32_t *func_type;
	uint32_t nr_func_type;
};

/* The info's array at FIELD (its bit BIT in ARRAYS): N items of EACH bytes
 * inside DATA, or NULL when the info says it is elsewhere (or N is 0). */
static const uint8_t *bpil_in_data(const uint8_t *info, uint64_t arrays,
				   int bit, int field, uint64_t n, size_t each,
				   const uint8_t *data, uint32_t data_len)
{
	uint64_t o = perfan__u64(info + field, 0);
	if (!n || !(arrays >> bit & 1) || o > data_len ||
	    n > (data_len - o) / each)
		return NULL;
	return data + o;
}

/* The same for an array the program's lines need: an error when absent. */
static const uint8_t *bpil_array(struct dec *d, const uint8_t *info,
				 uint64_t arrays, int bit, int field,
				 uint64_t n, size_t each, const uint8_t *data,
				 uint32_t data_len, const char *what, int *rc)
{
	const uint8_t *p =
		bpil_in_data(info, arrays, bit, field, n, each, data, data_len);
	*rc = 0;
	if (!p && n)
		*rc = PD_ERR(d->pd, PERFAN_EFORMAT, d->off + d->c.pos,
			     "feature %s: the %" PRIu64 " %s are not inside "
			     "the program's %u bytes of data",
			     d->feat, n, what, data_len);
	return p;
}

/* One struct perf_bpil: u32 info_len, u32 data_len, u64 arrays, the info
 * (info_len bytes, zero-extended as perf does), then data_len bytes. */
static int dec_bpil(struct dec *d, struct perfan_bpf_prog *prog,
		    struct bpf_raw *raw)
{
	uint32_t info_len, data_len;
	uint64_t arrays;
	int rc;
	if ((rc = rd_u32(d, &info_len, "info length")) ||
	    (rc = rd_u32(d, &data_len, "data length")) ||
	    (rc = rd_u64(d, &arrays, "array bits")))
		return rc;
	if (info_len > BPI_SIZE)
		return PD_ERR(d->pd, PERFAN_EFORMAT, d->off + d->c.pos - 16,
			      "feature %s: a bpf_prog_info of %u bytes, more "
			      "than perf's %d",
			      d->feat, info_len, BPI_SIZE);
	uint8_t info[BPI_SIZE] = {0};
	const uint8_t *p = perfan__cur_take(&d->c, info_len);
	if (!p)
		return bad(d, "bpf_prog_info", info_len);
	memcpy(info, p, info_len);
	const uint8_t *data = perfan__cur_take(&d->c, data_len);
	if (!data)
		return bad(d, "program data", data_len);

	uint32_t n = perfan__u32(info + BPI_NR_JITED_KSYMS, 0);
	prog->id = perfan__u32(info + BPI_ID, 0);
	prog->btf_id = perfan__u32(info + BPI_BTF_ID, 0);
	char *name = perfan__arena_strndup(&d->pd->arena,
					   (const char *)info + BPI_NAME, 16);
	if (!name)
		return nomem(d);
	prog->name = name;
	if (n != perfan__u32(info + BPI_NR_PROG_TAGS, 0) ||
	    n != perfan__u32(info + BPI_NR_JITED_FUNC_LENS, 0))
		return 1; /* perf prints nothing for it */

	const uint8_t *ksyms, *lens, *tags;
	ksyms = bpil_array(d, info, arrays, BPIL_JITED_KSYMS, BPI_JITED_KSYMS,
			   n, 8, data, data_len, "jited addresses", &rc);
	if (rc)
		return rc;
	lens = bpil_array(d, info, arrays, BPIL_JITED_FUNC_LENS,
			  BPI_JITED_FUNC_LENS, n, 4, data, data_len,
			  "jited lengths", &rc);
	if (rc)
		return rc;
	tags = bpil_array(d, info, arrays, BPIL_PROG_TAGS, BPI_PROG_TAGS, n, 8,
			  data, data_len, "tags", &rc);
	if (rc)
		return rc;
	uint32_t rec = perfan__u32(info + BPI_FUNC_INFO_REC_SIZE, 0);
	uint32_t nfi = perfan__u32(info + BPI_NR_FUNC_INFO, 0);
	/* a bad func_info only costs the BTF names */
	const uint8_t *fi = rec < 8 ? NULL
				    : bpil_in_data(info, arrays, BPIL_FUNC_INFO,
						   BPI_FUNC_INFO, nfi, rec,
						   data, data_len);
	raw->func_type = NULL;
	raw->nr_func_type = 0;
	if (fi) {
		uint32_t nt = nfi < n ? nfi : n;
		uint32_t *ft = alloc(d, nt, sizeof(*ft));
		if (!ft)
			return nomem(d);
		for (uint32_t i = 0; i < nt; i++)
			ft[i] = perfan__u32(fi + (size_t)i * rec + 4, 0);
		raw->func_type = ft;
		raw->nr_func_type = nt;
	}

	struct perfan_bpf_subprog *sub = alloc(d, n, sizeof(*sub));
	if (!sub)
		return nomem(d);
	for (uint32_t i = 0; i < n; i++) {
		sub[i].addr = perfan__u64(ksyms + 8 * (size_t)i, 0);
		sub[i].size = perfan__u32(lens + 4 * (size_t)i, 0);
		memcpy(sub[i].tag, tags + 8 * (size_t)i, 8);
	}
	prog->subprogs = sub;
	prog->nr_subprogs = n;
	return 0;
}

/* A program's BTF (standalone, host byte order): its types and strings, or
 * 0 when its header does not hold together (libbpf's btf__new fails). */
struct btf_view {
	const uint8_t *types, *end;
	const char *str;
	uint32_t slen;
};

static int btf_view(const struct perfan_bpf_btf *b, struct btf_view *v)
{
	const uint8_t *p = b->data;
	if (b->size < 24 || perfan__u16(p, 0) != 0xeb9f)
		return 0;
	uint32_t hdr = perfan__u32(p + 4, 0);
	uint32_t toff = perfan__u32(p + 8, 0), tlen = perfan__u32(p + 12, 0);
	uint32_t soff = perfan__u32(p + 16, 0), slen = perfan__u32(p + 20, 0);
	if (hdr < 24 || hdr > b->size || toff > b->size - hdr ||
	    tlen > b->size - hdr - toff || soff > b->size - hdr ||
	    slen > b->size - hdr - soff || !slen)
		return 0;
	v->types = p + hdr + toff;
	v->end = v->types + tlen;
	v->str = (const char *)p + hdr + soff;
	v->slen = slen;
	return v->str[slen - 1] == '\0';
}

/* The name of type ID, a FUNC, or NULL. */
static const char *btf_func_name(const struct btf_view *v, uint32_t id)
{
	const uint8_t *t = v->types, *end = v->end;
	const char *str = v->str;
	uint32_t slen = v->slen;
	for (uint32_t k = 1; t + 12 <= end; k++) {
		uint32_t info = perfan__u32(t + 4, 0);
		uint32_t vlen = info & 0xffff, kind = info >> 24 & 0x1f;
		size_t extra;
		switch (kind) {
		case 1:                                    /* INT */
		case 14:                                   /* VAR */
		case 17: extra = 4; break;                 /* DECL_TAG */
		case 3: extra = 12; break;                 /* ARRAY */
		case 4:                                    /* STRUCT */
		case 5:                                    /* UNION */
		case 15:                                   /* DATASEC */
		case 19: extra = 12 * (size_t)vlen; break; /* ENUM64 */
		case 6: extra = 8 * (size_t)vlen; break;   /* ENUM */
		case 13: extra = 8 * (size_t)vlen; break;  /* FUNC_PROTO */
		case 2:
		case 7:
		case 8:
		case 9:
		case 10:
		case 11:
		case 12:
		case 16:
		case 18: extra = 0; break;
		default: return NULL; /* a kind perf's libbpf does not know */
		}
		if (k == id) {
			uint32_t name = perfan__u32(t, 0);
			return kind == 12 && name < slen ? str + name : NULL;
		}
		if (extra > (size_t)(end - t) - 12)
			return NULL;
		t += 12 + extra;
	}
	return NULL;
}

/* The raw parts of the programs, kept until their functions are named. */
struct perfan__bpf_raw {
	size_t n;
	struct bpf_raw *raw;
};

/* perf's synthesize_bpf_prog_name(): bpf_prog_TAG, then _FUNCTION from
 * the program's BTF when BPF_BTF has it, else _NAME for a program of one
 * function, else _F. */
static int name_subprogs(struct perfan_perfdata *pd)
{
	struct perfan_features *f = &pd->feat;
	const struct perfan__bpf_raw *r = pd->bpf_raw;
	for (size_t i = 0; r && i < f->nr_bpf_progs && i < r->n; i++) {
		struct perfan_bpf_prog *prog =
			(struct perfan_bpf_prog *)&f->bpf_progs[i];
		struct perfan_bpf_subprog *sub =
			(struct perfan_bpf_subprog *)prog->subprogs;
		const struct bpf_raw *raw = &r->raw[i];
		struct btf_view view;
		const struct btf_view *btf = NULL;
		for (size_t k = 0; prog->btf_id && k < f->nr_bpf_btfs; k++)
			if (f->bpf_btfs[k].id == prog->btf_id &&
			    btf_view(&f->bpf_btfs[k], &view))
				btf = &view;
		for (size_t s = 0; s < prog->nr_subprogs; s++) {
			char buf[512];
			int len = snprintf(buf, sizeof(buf), "bpf_prog_");
			for (int b = 0; b < 8; b++)
				len += snprintf(buf + len, sizeof(buf) - len,
						"%02x", sub[s].tag[b]);
			const char *fn = NULL;
			if (btf && s < raw->nr_func_type)
				fn = btf_func_name(btf, raw->func_type[s]);
			if (!fn && !btf && prog->nr_subprogs == 1)
				fn = prog->name[0] ? prog->name : NULL;
			else if (!fn)
				fn = "F";
			if (fn)
				snprintf(buf + len, sizeof(buf) - len, "_%s",
					 fn);
			char *nm = perfan__arena_strndup(&pd->arena, buf,
							 strlen(buf));
			if (!nm)
				return PERFAN_ENOMEM;
			sub[s].name = nm;
		}
	}
	return 0;
}

/* BPF_PROG_INFO: u32 count, then count struct perf_bpil. perf does not
 * read it from a file of the other byte order; neither do we. */
static int dec_bpf_prog_info(struct dec *d)
{
	struct perfan_perfdata *pd = d->pd;
	uint32_t n;
	int rc = rd_count(d, &n, 16, "program count");
	if (rc)
		return rc;
	if (pd->swap)
		return 0;
	struct perfan_bpf_prog *progs = alloc(d, n, sizeof(*progs));
	struct perfan__bpf_raw *r = alloc(d, 1, sizeof(*r));
	struct bpf_raw *raw = alloc(d, n, sizeof(*raw));
	if (!progs || !r || !raw)
		return nomem(d);
	size_t k = 0;
	for (uint32_t i = 0; i < n; i++) {
		rc = dec_bpil(d, &progs[k], &raw[k]);
		if (rc < 0)
			return rc;
		if (rc == 0)
			k++;
	}
	/* by id, the first of equal ids kept, as perf's tree by id; the
	 * programs are perf's own, a handful: insertion sort */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && progs[j - 1].id > progs[j].id;
		     j--) {
			struct perfan_bpf_prog tp = progs[j];
			struct bpf_raw tr = raw[j];
			progs[j] = progs[j - 1], raw[j] = raw[j - 1];
			progs[j - 1] = tp, raw[j - 1] = tr;
		}
	size_t u = 0;
	for (size_t i = 0; i < k; i++)
		if (!u || progs[u - 1].id != progs[i].id)
			progs[u] = progs[i], raw[u++] = raw[i];
	r->n = u;
	r->raw = raw;
	pd->bpf_raw = r;
	pd->feat.bpf_progs = progs;
	pd->feat.nr_bpf_progs = u;
	return name_subprogs(pd) ? nomem(d) : 0;
}

/* BPF_BTF: u32 count, then per BTF u32 id, u32 size and its bytes. */
static int dec_bpf_btf(struct dec *d)
{
	struct perfan_perfdata *pd = d->pd;
	uint32_t n;
	int rc = rd_count(d, &n, 8, "BTF count");
	if (rc)
		return rc;
	if (pd->swap)
		return 0;
	struct perfan_bpf_btf *v = alloc(d, n, sizeof(*v));
	if (!v)
		return nomem(d);
	for (uint32_t i = 0; i < n; i++) {
		if ((rc = rd_u32(d, &v[i].id, "BTF id")) ||
		    (rc = rd_u32(d, &v[i].size, "BTF size")))
			return rc;
		const uint8_t *p = perfan__cur_take(&d->c, v[i].size);
		if (!p)
			return bad(d, "BTF data", v[i].size);
		uint8_t *copy = alloc(d, v[i].size, 1);
		if (!copy)
			return nomem(d);
		memcpy(copy, p, v[i].size);
		v[i].data = copy;
	}
	/* by id, the first of equal ids kept: perf's tree by id */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && v[j - 1].id > v[j].id; j--) {
			struct perfan_bpf_btf t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (!u || v[u - 1].id != v[i].id)
			v[u++] = v[i];
	pd->feat.bpf_btfs = v;
	pd->feat.nr_bpf_btfs = u;
	return name_subprogs(pd) ? nomem(d) : 0;
}

int perfan__feature_decode(struct perfan_perfdata *pd, int feat,
			   const uint8_t *p, uint64_t len, uint64_t off)
{
	if (feat <= 0 || feat >= PERFAN_FEAT_MAX)
		return PD_ERR(pd, PERFAN_EFORMAT, off,
			      "feature number %d is out of range (1..%d)", feat,
			      PERFAN_FEAT_MAX - 1);
	if (len > SIZE_MAX)
		return PD_ERR(pd, PERFAN_EFORMAT, off,
			      "feature %d: %llu bytes is too large", feat,
			      (unsigned long long)len);
	const char *name = perfan_feature_name(feat);
	char unknown[24];
	if (!name) {
		snprintf(unknown, sizeof(unknown), "#%d", feat);
		name = unknown;
	}
	struct dec d = {pd, perfan__cur_make(p, (size_t)len, pd->swap), off,
			name};
	struct perfan_features *f = &pd->feat;
	int rc = 0;
	switch (feat) {
	case PERFAN_FEAT_TRACING_DATA: rc = dec_tracing_data(&d); break;
	case PERFAN_FEAT_BUILD_ID: rc = dec_build_id(&d); break;
	case PERFAN_FEAT_HOSTNAME: rc = dec_string(&d, &f->hostname); break;
	case PERFAN_FEAT_OSRELEASE: rc = dec_string(&d, &f->osrelease); break;
	case PERFAN_FEAT_VERSION: rc = dec_string(&d, &f->version); break;
	case PERFAN_FEAT_ARCH: rc = dec_string(&d, &f->arch); break;
	case PERFAN_FEAT_NRCPUS: rc = dec_nrcpus(&d); break;
	case PERFAN_FEAT_CPUDESC: rc = dec_string(&d, &f->cpudesc); break;
	case PERFAN_FEAT_CPUID: rc = dec_string(&d, &f->cpuid); break;
	case PERFAN_FEAT_TOTAL_MEM: rc = dec_total_mem(&d); break;
	case PERFAN_FEAT_CMDLINE: rc = dec_cmdline(&d); break;
	case PERFAN_FEAT_EVENT_DESC: rc = dec_event_desc(&d); break;
	case PERFAN_FEAT_CPU_TOPOLOGY: rc = dec_cpu_topology(&d); break;
	case PERFAN_FEAT_NUMA_TOPOLOGY: rc = dec_numa_topology(&d); break;
	case PERFAN_FEAT_PMU_MAPPINGS: rc = dec_pmu_mappings(&d); break;
	case PERFAN_FEAT_GROUP_DESC: rc = dec_group_desc(&d); break;
	case PERFAN_FEAT_SAMPLE_TIME: rc = dec_sample_time(&d); break;
	case PERFAN_FEAT_CLOCKID: rc = dec_clockid(&d); break;
	case PERFAN_FEAT_CLOCK_DATA: rc = dec_clock_data(&d); break;
	case PERFAN_FEAT_COMPRESSED: rc = dec_compressed(&d); break;
	case PERFAN_FEAT_HYBRID_TOPOLOGY: rc = dec_hybrid_topology(&d); break;
	case PERFAN_FEAT_CPU_PMU_CAPS: rc = dec_cpu_pmu_caps(&d); break;
	case PERFAN_FEAT_PMU_CAPS: rc = dec_pmu_caps(&d); break;
	case PERFAN_FEAT_BPF_PROG_INFO: rc = dec_bpf_prog_info(&d); break;
	case PERFAN_FEAT_BPF_BTF: rc = dec_bpf_btf(&d); break;
	default:
		/* branch_stack and stat are flags; auxtrace, cache,
		 * mem_topology, dir_format and newer ones are kept
		 * only as present (file mode: section_offset/size) */
		break;
	}
	/* a feature counts as present only once it decoded; every decoder
	 * above writes pd->feat only after reading everything it needs */
	set_present(f, feat, rc == 0);
	return rc;
}
