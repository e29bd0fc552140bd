/* cli/stdin.c: standard input ('-') named by one input of a command only:
 * a stream is read once. */
#include <string.h>

#include "cli.h"

int cli_stdin_take(const char *cmd, struct cli_stdin *s, const char *name,
		   const char *path)
{
	if (!path || strcmp(path, "-"))
		return 0;
	if (s->taken_by && !strcmp(s->taken_by, name)) {
		cli_error(cmd,
			  "'-' (standard input) is given twice for %s: it can "
			  "be read only once",
			  name);
		return -1;
	}
	if (s->taken_by) {
		cli_error(cmd,
			  "'-' (standard input) is given for both %s and %s: "
			  "it can be read only once",
			  s->taken_by, name);
		return -1;
	}
	s->taken_by = name;
	return 0;
}
