/* perfan/stream.h: the resolved-sample stream: a perf.data file's samples in
 * time order, each with its thread, event, period, resolved frames (with
 * address and module) and tracepoint fields, and the switch, comm, fork,
 * exit and lost records that time-based analyses need. Building a profile
 * (perfan_resolve_perfdata) is one fold over this stream. */
#ifndef PERFAN_STREAM_H
#define PERFAN_STREAM_H

#include <perfan/common.h>
#include <perfan/perfdata.h>
#include <perfan/records.h>
#include <perfan/resolve.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct perfan_stream perfan_stream;
/* A mapped file (binary or library) frames were resolved in; a handle that
 * lives as long as the stream (perfan_stream_dso describes it). */
typedef struct perfan_dso perfan_dso;

/* What an event is; selects the member of perfan_stream_event.u. */
enum perfan_stream_type {
	PERFAN_STREAM_SAMPLE = 1,          /* u.sample */
	PERFAN_STREAM_SWITCH = 2,          /* u.sw (PERF_RECORD_SWITCH) */
	PERFAN_STREAM_SWITCH_CPU_WIDE = 3, /* u.sw, with next/prev task */
	PERFAN_STREAM_COMM = 4,            /* u.comm */
	PERFAN_STREAM_FORK = 5,            /* u.task */
	PERFAN_STREAM_EXIT = 6,            /* u.task */
	PERFAN_STREAM_LOST = 7,            /* u.lost (LOST, LOST_SAMPLES) */
};

/* One resolved frame. Strings live as long as the stream; the same id
 * always means the same (name, module, file, line, kind). */
struct perfan_stream_frame {
	const char *name;   /* as in a profile: function, "[module]", ... */
	const char *module; /* short DSO name, or NULL */
	const char *file;   /* source file (opts source_lines), or NULL */
	uint32_t line;      /* source line, or 0 */
	uint32_t kind;      /* enum perfan_frame_kind (never PROCESS) */
	uint32_t id;        /* dense frame id within the stream */
	int inlined;        /* 1: inlined into the frame after it */
	/* The address sampled or returned to (an inlined frame has the
	 * address of the frame after it). */
	uint64_t addr;
	/* ADDR in its map as perf script prints it: ADDR - map start +
	 * pgoff in a mapped file; ADDR itself in the kernel, JIT code and
	 * unmapped memory. */
	uint64_t map_addr;
	/* The mapped file holding ADDR; NULL in the kernel, JIT code, perf
	 * maps and memory without a file. */
	const perfan_dso *dso;
	/* ADDR as an ELF virtual address in DSO, as objdump and perf
	 * annotate print it; 0 when DSO is NULL. */
	uint64_t dso_addr;
};

struct perfan_stream_sample {
	/* The period: the sample's own (PERF_SAMPLE_PERIOD), else the
	 * event's fixed sample_period, else 1. */
	uint64_t period;
	/* Frames, leaf first; no process frame. */
	size_t nr_frames;
	const struct perfan_stream_frame *frames;
	int truncated;     /* unwinding stopped early */
	uint32_t raw_size; /* tracepoint payload (PERF_SAMPLE_RAW) */
	const void *raw;
};

struct perfan_stream_switch {
	int out;     /* 1: switched out, 0: switched in */
	int preempt; /* out while still runnable (SWITCH_OUT_PREEMPT) */
	/* SWITCH_CPU_WIDE: the task switched to (out) or from (in); -1
	 * for SWITCH. */
	int32_t next_prev_pid, next_prev_tid;
};

struct perfan_stream_comm {
	const char *comm; /* the new name */
	int exec;         /* renamed by exec */
};

struct perfan_stream_task { /* FORK and EXIT; pid/tid are the child's */
	int32_t ppid, ptid;
};

struct perfan_stream_lost {
	uint64_t id;   /* LOST: the sample id; 0 for LOST_SAMPLES */
	uint64_t lost; /* records or samples lost */
};

/* An event. Everything in it, and what it points to, is borrowed from the
 * stream: valid until the next perfan_stream_next or perfan_stream_free. */
struct perfan_stream_event {
	uint32_t type;         /* enum perfan_stream_type */
	uint64_t time;         /* ns; 0 when the record has no time */
	int32_t pid, tid, cpu; /* -1 when not recorded */
	/* The thread's name at that time (after a COMM: the new one;
	 * NULL: never named, which perf shows as ":TID"). */
	const char *comm;
	/* The event (attr) the record belongs to, with its name and
	 * index; NULL for records without a sample id. */
	const struct perfan_event *event;
	const struct perfan_record *record; /* the decoded record */
	union {
		struct perfan_stream_sample sample;
		struct perfan_stream_switch sw;
		struct perfan_stream_comm comm;
		struct perfan_stream_task task;
		struct perfan_stream_lost lost;
	} u;
};

