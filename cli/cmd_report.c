/* cli/cmd_report.c: perfan report: where the time goes, by command, thread,
 * module and function, with self and total (children) shares, the Amdahl
 * bound of each row and call graphs, from a perf.data, perf script text or
 * folded stacks, in the columns of perf report --stdio or as JSON. */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <perfan/perfan.h>

#include "cli.h"
#include "input.h"

#define CMD "report"

static const char usage_text[] =
	"usage: perfan report [options] [FILE]\n"
	"\n"
	"Show where the time goes in FILE (default perf.data, '-' for standard\n"
	"input): a perf.data recording, `perf script` text or folded stacks,\n"
	"told apart by their content. Rows are keyed as --sort says, with their\n"
	"total share (children: every stack the row is on, once) and self share\n"
	"(stacks that end in it), and the Amdahl bound: how many times faster\n"
	"the whole could at most be if the row took no time. One section per\n"
	"event, as perf report --stdio prints them.\n"
	"\n"
	"  -s, --sort KEYS    row keys, comma-separated, from comm, pid, dso,\n"
	"                     sym (default comm,dso,sym)\n"
	"  --children         order by total share, children included (default)\n"
	"  --no-children      order by self share only\n"
	"  -g, --call-graph MODE\n"
	"                     under each row its call graph: caller (paths\n"
	"                     from the outermost caller through the row) or\n"
	"                     callee (the row, then who calls it)\n"
	"  --percent-limit PCT  leave out rows and call graph branches below\n"
	"                     PCT percent\n"
	"  --limit N          at most N rows per event\n"
	"  --no-speedup       leave out the Max speedup column\n"
	"  --json             print JSON instead of text\n"
	"  --samples          weigh every sample as 1\n"
	"  --period           weigh samples by their period (the default, as\n"
	"                     perf report)\n"
	"  --pid PID          (perf.data) only samples of process PID\n"
	"  --tid TID          (perf.data) only samples of thread TID\n"
	"  --comm COMM        (perf.data) only samples of threads named COMM\n"
	"  --cpu CPU          (perf.data) only samples taken on CPU\n"
	"  --time START,END   (perf.data) only samples between these times, in\n"
	"                     seconds as perf script prints them; either may\n"
	"                     be left empty\n"
	"  --dso DSOS         only frames of these modules (comma-separated)\n"
	"                     make rows, as perf report --dsos\n"
	"  --inline           (perf.data) add the functions inlined into others\n"
	"                     as rows of their own (total share only, as perf)\n"
	"  --symfs DIR        (perf.data) look for binaries under DIR\n"
	"  --debug-dir DIR    (perf.data) look for debug files under DIR too\n"
	"  --buildid-dir DIR  (perf.data) perf's build-id cache (default\n"
	"                     ~/.debug)\n"
	"  --kallsyms FILE    (perf.data) kernel symbols from FILE\n"
	"  -o, --output FILE  write to FILE (atomically) instead of stdout\n"
	"  -h, --help         show this help\n";

struct opts {
	const char *sort, *dsos, *out, *comm, *symfs, *debug_dir, *buildid_dir,
		*kallsyms;
	int no_children, graph, json, samples, inline_frames, no_speedup;
	double percent_limit;
	size_t limit;
	int64_t pid, tid, cpu;
	uint64_t time_start, time_end;
	int time_set;
};

/* ---- progress on stderr ------------------------------------------------ */

/* A line on stderr, redrawn at most 10 times a second by a thread, when
 * stderr is a terminal and reading takes more than a moment. Text inputs
 * count the bytes read; perf.data (read by the resolver, which reports no
 * position) shows the time spent. */
struct progress {
	int on;
	const char *name;
	uint64_t size;
	atomic_ullong done;
	atomic_int stop;
	pthread_t th;
	int started;
	int drawn;
	struct timespec t0;
	pthread_mutex_t lock; /* stderr: the bar and warnings */
};

static struct progress prog = {.lock = PTHREAD_MUTEX_INITIALIZER};

static double since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void progress_clear_locked(void)
{
	if (prog.drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		prog.drawn = 0;
	}
}

