/* noisy.c: spins for SECONDS (default 0.1) with 60 KiB of random bytes on
 * its stack, so perf's DWARF stack copies do not compress (zstd-tail) */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
static uint64_t x = 88172645463325252ull;
static uint64_t next(void) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return x; }
__attribute__((noinline)) static uint64_t spin(double secs)
{
	volatile uint64_t buf[7680];
	struct timespec t0, t;
	uint64_t s = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 7680; i++)
			buf[i] = next();
		s += buf[s % 7680];
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	return s;
}
volatile uint64_t sink;
int main(int argc, char **argv)
{
	sink = spin(argc > 1 ? atof(argv[1]) : 0.1);
	return 0;
}
