/*
 * perfan test program for sched:sched_switch recordings.
 *
 * Deterministic shape: the parent forks one child, then does SLEEPS rounds of
 * (short spin, usleep(2000), sched_yield()).  The child renames itself
 * (prctl PR_SET_NAME "sched-child" -> COMM record), does a few usleep rounds
 * of its own and then execs /bin/true (COMM|exec record).  The parent waits
 * for it (FORK / EXIT records).
 *
 * Build: gcc -O2 -g -fno-omit-frame-pointer -o sched sched.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define NOINLINE __attribute__((noinline))
#define SLEEPS 100
#define CHILD_SLEEPS 20

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

NOINLINE void nap(void)
{
    usleep(2000);
}

NOINLINE void child_main(void)
{
    prctl(PR_SET_NAME, "sched-child", 0, 0, 0);
    for (int i = 0; i < CHILD_SLEEPS; i++) {
        sink += spin(20000);
        nap();
    }
    execl("/bin/true", "true", (char *)NULL);
    _exit(127);
}

NOINLINE void parent_loop(void)
{
    for (int i = 0; i < SLEEPS; i++) {
        sink += spin(50000);
        nap();
        sched_yield();
    }
}

int main(void)
{
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0)
        child_main();
    parent_loop();
    int status = 0;
    waitpid(pid, &status, 0);
    printf("child exit=%d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}
