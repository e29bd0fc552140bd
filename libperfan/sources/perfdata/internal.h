/* sources/perfdata/internal.h: the reader's state and the functions its files share. */
#ifndef PERFAN_PERFDATA_INTERNAL_H
#define PERFAN_PERFDATA_INTERNAL_H

#include <perfan/perfdata.h>

#include "util/arena.h"
#include "util/bytes.h"
#include "util/error.h"
#include "util/htab.h"
#include "util/log.h"

/* Input bytes: a mapped file, or a buffered stream (pipe, stdin). */
struct perfan__source {
	int fd;
	int own_fd;
	const uint8_t *map; /* whole file when mapped */
	size_t map_len;
	uint8_t *buf; /* stream buffer; a mapped file's block of records */
	size_t cap, start, end;
	int filled;       /* the last read filled the buffer: more follows */
	uint64_t buf_off; /* file offset of buf[start] */
	uint64_t dropped; /* mapped pages before this offset were released */
	int eof;
};

/* Copies of records waiting to be delivered in time order. */
struct perfan__queued {
	uint64_t time, seq;
	uint8_t *bytes; /* record copy (8-aligned) */
	struct perfan__chunk *chunk;
	uint64_t offset;
	uint64_t payload_size;
	size_t need; /* bytes it holds in the window (in its chunk, or in
		      * place in a mapped file) */
	int from_compressed;
};

struct perfan__chunk {
	struct perfan__chunk *next;
	size_t cap, used, live;
	_Alignas(16) uint8_t data[];
};

struct perfan__order {
	/* Records waiting for their round, in arrival order after the
	 * first NSORTED, which are sorted by (time, arrival); TMP and RUNS
	 * are the merge sort's scratch. */
	struct perfan__queued *pend, *tmp;
	size_t npend, nsorted, cappend, captmp;
	size_t *runs;
	size_t capruns;
	struct perfan__queued *ready; /* FIFO of records to deliver */
	size_t rhead, rtail, rcap;
	struct perfan__chunk *chunks; /* current chunk first */
	struct perfan__chunk *free_chunks;
	size_t queued_bytes; /* of the records queued (the window holds) */
	size_t round_bytes;  /* of the records queued since the last round */
	uint64_t seq;
	uint64_t max_time;          /* largest time queued so far */
	uint64_t next_flush;        /* flush limit for the next round */
	struct perfan__queued held; /* the record delivered last */
	int holding;
	int warned_overflow;
	size_t chunk_size; /* of the next chunk: doubles to 1 MiB */
};

/* The time-order window's size in bytes of records, by default
 * (perfan_perfdata_opts.max_queue_bytes). */
#define PERFAN__ORDER_WINDOW ((size_t)256 << 20)
/* Slots of the cache of sample ids met lately (events.c). */
#define PERFAN__ID_CACHE 16

/* zstd decompression state for COMPRESSED records. */
struct perfan__decomp;

struct perfan__bpf_raw;

struct perfan_perfdata {
	char *name;
	struct perfan_perfdata_opts opts;
	struct perfan_file_info info;
	int swap;

	uint64_t end; /* end of the data section (UINT64_MAX for streams) */
	/* where the data should have ended, when the file is shorter than
	 * its header says (0 otherwise; info.cut is set too) */
	uint64_t truncated_end;

	struct perfan_event *events;
	size_t nr_events, cap_events;
	struct perfan__htab ids; /* sample id -> event index */
	int id_pos, is_pos;      /* where the id sits in samples / trailers */
	/* ids met lately, in front of IDS (two lookups a sample, a handful
	 * of ids a file: one per event and CPU), direct-mapped by the id's
	 * low bits; id 0 (never looked up) marks an empty slot. One cache
	 * for the reader, which orders records by their times, one for the
	 * decoder, which runs on the caller's thread when a reader thread
	 * reads ahead (pipeline.c) */
	struct perfan__id_slot {
		uint64_t id;
		size_t idx;
	} id_cache[2][PERFAN__ID_CACHE];

