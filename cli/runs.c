/* cli/runs.c: the runs of -b and -a (each taking the files after it, as a
 * shell's glob gives them), for perfan diff and perfan triage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "cli.h"
#include "runs.h"

int cli_list_add(struct cli_list *l, char *arg)
{
	for (char *s = arg; s;) {
		char *comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		if (*s) {
			if (l->n == l->cap) {
				size_t cap = l->cap ? l->cap * 2 : 8;
				char **v = realloc(l->v, cap * sizeof(*v));
				if (!v)
					return -1;
				l->v = v;
				l->cap = cap;
			}
			l->v[l->n++] = s;
		}
		s = comma ? comma + 1 : NULL;
	}
	return 0;
}

/* Where argument S of the command line goes: TO (the side a -b or -a
 * starts, VAL its file in the same argument), or REST, with the next
 * argument too when SKIP_NEXT (the value of an option). */
static void classify(char *s, const struct cli_opt *table,
		     struct cli_list *before, struct cli_list *after,
		     struct cli_list **to, char **val, int *skip_next)
{
	*to = NULL;
	*val = NULL;
	*skip_next = 0;
	if (s[1] == '-') {
		char *eq = strchr(s, '=');
		size_t len = eq ? (size_t)(eq - s - 2) : strlen(s + 2);
		const struct cli_opt *o = cli_opt_long(table, s + 2, len);
		if (o && (o->short_name == 'b' || o->short_name == 'a')) {
			*to = o->short_name == 'b' ? before : after;
			*val = eq ? eq + 1 : NULL;
		} else
			*skip_next = o && o->arg && o->arg[0] != '=' && !eq;
	} else if (s[1] == 'b' || s[1] == 'a') {
		*to = s[1] == 'b' ? before : after;
		*val = s[2] ? s + 2 : NULL;
	} else {
		/* a cluster of short options: -o takes the rest of it, or the
		 * next argument */
		char *o = strchr(s + 1, 'o');
		*skip_next = o && !o[1];
	}
}

/* Take the runs of -b and -a out of ARGV: each takes the files after it up
 * to the next option, as a shell's glob or braces give them (getopt would
 * take only the first); --before=FILE and -bFILE too, and commas. The
 * rest, in order, goes to REST (argc + 1 slots) for getopt_long; options
 * that take an argument keep it, so that "--title -b" stays a title.
 * Returns 0, 2 after a usage error, 1 out of memory. */
int cli_list_stdin(const char *cmd, struct cli_stdin *s, const char *name,
		   const struct cli_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (cli_stdin_take(cmd, s, name, l->v[i]))
			return -1;
	return 0;
}

int cli_take_runs(const char *cmd, const char *head, int argc, char **argv,
		  const struct cli_opt *table, struct cli_list *before,
		  struct cli_list *after, char **rest, int *nrest)
{
	struct cli_list *side = NULL;
	const char *opt = NULL; /* the -b or -a collecting, for errors */
	size_t got = 0;
	int n = 0;
	rest[n++] = argv[0];
	for (int i = 1; i <= argc; i++) {
		char *s = i < argc ? argv[i] : NULL;
		int is_opt = !s || (s[0] == '-' && s[1]);
		if (is_opt && opt && !got)
			return cli_opt_error(cmd, table, head,
					     "%s: no file after it (-b FILE... "
					     "-a FILE...)",
					     opt);
		if (!s)
			break;
		if (!is_opt) {
			if (side && cli_list_add(side, s))
				return 1;
			if (side)
				got++;
			else
				rest[n++] = s;
			continue;
		}
		side = NULL;
		opt = NULL;
		if (!strcmp(s, "--")) {
			while (i < argc)
				rest[n++] = argv[i++];
			break;
		}
		struct cli_list *to;
		char *val;
		int skip_next;
		classify(s, table, before, after, &to, &val, &skip_next);
		if (!to) {
			rest[n++] = s;
			if (skip_next && i + 1 < argc)
				rest[n++] = argv[++i];
			continue;
		}
		side = to;
		opt = s;
		size_t before_n = to->n;
		if (val && cli_list_add(to, val))
			return 1;
		got = to->n - before_n;
	}
	*nrest = n;
	return 0;
}

int cli_with_runs(const char *cmd, const char *head, int argc, char **argv,
		  const struct cli_opt *table,
		  int (*run)(int argc, char **argv, struct cli_list *before,
			     struct cli_list *after))
{
	struct cli_list before = {0}, after = {0};
	int nrest = 0, status;
	char **rest = calloc((size_t)argc + 1, sizeof(*rest));
	if (!rest) {
		cli_error(cmd, "out of memory");
		return 1;
	}
	status = cli_take_runs(cmd, head, argc, argv, table, &before, &after,
			       rest, &nrest);
	if (status == 1)
		cli_error(cmd, "out of memory");
	if (!status)
		status = run(nrest, rest, &before, &after);
	free(rest);
	free(before.v);
	free(after.v);
	return status;
}
