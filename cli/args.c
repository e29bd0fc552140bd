/* cli/args.c: the shared options of the commands that read profiles into
 * perfan_load_opts, and what the library says while it reads printed as
 * "perfan CMD: ..." (errors, warnings, notes, a progress line). */
#include "args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int cli_parse_threads(const char *arg, int *out, const char *cmd)
{
	char *end;
	long n = strtol(arg, &end, 10);
	if (end == arg || *end || n < 1 || n > 1024) {
		fprintf(stderr,
			"perfan %s: --threads: '%s' is not a number of "
			"threads (1 to 1024)\n",
			cmd, arg);
		return -1;
	}
	*out = (int)n;
	return 0;
}

int cli_filter_set(struct perfan_filter *f, const char *name, const char *arg,
		   const char *cmd)
{
	if (perfan_filter_set(f, name, arg)) {
		cli_error(cmd, "%s", perfan_error_last());
		return -1;
	}
	return 0;
}

/* The filter an option of the shared set is, or NULL. */
static const char *filter_name(int opt)
{
	switch (opt) {
	case CLI_ARGS_O_PID: return "pid";
	case CLI_ARGS_O_TID: return "tid";
	case CLI_ARGS_O_CPU: return "cpu";
	case CLI_ARGS_O_COMM: return "comm";
	case CLI_ARGS_O_TIME: return "time";
	case CLI_ARGS_O_EVENT: return "event";
	default: return NULL;
	}
}

int cli_args_option(struct perfan_load_opts *o, int opt, const char *arg,
		    const char *cmd)
{
	const char *bad = NULL, *filter = filter_name(opt);
	if (filter)
		return cli_filter_set(&o->filter, filter, arg, cmd) ? -1 : 1;
	switch (opt) {
	case CLI_ARGS_O_SAMPLES: o->count_samples = 1; break;
	case CLI_ARGS_O_PERIOD: o->count_samples = 0; break;
	case CLI_ARGS_O_INLINE: o->inline_frames = 1; break;
	case CLI_ARGS_O_SYMFS: o->symfs = arg; break;
	case CLI_ARGS_O_DEBUG_DIR: o->debug_dir = arg; break;
	case CLI_ARGS_O_BUILDID_DIR: o->buildid_dir = arg; break;
	case CLI_ARGS_O_KALLSYMS: o->kallsyms = arg; break;
	case CLI_ARGS_O_PERF_MAP_DIR: o->perf_map_dir = arg; break;
	case CLI_ARGS_O_JITDUMP_DIR: o->jitdump_dir = arg; break;
	case CLI_ARGS_O_OFFCPU: o->time_view = PERFAN_VIEW_OFFCPU; break;
	case CLI_ARGS_O_WALL: o->time_view = PERFAN_VIEW_WALL; break;
	case CLI_ARGS_O_LINENO: o->lineno = 1; break;
	case CLI_ARGS_O_THREADS:
		if (cli_parse_threads(arg, &o->threads, cmd))
			return -1;
		break;
	case CLI_ARGS_O_PYTHON:
		o->python_view = perfan_python_view_parse(arg);
		if (o->python_view < 0)
			bad = "--python: '%s' is none of native, mixed, python";
		break;
	default: return 0;
	}
	if (bad) {
		fprintf(stderr, "perfan %s: ", cmd);
		fprintf(stderr, bad, arg);
		fputc('\n', stderr);
		return -1;
	}
	return 1;
}

int cli_args_parse(int argc, char **argv, const char *shortopts,
		   const struct option *longopts, struct perfan_load_opts *lo,
		   int (*option)(void *payload, int opt, const char *arg),
		   void *payload, const char *usage, const char *cmd)
{
	int opt;
	optind = 1;
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) !=
	       -1) {
		int shared = cli_args_option(lo, opt, optarg, cmd);
		if (shared < 0) {
			if (usage)
				fprintf(stderr, "\n%s", usage);
			return 2;
		}
		int rc = shared ? 0 : option(payload, opt, optarg);
		if (rc)
			return rc < 0 ? 0 : rc;
	}
	return -1;
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
