/* cli/cmd_stats.c: perfan stats: record counts per type and per event, in the
 * lines of `perf report --stats` so the two can be compared with diff. */
#include <getopt.h>
#include <stdio.h>

#include <perfan/perfan.h>

#include "cli.h"
#include "opt.h"

#define CMD "stats"

static const char head[] =
	"usage: perfan stats [--json] [-o FILE] FILE\n"
	"\n"
	"Count the records of a perf.data file per record type and the samples\n"
	"per event, printed as `perf report --stats` prints them.\n"
	"FILE may be '-' for standard input (pipe mode).\n"
	"\n";

struct opts {
	struct perfan_recstats_write_opts wo;
	const char *out;
};

static const struct cli_opt options[] = {
	CLI_FLAG("json", wo.json, "print a JSON object instead"),
	CLI_OUTPUT(out),
	CLI_END,
};

static void warn_cb(enum perfan_log_level lvl, const char *msg, void *payload)
{
	(void)payload;
	if (lvl == PERFAN_LOG_WARN)
		cli_warn(CMD, "%s", msg);
}

static int write_stats(const void *rs, FILE *fp, const void *wo)
{
	return perfan_recstats_write(rs, fp, wo);
}

int cmd_stats(int argc, char **argv)
{
	struct opts o = {PERFAN_OPTS_INIT(struct perfan_recstats_write_opts),
			 NULL};
	int status = cli_opt_parse(argc, argv, options, &o, head, CMD, 0);
	if (status >= 0)
		return status;
	if (optind + 1 != argc) {
		cli_opt_usage(stderr, options, head);
		return 2;
	}
	const char *in[] = {argv[optind]};
	if (cli_output_guard(CMD, o.out, in, 1))
		return 1;
	struct perfan_header_read_opts ro =
		PERFAN_OPTS_INIT(struct perfan_header_read_opts);
	ro.log = warn_cb;
	perfan_recstats *rs = NULL;
	status = 0;
	if (perfan_recstats_read(&rs, argv[optind], &ro)) {
		/* what was counted is printed, then the error; -o keeps no
		 * file then (an existing one stays as it was) */
		cli_error(CMD, "%s", perfan_error_last());
		status = 1;
	}
	if (!rs)
		return 1;
	status = cli_write(CMD, o.out, status, write_stats, rs, &o.wo);
	perfan_recstats_free(rs);
	return status;
}
