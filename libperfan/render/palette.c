/* render/palette.c: frame colours: by frame kind (the default, with a
 * legend), flamegraph.pl's named palettes, and differential red and blue.
 * A colour depends only on the name, so graphs are reproducible and a
 * function keeps its colour across graphs. Off-CPU leaves are blue and
 * grey by their state (struct perfan_frame's state) in the kind and
 * language palettes, darker and greyer than the kernel's light blue. */
#include <math.h>
#include <string.h>

#include <perfan/offcpu.h>

#include "render/internal.h"
#include "util/names.h"

static const char *const palette_names[] = {
	[PERFAN_FG_KIND] = "kind",     [PERFAN_FG_HOT] = "hot",
	[PERFAN_FG_MEM] = "mem",       [PERFAN_FG_IO] = "io",
	[PERFAN_FG_WAKEUP] = "wakeup", [PERFAN_FG_JAVA] = "java",
	[PERFAN_FG_JS] = "js",         [PERFAN_FG_PERL] = "perl",
	[PERFAN_FG_PYTHON] = "python", [PERFAN_FG_RED] = "red",
	[PERFAN_FG_GREEN] = "green",   [PERFAN_FG_BLUE] = "blue",
	[PERFAN_FG_AQUA] = "aqua",     [PERFAN_FG_YELLOW] = "yellow",
	[PERFAN_FG_PURPLE] = "purple", [PERFAN_FG_ORANGE] = "orange",
};

int perfan_fg_view_parse(const char *name)
{
	static const char *const names[] = {"both", "after", "before"};
	return perfan__name_index(names, sizeof(names) / sizeof(*names), name);
}

int perfan_fg_palette_parse(const char *name)
{
	return perfan__name_index(
		palette_names, sizeof(palette_names) / sizeof(*palette_names),
		name);
}

/* Three numbers in [0, 1) that vary with the name. */
struct vec {
	double v1, v2, v3;
};

static struct vec full_hash(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (const unsigned char *s = (const unsigned char *)name; *s; s++)
		h = (h ^ *s) * 0x100000001b3ull;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (struct vec){(double)(h & 0xffff) / 65536.0,
			    (double)((h >> 16) & 0xffff) / 65536.0,
			    (double)((h >> 32) & 0xffff) / 65536.0};
}

/* flamegraph.pl's --hash idea: the first characters weigh most, so names
 * that start alike get alike colours. FROM_END reads the name backwards. */
static double lead_hash(const char *name, int from_end)
{
	size_t n = strlen(name);
	double v = 0, max = 1, weight = 1;
	unsigned mod = 10;
	for (size_t i = 0; i < n && i < 3; i++) {
		unsigned char c = (unsigned char)name[from_end ? n - 1 - i : i];
		v += (double)(c % mod) / (double)(mod - 1) * weight;
		max += weight;
		mod++;
		weight *= 0.7;
	}
	return 1 - v / max;
}

static struct vec name_vec(const char *name, int hash)
{
	if (!hash)
		return full_hash(name);
	double a = lead_hash(name, 0), b = lead_hash(name, 1);
	return (struct vec){a, b, b};
}

static uint8_t ch(double base, double span, double v)
{
	double x = base + span * v;
	return (uint8_t)(x < 0 ? 0 : x > 255 ? 255 : x);
}

/* The plain palettes, one colour range each. */
static struct perfan__rgb plain(int palette, struct vec v)
{
	switch (palette) {
	case PERFAN_FG_MEM:
		return (struct perfan__rgb){0, ch(190, 50, v.v2),
					    ch(0, 210, v.v1)};
	case PERFAN_FG_IO: {
		uint8_t r = ch(80, 60, v.v1);
		return (struct perfan__rgb){r, r, ch(190, 55, v.v2)};
	}
	case PERFAN_FG_RED: {
		uint8_t g = ch(50, 80, v.v1);
		return (struct perfan__rgb){ch(200, 55, v.v1), g, g};
	}
	case PERFAN_FG_GREEN: {
		uint8_t r = ch(50, 60, v.v1);
		return (struct perfan__rgb){r, ch(200, 55, v.v1), r};
	}
	case PERFAN_FG_BLUE: {
		uint8_t r = ch(80, 60, v.v1);
		return (struct perfan__rgb){r, r, ch(205, 50, v.v1)};
	}
	case PERFAN_FG_YELLOW: {
		uint8_t r = ch(175, 55, v.v1);
		return (struct perfan__rgb){r, r, ch(50, 20, v.v1)};
	}
	case PERFAN_FG_PURPLE: {
		uint8_t r = ch(190, 65, v.v1);
		return (struct perfan__rgb){r, ch(80, 60, v.v1), r};
	}
	case PERFAN_FG_WAKEUP:
	case PERFAN_FG_AQUA: {
		uint8_t g = ch(165, 55, v.v1);
		return (struct perfan__rgb){ch(50, 60, v.v1), g, g};
	}
	case PERFAN_FG_ORANGE:
		return (struct perfan__rgb){ch(190, 65, v.v1), ch(90, 65, v.v1),
					    0};
	case PERFAN_FG_HOT:
	default:
		return (struct perfan__rgb){ch(205, 50, v.v3), ch(0, 230, v.v1),
					    ch(0, 55, v.v2)};
	}
}

