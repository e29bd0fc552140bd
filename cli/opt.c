/* cli/opt.c: the option table of a command through getopt_long, and its
 * --help lines. */
#include "opt.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#define HELP_COLUMN 21 /* where the help of an option starts */

/* One entry of a table, nested tables flattened: where its value goes. */
struct flat {
	const struct cli_opt *opt;
	size_t offset;
};

static size_t flatten(const struct cli_opt *t, size_t base, struct flat *out,
		      size_t n)
{
	for (; t->type != CLI_OPT_END; t++) {
		if (t->type == CLI_OPT_TABLE)
			n = flatten(t->table, base + t->offset, out, n);
		else if (t->type != CLI_OPT_TEXT) {
			if (out)
				out[n] = (struct flat){t, base + t->offset};
			n++;
		}
	}
	return n;
}

/* LINES indented to the help column, the first after what is printed. */
static void help_lines(FILE *fp, const char *lines, int at)
{
	if (*lines == '\n') {
		lines++;
		at = HELP_COLUMN;
	}
	for (;;) {
		const char *nl = strchr(lines, '\n');
		int len = nl ? (int)(nl - lines) : (int)strlen(lines);
		if (at >= HELP_COLUMN) { /* no room for a space before it */
			fputc('\n', fp);
			at = 0;
		}
		fprintf(fp, "%*s%.*s\n", HELP_COLUMN - at, "", len, lines);
		if (!nl)
			return;
		lines = nl + 1;
		at = 0;
	}
}

static void usage_lines(FILE *fp, const struct cli_opt *t)
{
	for (; t->type != CLI_OPT_END; t++) {
		if (t->type == CLI_OPT_TABLE) {
			usage_lines(fp, t->table);
			continue;
		}
		if (!t->help)
			continue;
		if (t->type == CLI_OPT_TEXT) {
			fputs(t->help, fp);
			continue;
		}
		int at = t->short_name ? fprintf(fp, "  -%c, --%s",
						 t->short_name, t->name)
				       : fprintf(fp, "  --%s", t->name);
		if (t->arg) /* "=PID": an optional value */
			at += fprintf(fp, t->arg[0] == '=' ? "%s" : " %s",
				      t->arg);
		help_lines(fp, t->help, at);
	}
}

void cli_opt_usage(FILE *fp, const struct cli_opt *table, const char *head)
{
	fputs(head, fp);
	usage_lines(fp, table);
	fputs("  -h, --help         show this help\n", fp);
}

int cli_opt_error(const char *cmd, const struct cli_opt *table,
		  const char *head, const char *fmt, const char *arg)
{
	fprintf(stderr, "perfan %s: ", cmd);
	fprintf(stderr, fmt, arg);
	fputs("\n\n", stderr);
	cli_opt_usage(stderr, table, head);
	return 2;
}

/* The value ARG into the option F of BASE: NULL, or why not. */
static const char *take(const struct flat *f, void *base, const char *arg)
{
	char *dst = (char *)base + f->offset;
	switch (f->opt->type) {
	case CLI_OPT_FLAG: *(int *)dst = f->opt->value; return NULL;
	case CLI_OPT_STRING: *(const char **)dst = arg; return NULL;
	case CLI_OPT_SET:
		return f->opt->set(dst, f->opt->name, arg) ? perfan_error_last()
							   : NULL;
	default: return f->opt->call(dst, arg);
	}
}

static const struct cli_opt *find_long(const struct cli_opt *t,
				       const char *name, size_t len,
				       const struct cli_opt **found, int *many)
{
	for (; t->type != CLI_OPT_END; t++) {
		if (t->type == CLI_OPT_TABLE) {
			const struct cli_opt *o =
				find_long(t->table, name, len, found, many);
			if (o)
				return o;
		} else if (t->name && !strncmp(t->name, name, len)) {
			if (strlen(t->name) == len)
				return t;
			*many += *found != NULL;
			*found = t;
		}
	}
	return NULL;
}

const struct cli_opt *cli_opt_long(const struct cli_opt *table,
				   const char *name, size_t len)
{
	const struct cli_opt *found = NULL;
	int many = 0;
	const struct cli_opt *exact =
		find_long(table, name, len, &found, &many);
	if (!exact && !strncmp("help", name, len))
		return NULL; /* --help, or ambiguous with it */
	return exact ? exact : many ? NULL : found;
}

/* getopt_long's tables for the N entries of FLAT: option I has the value
 * 256 + I, or its short name. */
static void getopt_tables(const struct flat *flat, size_t n,
			  struct option *longopts, char *shortopts,
			  int in_order)
{
	char *s = shortopts;
	if (in_order)
		*s++ = '+';
	for (size_t i = 0; i < n; i++) {
		const struct cli_opt *o = flat[i].opt;
		int val = o->short_name ? o->short_name : 256 + (int)i;
		int has_arg = !o->arg            ? no_argument
			      : o->arg[0] == '=' ? optional_argument
						 : required_argument;
		longopts[i] = (struct option){o->name, has_arg, NULL, val};
		if (o->short_name) {
			*s++ = (char)o->short_name;
			if (o->arg)
				*s++ = ':';
		}
	}
	longopts[n] = (struct option){"help", no_argument, NULL, 'h'};
	longopts[n + 1] = (struct option){NULL, 0, NULL, 0};
	strcpy(s, "h");
}

/* The entry getopt_long returned VAL for, or NULL. */
static const struct flat *entry(const struct flat *flat, size_t n, int val)
{
	if (val >= 256 && (size_t)(val - 256) < n)
		return &flat[val - 256];
	for (size_t i = 0; i < n; i++)
		if (val && flat[i].opt->short_name == val)
			return &flat[i];
	return NULL;
}

int cli_opt_parse(int argc, char **argv, const struct cli_opt *table,
		  void *base, const char *head, const char *cmd, int in_order)
{
	size_t n = flatten(table, 0, NULL, 0);
	struct flat *flat = calloc(n + 1, sizeof(*flat));
	struct option *longopts = calloc(n + 2, sizeof(*longopts));
	char *shortopts = calloc(2 * n + 3, 1);
	int status = -1;
	if (!flat || !longopts || !shortopts) {
		fprintf(stderr, "perfan %s: out of memory\n", cmd);
		status = 1;
	} else {
		flatten(table, 0, flat, 0);
		getopt_tables(flat, n, longopts, shortopts, in_order);
	}
	optind = 1;
	int opt;
	while (status < 0 && (opt = getopt_long(argc, argv, shortopts, longopts,
						NULL)) != -1) {
		const struct flat *f = entry(flat, n, opt);
		const char *bad = NULL;
		if (opt == 'h' && !f) {
			cli_opt_usage(stdout, table, head);
			status = 0;
		} else if (!f) {
			cli_opt_usage(stderr, table, head);
			status = 2;
		} else if ((bad = take(f, base, optarg)) != NULL) {
			if (strncmp(bad, "--", 2)) /* a CALL's "is not..." */
				fprintf(stderr, "perfan %s: --%s: '%s' %s\n\n",
					cmd, f->opt->name, optarg, bad);
			else
				fprintf(stderr, "perfan %s: %s\n\n", cmd, bad);
			cli_opt_usage(stderr, table, head);
			status = 2;
		}
	}
	free(flat);
	free(longopts);
	free(shortopts);
	return status;
}
