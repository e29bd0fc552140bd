/*
 * perfan test program: threads whose names look like what perfan once
 * wrote into frame names and read back (issue 33).
 *
 *   main thread "lookalike" starts two pthreads and joins them:
 *   "x-1/2"        : a comm that reads as a "comm-PID/TID" root
 *   "[off-cpu: R]" : a comm that reads as an off-CPU leaf
 *   Each runs 20 rounds of spin (~4 ms of CPU) then usleep(4000), so it
 *   has on-CPU samples and sleeps (sched_switch out in state S).
 *
 * Build: gcc -O2 -g -fno-omit-frame-pointer -pthread -o lookalike lookalike.c
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

volatile uint64_t sink;

NOINLINE uint64_t spin(uint64_t n)
{
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (uint64_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        __asm__ volatile("" : "+r"(x));
    }
    return x;
}

NOINLINE void *work(void *arg)
{
    pthread_setname_np(pthread_self(), (const char *)arg);
    for (int i = 0; i < 20; i++) {
        sink += spin(4000000);
        usleep(4000);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, work, "x-1/2");
    pthread_create(&b, NULL, work, "[off-cpu: R]");
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%llu\n", (unsigned long long)sink);
    return 0;
}
