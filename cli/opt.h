/* cli/opt.h: a command's options as one table, as git's parse-options
 * does: each entry names an option, says where its value goes and gives
 * its --help lines; getopt_long's table and --help are made from it. */
#ifndef PERFAN_CLI_OPT_H
#define PERFAN_CLI_OPT_H

#include <stddef.h>
#include <stdio.h>

enum cli_opt_type {
	CLI_OPT_END,
	CLI_OPT_FLAG,   /* no value: the int at OFFSET becomes VALUE */
	CLI_OPT_STRING, /* the const char * at OFFSET becomes the value */
	CLI_OPT_SET,    /* SET(base + OFFSET, NAME, value): a library setter
			 * (perfan_X_opts_set); its error is perfan_error_last */
	CLI_OPT_CALL,   /* CALL(base + OFFSET, value): the command's own;
			 * returns NULL, or the error: what is wrong with
			 * the value ("is not a count"), or a message that
			 * names the option ("--pid: 'x' is not ...") */
	CLI_OPT_TABLE,  /* the entries of TABLE, their offsets from OFFSET */
	CLI_OPT_TEXT,   /* lines of --help only */
};

struct cli_opt {
	enum cli_opt_type type;
	const char *name; /* the long name */
	int short_name;   /* 0: none */
	const char *arg;  /* the value's name in --help ("FILE"); NULL: none;
			   * "=..." an optional value, after '=' */
	const char *help; /* lines with '\n' between them, the first on the
			   * option's own line unless it starts with '\n';
			   * NULL: an alias, not shown */
	size_t offset;
	int value;
	int (*set)(void *dst, const char *name, const char *value);
	const char *(*call)(void *dst, const char *value);
	const struct cli_opt *table;
};

#define CLI_OPT_(type_, name_, arg_, help_, offset_)                           \
	.type = type_, .name = name_, .arg = arg_, .help = help_,              \
	.offset = offset_
#define CLI_FLAG(name, field, help)                                            \
	{                                                                      \
		CLI_OPT_(CLI_OPT_FLAG, name, NULL, help,                       \
			 offsetof(struct opts, field)),                        \
			.value = 1                                             \
	}
#define CLI_FLAG_VALUE(name, field, value_, help)                              \
	{                                                                      \
		CLI_OPT_(CLI_OPT_FLAG, name, NULL, help,                       \
			 offsetof(struct opts, field)),                        \
			.value = value_                                        \
	}
#define CLI_STRING(name, arg, field, help)                                     \
	{                                                                      \
		CLI_OPT_(CLI_OPT_STRING, name, arg, help,                      \
			 offsetof(struct opts, field))                         \
	}
/* A library setter for the options of the struct at FIELD: SET(&FIELD,
 * NAME, value), the value NULL for an option that takes none. */
#define CLI_SET(name, arg, field, set_, help)                                  \
	CLI_SET_AT(name, arg, offsetof(struct opts, field), set_, help)
/* The same at OFFSET from the options a shared table is for. */
#define CLI_SET_AT(name, arg, offset, set_, help)                              \
	{                                                                      \
		CLI_OPT_(CLI_OPT_SET, name, arg, help, offset), .set = set_    \
	}
#define CLI_CALL(name, arg, field, call_, help)                                \
	{                                                                      \
		CLI_OPT_(CLI_OPT_CALL, name, arg, help,                        \
			 offsetof(struct opts, field)),                        \
			.call = call_                                          \
	}
#define CLI_TABLE_AT(table_, offset)                                           \
	{                                                                      \
		CLI_OPT_(CLI_OPT_TABLE, NULL, NULL, NULL, offset),             \
			.table = table_                                        \
	}
#define CLI_TABLE(table, field)                                                \
	CLI_TABLE_AT(table, offsetof(struct opts, field))
#define CLI_TEXT(help)                                                         \
	{                                                                      \
		CLI_OPT_(CLI_OPT_TEXT, NULL, NULL, help, 0)                    \
	}
/* "-o, --output FILE"; every table has "-h, --help" without saying so. */
#define CLI_OUTPUT(field)                                                      \
	{                                                                      \
		CLI_OPT_(CLI_OPT_STRING, "output", "FILE",                     \
			 "write to FILE (atomically) instead of stdout",       \
			 offsetof(struct opts, field)),                        \
			.short_name = 'o'                                      \
	}
#define CLI_END                                                                \
	{                                                                      \
		.type = CLI_OPT_END                                            \
	}

/* Parse ARGV (from optind 1, as getopt_long with "+" in front of the short
 * options when IN_ORDER, to stop at the first operand) with TABLE into
 * BASE; --help and -h print HEAD (the usage and what the command does,
 * ending in a blank line) and the options on stdout. Errors are printed
 * as "perfan CMD: --width: 'x' is not a width in pixels", then HEAD and
 * the options. Returns -1 to go on (optind at the first operand), 0 after
 * --help, 2 after a usage error, 1 out of memory. */
int cli_opt_parse(int argc, char **argv, const struct cli_opt *table,
		  void *base, const char *head, const char *cmd, int in_order);

/* The entry of TABLE the long option NAME (LEN characters, after "--")
 * names, exactly or as the one option it is a prefix of, as getopt_long
 * matches; NULL otherwise. */
const struct cli_opt *cli_opt_long(const struct cli_opt *table,
				   const char *name, size_t len);

/* HEAD and the options of TABLE, as --help prints them, on FP. */
void cli_opt_usage(FILE *fp, const struct cli_opt *table, const char *head);

/* "perfan CMD: " and FMT with ARG on stderr, then the usage of TABLE:
 * returns 2, the exit status of a usage error. */
int cli_opt_error(const char *cmd, const struct cli_opt *table,
		  const char *head, const char *fmt, const char *arg);

#endif
