/* cli/output.c: -o FILE without losing data: never over one of the
 * command's inputs, through a temporary file renamed over FILE only when
 * the command succeeded, with FILE's permissions, and through a symlink
 * to the file it names rather than over the link; a sink's output
 * written that way. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfan/perfan.h>

#include "cli.h"

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

int cli_output_guard(const char *cmd, const char *out_path,
		     const char *const *inputs, size_t n)
{
	struct stat out, in;
	/* only a regular file loses what it held when written: a terminal,
	 * /dev/null or a FIFO do not */
	if (!out_path || !strcmp(out_path, "-") || stat(out_path, &out) ||
	    !S_ISREG(out.st_mode))
		return 0;
	for (size_t i = 0; i < n; i++) {
		int std = !strcmp(inputs[i], "-");
		if (std ? fstat(0, &in) : stat(inputs[i], &in))
			continue; /* the command reports a missing input */
		if (same_file(&out, &in)) {
			cli_error(cmd,
				  "-o %s is the input %s: not writing over "
				  "it",
				  out_path,
				  std ? "(standard input)" : inputs[i]);
			return -1;
		}
	}
	return 0;
}

/* PATH with the symlinks that name it followed, as far as they lead (the
 * last may name a file still to be made). NULL and errno on failure. */
static char *follow_links(const char *path)
{
	char *cur = strdup(path);
	for (int hops = 0; cur; hops++) {
		struct stat st;
		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		if (hops == 40) {
			free(cur);
			errno = ELOOP;
			return NULL;
		}
		char target[PATH_MAX];
		ssize_t len = readlink(cur, target, sizeof(target) - 1);
		if (len < 0) {
			free(cur);
			return NULL;
		}
		target[len] = 0;
		char *next;
		const char *slash = strrchr(cur, '/');
		if (target[0] == '/' || !slash) {
			next = strdup(target);
		} else { /* relative to the link's own directory */
			int dir = (int)(slash - cur) + 1;
			size_t sz = (size_t)dir + (size_t)len + 1;
			next = malloc(sz);
			if (next)
				snprintf(next, sz, "%.*s%s", dir, cur, target);
		}
		free(cur);
		cur = next;
	}
	return NULL;
}

int cli_output_open(struct cli_output *o, const char *out_path)
{
	memset(o, 0, sizeof(*o));
	if (!out_path || !strcmp(out_path, "-")) {
		o->fp = stdout;
		return 0;
	}
	o->path = follow_links(out_path);
	if (!o->path)
		return -1;
	/* Only a regular file is replaced by renaming a temporary over it:
	 * /dev/null, a FIFO or a terminal is written to as it is. */
	struct stat st;
	int exists = !stat(o->path, &st);
	if (exists && !S_ISREG(st.st_mode)) {
		o->fp = fopen(o->path, "w");
		free(o->path);
		o->path = NULL;
		return o->fp ? 0 : -1;
	}
	size_t n = strlen(o->path) + 16;
	o->tmp = malloc(n);
	if (!o->tmp)
		goto fail;
	snprintf(o->tmp, n, "%s.tmpXXXXXX", o->path);
	int fd = mkstemp(o->tmp);
	if (fd < 0)
		goto fail;
	if (exists) {
		/* what it replaces keeps its permissions (and, where we
		 * may, its owner) */
		if (fchown(fd, st.st_uid, st.st_gid))
			(void)0; /* not ours to give: the file becomes ours */
		fchmod(fd, st.st_mode & 07777);
	} else {
		/* the permissions a plain fopen would give, not mkstemp's
		 * 0600 */
		mode_t um = umask(0);
		umask(um);
		fchmod(fd, 0666 & ~um);
	}
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		close(fd);
		unlink(o->tmp);
		goto fail;
	}
	return 0;
fail:
	/* nothing for cli_output_close to do: callers may skip it */
	{
		int e = errno;
		free(o->path);
		free(o->tmp);
		o->path = o->tmp = NULL;
		errno = e;
	}
	return -1;
}

int cli_output_close(struct cli_output *o, int ok)
{
	int rc = 0;
	if (o->fp == stdout) {
		if (fflush(stdout) != 0)
			rc = -1;
	} else if (o->fp && !o->tmp) {
		if (fclose(o->fp) != 0)
			rc = -1;
	} else if (o->fp) {
		if (fclose(o->fp) != 0)
			ok = 0, rc = -1;
		if (ok && rename(o->tmp, o->path) != 0)
			rc = -1;
		if (!ok || rc)
			unlink(o->tmp);
	}
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	return rc;
}

struct result_writer {
	int (*write)(const void *arg, FILE *fp);
	const void *arg;
};

static int write_result(const void *x, FILE *fp, const void *opts)
{
	(void)opts;
	const struct result_writer *w = x;
	return w->write(w->arg, fp);
}

int cli_write_result(const char *cmd, const char *out_path,
		     int (*write)(const void *arg, FILE *fp), const void *arg)
{
	struct result_writer w = {write, arg};
	return cli_write(cmd, out_path, 0, write_result, &w, NULL);
}

int cli_write(const char *cmd, const char *out_path, int status,
	      int (*write)(const void *x, FILE *fp, const void *opts),
	      const void *x, const void *opts)
{
	struct cli_output out;
	if (cli_output_open(&out, out_path)) {
		cli_error(cmd, "cannot write %s: %s", out_path,
			  strerror(errno));
		return 1;
	}
	if (write(x, out.fp, opts)) {
		cli_error(cmd, "%s", perfan_error_last());
		status = 1;
	}
	if (cli_output_close(&out, status == 0) && !status) {
		cli_error(cmd, "cannot write %s",
			  out_path ? out_path : "standard output");
		status = 1;
	}
	return status;
}

static int write_flamegraph(const void *p, FILE *fp, const void *fo)
{
	return perfan_flamegraph_write(p, fp, fo);
}

int cli_svg_path(const char *out_path)
{
	size_t n = out_path ? strlen(out_path) : 0;
	return n > 4 && !strcmp(out_path + n - 4, ".svg");
}

int cli_write_flamegraph(const char *cmd, const perfan_profile *p,
			 const struct perfan_flamegraph_opts *fo,
			 const char *out_path, int status)
{
	return cli_write(cmd, out_path, status, write_flamegraph, p, fo);
}
