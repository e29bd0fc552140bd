/* threads64.c: 64 threads for a timeline: each spins a few ms, then waits
 * in one of four ways (by tid index mod 4): sleeps (nanosleep), takes a
 * lock that eight threads share and hold while they spin, waits on a
 * condition variable for a token passed round a ring of 16 threads (so
 * every wakeup has a waker thread), or reads a pipe its partner writes.
 * About five waits a thread a second, for DURATION seconds (default 60).
 * gcc -O2 -g -fno-omit-frame-pointer -pthread -o threads64 threads64.c */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define N 64

static double duration = 60;
static struct timespec t0;
static pthread_mutex_t locks[N / 8];
static pthread_mutex_t ring_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ring_cv = PTHREAD_COND_INITIALIZER;
static int token; /* the ring member whose turn it is, 0..15 */
static int pipes[N][2];
static volatile int stop;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9;
}

static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

__attribute__((noinline)) static void spin(double ms)
{
	double end = cpu_now() + ms / 1e3;
	volatile unsigned x = 0;
	while (cpu_now() < end)
		for (int i = 0; i < 1000; i++)
			x += i;
}

__attribute__((noinline)) static void do_sleep(int ms)
{
	struct timespec ts = {0, ms * 1000000L};
	nanosleep(&ts, NULL);
}

__attribute__((noinline)) static void do_lock(int i)
{
	pthread_mutex_t *m = &locks[i / 8];
	pthread_mutex_lock(m);
	spin(3);
	pthread_mutex_unlock(m);
	do_sleep(120);
}

__attribute__((noinline)) static void do_ring(int i)
{
	int me = i / 4; /* 0..15 */
	pthread_mutex_lock(&ring_mu);
	while (token != me && !stop)
		pthread_cond_wait(&ring_cv, &ring_mu);
	pthread_mutex_unlock(&ring_mu);
	spin(2);
	do_sleep(10);
	pthread_mutex_lock(&ring_mu);
	token = (me + 1) % 16;
	pthread_cond_broadcast(&ring_cv);
	pthread_mutex_unlock(&ring_mu);
}

__attribute__((noinline)) static void do_pipe(int i)
{
	char c;
	/* the partner (i ^ 1 among the pipe threads) writes after its spin */
	if (read(pipes[i][0], &c, 1) < 0)
		perror("read");
}

static void *run(void *arg)
{
	int i = (int)(long)arg;
	while (now() < duration) {
		spin(1 + i % 3);
		switch (i % 4) {
		case 0: do_sleep(180); break;
		case 1: do_lock(i); break;
		case 2: do_ring(i); break;
		case 3:
			if (write(pipes[i ^ 4][1], "x", 1) < 0)
				perror("write");
			do_sleep(150);
			do_pipe(i);
			break;
		}
	}
	/* let a pipe partner that still reads finish */
	if (i % 4 == 3 && write(pipes[i ^ 4][1], "x", 1) < 0)
		perror("write");
	pthread_mutex_lock(&ring_mu);
	stop = 1;
	pthread_cond_broadcast(&ring_cv);
	pthread_mutex_unlock(&ring_mu);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		duration = atof(argv[1]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < N / 8; i++)
		pthread_mutex_init(&locks[i], NULL);
	for (int i = 0; i < N; i++)
		if (pipe(pipes[i]))
			return 1;
	pthread_t t[N];
	for (long i = 0; i < N; i++)
		pthread_create(&t[i], NULL, run, (void *)i);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	printf("%d threads, %.1f s\n", N, now());
	return 0;
}