static void progress_draw(void)
{
	double secs = since(&prog.t0);
	uint64_t done = atomic_load(&prog.done);
	char line[160];
	if (prog.size && done) {
		double f = (double)done / (double)prog.size;
		if (f > 1)
			f = 1;
		char bar[31];
		int fill = (int)(f * 30);
		for (int i = 0; i < 30; i++)
			bar[i] = i < fill ? '#' : '.';
		bar[30] = '\0';
		snprintf(line, sizeof(line),
			 "perfan " CMD ": %.40s [%s] %3d%% %.1f s", prog.name,
			 bar, (int)(f * 100), secs);
	} else if (prog.size) {
		snprintf(line, sizeof(line),
			 "perfan " CMD ": reading %.40s (%.0f MB) %.1f s",
			 prog.name, (double)prog.size / 1e6, secs);
	} else {
		snprintf(line, sizeof(line),
			 "perfan " CMD ": reading %.40s %.1f s", prog.name,
			 secs);
	}
	pthread_mutex_lock(&prog.lock);
	fprintf(stderr, "\r%s\033[K", line);
	fflush(stderr);
	prog.drawn = 1;
	pthread_mutex_unlock(&prog.lock);
}

static void *progress_thread(void *arg)
{
	(void)arg;
	struct timespec tick = {0, 100 * 1000 * 1000}; /* 10 per second */
	while (!atomic_load(&prog.stop)) {
		nanosleep(&tick, NULL);
		if (atomic_load(&prog.stop))
			break;
		if (since(&prog.t0) >= 0.5)
			progress_draw();
	}
	return NULL;
}

static void progress_start(const char *name, uint64_t size)
{
	prog.on = isatty(2);
	prog.name = name;
	prog.size = size;
	atomic_store(&prog.done, 0);
	atomic_store(&prog.stop, 0);
	clock_gettime(CLOCK_MONOTONIC, &prog.t0);
	if (prog.on && !pthread_create(&prog.th, NULL, progress_thread, NULL))
		prog.started = 1;
}

static void progress_end(void)
{
	if (prog.started) {
		atomic_store(&prog.stop, 1);
		pthread_join(prog.th, NULL);
		prog.started = 0;
	}
	pthread_mutex_lock(&prog.lock);
	progress_clear_locked();
	pthread_mutex_unlock(&prog.lock);
}

static void on_log(enum perfan_log_level level, const char *msg, void *payload)
{
	(void)payload;
	if (level > PERFAN_LOG_WARN)
		return;
	pthread_mutex_lock(&prog.lock);
	progress_clear_locked();
	fprintf(stderr, "perfan " CMD ": warning: %s\n", msg);
	pthread_mutex_unlock(&prog.lock);
}

/* Bytes of input read, for the progress line. */
static void count_read(size_t n)
{
	atomic_fetch_add(&prog.done, n);
}

/* The perf.data reader's position, for the progress line. */
static void at_offset(uint64_t off, void *payload)
{
	(void)payload;
	atomic_store(&prog.done, off);
}

/* ---- the three inputs ------------------------------------------------------ */

static void resolve_opts(struct perfan_resolve_opts *ro, const struct opts *o,
			 int root)
{
	ro->symfs = o->symfs;
	ro->debug_dir = o->debug_dir;
	ro->buildid_dir = o->buildid_dir;
	ro->kallsyms = o->kallsyms;
	ro->inline_frames = o->inline_frames;
	ro->root = root;
	ro->weight = o->samples ? PERFAN_WEIGHT_SAMPLES : PERFAN_WEIGHT_PERIOD;
	ro->pid = o->pid;
	ro->tid = o->tid;
	ro->cpu = o->cpu;
	ro->comm = o->comm;
	ro->time_start = o->time_start;
	ro->time_end = o->time_end;
	ro->log = on_log;
	ro->progress = at_offset;
}

static int from_perfdata(perfan_profile *p, struct cli_input *in,
			 const struct opts *o, int root,
			 struct perfan_resolve_stats *st)
{
	struct perfan_perfdata_opts po =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	po.log = on_log;
	perfan_perfdata *pd = NULL;
	int rc = cli_input_perfdata(in, &pd, &po, CMD);
	if (rc == -1)
		return -2;
	if (!rc) {
		struct perfan_resolve_opts ro = PERFAN_RESOLVE_OPTS_INIT;
		resolve_opts(&ro, o, root);
		rc = perfan_resolve_perfdata(p, pd, &ro, st);
	}
	perfan_perfdata_free(pd);
	return rc;
}

