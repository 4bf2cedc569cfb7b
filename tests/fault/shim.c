/*
 * shim.c — an LD_PRELOAD fault injector for the CLI's fault tests (tests/fault/run.py,
 * tests/fault/resume.sh and the signal cases of tests/cli/).
 *
 * It wraps read(), write() and the allocation functions and makes them fail the way a
 * failing disk, a full disk, a closed pipe or exhausted memory would, at a chosen point, so
 * the tests can check that every failure ends with exit 2, a message naming the file and the
 * operation, and output that is a prefix of the correct output made of whole records.
 *
 * Everything is set from the environment (nothing set: the shim passes everything through):
 *   SB_FAULT_PATH=SUFFIX      read/write faults touch only descriptors whose path
 *                             (/proc/self/fd/N) ends with SUFFIX; every other fd is untouched
 *   SB_FAULT_READ_EIO=K       the first K bytes read from that file arrive (a read crossing K
 *                             is cut short at K), then every read fails with EIO
 *   SB_FAULT_WRITE_AFTER=K    the first K bytes written to that file go through (a write
 *                             crossing K is a short write, as a disk filling up gives), then
 *                             every write fails with SB_FAULT_WRITE_ERRNO
 *   SB_FAULT_WRITE_ERRNO=E    ENOSPC (default), EIO or EPIPE
 *   SB_FAULT_SHORT=S          every write to that file moves at most 1..S bytes (cycling), so
 *                             the caller must loop; nothing fails
 *   SB_FAULT_SIGNAL=SIG       KILL, TERM, INT, HUP, PIPE or a number: the signal sent to the
 *                             process (kill(getpid(), SIG)) once, at the point set by
 *   SB_FAULT_SIGNAL_WRITE=K   ... K bytes written to that file (the write crossing K is cut
 *                             at K, so with KILL the file ends exactly at byte K), or
 *   SB_FAULT_SIGNAL_READ=K    ... K bytes read from it (the read crossing K is cut at K).
 *                             An interruption triggered from a point in the work, not from a
 *                             clock: it lands mid-run on a machine of any speed, and a test
 *                             never signals a pid that may already have exited
 *   SB_FAULT_EXEC=CMD         at that same point (SB_FAULT_SIGNAL_WRITE/READ), first runs CMD
 *                             with /bin/sh and waits for it (tests/cli/hosts.sh: kill every
 *                             process of this rank's host, or take its link down, from a point
 *                             in the rank's own work); SB_FAULT_SIGNAL may then be unset
 *                             The written bytes of this trigger count pwrite as well as write
 *                             (an MPI rank writes -o FILE at offsets: MPI-IO's posix back end);
 *                             pread, and pwrite for the other faults, pass through untouched:
 *                             the program peeks at its first input with pread before reading
 *                             it, and "after K bytes" means K bytes of the stream
 *   SB_FAULT_MALLOC=N         the Nth allocation (malloc, calloc, realloc, aligned_alloc,
 *                             posix_memalign) called directly from the main program fails with
 *                             ENOMEM; allocations made inside libc, libgomp or ld.so are
 *                             neither counted nor failed (their failures are not the
 *                             program's to handle: libgomp aborts by design)
 *   SB_FAULT_MALLOC_COUNT=F   at exit, writes the number of counted allocations to file F
 *   SB_FAULT_TRACE=1          prints a backtrace to stderr where the allocation fails (to find
 *                             the code that mishandled it)
 *
 * Built with -DFAULT_NO_ALLOC (for ASan builds, whose runtime owns malloc) it wraps only read
 * and write. Allocation goes to glibc's __libc_* entry points, so the shim needs no dlsym for them (dlsym
 * itself allocates). The counters are atomics: the program runs OpenMP threads.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

typedef ssize_t (*io_fn)(int, void *, size_t);
typedef ssize_t (*pio_fn)(int, void *, size_t, off_t);

/* The fault plan, read once from the environment by the constructor. */
static struct {
    int ready;              /* the constructor has run: faults may fire */
    const char *path;       /* SB_FAULT_PATH, or NULL */
    long long read_eio;     /* SB_FAULT_READ_EIO, or -1 */
    long long write_after;  /* SB_FAULT_WRITE_AFTER, or -1 */
    int write_errno;        /* errno of the failing writes */
    long long short_max;    /* SB_FAULT_SHORT, or 0 */
    int signal;             /* SB_FAULT_SIGNAL, or 0 */
    const char *exec;       /* SB_FAULT_EXEC, or NULL */
    long long signal_write; /* SB_FAULT_SIGNAL_WRITE, or -1 */
    long long signal_read;  /* SB_FAULT_SIGNAL_READ, or -1 */
    long long malloc_at;    /* SB_FAULT_MALLOC (1-based), or 0 */
    const char *count_file; /* SB_FAULT_MALLOC_COUNT, or NULL */
    int trace;              /* SB_FAULT_TRACE: backtrace at the failing allocation */
    uintptr_t main_lo;      /* the main program's mapped address range, for callers */
    uintptr_t main_hi;
} plan;

