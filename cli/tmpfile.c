/* cli/tmpfile.c: the temporary file -o writes before renaming it over the
 * output, removed when SIGINT, SIGTERM, SIGHUP or SIGPIPE kills the
 * command while it exists. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* What the handler may read: the one temporary file's name, in a static
 * buffer (no allocation in a handler), and whether it is to be removed. */
static char tmp_name[PATH_MAX + 16];
static volatile sig_atomic_t armed;

static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
#define NR_SIGNALS (sizeof(signals) / sizeof(signals[0]))
/* which of SIGNALS this file handles now: those that would have killed
 * the command (an ignored one, as nohup leaves SIGHUP, or one with a
 * handler of its own, stays as it was) */
static int handled[NR_SIGNALS];

/* Only async-signal-safe calls: remove the file, then die of SIG as the
 * default action would (the shell then sees 128 + SIG). */
static void on_signal(int sig)
{
	int e = errno;
	if (armed)
		unlink(tmp_name);
	signal(sig, SIG_DFL);
	raise(sig); /* blocked in the handler: delivered when it returns */
	errno = e;
}

static void handle(void)
{
	for (size_t i = 0; i < NR_SIGNALS; i++) {
		struct sigaction old, sa = {.sa_handler = on_signal};
		sigemptyset(&sa.sa_mask);
		handled[i] = !sigaction(signals[i], NULL, &old) &&
			     old.sa_handler == SIG_DFL &&
			     !(old.sa_flags & SA_SIGINFO) &&
			     !sigaction(signals[i], &sa, NULL);
	}
}

static void unhandle(void)
{
	for (size_t i = 0; i < NR_SIGNALS; i++)
		if (handled[i])
			signal(signals[i], SIG_DFL);
}

int cli_tmp_create(const char *path, char **tmp)
{
	*tmp = NULL;
	if (armed) { /* one at a time: the handler knows one name */
		errno = EBUSY;
		return -1;
	}
	int n = snprintf(tmp_name, sizeof(tmp_name), "%s.tmpXXXXXX", path);
	if (n < 0 || (size_t)n >= sizeof(tmp_name)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* Armed before the file exists, so that no signal falls between its
	 * making and its arming. mkstemp writes the name into the buffer
	 * before it makes the file: a signal before that removes a name
	 * that does not exist (O_EXCL: nobody else's file has it). */
	handle();
	armed = 1;
	int fd = mkstemp(tmp_name);
	int e = errno;
	if (fd >= 0 && !(*tmp = strdup(tmp_name))) {
		e = ENOMEM;
		unlink(tmp_name);
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		armed = 0;
		unhandle();
	}
	errno = e;
	return fd;
}

int cli_tmp_finish(const char *tmp, const char *path)
{
	int rc = path ? rename(tmp, path) : 0;
	int e = errno;
	if (!path || rc)
		unlink(tmp);
	armed = 0;
	unhandle();
	errno = e;
	return rc;
}
