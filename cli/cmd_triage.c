/* cli/cmd_triage.c: perfan triage: the first answers from one recording
 * (on CPU or waiting, the wide plateaus and their Amdahl bounds, the
 * perf stat verdict, the change since a run before, what to record next),
 * made from the library's analyses: one self-contained HTML page with the
 * flame graphs, or text for a terminal. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "args.h"
#include "cli.h"

#define CMD "triage"

static const char usage_text[] =
	"usage: perfan triage [options] [FILE]\n"
	"\n"
	"The first answers from the recording FILE (default perf.data): is\n"
	"it on CPU or waiting (CPU against wall time per thread, where the\n"
	"threads blocked), which plateaus are wide and what a fix could give\n"
	"at most (Amdahl), whether the CPU is stalled (--stat), what changed\n"
	"since a run before (--before), and, for each question the input\n"
	"cannot answer, the perf command that records what is missing. One\n"
	"self-contained HTML page (with -o FILE, or on stdout) that works\n"
	"offline, with the interactive flame graphs of on-CPU and off-CPU\n"
	"time; --text prints the same findings for a terminal.\n"
	"\n"
	"  --stat FILE        perf stat output of the same run, for the\n"
	"                     verdict of perfan classify\n"
	"  --before FILE      a recording of a run before (may be repeated):\n"
	"                     what changed, as perfan diff -b FILE... -a FILE\n"
	"  --text             print the findings for a terminal instead of\n"
	"                     the HTML page\n" CLI_ARGS_HELP
	"  -o, --output FILE  write to FILE (atomically) instead of stdout\n"
	"  -h, --help         show this help\n";

struct opts {
	const char *stat, *out;
	const char **before;
	size_t nbefore;
	int text;
	struct perfan_load_opts load;
};

/* What the inputs gave, freed by done(). */
struct inputs {
	perfan_load *cpu, *wait;
	perfan_load **before;
	struct perfan_diff_run *runs;
	perfan_report *plateaus;
	perfan_threads *threads;
	const perfan_offcpu *offcpu;
	perfan_stat *stat;
	perfan_classify *classify;
	perfan_diff *diff;
	const struct perfan_load_info *res;
};

static void done(struct inputs *in, size_t nbefore)
{
	perfan_diff_free(in->diff);
	for (size_t i = 0; in->before && i < nbefore; i++)
		perfan_load_free(in->before[i]);
	free(in->before);
	free(in->runs);
	perfan_classify_free(in->classify);
	perfan_stat_free(in->stat);
	perfan_threads_free(in->threads);
	perfan_report_free(in->plateaus);
	perfan_load_free(in->wait);
	perfan_load_free(in->cpu);
}

/* The on-CPU profile and its plateaus. */
static int load_cpu(struct inputs *in, const char *path, struct opts *o)
{
	struct perfan_load_opts lo = o->load;
	lo.root = PERFAN_ROOT_COMM;
	int status = cli_read(&in->cpu, path, &lo, CMD);
	in->res = perfan_load_info(in->cpu);
	if (status && (!in->res || !in->res->format))
		return 1;
	struct perfan_report_opts ro =
		PERFAN_OPTS_INIT(struct perfan_report_opts);
	ro.sort = "dso,sym";
	ro.no_children = 1;
	if (perfan_report_new(&in->plateaus, perfan_load_profile(in->cpu),
			      &ro)) {
		cli_error(CMD, "%s", perfan_error_last());
		return 1;
	}
	return status;
}

/* The second reading's warnings: the first printed them. */
static void quiet_log(enum perfan_log_level level, const char *msg,
		      void *payload)
{
	(void)level;
	(void)msg;
	(void)payload;
}

/* The off-CPU view, when the recording has switches (its events say so),
 * read from the input the on-CPU view read (a pipe is read once); its
 * summary says what it lacks either way. */