/* The default: what a frame is decides the hue. */
static struct perfan__rgb by_kind(uint32_t kind, struct vec v)
{
	switch (kind) {
	case PERFAN_FRAME_KERNEL:
		return (struct perfan__rgb){ch(90, 50, v.v1), ch(130, 50, v.v1),
					    ch(210, 45, v.v2)};
	case PERFAN_FRAME_PYTHON:
		return (struct perfan__rgb){ch(40, 60, v.v1), ch(180, 60, v.v2),
					    ch(40, 60, v.v1)};
	case PERFAN_FRAME_JIT: {
		uint8_t g = ch(190, 50, v.v1);
		return (struct perfan__rgb){ch(50, 60, v.v1), g, g};
	}
	case PERFAN_FRAME_INLINED:
		return (struct perfan__rgb){ch(230, 25, v.v1),
					    ch(220, 25, v.v2),
					    ch(120, 50, v.v3)};
	case PERFAN_FRAME_PROCESS: {
		uint8_t g = ch(180, 30, v.v1);
		return (struct perfan__rgb){g, g, g};
	}
	case PERFAN_FRAME_UNKNOWN: {
		uint8_t g = ch(210, 25, v.v1);
		return (struct perfan__rgb){g, g, g};
	}
	default: return plain(PERFAN_FG_HOT, v);
	}
}

/* The language palettes: flamegraph.pl's hues for kernel (orange), JIT and
 * the language's own code (green), inlined (aqua), C++ (yellow), the rest
 * (red). */
static struct perfan__rgb by_language(int palette, const char *name,
				      uint32_t kind, struct vec v)
{
	int type = PERFAN_FG_RED;
	if (kind == PERFAN_FRAME_KERNEL)
		type = PERFAN_FG_ORANGE;
	else if (kind == PERFAN_FRAME_INLINED)
		type = PERFAN_FG_AQUA;
	else if (kind == PERFAN_FRAME_JIT || kind == PERFAN_FRAME_PYTHON)
		type = PERFAN_FG_GREEN;
	else if (palette == PERFAN_FG_JAVA) {
		if (strchr(name, '/') || (strchr(name, '.') && name[0] != '[' &&
					  !strstr(name, ".so")))
			type = PERFAN_FG_GREEN;
		else if (strstr(name, "::"))
			type = PERFAN_FG_YELLOW;
	} else if (palette == PERFAN_FG_JS) {
		if (strstr(name, ".js") || strchr(name, '/'))
			type = PERFAN_FG_GREEN;
		else if (strchr(name, ':'))
			type = PERFAN_FG_AQUA;
	} else if (palette == PERFAN_FG_PERL) {
		if (strstr(name, ".pl") || strstr(name, "Perl"))
			type = PERFAN_FG_GREEN;
		else if (strstr(name, "::"))
			type = PERFAN_FG_YELLOW;
	} else if (palette == PERFAN_FG_PYTHON) {
		if (strstr(name, ".py") || strstr(name, "<module>") ||
		    !strncmp(name, "py::", 4))
			type = PERFAN_FG_GREEN;
	}
	return plain(type, v);
}

int perfan__fg_leaf_key(const struct perfan_frame *f)
{
	/* (a sleep in S, a disk wait in D: the state's own swatch) */
	const char *w = perfan_wait_class_name(f->wait),
		   *s = perfan_offcpu_state_name(f->state);
	if (w && !(s && !strcmp(w, s)))
		return PERFAN__FG_WAIT_KEY + (int)f->wait;
	return f->state < PERFAN_OFFCPU_NR_STATES ? (int)f->state : -1;
}

const char *perfan__fg_leaf_label(int key)
{
	return key >= PERFAN__FG_WAIT_KEY
		       ? perfan_wait_class_name(
				 (uint32_t)(key - PERFAN__FG_WAIT_KEY))
		       : perfan_offcpu_state_name((uint32_t)key);
}

