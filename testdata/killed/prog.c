/*
 * perfan test program: deterministic CPU work with a known cost split.
 *
 *   main -> work -> hot_a   (~60% of samples)
 *                -> hot_b   (~30%)
 *                -> cold_c  (~10%)
 *
 * Each leaf runs the same xorshift kernel (different shift triples / seeds so
 * that GCC's identical-code-folding does not merge them); the per-call
 * iteration counts are in the ratio 6:3:1.  Usage: ./prog [rounds]
 * (default rounds = ROUNDS_DEFAULT, about 0.5 s on the recording VM).
 *
 * Build: gcc -O2 -g -fno-omit-frame-pointer -o prog prog.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

/*
 * GCC 12 does not set up %rbp in leaf functions that need no stack, even
 * with -fno-omit-frame-pointer, which makes frame-pointer unwinding skip the
 * caller (work).  A volatile stack slot in each leaf forces a real frame, so
 * the recorded chain is hot_x <- work <- main.
 */
#define ROUNDS_DEFAULT 125
#define UNIT 200000ULL /* iterations per cost unit */

volatile uint64_t sink;

NOINLINE uint64_t hot_a(uint64_t n)
{
    volatile uint64_t out;
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (uint64_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        __asm__ volatile("" : "+r"(x));
    }
    out = x;
    return out;
}

NOINLINE uint64_t hot_b(uint64_t n)
{
    volatile uint64_t out;
    uint64_t x = 0xD1B54A32D192ED03ULL;
    for (uint64_t i = 0; i < n; i++) {
        x ^= x << 21;
        x ^= x >> 35;
        x ^= x << 4;
        __asm__ volatile("" : "+r"(x));
    }
    out = x;
    return out;
}

NOINLINE uint64_t cold_c(uint64_t n)
{
    volatile uint64_t out;
    uint64_t x = 0x94D049BB133111EBULL;
    for (uint64_t i = 0; i < n; i++) {
        x ^= x << 11;
        x ^= x >> 29;
        x ^= x << 14;
        __asm__ volatile("" : "+r"(x));
    }
    out = x;
    return out;
}

NOINLINE uint64_t work(int rounds)
{
    uint64_t acc = 0;
    for (int r = 0; r < rounds; r++) {
        acc += hot_a(6 * UNIT);
        acc ^= hot_b(3 * UNIT);
        acc += cold_c(1 * UNIT);
    }
    sink = acc;
    return acc;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : ROUNDS_DEFAULT;
    uint64_t r = work(rounds);
    /* stderr, not stdout: the pipe-mode case records with "-o -" to stdout. */
    fprintf(stderr, "rounds=%d result=%016llx\n", rounds, (unsigned long long)r);
    return 0;
}
