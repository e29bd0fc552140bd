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

#include "cli.h"
#include "load.h"

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
	"                     (file:line), not one per function\n" CLI_LOAD_PYTHON_HELP
		CLI_LOAD_TIME_HELP
	"  -o, --output FILE  write to FILE (atomically) instead of stdout\n"
	"  -h, --help         show this help\n";

struct opts {
	int pid, tid, kernel, jit, addrs, inline_frames, samples, compat;
	struct perfan_filter filter; /* --pid=PID, --tid=TID, --comm, ... */
	const char *symfs, *debug_dir, *buildid_dir, *kallsyms, *out;
	const char *perf_map_dir, *jitdump_dir;
	int python_view; /* -1: python when there are Python frames */
	int time_view;   /* enum perfan_time_view, 0: samples */
	int lineno;      /* py-spy: a frame per line */
	int threads;     /* perf.data: --threads, 0: the default */
};

static void on_log(enum perfan_log_level level, const char *msg, void *payload)
{
	(void)payload;
	if (level <= PERFAN_LOG_WARN)
		cli_warn(CMD, "%s", msg);
}

static unsigned annotations(const struct opts *o)
{
	return (o->kernel ? PERFAN_FOLDED_KERNEL : 0) |
	       (o->jit ? PERFAN_FOLDED_JIT : 0);
}

/* The options that shape frames do nothing to folded stacks (a format
 * whose reader neither names frames nor reads records); other inputs take
 * them, or are read with what applies. */
static void warn_options(const struct cli_load_opts *lo, unsigned caps,
			 const char *name, const char *cmd)
{
	(void)cmd;
	if (lo->time_view || !caps ||
	    (caps & (PERFAN_SOURCE_FRAMES | PERFAN_SOURCE_RECORDS)))
		return; /* --off-cpu and --wall: the error says it */
	if ((lo->root != PERFAN_ROOT_COMM && !(caps & PERFAN_SOURCE_ROOTS)) ||
	    lo->kernel || lo->jit || lo->addrs || lo->inline_frames ||
	    lo->filter.event || lo->symfs || lo->debug_dir || lo->buildid_dir ||
	    lo->kallsyms || lo->perf_map_dir || lo->jitdump_dir)
		cli_warn(CMD,
			 "%s holds folded stacks: "
			 "they are merged and sorted as they are, the options "
			 "that shape frames do not apply",
			 name);
}

/* The shared loader's options, with collapse's own names for the root and
 * its --kernel, --jit, --addrs and --compat. */
static void load_opts(struct cli_load_opts *lo, const struct opts *o)
{
	cli_load_init(lo);
	lo->symfs = o->symfs;
	lo->debug_dir = o->debug_dir;
	lo->buildid_dir = o->buildid_dir;
	lo->kallsyms = o->kallsyms;
	lo->perf_map_dir = o->perf_map_dir;
	lo->jitdump_dir = o->jitdump_dir;
	lo->inline_frames = o->inline_frames;
	lo->samples = o->samples;
	lo->filter = o->filter;
	lo->root = o->tid   ? PERFAN_ROOT_PID_TID
		   : o->pid ? PERFAN_ROOT_PID
			    : PERFAN_ROOT_COMM;
	lo->kernel = o->kernel;
	lo->jit = o->jit;
	lo->addrs = o->addrs;
	lo->compat = o->compat;
	lo->time_view = o->time_view;
	lo->lineno = o->lineno;
	if (o->threads)
		lo->threads = o->threads;
	lo->folded_annotations = 0; /* names as they are */
	lo->log = on_log;
	lo->warn_options = warn_options;
}

/* ---- the command ------------------------------------------------------------ */

