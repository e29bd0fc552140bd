/* resolve/symbols.h: what the resolver's files share: address spaces over
 * time (threads, maps), DSOs and their ELF/DWARF symbols, kernel symbols,
 * and the context of one perfan_resolve_perfdata call. */
#ifndef PERFAN_SYMBOLS_SYMBOLS_H
#define PERFAN_SYMBOLS_SYMBOLS_H

#include <stdarg.h>
#include <stdint.h>

#include <perfan/resolve.h>

#include "resolve/host.h"
#include "util/arena.h"
#include "util/demangle.h"
#include "util/hash.h"
#include "util/htab.h"
#include "util/log.h"
#include "util/maparr.h"

struct perfan__symctx;

/* ---- ELF files and their symbol tables (elfsym.c) ------------------- */

/* One opened ELF file, mapped read-only; the descriptor is closed once the
 * file is mapped. */
struct perfan__elf {
	char *path;
	void *elf; /* Elf * (libelf), kept untyped so that this header needs
		      no libelf include */
	uint8_t build_id[20];
	uint8_t build_id_size; /* 0: the file has no build-id note */
	uint16_t e_type, e_machine;
	int has_symtab, has_dynsym, has_debug_info;
	int has_gnu_debugdata; /* MiniDebugInfo: an xz-compressed ELF */
	char *debuglink;       /* .gnu_debuglink name, or NULL */
	void *image;           /* owned memory behind ELF, or NULL */
	/* The bytes its headers say it has (the section and program header
	 * tables, the sections' contents) and the file's size (0 in
	 * memory): more needed than there is, the file was cut */
	uint64_t needed, file_size;
};

/* Open PATH. PERFAN_ENOTFOUND if it does not exist, PERFAN_EFORMAT if it is
 * not ELF; no log or error message for either (callers try many paths). */
int perfan__elf_open(struct perfan__elf **out, const char *path);
/* An ELF image in memory that outlives the result (our own [vdso]). */
struct perfan__elf *perfan__elf_open_mem(const void *image, size_t size,
					 const char *name);
void perfan__elf_close(struct perfan__elf *e);
/* The ELF file inside E's .gnu_debugdata section (MiniDebugInfo, as Fedora
 * ships: a .symtab of the functions that .dynsym lacks), decompressed, or
 * NULL when E has none or it does not decompress to ELF. */
struct perfan__elf *perfan__elf_minidebug(const struct perfan__elf *e);

/* The bytes at ADDR (an ELF virtual address), at most SIZE of them, from
 * the executable section holding ADDR: 0, or PERFAN_ENOTFOUND when no
 * section with contents holds it (a debug file's NOBITS .text). *CODE is
 * borrowed from E. (elfcode.c) */
int perfan__elf_code(const struct perfan__elf *e, uint64_t addr, uint64_t size,
		     const uint8_t **code, size_t *len);

struct perfan__sym {
	uint64_t start, end; /* ELF virtual addresses, end exclusive */
	const char *name;    /* raw (mangled) name */
};

/* A PT_LOAD segment, for file offset -> virtual address. */
struct perfan__seg {
	uint64_t offset, vaddr, filesz;
};

/* The symbols of a DSO, chosen and fixed up the way perf does (functions,
 * objects and text labels; zero sizes extended to the next symbol; one
 * symbol per address, by perf's preferences), sorted by start. */
struct perfan__symtab {
	struct perfan__sym *syms;
	size_t n;
	struct perfan__seg *segs;
	size_t nsegs;
	struct perfan__arena arena; /* synthesized names (name@plt) */
};

/* Symbols from SYMSRC (the file with the best table: a debug file's
 * .symtab, else the binary's .symtab, else its .dynsym), merged with those
 * of EXTRA's .symtab when given (MiniDebugInfo beside a .dynsym), and
 * segments from RUNTIME (or SYMSRC when the binary was not found); PLT
 * entries of RUNTIME as perf 6.1 names them ("name@plt"). */
int perfan__symtab_load(struct perfan__symtab *st, struct perfan__elf *runtime,
			struct perfan__elf *symsrc, struct perfan__elf *extra);
