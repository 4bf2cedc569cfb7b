/*
 * mpi_ready.c — an LD_PRELOAD shim for tests/cli/slurm.sh: tells whether a rank got through
 * MPI_Init. Open MPI 4.1's TCP BTL can kill a rank with SIGSEGV inside MPI_Init when a peer's
 * connection arrives before the peer is added (open-mpi/ompi#3035; about one multi-node job
 * in ten under load here). The test must tell that start-up failure, which is Open MPI's,
 * from a crash of the program, which is a failure: a rank that returns from MPI_Init or
 * MPI_Init_thread creates SB_MPI_READY_DIR/ready.PID, so a job with fewer files than ranks
 * died in Open MPI's start-up. Nothing else changes: the real call's result is returned.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Creates SB_MPI_READY_DIR/ready.PID (nothing when the variable is unset). */
static void mark_ready(void)
{
    const char *dir = getenv("SB_MPI_READY_DIR");
    char path[4096];
    if (!dir || snprintf(path, sizeof path, "%s/ready.%ld", dir, (long)getpid()) >= (int)sizeof path)
        return;
    const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0)
        close(fd);
}

/* MPI_Init_thread, then the mark. Declared without mpi.h: the shim is built with plain cc. */
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int (*real)(int *, char ***, int, int *) =
        (int (*)(int *, char ***, int, int *))dlsym(RTLD_NEXT, "MPI_Init_thread");
    if (!real)
        abort(); /* preloaded into a program without MPI: nothing to wrap */
    const int rc = real(argc, argv, required, provided);
    mark_ready();
    return rc;
}

/* MPI_Init, then the mark. */
int MPI_Init(int *argc, char ***argv)
{
    int (*real)(int *, char ***) = (int (*)(int *, char ***))dlsym(RTLD_NEXT, "MPI_Init");
    if (!real)
        abort();
    const int rc = real(argc, argv);
    mark_ready();
    return rc;
}
