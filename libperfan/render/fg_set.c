/* render/fg_set.c: a flame graph's options set by name, as flamegraph.pl's
 * command line spells them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/flamegraph.h>

#include "util/optval.h"

/* "PX" or "PCT%" into the minimum width: 0 or -1. */
static int minwidth(const char *s, struct perfan_flamegraph_opts *fo)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	int none = end == s;
	int pct = *end == '%';
	if (pct)
		end++;
	if (errno || none || *end || !(v >= 0) || v > 1e9 ||
	    strpbrk(s, "xXnN") || (pct && v > 100))
		return -1;
	fo->minwidth = v;
	fo->minwidth_percent = pct;
	return 0;
}

static int bgcolors(const char *s)
{
	size_t n = strlen(s);
	int hex = n == 7 && s[0] == '#' &&
		  strspn(s + 1, "0123456789abcdefABCDEF") == 6;
	return hex || !strcmp(s, "yellow") || !strcmp(s, "blue") ||
	       !strcmp(s, "green") || !strcmp(s, "grey") || !strcmp(s, "gray");
}

/* The option NAME with a number or a choice for VALUE: what is wrong with
 * VALUE, "" when none is, or NULL when NAME is none of them. */
static const char *number_option(struct perfan_flamegraph_opts *fo,
				 const char *name, const char *value)
{
	double v;
	if (!strcmp(name, "width")) { /* more than the 10 px margins */
		if (perfan__parse_positive(value, 1e6, &v) || v <= 20)
			return "is not a width in pixels";
		fo->width = v;
		return "";
	}
	if (!strcmp(name, "height")) {
		fo->max_height = -1; /* as high as asked: not lowered to fit */
		return perfan__parse_positive(value, 1e4, &fo->frame_height)
			       ? "is not a height in pixels"
			       : "";
	}
	if (!strcmp(name, "fontsize"))
		return perfan__parse_positive(value, 1e3, &fo->fontsize)
			       ? "is not a size in pixels"
			       : "";
	if (!strcmp(name, "minwidth"))
		return minwidth(value, fo) ? "is not pixels or a percentage"
					   : "";
	if (!strcmp(name, "fit"))
		return perfan__parse_positive(value, 1e4, &fo->fit_width)
			       ? "is not a width in pixels"
			       : "";
	if (!strcmp(name, "colors")) {
		fo->palette = perfan_fg_palette_parse(value);
		return fo->palette < 0 ? "is not a palette" : "";
	}
	if (!strcmp(name, "view")) {
		fo->view = perfan_fg_view_parse(value);
		return fo->view < 0 ? "is none of both, after, before" : "";
	}
	if (!strcmp(name, "bgcolors")) {
		fo->bgcolors = value;
		return bgcolors(value) ? ""
				       : "is none of yellow, blue, green, "
					 "grey, #rrggbb";
	}
	if (!strcmp(name, "noise-floor")) {
		int bad = perfan__parse_positive(value, 100, &v);
		fo->noise_floor = v / 100;
		return bad ? "is not percentage points" : "";
	}
	if (!strcmp(name, "noise-sigmas"))
		return perfan__parse_positive(value, 100, &fo->noise_sigmas)
			       ? "is not a number"
			       : "";
	return NULL;
}

/* The text option NAME: its field in FO, or NULL. */
static const char **text_option(struct perfan_flamegraph_opts *fo,
				const char *name)
{
	static const struct {
		const char *name;
		size_t offset;
	} texts[] = {
		{"title", offsetof(struct perfan_flamegraph_opts, title)},
		{"subtitle", offsetof(struct perfan_flamegraph_opts, subtitle)},
		{"countname",
		 offsetof(struct perfan_flamegraph_opts, countname)},
		{"nametype", offsetof(struct perfan_flamegraph_opts, nametype)},
		{"notes", offsetof(struct perfan_flamegraph_opts, notes)},
		{"fonttype", offsetof(struct perfan_flamegraph_opts, fonttype)},
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (!strcmp(name, texts[i].name))
			return (const char **)((char *)fo + texts[i].offset);
	return NULL;
}

/* The option NAME with VALUE, a text, a number or a choice: what is
 * wrong with VALUE, "" when nothing is, NULL when NAME is none. */
static const char *value_option(void *opts, const char *name, const char *value)
{
	const char **text = text_option(opts, name);
	if (!text)
		return number_option(opts, name, value);
	*text = value;
	return "";
}

#define AT(field) offsetof(struct perfan_flamegraph_opts, field)

int perfan_flamegraph_opts_set(struct perfan_flamegraph_opts *fo,
			       const char *name, const char *value)
{
	static const struct perfan__opt_switch switches[] = {
		{"hash", AT(hash), 1},
		{"inverted", AT(inverted), 1},
		{"reverse", AT(reverse), 1},
		{"flamechart", AT(flamechart), 1},
		{"negate", AT(negate), 1},
		{"total", AT(color_total), 1},
		{NULL, 0, 0},
	};
	if (name && !strcmp(name, "color"))
		name = "colors"; /* flamegraph.pl takes both */
	return perfan__opts_set(__func__, fo, name, value, switches,
				value_option);
}
