/* annotate.c: a workload for `perfan annotate` (issue 16): twelve functions
 * whose costs differ and sit in different places of their bodies (a loop,
 * a dependent divide, a pointer chase, a mispredicted branch, an inlined
 * helper from annotate_inl.h), called in fixed proportions so that the
 * hottest three are clear. Built -O2 -g -fno-omit-frame-pointer; noipa
 * keeps each function whole and named as written (no .constprop clone). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "annotate_inl.h"

#define N 4096

static uint32_t data[N];
static int next_idx[N];
static volatile uint64_t sink;
static volatile uint64_t divisor = 3; /* not a constant: a real divide */

__attribute__((noipa)) static uint64_t sum_loop(int reps)
{
	uint64_t s = 0;
	for (int r = 0; r < reps; r++)
		for (int i = 0; i < N; i++)
			s += data[i];
	return s;
}

__attribute__((noipa)) static uint64_t divide_chain(int reps)
{
	uint64_t x = 0x123456789abcdefULL, d = divisor;
	for (int r = 0; r < reps * 64; r++)
		x = x / d + 0x9e3779b97f4a7c15ULL; /* one slow divide */
	return x;
}

__attribute__((noipa)) static uint64_t chase(int reps)
{
	int i = 0;
	for (int r = 0; r < reps * N; r++)
		i = next_idx[i];
	return (uint64_t)i;
}

__attribute__((noipa)) static uint64_t branchy(int reps)
{
	uint64_t s = 0;
	for (int r = 0; r < reps; r++)
		for (int i = 0; i < N; i++) {
			if (data[i] & 1) /* random: mispredicted */
				s += data[i] >> 3;
			else
				s -= data[i] >> 5;
		}
	return s;
}

__attribute__((noipa)) static uint64_t hash_all(int reps)
{
	uint64_t s = 0;
	for (int r = 0; r < reps; r++)
		for (int i = 0; i < N; i++)
			s += mix32(data[i] + (uint32_t)r);
	return s;
}

__attribute__((noipa)) static uint64_t clamp_all(int reps)
{
	uint64_t s = 0;
	for (int r = 0; r < reps; r++)
		for (int i = 0; i < N; i++)
			s += (uint64_t)clamp((int)(data[i] % 1000) - 500, -100, 100);
	return s;
}

__attribute__((noipa)) static uint64_t bsearch_all(int reps)
{
	static uint32_t sorted[N];
	uint64_t s = 0;
	for (int i = 0; i < N; i++)
		sorted[i] = (uint32_t)i * 7;
	for (int r = 0; r < reps; r++)
		for (int k = 0; k < N; k += 4) {
			int lo = 0, hi = N - 1;
			uint32_t want = data[k] % (7 * N);
			while (lo < hi) {
				int mid = (lo + hi) / 2;
				if (sorted[mid] < want)
					lo = mid + 1;
				else
					hi = mid;
			}
			s += (uint64_t)lo;
		}
	return s;
}

__attribute__((noipa)) static uint64_t crc_all(int reps)
{
	uint32_t crc = 0xffffffffU;
	for (int r = 0; r < reps; r++)
		for (int i = 0; i < N; i++) {
			crc ^= data[i];
			for (int b = 0; b < 8; b++)
				crc = (crc >> 1) ^ (0xedb88320U & (0U - (crc & 1)));
		}
	return crc;
}

__attribute__((noipa)) static uint64_t insertion_sort(int reps)
{
	static uint32_t a[256];
	uint64_t s = 0;
	for (int r = 0; r < reps; r++) {
		for (int i = 0; i < 256; i++)
			a[i] = data[(i * 13 + r) % N];
		for (int i = 1; i < 256; i++) {
			uint32_t v = a[i];
			int j = i - 1;
			while (j >= 0 && a[j] > v) {
				a[j + 1] = a[j];
				j--;
			}
			a[j + 1] = v;
		}
		s += a[128];
	}
	return s;
}

__attribute__((noipa)) static uint64_t fib_iter(int reps)
{
	uint64_t a = 0, b = 1;
	for (int r = 0; r < reps * N; r++) {
		uint64_t t = a + b;
		a = b;
		b = t;
	}
	return a;
}

__attribute__((noipa)) static uint64_t strided(int reps)
{
	uint64_t s = 0;
	for (int r = 0; r < reps; r++)
		for (int i = 0; i < N; i += 16)
			for (int j = 0; j < 16; j++)
				s += data[(i + j * 256) % N];
	return s;
}

__attribute__((noipa)) static uint64_t popcounts(int reps)
{
	uint64_t s = 0;
	for (int r = 0; r < reps; r++)
		for (int i = 0; i < N; i++)
			s += (uint64_t)__builtin_popcount(data[i] ^ (uint32_t)r);
	return s;
}

int main(int argc, char **argv)
{
	int scale = argc > 1 ? atoi(argv[1]) : 1;
	uint32_t x = 12345;
	for (int i = 0; i < N; i++) {
		x = x * 1103515245U + 12345U;
		data[i] = x >> 8;
	}
	/* one cycle through every slot, in random order */
	for (int i = 0; i < N; i++)
		next_idx[i] = i;
	for (int i = N - 1; i > 0; i--) {
		int j = (int)(data[i] % (uint32_t)i);
		int t = next_idx[i];
		next_idx[i] = next_idx[j];
		next_idx[j] = t;
	}
	for (int round = 0; round < 20 * scale; round++) {
		sink += crc_all(24);
		sink += divide_chain(300);
		sink += branchy(120);
		sink += hash_all(40);
		sink += insertion_sort(60);
		sink += bsearch_all(30);
		sink += clamp_all(30);
		sink += chase(20);
		sink += sum_loop(40);
		sink += fib_iter(20);
		sink += strided(10);
		sink += popcounts(10);
	}
	printf("%llu\n", (unsigned long long)sink);
	return 0;
}
