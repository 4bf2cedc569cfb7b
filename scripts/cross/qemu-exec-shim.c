/*
 * scripts/cross/qemu-exec-shim.c — LD_PRELOAD'ed into a program running under qemu user-mode
 * emulation (scripts/cross/qemu-run --preload): an exec of a guest-architecture program goes
 * through qemu again instead of failing.
 *
 * Why: Criterion runs each test in a worker that it starts with execl("/proc/self/exe"
 * resolved, "boxfort-worker"). Under qemu-user that exec reaches the host kernel, which cannot
 * run an aarch64 ELF without a binfmt_misc handler (a root-only, machine-wide setting), so
 * every test fails with "Could not spawn test instance: Protocol error". This shim catches
 * execl/execv/execve of an ELF whose machine differs from the host's qemu and execs
 * $SB_QEMU_EXEC (the host qemu binary) with -0 ARGV0 -E LD_PRELOAD=<this shim> PROGRAM
 * ARGS instead; the guest library prefix travels in QEMU_LD_PREFIX, the library path in the
 * environment as it is. Anything else (host programs, scripts) is exec'ed unchanged.
 *
 * Built by the Makefile with the cross compiler for CROSS builds only; not part of the library.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

#define MAX_ARGS 256

typedef int execve_fn(const char *, char *const[], char *const[]);

/* 1 when path is an ELF file for this (the guest's) architecture. */
static int guest_elf(const char *path)
{
    Elf64_Ehdr h;
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    const ssize_t n = read(fd, &h, sizeof h);
    close(fd);
#if defined(__aarch64__)
    const int machine = EM_AARCH64;
#else
    const int machine = -1;
#endif
    return n == (ssize_t)sizeof h && !memcmp(h.e_ident, ELFMAG, SELFMAG) && h.e_machine == machine;
}

int execve(const char *path, char *const argv[], char *const envp[])
{
    execve_fn *real = (execve_fn *)dlsym(RTLD_NEXT, "execve");
    const char *qemu = getenv("SB_QEMU_EXEC");
    const char *preload = getenv("LD_PRELOAD");
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    if (!qemu || !*qemu || !guest_elf(path))
        return real(path, argv, envp);

    /* qemu -0 ARGV0 [-E LD_PRELOAD=...] PATH ARGV[1..] */
    static char pre[4096];
    char *args[MAX_ARGS + 8];
    int n = 0, argc = 0;
    while (argv[argc])
        argc++;
    if (argc > MAX_ARGS) {
        errno = E2BIG;
        return -1;
    }
    args[n++] = (char *)qemu;
    args[n++] = "-0";
    args[n++] = argc ? argv[0] : (char *)path;
    if (preload && *preload && strlen(preload) + 12 < sizeof pre) {
        strcpy(pre, "LD_PRELOAD=");
        strcat(pre, preload);
        args[n++] = "-E";
        args[n++] = pre;
    }
    args[n++] = (char *)path;
    for (int i = 1; i < argc; i++)
        args[n++] = argv[i];
    args[n] = NULL;

    /* The host qemu must not see the guest's LD_PRELOAD (wrong ELF class for its loader). */
    int envc = 0;
    while (envp && envp[envc])
        envc++;
    char **env = malloc((size_t)(envc + 1) * sizeof *env);
    if (!env) {
        errno = ENOMEM;
        return -1;
    }
    int m = 0;
    for (int i = 0; i < envc; i++)
        if (strncmp(envp[i], "LD_PRELOAD=", 11))
            env[m++] = envp[i];
    env[m] = NULL;
    const int rc = real(qemu, args, env);
    const int err = errno;
    free(env);
    errno = err;
    return rc;
}

int execv(const char *path, char *const argv[])
{
    return execve(path, argv, environ);
}

int execl(const char *path, const char *arg, ...)
{
    char *argv[MAX_ARGS + 1];
    int n = 0;
    va_list ap;
    argv[n++] = (char *)arg;
    va_start(ap, arg);
    while (arg && n < MAX_ARGS) {
        arg = va_arg(ap, const char *);
        argv[n++] = (char *)arg;
    }
    va_end(ap);
    argv[n] = NULL;
    return execve(path, argv, environ);
}
