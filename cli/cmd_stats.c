/* cli/cmd_stats.c: perfan stats: record counts per type and per event, in the
 * lines of `perf report --stats` so the two can be compared with diff. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "cli.h"

static const char usage_text[] =
	"usage: perfan stats [--json] [-o FILE] FILE\n"
	"\n"
	"Count the records of a perf.data file per record type and the samples\n"
	"per event, printed as `perf report --stats` prints them.\n"
	"FILE may be '-' for standard input (pipe mode).\n"
	"\n"
	"  --json        print a JSON object instead\n"
	"  -o, --output FILE  write to FILE (atomically) instead of stdout\n"
	"  -h, --help    show this help\n";

static void warn_cb(enum perfan_log_level lvl, const char *msg, void *payload)
{
	(void)payload;
	if (lvl == PERFAN_LOG_WARN)
		cli_warn("stats", "%s", msg);
}

static int write_stats(const void *rs, FILE *fp, const void *wo)
{
	return perfan_recstats_write(rs, fp, wo);
}

int cmd_stats(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int json = 0, opt;
	const char *out_path = NULL;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j': json = 1; break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return 2;
		}
	}
	if (optind + 1 != argc) {
		fputs(usage_text, stderr);
		return 2;
	}
	const char *in[] = {argv[optind]};
	if (cli_output_guard("stats", out_path, in, 1))
		return 1;
	struct perfan_header_read_opts ro =
		PERFAN_OPTS_INIT(struct perfan_header_read_opts);
	ro.log = warn_cb;
	perfan_recstats *rs = NULL;
	int status = 0;
	if (perfan_recstats_read(&rs, argv[optind], &ro)) {
		/* what was counted is printed, then the error; -o keeps no
		 * file then (an existing one stays as it was) */
		cli_error("stats", "%s", perfan_error_last());
		status = 1;
	}
	if (!rs)
		return 1;
	struct perfan_recstats_write_opts wo =
		PERFAN_OPTS_INIT(struct perfan_recstats_write_opts);
	wo.json = json;
	status = cli_write("stats", out_path, status, write_stats, rs, &wo);
	perfan_recstats_free(rs);
	return status;
}
