/* cli/cmd_report.c: perfan report: where the time goes, by command, thread,
 * module and function, with self and total (children) shares, the Amdahl
 * bound of each row and call graphs, from a perf.data, perf script text or
 * folded stacks, in the columns of perf report --stdio or as JSON. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <perfan/perfan.h>

#include "args.h"
#include "cli.h"
#include "pstats.h"

#define CMD "report"

static const char head[] =
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
	"\n";

struct opts {
	struct perfan_report_opts rep;
	struct perfan_load_opts load;
	const char *out, *graph_arg;
	int json, native_detail, all;
	int wide; /* rows as long as their keys */
};

/* --sort-threads KEY */
static const char *sort_threads(void *o, const char *arg)
{
	int k = perfan_threads_sort_parse(arg);
	if (k < 0)
		return "--sort-threads: one of tid, on-cpu, gil, waiting, wall";
	((struct opts *)o)->load.thread_sort = k;
	return NULL;
}

/* -g MODE: kept as given too, for a cProfile dump's report */
static const char *call_graph(void *o, const char *arg)
{
	((struct opts *)o)->graph_arg = arg;
	return perfan_report_opts_set(&((struct opts *)o)->rep, "call-graph",
				      arg)
		       ? perfan_error_last()
		       : NULL;
}

#define REPORT(name, arg, help) CLI_SET(name, arg, rep, cli_set_report, help)
static const struct cli_opt options[] = {
	{CLI_OPT_(CLI_OPT_SET, "sort", "KEYS",
		  "row keys, comma-separated, from comm, pid, dso,\n"
		  "sym (default comm,dso,sym)",
		  offsetof(struct opts, rep)),
	 .short_name = 's', .set = cli_set_report},
	REPORT("children", NULL,
	       "order by total share, children included (default)"),
	REPORT("no-children", NULL, "order by self share only"),
	{CLI_OPT_(CLI_OPT_CALL, "call-graph", "MODE",
		  "\nunder each row its call graph: caller (paths\n"
		  "from the outermost caller through the row) or\n"
		  "callee (the row, then who calls it)",
		  0),
	 .short_name = 'g', .call = call_graph},
	REPORT("percent-limit", "PCT",
	       "\nleave out rows and call graph branches below\n"
	       "PCT percent"),
	REPORT("limit", "N", "at most N rows per event"),
	REPORT("no-speedup", NULL, "leave out the Max speedup column"),
	CLI_FLAG("wide", wide,
		 "rows as long as their keys (by default a row\n"
		 "fits 160 columns, long paths cut in the middle)"),
	CLI_FLAG("native-detail", native_detail,
		 "(Python) after the rows, under each Python\n"
		 "function the native functions its self time\n"
		 "ran in (list_contains, PyObject_RichCompare, ...)"),
	CLI_FLAG("json", json, "print JSON instead of text"),
	{CLI_OPT_(CLI_OPT_CALL, "sort-threads", "KEY",
		  "(time views) order the thread table by KEY:\n"
		  "tid (default), on-cpu, gil, waiting, wall",
		  0),
	 .call = sort_threads},
	CLI_FLAG("all", all,
		 "(time views) the thread table of a system-wide\n"
		 "recording lists every process, not only the\n"
		 "busiest"),
	CLI_TABLE(cli_load_table, load),
	REPORT("dso", "DSOS",
	       "only frames of these modules (comma-separated)\n"
	       "make rows, as perf report --dsos"),
	REPORT("dsos", "DSOS", NULL),
	CLI_OUTPUT(out),
	CLI_END,
};

static int usage_error(const char *fmt, const char *arg)
{
	return cli_opt_error(CMD, options, head, fmt, arg);
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

/* The report of the input L (read with STATUS): the exit status. */
static int report(perfan_load *l, const struct opts *o, int status)
{
	const struct perfan_load_info *res = perfan_load_info(l);
	perfan_pstats *dump = perfan_load_calls(l);
	if (dump || (res->caps & PERFAN_SOURCE_CALLS)) {
		/* a cProfile dump has its own report, with its own --sort */
		return dump ? cli_pstats_report(dump, res->name, o->rep.sort,
						o->rep.limit, o->json,
						o->graph_arg, o->out, CMD)
			    : status;
	}
	if (perfan_report_check(&o->rep) == PERFAN_EINVAL) /* a pstats key */
		return usage_error("--sort: %s", perfan_error_last());
	/* nothing to show for an input that could not be opened or is none
	 * of the three */
	if (status && !res->format)
		return 1;
	perfan_load_report *lr = NULL;
	if (perfan_load_report_new(
		    &lr, l, &o->rep,
		    (o->native_detail ? PERFAN_LOAD_REPORT_NATIVE_DETAIL : 0) |
			    (o->all ? PERFAN_LOAD_REPORT_ALL_THREADS : 0))) {
		cli_error(CMD, "%s", perfan_error_last());
		status = 1;
	} else {
		struct perfan_report_write_opts wo =
			PERFAN_OPTS_INIT(struct perfan_report_write_opts);
		wo.format = o->json ? PERFAN_REPORT_JSON : PERFAN_REPORT_TEXT;
		perfan_load_report_write_opts(lr, &wo);
		wo.wide = o->wide;
		status = cli_write(CMD, o->out, status, write_report, lr, &wo);
	}
	perfan_load_report_free(lr);
	return status;
}

int cmd_report(int argc, char **argv)
{
	struct opts o = {.rep = PERFAN_OPTS_INIT(struct perfan_report_opts)};
	cli_args_init(&o.load, CMD);
	int status = cli_opt_parse(argc, argv, options, &o, head, CMD, 0);
	if (status >= 0)
		return status;
	if (optind + 1 < argc) {
		cli_opt_usage(stderr, options, head);
		return 2;
	}
	const char *path = optind < argc ? argv[optind] : "perf.data";
	if (cli_output_guard(CMD, o.out, &path, 1))
		return 1;
	/* a root per thread for the pid key, and for the call sites of each
	 * thread of a time view */
	o.load.root = sort_has_pid(o.rep.sort) || o.load.time_view
			      ? PERFAN_ROOT_PID_TID
			      : PERFAN_ROOT_COMM;
	o.load.folded_process_root = 1; /* stackcollapse-perf.pl's comm */

	/* a bad --sort is a usage error, found before reading anything */
	int rc = check_sort(&o.rep);
	if (rc)
		return rc;

	/* what was read is still reported after an error, as perf report
	 * shows the samples before a damaged record */
	o.load.want_calls = 1;
	o.load.keep_native = o.native_detail;
	/* a time view's GIL section reads the input again: a stream is kept
	 * as it is read */
	o.load.keep_input = !!o.load.time_view;
	perfan_load *l = NULL;
	status = cli_read(&l, path, &o.load, CMD);
	if (!l)
		return 1;
	status = report(l, &o, status);
	perfan_load_free(l);
	return status;
}
