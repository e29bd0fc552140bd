/* cli/input.c: one input, three kinds: peek to tell, then read from the
 * start. A regular file is read again from its descriptor (a perf.data is
 * mapped); anything else (a pipe, FIFO, /dev/stdin, <(...), a socket) is
 * read once: the peeked bytes are given again, then the rest. Nothing is
 * opened twice, which a FIFO would not survive. */
#define _GNU_SOURCE /* fopencookie */
#include "input.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define PEEK (64 * 1024)

/* The first bytes, with read(2) before stdio buffers any: up to PEEK, but
 * a perf.data is known by its first 8, and a stream that sends no more for
 * now (perf record -o - at its start) must not keep the reader waiting. */
static int peek(struct cli_input *in)
{
	int fd = fileno(in->fp);
	while (in->npeek < PEEK) {
		ssize_t n = read(fd, in->peek + in->npeek, PEEK - in->npeek);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		in->npeek += (size_t)n;
		if (in->npeek >= 8 &&
		    perfan_input_detect(in->peek, 8) == PERFAN_INPUT_PERFDATA)
			break;
	}
	return 0;
}

int cli_input_open(struct cli_input *in, const char *path, const char *cmd)
{
	memset(in, 0, sizeof(*in));
	in->feed_fd = in->pipe_fd = -1;
	in->is_stdin = !strcmp(path, "-");
	in->name = in->is_stdin ? "<stdin>" : path;
	in->fp = in->is_stdin ? stdin : fopen(path, "rb");
	if (!in->fp) {
		cli_error(cmd, "%s: %s", path, strerror(errno));
		return -1;
	}
	struct stat sb;
	if (!fstat(fileno(in->fp), &sb) && S_ISREG(sb.st_mode)) {
		in->regular = 1;
		in->size = (uint64_t)sb.st_size;
	}
	in->peek = malloc(PEEK);
	if (!in->peek) {
		cli_error(cmd, "out of memory");
		return -1;
	}
	if (peek(in)) {
		cli_error(cmd, "%s: %s", in->name, strerror(errno));
		return -1;
	}
	in->kind = perfan_input_detect(in->peek, in->npeek);
	return 0;
}

static ssize_t text_read(void *cookie, char *buf, size_t size)
{
	struct cli_input *in = cookie;
	size_t n;
	if (in->off < in->npeek) {
		n = in->npeek - in->off;
		if (n > size)
			n = size;
		memcpy(buf, in->peek + in->off, n);
		in->off += n;
	} else {
		n = fread(buf, 1, size, in->fp);
		if (n == 0 && ferror(in->fp))
			return -1;
	}
	if (in->on_read)
		in->on_read(n);
	return (ssize_t)n;
}

FILE *cli_input_text(struct cli_input *in)
{
	cookie_io_functions_t io = {.read = text_read};
	if (!in->text)
		in->text = fopencookie(in, "r", io);
	return in->text;
}

static void feed_end(void *arg)
{
	struct cli_input *in = arg;
	free(in->feed_buf);
	in->feed_buf = NULL;
	close(in->feed_fd);
	in->feed_fd = -1;
}

/* The peeked bytes and the rest of the stream, into a pipe that the
 * reader takes as its stream. */
static void *feed(void *arg)
{
	struct cli_input *in = arg;
	pthread_cleanup_push(feed_end, in);
	in->feed_buf = malloc(PEEK);
	size_t n = in->npeek;
	const char *p = in->peek;
	for (;;) {
		while (n) {
			ssize_t w = write(in->feed_fd, p, n);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				goto done; /* the reader stopped */
			p += w;
			n -= (size_t)w;
		}
		if (!in->feed_buf)
			break;
		n = fread(in->feed_buf, 1, PEEK, in->fp);
		if (!n)
			break;
		if (in->on_read)
			in->on_read(n);
		p = in->feed_buf;
	}
done:
	pthread_cleanup_pop(1);
	return NULL;
}

int cli_input_perfdata(struct cli_input *in, perfan_perfdata **pd,
		       const struct perfan_perfdata_opts *opts, const char *cmd)
{
	int fd = fileno(in->fp);
	if (in->regular && lseek(fd, 0, SEEK_SET) == 0)
		return perfan_perfdata_open_fd(pd, fd, in->name, opts);
	int fds[2];
	if (pipe(fds)) {
		cli_error(cmd, "pipe: %s", strerror(errno));
		return CLI_REPORTED;
	}
	signal(SIGPIPE, SIG_IGN); /* the feeder sees EPIPE instead */
	in->feed_fd = fds[1];
	in->pipe_fd = fds[0];
	if (pthread_create(&in->feeder, NULL, feed, in)) {
		close(fds[0]);
		close(fds[1]);
		in->feed_fd = in->pipe_fd = -1;
		cli_error(cmd, "cannot start a thread");
		return CLI_REPORTED;
	}
	in->feeding = 1;
	return perfan_perfdata_open_fd(pd, in->pipe_fd, in->name, opts);
}

void cli_input_close(struct cli_input *in)
{
	if (in->pipe_fd >= 0)
		close(in->pipe_fd); /* a feeder still writing sees EPIPE */
	if (in->feeding) {
		/* the reader stopped before the end (an error): a feeder
		 * waiting for more of a stream that has not ended (a FIFO,
		 * <(...)) would keep us waiting for it */
		pthread_cancel(in->feeder);
		pthread_join(in->feeder, NULL);
	}
	if (in->text)
		fclose(in->text);
	if (in->fp && in->fp != stdin)
		fclose(in->fp);
	free(in->peek);
	memset(in, 0, sizeof(*in));
}