static int from_script(perfan_profile *p, struct cli_input *in,
		       const struct opts *o, int pid_key,
		       struct perfan_script_stats *st)
{
	FILE *fp = cli_input_text(in);
	if (!fp) {
		cli_error(CMD, "%s: %s", in->name, strerror(errno));
		return -2;
	}
	struct perfan_script_opts so =
		PERFAN_OPTS_INIT(struct perfan_script_opts);
	so.tid = pid_key; /* "comm-PID/TID" roots */
	so.count_samples = o->samples;
	so.log = on_log;
	return perfan_script_read(p, fp, in->name, &so, st);
}

static int from_folded(perfan_profile *p, struct cli_input *in)
{
	FILE *fp = cli_input_text(in);
	if (!fp) {
		cli_error(CMD, "%s: %s", in->name, strerror(errno));
		return -2;
	}
	struct perfan_folded_read_opts fo =
		PERFAN_OPTS_INIT(struct perfan_folded_read_opts);
	fo.process_root = 1; /* stackcollapse-perf.pl's first frame */
	fo.annotations = 1;  /* _[k] kernel frames */
	return perfan_folded_read(p, fp, in->name, "samples", &fo);
}

/* ---- options ------------------------------------------------------------- */

/* "SEC[.FRAC]" into nanoseconds; "" is 0. */
static int parse_seconds(const char *s, size_t n, uint64_t *out)
{
	uint64_t sec = 0, ns = 0;
	size_t i = 0;
	*out = 0;
	if (!n)
		return 0;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (sec > UINT64_MAX / 10 / 1000000000ull)
			return -1;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i == 0 && (i == n || s[i] != '.'))
		return -1;
	if (i < n && s[i] == '.') {
		uint64_t scale = 100000000ull;
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
			ns += (uint64_t)(s[i] - '0') * scale;
			scale /= 10;
		}
	}
	if (i != n)
		return -1;
	*out = sec * 1000000000ull + ns;
	return 0;
}

static int parse_time(const char *s, struct opts *o)
{
	const char *comma = strchr(s, ',');
	if (!comma)
		return -1;
	if (parse_seconds(s, (size_t)(comma - s), &o->time_start) ||
	    parse_seconds(comma + 1, strlen(comma + 1), &o->time_end))
		return -1;
	if (o->time_end && o->time_start > o->time_end)
		return -1;
	o->time_set = o->time_start || o->time_end;
	return 0;
}

static int parse_int(const char *s, int64_t min, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < min || v > INT32_MAX)
		return -1;
	*out = v;
	return 0;
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "perfan " CMD ": ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n\n%s", usage_text);
	return 2;
}

/* Does KEYS name the pid key? (Checked for validity by the library.) */
static int sort_has_pid(const char *keys)
{
	if (!keys)
		return 0;
	for (const char *s = keys; *s;) {
		size_t n = strcspn(s, ",");
		if (n == 3 && !strncmp(s, "pid", 3))
			return 1;
		s += n;
		if (*s)
			s++;
	}
	return 0;
}

/* ---- the command ------------------------------------------------------------ */

