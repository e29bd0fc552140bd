/* sources/input_read.c: an opened input read from its first byte, as the
 * format adapters read it: a text stream (the peeked bytes given again,
 * then the rest), or the perf.data reader (a regular file read again from
 * its descriptor, a file-mode perf.data from a stream kept in a temporary
 * file first, anything else fed through a pipe by a thread). */
#define _GNU_SOURCE /* fopencookie */
#include "sources/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "util/log.h"
#include "util/opts.h"

ssize_t perfan__read_some(int fd, void *buf, size_t n)
{
	ssize_t r;
	do
		r = read(fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r;
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
		n = perfan__read_some(s->fd, buf, size);
		if (n < 0)
			return -1;
	}
	on_read(s, (size_t)n);
	return n;
}

FILE *perfan__input_text(perfan_source *s)
{
	cookie_io_functions_t io = {.read = text_read};
	if (!s->text && !(s->text = fopencookie(s, "r", io)))
		perfan__err(PERFAN_EIO, "%s: %s", s->name, strerror(errno));
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

/* Bytes read ahead of the perf.data reader, at most: at a live `perf
 * record -o -` of 20 kHz on every CPU (about 8 MB/s here), seconds of a
 * reader busy elsewhere (loading a large DSO's symbols, kallsyms) before
 * perf must wait, and perf loses records when it waits. Taken only when
 * the reader falls behind: the pieces are made as needed. */
#define FEED_AHEAD ((size_t)256 << 20)
#define FEED_PIECE ((size_t)1 << 20)
/* The size asked of the pipes (the kernel's default is 64 KiB; an
 * unprivileged process may set up to /proc/sys/fs/pipe-max-size, 1 MiB by
 * default): perf's writes while the feeding thread is not on a CPU. */
#define FEED_PIPE_SIZE (1 << 20)

struct feed_piece {
	struct feed_piece *next;
	size_t len, at; /* bytes in data; written on */
	char data[];
};

/* The bytes read and not yet written on: a FIFO of pieces. */
struct feed_queue {
	struct feed_piece *head, *tail, *spare;
	size_t bytes;
};

static void feed_queue_free(void *arg)
{
	struct feed_queue *q = arg;
	while (q->head) {
		struct feed_piece *n = q->head->next;
		free(q->head);
		q->head = n;
	}
	free(q->spare);
	q->spare = NULL;
	q->tail = NULL;
}

/* The piece to read into: the tail while it has room, else a new one
 * (NULL: out of memory, or FEED_AHEAD bytes are waiting). */
static struct feed_piece *feed_room(struct feed_queue *q)
{
	if (q->tail && q->tail->len < FEED_PIECE)
		return q->tail;
	if (q->bytes >= FEED_AHEAD)
		return NULL;
	struct feed_piece *p = q->spare;
	q->spare = NULL;
	if (!p && !(p = malloc(sizeof(*p) + FEED_PIECE)))
		return NULL;
	p->next = NULL;
	p->len = p->at = 0;
	if (q->tail)
		q->tail->next = p;
	else
		q->head = p;
	q->tail = p;
	return p;
}

/* Write the head pieces on to FD (non-blocking) until it is full; 0, or
 * -1 when the reader stopped. */
static int feed_flush(struct feed_queue *q, int fd)
{
	while (q->head) {
		struct feed_piece *p = q->head;
		while (p->at < p->len) {
			ssize_t w = write(fd, p->data + p->at, p->len - p->at);
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0 && errno == EAGAIN)
				return 0;
			if (w <= 0)
				return -1;
			p->at += (size_t)w;
			q->bytes -= (size_t)w;
		}
		if (p != q->tail) {
			q->head = p->next;
			free(q->spare);
			q->spare = p;
		} else {
			p->len = p->at = 0; /* empty: read into it again */
			return 0;
		}
	}
	return 0;
}

/* The peeked bytes and the rest of the stream, into a pipe that the
 * perf.data reader takes as its stream. The stream is read as soon as it
 * has bytes, up to FEED_AHEAD of them ahead of the reader, so that a live
 * writer (perf record -o -) never waits on a reader that is busy for a
 * moment. SIGPIPE is blocked in this thread (a reader that stopped gives
 * EPIPE here), never changed for the process. */