/* Open a stream over PD, which should be opened in time order (the
 * default) and not read yet. OPTS as for perfan_resolve_perfdata (NULL:
 * PERFAN_RESOLVE_OPTS_INIT); its filters select samples only, and root and
 * weight do not apply. PD must outlive the stream. Returns 0, or a
 * negative error with *OUT NULL. Free with perfan_stream_free. */
PERFAN_API int perfan_stream_open(perfan_stream **out, perfan_perfdata *pd,
				  const struct perfan_resolve_opts *opts);
PERFAN_API void perfan_stream_free(perfan_stream *s);

/* The next event, in time order. *EV is borrowed (see above). Returns 0,
 * PERFAN_ITEROVER at the end, or a negative error naming the record's
 * offset (the stream then stays at the error). */
PERFAN_API int perfan_stream_next(perfan_stream *s,
				  const struct perfan_stream_event **ev);

/* Since 0.2. The module (as frames name it) of the main binary of the
 * profiled process, from the samples read so far: the executable that the
 * process whose samples weigh most (by their periods) mapped first after
 * its exec, as perf_data_converter takes it; NULL: none known yet.
 * Borrowed from S. */
PERFAN_API const char *perfan_stream_main_module(const perfan_stream *s);

/* Tracepoint fields of a SAMPLE of a tracepoint event, by the name in its
 * format (sched:sched_switch's "prev_state", "next_pid", ...), decoded
 * with libtraceevent from the formats stored in the file.
 * _u64: an integer field (signed ones sign-extended).
 * _str: a char array or dynamic string: *OUT points into the sample (not
 * NUL-terminated), *LEN its length up to the first NUL. Borrowed as EV.
 * Return 0, PERFAN_ENOTFOUND (no such field, or EV is no tracepoint
 * sample), PERFAN_EINVAL (a field of the other kind), PERFAN_ETRUNCATED
 * (the sample's raw data is too short). */
PERFAN_API int perfan_stream_field_u64(perfan_stream *s,
				       const struct perfan_stream_event *ev,
				       const char *name, uint64_t *out);
PERFAN_API int perfan_stream_field_str(perfan_stream *s,
				       const struct perfan_stream_event *ev,
				       const char *name, const char **out,
				       size_t *len);

/* A mapped file, as found by the resolver. Strings are borrowed from S. */
struct perfan_stream_dso {
	const char *path;       /* as recorded */
	const char *short_name; /* its basename, as in frames' module */
	const uint8_t *build_id;
	size_t build_id_size;   /* 0: none recorded or found */
	const char *binary;     /* the file read for code, or NULL */
	const char *debug_file; /* the separate debug file, or NULL */
	uint16_t machine;       /* ELF e_machine (62 x86-64, 183 aarch64);
				   0 when no file was found */
};
PERFAN_API int perfan_stream_dso(perfan_stream *s, const perfan_dso *dso,
				 struct perfan_stream_dso *out);
/* Why no file of DSO could be read, once its files were looked for (a
 * frame in it was resolved): "PATH is a truncated ELF file: N bytes,
 * where its headers need M", "PATH is not an ELF file", "build-id
 * mismatch: recorded ID, PATH has ID2" (or "has none"), "file not found:
 * looked for PATH, PATH2"; NULL when a file was read or none was looked
 * for. Borrowed from S. */
PERFAN_API const char *perfan_stream_dso_problem(perfan_stream *s,
						 const perfan_dso *dso);

/* The symbol of DSO covering the ELF virtual address ADDR (a frame's
 * dso_addr). NAME is demangled unless the stream's opts say no_demangle;
 * RAW_NAME is as in the symbol table; both borrowed from S. Returns 0 or
 * PERFAN_ENOTFOUND. */
struct perfan_stream_symbol {
	const char *name, *raw_name;
	uint64_t start, size; /* ELF virtual address and bytes */
};
PERFAN_API int perfan_stream_symbol(perfan_stream *s, const perfan_dso *dso,
				    uint64_t addr,
				    struct perfan_stream_symbol *out);

/* Counts so far (samples, filtered, frames, ...). Borrowed from S. */
PERFAN_API const struct perfan_resolve_stats *
perfan_stream_stats(const perfan_stream *s);

#ifdef __cplusplus
}
#endif
#endif