	struct perfan_features feat;
	/* BPF_PROG_INFO's function infos, for naming its programs' functions
	 * once BPF_BTF is read (features.c) */
	struct perfan__bpf_raw *bpf_raw;
	struct perfan__arena arena; /* names, ids, features */
	/* The tracepoint formats (libtraceevent), kept for the file's
	 * lifetime so that samples' fields can be read; NULL: none. */
	struct tep_handle *tep;
	const void *tep_data; /* the tracing data TEP was parsed from */
	int tep_bad;          /* it did not parse in full */
	unsigned tep_gen;     /* parses so far: a new one frees the last */
	int header_done;

	/* With a reader thread (pipeline.c), the fields from here to
	 * pipe_apart are the reader's, written for every record; the fields
	 * above are set by the header and read on both threads, and those
	 * after pipe_apart are the decoder's (the caller's thread). A cache
	 * line between the groups: otherwise each read on one core waits for
	 * a line that the other core's write took away. */
	char reader_apart[64];
	struct perfan__source src;
	uint64_t pos; /* file offset of the next record */
	struct perfan__decomp *dc;
	struct perfan__order order;
	struct perfan__order prefetch;
	uint8_t *payload; /* stream copy of a payload outside header.size */
	size_t payload_cap;
	int err; /* sticky error */
	/* an error met while records were still queued for time order:
	 * those are delivered first, then this is returned */
	int pending;
	char *pending_msg;
	int warned_unknown_id;
	char pipe_apart[64];
	struct perfan__pipe *pipe; /* reading ahead (pipeline.c), or NULL */
	struct perfan_record rec;  /* the record handed out last */
	uint8_t *scratch;          /* aligned copies of arrays for `rec` */
	size_t scratch_cap, scratch_used;
	uint8_t *retired[8]; /* outgrown scratch buffers of this record */
	size_t nretired;
	char pipe_apart_after[64];
};

/* A record's bytes and where it came from. */
struct perfan__raw {
	const uint8_t *bytes;
	uint32_t type;
	uint16_t misc;
	uint32_t size;
	uint64_t offset;
	int from_compressed;
	const uint8_t *payload; /* AUXTRACE / TRACING_DATA bytes that follow */
	uint64_t payload_size;
};

/* source.c */
int perfan__source_open_fd(struct perfan__source *s, int fd, const char *name);
void perfan__source_close(struct perfan__source *s);
/* N bytes at file offset OFF; NULL if fewer remain (EOF) or on error (err set,
 * *err < 0). In stream mode OFF must not go backwards past released bytes. */
const uint8_t *perfan__source_get(struct perfan_perfdata *pd, uint64_t off,
				  size_t n, int *err);
/* Release the mapped pages before offset OFF (they fault back if read). */
void perfan__source_drop(struct perfan__source *s, uint64_t off);
/* N bytes of records at OFF: as perfan__source_get, but a mapped file's
 * are read into the source's buffer (valid until the next call), unless
 * there are more than a block of them. */
const uint8_t *perfan__source_data(struct perfan_perfdata *pd, uint64_t off,
				   size_t n, int *err);
/* Size of a mapped file, 0 for a stream. */
uint64_t perfan__source_size(const struct perfan_perfdata *pd);

/* header.c */
int perfan__header_read(struct perfan_perfdata *pd);

/* attr.c */
/* Decode an attr of LEN bytes (64..n) into OUT. */
void perfan__attr_decode(struct perfan_attr *out, const uint8_t *p, size_t len,
			 int swap);
/* The name perf derives from an attr ("cycles:pp", "cpu-clock", "rc4"). */
char *perfan__attr_name(struct perfan__arena *a, const struct perfan_attr *at);

/* events.c */
int perfan__event_add(struct perfan_perfdata *pd, const struct perfan_attr *at,
		      const uint64_t *ids, size_t nr_ids);
int perfan__event_add_ids(struct perfan_perfdata *pd, size_t idx,
			  const uint64_t *ids, size_t nr);
int perfan__event_map_id(struct perfan_perfdata *pd, uint64_t id, size_t idx);
/* The event of a sample (its body) or of another record, through the
 * cache of the reader or of the decoder (PERFAN__IDS_*). */
