/* sources/perfdata/header.c: the file header: magic and byte order, pipe or file
 * mode, the attrs with their ids, and (file mode) the feature sections. */
#include "sources/perfdata/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC2 0x32454c4946524550ull /* "PERFILE2" */
#define MAGIC1 0x454c494646524550ull /* "PERFFILE" */
#define FILE_HEADER_SIZE 104

static int read_attrs(struct perfan_perfdata *pd, uint64_t off, uint64_t size,
		      uint64_t attr_size)
{
	int err;
	if (attr_size < 64 + 16 || attr_size > 4096)
		return PD_ERR(pd, PERFAN_EFORMAT, 16,
			      "attr size %llu is not plausible (64..4080 "
			      "bytes plus 16 for the ids section)",
			      (unsigned long long)attr_size);
	if (size % attr_size)
		return PD_ERR(pd, PERFAN_EFORMAT, 24,
			      "attrs section size %llu is not a multiple of "
			      "the attr size %llu",
			      (unsigned long long)size,
			      (unsigned long long)attr_size);
	uint64_t n = size / attr_size;
	const uint8_t *p = perfan__source_get(pd, off, size, &err);
	if (!p)
		return err ? err
			   : PD_ERR(pd, PERFAN_ETRUNCATED, off,
				    "attrs section (%llu bytes) extends past "
				    "the end of the file",
				    (unsigned long long)size);
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *a = p + i * attr_size;
		struct perfan_attr at;
		perfan__attr_decode(&at, a, attr_size - 16, pd->swap);
		uint64_t ids_off = perfan__u64(a + attr_size - 16, pd->swap);
		uint64_t ids_size = perfan__u64(a + attr_size - 8, pd->swap);
		const uint8_t *ids = NULL;
		if (ids_size) {
			ids = perfan__source_get(pd, ids_off, ids_size, &err);
			if (!ids)
				return err ? err
					   : PD_ERR(pd, PERFAN_ETRUNCATED,
						    off + i * attr_size,
						    "ids of attr %llu (%llu "
						    "bytes at 0x%llx) extend "
						    "past the end of the file",
						    (unsigned long long)i,
						    (unsigned long long)ids_size,
						    (unsigned long long)ids_off);
		}
		const uint64_t *v = NULL;
		size_t nids = (size_t)(ids_size / 8);
		if (nids) {
			uint64_t *tmp =
				perfan__arena_alloc(&pd->arena, nids * 8);
			if (!tmp)
				return PD_ERR(pd, PERFAN_ENOMEM, off,
					      "out of memory");
			for (size_t k = 0; k < nids; k++)
				tmp[k] = perfan__u64(ids + k * 8, pd->swap);
			v = tmp;
		}
		int rc = perfan__event_add(pd, &at, v, nids);
		if (rc)
			return rc;
	}
	return 0;
}

/* The next feature present from *I on (*I set to it), and its section's
 * offset and size, entry *K of the table SECS (*K moved past it): 1, or 0
 * after the last. */
static int next_section(const struct perfan_perfdata *pd, const uint8_t *secs,
			int *i, uint64_t *k, uint64_t *off, uint64_t *size)
{
	const uint64_t *bits = pd->info.feature_bits;
	for (; *i < 256; ++*i)
		if (bits[*i / 64] >> (*i % 64) & 1) {
			*off = perfan__u64(secs + *k * 16, pd->swap);
			*size = perfan__u64(secs + *k * 16 + 8, pd->swap);
			++*k;
			return 1;
		}
	return 0;
}

/* The features of the table SECS (NSEC sections) that extend past the end
 * of the file, said in one warning before any other: perf writes them
 * last, so a file cut short loses them first, and with the tracing data
 * the tracepoints' names and formats (its samples are still there). */
