/* cli/cmd_header.c: perfan header: the file header and features of a
 * perf.data, in the lines `perf report --header-only` prints, or as JSON. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "cli.h"
#include "progress.h"

#define CMD "header"

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: perfan header [--json] [-I] [-o FILE] PERF.DATA\n"
		"\n"
		"Show the header and the features of a perf.data (file or pipe "
		"mode;\n"
		"'-' reads standard input), as 'perf report --header-only' "
		"does,\n"
		"followed by the build-id table.\n"
		"\n"
		"Options:\n"
		"  --json          print the same facts as a JSON object\n"
		"  -I, --full      show the topology features in full\n"
		"  -o, --output FILE\n"
		"                  write to FILE (replaced only on success)\n"
		"  -h, --help      show this help\n");
}

static int bad_usage(void)
{
	fprintf(stderr, "usage: perfan header [--json] [-I] [-o FILE] "
			"PERF.DATA\n(perfan header --help tells more)\n");
	return 2;
}

static int write_header(const void *h, FILE *fp, const void *wo)
{
	return perfan_header_write(h, fp, wo);
}

/* ---- the command ----------------------------------------------------------- */

int cmd_header(int argc, char **argv)
{
	int json = 0, full = 0;
	const char *out_path = NULL, *path = NULL;
	int opts_done = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (opts_done || a[0] != '-' || !strcmp(a, "-")) {
			if (path) {
				cli_error(CMD,
					  "more than one file given: '%s' "
					  "and '%s'",
					  path, a);
				return bad_usage();
			}
			path = a;
		} else if (!strcmp(a, "--")) {
			opts_done = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--json")) {
			json = 1;
		} else if (!strcmp(a, "-I") || !strcmp(a, "--full")) {
			full = 1;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (i + 1 >= argc) {
				cli_error(CMD, "%s needs a file name", a);
				return bad_usage();
			}
			out_path = argv[++i];
		} else if (!strncmp(a, "--output=", 9)) {
			out_path = a + 9;
		} else if (!strncmp(a, "-o", 2)) {
			out_path = a + 2;
		} else {
			cli_error(CMD, "unknown option '%s'", a);
			return bad_usage();
		}
	}
	if (!path) {
		cli_error(CMD, "no perf.data file given");
		return bad_usage();
	}

	if (cli_output_guard(CMD, out_path, &path, 1))
		return 1;
	struct perfan_header_read_opts ro =
		PERFAN_OPTS_INIT(struct perfan_header_read_opts);
	ro.log = cli_progress_log; /* "perfan header: warning: ..." */
	ro.log_payload = (void *)CMD;
	perfan_header *h = NULL;
	if (perfan_header_read(&h, path, &ro) < 0) {
		cli_error(CMD, "%s", perfan_error_last());
		return 1;
	}
	struct perfan_header_write_opts wo =
		PERFAN_OPTS_INIT(struct perfan_header_write_opts);
	wo.json = json;
	wo.full = full;
	wo.name = path;
	int status = cli_write(CMD, out_path, 0, write_header, h, &wo);
	perfan_header_free(h);
	return status;
}