/* Progress of the faults; updated from any thread. */
static long long read_bytes, written_bytes, short_turn, allocs;
static int signalled; /* SB_FAULT_SIGNAL has been sent */

/* Reads a number from the environment. @return its value, or dflt when unset. */
static long long env_num(const char *name, long long dflt)
{
    const char *s = getenv(name);
    return s && *s ? strtoll(s, NULL, 10) : dflt;
}

/* @return the signal SB_FAULT_SIGNAL names (KILL, TERM, ... or a number), or 0 when unset. */
static int env_signal(void)
{
    static const struct { const char *name; int sig; } names[] = {
        {"KILL", SIGKILL}, {"TERM", SIGTERM}, {"INT", SIGINT}, {"HUP", SIGHUP}, {"PIPE", SIGPIPE}};
    const char *s = getenv("SB_FAULT_SIGNAL");
    if (!s || !*s)
        return 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i].name) || (!strncmp(s, "SIG", 3) && !strcmp(s + 3, names[i].name)))
            return names[i].sig;
    return (int)strtol(s, NULL, 10);
}

/* Runs SB_FAULT_EXEC with /bin/sh and waits for it (it may well kill this process). */
static void run_exec(void)
{
    const pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", plan.exec, (char *)NULL);
        _exit(127);
    }
    if (pid > 0)
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
}

/* Runs SB_FAULT_EXEC and sends SB_FAULT_SIGNAL to the whole process once the counter has
 * reached its point; the first caller to see that does it (process-directed, so a handler
 * runs in whichever thread does not block it, as with a signal from outside). */
static void signal_at(long long done, long long point)
{
    if (point < 0 || done < point || __atomic_exchange_n(&signalled, 1, __ATOMIC_ACQ_REL))
        return;
    if (plan.exec)
        run_exec();
    if (plan.signal)
        kill(getpid(), plan.signal);
}

/* dl_iterate_phdr callback: the first object is the main program; records its range. */
static int find_main(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        const uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (!plan.main_lo || lo < plan.main_lo)
            plan.main_lo = lo;
        if (hi > plan.main_hi)
            plan.main_hi = hi;
    }
    return 1; /* stop after the main program */
}

/* Writes the allocation count for SB_FAULT_MALLOC_COUNT. */
static void report_count(void)
{
    FILE *f = fopen(plan.count_file, "w");
    if (f) {
        fprintf(f, "%lld\n", __atomic_load_n(&allocs, __ATOMIC_RELAXED));
        fclose(f);
    }
}

__attribute__((constructor)) static void shim_init(void)
{
    plan.path = getenv("SB_FAULT_PATH");
    plan.read_eio = env_num("SB_FAULT_READ_EIO", -1);
    plan.write_after = env_num("SB_FAULT_WRITE_AFTER", -1);
    const char *e = getenv("SB_FAULT_WRITE_ERRNO");
    plan.write_errno = !e || !strcmp(e, "ENOSPC") ? ENOSPC : !strcmp(e, "EIO") ? EIO : EPIPE;
    plan.short_max = env_num("SB_FAULT_SHORT", 0);
    plan.signal = env_signal();
    plan.exec = getenv("SB_FAULT_EXEC");
    if (plan.exec && !*plan.exec)
        plan.exec = NULL;
    plan.signal_write = plan.signal || plan.exec ? env_num("SB_FAULT_SIGNAL_WRITE", -1) : -1;
    plan.signal_read = plan.signal || plan.exec ? env_num("SB_FAULT_SIGNAL_READ", -1) : -1;
    plan.malloc_at = env_num("SB_FAULT_MALLOC", 0);
    plan.count_file = getenv("SB_FAULT_MALLOC_COUNT");
    plan.trace = env_num("SB_FAULT_TRACE", 0) != 0;
    if (plan.trace) { /* backtrace() loads libgcc on first use, which allocates: do it now */
        void *frames[1];
        backtrace(frames, 1);
    }
    dl_iterate_phdr(find_main, NULL);
    if (plan.count_file)
        atexit(report_count);
    plan.ready = 1;
}

