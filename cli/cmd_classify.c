/* cli/cmd_classify.c: perfan classify: perf stat output (read, or produced by
 * running perf stat on a command) turned into a verdict with its evidence. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <perfan/perfan.h>

#include "cli.h"
#include "opt.h"

#define CMD "classify"

static const char head[] =
	"usage: perfan classify [--json] [--unscaled] [--perf-data REC] [-o FILE]\n"
	"                       [FILE|-]\n"
	"       perfan classify [--json] [--perf-data REC] [-o FILE] -- COMMAND\n"
	"                       [ARGS]\n"
	"\n"
	"Read perf stat output (text, CSV or JSON, any layout perf prints;\n"
	"FILE or '-' for standard input, the default) and tell whether the\n"
	"code is memory-bound, bad-speculation (branchy), front-end-bound,\n"
	"back-end-bound, core-bound, well-optimised or mixed, with the\n"
	"evidence and its sources, per interval or aggregation, per run, per\n"
	"PMU of a hybrid CPU, and for the whole. Without hardware counters,\n"
	"on-CPU against wall time says cpu-bound or mostly-waiting; with a\n"
	"recording of the same run (--perf-data), GIL-bound when a Python\n"
	"process's computing threads wait mostly for the GIL. With --\n"
	"COMMAND, run `perf stat` on COMMAND with the events the rules need.\n"
	"\n";

struct opts {
	struct perfan_classify_opts co;
	struct perfan_classify_write_opts wo;
	const char *out;
	const char *perf_data;
};

static const struct cli_opt options[] = {
	CLI_FLAG_VALUE("json", wo.format, PERFAN_CLASSIFY_JSON,
		       "print a JSON object instead"),
	CLI_FLAG("unscaled", co.unscaled,
		 "counts are raw, not scaled by perf: scale each by\n"
		 "100 / its run share"),
	CLI_STRING("perf-data", "REC", perf_data,
		   "a perf.data of the same run (sched_switch with\n"
		   "stacks): a Python process whose computing threads\n"
		   "wait mostly for the GIL is GIL-bound, with each\n"
		   "thread's GIL wait as evidence"),
	CLI_OUTPUT(out),
	CLI_END,
};

#define PERF_EVENTS                                                            \
	"task-clock,context-switches,cpu-migrations,page-faults,cycles,"       \
	"instructions,branches,branch-misses,cache-references,cache-misses,"   \
	"stalled-cycles-frontend,stalled-cycles-backend"

/* Run perf stat on ARGV and read its report (on its stderr) into *S. The
 * command's standard output goes to our standard error, so that ours stays
 * the classification. Returns perf's exit status, or -1 after an error
 * (printed). */
