/* cli/cmd_collapse.c: perfan collapse: folded stacks (one line per distinct
 * stack, root first) from any input the library reads (perf.data, `perf
 * script` text, folded stacks), told apart by their content; a drop-in for FlameGraph's
 * stackcollapse-perf.pl, whose option names it keeps. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfan/perfan.h>

#include "args.h"
#include "cli.h"

#define CMD "collapse"

static const char head[] =
	"usage: perfan collapse [options] [FILE]\n"
	"\n"
	"Fold the stacks of FILE into one line per distinct stack, frames root\n"
	"first joined by ';', then the count, sorted: the input of flame graph\n"
	"tools, as FlameGraph's stackcollapse-perf.pl writes it. FILE (default\n"
	"perf.data, '-' for standard input) may be a perf.data recording, the\n"
	"text `perf script` prints, folded stacks (merged and sorted),\n"
	"py-spy's raw output (a frame per function unless --lineno),\n"
	"speedscope JSON (a root per profile) or bpftrace's printed stack maps\n"
	"(@[kstack, ustack, comm, pid] and the like, text or -f json), or a\n"
	"GPU profiler's trace (torch.profiler, Nsight Systems: each thread's\n"
	"spans by self time, event \"cpu time\"; with --event \"gpu time\" the\n"
	"kernels under the CPU stacks that launched them); which one is told\n"
	"from its content.\n"
	"\n";

struct opts {
	struct perfan_load_opts lo;
	int pid, tid;
	const char *out, *path;
};

/* The options that shape frames do nothing to folded stacks (a format
 * whose reader neither names frames nor reads records); other inputs take
 * them, or are read with what applies (a trace's threads are its roots,
 * its columns cpu time and gpu time its events). */
static int opened(const struct perfan_load_info *in, void *payload)
{
	const struct perfan_load_opts *lo = payload;
	unsigned caps = in->caps;
	if (lo->time_view || !caps ||
	    (caps & (PERFAN_SOURCE_FRAMES | PERFAN_SOURCE_RECORDS |
		     PERFAN_SOURCE_TRACE)))
		return 0; /* --off-cpu and --wall: the error says it */
	if ((lo->root != PERFAN_ROOT_COMM && !(caps & PERFAN_SOURCE_ROOTS)) ||
	    lo->kernel || lo->jit || lo->addrs || lo->inline_frames ||
	    lo->filter.event || lo->symfs || lo->debug_dir || lo->buildid_dir ||
	    lo->kallsyms || lo->perf_map_dir || lo->jitdump_dir)
		cli_warn(CMD,
			 "%s holds folded stacks: "
			 "they are merged and sorted as they are, the options "
			 "that shape frames do not apply",
			 in->name);
	return 0;
}

/* --pid and --tid: bare, stackcollapse-perf.pl's roots; =ID, the filter */
static const char *pid_tid(struct opts *o, const char *name, const char *arg)
{
	if (!arg)
		*(*name == 'p' ? &o->pid : &o->tid) = 1;
	else if (perfan_filter_set(&o->lo.filter, name, arg))
		return perfan_error_last();
	return NULL;
}

static const char *set_pid(void *o, const char *arg)
{
	return pid_tid(o, "pid", arg);
}

static const char *set_tid(void *o, const char *arg)
{
	return pid_tid(o, "tid", arg);
}

static const char *set_all(void *lo, const char *arg)
{
	(void)arg;
	((struct perfan_load_opts *)lo)->kernel = 1;
	((struct perfan_load_opts *)lo)->jit = 1;
	return NULL;
}

static const char *set_event(void *lo, const char *arg)
{
	perfan_filter_set(&((struct perfan_load_opts *)lo)->filter, "event",
			  arg);
	return NULL;
}