int cmd_collapse(int argc, char **argv)
{
	enum {
		O_PID = 256,
		O_TID,
		O_KERNEL,
		O_JIT,
		O_ALL,
		O_ADDRS,
		O_INLINE,
		O_EVENT,
		O_SAMPLES,
		O_PERIOD,
		O_SYMFS,
		O_DEBUG_DIR,
		O_BUILDID_DIR,
		O_KALLSYMS,
		O_PERF_MAP_DIR,
		O_JITDUMP_DIR,
		O_PYTHON,
		O_COMPAT,
		O_OFFCPU,
		O_WALL,
		O_LINENO,
		O_THREADS,
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
		{"inline", no_argument, NULL, O_INLINE},
		{"event-filter", required_argument, NULL, O_EVENT},
		{"event", required_argument, NULL, O_EVENT},
		{"samples", no_argument, NULL, O_SAMPLES},
		{"period", no_argument, NULL, O_PERIOD},
		{"symfs", required_argument, NULL, O_SYMFS},
		{"debug-dir", required_argument, NULL, O_DEBUG_DIR},
		{"buildid-dir", required_argument, NULL, O_BUILDID_DIR},
		{"kallsyms", required_argument, NULL, O_KALLSYMS},
		{"perf-map-dir", required_argument, NULL, O_PERF_MAP_DIR},
		{"jitdump-dir", required_argument, NULL, O_JITDUMP_DIR},
		{"python", required_argument, NULL, O_PYTHON},
		{"compat", required_argument, NULL, O_COMPAT},
		{"off-cpu", no_argument, NULL, O_OFFCPU},
		{"wall", no_argument, NULL, O_WALL},
		{"lineno", no_argument, NULL, O_LINENO},
		{"threads", required_argument, NULL, O_THREADS},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct opts o;
	memset(&o, 0, sizeof(o));
	o.filter = PERFAN_FILTER_INIT;
	o.python_view = -1;
	int opt;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case O_PID:
		case O_TID:
			if (!optarg)
				*(opt == O_PID ? &o.pid : &o.tid) = 1;
			else if (cli_filter_set(&o.filter,
						opt == O_PID ? "pid" : "tid",
						optarg, CMD))
				return 2;
			break;
		case O_COMM:
		case O_CPU:
		case O_TIME:
			if (cli_filter_set(&o.filter,
					   opt == O_COMM  ? "comm"
					   : opt == O_CPU ? "cpu"
							  : "time",
					   optarg, CMD))
				return 2;
			break;
		case O_KERNEL: o.kernel = 1; break;
		case O_JIT: o.jit = 1; break;
		case O_ALL: o.kernel = o.jit = 1; break;
		case O_ADDRS: o.addrs = 1; break;
		case O_INLINE: o.inline_frames = 1; break;
		case O_EVENT:
			cli_filter_set(&o.filter, "event", optarg, CMD);
			break;
		case O_SAMPLES: o.samples = 1; break;
		case O_PERIOD: o.samples = 0; break;
		case O_SYMFS: o.symfs = optarg; break;
		case O_DEBUG_DIR: o.debug_dir = optarg; break;
		case O_BUILDID_DIR: o.buildid_dir = optarg; break;
		case O_KALLSYMS: o.kallsyms = optarg; break;
		case O_PERF_MAP_DIR: o.perf_map_dir = optarg; break;
		case O_JITDUMP_DIR: o.jitdump_dir = optarg; break;
		case O_PYTHON:
			o.python_view = perfan_python_view_parse(optarg);
			if (o.python_view < 0)
				return cli_usage_error(
					CMD, usage_text,
					"--python: '%s' is none of native, "
					"mixed, python",
					optarg);
			break;
		case O_COMPAT:
			if (!strcmp(optarg, "flamegraph"))
				o.compat = PERFAN_SCRIPT_COMPAT_FLAMEGRAPH;
			else if (!strcmp(optarg, "none"))
				o.compat = PERFAN_SCRIPT_COMPAT_NONE;
			else
				return cli_usage_error(
					CMD, usage_text,
					"--compat: '%s' is neither flamegraph "
					"nor none",
					optarg);
			break;
		case O_OFFCPU: o.time_view = PERFAN_VIEW_OFFCPU; break;
		case O_WALL: o.time_view = PERFAN_VIEW_WALL; break;
		case O_LINENO: o.lineno = 1; break;
		case O_THREADS:
			if (cli_parse_threads(optarg, &o.threads, CMD))
				return 2;
			break;
		case 'o': o.out = optarg; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return 2;
		}
	}
	if (optind + 1 < argc) {
		fputs(usage_text, stderr);
		return 2;
	}
	const char *path = optind < argc ? argv[optind] : "perf.data";
	if (cli_output_guard(CMD, o.out, &path, 1))
		return 1;
	perfan_profile *p;
	if (perfan_profile_new(&p, NULL)) {
		cli_error(CMD, "%s", perfan_error_last());
		return 1;
	}
	struct cli_load_opts lo;
	load_opts(&lo, &o);
	struct cli_load_result res;
	int status = cli_load_one(p, path, &lo, CMD, &res);
	if (!res.read) {
		perfan_profile_free(p);
		return 1;
	}
	if (!status && !res.sst.samples && !res.sst.samples_filtered &&
	    res.sst.lines_unrecognized) {
		/* nothing in it was a sample: not an input we know */
		cli_error(CMD,
			  "%s: neither perf.data, perf script "
			  "text nor folded stacks (no line of it is a sample)",
			  res.name);
		status = 1;
	}
	size_t col =
		cli_load_pick_column(p, o.filter.event, NULL, res.name, CMD);
	/* Python functions in place of the interpreter frames that ran
	 * them, unless asked for perf's native frames */
	if (o.python_view != PERFAN_PY_NATIVE && perfan_python_present(p)) {
		perfan_profile *v;
		if (perfan_python_view(&v, p,
				       o.python_view < 0 ? PERFAN_PY_PYTHON
							 : o.python_view)) {
			cli_error(CMD, "%s", perfan_error_last());
			status = 1;
		} else {
			perfan_profile_free(p);
			p = v;
		}
	}

	/* what was read is written even after an error, as perf script
	 * prints the samples before a damaged record; -o keeps no file then */
	struct cli_output out;
	if (cli_output_open(&out, o.out)) {
		cli_error(CMD, "cannot write %s: %s", o.out, strerror(errno));
		status = 1;
	} else {
		struct perfan_folded_write_opts wo =
			PERFAN_OPTS_INIT(struct perfan_folded_write_opts);
		wo.column = col;
		if (res.caps & PERFAN_SOURCE_RECORDS)
			wo.annotate = annotations(&o); /* the text readers
							  name them themselves */
		if (perfan_folded_write(p, out.fp, &wo)) {
			cli_error(CMD, "%s", perfan_error_last());
			status = 1;
		}
		if (cli_output_close(&out, status == 0) && !status) {
			cli_error(CMD, "cannot write %s",
				  o.out ? o.out : "standard output");
			status = 1;
		}
	}
	perfan_profile_free(p);
	return status;
}
