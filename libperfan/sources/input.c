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

#include "util/error.h"
#include "util/log.h"
#include "util/opts.h"

#define PEEK (64 * 1024)

static ssize_t read_some(int fd, void *buf, size_t n)
{
	ssize_t r;
	do
		r = read(fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r;
}

/* The first bytes: up to PEEK, but a perf.data is known by its first 8,
 * and a stream that sends no more for now (perf record -o - at its start)
 * must not keep the reader waiting. */
static int peek(perfan_source *s)
{
	while (s->npeek < PEEK) {
		ssize_t n =
			read_some(s->fd, s->peek + s->npeek, PEEK - s->npeek);
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
	if (!s || !(s->name = strdup(name)) || !(s->peek = malloc(PEEK))) {
		if (s)
			free(s->name);
		free(s);
		if (own)
			close(fd);
		return perfan__nomem(NULL);
	}
	PERFAN__OPTS_COPY(s->o, opts);
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
		return perfan__err(PERFAN_EINVAL,
				   "perfan_source_open: %s is NULL",
				   out ? "path" : "out");
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

static void on_read(perfan_source *s, size_t n)
{
	if (s->o.on_read)
		s->o.on_read(n, s->o.read_payload);
}

static ssize_t text_read(void *cookie, char *buf, size_t size)
{
	perfan_source *s = cookie;
	ssize_t n;
	if (s->off < s->npeek) {
		size_t k = s->npeek - s->off;
		if (k > size)
			k = size;
		memcpy(buf, s->peek + s->off, k);
		s->off += k;
		n = (ssize_t)k;
	} else {
		n = read_some(s->fd, buf, size);
		if (n < 0)
			return -1;
	}
	on_read(s, (size_t)n);
	return n;
}

FILE *perfan__input_text(perfan_source *s)
{
	cookie_io_functions_t io = {.read = text_read};
	if (!s->text)
		s->text = fopencookie(s, "r", io);
	return s->text;
}

static void feed_end(void *arg)
{
	perfan_source *s = arg;
	free(s->feed_buf);
	s->feed_buf = NULL;
	close(s->feed_fd);
	s->feed_fd = -1;
}

/* The peeked bytes and the rest of the stream, into a pipe that the
 * perf.data reader takes as its stream. SIGPIPE is blocked in this thread
 * (a reader that stopped gives EPIPE here), never changed for the
 * process. */
static void *feed(void *arg)
{
	perfan_source *s = arg;
	pthread_cleanup_push(feed_end, s);
	s->feed_buf = malloc(PEEK);
	size_t n = s->npeek;
	const char *p = s->peek;
	for (;;) {
		while (n) {
			ssize_t w = write(s->feed_fd, p, n);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				goto done; /* the reader stopped */
			p += w;
			n -= (size_t)w;
		}
		if (!s->feed_buf)
			break;
		ssize_t r = read_some(s->fd, s->feed_buf, PEEK);
		if (r <= 0)
			break;
		n = (size_t)r;
		on_read(s, n);
		p = s->feed_buf;
	}
done:
	pthread_cleanup_pop(1);
	return NULL;
}

int perfan_source_perfdata(perfan_source *s, perfan_perfdata **pd,
			   const struct perfan_perfdata_opts *opts)
{
	if (!s || !pd)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_source_perfdata: %s is NULL",
				   s ? "pd" : "source");
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

int perfan__input_perfdata(perfan_source *s, perfan_perfdata **pd,
			   const struct perfan_perfdata_opts *opts)
{
	struct perfan_perfdata_opts po =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	if (opts) {
		PERFAN__OPTS_COPY(po, opts);
	} else {
		po.log = s->o.log;
		po.log_payload = s->o.log_payload;
		po.threads = s->o.threads;
	}
	if (s->regular && lseek(s->fd, 0, SEEK_SET) == 0)
		return perfan_perfdata_open_fd(pd, s->fd, s->name, &po);
	int fds[2];
	if (pipe(fds))
		return perfan__err(PERFAN_EIO, "pipe: %s", strerror(errno));
	s->feed_fd = fds[1];
	s->pipe_fd = fds[0];
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	int err = pthread_create(&s->feeder, NULL, feed, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		close(fds[0]);
		close(fds[1]);
		s->feed_fd = s->pipe_fd = -1;
		return perfan__err(PERFAN_ENOMEM, "cannot start a thread");
	}
	s->feeding = 1;
	return perfan_perfdata_open_fd(pd, s->pipe_fd, s->name, &po);
}

void perfan_source_free(perfan_source *s)
{
	if (!s)
		return;
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
