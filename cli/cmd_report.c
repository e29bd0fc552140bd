/* cli/cmd_report.c: perfan report: where the time goes, by command, thread,
 * module and function, with self and total (children) shares, the Amdahl
 * bound of each row and call graphs, from a perf.data, perf script text or
 * folded stacks, in the columns of perf report --stdio or as JSON. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "args.h"
#include "cli.h"
#include "pstats.h"

#define CMD "report"

static const char usage_text[] =
	"usage: perfan report [options] [FILE]\n"
	"\n"
	"Show where the time goes in FILE (default perf.data, '-' for standard\n"
	"input): a perf.data recording, `perf script` text, folded stacks,\n"
	"py-spy's raw output, speedscope JSON, bpftrace's printed stack maps (a\n"
	"column per map) or a cProfile dump (its own report: see man\n"
	"perfan-report), told apart by their content. Rows are keyed as\n"
	"--sort says, with their total\n"
	"share (children: every stack the row is on, once) and self share\n"
	"(stacks that end in it), and the Amdahl bound: how many times faster\n"
	"the whole could at most be if the row took no time. One section per\n"
	"event, as perf report --stdio prints them. With --off-cpu or --wall\n"
	"(perf.data), first a table per thread: its wall time, on-CPU and\n"
	"off-CPU time by state, the CPU/wall ratio and the call sites it\n"
	"blocked at most; the rows are then weighed in ns of that time.\n"
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
	"  --native-detail    (Python) after the rows, under each Python\n"
	"                     function the native functions its self time\n"
	"                     ran in (list_contains, PyObject_RichCompare, ...)\n"
	"  --json             print JSON instead of text\n" CLI_ARGS_HELP
	"  --dso DSOS         only frames of these modules (comma-separated)\n"
	"                     make rows, as perf report --dsos\n"
	"  -o, --output FILE  write to FILE (atomically) instead of stdout\n"
	"  -h, --help         show this help\n";

struct opts {
	const char *sort, *dsos, *out, *graph_arg;
	int no_children, graph, json, no_speedup, native_detail;
	double percent_limit;
	size_t limit;
	struct perfan_load_opts load;
};

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
	return cli_usage_error(CMD, usage_text, fmt, arg);
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

static int write_report(const void *lr, FILE *fp, const void *wo)
{
	return perfan_report_write(perfan_load_report_rows(lr), fp, wo);
}

/* A --sort that none of report's keys is a usage error (2), unless a
 * cProfile dump's report takes it (an input that is none says so after
 * reading). 1 for another error (printed), else 0. */
static int check_sort(const struct perfan_report_opts *rep)
{
	int rc = perfan_report_check(rep);
	/* pstats' keys (tottime, ...) are for a cProfile dump only */
	if (rc == PERFAN_EINVAL && rep->sort &&
	    perfan_pstats_sort_parse(rep->sort) >= 0)
		rc = 0;
	if (rc == PERFAN_EINVAL)
		return usage_error("--sort: %s", perfan_error_last());
	if (rc) {
		cli_error(CMD, "%s", perfan_error_last());
		return 1;
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
		O_DSO,
		O_NATIVE_DETAIL,
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
		{"native-detail", no_argument, NULL, O_NATIVE_DETAIL},
		{"dso", required_argument, NULL, O_DSO},
		{"dsos", required_argument, NULL, O_DSO},
		CLI_ARGS_LONGOPTS,
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct opts o;
	memset(&o, 0, sizeof(o));
	cli_args_init(&o.load, CMD);
	int opt;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "s:g:o:h", longopts, NULL)) !=
	       -1) {
		int shared = cli_args_option(&o.load, opt, optarg, CMD);
		if (shared < 0) {
			fprintf(stderr, "\n%s", usage_text);
			return 2;
		}
		if (shared)
			continue;
		switch (opt) {
		case 's': o.sort = optarg; break;
		case O_CHILDREN: o.no_children = 0; break;
		case O_NO_CHILDREN: o.no_children = 1; break;
		case 'g':
			o.graph_arg = optarg;
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
		case O_NATIVE_DETAIL: o.native_detail = 1; break;
		case O_DSO: o.dsos = optarg; break;
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
	struct perfan_report_opts rep =
		PERFAN_OPTS_INIT(struct perfan_report_opts);
	rep.sort = o.sort;
	rep.no_children = o.no_children;
	rep.dsos = o.dsos;
	rep.percent_limit = o.percent_limit;
	rep.limit = o.limit;
	rep.call_graph = o.graph;
	rep.no_speedup = o.no_speedup;
	/* a root per thread for the pid key, and for the call sites of each
	 * thread of a time view */
	o.load.root = sort_has_pid(o.sort) || o.load.time_view
			      ? PERFAN_ROOT_PID_TID
			      : PERFAN_ROOT_COMM;
	o.load.folded_process_root = 1; /* stackcollapse-perf.pl's comm */

	/* a bad --sort is a usage error, found before reading anything */
	int rc = check_sort(&rep);
	if (rc)
		return rc;

	/* what was read is still reported after an error, as perf report
	 * shows the samples before a damaged record */
	o.load.want_calls = 1;
	o.load.keep_native = o.native_detail;
	perfan_load *l = NULL;
	int status = cli_read(&l, path, &o.load, CMD);
	if (!l)
		return 1;
	const struct perfan_load_info *res = perfan_load_info(l);
	perfan_pstats *dump = perfan_load_calls(l);
	if (dump || (res->caps & PERFAN_SOURCE_CALLS)) {
		/* a cProfile dump has its own report, with its own --sort */
		if (dump)
			status = cli_pstats_report(dump, res->name, o.sort,
						   o.limit, o.json, o.graph_arg,
						   o.out, CMD);
		perfan_load_free(l);
		return status;
	}
	if (perfan_report_check(&rep) == PERFAN_EINVAL) { /* a pstats key */
		perfan_load_free(l);
		return usage_error("--sort: %s", perfan_error_last());
	}
	/* nothing to show for an input that could not be opened or is none
	 * of the three */
	if (status && !res->format) {
		perfan_load_free(l);
		return 1;
	}
	perfan_load_report *lr = NULL;
	if (perfan_load_report_new(
		    &lr, l, &rep,
		    o.native_detail ? PERFAN_LOAD_REPORT_NATIVE_DETAIL : 0)) {
		cli_error(CMD, "%s", perfan_error_last());
		status = 1;
	} else {
		struct perfan_report_write_opts wo =
			PERFAN_OPTS_INIT(struct perfan_report_write_opts);
		wo.format = o.json ? PERFAN_REPORT_JSON : PERFAN_REPORT_TEXT;
		perfan_load_report_write_opts(lr, &wo);
		status = cli_write(CMD, o.out, status, write_report, lr, &wo);
	}
	perfan_load_report_free(lr);
	perfan_load_free(l);
	return status;
}
