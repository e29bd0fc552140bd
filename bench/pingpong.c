/*
 * bench/pingpong.c: a context-switch-heavy workload for off-CPU benchmarks
 * (bench/make-offcpu-recording.sh). PAIRS pairs of threads ("ping-N",
 * "pong-N") pass one byte back and forth over two pipes, so that every
 * round trip blocks each thread once in read(); the main thread checks every
 * 10 ms for the file STOP and then tells the pairs to finish.
 *
 * Usage: pingpong STOP [PAIRS]    (PAIRS default 2)
 * Build: gcc -O2 -g -fno-omit-frame-pointer -pthread -o pingpong pingpong.c
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define MAXPAIRS 16

struct pair {
	int ab[2], ba[2]; /* ping -> pong, pong -> ping */
	int n;
	unsigned long rounds;
};

static atomic_int stop;

NOINLINE static void pass(int rfd, int wfd, char *c)
{
	if (write(wfd, c, 1) != 1 || read(rfd, c, 1) != 1) {
		perror("pingpong: pipe");
		exit(1);
	}
}

NOINLINE static void echo_back(int wfd, char *c)
{
	if (write(wfd, c, 1) != 1) {
		perror("pingpong: pipe");
		exit(1);
	}
}

static void *ping(void *arg)
{
	struct pair *p = arg;
	char name[16], c = 1;
	snprintf(name, sizeof name, "ping-%d", p->n);
	pthread_setname_np(pthread_self(), name);
	while (!atomic_load(&stop)) {
		pass(p->ba[0], p->ab[1], &c);
		p->rounds++;
	}
	c = 0; /* tells pong to finish */
	if (write(p->ab[1], &c, 1) != 1)
		perror("pingpong: pipe");
	return NULL;
}

static void *pong(void *arg)
{
	struct pair *p = arg;
	char name[16], c = 1;
	snprintf(name, sizeof name, "pong-%d", p->n);
	pthread_setname_np(pthread_self(), name);
	for (;;) {
		if (read(p->ab[0], &c, 1) != 1 || c == 0)
			break;
		echo_back(p->ba[1], &c);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: pingpong STOP [PAIRS]\n");
		return 2;
	}
	int pairs = argc > 2 ? atoi(argv[2]) : 2;
	if (pairs < 1 || pairs > MAXPAIRS)
		pairs = 2;
	struct pair p[MAXPAIRS];
	pthread_t t[2 * MAXPAIRS];
	for (int i = 0; i < pairs; i++) {
		p[i].n = i;
		p[i].rounds = 0;
		if (pipe(p[i].ab) || pipe(p[i].ba)) {
			perror("pingpong: pipe");
			return 1;
		}
		pthread_create(&t[2 * i], NULL, ping, &p[i]);
		pthread_create(&t[2 * i + 1], NULL, pong, &p[i]);
	}
	struct timespec tick = {0, 10 * 1000 * 1000};
	while (access(argv[1], F_OK) != 0)
		nanosleep(&tick, NULL);
	atomic_store(&stop, 1);
	unsigned long total = 0;
	for (int i = 0; i < 2 * pairs; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < pairs; i++)
		total += p[i].rounds;
	printf("pingpong: %d pairs, %lu round trips\n", pairs, total);
	return 0;
}
