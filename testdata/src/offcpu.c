/*
 * perfan test program for off-CPU analysis (issue 12): waits of known length
 * in distinctly named functions, one named thread per kind of wait, plus a
 * CPU-bound thread, all running at once (~0.5 s in all).
 *
 *   thread "sleeper": wait_sleep  SLEEPS x nanosleep(SLEEP_MS)       (S)
 *   thread "locker":  wait_mutex  LOCKS x pthread_mutex_lock on a mutex
 *                     that thread "holder" (function holder) holds while it
 *                     sleeps HOLD_MS (futex, S)
 *   thread "reader":  wait_pipe   PIPES x read() of a pipe that thread
 *                     "writer" (function writer) writes after PIPE_MS (S)
 *   thread "disk":    wait_disk   DISKS x (pwrite DISK_KB of a file, fsync)
 *                     and wait_disk_direct  DISKS x O_DIRECT pread of it
 *                     (D, where the block device really waits)
 *   thread "spinner": spin        CPU-bound loop of SPIN_ITERS xorshift
 *                     steps, no system call (≈300 ms of CPU on the
 *                     recording VM; the .out file gives its CPU time)
 *   main (comm "offcpu"): starts the threads, joins them.
 *
 * Each thread measures every planted wait itself with
 * clock_gettime(CLOCK_MONOTONIC) (wall) and CLOCK_THREAD_CPUTIME_ID (its own
 * CPU time during the wait), and after all threads are joined main prints,
 * to stdout:
 *   call THREAD TID SITE I WALL_NS CPU_NS   one line per planted wait
 *   site THREAD TID SITE N WALL_NS CPU_NS   the sums per call site
 *   thread THREAD TID WALL_NS CPU_NS        the thread's own lifetime (from
 *                                           its first to last statement) and
 *                                           CPU time
 * The off-CPU time of a wait is about WALL_NS - CPU_NS.
 * A planted wait's call is made through a noinline helper (sleep_once,
 * lock_once, read_once, ...), so that with frame-pointer stacks, which skip
 * the caller of a libc leaf function, the planted function still shows.
 *
 * Usage: ./offcpu [FILE]   (FILE: scratch file for wait_disk, default
 *        offcpu.scratch in the current directory; removed at the end)
 * Build: gcc -O2 -g -fno-omit-frame-pointer -pthread -o offcpu offcpu.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

#define SLEEPS 20
#define SLEEP_MS 10
#define LOCKS 5
#define HOLD_MS 40
#define PIPES 5
#define PIPE_MS 40
#define DISKS 8
#define DISK_KB 1024
#define SPIN_ITERS 150000000ULL

#define MAXCALLS 64

struct call {
    const char *site;
    int64_t wall_ns, cpu_ns;
};

struct thr {
    const char *name;
    pid_t tid;
    int64_t wall_ns, cpu_ns;
    int ncalls;
    struct call calls[MAXCALLS];
};

static struct thr threads[8];
static int nthreads;
static const char *scratch = "offcpu.scratch";

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t lock_bar;
static int pipefd[2];
volatile uint64_t sink;

/* noinline, as mark_begin and mark_end below: see there */
NOINLINE static int64_t now(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void die(const char *what)
{
    fprintf(stderr, "offcpu: %s: %s\n", what, strerror(errno));
    exit(1);
}

/* noinline: inlined after the call of a thread's work, thr_end's code
 * would start at that call's return address, where an unwinder that looks
 * up inlined frames at the return address itself (not the call) finds it */
NOINLINE static struct thr *thr_begin(struct thr *t)
{
    pthread_setname_np(pthread_self(), t->name);
    t->tid = (pid_t)syscall(SYS_gettid);
    t->wall_ns = -now(CLOCK_MONOTONIC);
    t->cpu_ns = -now(CLOCK_THREAD_CPUTIME_ID);
    return t;
}

NOINLINE static void thr_end(struct thr *t)
{
    t->wall_ns += now(CLOCK_MONOTONIC);
    t->cpu_ns += now(CLOCK_THREAD_CPUTIME_ID);
}

/* One planted wait: the times around it go into t->calls. now(),
 * mark_begin and mark_end are noinline, with frames: a frame-pointer stack
 * sampled in libc's clock_gettime (preempted in the CPU-clock syscall)
 * skips its caller, which is then now() and not the planted function (or
 * spin, whose loop reads the clock). */
struct mark {
    int64_t wall, cpu;
};

NOINLINE static struct mark mark_begin(void)
{
    struct mark m = {now(CLOCK_MONOTONIC), now(CLOCK_THREAD_CPUTIME_ID)};
    return m;
}

NOINLINE static void mark_end(struct thr *t, const char *site, struct mark m)
{
    struct call *c = &t->calls[t->ncalls++];
    c->site = site;
    c->wall_ns = now(CLOCK_MONOTONIC) - m.wall;
    c->cpu_ns = now(CLOCK_THREAD_CPUTIME_ID) - m.cpu;
}

NOINLINE void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
    __asm__ volatile("" ::: "memory");
}

