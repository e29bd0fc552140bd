/* load/record_run.c: running perfan record's plan: perf probe, perf record
 * (stopped by SIGINT after the duration), and the probes' cleanup whatever
 * happened. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <perfan/record.h>

#include "load/record_plan.h"
#include "util/error.h"
#include "util/opts.h"

static volatile sig_atomic_t child_pid, interrupted;

/* SIGINT / SIGTERM to perfan while perf records: perf stops and writes
 * its file (it gets the terminal's SIGINT itself too). */
static void forward(int sig)
{
	(void)sig;
	interrupted = 1;
	if (child_pid > 0)
		kill((pid_t)child_pid, SIGINT);
}

/* Start ARGV with stdout and stderr on FD (-1: inherited). */
static pid_t start(char *const *argv, int fd)
{
	pid_t c = fork();
	if (c == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "perfan record: %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	return c;
}

static int status_of(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
}

static int wait_for(pid_t c)
{
	int st = 0;
	while (waitpid(c, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	return status_of(st);
}

static int run_quiet(char *const *argv, int fd)
{
	pid_t c = start(argv, fd);
	return c < 0 ? -1 : wait_for(c);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* perf record: SIGINT after DURATION seconds (0: none), SIGINT and SIGTERM
 * forwarded meanwhile. Its exit status. */
static int run_record(char *const *argv, double duration)
{
	struct sigaction sa = {0}, old_int, old_term;
	sa.sa_handler = forward;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	interrupted = 0;
	pid_t c = start(argv, -1);
	int rc;
	if (c < 0) {
		rc = -1;
	} else {
		child_pid = c;
		int st = 0, done = 0;
		double end = now() + duration;
		while (duration > 0 && !done) {
			pid_t w = waitpid(c, &st, WNOHANG);
			if (w == c) {
				done = 1;
			} else if (now() >= end) {
				interrupted = 1;
				kill(c, SIGINT);
				break;
			} else {
				struct timespec ts = {0, 20000000};
				nanosleep(&ts, NULL);
			}
		}
		rc = done ? status_of(st) : wait_for(c);
		child_pid = 0;
		/* perf record stopped by SIGINT writes its file, then raises
		 * the signal again: that is how it ends when asked to */
		if (interrupted && rc == 128 + SIGINT)
			rc = 0;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return rc;
}

static const char *name_of(char *const *argv)
{
	return argv[1] ? argv[1] : argv[0];
}

int perfan_record_run(const perfan_record_plan *p,
		      const struct perfan_record_run_opts *opts)
{
	if (!p)
		return perfan__err_null(__func__, "p");
	struct perfan_record_run_opts o;
	int err = PERFAN__OPTS_COPY(o, opts);
	if (err)
		return err;
	int null = -1, fd = o.sz && o.log_fd >= 0 ? o.log_fd : -1;
	if (fd < 0)
		fd = null = open("/dev/null", O_WRONLY);
	size_t i = 0, n = p->res.nr_steps;
	int rc = 0;
	/* up to perf record: a probe that fails stops the run */
	for (; i < n && !rc; i++) {
		const struct perfan_record_step *s = &p->steps[i];
		if (s->kind == PERFAN_RECORD_STEP_CLEANUP) {
			run_quiet(s->argv, fd);
		} else if (s->kind == PERFAN_RECORD_STEP_PROBE) {
			int st = run_quiet(s->argv, fd);
			if (st)
				rc = perfan__err(
					st < 0 ? PERFAN_EIO
					       : PERFAN_EUNSUPPORTED,
					"%s %s -q -x %s %s failed (exit status "
					"%d): the GIL's probes could not be added",
					s->argv[0], name_of(s->argv),
					s->argv[4], s->argv[5], st);
		} else {
			rc = run_record(s->argv, p->res.duration);
			if (rc < 0)
				rc = perfan__err(PERFAN_EIO,
						 "could not start %s: %s",
						 s->argv[0], strerror(errno));
			i++;
			break;
		}
	}
	/* the cleanup after perf record, whatever happened */
	for (; i < n; i++)
		if (p->steps[i].kind == PERFAN_RECORD_STEP_CLEANUP)
			run_quiet(p->steps[i].argv, fd);
	if (null >= 0)
		close(null);
	return rc;
}