enum { PERFAN__IDS_READ, PERFAN__IDS_DECODE };
const struct perfan_event *perfan__event_for_sample(struct perfan_perfdata *pd,
						    int ids,
						    const uint8_t *body,
						    size_t len);
const struct perfan_event *perfan__event_for_other(struct perfan_perfdata *pd,
						   int ids, const uint8_t *rec,
						   size_t len);
void perfan__events_finish(struct perfan_perfdata *pd);
/* Name events from the EVENT_DESC feature (by their first id). */
void perfan__events_apply_desc(struct perfan_perfdata *pd);
void perfan__events_free(struct perfan_perfdata *pd);

/* tracing.c: parse the tracepoint formats into pd->tep (again when pipe
 * mode brings them late) and name tracepoint events whose name was derived
 * ("sys:name"). */
void perfan__tracing_name_events(struct perfan_perfdata *pd);
void perfan__tracing_free(struct perfan_perfdata *pd);

/* features.c */
/* Decode feature FEAT from its bytes into pd->feat (strings in pd->arena).
 * OFF is the offset used in error messages. */
int perfan__feature_decode(struct perfan_perfdata *pd, int feat,
			   const uint8_t *p, uint64_t len, uint64_t off);

/* sample.c */
int perfan__sample_decode(struct perfan_perfdata *pd, const uint8_t *rec,
			  size_t len, const struct perfan_event *ev,
			  struct perfan_sample *out, uint64_t off);
/* Counter values in READ_FORMAT (samples and READ records). */
int perfan__read_values(struct perfan_perfdata *pd, struct perfan__cur *c,
			uint64_t fmt, struct perfan_read_values *rv);
/* Parse the sample_id_all trailer of a non-sample record. */
void perfan__sample_id_decode(const uint8_t *rec, size_t len,
			      uint64_t sample_type, int swap,
			      struct perfan_sample_id *out);
/* Bytes of trailer for SAMPLE_TYPE. */
size_t perfan__sample_id_size(uint64_t sample_type);
/* Time of a raw record for ordering; 0 when it has none. */
uint64_t perfan__record_time(struct perfan_perfdata *pd,
			     const struct perfan__raw *r);

/* records.c */
int perfan__record_decode(struct perfan_perfdata *pd,
			  const struct perfan__raw *r,
			  struct perfan_record *out);
/* scratch.c: copy N bytes of possibly unaligned or foreign-order u64s into scratch. */
const uint64_t *perfan__scratch_u64s(struct perfan_perfdata *pd,
				     const uint8_t *p, size_t n);
void *perfan__scratch_alloc(struct perfan_perfdata *pd, size_t n);
void perfan__scratch_reset(struct perfan_perfdata *pd);
const char *perfan__scratch_str(struct perfan_perfdata *pd, const uint8_t *p,
				size_t maxlen);

/* perfdata.c: the next record on this thread, decoded into REC (NULL:
 * its bytes into the batch read ahead, perfan__pipe_put). */
int perfan__perfdata_next_into(struct perfan_perfdata *pd,
			       struct perfan_record *rec);

/* pipeline.c: a reader thread that runs READ (perfan__perfdata_next_into)
 * ahead of the caller (opts.threads >= 2, a mapped file), whose records
 * the caller's thread decodes with DECODE (perfan__record_decode): both
 * given by the caller so that the pipeline knows no reader. Start: 0, or
 * not 0 when no thread could be made (then the caller's thread reads). */
typedef int (*perfan__pipe_read_fn)(struct perfan_perfdata *pd,
				    struct perfan_record *rec);
typedef int (*perfan__pipe_decode_fn)(struct perfan_perfdata *pd,
				      const struct perfan__raw *r,
				      struct perfan_record *rec);
int perfan__pipe_start(struct perfan_perfdata *pd, perfan__pipe_read_fn read,
		       perfan__pipe_decode_fn decode);
int perfan__pipe_next(struct perfan_perfdata *pd,
		      const struct perfan_record **out);
