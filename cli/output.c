/* cli/output.c: -o FILE without losing data: never over one of the
 * command's inputs, through a temporary file renamed over FILE only when
 * the command succeeded, with FILE's permissions, and through a symlink
 * to the file it names rather than over the link; a sink's output
 * written that way. */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <fcntl.h>
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

/* The stream -o writes through: a file descriptor, with the first error
 * of a write kept, since the errno of a failed write is gone by the time
 * fflush, ferror or fclose tells that one failed. */
struct out_fd {
	int fd, own; /* own: closed with the stream (not standard output) */
	int err;     /* the first errno of a write or close */
};

static ssize_t out_write(void *cookie, const char *buf, size_t n)
{
	struct out_fd *c = cookie;
	size_t done = 0;
	while (done < n) {
		ssize_t w = write(c->fd, buf + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!c->err)
				c->err = w < 0 ? errno : EIO;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)w;
	}
	return (ssize_t)done;
}

static int out_close(void *cookie)
{
	struct out_fd *c = cookie;
	if (c->own && close(c->fd) && !c->err)
		c->err = errno;
	return c->err ? -1 : 0;
}

/* What -o is being written to: the stream, and the temporary file renamed
 * over PATH at the end (TMP NULL: PATH written as it is, or standard
 * output). */
struct cli_output {
	FILE *fp;
	char *path, *tmp;
	struct out_fd fd;
};

static int output_stream(struct cli_output *o, int fd, int own)
{
	o->fd = (struct out_fd){fd, own, 0};
	cookie_io_functions_t io = {.write = out_write, .close = out_close};
	o->fp = fopencookie(&o->fd, "w", io);
	if (o->fp)
		setvbuf(o->fp, NULL, _IOFBF, 1 << 16);
	return o->fp ? 0 : -1;
}

/* Open OUT_PATH for writing through a temporary file that output_close
 * renames into place (standard output when OUT_PATH is NULL or "-"). A
 * symlink is followed: the temporary goes next to the file it names, and
 * replaces that. A file replaced keeps its permissions. 0, or -1 and
 * errno: nothing then for output_close to do. */
static int output_open(struct cli_output *o, const char *out_path)
{
	memset(o, 0, sizeof(*o));
	if (!out_path || !strcmp(out_path, "-")) {
		fflush(stdout); /* what was printed before comes first */
		return output_stream(o, 1, 0);
	}
	o->path = follow_links(out_path);
	if (!o->path)
		return -1;
	/* Only a regular file is replaced by renaming a temporary over it:
	 * /dev/null, a FIFO or a terminal is written to as it is. */
	struct stat st;
	int exists = !stat(o->path, &st), fd, e;
	if (exists && !S_ISREG(st.st_mode)) {
		fd = open(o->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			  0666);
		free(o->path);
		o->path = NULL;
		if (fd < 0)
			return -1;
		if (output_stream(o, fd, 1)) {
			close(fd);
			return -1;
		}
		return 0;
	}
	/* a file the user may not write is not replaced either, as the
	 * shell's > would not write it */
	if (exists && access(o->path, W_OK))
		goto fail;
	fd = cli_tmp_create(o->path, &o->tmp);
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
	if (output_stream(o, fd, 1)) {
		e = errno;
		close(fd);
		cli_tmp_finish(o->tmp, NULL);
		errno = e;
		goto fail;
	}
	return 0;
fail:
	e = errno;
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	errno = e;
	return -1;
}

/* Finish: OK non-zero commits the file, zero removes the temporary.
 * Returns 0, or -1 with *WHAT, what failed, and errno. */
static int output_close(struct cli_output *o, int ok, const char **what)
{
	int rc = 0, e = 0;
	*what = "cannot write";
	if (o->fp && fclose(o->fp)) {
		e = o->fd.err ? o->fd.err : errno ? errno : EIO;
		ok = 0, rc = -1;
	}
	if (o->tmp && cli_tmp_finish(o->tmp, ok ? o->path : NULL) && ok) {
		e = errno;
		*what = "cannot rename the written file into place";
		rc = -1;
	}
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	errno = e;
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
	const char *name = out_path && strcmp(out_path, "-")
				   ? out_path
				   : "standard output";
	struct cli_output out;
	if (output_open(&out, out_path)) {
		cli_error(cmd, "%s: cannot open for writing: %s", name,
			  strerror(errno));
		return 1;
	}
	int rc = write(x, out.fp, opts);
	/* A failed write of the stream is what made the writer fail, if it
	 * did (its message knows no path or reason): said once, with its
	 * reason. */
	if (fflush(out.fp) || ferror(out.fp) || out.fd.err) {
		cli_error(cmd, "%s: cannot write: %s", name,
			  strerror(out.fd.err ? out.fd.err : EIO));
		status = 1;
	} else if (rc) {
		cli_error(cmd, "%s", perfan_error_last());
		status = 1;
	}
	const char *what;
	if (output_close(&out, status == 0, &what) && !status) {
		cli_error(cmd, "%s: %s: %s", name, what, strerror(errno));
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