static int load_wait(struct inputs *in, struct opts *o)
{
	if (!perfan_offcpu_recorded(perfan_load_reader(in->cpu)))
		return 0; /* nothing to read it from: the triage says so */
	struct perfan_load_opts lo = o->load;
	lo.time_view = PERFAN_VIEW_OFFCPU;
	lo.root = PERFAN_ROOT_PID_TID;
	lo.log = quiet_log;
	lo.quiet_advice = PERFAN_LOAD_QUIET_VIEW;
	int rc = perfan_load_again(&in->wait, in->cpu, &lo);
	if (rc < 0)
		cli_error(CMD, "%s", perfan_error_last());
	if (!in->wait)
		return 1;
	in->offcpu = perfan_load_offcpu(in->wait);
	if (rc || !in->offcpu)
		return 0; /* the triage says what is missing */
	const struct perfan_offcpu_summary *s =
		perfan_offcpu_summary(in->offcpu);
	if (!s->sched_switch && !s->switch_records && !s->offcpu_time)
		return 0;
	struct perfan_threads_opts to = PERFAN_THREADS_OPTS_INIT;
	to.skip_idle = 1;
	if (perfan_threads_new(&in->threads, perfan_load_profile(in->wait), s,
			       &to)) {
		cli_error(CMD, "%s", perfan_error_last());
		return 1;
	}
	return 0;
}

static int load_stat(struct inputs *in, const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp) {
		cli_error(CMD, "%s: %s", path, strerror(errno));
		return 1;
	}
	struct perfan_stat_parse_opts po =
		PERFAN_OPTS_INIT(struct perfan_stat_parse_opts);
	po.name = path;
	int rc = perfan_stat_read(&in->stat, fp, &po);
	fclose(fp);
	struct perfan_classify_opts co =
		PERFAN_OPTS_INIT(struct perfan_classify_opts);
	if (!rc)
		rc = perfan_classify_stat(&in->classify, in->stat, &co);
	if (rc) {
		cli_error(CMD, "%s", perfan_error_last());
		return 1;
	}
	return 0;
}

static size_t cpu_column(const perfan_load *l, const struct opts *o,
			 const char *name);

static int load_before(struct inputs *in, struct opts *o, const char *path)
{
	in->before = calloc(o->nbefore, sizeof(*in->before));
	in->runs = calloc(o->nbefore + 1, sizeof(*in->runs));
	if (!in->before || !in->runs) {
		cli_error(CMD, "out of memory");
		return 1;
	}
	struct perfan_load_opts lo = o->load;
	lo.root = PERFAN_ROOT_COMM;
	for (size_t i = 0; i < o->nbefore; i++) {
		if (cli_read(&in->before[i], o->before[i], &lo, CMD))
			return 1;
		in->runs[i] = (struct perfan_diff_run){
			perfan_load_profile(in->before[i]),
			perfan_load_column(in->before[i], NULL, NULL),
			o->before[i]};
	}
	in->runs[o->nbefore] = (struct perfan_diff_run){
		perfan_load_profile(in->cpu),
		perfan_load_column(in->cpu, NULL, path), path};
	struct perfan_diff_opts dopts =
		PERFAN_OPTS_INIT(struct perfan_diff_opts);
	for (size_t i = 0; i <= o->nbefore; i++)
		if (in->runs[i].column == SIZE_MAX) {
			cli_error(CMD, "%s: no on-CPU samples to compare",
				  in->runs[i].name);
			return 1;
		}
	if (perfan_diff_new(&in->diff, in->runs, o->nbefore,
			    in->runs + o->nbefore, 1, &dopts)) {
		cli_error(CMD, "%s", perfan_error_last());
		return 1;
	}
	return 0;
}

/* The column of on-CPU time: a CPU clock or cycles, else the first of
 * another event that is no tracepoint (instructions, cache misses);
 * SIZE_MAX when there is none (a recording of sched_switch alone). */
static size_t cpu_column(const perfan_load *l, const struct opts *o,
			 const char *name)
{
	const perfan_profile *p = perfan_load_profile(l);
	static const char *const clocks[] = {"cpu-clock", "task-clock",
					     "cycles"};
	size_t n = perfan_profile_nr_columns(p);
	if (o->load.filter.event)
		return perfan_load_column(l, NULL, name);
	for (size_t k = 0; k < sizeof(clocks) / sizeof(*clocks); k++)
		for (size_t c = 0; c < n; c++) {
			const char *cn = perfan_profile_column_name(p, c);
			if (cn && strstr(cn, clocks[k]) &&
			    perfan_profile_total(p, c))
				return c;
		}
	for (size_t c = 0; c < n; c++) {
		const char *cn = perfan_profile_column_name(p, c);
		if (cn && !strchr(cn, ':') && perfan_profile_total(p, c))
			return c;
	}
	return SIZE_MAX;
}