int cmd_report(int argc, char **argv)
{
	enum {
		O_CHILDREN = 256,
		O_NO_CHILDREN,
		O_PERCENT_LIMIT,
		O_LIMIT,
		O_NO_SPEEDUP,
		O_JSON,
		O_SAMPLES,
		O_PERIOD,
		O_PID,
		O_TID,
		O_COMM,
		O_CPU,
		O_TIME,
		O_DSO,
		O_INLINE,
		O_SYMFS,
		O_DEBUG_DIR,
		O_BUILDID_DIR,
		O_KALLSYMS,
	};
	static const struct option longopts[] = {
		{"sort", required_argument, NULL, 's'},
		{"children", no_argument, NULL, O_CHILDREN},
		{"no-children", no_argument, NULL, O_NO_CHILDREN},
		{"call-graph", required_argument, NULL, 'g'},
		{"percent-limit", required_argument, NULL, O_PERCENT_LIMIT},
		{"limit", required_argument, NULL, O_LIMIT},
		{"no-speedup", no_argument, NULL, O_NO_SPEEDUP},
		{"json", no_argument, NULL, O_JSON},
		{"samples", no_argument, NULL, O_SAMPLES},
		{"period", no_argument, NULL, O_PERIOD},
		{"pid", required_argument, NULL, O_PID},
		{"tid", required_argument, NULL, O_TID},
		{"comm", required_argument, NULL, O_COMM},
		{"cpu", required_argument, NULL, O_CPU},
		{"time", required_argument, NULL, O_TIME},
		{"dso", required_argument, NULL, O_DSO},
		{"dsos", required_argument, NULL, O_DSO},
		{"inline", no_argument, NULL, O_INLINE},
		{"symfs", required_argument, NULL, O_SYMFS},
		{"debug-dir", required_argument, NULL, O_DEBUG_DIR},
		{"buildid-dir", required_argument, NULL, O_BUILDID_DIR},
		{"kallsyms", required_argument, NULL, O_KALLSYMS},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct opts o;
	memset(&o, 0, sizeof(o));
	o.pid = o.tid = o.cpu = -1;
	int opt;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "s:g:o:h", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 's': o.sort = optarg; break;
		case O_CHILDREN: o.no_children = 0; break;
		case O_NO_CHILDREN: o.no_children = 1; break;
		case 'g':
			if (!strcmp(optarg, "caller"))
				o.graph = PERFAN_REPORT_GRAPH_CALLER;
			else if (!strcmp(optarg, "callee"))
				o.graph = PERFAN_REPORT_GRAPH_CALLEE;
			else if (!strcmp(optarg, "none"))
				o.graph = PERFAN_REPORT_GRAPH_NONE;
			else
				return usage_error("--call-graph: '%s' is none "
						   "of caller, callee, none",
						   optarg);
			break;
		case O_PERCENT_LIMIT: {
			char *end;
			o.percent_limit = strtod(optarg, &end);
			if (end == optarg || *end || !(o.percent_limit >= 0) ||
			    o.percent_limit > 100)
				return usage_error("--percent-limit: '%s' is "
						   "not a percentage",
						   optarg);
			break;
		}
		case O_LIMIT: {
			int64_t v;
			if (parse_int(optarg, 0, &v))
				return usage_error("--limit: '%s' is not a "
						   "count",
						   optarg);
			o.limit = (size_t)v;
			break;
		}
		case O_NO_SPEEDUP: o.no_speedup = 1; break;
		case O_JSON: o.json = 1; break;
		case O_SAMPLES: o.samples = 1; break;
		case O_PERIOD: o.samples = 0; break;
		case O_PID:
			if (parse_int(optarg, 0, &o.pid))
				return usage_error("--pid: '%s' is not a "
						   "process id",
						   optarg);
			break;
		case O_TID:
			if (parse_int(optarg, 0, &o.tid))
				return usage_error("--tid: '%s' is not a "
						   "thread id",
						   optarg);
			break;
		case O_CPU:
			if (parse_int(optarg, 0, &o.cpu))
				return usage_error("--cpu: '%s' is not a CPU "
						   "number",
						   optarg);
			break;
		case O_COMM: o.comm = optarg; break;
		case O_TIME:
			if (parse_time(optarg, &o))
				return usage_error("--time: '%s' is not "
						   "START,END in seconds",
						   optarg);
			break;
		case O_DSO: o.dsos = optarg; break;
		case O_INLINE: o.inline_frames = 1; break;
		case O_SYMFS: o.symfs = optarg; break;
		case O_DEBUG_DIR: o.debug_dir = optarg; break;
		case O_BUILDID_DIR: o.buildid_dir = optarg; break;
		case O_KALLSYMS: o.kallsyms = optarg; break;
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

	struct perfan_report_opts rep =
		PERFAN_OPTS_INIT(struct perfan_report_opts);
	rep.sort = o.sort;
	rep.no_children = o.no_children;
	rep.dsos = o.dsos;
	rep.percent_limit = o.percent_limit;
	rep.limit = o.limit;
	rep.call_graph = o.graph;
	rep.no_speedup = o.no_speedup;
	int pid_key = sort_has_pid(o.sort);
	rep.root_format = pid_key ? PERFAN_ROOT_PID_TID : PERFAN_ROOT_COMM;

	/* a bad --sort is a usage error, found before reading anything */
	{
		perfan_profile *empty;
		perfan_report *check;
		if (perfan_profile_new(&empty, NULL)) {
			cli_error(CMD, "%s", perfan_error_last());
			return 1;
		}
		int rc = perfan_report_new(&check, empty, &rep);
		perfan_report_free(check);
		perfan_profile_free(empty);
		if (rc == PERFAN_EINVAL)
			return usage_error("--sort: %s", perfan_error_last());
		if (rc) {
			cli_error(CMD, "%s", perfan_error_last());
			return 1;
		}
	}

	struct cli_input in;
	int status = 0;
	if (cli_input_open(&in, path, CMD))
		status = 1;
	in.on_read = count_read;
	int kind = in.kind;
	if (!status && kind != PERFAN_INPUT_PERFDATA &&
	    (o.pid >= 0 || o.tid >= 0 || o.cpu >= 0 || o.comm || o.time_set ||
	     o.inline_frames || o.symfs || o.debug_dir || o.buildid_dir ||
	     o.kallsyms))
		fprintf(stderr,
			"perfan " CMD ": warning: %s is not a perf.data: "
			"--pid, --tid, --comm, --cpu, --time, --inline, "
			"--symfs, --debug-dir, --buildid-dir and --kallsyms "
			"do not apply\n",
			in.name);

	perfan_profile *p = NULL;
	if (!status && perfan_profile_new(&p, NULL)) {
		cli_error(CMD, "%s", perfan_error_last());
		status = 1;
	}
	struct perfan_resolve_stats rst;
	struct perfan_script_stats sst;
	memset(&rst, 0, sizeof(rst));
	memset(&sst, 0, sizeof(sst));
	int rc = 0;
	if (!status) {
		progress_start(in.name, in.size);
		switch (kind) {
		case PERFAN_INPUT_PERFDATA:
			rc = from_perfdata(p, &in, &o,
					   pid_key ? PERFAN_ROOT_PID_TID
						   : PERFAN_ROOT_COMM,
					   &rst);
			break;
		case PERFAN_INPUT_SCRIPT:
			rc = from_script(p, &in, &o, pid_key, &sst);
			if (!pid_key)
				rep.root_format = PERFAN_ROOT_COMM;
			break;
		case PERFAN_INPUT_FOLDED:
			rc = from_folded(p, &in);
			rep.root_format = PERFAN_ROOT_COMM;
			break;
		default:
			if (in.npeek) {
				cli_error(CMD,
					  "%s: neither perf.data, perf script "
					  "output nor folded stacks",
					  in.name);
				rc = -2;
			}
			break; /* empty: no samples */
		}
		progress_end();
		if (rc == -2) {
			status = 1;
		} else if (rc) {
			/* what was read is still reported, as perf report
			 * shows the samples before a damaged record */
			cli_error(CMD, "%s", perfan_error_last());
			status = 1;
		}
	}

	int have_samples = 0;
	for (size_t c = 0; p && c < perfan_profile_nr_columns(p); c++)
		have_samples |= perfan_profile_total(p, c) != 0;
	if (p && !have_samples && !status)
		fprintf(stderr, "perfan " CMD ": warning: no samples in %s\n",
			in.name);
	/* nothing to show for an input that is none of the three */
	if (kind == PERFAN_INPUT_UNKNOWN && in.npeek) {
		perfan_profile_free(p);
		p = NULL;
	}
	perfan_report *r = NULL;
	if (p && perfan_report_new(&r, p, &rep)) {
		cli_error(CMD, "%s", perfan_error_last());
		status = 1;
	}
	if (r) {
		struct cli_output out;
		if (cli_output_open(&out, o.out)) {
			cli_error(CMD, "cannot write %s: %s", o.out,
				  strerror(errno));
			status = 1;
		} else {
			if (!o.json) {
				fprintf(out.fp, "# perfan report of %s\n",
					in.name);
				if (kind == PERFAN_INPUT_PERFDATA)
					fprintf(out.fp,
						"# %llu samples, %llu left out "
						"by filters; %llu stacks cut "
						"short; %llu of %llu frames "
						"unresolved\n",
						(unsigned long long)rst.samples,
						(unsigned long long)
							rst.samples_filtered,
						(unsigned long long)
							rst.stacks_truncated,
						(unsigned long long)
							rst.frames_unresolved,
						(unsigned long long)rst.frames);
				fputs("#\n", out.fp);
			}
			if (perfan_report_write(r, out.fp,
						o.json ? PERFAN_REPORT_JSON
						       : PERFAN_REPORT_TEXT)) {
				cli_error(CMD, "%s", perfan_error_last());
				status = 1;
			}
			if (cli_output_close(&out, status == 0) && !status) {
				cli_error(CMD, "cannot write %s",
					  o.out ? o.out : "standard output");
				status = 1;
			}
		}
	}
	perfan_report_free(r);
	perfan_profile_free(p);
	cli_input_close(&in);
	return status;
}
