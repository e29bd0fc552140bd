/* cli/args.c: the shared options of the commands that read profiles into
 * perfan_load_opts, and what the library says while it reads printed as
 * "perfan CMD: ..." (errors, warnings, notes, a progress line). */
#include "args.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"

int cli_advice(int level, const char *msg, void *payload)
{
	const char *cmd = payload;
	if (level == PERFAN_ADVICE_ERROR)
		cli_error(cmd, "%s", msg);
	else if (level == PERFAN_ADVICE_WARN)
		cli_warn(cmd, "%s", msg);
	else
		cli_note(cmd, "%s", msg);
	return 0;
}

static void on_progress(int what, const char *name, uint64_t value,
			void *payload)
{
	switch (what) {
	case PERFAN_LOAD_START: cli_progress_start(payload, name, value); break;
	case PERFAN_LOAD_READ: cli_progress_add(value, NULL); break;
	case PERFAN_LOAD_AT: cli_progress_at(value, NULL); break;
	default: cli_progress_end(); break;
	}
}

static int default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

void cli_args_init(struct perfan_load_opts *o, const char *cmd)
{
	*o = PERFAN_LOAD_OPTS_INIT;
	o->threads = default_threads();
	o->host = cli_host();
	o->log = cli_progress_log;
	o->log_payload = (void *)cmd;
	o->advice = cli_advice;
	o->advice_payload = (void *)cmd;
	o->progress = on_progress;
	o->progress_payload = (void *)cmd;
}

int cli_read_more(perfan_load *l, const char *path, const char *cmd)
{
	int rc = perfan_load_read(l, path);
	if (rc < 0)
		cli_error(cmd, "%s", perfan_error_last());
	return rc ? 1 : 0;
}

int cli_read(perfan_load **l, const char *path,
	     const struct perfan_load_opts *o, const char *cmd)
{
	if (perfan_load_new(l, o)) {
		cli_error(cmd, "%s", perfan_error_last());
		return 1;
	}
	return cli_read_more(*l, path, cmd);
}