/* @return 1 when fd is the file SB_FAULT_PATH names. */
static int targeted(int fd)
{
    if (!plan.ready || !plan.path)
        return 0;
    char link[64], target[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    const ssize_t n = readlink(link, target, sizeof target - 1);
    if (n < 0)
        return 0;
    target[n] = '\0';
    const size_t lp = strlen(plan.path);
    return (size_t)n >= lp && !strcmp(target + n - lp, plan.path);
}

/* The next function of that name after the shim (libc's). */
static void *next_fn(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

/* read(2) or pread(2) (pos set: at offset at) through the next definition of that name. */
static ssize_t real_read(int fd, void *buf, size_t n, off_t at, int pos)
{
    static io_fn plain;
    static pio_fn positional;
    if (pos) {
        if (!positional)
            positional = (pio_fn)next_fn("pread");
        return positional(fd, buf, n, at);
    }
    if (!plain)
        plain = (io_fn)next_fn("read");
    return plain(fd, buf, n);
}

/* write(2) or pwrite(2) (pos set: at offset at) through the next definition of that name. */
static ssize_t real_write(int fd, const void *buf, size_t n, off_t at, int pos)
{
    static io_fn plain;
    static pio_fn positional;
    if (pos) {
        if (!positional)
            positional = (pio_fn)next_fn("pwrite");
        return positional(fd, (void *)buf, n, at);
    }
    if (!plain)
        plain = (io_fn)next_fn("write");
    return plain(fd, (void *)buf, n);
}

/* A read with the read faults of the plan. */
static ssize_t faulty_read(int fd, void *buf, size_t n)
{
    if ((plan.read_eio >= 0 || plan.signal_read >= 0) && targeted(fd)) {
        const long long done = __atomic_load_n(&read_bytes, __ATOMIC_RELAXED);
        signal_at(done, plan.signal_read);
        if (plan.read_eio >= 0 && done >= plan.read_eio) {
            errno = EIO;
            return -1;
        }
        if (plan.read_eio >= 0 && (long long)n > plan.read_eio - done)
            n = (size_t)(plan.read_eio - done);
        if (plan.signal_read > done && (long long)n > plan.signal_read - done)
            n = (size_t)(plan.signal_read - done);
        const ssize_t got = real_read(fd, buf, n, 0, 0);
        if (got > 0)
            signal_at(__atomic_add_fetch(&read_bytes, got, __ATOMIC_RELAXED), plan.signal_read);
        return got;
    }
    return real_read(fd, buf, n, 0, 0);
}

/* A write (pwrite when pos) with the write faults of the plan. */
static ssize_t faulty_write(int fd, const void *buf, size_t n, off_t at, int pos)
{
    if ((plan.write_after >= 0 || plan.short_max > 0 || plan.signal_write >= 0) && n > 0 &&
        targeted(fd)) {
        const long long done = __atomic_load_n(&written_bytes, __ATOMIC_RELAXED);
        signal_at(done, plan.signal_write);
        if (plan.short_max > 0) {
            const long long turn = __atomic_add_fetch(&short_turn, 1, __ATOMIC_RELAXED);
            const size_t most = (size_t)(1 + turn % plan.short_max);
            if (n > most)
                n = most;
        }
        if (plan.write_after >= 0) {
            if (done >= plan.write_after) {
                errno = plan.write_errno;
                return -1;
            }
            if ((long long)n > plan.write_after - done)
                n = (size_t)(plan.write_after - done);
        }
        if (plan.signal_write > done && (long long)n > plan.signal_write - done)
            n = (size_t)(plan.signal_write - done);
        const ssize_t put = real_write(fd, buf, n, at, pos);
        if (put > 0)
            signal_at(__atomic_add_fetch(&written_bytes, put, __ATOMIC_RELAXED), plan.signal_write);
        return put;
    }
    return real_write(fd, buf, n, at, pos);
}

ssize_t read(int fd, void *buf, size_t n)
{
    return faulty_read(fd, buf, n);
}

ssize_t pread(int fd, void *buf, size_t n, off_t at)
{
    return real_read(fd, buf, n, at, 1);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t at)
{
    return real_read(fd, buf, n, at, 1);
}

/* A pwrite: only the signal trigger sees it (see SB_FAULT_EXEC above). */
static ssize_t positional_write(int fd, const void *buf, size_t n, off_t at)
{
    if (plan.signal_write < 0)
        return real_write(fd, buf, n, at, 1);
    return faulty_write(fd, buf, n, at, 1);
}

ssize_t write(int fd, const void *buf, size_t n)
{
    return faulty_write(fd, buf, n, 0, 0);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t at)
{
    return positional_write(fd, buf, n, at);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t at)
{
    return positional_write(fd, buf, n, at);
}

#ifndef FAULT_NO_ALLOC /* an ASan build: its runtime owns malloc, which must not be wrapped */

/* @return 1 when this allocation, called from caller, is the one to fail (counts it). */
static int alloc_fails(const void *caller)
{
    const uintptr_t a = (uintptr_t)caller;
    if (!plan.ready || a < plan.main_lo || a >= plan.main_hi)
        return 0;
    const long long k = __atomic_add_fetch(&allocs, 1, __ATOMIC_RELAXED);
    if (plan.malloc_at <= 0 || k != plan.malloc_at)
        return 0;
    if (plan.trace) {
        void *frames[16];
        backtrace_symbols_fd(frames, backtrace(frames, 16), STDERR_FILENO);
    }
    return 1;
}

void *malloc(size_t n)
{
    if (alloc_fails(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_malloc(n);
}

void *calloc(size_t k, size_t n)
{
    if (alloc_fails(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_calloc(k, n);
}

void *realloc(void *p, size_t n)
{
    if (alloc_fails(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_realloc(p, n);
}

void *aligned_alloc(size_t align, size_t n)
{
    if (alloc_fails(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_memalign(align, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    if (alloc_fails(__builtin_return_address(0)))
        return ENOMEM;
    void *p = __libc_memalign(align, n);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

#endif /* FAULT_NO_ALLOC */