static void *feed(void *arg)
{
	perfan_source *s = arg;
	struct feed_queue q = {0};
	pthread_cleanup_push(feed_end, s);
	pthread_cleanup_push(feed_queue_free, &q);
	int flags = fcntl(s->feed_fd, F_GETFL);
	int eof = 0;
	if (flags < 0 || fcntl(s->feed_fd, F_SETFL, flags | O_NONBLOCK) < 0)
		goto done;
	for (size_t n = 0; n < s->npeek;) {
		struct feed_piece *p = feed_room(&q);
		if (!p)
			goto done; /* out of memory: the reader sees the end */
		size_t k = s->npeek - n < FEED_PIECE - p->len
				   ? s->npeek - n
				   : FEED_PIECE - p->len;
		memcpy(p->data + p->len, s->peek + n, k);
		p->len += k;
		q.bytes += k;
		n += k;
	}
	for (;;) {
		if (feed_flush(&q, s->feed_fd))
			break; /* the reader stopped */
		if (eof && !q.bytes)
			break;
		struct feed_piece *room = eof ? NULL : feed_room(&q);
		struct pollfd pf[2] = {{.fd = s->feed_fd, .events = POLLOUT},
				       {.fd = s->fd, .events = POLLIN}};
		int np = room ? 2 : 1;
		if (!q.bytes) {
			pf[0].fd = -1; /* nothing to write: wait for input */
		}
		if (!room && !q.bytes)
			break; /* out of memory with nothing queued */
		if (poll(pf, (nfds_t)np, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[0].revents & (POLLERR | POLLHUP | POLLNVAL))
			break; /* the reader stopped */
		if (room && (pf[1].revents & (POLLIN | POLLHUP | POLLERR))) {
			ssize_t r = perfan__read_some(s->fd,
						      room->data + room->len,
						      FEED_PIECE - room->len);
			if (r <= 0) {
				eof = 1; /* an error reads as the end, as before */
				continue;
			}
			on_read(s, (size_t)r);
			room->len += (size_t)r;
			q.bytes += (size_t)r;
		}
	}
done:
	pthread_cleanup_pop(1);
	pthread_cleanup_pop(1);
	return NULL;
}

/* A bigger pipe buffer for FD when it is a pipe (see FEED_PIPE_SIZE);
 * nothing when it cannot be had. */
static void pipe_grow(int fd)
{
#ifdef F_SETPIPE_SZ
	if (fcntl(fd, F_GETPIPE_SZ) < FEED_PIPE_SIZE)
		(void)fcntl(fd, F_SETPIPE_SZ, FEED_PIPE_SIZE);
#else
	(void)fd;
#endif
}

/* Whether the peeked bytes of S begin a file-mode perf.data: its header
 * size (bytes 8 to 16) is not pipe mode's 16. Reads up to 16 bytes. */
static int file_mode(perfan_source *s)
{
	while (s->npeek < 16) {
		ssize_t n = perfan__read_some(s->fd, s->peek + s->npeek,
					      16 - s->npeek);
		if (n <= 0)
			return 0; /* the reader says what is wrong */
		s->npeek += (size_t)n;
	}
	uint64_t size;
	memcpy(&size, s->peek + 8, sizeof(size));
	return size != 16 && size != __builtin_bswap64((uint64_t)16);
}

/* A file-mode perf.data from a stream (a FIFO, a pipe from cat): its
 * reader needs the whole file at hand (the features follow the records),
 * so its bytes go once into an unlinked temporary file, read from then on
 * as the regular file it now is (again too: perfan__source_reopen); a
 * pipe-mode one too when it is to be read again (perfan__source_keep). */
static int spool(perfan_source *s)
{
	FILE *tmp = tmpfile();
	int fd = tmp ? dup(fileno(tmp)) : -1;
	if (tmp)
		fclose(tmp);
	if (fd < 0)
		return perfan__err(PERFAN_EIO, "%s: no temporary file: %s",
				   s->name, strerror(errno));
	char *buf = malloc(PERFAN__INPUT_PEEK);
	size_t n = s->npeek;
	const char *p = s->peek;
	uint64_t size = 0;
	int err = buf ? 0 : perfan__nomem(NULL);
	while (!err && n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			err = perfan__err(PERFAN_EIO, "%s: temporary file: %s",
					  s->name, strerror(errno));
			break;
		}
		size += (uint64_t)w;
		p += w;
		n -= (size_t)w;
		if (n)
			continue;
		ssize_t r = perfan__read_some(s->fd, buf, PERFAN__INPUT_PEEK);
		if (r < 0)
			err = perfan__err(PERFAN_EIO, "%s: %s", s->name,
					  strerror(errno));
		if (r > 0) {
			on_read(s, (size_t)r);
			n = (size_t)r;
			p = buf;
		}
	}
	free(buf);
	if (err) {
		close(fd);
		return err;
	}
	if (s->own_fd)
		close(s->fd);
	s->fd = fd;
	s->own_fd = 1;
	s->regular = 1;
	s->size = size;
	return 0;
}

int perfan__input_regular(perfan_source *s)
{
	return s->regular ? 0 : spool(s);
}

int perfan__input_perfdata(perfan_source *s, perfan_perfdata **pd,
			   const struct perfan_perfdata_opts *opts)
{
	struct perfan_perfdata_opts po =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	if (opts) {
		int rc = PERFAN__OPTS_COPY(po, opts);
		if (rc)
			return rc;
	} else {
		po.log = s->o.log;
		po.log_payload = s->o.log_payload;
		po.threads = s->o.threads;
	}
	if (!s->regular && (s->keep || file_mode(s))) {
		int rc = spool(s);
		if (rc)
			return rc;
	}
	if (s->regular && lseek(s->fd, 0, SEEK_SET) == 0)
		return perfan_perfdata_open_fd(pd, s->fd, s->name, &po);
	int fds[2];
	if (pipe(fds))
		return perfan__err(PERFAN_EIO, "pipe: %s", strerror(errno));
	s->feed_fd = fds[1];
	s->pipe_fd = fds[0];
	pipe_grow(s->fd);
	pipe_grow(fds[1]);
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
