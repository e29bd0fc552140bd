/* cli/cmd_header.c: perfan header: the file header and features of a
 * perf.data, in the lines `perf report --header-only` prints, or what a GPU
 * profiler's trace holds; or as JSON. */
#include <getopt.h>
#include <stdio.h>
#include <sys/stat.h>

#include <perfan/perfan.h>

#include "cli.h"
#include "opt.h"
#include "progress.h"

#define CMD "header"

struct opts {
	struct perfan_header_write_opts wo;
	const char *out;
};

static const char head[] =
	"usage: perfan header [--json] [-I] [-o FILE] PERF.DATA|TRACE\n"
	"\n"
	"Show the header and the features of a perf.data (file or pipe mode;\n"
	"'-' reads standard input), as 'perf report --header-only' does,\n"
	"followed by the build-id table. For a GPU profiler's trace\n"
	"(torch.profiler's .json or .json.gz): its layout, schema, base time,\n"
	"rank, devices, events per kind, CPU threads and GPU streams.\n"
	"\n";

static const struct cli_opt options[] = {
	CLI_FLAG("json", wo.json, "print the same facts as a JSON object"),
	{CLI_OPT_(CLI_OPT_FLAG, "full", NULL,
		  "show the topology features in full",
		  offsetof(struct opts, wo.full)),
	 .short_name = 'I', .value = 1},
	CLI_OUTPUT(out),
	CLI_END,
};

static int write_header(const void *h, FILE *fp, const void *wo)
{
	return perfan_header_write(h, fp, wo);
}

static int write_trace(const void *t, FILE *fp, const void *wo)
{
	return perfan_trace_header_write(t, fp, wo);
}

/* PATH, a file of a trace format: its trace written as O asks, into *STATUS
 * (1 on an error). Returns 0 when PATH is no trace: a perf.data, or
 * anything else perfan_header_read then names. */
static int trace_header(const char *path, const struct opts *o, int *status)
{
	perfan_source *s = NULL;
	perfan_trace *t = NULL;
	struct stat st;
	/* a stream (a FIFO, '-', <(...)) is read once: as a perf.data, by
	 * perfan_header_read, which a look at its first bytes here would
	 * rob of them */
	if (stat(path, &st) || !S_ISREG(st.st_mode) ||
	    perfan_source_open(&s, path, NULL) < 0 ||
	    !(perfan_source_caps(s) & PERFAN_SOURCE_TRACE)) {
		perfan_source_free(s);
		return 0;
	}
	struct perfan_trace_header_opts to =
		PERFAN_OPTS_INIT(struct perfan_trace_header_opts);
	to.json = o->wo.json;
	to.name = path;
	to.format = perfan_source_format(s);
	if (perfan_source_trace(s, &t) < 0) {
		cli_error(CMD, "%s", perfan_error_last());
		*status = 1;
	} else {
		*status = cli_write(CMD, o->out, 0, write_trace, t, &to);
	}
	perfan_trace_free(t);
	perfan_source_free(s);
	return 1;
}

int cmd_header(int argc, char **argv)
{
	struct opts o = {
		.wo = PERFAN_OPTS_INIT(struct perfan_header_write_opts)};
	int status = cli_opt_parse(argc, argv, options, &o, head, CMD, 0);
	if (status >= 0)
		return status;
	if (optind + 1 != argc)
		return cli_opt_error(CMD, options, head, "%s",
				     optind < argc ? "one PERF.DATA or TRACE, "
						     "not more"
						   : "no perf.data file given");
	const char *path = argv[optind];
	if (cli_output_guard(CMD, o.out, &path, 1))
		return 1;
	if (trace_header(path, &o, &status))
		return status;
	struct perfan_header_read_opts ro =
		PERFAN_OPTS_INIT(struct perfan_header_read_opts);
	ro.log = cli_progress_log; /* "perfan header: warning: ..." */
	ro.log_payload = (void *)CMD;
	perfan_header *h = NULL;
	if (perfan_header_read(&h, path, &ro) < 0) {
		cli_error(CMD, "%s", perfan_error_last());
		return 1;
	}
	o.wo.name = path;
	status = cli_write(CMD, o.out, 0, write_header, h, &o.wo);
	perfan_header_free(h);
	return status;
}
