/* cli/cmd_collapse.c: perfan collapse: folded stacks (one line per distinct
 * stack, root first) from any input the library reads (perf.data, `perf
 * script` text, folded stacks), told apart by their content; a drop-in for FlameGraph's
 * stackcollapse-perf.pl, whose option names it keeps. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfan/perfan.h>

#include "args.h"
#include "cli.h"

#define CMD "collapse"

static const char usage_text[] =
	"usage: perfan collapse [options] [FILE]\n"
	"\n"
	"Fold the stacks of FILE into one line per distinct stack, frames root\n"
	"first joined by ';', then the count, sorted: the input of flame graph\n"
	"tools, as FlameGraph's stackcollapse-perf.pl writes it. FILE (default\n"
	"perf.data, '-' for standard input) may be a perf.data recording, the\n"
	"text `perf script` prints, folded stacks (merged and sorted),\n"
	"py-spy's raw output (a frame per function unless --lineno),\n"
	"speedscope JSON (a root per profile) or bpftrace's printed stack maps\n"
	"(@[kstack, ustack, comm, pid] and the like, text or -f json); which\n"
	"one is told from its content.\n"
	"\n"
	"  --pid              name the root frame comm-PID (stackcollapse-perf.pl)\n"
	"  --tid              name the root frame comm-PID/TID (stackcollapse-\n"
	"                     perf.pl)\n"
	"  --pid=PID          (perf.data) only samples and off-CPU time of\n"
	"                     process PID (a value, after '=', makes it the\n"
	"                     filter of every command)\n"
	"  --tid=TID          (perf.data) only samples and off-CPU time of\n"
	"                     thread TID (likewise)\n" CLI_FILTER_HELP_COMM_CPU_TIME
	"  --kernel           append _[k] to kernel frames\n"
	"  --jit              append _[j] to JIT frames (perf-PID.map,\n"
	"                     jitted-PID-N.so)\n"
	"  --all              both --kernel and --jit\n"
	"  --addrs            name unresolved frames with their address\n"
	"  --inline           (perf.data) add the frames inlined into others\n"
	"  --event-filter NAME, --event NAME\n" CLI_FILTER_HELP_EVENT_TEXT
		CLI_FILTER_HELP_EVENT_OTHERS
	"                     (default: the first event with samples)\n"
	"  --samples          count every sample as 1\n"
	"  --period           weigh a sample by its period (the default, as\n"
	"                     perf script prints it)\n"
	"  --compat MODE      (perf script text) flamegraph: names exactly as\n"
	"                     stackcollapse-perf.pl writes them; none (the\n"
	"                     default): only a top-level argument list is cut,\n"
	"                     mangled names are demangled, jitted-*.so is JIT\n"
	"                     and *.ko and vmlinux-VERSION kernel, as inferno\n"
	"                     reads them\n"
	"  --symfs DIR        (perf.data) look for binaries under DIR\n"
	"  --debug-dir DIR    (perf.data) look for debug files under DIR too\n"
	"  --buildid-dir DIR  (perf.data) perf's build-id cache (default\n"
	"                     ~/.debug)\n"
	"  --kallsyms FILE    (perf.data) kernel symbols from FILE\n"
	"  --perf-map-dir DIR (perf.data) JIT symbols from DIR/perf-PID.map\n"
	"                     (default /tmp)\n"
	"  --jitdump-dir DIR  (perf.data) look for jit-PID.dump in DIR first\n" CLI_THREADS_HELP
	"  --lineno           (py-spy, speedscope) a frame per line, name\n"
	"                     (file:line), not one per function\n" CLI_ARGS_PYTHON_HELP
		CLI_ARGS_TIME_HELP
	"  -o, --output FILE  write to FILE (atomically) instead of stdout\n"
	"  -h, --help         show this help\n";

struct opts {
	struct perfan_load_opts lo;
	int pid, tid;
	const char *out, *path;
};

/* The options that shape frames do nothing to folded stacks (a format
 * whose reader neither names frames nor reads records); other inputs take
 * them, or are read with what applies. */