static void cut_features(struct perfan_perfdata *pd, const uint8_t *secs,
			 uint64_t nsec)
{
	uint64_t fsize = pd->info.file_size, k = 0, nlost = 0, soff, ssize;
	uint64_t kept_end = 0, lost_start = UINT64_MAX;
	char names[512];
	size_t len = 0;
	int tracing = 0, desc = 0;
	names[0] = '\0';
	for (int i = 0; next_section(pd, secs, &i, &k, &soff, &ssize); i++) {
		if (soff <= fsize && ssize <= fsize - soff) {
			if (soff > kept_end)
				kept_end = soff;
			continue;
		}
		if (soff < lost_start)
			lost_start = soff;
		nlost++;
		tracing |= i == PERFAN_FEAT_TRACING_DATA;
		desc |= i == PERFAN_FEAT_EVENT_DESC;
		const char *n = perfan_feature_name(i);
		if (len < sizeof(names))
			len += (size_t)snprintf(names + len,
						sizeof(names) - len, "%s%s",
						len ? ", " : "", n ? n : "?");
	}
	if (!nlost)
		return;
	/* a cut loses the last sections; a lost one before a kept one is a
	 * damaged table */
	perfan__log(pd, PERFAN_LOG_WARN,
		    "%s: the recording was cut %s its feature section%s "
		    "(%llu of %llu features extend past the end of the file, "
		    "%llu bytes, and are ignored: %s)",
		    pd->name,
		    lost_start < kept_end ? "or damaged in"
		    : nlost == nsec       ? "before"
					  : "in",
		    tracing ? ": tracepoint names and formats are lost"
		    : desc  ? ": event names are lost"
			    : "",
		    (unsigned long long)nlost, (unsigned long long)nsec,
		    (unsigned long long)fsize, names);
}

static int read_features(struct perfan_perfdata *pd, uint64_t off)
{
	const uint64_t *bits = pd->info.feature_bits;
	uint64_t nsec = 0;
	for (int i = 0; i < 256; i++)
		if (bits[i / 64] >> (i % 64) & 1)
			nsec++;
	memcpy(pd->feat.present, bits, sizeof(pd->feat.present));
	if (!nsec)
		return 0;
	int err;
	const uint8_t *secs = perfan__source_get(pd, off, nsec * 16, &err);
	if (!secs) {
		/* perf itself warns and goes on without features */
		perfan__log(pd, PERFAN_LOG_WARN,
			    "%s: feature sections table at 0x%llx is past the "
			    "end of the file; features ignored",
			    pd->name, (unsigned long long)off);
		memset(pd->feat.present, 0, sizeof(pd->feat.present));
		return err;
	}
	cut_features(pd, secs, nsec);
	uint64_t k = 0, soff, ssize;
	for (int i = 0; next_section(pd, secs, &i, &k, &soff, &ssize); i++) {
		if (i < 32) {
			pd->feat.section_offset[i] = soff;
			pd->feat.section_size[i] = ssize;
		}
		const uint8_t *p = perfan__source_get(pd, soff, ssize, &err);
		if (!p) {
			if (err)
				return err;
			/* (cut_features said so) */
			pd->feat.present[i / 64] &= ~(1ull << (i % 64));
			continue;
		}
		int rc = perfan__feature_decode(pd, i, p, ssize, soff);
		if (rc == PERFAN_ENOMEM)
			return rc;
		if (rc) {
			perfan__log(pd, PERFAN_LOG_WARN, "%s",
				    perfan_error_last());
			pd->feat.present[i / 64] &= ~(1ull << (i % 64));
		}
	}
	return 0;
}

