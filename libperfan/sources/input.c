/* sources/input.c: one input, opened once: peek to tell its format, then
 * read it from the start. A regular file is read again from its descriptor
 * (a perf.data is mapped); anything else (a pipe, FIFO, /dev/stdin, <(...),
 * a socket) is read once: the peeked bytes are given again, then the rest.
 * Nothing is opened twice, which a FIFO would not survive. */
#define _GNU_SOURCE /* fopencookie */
#include "sources/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sources/read.h"
#include "util/error.h"
#include "util/log.h"
#include "util/opts.h"

/* The first bytes: up to PERFAN__INPUT_PEEK, but a perf.data is known by
 * its first 8, and a stream that sends no more for now (perf record -o -
 * at its start) must not keep the reader waiting. */
static int peek(perfan_source *s)
{
	while (s->npeek < PERFAN__INPUT_PEEK) {
		ssize_t n = perfan__read_some(s->fd, s->peek + s->npeek,
					      PERFAN__INPUT_PEEK - s->npeek);
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		s->npeek += (size_t)n;
		if (s->npeek >= 8 && perfan__format_detect(s->peek, 8) ==
					     &perfan__format_perfdata)
			break;
	}
	return 0;
}

static int open_fd(perfan_source **out, int fd, int own, const char *name,
		   const struct perfan_source_opts *opts)
{
	perfan_source *s = calloc(1, sizeof(*s));
	if (!s || !(s->name = strdup(name)) ||
	    !(s->peek = malloc(PERFAN__INPUT_PEEK))) {
		if (s)
			free(s->name);
		free(s);
		if (own)
			close(fd);
		return perfan__nomem(NULL);
	}
	int rc = PERFAN__OPTS_COPY(s->o, opts);
	if (rc) {
		free(s->peek);
		free(s->name);
		free(s);
		if (own)
			close(fd);
		return rc;
	}
	s->fd = fd;
	s->own_fd = own;
	s->feed_fd = s->pipe_fd = -1;
	struct stat sb;
	if (!fstat(fd, &sb) && S_ISREG(sb.st_mode)) {
		s->regular = 1;
		s->size = (uint64_t)sb.st_size;
	}
	if (peek(s)) {
		int rc = perfan__err(PERFAN_EIO, "%s: %s", s->name,
				     strerror(errno));
		perfan_source_free(s);
		return rc;
	}
	s->fmt = perfan__format_detect(s->peek, s->npeek);
	*out = s;
	return 0;
}

int perfan_source_open(perfan_source **out, const char *path,
		       const struct perfan_source_opts *opts)
{
	if (!out || !path)
		return perfan__err_null(__func__, out ? "path" : "out");
	*out = NULL;
	if (!strcmp(path, "-"))
		return open_fd(out, STDIN_FILENO, 0, "<stdin>", opts);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return perfan__err(errno == ENOENT ? PERFAN_ENOTFOUND
						   : PERFAN_EIO,
				   "%s: %s", path, strerror(errno));
	return open_fd(out, fd, 1, path, opts);
}

int perfan_source_open_fd(perfan_source **out, int fd, const char *name,
			  const struct perfan_source_opts *opts)
{
	if (!out || fd < 0)
		return perfan__err(PERFAN_EINVAL, "perfan_source_open_fd: %s",
				   out ? "bad descriptor" : "out is NULL");
	*out = NULL;
	return open_fd(out, fd, 0, name ? name : "<input>", opts);
}

void perfan__source_keep(perfan_source *s)
{
	s->keep = 1;
}

int perfan__source_rereadable(const perfan_source *s)
{
	return s && s->regular;
}

int perfan__source_reopen(perfan_source **out, const perfan_source *s,
			  const struct perfan_source_opts *opts)
{
	*out = NULL;
	if (!s->regular)
		return perfan__err(PERFAN_EUNSUPPORTED,
				   "%s is a stream: it cannot be read again",
				   s->name);
	int fd = dup(s->fd);
	if (fd < 0 || lseek(fd, 0, SEEK_SET) != 0) {
		int rc = perfan__err(PERFAN_EIO, "%s: %s", s->name,
				     strerror(errno));
		if (fd >= 0)
			close(fd);
		return rc;
	}
	return open_fd(out, fd, 1, s->name, opts);
}

int perfan_source_perfdata(perfan_source *s, perfan_perfdata **pd,
			   const struct perfan_perfdata_opts *opts)
{
	if (!s || !pd)
		return perfan__err_null(__func__, s ? "pd" : "source");
	*pd = NULL;
	if (!s->fmt || !(s->fmt->caps & PERFAN_SOURCE_RECORDS))
		return perfan__err(PERFAN_EINVAL, "%s is not a perf.data",
				   s->name);
	if (s->used)
		return perfan__err(PERFAN_EINVAL, "%s was read already",
				   s->name);
	s->used = 1;
	return perfan__input_perfdata(s, pd, opts);
}

void perfan_source_free(perfan_source *s)
{
	if (!s)
		return;
	perfan_perfdata_free(s->reader);
	if (s->pipe_fd >= 0)
		close(s->pipe_fd); /* a feeder still writing sees EPIPE */
	if (s->feeding) {
		/* the reader stopped before the end (an error): a feeder
		 * waiting for more of a stream that has not ended (a FIFO,
		 * <(...)) would keep us waiting for it */
		pthread_cancel(s->feeder);
		pthread_join(s->feeder, NULL);
	}
	if (s->text)
		fclose(s->text);
	if (s->own_fd)
		close(s->fd);
	free(s->peek);
	free(s->name);
	free(s);
}

const char *perfan_source_format(const perfan_source *s)
{
	return s && s->fmt ? s->fmt->name : NULL;
}

unsigned perfan_source_caps(const perfan_source *s)
{
	return s && s->fmt ? s->fmt->caps : 0;
}

const char *perfan_source_name(const perfan_source *s)
{
	return s ? s->name : NULL;
}

uint64_t perfan_source_size(const perfan_source *s)
{
	return s ? s->size : 0;
}

int perfan_source_empty(const perfan_source *s)
{
	return !s || !s->npeek;
}