void perfan__symtab_free(struct perfan__symtab *st);
/* File offset (a map's pgoff-relative address) to ELF virtual address, via
 * the PT_LOAD segment that holds it, as perf's map__map_ip + dso rip. */
uint64_t perfan__symtab_off2addr(const struct perfan__symtab *st, uint64_t off);
/* The symbol covering ADDR, or NULL. */
const struct perfan__sym *perfan__symtab_find(const struct perfan__symtab *st,
					      uint64_t addr);

/* ---- DWARF: inline frames and source lines (dwarfinfo.c) ------------- */

struct perfan__dwarf;

/* A DWARF view of E (its .debug_* sections), or NULL if it has none. */
struct perfan__dwarf *perfan__dwarf_open(struct perfan__elf *e);
void perfan__dwarf_close(struct perfan__dwarf *d);

/* One source-level frame at an address. */
struct perfan__srcframe {
	const char *name; /* function name (linkage name when there is one) */
	const char *file; /* NULL if unknown */
	uint32_t line;
	int inlined; /* 1 for a DW_TAG_inlined_subroutine */
};

/* The frames at ADDR, innermost first: each inlined subroutine (when
 * INLINES), then the containing function; with LINES, each frame's file and
 * line (the leaf's from the line table, the callers' from the call sites).
 * Returns the count (0 when no DWARF covers ADDR), at most MAX. Strings
 * live as long as D. */
size_t perfan__dwarf_frames(struct perfan__dwarf *d, uint64_t addr, int inlines,
			    int lines, struct perfan__srcframe *out,
			    size_t max);

/* The source line of each address of a function [LO, HI), from the line
 * table of its unit: rows in address order, each holding from ADDR to the
 * next row's (FILE NULL: no line). Strings live as long as D. A malloc'd
 * array in *OUT; 0 with *N 0 when no DWARF covers LO. (dwarflines.c) */
struct perfan__linerow {
	uint64_t addr;
	const char *file;
	uint32_t line;
};
int perfan__dwarf_lines(struct perfan__dwarf *d, uint64_t lo, uint64_t hi,
			struct perfan__linerow **out, size_t *n);

/* The functions inlined into the function at LO, one entry per address
 * range of each inlined instance, in DIE order (a parent before its
 * children): DEPTH 1 for one inlined directly, and the call site in the
 * function it was inlined into. (dwarflines.c) */
struct perfan__inlined {
	uint64_t lo, hi;
	uint32_t depth;
	const char *name;
	const char *call_file;
	uint32_t call_line;
};
int perfan__dwarf_inlined(struct perfan__dwarf *d, uint64_t lo,
			  struct perfan__inlined **out, size_t *n);

/* ---- demangling (demangle.c) ------------------------------------------ */

/* perfan__demangle and perfan__demangle_rust_partial: util/demangle.h,
 * which the perf script reader includes too. */

/* ---- DSOs (dso.c) ------------------------------------------------------- */

enum perfan__dso_kind {
	PERFAN__DSO_FILE = 0, /* a mapped file */
	PERFAN__DSO_VDSO,     /* [vdso] */
	PERFAN__DSO_ANON,     /* anonymous executable memory: JIT code,
				 named /tmp/perf-PID.map as perf names it */
	PERFAN__DSO_NODSO,    /* [stack], [heap], /SYSV...: nothing to read */
	PERFAN__DSO_KMODULE,  /* a kernel module map (pid -1) */
	PERFAN__DSO_KERNEL,   /* [kernel.kallsyms] */
};

struct perfan__dso {
	struct perfan__dso *next; /* all DSOs, newest first */
	struct perfan__dso *next_hash;
	uint64_t hash;
	char *path;             /* the name in the recording */
	const char *short_name; /* basename, or the [name] itself */
	uint8_t build_id[20];
	uint8_t build_id_size; /* 0: none recorded */
	uint8_t kind;          /* enum perfan__dso_kind */
	uint8_t loaded;        /* files searched */
	uint8_t mismatch;      /* a file with another build-id was found */
	int32_t pid;           /* PERFAN__DSO_ANON: the process */
	struct perfan__elf *runtime; /* the binary, if found */
	struct perfan__elf *debug;   /* the separate debug file, if found */
	struct perfan__elf *mini;    /* RUNTIME's MiniDebugInfo, when used */
	/* Why no file of it could be read (a truncated or foreign file, a
	 * build-id mismatch, where it was looked for), or NULL */
	char *why;
	struct perfan__symtab symtab;
	int has_symtab;
	struct perfan__dwarf *dwarf; /* opened on first use */
	int dwarf_tried;
	struct perfan__htab cache; /* address -> cached frames (stream.c) */
};

