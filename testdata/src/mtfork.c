/*
 * perfan test program: threads + fork + exec under one recording.
 *
 *   main thread : creates pthread "worker" (pthread_setname_np -> COMM),
 *                 forks a child, runs main_spin, joins, waits.
 *   worker      : thread_work -> spin            (~0.2 s)
 *   child       : prctl name "mt-child" (COMM), child_work -> spin (~0.1 s),
 *                 then execs /bin/true (COMM|exec, new MMAPs, EXIT)
 *
 * Build: gcc -O2 -g -fno-omit-frame-pointer -pthread -o mtfork mtfork.c
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define NOINLINE __attribute__((noinline))
#define UNIT 2000000ULL

volatile uint64_t sink;

NOINLINE uint64_t spin(uint64_t n)
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

NOINLINE void *thread_work(void *arg)
{
    (void)arg;
    for (int i = 0; i < 50; i++)
        sink += spin(UNIT);
    return NULL;
}

NOINLINE void child_work(void)
{
    prctl(PR_SET_NAME, "mt-child", 0, 0, 0);
    for (int i = 0; i < 25; i++)
        sink += spin(UNIT);
    execl("/bin/true", "true", (char *)NULL);
    _exit(127);
}

NOINLINE void main_spin(void)
{
    for (int i = 0; i < 25; i++)
        sink += spin(UNIT);
}

int main(void)
{
    pthread_t th;
    if (pthread_create(&th, NULL, thread_work, NULL) != 0) {
        fprintf(stderr, "pthread_create failed\n");
        return 1;
    }
    pthread_setname_np(th, "worker");
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0)
        child_work();
    main_spin();
    pthread_join(th, NULL);
    int status = 0;
    waitpid(pid, &status, 0);
    printf("child exit=%d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}