/* Whether the plateaus have callers: a call graph was recorded. */
static int has_callers(const perfan_report *r, size_t col)
{
	if (col >= perfan_report_nr_columns(r))
		return 0;
	for (size_t i = 0; i < perfan_report_nr_rows(r, col); i++) {
		const struct perfan_report_row *row =
			perfan_report_row(r, col, i);
		if (row->total > row->self)
			return 1;
	}
	return 0;
}

/* Whether an interpreter frame is in the profile. */
static int has_interpreter(const perfan_profile *p)
{
	for (size_t i = 0; i < perfan_profile_nr_frames(p); i++) {
		const struct perfan_frame *f = perfan_profile_frame_get(p, i);
		if (f->module && perfan_python_is_interpreter(f->module))
			return 1;
	}
	return 0;
}

int cmd_triage(int argc, char **argv)
{
	enum { O_STAT = 256, O_BEFORE, O_TEXT };
	static const struct option longopts[] = {
		{"stat", required_argument, NULL, O_STAT},
		{"before", required_argument, NULL, O_BEFORE},
		{"text", no_argument, NULL, O_TEXT},
		CLI_ARGS_LONGOPTS,
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct opts o;
	memset(&o, 0, sizeof(o));
	cli_args_init(&o.load, CMD);
	o.before = calloc((size_t)argc + 1, sizeof(*o.before));
	if (!o.before) {
		cli_error(CMD, "out of memory");
		return 1;
	}
	int opt, status = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		int shared = cli_args_option(&o.load, opt, optarg, CMD);
		if (shared < 0) {
			fprintf(stderr, "\n%s", usage_text);
			free(o.before);
			return 2;
		}
		if (shared)
			continue;
		switch (opt) {
		case O_STAT: o.stat = optarg; break;
		case O_BEFORE: o.before[o.nbefore++] = optarg; break;
		case O_TEXT: o.text = 1; break;
		case 'o': o.out = optarg; break;
		case 'h':
			fputs(usage_text, stdout);
			free(o.before);
			return 0;
		default:
			fputs(usage_text, stderr);
			free(o.before);
			return 2;
		}
	}
	if (optind + 1 < argc) {
		fputs(usage_text, stderr);
		free(o.before);
		return 2;
	}
	const char *path = optind < argc ? argv[optind] : "perf.data";
	if (cli_output_guard(CMD, o.out, &path, 1)) {
		free(o.before);
		return 1;
	}
	struct inputs in;
	memset(&in, 0, sizeof(in));
	status = load_cpu(&in, path, &o);
	if (!status)
		status = load_wait(&in, &o);
	if (!status && o.stat)
		status = load_stat(&in, o.stat);
	if (!status && o.nbefore)
		status = load_before(&in, &o, path);
	perfan_triage *t = NULL;
	if (!status) {
		struct perfan_triage_in ti =
			PERFAN_OPTS_INIT(struct perfan_triage_in);
		ti.name = in.res->name ? in.res->name : path;
		ti.plateaus = in.plateaus;
		ti.cpu = perfan_load_profile(in.cpu);
		ti.wait = perfan_load_profile(in.wait);
		ti.column = cpu_column(in.cpu, &o, ti.name);
		ti.has_cpu = ti.column != SIZE_MAX;
		ti.threads = in.threads;
		ti.offcpu = in.offcpu ? perfan_offcpu_summary(in.offcpu) : NULL;
		ti.classify = in.classify;
		ti.diff = in.diff;
		ti.callchains = has_callers(in.plateaus, ti.column);
		ti.frames = in.res->resolve.frames;
		ti.frames_unresolved = in.res->resolve.frames_unresolved;
		ti.python_functions = perfan_python_present(ti.cpu);
		ti.python_interpreter = has_interpreter(ti.cpu);
		if (perfan_triage_new(&t, &ti, NULL)) {
			cli_error(CMD, "%s", perfan_error_last());
			status = 1;
		}
	}
	if (t) {
		struct cli_output out;
		if (cli_output_open(&out, o.out)) {
			cli_error(CMD, "cannot write %s: %s", o.out,
				  strerror(errno));
			status = 1;
		} else {
			struct perfan_triage_write_opts wo = {
				sizeof(wo), o.text ? PERFAN_TRIAGE_TEXT
						   : PERFAN_TRIAGE_HTML};
			if (perfan_triage_write(t, out.fp, &wo)) {
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
	perfan_triage_free(t);
	done(&in, o.nbefore);
	free(o.before);
	return status;
}
