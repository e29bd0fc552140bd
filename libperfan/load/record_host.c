/* load/record_host.c: the facts of this system that perfan record's plan
 * depends on: perf_event_paranoid, the user, the target's command line,
 * environment and libpython. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <perfan/record.h>

#include "resolve/pylib.h"
#include "util/error.h"
#include "util/log.h"
#include "util/opts.h"

extern char **environ;

/* FILE's bytes (at most 1 MB), NUL-terminated, malloc'd; NULL if not read. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	while (buf) {
		size_t r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (n < cap || cap >= (1u << 20))
			break;
		char *b = realloc(buf, 2 * cap + 1);
		if (!b) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = b;
		cap *= 2;
	}
	fclose(f);
	if (buf) {
		buf[n] = '\0';
		*len = n;
	}
	return buf;
}

/* The NUL-separated strings of BUF[0..LEN) as a NULL-terminated vector
 * whose first element owns BUF (free(v[0]), free(v)). */
static char **split(char *buf, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += !buf[i];
	char **v = calloc(n + 2, sizeof(*v));
	if (!v)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
		v[k++] = buf + i;
	return v;
}

static void free_vec(char **v)
{
	if (v) {
		free(v[0]);
		free(v);
	}
}

static char **proc_vec(int32_t pid, const char *what)
{
	char path[64];
	size_t len = 0;
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, what);
	char *buf = slurp(path, &len);
	if (!buf || !len) {
		free(buf);
		return NULL;
	}
	char **v = split(buf, len);
	if (!v)
		free(buf);
	return v;
}

static char **copy_env(void)
{
	size_t len = 0;
	for (char **e = environ; e && *e; e++)
		len += strlen(*e) + 1;
	char *buf = malloc(len + 1);
	if (!buf)
		return NULL;
	size_t at = 0;
	for (char **e = environ; e && *e; e++) {
		size_t l = strlen(*e) + 1;
		memcpy(buf + at, *e, l);
		at += l;
	}
	char **v = split(buf, at);
	if (!v)
		free(buf);
	return v;
}

/* The libpython PID maps (from /proc/PID/maps), else its executable. */
static char *pid_libpython(int32_t pid)
{
	char path[64];
	size_t len = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	char *maps = slurp(path, &len);
	char *found = NULL;
	for (char *l = maps; l && *l && !found;) {
		char *nl = strchr(l, '\n');
		if (nl)
			*nl = '\0';
		char *file = strchr(l, '/');
		const char *b = file ? strrchr(file, '/') + 1 : NULL;
		if (b && !strncmp(b, "libpython", 9) && strstr(b, ".so"))
			found = strdup(file);
		l = nl ? nl + 1 : NULL;
	}
	free(maps);
	if (found)
		return found;
	char exe[PATH_MAX];
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	ssize_t n = readlink(path, exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	return strdup(exe);
}

/* NAME as execvp finds it in PATH, malloc'd, or NULL. */
static char *which(const char *name)
{
	if (strchr(name, '/'))
		return strdup(name);
	const char *path = getenv("PATH");
	for (const char *p = path; p && *p;) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char full[PATH_MAX];
		snprintf(full, sizeof(full), "%.*s/%s", (int)n, n ? p : ".",
			 name);
		if (!access(full, X_OK))
			return strdup(full);
		p = end ? end + 1 : NULL;
	}
	return NULL;
}

/* Ask the interpreter ARGV0 (a script such as pyenv's shim) for its
 * sys.executable. */
static char *ask_executable(const char *argv0)
{
	int fd[2];
	if (pipe(fd))
		return NULL;
	pid_t c = fork();
	if (c < 0) {
		close(fd[0]);
		close(fd[1]);
		return NULL;
	}
	if (c == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(fd[1], 1);
		dup2(null, 2);
		close(fd[0]);
		execlp(argv0, argv0, "-c", "import sys; print(sys.executable)",
		       (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	char buf[PATH_MAX];
	size_t n = 0;
	ssize_t r;
	while (n < sizeof(buf) - 1 &&
	       (r = read(fd[0], buf + n, sizeof(buf) - 1 - n)) > 0)
		n += (size_t)r;
	close(fd[0]);
	int st;
	while (waitpid(c, &st, 0) < 0)
		;
	buf[n] = '\0';
	char *nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	if (!WIFEXITED(st) || WEXITSTATUS(st) || buf[0] != '/')
		return NULL;
	return strdup(buf);
}

static char *cmd_libpython(const char *argv0)
{
	char *exe = which(argv0), *lib = NULL;
	const char *llp = getenv("LD_LIBRARY_PATH");
	if (exe && !perfan__elf_libpython(exe, llp, &lib))
		goto out;
	free(exe);
	exe = ask_executable(argv0);
	if (exe)
		perfan__elf_libpython(exe, llp, &lib);
out:
	free(exe);
	perfan__err_clear();
	return lib;
}

int perfan_record_host_read(struct perfan_record_host *h,
			    const struct perfan_record_opts *opts)
{
	if (!h)
		return perfan__err_null(__func__, "h");
	struct perfan_record_opts o;
	int err = PERFAN__OPTS_COPY(o, opts);
	if (err)
		return err;
	size_t sz = h->sz ? h->sz : sizeof(*h);
	memset(h, 0, sizeof(*h));
	h->sz = sz < sizeof(*h) ? sz : sizeof(*h);
	h->paranoid = PERFAN_RECORD_UNKNOWN;
	size_t len = 0;
	char *par = slurp("/proc/sys/kernel/perf_event_paranoid", &len);
	if (par)
		h->paranoid = atoi(par);
	free(par);
	h->euid = (int)geteuid();
	char *st = slurp("/proc/self/status", &len);
	char *cap = st ? strstr(st, "\nCapEff:") : NULL;
	if (cap)
		h->cap_eff = strtoull(cap + 8, NULL, 16);
	free(st);
	if (o.pid > 0) {
		h->target_argv = proc_vec(o.pid, "cmdline");
		h->target_env = proc_vec(o.pid, "environ");
		if (o.gil)
			h->libpython = pid_libpython(o.pid);
	} else {
		h->target_env = copy_env();
		if (o.gil && o.argv && o.argv[0])
			h->libpython = cmd_libpython(o.argv[0]);
	}
	return 0;
}

void perfan_record_host_free(struct perfan_record_host *h)
{
	if (!h)
		return;
	free_vec((char **)h->target_argv);
	free_vec((char **)h->target_env);
	free((char *)h->libpython);
	h->target_argv = h->target_env = NULL;
	h->libpython = NULL;
}