/* The colour of a wait of class WAIT: warm for the waits a program makes
 * for itself (the GIL, locks), cool for waiting on the world. */
static struct perfan__rgb wait_color(int wait)
{
	switch (wait) {
	case PERFAN_WAIT_GIL: return (struct perfan__rgb){205, 120, 95};
	case PERFAN_WAIT_GIL_HANDOFF:
		return (struct perfan__rgb){215, 160, 130};
	case PERFAN_WAIT_STW: return (struct perfan__rgb){190, 100, 120};
	case PERFAN_WAIT_LOCK: return (struct perfan__rgb){200, 90, 150};
	case PERFAN_WAIT_IDLE: return (struct perfan__rgb){175, 200, 175};
	case PERFAN_WAIT_IO: return (struct perfan__rgb){90, 150, 190};
	case PERFAN_WAIT_SLEEP: return (struct perfan__rgb){100, 115, 160};
	case PERFAN_WAIT_GPU: return (struct perfan__rgb){118, 185, 0};
	case PERFAN_WAIT_DISK: return (struct perfan__rgb){140, 110, 170};
	default: return (struct perfan__rgb){160, 165, 180};
	}
}

struct perfan__rgb perfan__fg_offcpu_color(int state)
{
	if (state >= PERFAN__FG_WAIT_KEY)
		return wait_color(state - PERFAN__FG_WAIT_KEY);
	switch (state) {
	case PERFAN_OFFCPU_SLEEP: return (struct perfan__rgb){100, 115, 160};
	case PERFAN_OFFCPU_DISK: return (struct perfan__rgb){140, 110, 170};
	case PERFAN_OFFCPU_BLOCKED: return (struct perfan__rgb){110, 145, 160};
	case PERFAN_OFFCPU_RUNQ: return (struct perfan__rgb){155, 155, 155};
	case PERFAN_OFFCPU_WAKEUP_DELAY:
		return (struct perfan__rgb){180, 182, 200};
	case PERFAN_OFFCPU_UNSEEN: return (struct perfan__rgb){205, 205, 215};
	default: return (struct perfan__rgb){160, 165, 180};
	}
}

struct perfan__rgb perfan__fg_color(int palette, int hash, const char *name,
				    uint32_t kind, uint32_t state)
{
	struct vec v = name_vec(name, hash);
	if (kind == PERFAN_FRAME_OFFCPU &&
	    (palette == PERFAN_FG_KIND || palette == PERFAN_FG_JAVA ||
	     palette == PERFAN_FG_JS || palette == PERFAN_FG_PERL ||
	     palette == PERFAN_FG_PYTHON))
		return perfan__fg_offcpu_color(
			state < PERFAN__FG_LEAF_KEYS ? (int)state : -1);
	switch (palette) {
	case PERFAN_FG_KIND: return by_kind(kind, v);
	case PERFAN_FG_JAVA:
	case PERFAN_FG_JS:
	case PERFAN_FG_PERL:
	case PERFAN_FG_PYTHON: return by_language(palette, name, kind, v);
	default: return plain(palette, v);
	}
}

struct perfan__rgb perfan__fg_diff_color(double delta, double maxdelta,
					 int negate)
{
	if (delta == 0 || !(maxdelta > 0))
		return (struct perfan__rgb){250, 250, 250};
	double ratio = (delta < 0 ? -delta : delta) / maxdelta;
	if (ratio > 1)
		ratio = 1;
	/* the square root: a change a tenth of the largest still shows
	 * plainly (two thirds of the way to white, not nine tenths) */
	uint8_t fade = (uint8_t)(210.0 * (1.0 - sqrt(ratio)) + 0.5);
	int red = (delta > 0) != (negate != 0);
	return red ? (struct perfan__rgb){255, fade, fade}
		   : (struct perfan__rgb){fade, fade, 255};
}

const char *perfan__fg_kind_label(uint32_t kind)
{
	switch (kind) {
	case PERFAN_FRAME_NATIVE: return "native";
	case PERFAN_FRAME_KERNEL: return "kernel";
	case PERFAN_FRAME_PYTHON: return "Python";
	case PERFAN_FRAME_JIT: return "JIT";
	case PERFAN_FRAME_INLINED: return "inlined";
	case PERFAN_FRAME_PROCESS: return "process";
	case PERFAN_FRAME_UNKNOWN: return "unknown";
	default: return NULL;
	}
}