static int run_perf(char **argv, int argc, perfan_stat **s,
		    const struct perfan_stat_parse_opts *po)
{
	int pfd[2];
	if (pipe(pfd)) {
		cli_error(CMD, "pipe: %s", strerror(errno));
		return -1;
	}
	char **args = calloc((size_t)argc + 8, sizeof(*args));
	if (!args) {
		cli_error(CMD, "out of memory");
		return -1;
	}
	size_t k = 0;
	args[k++] = "perf";
	args[k++] = "stat";
	args[k++] = "-e";
	args[k++] = PERF_EVENTS;
	args[k++] = "--";
	for (int i = 0; i < argc; i++)
		args[k++] = argv[i];
	args[k] = NULL;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		cli_error(CMD, "fork: %s", strerror(errno));
		free(args);
		return -1;
	}
	if (pid == 0) {
		int err = dup(2);
		dup2(err, 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		/* perf's numbers in the C locale: no grouping, '.' decimals */
		setenv("LC_ALL", "C", 1);
		execvp("perf", args);
		dprintf(err, "perfan classify: cannot run perf: %s\n",
			strerror(errno));
		_exit(127);
	}
	free(args);
	close(pfd[1]);
	FILE *fp = fdopen(pfd[0], "r");
	int rc = fp ? perfan_stat_read(s, fp, po) : PERFAN_EIO;
	if (fp)
		fclose(fp);
	else
		close(pfd[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rc && WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -1; /* perf did not run: the child said why */
	if (rc) {
		cli_error(CMD, "%s", perfan_error_last());
		return -1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* Some cycles or instructions count of S was counted. */
static int hw_counted(const perfan_stat *s)
{
	for (size_t i = 0; i < perfan_stat_nr_counters(s); i++) {
		const struct perfan_stat_counter *c = perfan_stat_counter(s, i);
		if (c->counted && c->event &&
		    (!strcmp(c->event, "cycles") ||
		     !strcmp(c->event, "instructions")))
			return 1;
	}
	return 0;
}

/* Read perf stat output from PATH ("-": standard input) into *S. Returns
 * 0, or 1 after printing the error. */
static int read_stat(const char *path, perfan_stat **s,
		     struct perfan_stat_parse_opts *po)
{
	int std = !strcmp(path, "-");
	po->name = std ? "standard input" : path;
	FILE *fp = std ? stdin : fopen(path, "rb");
	if (!fp) {
		cli_error(CMD, "%s: %s", path, strerror(errno));
		return 1;
	}
	int rc = perfan_stat_read(s, fp, po);
	if (fp != stdin)
		fclose(fp);
	if (rc)
		cli_error(CMD, "%s", perfan_error_last());
	return rc ? 1 : 0;
}

/* Run perf stat on ARGV (ARGC of them) into *S: 0, or 1 (printed). */
static int run_stat(char **argv, int argc, perfan_stat **s,
		    struct perfan_stat_parse_opts *po)
{
	po->name = "perf stat";
	int st = run_perf(argv, argc, s, po);
	if (st < 0)
		return 1;
	if (st)
		cli_warn(CMD, "perf stat exited with status %d", st);
	if (!hw_counted(*s))
		cli_warn(CMD,
			 "perf counted no hardware event here (cycles and "
			 "instructions <not supported>): the verdict is read "
			 "from software counters, on-CPU against wall time");
	return 0;
}

/* The GIL ledger of REC read into C's software verdicts: 0, or 1 after
 * printing the error. */
static int read_gil(perfan_classify *c, const char *rec)
{
	perfan_load *l = NULL;
	perfan_gil *g = NULL;
	struct perfan_load_opts lo = PERFAN_LOAD_OPTS_INIT;
	lo.quiet_advice = PERFAN_LOAD_QUIET_VIEW;
	int rc = perfan_load_new(&l, &lo);
	if (!rc)
		rc = perfan_load_gil(&g, l, rec, NULL);
	if (rc >= 0)
		rc = perfan_classify_gil(c, perfan_gil_result(g));
	if (rc < 0)
		cli_error(CMD, "%s: %s", rec, perfan_error_last());
	perfan_gil_free(g);
	perfan_load_free(l);
	return rc < 0;
}

static int write_classify(const void *c, FILE *fp, const void *wo)
{
	return perfan_classify_write(c, fp, wo);
}

int cmd_classify(int argc, char **argv)
{
	struct opts o = {PERFAN_OPTS_INIT(struct perfan_classify_opts),
			 PERFAN_OPTS_INIT(struct perfan_classify_write_opts),
			 NULL, NULL};
	/* The options anywhere before "--" (-o after FILE too, as every
	 * command takes them); what follows "--" is the COMMAND to run, its
	 * options its own. */
	int dashes = 1;
	while (dashes < argc && strcmp(argv[dashes], "--"))
		dashes++;
	int status = cli_opt_parse(dashes, argv, options, &o, head, CMD, 0);
	if (status >= 0)
		return status;
	int run = dashes < argc, nfiles = dashes - optind;
	if (run && nfiles)
		return cli_opt_error(CMD, options, head,
				     "%s: give FILE or -- COMMAND, not both",
				     argv[optind]);
	if (run && dashes + 1 >= argc)
		return cli_opt_error(CMD, options, head,
				     "no COMMAND after --%s", "");
	if (nfiles > 1)
		return cli_opt_error(CMD, options, head,
				     "too many arguments: %s",
				     argv[optind + 1]);
	const char *path = nfiles ? argv[optind] : "-";
	struct cli_stdin in = {0};
	if (!run && (cli_stdin_take(CMD, &in,
				    nfiles ? "FILE"
					   : "FILE (not given: standard input)",
				    path) ||
		     cli_stdin_take(CMD, &in, "--perf-data", o.perf_data)))
		return 2;
	const char *inputs[] = {path, o.perf_data};
	if (cli_output_guard(CMD, o.out, run ? inputs + 1 : inputs,
			     (run ? 0 : 1) + (o.perf_data != NULL)))
		return 1;
	perfan_stat *s = NULL;
	struct perfan_stat_parse_opts po =
		PERFAN_OPTS_INIT(struct perfan_stat_parse_opts);
	if (run ? run_stat(argv + dashes + 1, argc - dashes - 1, &s, &po)
		: read_stat(path, &s, &po))
		return 1;
	perfan_classify *c = NULL;
	int rc = perfan_classify_stat(&c, s, &o.co);
	status = 1;
	if (rc)
		cli_error(CMD, "%s: %s", po.name,
			  rc == PERFAN_EINVAL
				  ? "no counters in perf stat output"
				  : perfan_error_last());
	else if (!o.perf_data || !read_gil(c, o.perf_data))
		status = cli_write(CMD, o.out, 0, write_classify, c, &o.wo);
	perfan_classify_free(c);
	perfan_stat_free(s);
	return status;
}