#define LOAD(name, arg, help) CLI_SET(name, arg, lo, cli_set_load, help)
static const struct cli_opt options[] = {
	CLI_TEXT("  --pid              name the root frame comm-PID "
		 "(stackcollapse-perf.pl)\n"
		 "  --tid              name the root frame comm-PID/TID "
		 "(stackcollapse-\n"
		 "                     perf.pl)\n"),
	{CLI_OPT_(CLI_OPT_CALL, "pid", "=PID",
		  "(perf.data) only samples and off-CPU time of\n"
		  "process PID (a value, after '=', makes it the\n"
		  "filter of every command)",
		  0),
	 .call = set_pid},
	{CLI_OPT_(CLI_OPT_CALL, "tid", "=TID",
		  "(perf.data) only samples and off-CPU time of\n"
		  "thread TID (likewise)",
		  0),
	 .call = set_tid},
	CLI_TABLE(cli_comm_cpu_time_table, lo),
	LOAD("kernel", NULL, "append _[k] to kernel frames"),
	LOAD("jit", NULL,
	     "append _[j] to JIT frames (perf-PID.map,\njitted-PID-N.so)"),
	CLI_CALL("all", NULL, lo, set_all, "both --kernel and --jit"),
	LOAD("addrs", NULL, "name unresolved frames with their address"),
	LOAD("inline", NULL, "(perf.data) add the frames inlined into others"),
	CLI_CALL("event-filter", "NAME", lo, set_event,
		 CLI_EVENT_HELP "\n(default: the first event with samples)"),
	CLI_CALL("event", "NAME", lo, set_event, "the same"),
	LOAD("samples", NULL, "count every sample as 1"),
	LOAD("period", NULL,
	     "weigh a sample by its period (the default, as\n"
	     "perf script prints it)"),
	LOAD("compat", "MODE",
	     "(perf script text) flamegraph: names exactly as\n"
	     "stackcollapse-perf.pl writes them; none (the\n"
	     "default): only a top-level argument list is cut,\n"
	     "mangled names are demangled, jitted-*.so is JIT\n"
	     "and *.ko and vmlinux-VERSION kernel, as inferno\n"
	     "reads them"),
	CLI_TABLE(cli_symbols_table, lo),
	CLI_TABLE(cli_threads_table, lo),
	LOAD("lineno", NULL,
	     "(py-spy, speedscope) a frame per line, name\n"
	     "(file:line), not one per function"),
	CLI_TABLE(cli_views_table, lo),
	CLI_OUTPUT(out),
	CLI_END,
};

/* ARGV into O. -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct opts *o)
{
	int rc = cli_opt_parse(argc, argv, options, o, head, CMD, 0);
	if (rc >= 0)
		return rc;
	if (optind + 1 < argc) {
		cli_opt_usage(stderr, options, head);
		return 2;
	}
	o->lo.root = o->tid   ? PERFAN_ROOT_PID_TID
		     : o->pid ? PERFAN_ROOT_PID
			      : PERFAN_ROOT_COMM;
	o->path = optind < argc ? argv[optind] : "perf.data";
	return -1;
}

static int write_folded(const void *l, FILE *fp, const void *wo)
{
	return perfan_folded_write(perfan_load_profile(l), fp, wo);
}

/* L's column COL as folded stacks to -o; after a read that ended with
 * STATUS (-o keeps no file after an error). The exit status. */
static int write_out(const perfan_load *l, size_t col, const struct opts *o,
		     int status)
{
	struct perfan_folded_write_opts wo =
		PERFAN_OPTS_INIT(struct perfan_folded_write_opts);
	wo.column = col;
	if (perfan_load_info(l)->caps & PERFAN_SOURCE_RECORDS)
		/* the text readers name them themselves */
		wo.annotate = (o->lo.kernel ? PERFAN_FOLDED_KERNEL : 0) |
			      (o->lo.jit ? PERFAN_FOLDED_JIT : 0);
	return cli_write(CMD, o->out, status, write_folded, l, &wo);
}

int cmd_collapse(int argc, char **argv)
{
	struct opts o = {0};
	cli_args_init(&o.lo, CMD);
	o.lo.folded_annotations = 0;                  /* names as they are */
	o.lo.quiet_advice = PERFAN_LOAD_QUIET_PYTHON; /* folded lines only */
	o.lo.opened = opened;
	o.lo.opened_payload = &o.lo;
	int status = parse(argc, argv, &o);
	if (status >= 0)
		return status;
	if (cli_output_guard(CMD, o.out, &o.path, 1))
		return 1;
	perfan_load *l;
	status = cli_read(&l, o.path, &o.lo, CMD);
	const struct perfan_load_info *in = perfan_load_info(l);
	if (!in || !in->read) {
		perfan_load_free(l);
		return 1;
	}
	if (!status && !in->script.samples && !in->script.samples_filtered &&
	    in->script.lines_unrecognized) {
		/* nothing in it was a sample: not an input we know */
		cli_error(CMD,
			  "%s: neither perf.data, perf script "
			  "text nor folded stacks (no line of it is a sample)",
			  in->name);
		status = 1;
	}
	/* what was read is written even after an error, as perf script
	 * prints the samples before a damaged record */
	status = write_out(l, perfan_load_column(l, NULL, NULL), &o, status);
	perfan_load_free(l);
	return status;
}
