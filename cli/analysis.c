/* cli/analysis.c: one analysis over one perf.data, for the commands that
 * are just that (cli/analysis.h). */
#include "analysis.h"

#include <getopt.h>

#include "cli.h"

int cli_one_perfdata(const char *cmd, int argc, char **argv,
		     const struct cli_opt *options, void *o, const char *head,
		     const char *const *out, const char **path)
{
	int status = cli_opt_parse(argc, argv, options, o, head, cmd, 0);
	*path = argv[argc - 1];
	if (status >= 0)
		return status;
	if (optind != argc - 1)
		return cli_opt_error(cmd, options, head, "%s",
				     optind >= argc ? "no perf.data"
						    : "one perf.data only");
	return cli_output_guard(cmd, *out, path, 1) ? 1 : -1;
}

int cli_python_view(const struct perfan_load_opts *lo)
{
	return lo->python_view < 0 ? PERFAN_PY_PYTHON : lo->python_view;
}

struct job {
	const struct cli_analysis *a;
	const void *result;
	int format;
};

static int write_job(const void *arg, FILE *fp)
{
	const struct job *j = arg;
	return j->a->write(j->result, fp, j->format);
}

int cli_analysis_run(const struct cli_analysis *a,
		     const struct perfan_load_opts *lo, const char *path,
		     const void *opts, int format, const char *out)
{
	perfan_load *l = NULL;
	void *r = NULL;
	int err = perfan_load_new(&l, lo);
	if (!err)
		err = a->run(&r, l, path, opts);
	/* advice (PERFAN_LOAD_ADVISED) said why; the result still shows */
	int status = err != 0;
	if (err < 0)
		cli_error(a->cmd, "%s", perfan_error_last());
	if (r && a->check && a->check(r, path))
		status = 1;
	if (r && a->profile && cli_svg_path(out)) {
		const perfan_profile *p = a->profile(r);
		if (p) {
			struct perfan_flamegraph_opts fo = PERFAN_FG_OPTS_INIT;
			fo.title = a->title;
			fo.countname = "ns";
			status = cli_write_flamegraph(a->cmd, p, &fo, out,
						      status);
		} else {
			cli_error(a->cmd, "%s: %s", path, a->no_profile);
			status = 1;
		}
	} else if (r) {
		struct job j = {a, r, format};
		if (cli_write_result(a->cmd, out, write_job, &j))
			status = 1;
	}
	a->free(r);
	perfan_load_free(l);
	return status;
}
