/* perfan/perfdata.h: the perf.data reader. Opens a file (file or pipe mode,
 * either byte order, compressed or not) or a stream, exposes the attrs and
 * header features, and yields records one by one, decoded. */
#ifndef PERFAN_PERFDATA_H
#define PERFAN_PERFDATA_H

#include <perfan/common.h>
#include <perfan/features.h>
#include <perfan/records.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct perfan_perfdata perfan_perfdata;

struct perfan_perfdata_opts {
	size_t sz;
	/* By default records come in time order within FINISHED_ROUND
	 * windows, as perf delivers them. 1: file order (faster, no copies). */
	int unordered;
	/* Do not expand COMPRESSED records: deliver them as they are. */
	int keep_compressed;
	perfan_log_fn log;
	void *log_payload;
	/* 1: SAMPLE records come with their header fields, event and raw
	 * bytes but u.sample and sid are not decoded: for tools that only
	 * count (perfan stats), several times faster. */
	int skip_sample_fields;
	/* Upper bound for buffered bytes while ordering (0: 256 MiB). When
	 * reached, the oldest records are delivered early with a warning. */
	size_t max_queue_bytes;
	/* 2 or more: a mapped file is read, decompressed, put in time order
	 * and decoded ahead on a second thread while the caller's thread
	 * takes the records (the same records, warnings and errors, in the
	 * same order, as with one). 0 or 1: the caller's thread does it all.
	 * A stream is always read on the caller's thread. 3 or more: a
	 * resolved-sample stream over it (perfan_stream_open) unwinds DWARF
	 * user stacks ahead on a third thread. */
	int threads;
};

/* Open PATH ("-" is standard input). On failure *out is NULL and the
 * message names the file, offset and problem. Free with perfan_perfdata_free. */
PERFAN_API int perfan_perfdata_open(perfan_perfdata **out, const char *path,
				    const struct perfan_perfdata_opts *opts);

/* Read from an open descriptor (not closed by the library). NAME is used
 * in messages. A regular file is mapped; a pipe is read as a stream. */
PERFAN_API int perfan_perfdata_open_fd(perfan_perfdata **out, int fd,
				       const char *name,
				       const struct perfan_perfdata_opts *opts);

PERFAN_API void perfan_perfdata_free(perfan_perfdata *pd);

/* Pull the next record. *out is borrowed: valid until the next call to
 * perfan_perfdata_next or perfan_perfdata_free. Returns 0, PERFAN_ITEROVER
 * at the end, or a negative error (the reader then stays at the error). */
PERFAN_API int perfan_perfdata_next(perfan_perfdata *pd,
				    const struct perfan_record **out);

/* Pipe mode streams attrs and features as records: this reads ahead until
 * the first record that is not a header record (ATTR, EVENT_TYPE,
 * TRACING_DATA, BUILD_ID, FEATURE, ...), so that attrs and features are
 * known; the records read are still delivered by perfan_perfdata_next.
 * In file mode it does nothing. */
PERFAN_API int perfan_perfdata_read_header(perfan_perfdata *pd);

/* Facts about the file. */
struct perfan_file_info {
	int pipe_mode;      /* 1 for pipe mode (PERFILE2 with 16-byte header) */
	int big_endian;     /* writer's byte order */
	int needs_swap;     /* writer's order differs from ours */
	uint64_t file_size; /* 0 for a stream */
	uint64_t header_size, attr_size;
	uint64_t data_offset, data_size; /* file mode */
	uint64_t feature_bits[4];        /* file mode: adds_features bitmap */
	/* file mode: 1 when the recording was cut, without features: data
	 * size 0 in the header (perf record never finished: the records are
	 * read to the last whole one, and the end is no error), or past the
	 * end of the file (bytes perf wrote are missing: the records that
	 * are there, then PERFAN_ETRUNCATED). */
	int cut;
};
PERFAN_API const struct perfan_file_info *
perfan_perfdata_info(const perfan_perfdata *pd);

/* The events (attrs) known so far. In pipe mode they arrive as records;
 * call perfan_perfdata_read_header first. Borrowed from PD. */
PERFAN_API size_t perfan_perfdata_nr_events(const perfan_perfdata *pd);
PERFAN_API const struct perfan_event *
perfan_perfdata_event(const perfan_perfdata *pd, size_t idx);
/* The event a sample id belongs to, or NULL. */
PERFAN_API const struct perfan_event *
perfan_perfdata_event_by_id(const perfan_perfdata *pd, uint64_t id);

/* Decoded header features (file mode: the feature sections; pipe mode:
 * HEADER_FEATURE records seen so far). Borrowed from PD. */
PERFAN_API const struct perfan_features *
perfan_perfdata_features(const perfan_perfdata *pd);

/* The name perf gives a record type ("SAMPLE", "MMAP2", "FINISHED_ROUND",
 * "FEATURE", ...) or NULL for a type perf has no name for. */
PERFAN_API const char *perfan_record_type_name(uint32_t type);

/* How far the reader has read: the file offset of the next record (for
 * progress displays; records held for time ordering are behind it). */
PERFAN_API uint64_t perfan_perfdata_offset(const perfan_perfdata *pd);

/* The file path or stream name given at open. */
PERFAN_API const char *perfan_perfdata_name(const perfan_perfdata *pd);

#ifdef __cplusplus
}
#endif
#endif
