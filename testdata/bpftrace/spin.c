/* spin.c: the bpftrace case's workload: user time in three functions of
 * known shares, and kernel time in getppid() and write() to /dev/null,
 * for a few seconds (argv[1], default 3). */
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void hot_a(void)
{
	for (int i = 0; i < 200000; i++)
		sink += (unsigned long)i * 7;
}

__attribute__((noinline)) static void hot_b(void)
{
	for (int i = 0; i < 100000; i++)
		sink ^= (unsigned long)i * 13;
}

__attribute__((noinline)) static void sys_c(int fd)
{
	char buf[64] = { 0 };
	for (int i = 0; i < 200; i++) {
		sink += (unsigned long)getppid();
		sink += (unsigned long)write(fd, buf, sizeof(buf));
	}
}

__attribute__((noinline)) static void work(int fd)
{
	hot_a();
	hot_b();
	sys_c(fd);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 3;
	int fd = open("/dev/null", O_WRONLY);
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		work(fd);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) +
			 (double)(t.tv_nsec - t0.tv_nsec) / 1e9 <
		 secs);
	close(fd);
	return 0;
}