/* The DSO for PATH and BUILD_ID (size 0: the build-id recorded for PATH in
 * the file's build-id table, if any), created on first use. Returns NULL
 * when out of memory. */
struct perfan__dso *perfan__dso_get(struct perfan__symctx *ctx,
				    const char *path, const uint8_t *build_id,
				    size_t build_id_size, int32_t pid);
/* Find the DSO's files (binary, debug file) and load its symbols, once. */
void perfan__dso_load(struct perfan__symctx *ctx, struct perfan__dso *dso);
/* A build-id recorded late (pipe mode writes them at the end): report a
 * DSO already symbolized from a file with another build-id. */
void perfan__dso_check_late_buildid(struct perfan__symctx *ctx,
				    const char *path, const uint8_t *id,
				    size_t size);
/* The DWARF of the DSO (debug file first), opened on first use, or NULL. */
struct perfan__dwarf *perfan__dso_dwarf(struct perfan__dso *dso);
void perfan__dsos_free(struct perfan__symctx *ctx);

/* ---- address spaces (maps.c) ------------------------------------------ */

struct perfan__map {
	uint64_t start, end, pgoff;
	struct perfan__dso *dso;
	uint32_t prot, flags;
};

/* map_ip: the address within the DSO's file (offset), or the address itself
 * for memory without a file, as perf's map__map_ip. */
static inline uint64_t perfan__map_ip(const struct perfan__map *m, uint64_t ip)
{
	if (m->dso->kind == PERFAN__DSO_ANON ||
	    m->dso->kind == PERFAN__DSO_NODSO)
		return ip;
	return ip - m->start + m->pgoff;
}

/* A sorted list of non-overlapping maps, shared copy-on-write between a
 * process and its forked children. */
struct perfan__maps {
	unsigned refs;
	size_t n, cap;
	struct perfan__map *v;
	/* new, never seen before, at creation and on every change: the
	 * same number, the same maps (the key of the stream's memo) */
	uint64_t gen;
};

struct perfan__maps *perfan__maps_new(void);
struct perfan__maps *perfan__maps_get(struct perfan__maps *m);
void perfan__maps_put(struct perfan__maps *m);
/* Insert M into *MAPS (copying the list first if it is shared); maps it
 * overlaps are cut back or split, as the kernel replaces them. */
int perfan__maps_insert(struct perfan__maps **maps,
			const struct perfan__map *m);
const struct perfan__map *perfan__maps_find(const struct perfan__maps *m,
					    uint64_t addr);

/* Kernel symbols from KSYMBOL records (BPF programs, trampolines). */
struct perfan__ksymbol {
	uint64_t start, end;
	char *name;
};
struct perfan__ksymbols {
	struct perfan__ksymbol *v; /* sorted by start */
	size_t n, cap;
};
int perfan__ksymbols_add(struct perfan__ksymbols *k, uint64_t addr,
			 uint64_t len, const char *name);
void perfan__ksymbols_del(struct perfan__ksymbols *k, uint64_t addr);
const struct perfan__ksymbol *
perfan__ksymbols_find(const struct perfan__ksymbols *k, uint64_t addr);
void perfan__ksymbols_free(struct perfan__ksymbols *k);

/* ---- processes and threads (threads.c) -------------------------------- */

