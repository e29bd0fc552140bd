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
	struct perfan_perfdata_opts o =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	o.unordered = 1;
	o.skip_sample_fields = 1;
	o.log = warn_cb;
	perfan_perfdata *pd;
	if (perfan_perfdata_open(&pd, argv[optind], &o)) {
		cli_error("stats", "%s", perfan_error_last());
		return 1;
	}
	perfan_recstats *rs = NULL;
	int status = 0;
	if (perfan_recstats_new(&rs, pd)) {
		/* print what was counted, then the error */
		cli_error("stats", "%s", perfan_error_last());
		status = 1;
	}
	struct cli_output out;
	if (!rs) {
		status = 1;
	} else if (cli_output_open(&out, out_path)) {
		cli_error("stats", "cannot write %s", out_path);
		status = 1;
	} else {
		struct perfan_recstats_write_opts wo =
			PERFAN_OPTS_INIT(struct perfan_recstats_write_opts);
		wo.json = json;
		perfan_recstats_write(rs, out.fp, &wo);
		/* what was counted before an error goes to stdout, but -o
		 * keeps no file then (an existing one stays as it was) */
		if (cli_output_close(&out, status == 0))
			status = 1;
	}
	perfan_recstats_free(rs);
	perfan_perfdata_free(pd);
	return status;
}