/* ---- S: nanosleep -------------------------------------------------------- */

NOINLINE void sleep_once(void)
{
    sleep_ms(SLEEP_MS);
}

NOINLINE void wait_sleep(struct thr *t)
{
    for (int i = 0; i < SLEEPS; i++) {
        struct mark m = mark_begin();
        sleep_once();
        mark_end(t, "wait_sleep", m);
    }
}

static void *sleeper_main(void *arg)
{
    struct thr *t = thr_begin(arg);
    wait_sleep(t);
    thr_end(t);
    return NULL;
}

/* ---- futex: a mutex another thread holds while it sleeps ----------------- */

NOINLINE void lock_once(void)
{
    pthread_mutex_lock(&lock);
    __asm__ volatile("" ::: "memory");
}

/* The barriers are outside wait_mutex and holder, so that a stack through
 * them names only the planted wait: locker_main and holder_main do
 *   holder: lock; barrier; holder() [sleep HOLD_MS]; unlock; barrier
 *   locker:       barrier; wait_mutex() [lock: waits]; unlock; barrier */
NOINLINE void wait_mutex(struct thr *t)
{
    struct mark m = mark_begin();
    lock_once();
    mark_end(t, "wait_mutex", m);
}

NOINLINE void holder(struct thr *t)
{
    struct mark m = mark_begin();
    sleep_ms(HOLD_MS);
    mark_end(t, "holder", m);
}

static void *locker_main(void *arg)
{
    struct thr *t = thr_begin(arg);
    for (int i = 0; i < LOCKS; i++) {
        pthread_barrier_wait(&lock_bar); /* holder has the lock now */
        wait_mutex(t);
        pthread_mutex_unlock(&lock);
        pthread_barrier_wait(&lock_bar); /* holder may lock again */
    }
    thr_end(t);
    return NULL;
}

static void *holder_main(void *arg)
{
    struct thr *t = thr_begin(arg);
    for (int i = 0; i < LOCKS; i++) {
        pthread_mutex_lock(&lock);
        pthread_barrier_wait(&lock_bar);
        holder(t);
        pthread_mutex_unlock(&lock);
        /* let the locker take it before this thread locks again */
        pthread_barrier_wait(&lock_bar);
    }
    thr_end(t);
    return NULL;
}

/* ---- pipe: a read that waits for another thread's write ------------------ */

NOINLINE void read_once(void)
{
    char c;
    if (read(pipefd[0], &c, 1) != 1)
        die("read pipe");
}

NOINLINE void wait_pipe(struct thr *t)
{
    for (int i = 0; i < PIPES; i++) {
        struct mark m = mark_begin();
        read_once();
        mark_end(t, "wait_pipe", m);
    }
}

NOINLINE void writer(struct thr *t)
{
    for (int i = 0; i < PIPES; i++) {
        struct mark m = mark_begin();
        sleep_ms(PIPE_MS);
        mark_end(t, "writer", m);
        if (write(pipefd[1], "x", 1) != 1)
            die("write pipe");
    }
}

static void *reader_main(void *arg)
{
    struct thr *t = thr_begin(arg);
    wait_pipe(t);
    thr_end(t);
    return NULL;
}

static void *writer_main(void *arg)
{
    struct thr *t = thr_begin(arg);
    writer(t);
    thr_end(t);
    return NULL;
}

/* ---- D: fsync of written data, O_DIRECT reads ---------------------------- */

NOINLINE void fsync_once(int fd, const char *buf, int i)
{
    if (pwrite(fd, buf, DISK_KB * 1024, (off_t)i * DISK_KB * 1024) != DISK_KB * 1024)
        die("pwrite");
    if (fsync(fd) != 0)
        die("fsync");
}

NOINLINE void wait_disk(struct thr *t, int fd, const char *buf)
{
    for (int i = 0; i < DISKS; i++) {
        struct mark m = mark_begin();
        fsync_once(fd, buf, i);
        mark_end(t, "wait_disk", m);
    }
}

