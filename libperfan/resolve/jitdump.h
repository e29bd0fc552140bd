/* resolve/jitdump.h: reading the jitdump files JITs write for perf
 * (/tmp/jit-PID.dump; the format of perf's util/jitdump.h): the code each
 * JIT_CODE_LOAD and JIT_CODE_MOVE put where, and when, with the unwind
 * tables (.eh_frame) of JIT_CODE_UNWINDING_INFO for the unwinder. */
#ifndef PERFAN_SYMBOLS_JITDUMP_H
#define PERFAN_SYMBOLS_JITDUMP_H

#include <stddef.h>
#include <stdint.h>

#include "resolve/perfmap.h"

#define PERFAN__JITDUMP_MAGIC 0x4A695444u /* "JiTD" */
#define PERFAN__JITDUMP_HEADER_SIZE 40
/* Timestamps are the CPU's (TSC), not a clock perf records with. */
#define PERFAN__JITDUMP_FLAGS_ARCH_TIMESTAMP 1ull

enum perfan__jit_record {
	PERFAN__JIT_CODE_LOAD = 0,
	PERFAN__JIT_CODE_MOVE = 1,
	PERFAN__JIT_CODE_DEBUG_INFO = 2,
	PERFAN__JIT_CODE_CLOSE = 3,
	PERFAN__JIT_CODE_UNWINDING_INFO = 4,
};

/* The unwind tables of one piece of code: .eh_frame then .eh_frame_hdr,
 * as the writer laid them out to sit right after the code (perf's genelf:
 * .eh_frame at the code's start + its size rounded up to 8). */
struct perfan__jitdump_unwind {
	const uint8_t *eh_frame; /* in the jitdump's arena */
	size_t eh_frame_len;
	const uint8_t *eh_frame_hdr;
	size_t eh_frame_hdr_len;
	uint64_t mapped_size;
};

struct perfan__jitdump {
	char *path;
	/* the file header */
	uint32_t version, header_size, elf_mach, pid;
	uint64_t timestamp, flags;
	int swapped; /* written in the other byte order */

	/* Code from JIT_CODE_LOAD (its code_index's name) and JIT_CODE_MOVE
	 * (the moved code's name), each from its record's timestamp on;
	 * seq is the record's order in the file. */
	struct perfan__jitmap code;
	struct perfan__jitdump_unwind *unwind; /* entry.unwind - 1 */
	size_t nunwind;

	/* what was read */
	uint64_t records, loads, moves, debug_info, unwinding_info, closes,
		unknown;
	uint64_t size;       /* of the file */
	uint64_t whole;      /* bytes up to the end of the last whole record */
	int truncated;       /* the file ends inside a record */
	const char *corrupt; /* why reading stopped early, or NULL */
	uint64_t corrupt_at; /* the offset of that record */
	uint64_t bad_unwind; /* unwinding records skipped as malformed */
};

/* Read the jitdump at PATH into *OUT (freed with perfan__jitdump_free).
 * The header must be whole and have the jitdump magic in either byte order
 * (PERFAN_EFORMAT otherwise; PERFAN_EUNSUPPORTED for a version above 1);
 * records are read as far as they are whole and sane (truncated, corrupt
 * say where and why it stopped): an empty or half-written dump gives what
 * it has. Code bytes are skipped, names and unwind tables kept. Returns 0,
 * PERFAN_ENOTFOUND (no message) when PATH cannot be opened, or another
 * negative error with the message set. */
int perfan__jitdump_open(struct perfan__jitdump **out, const char *path);

/* The same from BUF[0..LEN), named NAME in messages. */
int perfan__jitdump_parse(struct perfan__jitdump **out, const void *buf,
			  size_t len, const char *name);

void perfan__jitdump_free(struct perfan__jitdump *jd);

/* The code at ADDR at TIME (UINT64_MAX: the code loaded last), or NULL. */
const struct perfan__jitsym *
perfan__jitdump_find(const struct perfan__jitdump *jd, uint64_t addr,
		     uint64_t time);

/* The unwind tables for the code at ADDR at TIME: *EH_FRAME and *LEN the
 * .eh_frame bytes, *EH_FRAME_BASE the address they stand for in the
 * process (so that their pc-relative encodings land on the code), *HDR and
 * *HDR_LEN the .eh_frame_hdr (at *EH_FRAME_BASE + *LEN), *CODE_START and
 * *CODE_END the range they cover. Any output pointer may be NULL. 0, or
 * PERFAN_ENOTFOUND when no code with unwind tables is there. The bytes
 * live as long as JD. */
int perfan__jitdump_unwind(const struct perfan__jitdump *jd, uint64_t addr,
			   uint64_t time, const uint8_t **eh_frame, size_t *len,
			   uint64_t *eh_frame_base, const uint8_t **hdr,
			   size_t *hdr_len, uint64_t *code_start,
			   uint64_t *code_end);

#endif
