/* resolve/perfmap.h: names for JIT code. A code map (struct perfan__jitmap)
 * holds named address ranges, each with the time it appeared, indexed for
 * "which code was at this address at this time"; perf maps
 * (/tmp/perf-PID.map, perfmap.c) and jitdumps (jitdump.c) fill one. */
#ifndef PERFAN_SYMBOLS_PERFMAP_H
#define PERFAN_SYMBOLS_PERFMAP_H

#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"

/* One piece of JIT code. */
struct perfan__jitsym {
	uint64_t start, end; /* end exclusive; a size 0 entry covers start */
	uint64_t time;       /* when it appeared (jitdump); 0 in a perf map */
	const char *name;
	uint32_t seq;    /* its place in the file: of two entries that cover
			    an address at the same time, the later wins */
	uint32_t unwind; /* jitdump: its unwind tables' index + 1, or 0 */
};

struct perfan__jitmap {
	struct perfan__jitsym *v; /* by start once indexed */
	uint64_t *maxend;         /* per entry: the largest end below it in the
			     implicit search tree over v */
	size_t n, cap;
	/* For the resolver: per entry, its interned frame id + 1 (0: not
	 * yet), allocated by perfan__jitmap_index. */
	uint32_t *frame;
	const char *module;         /* the file's base name, for frames */
	struct perfan__arena arena; /* names, module */
	int indexed;
};

/* Names longer than this are cut (a perf map line longer than
 * PERFAN__PERFMAP_MAX_LINE is skipped as malformed). */
#define PERFAN__JITSYM_MAX_NAME 4096
#define PERFAN__PERFMAP_MAX_LINE (PERFAN__JITSYM_MAX_NAME + 64)

/* Add [START, START + SIZE) named NAME[0..LEN) (cut at a NUL), appeared
 * at TIME. Its seq is the number of entries added before it. Returns 0 or
 * PERFAN_ENOMEM. */
int perfan__jitmap_add(struct perfan__jitmap *m, uint64_t start, uint64_t size,
		       uint64_t time, const char *name, size_t len,
		       uint32_t unwind);
/* Sort and index the entries for perfan__jitmap_find (once all are
 * added; adding more needs another call). 0 or PERFAN_ENOMEM. */
int perfan__jitmap_index(struct perfan__jitmap *m);
/* The entry naming ADDR at TIME: of those covering ADDR that appeared at or
 * before TIME, the one that appeared last (then the later in the file).
 * TIME UINT64_MAX: the last of all. NULL when none does. */
const struct perfan__jitsym *perfan__jitmap_find(const struct perfan__jitmap *m,
						 uint64_t addr, uint64_t time);
void perfan__jitmap_free(struct perfan__jitmap *m);

/* ---- perf maps ------------------------------------------------------------ */

struct perfan__perfmap_stats {
	uint64_t lines;          /* lines read (blank ones included) */
	uint64_t symbols;        /* entries added */
	uint64_t bad_lines;      /* malformed lines, skipped */
	uint64_t first_bad_line; /* its number (from 1), 0 when none */
};

/* Add the entries of perf map text BUF[0..LEN) to M: lines
 * "START SIZE NAME", START and SIZE in hex (an optional 0x is accepted,
 * perf itself takes none), separated by blanks, NAME the rest of the line
 * ('\r' before the newline dropped). Blank lines are ignored; any other
 * line that does not parse is counted in STATS and skipped. Entries are
 * added in file order (seq), so where two overlap the later line names the
 * address. M still needs perfan__jitmap_index. 0 or PERFAN_ENOMEM. */
int perfan__perfmap_parse(struct perfan__jitmap *m, const char *buf, size_t len,
			  struct perfan__perfmap_stats *stats);

/* The same from the file PATH, read in blocks (memory grows with the
 * entries, never with a line's length), and indexed; M's module is PATH's
 * base name. PERFAN_ENOTFOUND (no message) when PATH cannot be opened,
 * PERFAN_EIO on a read error, PERFAN_ENOMEM. */
int perfan__perfmap_load(struct perfan__jitmap *m, const char *path,
			 struct perfan__perfmap_stats *stats);

#endif