int perfan__header_read(struct perfan_perfdata *pd)
{
	int err;
	const uint8_t *h = perfan__source_get(pd, 0, 16, &err);
	if (!h)
		return err ? err
			   : PD_ERR(pd, PERFAN_ETRUNCATED, 0,
				    "file is too short for a perf.data header "
				    "(need 16 bytes)");
	uint64_t magic = perfan__u64(h, 0);
	if (magic == MAGIC2) {
		pd->swap = 0;
	} else if (magic == __builtin_bswap64(MAGIC2)) {
		pd->swap = 1;
	} else if (magic == MAGIC1 || magic == __builtin_bswap64(MAGIC1)) {
		return PD_ERR(pd, PERFAN_EUNSUPPORTED, 0,
			      "unsupported v1 format (PERFFILE magic, written "
			      "by perf before 2.6.35)");
	} else {
		return PD_ERR(pd, PERFAN_EFORMAT, 0,
			      "not a perf.data file (bad magic)");
	}
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	pd->info.big_endian = !pd->swap;
#else
	pd->info.big_endian = pd->swap;
#endif
	pd->info.needs_swap = pd->swap;
	pd->info.file_size = perfan__source_size(pd);
	uint64_t hsize = perfan__u64(h + 8, pd->swap);
	pd->info.header_size = hsize;
	if (hsize == 16) {
		pd->info.pipe_mode = 1;
		pd->pos = 16;
		pd->end = UINT64_MAX;
		return 0;
	}
	if (hsize < FILE_HEADER_SIZE - 32 || hsize > 4096)
		return PD_ERR(pd, PERFAN_EFORMAT, 8,
			      "header size %llu is neither 16 (pipe mode) nor "
			      "%d (file mode)",
			      (unsigned long long)hsize, FILE_HEADER_SIZE);
	if (!pd->src.map)
		return PD_ERR(pd, PERFAN_EUNSUPPORTED, 0,
			      "a file-mode perf.data cannot be read from a "
			      "pipe; give its path, or record with -o -");
	h = perfan__source_get(pd, 0, hsize, &err);
	if (!h)
		return PD_ERR(pd, PERFAN_ETRUNCATED, 0,
			      "file is shorter than its %llu-byte header",
			      (unsigned long long)hsize);
	uint64_t attr_size = perfan__u64(h + 16, pd->swap);
	uint64_t attrs_off = perfan__u64(h + 24, pd->swap);
	uint64_t attrs_size = perfan__u64(h + 32, pd->swap);
	pd->info.attr_size = attr_size;
	pd->info.data_offset = perfan__u64(h + 40, pd->swap);
	pd->info.data_size = perfan__u64(h + 48, pd->swap);
	if (hsize >= FILE_HEADER_SIZE)
		for (int i = 0; i < 4; i++)
			pd->info.feature_bits[i] =
				perfan__u64(h + 72 + 8 * i, pd->swap);
	uint64_t fsize = pd->info.file_size;
	uint64_t dend = pd->info.data_offset + pd->info.data_size;
	/* perf record writes data.size and the feature sections when it
	 * finishes: 0 means it never did (killed, or the machine stopped),
	 * and the file holds all it wrote: read to the last whole record.
	 * A size past the end means the file lost bytes since: the records
	 * that are there, then an error. */
	int killed = pd->info.data_size == 0 && pd->info.data_offset <= fsize;
	int truncated = pd->info.data_offset > fsize ||
			pd->info.data_size > fsize - pd->info.data_offset;
	int rc = read_attrs(pd, attrs_off, attrs_size, attr_size);
	if (rc)
		return rc;
	if (killed) {
		perfan__log(pd, PERFAN_LOG_WARN,
			    "%s: the recording was cut: data size 0 in the "
			    "header (perf record did not finish: killed?); "
			    "reading the records to the end of the file "
			    "(%llu bytes); its feature sections were never "
			    "written",
			    pd->name,
			    (unsigned long long)(fsize - pd->info.data_offset));
		memset(pd->feat.present, 0, sizeof(pd->feat.present));
		pd->info.cut = 1;
		dend = fsize;
	} else if (truncated) {
		int tp = 0;
		for (size_t i = 0; i < pd->nr_events; i++)
			tp |= pd->events[i].attr.type == 2; /* TRACEPOINT */
		perfan__log(
			pd, PERFAN_LOG_WARN,
			"%s: the recording was cut in its data section (0x%llx, "
			"%llu bytes, extends past the end of the file, %llu "
			"bytes): its last records and its feature section are "
			"lost%s",
			pd->name, (unsigned long long)pd->info.data_offset,
			(unsigned long long)pd->info.data_size,
			(unsigned long long)fsize,
			tp ? ", and with it the tracepoints' names and formats"
			   : "");
		memset(pd->feat.present, 0, sizeof(pd->feat.present));
		pd->info.cut = 1;
		pd->truncated_end = dend < pd->info.data_offset ? UINT64_MAX
								: dend;
		dend = fsize;
	} else {
		rc = read_features(pd, dend);
		if (rc)
			return rc;
	}
	perfan__events_apply_desc(pd);
	perfan__events_finish(pd);
	pd->pos = pd->info.data_offset;
	pd->end = dend;
	pd->header_done = 1;
	return 0;
}