struct perfan__proc {
	int32_t pid;
	/* The process it was forked from, until it execs (0: none known):
	 * its JIT code may have been compiled and named there. */
	int32_t ppid;
	unsigned refs; /* threads + the process table */
	struct perfan__maps *maps;
	/* The address space before the last exec: a sample taken inside
	 * execve, after the COMM record, still has its user stack there.
	 * Looked up only where MAPS has nothing (perf keeps the old maps
	 * under the new ones, to the same effect). */
	struct perfan__maps *old_maps;
	/* Its executable: the first file it mapped executable since its
	 * exec (or, mapped before the recording, its first), as
	 * perf_data_converter takes the main binary; NULL: none yet. */
	const struct perfan__dso *exe;
};

/* The map found last in maps of generation GEN, for perfan__proc_map
 * (zeroed before first use). */
struct perfan__map_cache {
	const struct perfan__map *map;
	uint64_t gen;
};

/* The map of ADDR in P's maps (through C: the last one found, while its
 * maps keep their generation and it holds ADDR) or, where they have none,
 * in its maps before exec; NULL if neither has one, or P is NULL. */
const struct perfan__map *perfan__proc_map(struct perfan__map_cache *c,
					   const struct perfan__proc *p,
					   uint64_t addr);

struct perfan__thread {
	int32_t pid, tid;
	struct perfan__proc *proc;
	char *comm; /* NULL: never named (shown as ":TID", as perf does) */
	int exited;
	/* The stack root frame for this comm in the profile resolve.c
	 * folds into (its cache, reset when the comm changes). */
	uint32_t root_frame;
	int root_valid;
};

struct perfan__threads {
	struct perfan__htab by_tid; /* tid -> struct perfan__thread * */
	struct perfan__htab procs;  /* pid -> struct perfan__proc * */
	int32_t *dead;              /* FIFO of exited tids */
	size_t dead_head, dead_n, dead_cap;
};

/* The thread TID of process PID, created if new (or if TID now belongs to
 * another process). NULL when out of memory. */
struct perfan__thread *perfan__thread_findnew(struct perfan__threads *ts,
					      int32_t pid, int32_t tid);
int perfan__threads_comm(struct perfan__threads *ts, int32_t pid, int32_t tid,
			 const char *comm, int exec);
int perfan__threads_fork(struct perfan__threads *ts, int32_t pid, int32_t ppid,
			 int32_t tid, int32_t ptid);
void perfan__threads_exit(struct perfan__threads *ts, int32_t pid, int32_t tid);
void perfan__threads_free(struct perfan__threads *ts);

/* ---- kernel symbols (kallsyms.c) -------------------------------------- */

/* A kernel symbol as found: NAME is NAME_LEN bytes of the file's text,
 * not NUL-terminated. */
struct perfan__ksym {
	uint64_t start, end;
	const char *name;
	size_t name_len;
	const char *module; /* "[mod]" for module symbols, else NULL */
};

struct perfan__kent; /* as kept (kallsyms.c) */

struct perfan__kallsyms {
	struct perfan__kent *v; /* sorted, one per address (in syms) */
	size_t n;
	const char *text; /* the file: mapped, or read into buf */
	void *mapped;
	size_t mapped_len;
	struct perfan__maparr buf, syms;
	const char **mods; /* "[mod]", in arena */
	size_t nmods, capmods;
	struct perfan__arena arena;
};

/* Parse a kallsyms file (as /proc/kallsyms); RELOC_NAME/RELOC_ADDR, when
 * given, move the kernel's own symbols so that RELOC_NAME lands on
 * RELOC_ADDR (KASLR: the file may come from another boot). */
int perfan__kallsyms_load(struct perfan__kallsyms *k, const char *path,
			  const char *reloc_name, uint64_t reloc_addr);
/* How many symbols K keeps, one per address, and the I-th of them in
 * address order. */
size_t perfan__kallsyms_count(const struct perfan__kallsyms *k);
void perfan__kallsyms_at(const struct perfan__kallsyms *k, size_t i,
			 struct perfan__ksym *out);
/* The symbol ADDR falls in, into *OUT: 1, or 0 when none. */
int perfan__kallsyms_find(const struct perfan__kallsyms *k, uint64_t addr,
			  struct perfan__ksym *out);
void perfan__kallsyms_free(struct perfan__kallsyms *k);
/* Load the recording's kernel symbols into CTX once: opts->kallsyms, the
 * build-id cache, or /proc/kallsyms when the running kernel is the one
 * recorded. */
