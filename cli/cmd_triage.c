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

static int write_triage(const void *t, FILE *fp, const void *wo)
{
	return perfan_triage_write(t, fp, wo);
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
	struct perfan_load_triage_opts to =
		PERFAN_OPTS_INIT(struct perfan_load_triage_opts);
	to.stat = o.stat;
	to.before = o.before;
	to.nr_before = o.nbefore;
	perfan_triage *t = NULL;
	int rc = perfan_load_triage(&t, path, &o.load, &to);
	if (rc < 0)
		cli_error(CMD, "%s", perfan_error_last());
	struct perfan_triage_write_opts wo = {
		sizeof(wo), o.text ? PERFAN_TRIAGE_TEXT : PERFAN_TRIAGE_HTML};
	status = t ? cli_write(CMD, o.out, 0, write_triage, t, &wo) : 1;
	perfan_triage_free(t);
	free(o.before);
	return status;
}