NOINLINE void direct_once(int fd, char *buf, int i)
{
    if (pread(fd, buf, DISK_KB * 1024, (off_t)i * DISK_KB * 1024) != DISK_KB * 1024)
        die("pread O_DIRECT");
}

NOINLINE void wait_disk_direct(struct thr *t, int fd, char *buf)
{
    for (int i = 0; i < DISKS; i++) {
        struct mark m = mark_begin();
        direct_once(fd, buf, i);
        mark_end(t, "wait_disk_direct", m);
    }
}

static void *disk_main(void *arg)
{
    struct thr *t = thr_begin(arg);
    char *buf;
    if (posix_memalign((void **)&buf, 4096, DISK_KB * 1024) != 0)
        die("posix_memalign");
    for (int i = 0; i < DISK_KB * 1024; i++)
        buf[i] = (char)(i * 131 + 7);
    int fd = open(scratch, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        die(scratch);
    wait_disk(t, fd, buf);
    close(fd);
    fd = open(scratch, O_RDONLY | O_DIRECT);
    if (fd < 0)
        die("open O_DIRECT");
    wait_disk_direct(t, fd, buf);
    close(fd);
    unlink(scratch);
    free(buf);
    thr_end(t);
    return NULL;
}

/* ---- CPU: a spin of SPIN_ITERS steps, no system call in it ----------------- */

/* the loop is in spin itself: a leaf function gets no frame pointer from
 * GCC, and a frame-pointer stack sampled inside one skips its caller (an
 * inlined helper would add an inlined frame that perf 6.1's script leaves
 * out of frame-pointer stacks).  A fixed count, not a CPU-time bound: a read
 * of the thread's CPU clock is a system call (through the vDSO), and a
 * preemption there leaves a stack in the vDSO, which testdata lacks */
NOINLINE void spin(struct thr *t)
{
    struct mark m = mark_begin();
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (uint64_t i = 0; i < SPIN_ITERS; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        __asm__ volatile("" : "+r"(x));
    }
    sink += x;
    mark_end(t, "spin", m);
}

static void *spinner_main(void *arg)
{
    struct thr *t = thr_begin(arg);
    spin(t);
    thr_end(t);
    return NULL;
}

/* -------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void *(*fn)(void *);
    } kinds[] = {
        {"sleeper", sleeper_main}, {"locker", locker_main}, {"holder", holder_main},
        {"reader", reader_main},   {"writer", writer_main}, {"disk", disk_main},
        {"spinner", spinner_main},
    };
    pthread_t tids[8];
    struct thr *main_t = &threads[0];

    if (argc > 1)
        scratch = argv[1];
    main_t->name = "offcpu";
    thr_begin(main_t);
    if (pipe(pipefd) != 0)
        die("pipe");
    pthread_barrier_init(&lock_bar, NULL, 2);
    nthreads = 1;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        struct thr *t = &threads[nthreads++];
        t->name = kinds[k].name;
        if (pthread_create(&tids[k], NULL, kinds[k].fn, t) != 0)
            die("pthread_create");
    }
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        pthread_join(tids[k], NULL);
    thr_end(main_t);

    for (int i = 0; i < nthreads; i++) {
        struct thr *t = &threads[i];
        for (int j = 0; j < t->ncalls; j++)
            printf("call %s %d %s %d %lld %lld\n", t->name, (int)t->tid, t->calls[j].site, j,
                   (long long)t->calls[j].wall_ns, (long long)t->calls[j].cpu_ns);
    }
    for (int i = 0; i < nthreads; i++) {
        struct thr *t = &threads[i];
        for (int j = 0; j < t->ncalls; j++) {
            int seen = 0;
            for (int k = 0; k < j; k++)
                seen |= strcmp(t->calls[k].site, t->calls[j].site) == 0;
            if (seen)
                continue;
            int64_t w = 0, c = 0;
            int n = 0;
            for (int k = j; k < t->ncalls; k++)
                if (strcmp(t->calls[k].site, t->calls[j].site) == 0) {
                    w += t->calls[k].wall_ns;
                    c += t->calls[k].cpu_ns;
                    n++;
                }
            printf("site %s %d %s %d %lld %lld\n", t->name, (int)t->tid, t->calls[j].site, n,
                   (long long)w, (long long)c);
        }
    }
    for (int i = 0; i < nthreads; i++)
        printf("thread %s %d %lld %lld\n", threads[i].name, (int)threads[i].tid,
               (long long)threads[i].wall_ns, (long long)threads[i].cpu_ns);
    return 0;
}