void perfan__kernel_symbols(struct perfan__symctx *ctx);

/* ---- the context of one stream (stream.c) ----------------------------- */

struct perfan__buildid {
	const char *path;
	uint8_t id[20];
	uint8_t size;
	int kernel; /* recorded for kernel space */
};

struct perfan__symctx {
	struct perfan_resolve_opts o;
	struct perfan_resolve_stats *stats;
	struct perfan_perfdata *pd;
	const char *symfs;        /* "" when none */
	const char *buildid_dir;  /* perf's cache, or NULL */
	const char *debug_dir;    /* opts->debug_dir or NULL */
	struct perfan__host host; /* the machine we run on */
	/* Recorded on another host or kernel: files found without a
	 * recorded build-id may differ from the ones profiled. */
	int foreign;
	struct perfan__arena arena;

	/* build-ids recorded in the file: hash(path) -> index + 1 chain */
	struct perfan__buildid *bids;
	size_t nbids, capbids;
	struct perfan__htab bid_by_path;

	struct perfan__dso *dsos; /* list of all */
	struct perfan__htab dso_by_hash;

	struct perfan__threads threads;

	/* Kernel space: maps of pid -1, KSYMBOLs and kallsyms. */
	struct perfan__maps *kmaps;
	struct perfan__dso *kernel_dso;
	char kreloc_name[64]; /* "_text" from "[kernel.kallsyms]_text" */
	uint64_t kreloc_addr;
	int have_kreloc;
	struct perfan__kallsyms kallsyms;
	int kallsyms_state; /* 0 not tried, 1 loaded, -1 unavailable */
	struct perfan__ksymbols ksymbols;

	/* State of the DWARF unwinder (unwind.c), freed by
	 * perfan__unwind_free. */
	void *unwind;
	/* Perf maps and jitdumps by process (jit.c), freed by
	 * perfan__jit_free. */
	void *jit;
};

/* A message of the resolver through its options' log callback. */
#define perfan__symlog(ctx, level, ...)                                        \
	perfan__logf((ctx)->o.log, (ctx)->o.log_payload, (level), __VA_ARGS__)
/* The build-id recorded for PATH (user space, or kernel space with KERNEL),
 * or NULL. */
const struct perfan__buildid *
perfan__recorded_buildid(struct perfan__symctx *ctx, const char *path,
			 int kernel);
/* buildid.c: hex of a build-id into BUF (41 bytes). */
const char *perfan__buildid_hex(const uint8_t *id, size_t size, char *buf);

/* resolve.c's way into the stream. perfan__stream_open_into: a stream
 * whose frames are interned in INTO (which it does not free) and whose
 * SAMPLE events have no public frames: perfan__stream_frame_ids gives
 * their ids in INTO instead (leaf first, u.sample.nr_frames of them).
 * perfan__stream_thread: the thread of the last SAMPLE, for the cache of
 * root frames. perfan__stream_memo_serial: a number for the last SAMPLE's
 * frame ids, the same for every sample that resolved to the same ids
 * under the same event (a memo entry, never reused; processes sharing
 * their maps share it too), or 0. perfan__stream_memo_keep: with a
 * serial, PERFAN__STREAM_KEEP words the caller keeps with that entry (0
 * until it writes them), valid until the next sample; else NULL. */
struct perfan_stream;
int perfan__stream_open_into(struct perfan_stream **out,
			     struct perfan_perfdata *pd,
			     const struct perfan_resolve_opts *opts,
			     perfan_profile *into);
const perfan_frame_id *perfan__stream_frame_ids(struct perfan_stream *s);
/* The stream's resolver context (stream_dso.c's way to its DSOs). */
struct perfan__symctx *perfan__stream_ctx(struct perfan_stream *s);
struct perfan__thread *perfan__stream_thread(struct perfan_stream *s);
uint64_t perfan__stream_memo_serial(struct perfan_stream *s);
#define PERFAN__STREAM_KEEP 2
uint64_t *perfan__stream_memo_keep(struct perfan_stream *s);

#endif