uint64_t perfan__pipe_offset(const struct perfan_perfdata *pd);
void perfan__pipe_free(struct perfan_perfdata *pd);
/* On the reader thread, or the caller's while it decodes a batch's record
 * (else they do nothing and return 0): whether memory that lives as long
 * as the record being decoded comes from the batch, and that memory; a
 * warning kept for the caller's thread (1: kept). On the reader thread: a
 * record's bytes into the batch (0, or out of memory); the record's bytes
 * made to outlive the reader's buffers; wait until the caller holds no
 * record, before the reader's state changes. */
int perfan__pipe_filling(void);
int perfan__pipe_put(struct perfan_perfdata *pd, const struct perfan__raw *r);
/* On the reader thread: where to decode the record just put, when this
 * batch is decoded there (NULL: on the caller's thread); whether this is
 * the reader thread. */
struct perfan_record *perfan__pipe_slot(void);
/* On the reader thread: the batch's place for the next record's bytes
 * (NULL: no batch, out of memory). */
struct perfan__raw *perfan__pipe_raw_slot(void);
int perfan__pipe_reading(void);
void *perfan__pipe_alloc(size_t n);
int perfan__pipe_log(enum perfan_log_level level, const char *msg);
int perfan__pipe_stable(struct perfan_perfdata *pd, struct perfan__raw *r);
void perfan__pipe_quiesce(struct perfan_perfdata *pd);

/* order.c: the time-order queue (pd->order) and the prefetch FIFO of
 * records read ahead by perfan_perfdata_read_header (pd->prefetch). */
int perfan__order_push(struct perfan_perfdata *pd, const struct perfan__raw *r,
		       uint64_t time);
int perfan__order_push_ready(struct perfan_perfdata *pd,
			     const struct perfan__raw *r);
int perfan__order_push_ready_to(struct perfan_perfdata *pd,
				struct perfan__order *o,
				const struct perfan__raw *r);
void perfan__order_flush(struct perfan_perfdata *pd, uint64_t limit);
void perfan__order_round(struct perfan_perfdata *pd);
/* Next ready record of O into R (valid until released); 0 if none. */
int perfan__order_pop_from(struct perfan_perfdata *pd, struct perfan__order *o,
			   struct perfan__raw *r);
void perfan__order_release(struct perfan_perfdata *pd, struct perfan__order *o);
void perfan__order_free(struct perfan__order *o);

/* chunk.c: the chunks records are copied into, on the thread that reads.
 * A chunk of O with room for N bytes (the current one, or anew; NULL: out
 * of memory). */
struct perfan__chunk *perfan__chunk_for(struct perfan__order *o, size_t n);
/* A reference to C more, or one less: a chunk no record holds is reused. */
void perfan__chunk_ref(struct perfan__chunk *c);
void perfan__chunk_unref(struct perfan__order *o, struct perfan__chunk *c);
/* The chunk of O that holds the record delivered last, if BYTES are its
 * bytes there (NULL: they are not, or they are in the mapped file). */
struct perfan__chunk *perfan__chunk_held(const struct perfan__order *o,
					 const uint8_t *bytes);

/* compress.c */
int perfan__decomp_feed(struct perfan_perfdata *pd,
			const struct perfan__raw *r);
/* Next decompressed record; 0 if none buffered (a partial one waits). */
int perfan__decomp_next(struct perfan_perfdata *pd, struct perfan__raw *r);
/* At the end of the input: a partial record still held is reported (a
 * warning) and dropped. */
void perfan__decomp_end(struct perfan_perfdata *pd);
void perfan__decomp_free(struct perfan__decomp *dc);

/* pipeline.c: log through the user's callback, if any (from the reader
 * thread: kept for the caller's thread, see perfan__pipe_log). */
void perfan__log(struct perfan_perfdata *pd, enum perfan_log_level lvl,
		 const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Error helper: "NAME: offset N (0xN): what". */
#define PD_ERR(pd, code, off, ...)                                             \
	perfan__err_at((code), (pd)->name, (off), PERFAN__AT_HEX, __VA_ARGS__)

#endif