static int opened(const struct perfan_load_info *in, void *payload)
{
	const struct perfan_load_opts *lo = payload;
	unsigned caps = in->caps;
	if (lo->time_view || !caps ||
	    (caps & (PERFAN_SOURCE_FRAMES | PERFAN_SOURCE_RECORDS)))
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

enum {
	O_PID = 256,
	O_TID,
	O_KERNEL,
	O_JIT,
	O_ALL,
	O_ADDRS,
	O_EVENT,
	O_COMPAT,
	O_PYTHON,
	O_COMM,
	O_CPU,
	O_TIME,
};
static const struct option longopts[] = {
	/* bare: stackcollapse-perf.pl's roots; =ID: the filter */
	{"pid", optional_argument, NULL, O_PID},
	{"tid", optional_argument, NULL, O_TID},
	{"comm", required_argument, NULL, O_COMM},
	{"cpu", required_argument, NULL, O_CPU},
	{"time", required_argument, NULL, O_TIME},
	{"kernel", no_argument, NULL, O_KERNEL},
	{"jit", no_argument, NULL, O_JIT},
	{"all", no_argument, NULL, O_ALL},
	{"addrs", no_argument, NULL, O_ADDRS},
	{"inline", no_argument, NULL, CLI_ARGS_O_INLINE},
	{"event-filter", required_argument, NULL, O_EVENT},
	{"event", required_argument, NULL, O_EVENT},
	{"samples", no_argument, NULL, CLI_ARGS_O_SAMPLES},
	{"period", no_argument, NULL, CLI_ARGS_O_PERIOD},
	{"symfs", required_argument, NULL, CLI_ARGS_O_SYMFS},
	{"debug-dir", required_argument, NULL, CLI_ARGS_O_DEBUG_DIR},
	{"buildid-dir", required_argument, NULL, CLI_ARGS_O_BUILDID_DIR},
	{"kallsyms", required_argument, NULL, CLI_ARGS_O_KALLSYMS},
	{"perf-map-dir", required_argument, NULL, CLI_ARGS_O_PERF_MAP_DIR},
	{"jitdump-dir", required_argument, NULL, CLI_ARGS_O_JITDUMP_DIR},
	{"python", required_argument, NULL, O_PYTHON},
	{"compat", required_argument, NULL, O_COMPAT},
	{"off-cpu", no_argument, NULL, CLI_ARGS_O_OFFCPU},
	{"wall", no_argument, NULL, CLI_ARGS_O_WALL},
	{"lineno", no_argument, NULL, CLI_ARGS_O_LINENO},
	{"threads", required_argument, NULL, CLI_ARGS_O_THREADS},
	{"output", required_argument, NULL, 'o'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

/* Collapse's own option OPT: stackcollapse-perf.pl's names for the root,
 * frame names and the event. 0, or the exit status of a usage error. */
static int option(void *payload, int opt, const char *arg)
{
	struct opts *o = payload;
	struct perfan_load_opts *lo = &o->lo;
	switch (opt) {
	case O_PID:
	case O_TID:
		if (!arg)
			*(opt == O_PID ? &o->pid : &o->tid) = 1;
		else if (cli_filter_set(&lo->filter,
					opt == O_PID ? "pid" : "tid", arg, CMD))
			return 2;
		break;
	case O_COMM:
	case O_CPU:
	case O_TIME:
		if (cli_filter_set(&lo->filter,
				   opt == O_COMM  ? "comm"
				   : opt == O_CPU ? "cpu"
						  : "time",
				   arg, CMD))
			return 2;
		break;
	case O_KERNEL: lo->kernel = 1; break;
	case O_JIT: lo->jit = 1; break;
	case O_ALL: lo->kernel = lo->jit = 1; break;
	case O_ADDRS: lo->addrs = 1; break;
	case O_EVENT: cli_filter_set(&lo->filter, "event", arg, CMD); break;
	case O_PYTHON:
		lo->python_view = perfan_python_view_parse(arg);
		if (lo->python_view < 0)
			return cli_usage_error(CMD, usage_text,
					       "--python: '%s' is none of "
					       "native, mixed, python",
					       arg);
		break;
	case O_COMPAT:
		if (!strcmp(arg, "flamegraph"))
			lo->compat = PERFAN_SCRIPT_COMPAT_FLAMEGRAPH;
		else if (!strcmp(arg, "none"))
			lo->compat = PERFAN_SCRIPT_COMPAT_NONE;
		else
			return cli_usage_error(CMD, usage_text,
					       "--compat: '%s' is neither "
					       "flamegraph nor none",
					       arg);
		break;
	case 'o': o->out = arg; break;
	case 'h': fputs(usage_text, stdout); return -1;
	default: fputs(usage_text, stderr); return 2;
	}
	return 0;
}

/* ARGV into O. -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct opts *o)
{
	/* a bad --threads: its message alone */
	int rc = cli_args_parse(argc, argv, "o:h", longopts, &o->lo, option, o,
				NULL, CMD);
	if (rc >= 0)
		return rc;
	if (optind + 1 < argc) {
		fputs(usage_text, stderr);
		return 2;
	}
	o->lo.root = o->tid   ? PERFAN_ROOT_PID_TID
		     : o->pid ? PERFAN_ROOT_PID
			      : PERFAN_ROOT_COMM;
	o->path = optind < argc ? argv[optind] : "perf.data";
	return -1;
}

/* L's column COL as folded stacks to -o; after a read that ended with
 * STATUS (-o keeps no file after an error). The exit status. */
static int write_out(const perfan_load *l, size_t col, const struct opts *o,
		     int status)
{
	struct cli_output out;
	if (cli_output_open(&out, o->out)) {
		cli_error(CMD, "cannot write %s: %s", o->out, strerror(errno));
		return 1;
	}
	struct perfan_folded_write_opts wo =
		PERFAN_OPTS_INIT(struct perfan_folded_write_opts);
	wo.column = col;
	if (perfan_load_info(l)->caps & PERFAN_SOURCE_RECORDS)
		/* the text readers name them themselves */
		wo.annotate = (o->lo.kernel ? PERFAN_FOLDED_KERNEL : 0) |
			      (o->lo.jit ? PERFAN_FOLDED_JIT : 0);
	if (perfan_folded_write(perfan_load_profile(l), out.fp, &wo)) {
		cli_error(CMD, "%s", perfan_error_last());
		status = 1;
	}
	if (cli_output_close(&out, status == 0) && !status) {
		cli_error(CMD, "cannot write %s",
			  o->out ? o->out : "standard output");
		status = 1;
	}
	return status;
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
