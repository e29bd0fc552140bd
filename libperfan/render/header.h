/* render/header.h: what the text and JSON writers of a perf.data header
 * share: perf's names for attr bits and fields, clock ids, build-ids. */
#ifndef PERFAN_RENDER_HEADER_H
#define PERFAN_RENDER_HEADER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <perfan/perfan.h>

struct perfan__bitname {
	uint64_t bit;
	const char *name;
};

/* Lists end with {0, NULL}. */
extern const struct perfan__bitname perfan__sample_bits[],
	perfan__branch_bits[], perfan__read_bits[];

/* The one-bit (and precise_ip's two-bit) fields of the flags word. */
struct perfan__flag_field {
	const char *name;
	unsigned shift, width;
};
extern const struct perfan__flag_field perfan__flag_fields[];
extern const size_t PERFAN__NFLAGS;

/* Field I of FLAGS. */
uint64_t perfan__flag_value(uint64_t flags, size_t i);

/* perf's name of clock ID. */
const char *perfan__clockid_name(uint32_t id);

/* B's build-id in hex into OUT (41 bytes). */
void perfan__build_id_hex(char *out, const struct perfan_build_id_entry *b);

/* The two forms of perfan_header_write; PATH names the file in the
 * text. */
void perfan__header_text(FILE *fp, const perfan_perfdata *pd, const char *path,
			 int full);
void perfan__header_json(FILE *fp, const perfan_perfdata *pd);

#endif
