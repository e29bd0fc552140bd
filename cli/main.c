/* cli/main.c: the perfan command: a table of subcommands. */
#include <stdio.h>
#include <string.h>

#include <perfan/perfan.h>

#include "cli.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{"annotate", cmd_annotate,
	 "hot instructions and source lines of the hottest functions"},
	{"classify", cmd_classify,
	 "diagnose perf stat counters: memory, branches, front end"},
	{"collapse", cmd_collapse, "fold stacks into lines for flame graphs"},
	{"convert", cmd_convert, "write a profile as pprof or folded stacks"},
	{"critical", cmd_critical,
	 "the critical path of a thread: what it ran and waited on"},
	{"diff", cmd_diff, "compare profiles, with significance across runs"},
	{"dump", cmd_dump,
	 "every thread at a moment: its state and stack (py-spy dump)"},
	{"flamegraph", cmd_flamegraph, "draw an interactive SVG flame graph"},
	{"gil", cmd_gil, "who waited for the GIL, and who held it meanwhile"},
	{"gpu", cmd_gpu,
	 "the CPU/GPU split of a GPU trace per step, and what starved the GPU"},
	{"header", cmd_header, "show the header and features of a perf.data"},
	{"record", cmd_record,
	 "run perf record with what perfan's analyses need"},
	{"report", cmd_report, "top functions by self and total share"},
	{"scaling", cmd_scaling, "fit how time grows with the input size"},
	{"stats", cmd_stats, "count records per type and per event"},
	{"timeline", cmd_timeline,
	 "every thread over time: running, runnable, waiting, wakeups"},
	{"triage", cmd_triage, "the first answers from one recording"},
};

#define NCMD (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *fp)
{
	fprintf(fp, "usage: perfan [--version] [--help] COMMAND [ARGS]\n\n"
		    "Commands:\n");
	for (size_t i = 0; i < NCMD; i++)
		fprintf(fp, "  %-12s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(fp, "\n'perfan COMMAND --help' describes a command; "
		    "man perfan-COMMAND has the details.\n");
}

int main(int argc, char **argv)
{
	perfan_heap_tune(); /* a hint: perfan runs as well without it */
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") ||
	    !strcmp(name, "help")) {
		if (argc > 2 && strcmp(name, "help") == 0) {
			for (size_t i = 0; i < NCMD; i++)
				if (!strcmp(argv[2], commands[i].name)) {
					char *args[] = {argv[2], "--help",
							NULL};
					return commands[i].fn(2, args);
				}
		}
		usage(stdout);
		return 0;
	}
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		printf("perfan %s\n", perfan_version());
		return 0;
	}
	for (size_t i = 0; i < NCMD; i++)
		if (!strcmp(name, commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "perfan: '%s' is not a perfan command\n\n", name);
	usage(stderr);
	return 2;
}
