/* cli/progress.c: the progress line on stderr: redrawn at most 10 times a
 * second by a thread while a long input is read, and cleared before any
 * warning is printed. Text inputs count the bytes read; a perf.data shows
 * the reader's position. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

struct progress {
	const char *cmd, *name;
	uint64_t size;
	atomic_ullong done;
	atomic_int stop;
	pthread_t th;
	int started;
	int drawn;
	struct timespec t0;
	pthread_mutex_t lock; /* stderr: the line and warnings */
};

static struct progress prog = {.cmd = "", .lock = PTHREAD_MUTEX_INITIALIZER};

static double since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void clear_locked(void)
{
	if (prog.drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		prog.drawn = 0;
	}
}

static void draw(void)
{
	double secs = since(&prog.t0);
	uint64_t done = atomic_load(&prog.done);
	char line[160];
	if (prog.size && done) {
		double f = (double)done / (double)prog.size;
		if (f > 1)
			f = 1;
		char bar[31];
		int fill = (int)(f * 30);
		for (int i = 0; i < 30; i++)
			bar[i] = i < fill ? '#' : '.';
		bar[30] = '\0';
		snprintf(line, sizeof(line),
			 "perfan %s: %.40s [%s] %3d%% %.1f s", prog.cmd,
			 prog.name, bar, (int)(f * 100), secs);
	} else if (prog.size) {
		snprintf(line, sizeof(line),
			 "perfan %s: reading %.40s (%.0f MB) %.1f s", prog.cmd,
			 prog.name, (double)prog.size / 1e6, secs);
	} else {
		snprintf(line, sizeof(line), "perfan %s: reading %.40s %.1f s",
			 prog.cmd, prog.name, secs);
	}
	pthread_mutex_lock(&prog.lock);
	fprintf(stderr, "\r%s\033[K", line);
	fflush(stderr);
	prog.drawn = 1;
	pthread_mutex_unlock(&prog.lock);
}

static void *run(void *arg)
{
	(void)arg;
	struct timespec tick = {0, 100 * 1000 * 1000}; /* 10 per second */
	while (!atomic_load(&prog.stop)) {
		nanosleep(&tick, NULL);
		if (atomic_load(&prog.stop))
			break;
		if (since(&prog.t0) >= 0.5)
			draw();
	}
	return NULL;
}

void cli_progress_start(const char *cmd, const char *name, uint64_t size)
{
	prog.cmd = cmd;
	prog.name = name;
	prog.size = size;
	atomic_store(&prog.done, 0);
	atomic_store(&prog.stop, 0);
	clock_gettime(CLOCK_MONOTONIC, &prog.t0);
	if (isatty(2) && !pthread_create(&prog.th, NULL, run, NULL))
		prog.started = 1;
}

void cli_progress_add(uint64_t n, void *payload)
{
	(void)payload;
	atomic_fetch_add(&prog.done, n);
}

void cli_progress_at(uint64_t off, void *payload)
{
	(void)payload;
	atomic_store(&prog.done, off);
}

void cli_progress_end(void)
{
	if (prog.started) {
		atomic_store(&prog.stop, 1);
		pthread_join(prog.th, NULL);
		prog.started = 0;
	}
	pthread_mutex_lock(&prog.lock);
	clear_locked();
	pthread_mutex_unlock(&prog.lock);
}

void cli_progress_log(enum perfan_log_level level, const char *msg,
		      void *payload)
{
	if (level > PERFAN_LOG_WARN)
		return;
	const char *cmd = payload ? (const char *)payload : prog.cmd;
	pthread_mutex_lock(&prog.lock);
	clear_locked();
	fprintf(stderr, "perfan %s: warning: ", cmd);
	perfan_text_escape(stderr, msg);
	fputc('\n', stderr);
	pthread_mutex_unlock(&prog.lock);
}
